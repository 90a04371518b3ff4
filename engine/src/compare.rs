//! Rulesets side by side: one row per aspect of the game (pack, deal, bidding, obligations, the
//! Excuse, counting, scoring...), one column per ruleset, each cell the ruleset's clauses for that
//! aspect with their sources, and the rows that differ marked. Built from `describe`, which is derived
//! from the compiled rules, so a new rule file takes its place in a comparison with no code change.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::describe::{describe, Line};
use crate::ir::Ruleset;

/// Rulesets side by side: one row per aspect, one cell per ruleset.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Comparison {
    pub rulesets: Vec<String>,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ComparisonRow))]
#[serde(deny_unknown_fields)]
pub struct Row {
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub aspect: &'static str,
    /// The rulesets do not all say the same here.
    pub differs: bool,
    /// One cell per ruleset, in the order asked for: its clauses for this aspect.
    pub cells: Vec<Vec<Line>>,
}

/// Compares rulesets, each with its default options.
pub fn compare(rulesets: &[&Ruleset]) -> Comparison {
    compare_with(rulesets, describe)
}

/// As `compare`, in the words of the pages for people (`describe_for_people`).
pub fn compare_for_people(rulesets: &[&Ruleset]) -> Comparison {
    compare_with(rulesets, crate::describe::describe_for_people)
}

fn compare_with(rulesets: &[&Ruleset], describe: fn(&Ruleset, &BTreeMap<String, serde_json::Value>) -> crate::describe::Description) -> Comparison {
    let described: Vec<_> = rulesets.iter().map(|r| describe(r, &BTreeMap::new())).collect();
    // Aspects in the order the descriptions give them, the first ruleset's first.
    let mut aspects: Vec<&'static str> = vec![];
    for d in &described {
        for l in &d.rules {
            if !aspects.contains(&l.aspect) {
                aspects.push(l.aspect);
            }
        }
    }
    let rows = aspects
        .into_iter()
        .map(|aspect| {
            let cells: Vec<Vec<Line>> = described.iter().map(|d| d.rules.iter().filter(|l| l.aspect == aspect).cloned().collect()).collect();
            let texts: Vec<Vec<&str>> = cells.iter().map(|c| c.iter().map(|l| l.text.as_str()).collect()).collect();
            let differs = texts.windows(2).any(|w| w[0] != w[1]);
            Row { aspect, differs, cells }
        })
        .collect();
    Comparison { rulesets: rulesets.iter().map(|r| r.id.clone()).collect(), rows }
}

impl Comparison {
    /// The table as text: each aspect, marked `≠` where the rulesets differ, then each ruleset's
    /// clauses with their sources.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.rulesets.join(" | "));
        for row in &self.rows {
            let _ = writeln!(out, "\n{} {}", if row.differs { "≠" } else { "=" }, row.aspect);
            // Identical cells are shown once, for all.
            let columns: Vec<(&str, &Vec<Line>)> = if row.differs { self.rulesets.iter().map(String::as_str).zip(&row.cells).collect() } else { vec![("all", &row.cells[0])] };
            for (id, cell) in columns {
                if cell.is_empty() {
                    let _ = writeln!(out, "  {id}: (nothing)");
                }
                for (i, line) in cell.iter().enumerate() {
                    let head = if i == 0 { format!("{id}:") } else { String::new() };
                    let source = line.source.as_deref().map(|s| format!("  [{s}]")).unwrap_or_default();
                    let _ = writeln!(out, "  {head:<16} {}{source}", line.text);
                }
            }
        }
        out
    }
}

/// One game replayed under several rulesets.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct GameComparison {
    pub rulesets: Vec<String>,
    pub replays: Vec<Replayed>,
    /// Where legality first diverges; absent when every ruleset agrees.
    // In words: "event 37: legal under A, which has no play.must.overtrump; illegal under B (...)".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divergence: Option<Divergence>,
}

