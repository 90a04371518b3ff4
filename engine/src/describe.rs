//! The compiled rules in words: one line per rule clause, grouped by aspect, each with the rule id,
//! where it is written and its source. `rulesets show` prints it; comparisons line rulesets up by it.
//! Everything here is derived from the IR, so a new rule file describes itself.

use std::sync::Arc;

use serde::Serialize;

use crate::cards::{Card, CardSet};
use crate::ir::*;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Line {
    pub aspect: &'static str,
    pub rule: Arc<str>,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Arc<str>>,
    pub at: Arc<str>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Description {
    pub id: String,
    pub title: String,
    pub version: String,
    /// This ruleset, then its parents.
    pub chain: Vec<String>,
    pub players: String,
    pub options: Vec<OptionView>,
    pub sources: Vec<Source>,
    pub rules: Vec<Line>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OptionView {
    pub name: String,
    pub doc: String,
    pub value: serde_json::Value,
    pub default: serde_json::Value,
    pub choices: Vec<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The formula of a statement, after its `=`, as written.
fn formula_text(r: &Ruleset, c: &Clause) -> String {
    statement_text(r, c).split_once(" = ").map(|x| x.1.to_string()).unwrap_or_default()
}

/// The text of the statement a clause points at (`file:line`), trimmed, continuation lines joined.
fn statement_text(r: &Ruleset, c: &Clause) -> String {
    let Some((file, line)) = c.at.rsplit_once(':') else { return String::new() };
    let Ok(line) = line.parse::<usize>() else { return String::new() };
    let Some((_, text)) = r.texts.iter().find(|(f, _)| f == file) else { return String::new() };
    let mut out = String::new();
    for l in text.lines().skip(line.saturating_sub(1)) {
        let l = l.split(" @").next().unwrap_or(l).trim_end();
        match l.strip_suffix('\\') {
            Some(cont) => out.push_str(cont.trim()),
            None => {
                out.push_str(l.trim());
                break;
            }
        }
        out.push(' ');
    }
    out
}

fn cards_short(set: CardSet) -> String {
    let v: Vec<String> = set.iter().map(|c: Card| c.to_string()).collect();
    if v.len() > 12 {
        format!("{} cards", v.len())
    } else {
        v.join(" ")
    }
}

pub fn describe(r: &Ruleset, options: &std::collections::BTreeMap<String, serde_json::Value>) -> Description {
    let mut lines = vec![];
    let p = &r.pack;
    let suits: Vec<String> = (0..4).map(|s| p.suit_names[s].clone()).collect();
    let mut ranks = vec![];
    for s in 0..4u8 {
        let mut in_suit: Vec<Card> = CardSet::of_lane(s).and(p.cards).iter().collect();
        in_suit.sort_by_key(|c| std::cmp::Reverse(p.strength[c.0 as usize]));
        let codes: Vec<String> = in_suit
            .iter()
            .map(|c| {
                let code = c.to_string();
                code[..code.len() - 1].to_string()
            })
            .collect();
        ranks.push(format!("{}: {}", p.suit_names[s as usize], codes.join(" ")));
    }
    lines.push(line("pack and ranks", &p.clause, format!("{} cards: suits {}, 21 trumps, {}", p.cards.len(), suits.join(", "), p.fool_name)));
    lines.push(line("pack and ranks", &p.clause, format!("ranks high to low: {}", ranks.join("; "))));
    if let Some((lanes, _, c)) = &p.reversible {
        let names: Vec<&str> = lanes.iter().map(|l| p.suit_names[*l as usize].as_str()).collect();
        lines.push(line("pack and ranks", c, format!("numerals of {} rank in reverse when: {}", names.join(" and "), statement_text(r, c))));
    }
    for k in &r.classes {
        lines.push(line("card classes", &k.clause, format!("{}{}: {}", k.name, k.label.as_ref().map(|l| format!(" (\"{l}\")")).unwrap_or_default(), cards_short(k.cards))));
    }
    let c = &r.counting;
    let mut by_value: Vec<(u8, CardSet)> = vec![];
    for card in p.cards.iter() {
        let v = c.values[card.0 as usize];
        if v == 0 {
            continue;
        }
        match by_value.iter_mut().find(|(x, _)| *x == v) {
            Some((_, s)) => s.insert(card),
            None => by_value.push((v, CardSet::single(card))),
        }
    }
    by_value.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    let values: Vec<String> = by_value.iter().map(|(v, s)| format!("{v} for {}", cards_short(*s))).collect();
    let total = crate::replay::count_points(c, p.cards, 0);
    lines.push(line(
        "counting",
        &c.clause,
        format!(
            "in groups of {}: {}; a group of empty cards 1; surplus: {}; pack total {total}",
            c.group,
            values.join(", "),
            serde_json::to_value(c.surplus).unwrap_or_default().as_str().unwrap_or_default()
        ),
    ));
    let players = if r.players.0 == r.players.1 { r.players.0.to_string() } else { format!("{} to {}", r.players.0, r.players.1) };
    lines.push(line(
        "players and deal",
        &r.players_clause,
        format!(
            "{players} players, {}",
            match r.sides {
                Sides::Taker => "a taker against the defence",
                Sides::Each => "each for himself",
                Sides::Partners => "partners sitting opposite",
            }
        ),
    ));
    if let Some(c) = &r.sit_out {
        lines.push(line("players and deal", c, "the dealer deals to the others and sits the deal out: one fewer play, and he scores nothing".into()));
    }
    let deal_line = format!(
        "hand {}{}{}",
        setting_text(r, "deal.hand"),
        r.deal.dealer.as_ref().map(|_| format!(", dealer {}", setting_text(r, "deal.dealer"))).unwrap_or_default(),
        r.deal.dog.as_ref().map(|_| format!(", dog {}", setting_text(r, "deal.dog"))).unwrap_or_default(),
    );
    lines.push(line("players and deal", &r.deal.clause, deal_line));
    if let Some(c) = &r.deal.cut {
        lines.push(line("players and deal", c, "the cut card, the bottom of the pack, is shown and dealt last, to the dealer".into()));
    }
    // Each from its own statement, which may be in the file a ruleset extends.
    if let Some((_, c)) = &r.deal.packets {
        let dealer = r.deal.dealer_packets.as_ref().map(|(_, d)| format!(", the dealer's {}", formula_text(r, d))).unwrap_or_default();
        lines.push(line("players and deal", c, format!("in packets of {} round the table from first hand{dealer}", formula_text(r, c))));
    }
    if let Some((_, c)) = &r.deal.dog_packets {
        lines.push(line("players and deal", c, format!("the dog {} card(s) at a time, between the players' packets", formula_text(r, c))));
    }
    if let Some((_, c)) = &r.deal.dog_apart {
        lines.push(line("players and deal", c, format!("not the first or last {} card(s) of the pack to the dog", formula_text(r, c))));
    }
    for a in &r.annulments {
        lines.push(Line {
            aspect: "annulments",
            rule: a.clause.rule.clone(),
            text: format!("{}: when {}", a.label, formula_text(r, &a.clause)),
            source: a.clause.source.clone(),
            at: a.clause.at.clone(),
        });
    }
    if let Some(b) = &r.bidding {
        let turns = match b.turns {
            Turns::Once => "each player speaks once, outbidding or passing",
            Turns::UntilOneLeft => "bidding with immediate hold: a player outbid answers at once, outbidding in turn or leaving; who passes is out",
        };
        lines.push(line("bidding and contracts", &b.turns_clause, turns.into()));
        if let Some(res) = &b.reserve {
            lines.push(line(
                "bidding and contracts",
                &res.clause,
                format!("a player may say {} (no contract yet) and choose in a second round: {}", res.label, statement_text(r, &res.clause)),
            ));
        }
        for k in &b.contracts {
            lines.push(Line {
                aspect: "bidding and contracts",
                rule: k.clause.rule.clone(),
                text: statement_text(r, &k.clause),
                source: k.clause.source.clone(),
                at: k.clause.at.clone(),
            });
        }
        if let Some(c) = &b.all_pass {
            lines.push(Line { aspect: "annulments", rule: c.rule.clone(), text: "all players pass: the deal is void".into(), source: c.source.clone(), at: c.at.clone() });
        }
    }
    if let Some(c) = &r.call {
        let levels: Vec<String> = c.levels.iter().map(|l| cards_short(*l)).collect();
        lines.push(line(
            "bidding and contracts",
            &c.clause,
            format!(
                "the taker calls a partner's card: {}, each level only when he holds all of the one before; the card in the dog or his own hand leaves him alone",
                levels.join(", then ")
            ),
        ));
        if let Some((_, clause)) = &c.opening_lead_excludes {
            lines.push(line("trick obligations", clause, format!("the first lead may not be: {}", formula_text(r, clause))));
        }
        if let Some((_, clause)) = &c.callable_levels {
            lines.push(line(
                "bidding and contracts",
                clause,
                format!("levels that may be called: {}; a taker holding every card of them calls nothing and plays alone", formula_text(r, clause)),
            ));
        }
    }
    if let Some(d) = &r.discard {
        let who: Vec<String> = [("taker", &d.taker), ("dealer", &d.dealer), ("others", &d.others)]
            .iter()
            .filter(|(_, e)| e.is_some())
            .map(|(k, _)| format!("{k} {}", setting_text(r, &format!("discard.{k}"))))
            .collect();
        lines.push(line("dog and discard", &d.clause, format!("cards discarded: {}", who.join(", "))));
        for f in &d.forbid {
            lines.push(Line {
                aspect: "dog and discard",
                rule: f.clause.rule.clone(),
                text: format!("may never discard {}", f.label),
                source: f.clause.source.clone(),
                at: f.clause.at.clone(),
            });
        }
        if let Some(u) = &d.unless_unavoidable {
            lines.push(Line {
                aspect: "dog and discard",
                rule: u.clause.rule.clone(),
                text: format!("may discard {} only when unavoidable, shown", u.label),
                source: u.clause.source.clone(),
                at: u.clause.at.clone(),
            });
        }
        if let Some((k, _, penalty)) = &d.penalize {
            lines.push(line("dog and discard", penalty, format!("discarding {} is paid for, to each opponent: {}", k.label, formula_text(r, penalty))));
        }
    }
    for d in &r.declarations {
        let when = match d.when {
            When::BeforePlay => "before play",
            When::AfterDiscard => "after the discard",
            When::FirstPlay => "before the declarer's first card",
        };
        lines.push(Line {
            aspect: "declarations and bonuses",
            rule: d.clause.rule.clone(),
            text: format!(
                "{} ({when}{}){}",
                d.label,
                if d.by_taker { ", by the taker" } else { "" },
                if d.shows.is_empty() { String::new() } else { format!(", shows {}", cards_short(d.shows)) }
            ),
            source: d.clause.source.clone(),
            at: d.clause.at.clone(),
        });
        for (msg, _, c) in &d.requires {
            lines.push(Line { aspect: "declarations and bonuses", rule: c.rule.clone(), text: msg.clone(), source: c.source.clone(), at: c.at.clone() });
        }
    }
    let pl = &r.play;
    if let Some((_, c)) = &pl.direction {
        lines.push(line("trick obligations", c, format!("play goes {} (the record lists each player before the one to his right)", formula_text(r, c))));
    }
    lines.push(line("trick obligations", &pl.order_clause, "each plays in turn, once bidding and discards are done".into()));
    lines.push(line("trick obligations", &pl.hold_clause, "a player plays only cards he holds".into()));
    lines.push(Line {
        aspect: "trick obligations",
        rule: pl.lead_clause.rule.clone(),
        text: statement_text(r, &pl.lead_clause),
        source: pl.lead_clause.source.clone(),
        at: pl.lead_clause.at.clone(),
    });
    let ladder: Vec<String> = pl.ladder.iter().map(|(o, _)| format!("{o:?}").to_lowercase()).collect();
    for (o, c) in &pl.ladder {
        let text = match o {
            Obligation::Follow => "must follow suit (trumps led: play a trump)",
            Obligation::Trump => "unable to follow: must trump",
            Obligation::Overtrump => "a trump played must beat the highest trump in the trick if possible",
        };
        lines.push(Line { aspect: "trick obligations", rule: c.rule.clone(), text: text.into(), source: c.source.clone(), at: c.at.clone() });
    }
    if ladder.is_empty() {
        lines.push(Line { aspect: "trick obligations", rule: "play".into(), text: "no obligation".into(), source: None, at: pl.lead_clause.at.clone() });
    }
    let f = &r.fool;
    let fool_lines: Vec<(&Clause, String)> = [
        f.excuse.as_ref().map(|c| (c, "may be played to any trick instead of obeying".to_string())),
        Some((&f.clause, format!("led: {}; kept: {}; in the last trick: {}", setting_text(r, "fool.led"), setting_text(r, "fool.keep"), setting_text(r, "fool.last_trick")))),
        f.slam_wins.as_ref().map(|c| match &f.slam_wins_when {
            None => (c, "led to the last trick by a side that won every other trick, it wins".to_string()),
            Some(_) => (c, format!("to the last trick by a side that won every other trick, it wins (\"led\" or however \"played\"): {}", setting_text(r, "fool.slam_wins"))),
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    for (c, t) in fool_lines {
        lines.push(Line { aspect: "the excuse", rule: c.rule.clone(), text: t, source: c.source.clone(), at: c.at.clone() });
    }
    if let Some(u) = &r.untouchable {
        let when = formula_text(r, &u.clause);
        lines.push(line(
            "the excuse",
            &u.clause,
            format!(
                "{}: {} in a hand where {when} is played like the Excuse but keeps its rank; when it does not take its trick, it goes back to its owner for an empty card",
                u.label,
                r.card_name(u.card)
            ),
        ));
    }
    for t in &r.triggers {
        lines.push(Line {
            aspect: "payments during play",
            rule: t.clause.rule.clone(),
            text: statement_text(r, &t.clause),
            source: t.clause.source.clone(),
            at: t.clause.at.clone(),
        });
    }
    for l in &r.score.lets {
        lines.push(Line { aspect: "scoring", rule: l.clause.rule.clone(), text: statement_text(r, &l.clause), source: l.clause.source.clone(), at: l.clause.at.clone() });
    }
    for t in &r.score.terms {
        lines.push(Line { aspect: "scoring", rule: t.clause.rule.clone(), text: statement_text(r, &t.clause), source: t.clause.source.clone(), at: t.clause.at.clone() });
    }
    for p in &r.score.pays {
        lines.push(Line { aspect: "scoring", rule: p.clause.rule.clone(), text: statement_text(r, &p.clause), source: p.clause.source.clone(), at: p.clause.at.clone() });
    }
    for (_, c) in r.score.standing.iter().chain(r.score.winner.iter()) {
        lines.push(Line { aspect: "scoring", rule: c.rule.clone(), text: statement_text(r, c), source: c.source.clone(), at: c.at.clone() });
    }
    Description {
        id: r.id.clone(),
        title: r.title.clone(),
        version: r.version.clone(),
        chain: r.chain.clone(),
        players,
        options: r
            .options
            .iter()
            .map(|o| OptionView {
                name: o.name.clone(),
                doc: o.doc.clone(),
                value: options.get(&o.name).cloned().unwrap_or_else(|| o.default.clone()),
                default: o.default.clone(),
                choices: o.choices.clone(),
                source: o.clause.source.as_deref().map(String::from),
            })
            .collect(),
        sources: r.sources.clone(),
        rules: lines,
    }
}

fn line(aspect: &'static str, c: &Clause, text: String) -> Line {
    Line { aspect, rule: c.rule.clone(), text, source: c.source.clone(), at: c.at.clone() }
}

/// The formula of a setting of the `deal`, `discard` or `fool` block, from the file it is written in;
/// `-` for one the rules leave out.
fn setting_text(r: &Ruleset, rule: &str) -> String {
    r.settings.get(rule).map_or_else(|| "-".into(), |c| formula_text(r, c))
}

impl Description {
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "{} — {}", self.id, self.title);
        let _ = writeln!(out, "version {}; {} players; chain: {}", self.version, self.players, self.chain.join(" <- "));
        if !self.options.is_empty() {
            let _ = writeln!(out, "options:");
            for o in &self.options {
                let choices: Vec<String> = o.choices.iter().map(|c| c.to_string()).collect();
                let _ = writeln!(out, "  {} = {} (choices {}; default {}) — {}", o.name, o.value, choices.join(", "), o.default, o.doc);
            }
        }
        let mut aspect = "";
        for l in &self.rules {
            if l.aspect != aspect {
                aspect = l.aspect;
                let _ = writeln!(out, "{aspect}:");
            }
            let _ = writeln!(out, "  {}  [{}{}; {}]", l.text, l.rule, l.source.as_ref().map(|s| format!(", {s}")).unwrap_or_default(), l.at);
        }
        let _ = writeln!(out, "sources:");
        for s in &self.sources {
            let _ = writeln!(out, "  {}: {} ({})", s.id, s.title, s.file);
        }
        out
    }
}
