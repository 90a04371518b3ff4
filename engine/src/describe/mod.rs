//! The compiled rules in words: one line per rule clause, grouped by aspect, each with the rule id,
//! where it is written and its source. `rulesets show` prints it; comparisons line rulesets up by it.
//! Everything here is derived from the IR, so a new rule file describes itself. One module per section
//! of a rule file, in the order the lines come (`pack`, `deal`, `bidding`, `exchange`, `declarations`,
//! `play`, `scoring`); `words` puts formulas in words; `score` names a score sheet's values.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::cards::{Card, CardSet};
use crate::expr::{Expr, Value};
use crate::ir::*;

/// One clause of a ruleset in words, with its rule id, where it is written and its source.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = Clause))]
#[serde(deny_unknown_fields)]
pub struct Line {
    /// The aspect of the game it belongs to (`pack and ranks`, `trick obligations`, ...).
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub aspect: &'static str,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub rule: Arc<str>,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub source: Option<Arc<str>>,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub at: Arc<str>,
}

/// A ruleset in words: every clause with its source, its options, its sources.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = RulesetDescription))]
#[serde(deny_unknown_fields)]
pub struct Description {
    pub id: String,
    pub title: String,
    pub version: String,
    /// This ruleset, then its parents.
    pub chain: Vec<String>,
    /// e.g. `4` or `2-6`.
    pub players: String,
    pub options: Vec<OptionView>,
    pub sources: Vec<Source>,
    pub rules: Vec<Line>,
}

/// An option of a ruleset: its value in force, its default and its choices.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = RulesetOption))]
#[serde(deny_unknown_fields)]
pub struct OptionView {
    pub name: String,
    pub doc: String,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::OptionValue))]
    pub value: serde_json::Value,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::OptionValue))]
    pub default: serde_json::Value,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::openapi::OptionValue>))]
    pub choices: Vec<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The formula of a statement, after its `=`, as written.
fn formula_text(r: &Ruleset, c: &Clause) -> String {
    statement_text(r, c).split_once(" = ").map(|x| x.1.to_string()).unwrap_or_default()
}

/// The text of the statement a clause points at (`file:line`), trimmed, continuation lines joined: a
/// line ending in `\\`, or a formula going on to the next line (the line ends with an operator, or the
/// next begins with one).
fn statement_text(r: &Ruleset, c: &Clause) -> String {
    let Some((file, line)) = c.at.rsplit_once(':') else { return String::new() };
    let Ok(line) = line.parse::<usize>() else { return String::new() };
    let Some((_, text)) = r.texts.iter().find(|(f, _)| f == file) else { return String::new() };
    const JOINS: &[&str] = &["and", "or", "not", "then", "else", "if", "+", "-", "*", "/", "(", ",", "==", "!=", "<", ">", "<=", ">=", "="];
    let words = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let mut out = String::new();
    let mut lines = text.lines().skip(line.saturating_sub(1)).map(|l| l.split(" @").next().unwrap_or(l).trim_end()).peekable();
    while let Some(l) = lines.next() {
        if let Some(cont) = l.strip_suffix('\\') {
            out.push_str(cont.trim());
            out.push(' ');
            continue;
        }
        out.push_str(l.trim());
        let ends_open = words(l).last().is_some_and(|w| JOINS.contains(&w.as_str()) || w.ends_with('('));
        let next_opens = lines.peek().and_then(|n| words(n).first().cloned()).is_some_and(|w| JOINS.contains(&w.as_str()) && w != "(" && w != "if" && w != "not");
        if !(ends_open || next_opens) {
            break;
        }
        out.push(' ');
    }
    out
}

mod bidding;
mod deal;
mod declarations;
mod exchange;
mod pack;
mod play;
mod score;
mod scoring;
mod words;
pub use score::{score_values, ScoreValue};
pub use words::fold;
use words::*;

// A label with its article is the labels' business; the pages name it here too.
pub use crate::label::with_article;

pub fn describe(r: &Ruleset, options: &BTreeMap<String, serde_json::Value>) -> Description {
    describe_with(r, options, false)
}

/// As `describe`, in the words of the pages for people: where the JSON description quotes a formula
/// of the rule file (a condition an option settles, a card that depends on the contract), these
/// words read it, with the options' values in force.
pub fn describe_for_people(r: &Ruleset, options: &BTreeMap<String, serde_json::Value>) -> Description {
    describe_with(r, options, true)
}