/// The game under one ruleset: its verdict, or why it cannot be replayed there.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Replayed {
    pub ruleset: String,
    // The verdict; absent when the game cannot be replayed under this ruleset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<crate::Verdict>,
    /// Why the game cannot be replayed under this ruleset (another pack, another number of players).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cannot_replay: Option<String>,
    /// Options of the record this ruleset does not have, left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options_dropped: Vec<String>,
}

/// The first event where the rulesets disagree: legal (or played) under some, illegal (or the deal
/// annulled) under others.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Divergence {
    pub event: usize,
    // The rulesets under which the game goes on past this event.
    pub legal_under: Vec<String>,
    // The rulesets under which this event breaks a rule.
    pub illegal_under: Vec<String>,
    /// Rulesets under which the deal was annulled at or before this event.
    // At this event: a petit sec, everyone passing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annulled_under: Vec<String>,
    pub explanation: String,
}

/// Where a replay stops: at the first event that breaks a rule or annuls the deal.
enum Stop {
    Broken(usize),
    Annulled(usize, crate::verdict::Annulled),
}

impl Stop {
    fn event(&self) -> usize {
        match self {
            Stop::Broken(e) | Stop::Annulled(e, _) => *e,
        }
    }
}

/// The event at which the deal is annulled under `rules`, looked for among the first `upto` events:
/// the shortest prefix of the record whose verdict is `annulled` (a verdict does not say at which
/// event its annulment came).
fn annulled_at(rules: &Ruleset, record: &crate::GameRecord, upto: usize) -> Option<(usize, crate::verdict::Annulled)> {
    let mut prefix = crate::GameRecord { events: Vec::with_capacity(upto), ..record.clone() };
    for (i, event) in record.events.iter().take(upto).enumerate() {
        prefix.events.push(event.clone());
        if let Some(a) = crate::replay(rules, &prefix).ok().and_then(|v| v.annulled) {
            return Some((i, a));
        }
    }
    None
}

/// Replays `record` under each ruleset (its own `ruleset` field is ignored) and says where legality
/// first diverges.
pub fn compare_game(rulesets: &[&Ruleset], record: &crate::GameRecord) -> GameComparison {
    let replays: Vec<Replayed> = rulesets
        .iter()
        .map(|r| {
            let mut rec = record.clone();
            rec.ruleset = r.id.clone();
            let options_dropped: Vec<String> = rec.options.keys().filter(|k| !r.options.iter().any(|o| &o.name == *k)).cloned().collect();
            rec.options.retain(|k, _| !options_dropped.contains(k));
            // A deal this ruleset annuls is over there: replay refuses the events that follow it, which
            // another ruleset may play. The comparison shows the annulment, noting what follows it.
            let replayed = crate::replay(r, &rec).or_else(|e| {
                let at = e.event.filter(|&i| i > 0 && i < rec.events.len()).ok_or(e.clone())?;
                let mut until = rec.clone();
                until.events.truncate(at);
                match crate::replay(r, &until) {
                    Ok(mut v) if v.status == crate::Status::Annulled => {
                        v.notes.push(format!("the record goes on after the annulment, from event {at}: {} ends the deal there", r.id));
                        Ok(v)
                    }
                    _ => Err(e),
                }
            });
            match replayed {
                Ok(v) => Replayed { ruleset: r.id.clone(), verdict: Some(v), cannot_replay: None, options_dropped },
                Err(e) => Replayed { ruleset: r.id.clone(), verdict: None, cannot_replay: Some(e.to_string()), options_dropped },
            }
        })
        .collect();
    // Where each replay stops (a broken rule, an annulment), read on the record as that ruleset replayed
    // it; the earliest stop is where the rulesets that go on past it diverge from those that stop there.
    let stops: Vec<Option<Stop>> = replays
        .iter()
        .zip(rulesets)
        .map(|(p, r)| {
            let v = p.verdict.as_ref()?;
            let mut rec = record.clone();
            rec.ruleset = r.id.clone();
            rec.options.retain(|k, _| !p.options_dropped.contains(k));
            let broken = v.violation.as_ref().map(|x| x.event);
            let annulled = match v.status {
                crate::Status::Annulled => annulled_at(r, &rec, rec.events.len()),
                // An annulment before the broken rule stopped the deal first.
                crate::Status::Invalid => annulled_at(r, &rec, broken.unwrap_or(0)),
                _ => None,
            };
            annulled.map(|(e, a)| Stop::Annulled(e, a)).or(broken.map(Stop::Broken))
        })
        .collect();
    let first = stops.iter().flatten().map(|s| s.event()).min();
    let divergence = first.and_then(|event| {
        let mut legal = vec![];
        let mut illegal = vec![];
        let mut annulled = vec![];
        let mut why = vec![];
        let mut stopping_rules: Vec<&str> = vec![];
        for ((p, r), stop) in replays.iter().zip(rulesets).zip(&stops) {
            let Some(v) = &p.verdict else { continue };
            match stop {
                Some(Stop::Broken(e)) if *e == event => {
                    let x = v.violation.as_ref().expect("a broken rule");
                    illegal.push(p.ruleset.clone());
                    why.push(format!("illegal under {} ({}: {})", p.ruleset, x.rule, x.message));
                    stopping_rules.push(&x.rule);
                }
                Some(Stop::Annulled(e, a)) if *e == event => {
                    annulled.push(p.ruleset.clone());
                    why.push(format!("the deal is annulled under {} ({}: {})", p.ruleset, a.rule, a.reason));
                    stopping_rules.push(&a.rule);
                }
                _ => legal.push((p.ruleset.clone(), *r)),
            }
        }
        if legal.is_empty() {
            return None;
        }
        // Why the others go on: they lack the rule that stops the game.
        let legal_words: Vec<String> = legal
            .iter()
            .map(|(id, r)| {
                let missing: Vec<&str> = stopping_rules.iter().copied().filter(|rule| !has_rule(r, rule)).collect();
                let verb = if illegal.is_empty() { "played on" } else { "legal" };
                if missing.is_empty() {
                    format!("{verb} under {id}")
                } else {
                    format!("{verb} under {id}, which has no {}", missing.join(" or "))
                }
            })
            .collect();
        Some(Divergence {
            event,
            legal_under: legal.iter().map(|(id, _)| id.clone()).collect(),
            illegal_under: illegal,
            annulled_under: annulled,
            explanation: format!("event {event}: {}; {}", legal_words.join("; "), why.join("; ")),
        })
    });
    GameComparison { rulesets: rulesets.iter().map(|r| r.id.clone()).collect(), replays, divergence }
}

/// Whether a ruleset has a clause with this rule id (as its description lists them).
fn has_rule(r: &Ruleset, rule: &str) -> bool {
    describe(r, &BTreeMap::new()).rules.iter().any(|l| &*l.rule == rule)
}

impl GameComparison {
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for p in &self.replays {
            match (&p.verdict, &p.cannot_replay) {
                (Some(v), _) => {
                    let status = serde_json::to_value(v.status).ok().and_then(|s| s.as_str().map(String::from)).unwrap_or_default();
                    let scores: Vec<String> = v.outcome.iter().flat_map(|o| &o.players).map(|r| format!("{} {}", r.player, r.score)).collect();
                    let extra = match &v.violation {
                        Some(x) => format!(" at event {}: {} [{}]", x.event, x.message, x.rule),
                        None if scores.is_empty() => String::new(),
                        None => format!(": {}", scores.join(", ")),
                    };
                    let _ = writeln!(out, "{:<24} {status}{extra}", p.ruleset);
                }
                (None, Some(why)) => {
                    let _ = writeln!(out, "{:<24} cannot be replayed: {why}", p.ruleset);
                }
                _ => {}
            }
            if !p.options_dropped.is_empty() {
                let _ = writeln!(out, "{:<24} (options it does not have, left out: {})", "", p.options_dropped.join(", "));
            }
        }
        if let Some(d) = &self.divergence {
            let _ = writeln!(out, "divergence: {}", d.explanation);
        }
        out
    }
}