fn describe_with(r: &Ruleset, options: &BTreeMap<String, serde_json::Value>, people: bool) -> Description {
    let mut lines = vec![];
    // Where the pack follows an option (`fool "name" trump = condition`), the pack these options
    // choose, and a line that says so.
    let original = r;
    let (r, fool_follows) = match &r.fool_variant {
        Some(v) => {
            let force = InForce { people, ..InForce::new(r, options) };
            let base_trump = !r.pack.cards.contains(crate::cards::FOOL);
            let now = match force.value(&v.when) {
                Some(Value::Bool(true)) => "a trump",
                Some(Value::Bool(false)) => "the Excuse",
                _ => "as the game's options say",
            };
            let stated = statement_text(r, &v.clause);
            let when = stated.split_once('=').map_or(stated.as_str(), |(_, w)| w).trim().to_string();
            let text = if people {
                // The choice that makes the other pack, by the options' names and values.
                let choice: Vec<String> = v.other_way.iter().map(|(k, x)| format!("{} {}", k.replace('_', " "), x.plain())).collect();
                let (default, other) = if base_trump { ("a trump above the others", "the Excuse") } else { ("the Excuse", "a trump above the others") };
                format!("{} is {default}, or {other} with the option {} (an option); with these options, {now}", r.pack.fool_name, choice.join(" and "))
            } else {
                format!("{} is a trump above the others where {when}, else the Excuse (an option); with these options, {now}", r.pack.fool_name)
            };
            match force.value(&v.when) {
                Some(Value::Bool(t)) if t != base_trump => (&*v.rules, Some((text, v.clause.clone()))),
                _ => (r, Some((text, v.clause.clone()))),
            }
        }
        None => (r, None),
    };
    if let Some((text, c)) = &fool_follows {
        lines.push(line("pack and ranks", c, text.clone()));
    }
    // The pack the other choice makes, named by that choice: a comparison with another game sees
    // both packs, not only the one these options choose.
    let other_pack = original.fool_variant.as_ref().map(|v| {
        let (other, choice) = if std::ptr::eq(r, original) {
            (&*v.rules, v.other_way.iter().map(|(k, x)| (k.clone(), x.to_json())).collect())
        } else {
            let defaults: BTreeMap<String, serde_json::Value> =
                v.other_way.keys().filter_map(|k| original.options.iter().find(|o| &o.name == k)).map(|o| (o.name.clone(), o.default.to_json())).collect();
            (original, defaults)
        };
        let choice: Vec<String> = choice.iter().map(|(k, v)| if people { format!("{} {}", k.replace('_', " "), plain_json(v)) } else { format!("{k} = {v}") }).collect();
        (other, choice.join(", "), v.clause.clone())
    });
    let force = InForce { people, ..InForce::new(r, options) };
    pack::pack(&force, &other_pack, &mut lines);
    deal::players_and_deal(&force, &mut lines);
    bidding::bidding(&force, &mut lines);
    exchange::exchange(&force, &mut lines);
    deal::sit_out_choice(&force, &mut lines);
    declarations::declarations(&force, &mut lines);
    play::play(&force, &mut lines);
    play::excuse(&force, original, &other_pack, &mut lines);
    scoring::scoring(&force, &mut lines);
    let players = players_text(r);
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
                value: options.get(&o.name).cloned().unwrap_or_else(|| o.default.to_json()),
                default: o.default.to_json(),
                choices: o.choices.iter().map(OptionValue::to_json).collect(),
                source: o.clause.source.as_deref().map(String::from),
            })
            .collect(),
        sources: r.sources.clone(),
        rules: lines,
    }
}

/// The number of players, or their range.
fn players_text(r: &Ruleset) -> String {
    if r.players.0 == r.players.1 {
        r.players.0.to_string()
    } else {
        format!("{} to {}", r.players.0, r.players.1)
    }
}

/// A setting's value with these options (`-` where the rules do not set it).
fn setting(force: &InForce, e: &Expr, rule: &str) -> String {
    force.rules.settings.get(rule).map_or_else(|| "-".into(), |_| force.text(e, plain))
}

fn line(aspect: &'static str, c: &Clause, text: String) -> Line {
    Line { aspect, rule: c.rule.clone(), text, source: c.source.clone(), at: c.at.clone() }
}

/// Who leads the first trick, in words, for the forms the rule files use; any other formula as it is.
fn lead_words(formula: &str, words: impl Fn() -> String) -> String {
    const FIRST_HAND: &str = "first hand (the player after the dealer) leads the first trick";
    if formula == "first_hand" {
        return FIRST_HAND.into();
    }
    // `if announced(chelem) then declarer(chelem) else first_hand`
    let announced =
        formula.strip_prefix("if announced(").and_then(|rest| rest.split_once(") then declarer(")).and_then(|(a, rest)| (rest == format!("{a}) else first_hand")).then_some(a));
    match announced {
        Some(a) => format!("whoever announced a {a} leads the first trick; otherwise {FIRST_HAND}"),
        None => format!("the first trick is led by {}", words()),
    }
}

/// What a contract does with the dog, in words.
fn dog_words(v: &str) -> String {
    match v {
        "taker" => "goes to the taker, who discards as many cards".into(),
        "taker-unseen" => "counts for the taker, unseen".into(),
        "defence" => "counts for the defence, unseen".into(),
        "none" | "" => "is not used".into(),
        other => other.replace('-', " "),
    }
}

/// What becomes of the Excuse, in words, from the rules' keywords.
fn fool_words(v: &str) -> String {
    match v {
        "next-card-sets-suit" => "the next card sets the suit".into(),
        "forbidden" => "never while its holder has another card".into(),
        "exchange" => "its side keeps it and gives the trick's winner an empty card in exchange".into(),
        "keep" => "its side keeps it".into(),
        "changes-side" => "it goes to the other side".into(),
        "to-winner" => "it goes to the trick's winner".into(),
        other => other.replace('-', " "),
    }
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
