//! The compiled rules in words: one line per rule clause, grouped by aspect, each with the rule id,
//! where it is written and its source. `rulesets show` prints it; comparisons line rulesets up by it.
//! Everything here is derived from the IR, so a new rule file describes itself.

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
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::any_value))]
    pub value: serde_json::Value,
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::any_value))]
    pub default: serde_json::Value,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Value>))]
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

mod score;
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
    let p = &r.pack;
    let mut ranks = vec![];
    for s in 0..4u8 {
        let mut in_suit: Vec<Card> = CardSet::of_lane(s).and(p.cards).iter().collect();
        if in_suit.is_empty() {
            continue;
        }
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
    for text in pack_texts(p) {
        lines.push(line("pack and ranks", &p.clause, text));
    }
    lines.push(line("pack and ranks", &p.clause, format!("ranks high to low: {}", ranks.join("; "))));
    if let Some((other, choice, c)) = &other_pack {
        for text in pack_texts(&other.pack) {
            lines.push(line("pack and ranks", c, format!("with {choice}: {text}")));
        }
    }
    if let Some((lanes, _, c)) = &p.reversible {
        let names: Vec<&str> = lanes.iter().map(|l| p.suit_names[*l as usize].as_str()).collect();
        let reversed = r.pack.reversible.as_ref().and_then(|(_, e, _)| force.value(e));
        let text = match reversed {
            Some(Value::Bool(true)) => format!("the numerals of {} rank in reverse, 1 above 10", names.join(" and ")),
            Some(Value::Bool(false)) => format!("the numerals of {} rank as in the other suits (they may rank in reverse; not with these options)", names.join(" and ")),
            _ if people => {
                format!("the numerals of {} rank in reverse when {}", names.join(" and "), r.pack.reversible.as_ref().map(|(_, e, _)| force.words(e)).unwrap_or_default())
            }
            _ => format!("the numerals of {} rank in reverse when: {}", names.join(" and "), force.substitute(&statement_text(r, c))),
        };
        lines.push(line("pack and ranks", c, text));
    }
    for (ranked, e, c) in &p.trump_orders {
        let names: Vec<String> = ranked.iter().map(|t| t.to_string()).collect();
        let text = match force.value(e) {
            Some(Value::Bool(true)) => format!("with these options the trumps rank high to low: {}", names.join(" ")),
            Some(Value::Bool(false)) => format!("the trumps may rank high to low {} (not with these options)", names.join(" ")),
            _ => format!("the trumps rank high to low {} when: {}", names.join(" "), force.substitute(&statement_text(r, c))),
        };
        lines.push(line("pack and ranks", c, text));
    }
    for k in &r.classes {
        lines.push(line("card classes", &k.clause, format!("{}{}: {}", k.name, k.label.as_ref().map(|l| format!(" (\"{l}\")")).unwrap_or_default(), cards_short(k.cards))));
    }
    // Counters that follow options, with the options in force.
    let in_force = crate::replay::counting_for(&r.counting, &|e| force.value(e).ok_or_else(|| "not known before the game".to_string()));
    let c = in_force.as_ref().unwrap_or(&r.counting);
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
            "in groups of {}{}: {}; {}; surplus: {}{}; pack total {total}",
            c.group,
            r.counting
                .group_by_option
                .as_ref()
                .map(|(_, clause)| if people { " (with these options)".to_string() } else { format!(" (with these options; `{}`)", statement_text(r, clause)) })
                .unwrap_or_default(),
            values.join(", "),
            if c.empty_zero { "other cards nothing" } else { "a group of empty cards 1" },
            serde_json::to_value(c.surplus).unwrap_or_default().as_str().unwrap_or_default(),
            if c.short_packet == ShortPacket::SumLessOne { ", a short packet counted as a full one" } else { "" }
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
        let at = if r.sit_out_from > 0 { format!(" at a table of {} or more", r.sit_out_from) } else { String::new() };
        let who = if r.sit_out_opposite { "the player opposite the dealer sits the deal out" } else { "the dealer deals to the others and sits the deal out" };
        lines.push(line("players and deal", c, format!("{who}{at}: one fewer play, and he scores nothing")));
    }
    let setting = |e: &Expr, rule: &str| r.settings.get(rule).map_or_else(|| "-".into(), |_| force.text(e, plain));
    let deal_line = format!(
        "hand {}{}{}",
        setting(&r.deal.hand, "deal.hand"),
        r.deal.dealer.as_ref().map(|e| format!(", dealer {}", setting(e, "deal.dealer"))).unwrap_or_default(),
        r.deal.dog.as_ref().map(|e| format!(", dog {}", setting(e, "deal.dog"))).unwrap_or_default(),
    );
    lines.push(line("players and deal", &r.deal.clause, deal_line));
    if let Some(c) = &r.deal.cut {
        lines.push(line("players and deal", c, "the cut card, the bottom of the pack, is shown and dealt last, to the dealer".into()));
    }
    // Each from its own statement, which may be in the file a ruleset extends.
    if let Some((e, c)) = &r.deal.packets {
        let dealer = r.deal.dealer_packets.as_ref().map(|(e, _)| format!(", the dealer's {}", force.text(e, plain))).unwrap_or_default();
        lines.push(line("players and deal", c, format!("in packets of {} round the table from first hand{dealer}", force.text(e, plain))));
    }
    if let Some((e, c)) = &r.deal.dog_packets {
        lines.push(line("players and deal", c, format!("the dog {} at a time, between the players' packets", force.text(e, cards))));
    }
    if let Some((e, c)) = &r.deal.dog_after {
        lines.push(line("players and deal", c, format!("the dog's packets together, after {} round(s) of the players' packets", force.text(e, plain))));
    }
    if let Some((e, c)) = &r.deal.dog_apart {
        let text = match force.value(e) {
            Some(Value::Num(q)) if q.to_string() == "1" => "never the first or the last card of the pack to the dog".to_string(),
            Some(v) => format!("never the first {} or the last {} of the pack to the dog", cards(&v), plain(&v)),
            None => format!("not the first or last cards of the pack to the dog: {}", force.words(e)),
        };
        lines.push(line("players and deal", c, text));
    }
    for (label, e, c) in &r.deal.requires {
        let label = force.label(label);
        let text = match force.value(e) {
            Some(Value::Bool(true)) => format!("a deal must meet \"{label}\": met whatever the match, with these options"),
            _ => format!("a deal must meet \"{label}\": {}", force.words(e)),
        };
        lines.push(line("players and deal", c, text));
    }
    for a in &r.annulments {
        lines.push(Line {
            aspect: "annulments",
            rule: a.clause.rule.clone(),
            text: match force.value(&a.when) {
                Some(Value::Bool(false)) => format!("{}: not with these options", a.label),
                _ => format!("{}: when {}", a.label, force.words(&a.when)),
            },
            source: a.clause.source.clone(),
            at: a.clause.at.clone(),
        });
    }
    if let Some(b) = &r.bidding {
        let turns = match b.turns {
            Turns::Once => "each player speaks once, outbidding or passing",
            Turns::UntilOneLeft => "bidding with immediate hold: a player outbid answers at once, outbidding in turn or leaving; who passes is out",
            Turns::Rounds => "round and round from first hand, each outbidding or passing; who passes is out, and the bidding ends when nobody is left to outbid the best bid",
        };
        lines.push(line("bidding and contracts", &b.turns_clause, turns.into()));
        if let Some(c) = &b.hold {
            // The hold of the options in force: forehand's (no `hold_by`, or it gives "forehand"), or
            // by seniority.
            let kind = b.hold_by.as_ref().map(|w| force.value(&w.expr()));
            let text = match kind {
                None => "forehand may hold: bid the contract another player holds, and take it over; every other bid must be higher".to_string(),
                Some(Some(Value::Str(w))) if &*w == "forehand" => "forehand may hold: bid the contract another player holds, and take it over; every other bid must be higher".to_string(),
                Some(Some(Value::Str(_))) => "each player may hold the bid of a player after him in turn from first hand (seniority): bid the contract he holds, and take it over; every other bid must be higher".to_string(),
                Some(_) => "forehand may hold, or each player the bid of a player after him (seniority), as the options choose".to_string(),
            };
            let text = if b.hold_by.as_ref().is_some_and(|w| !matches!(w, Choice::Is(_))) { format!("{text} (with these options)") } else { text };
            lines.push(line("bidding and contracts", c, text));
        }
        if let Some(c) = &b.no_reraise {
            lines.push(line("bidding and contracts", c, "a player outbid may not bid again, only pass".into()));
        }
        if let Some((cs, c)) = &b.first_turn {
            let names: Vec<&str> = cs.iter().map(|&i| b.contracts[i].label.as_str()).collect();
            lines.push(line("bidding and contracts", c, format!("{} may be bid only at a player's first turn", names.join(", "))));
        }
        if let Some((cs, c)) = &b.step {
            let names: Vec<&str> = cs.iter().map(|&i| b.contracts[i].label.as_str()).collect();
            lines.push(line("bidding and contracts", c, format!("of {}, one held may be outbid only by the next", names.join(", "))));
        }
        for m in &b.must_bid {
            lines.push(line(
                "bidding and contracts",
                &m.clause,
                format!("{}: must bid at least {} while it is open to him ({})", m.label, b.contracts[m.contract].label, force.words(&m.when)),
            ));
        }
        if let Some(res) = &b.reserve {
            lines.push(line(
                "bidding and contracts",
                &res.clause,
                format!("a player may say {} (no contract yet) and choose in a second round among: {}", res.label, force.text(&res.contracts, plain)),
            ));
        }
        for (i, k) in b.contracts.iter().enumerate() {
            // A contract chosen after the auction (`instead`) has no taker: its dog counts for nobody.
            let chosen = b.instead.iter().any(|x| x.chosen == i);
            let attrs: Vec<String> = k
                .attrs
                .iter()
                .map(|(name, e)| {
                    let v = force.value(e).map(|v| plain(&v)).unwrap_or_else(|| "a value worked out in play".into());
                    match name.as_str() {
                        "multiplier" => format!("scores {v} times the base"),
                        "dog" if chosen => "no taker: the dog counts for nobody".into(),
                        "dog" => format!("the dog {}", dog_words(&v)),
                        "value" | "amount" => format!("worth {v}"),
                        _ => format!("{} {v}", name.replace('_', " ")),
                    }
                })
                .collect();
            lines.push(Line {
                aspect: "bidding and contracts",
                rule: k.clause.rule.clone(),
                text: format!("{}: {}", k.label, attrs.join("; ")),
                source: k.clause.source.clone(),
                at: k.clause.at.clone(),
            });
            // Who may bid it (`by`) and its settlement unplayed (`settle`): rules of their own.
            if let Some(by) = &k.by {
                lines.push(line("bidding and contracts", &by.clause, format!("{} may be bid only by {}", k.label, by.label)));
            }
            if let Some((e, c)) = &k.settle {
                lines.push(line(
                    "bidding and contracts",
                    c,
                    format!("{} is not played: once it wins the auction the deal ends, and each opponent pays the taker {}", k.label, force.text(e, plain)),
                ));
            }
        }
        for i in &b.instead {
            lines.push(line(
                "bidding and contracts",
                &i.clause,
                format!(
                    "{}: may choose {} in place of {} once the auction is won (when {}), each then playing for himself, the dog counting for nobody; nobody bids it",
                    i.label,
                    b.contracts[i.chosen].label,
                    b.contracts[i.won].label,
                    force.words(&i.when)
                ),
            ));
        }
        for x in &b.raise {
            let to: Vec<&str> = x.to.iter().map(|&c| b.contracts[c].label.as_str()).collect();
            let (won, when) = (&b.contracts[x.won].label, force.words(&x.when));
            let text = format!("{}: having won the auction with {won} (when {when}), names once more the contract he plays: {won} or, as its taker, {}", x.label, to.join(", "));
            lines.push(line("bidding and contracts", &x.clause, text));
        }
        match (&b.all_pass, b.all_pass_play) {
            (Some(c), Some(k)) => lines.push(line(
                "bidding and contracts",
                c,
                format!("all players pass: {} is played, each for himself, with no taker; the dog counts for nobody", b.contracts[k].label),
            )),
            (Some(c), None) => {
                lines.push(Line { aspect: "annulments", rule: c.rule.clone(), text: "all players pass: the deal is void".into(), source: c.source.clone(), at: c.at.clone() });
            }
            (None, _) => {}
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
        if let Some((e, clause)) = &c.opening_lead_excludes {
            lines.push(line("trick obligations", clause, format!("the first lead may not be: {}", force.words(e))));
        }
        if let Some((e, clause)) = &c.callable_levels {
            lines.push(line(
                "bidding and contracts",
                clause,
                format!("levels that may be called: {}; a taker holding every card of them calls nothing and plays alone", force.words(e)),
            ));
        }
    }
    if let Some(d) = &r.discard {
        let who: Vec<String> = [("taker", &d.taker), ("dealer", &d.dealer), ("others", &d.others)]
            .iter()
            .filter(|(_, e)| e.is_some())
            .map(|(k, e)| format!("{k} {}", e.as_ref().map(|e| setting(e, &format!("discard.{k}"))).unwrap_or_default()))
            .collect();
        lines.push(line("dog and discard", &d.clause, format!("cards discarded: {}", who.join(", "))));
        for (i, f) in d.forbid.iter().enumerate() {
            // A class that follows options: the cards it forbids with the options in force.
            let in_force = d.forbid_by_option.iter().find(|(j, _)| *j == i).and_then(|(_, e)| force.value(e));
            let cards = match in_force {
                Some(Value::Cards(set)) if set.is_empty() => " (with these options: no card)".to_string(),
                Some(Value::Cards(set)) => format!(" (with these options: {})", cards_short(set)),
                _ => String::new(),
            };
            lines.push(Line {
                aspect: "dog and discard",
                rule: f.clause.rule.clone(),
                text: format!("may never discard {}{cards}", f.label),
                source: f.clause.source.clone(),
                at: f.clause.at.clone(),
            });
        }
        if let Some(u) = &d.unless_unavoidable {
            lines.push(Line {
                aspect: "dog and discard",
                rule: u.clause.rule.clone(),
                text: format!("may discard {} only when unavoidable, and only as many as must go, shown", u.label),
                source: u.clause.source.clone(),
                at: u.clause.at.clone(),
            });
        }
        if let Some((k, e, penalty)) = &d.penalize {
            lines.push(line("dog and discard", penalty, format!("discarding {} is paid for, to each opponent: {}", k.label, force.words(e))));
        }
        for (label, e, c) in &d.requires {
            lines.push(line("dog and discard", c, format!("a discard must meet \"{}\": {}", force.label(label), force.words(e))));
        }
        if let Some((w, c)) = &d.goes_to {
            lines.push(line("dog and discard", c, format!("at the end of play, each discard goes to: {}", force.words(&w.expr()))));
        }
    }
    if let Some(t) = &r.talon {
        let rest = t.rest.as_ref().map_or("the defence".to_string(), |w| force.words(&w.expr()));
        lines.push(line(
            "dog and discard",
            &t.clause,
            format!("the dog is {} in packets: {}; the taker takes one, the rest goes to {rest}", if t.unseen.is_some() { "cut" } else { "shown" }, force.words(&t.packets)),
        ));
        if let Some((e, c)) = &t.split {
            lines.push(line(
                "dog and discard",
                c,
                format!("the taker lays away part of his discard before he sees the talon, the rest once it has come to him; before: {}", force.words(e)),
            ));
        }
        if let Some((e, c)) = &t.given {
            lines.push(line("dog and discard", c, format!("the taker gets, with no choice, the packet numbered (in the order dealt): {}", force.words(e))));
        }
        if let Some(c) = &t.unseen {
            lines.push(line(
                "dog and discard",
                c,
                "the talon is not turned up: the taker takes his packet unseen, the rest stays unseen, and he shows none of the cards he took before the hand's end".into(),
            ));
        }
    }
    if let Some(b) = &r.buy {
        lines.push(line(
            "dog and discard",
            &b.clause,
            format!(
                "after his discard the taker may buy cards, as many as: {}; for each he calls a card of another hand, whose holder gives it to him and takes back a card of his hand",
                force.words(&b.cards)
            ),
        ));
    }
    if let Some(st) = &r.steal {
        let how = |h: crate::ir::StealHow| if h == crate::ir::StealHow::All { "every one while they come" } else { "as many as he likes" };
        lines.push(line("dog and discard", &st.clause, "after the deal, players steal from the head of the stock, in turn, and each lays away as many cards, to the stock".into()));
        lines.push(line("dog and discard", &st.cards.clause, format!("only {} may be stolen", st.cards.label)));
        if let Some((h, c)) = &st.cutter {
            lines.push(line("dog and discard", c, format!("the cutter (the player before the dealer) steals first: {}", how(*h))));
        }
        if let Some((h, c)) = &st.dealer {
            lines.push(line("dog and discard", c, format!("the dealer steals from where the cutter stopped: {}", how(*h))));
        }
    }
    if let Some(so) = &r.sit_out_choice {
        lines.push(line(
            "players and deal",
            &so.clause,
            "after the deal (and the steals), before the first card, one player may sit the deal out, in turn from first hand; his hand is out of play and the others play on"
                .into(),
        ));
        if let Some((e, c)) = &so.allowed {
            lines.push(line("players and deal", c, format!("anyone may sit out only where {}", force.words(e))));
        }
        lines.push(line("players and deal", &so.fee_clause, format!("who sits out pays the taker of the last trick, by his place in turn: {}", force.words(&so.fee))));
    }
    for d in &r.declarations {
        let when = match d.when {
            When::BeforePlay => "before play",
            When::AfterDiscard => "after the discard",
            When::FirstPlay => "at the declarer's turn to play his first card",
            When::AfterDeal => "right after the deal, before any other move",
            When::AfterPlay => "claimed after the last trick, from the cards held before the discard",
        };
        lines.push(Line {
            aspect: "declarations and bonuses",
            rule: d.clause.rule.clone(),
            text: format!(
                "{} ({when}{}){}",
                d.label,
                match d.by {
                    DeclaredBy::Any => "",
                    DeclaredBy::Taker => ", by the taker",
                    DeclaredBy::Attack => ", by the taker or his partner",
                    DeclaredBy::Defence => ", by the defence",
                    DeclaredBy::AnySide => ", by either side, each once",
                },
                if d.shows.is_empty() { String::new() } else { format!(", shows {}", cards_short(d.shows)) }
            ),
            source: d.clause.source.clone(),
            at: d.clause.at.clone(),
        });
        for a in &d.allowed {
            let reason = a.reason.as_deref().map(|r| format!(" ({})", force.label(r))).unwrap_or_default();
            // A condition on options alone is settled by the options in force.
            let text = match force.value(&a.condition) {
                Some(Value::Bool(true)) => format!("{} is allowed with these options{reason}", with_article(&d.label)),
                Some(Value::Bool(false)) => format!("{} is not allowed with these options{reason}", with_article(&d.label)),
                _ => format!("{} is allowed only when {}{reason}", with_article(&d.label), force.words(&a.condition)),
            };
            lines.push(line("declarations and bonuses", &a.clause, text));
        }
        if let Some(c) = &d.compulsory {
            let by = if d.when == When::FirstPlay { "at his turn to play his first card" } else { "before the first card" };
            // `compulsory = condition`: read on the options chosen (it reads nothing else).
            let text = match d.compulsory_if.as_ref().map(|e| force.value(e)) {
                Some(Some(Value::Bool(false))) => format!("{} is not compulsory with these options: one not declared is simply not made, nor paid", with_article(&d.label)),
                Some(Some(Value::Bool(true))) | None => format!("{} is compulsory: a player who holds one must declare it {by}", with_article(&d.label)),
                Some(_) => format!("{} is compulsory when {}: a player who holds one must declare it {by}", with_article(&d.label), force.words(d.compulsory_if.as_ref().unwrap())),
            };
            lines.push(line("declarations and bonuses", c, text));
        }
        // `in-turn from dealer = condition`, read on the options chosen, rules over plain `in-turn`.
        let from_dealer = d.in_turn_from_dealer.as_ref().filter(|(e, _)| force.value(e) == Some(Value::Bool(true)));
        if let Some((_, c)) = from_dealer {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!(
                    "{} is declared in turn from the dealer: the dealer first, then the others in the order of play; no player declares after one later in turn has declared",
                    with_article(&d.label)
                ),
            ));
        } else if let Some(c) = &d.in_turn {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!("{} is declared in turn from first hand: no player declares after one later in turn has declared", with_article(&d.label)),
            ));
        }
        if let Some(c) = &d.from_discard {
            lines.push(line("declarations and bonuses", c, format!("{} may show cards its declarer laid away as well as those in his hand", with_article(&d.label))));
        }
        if let Some(c) = &d.ends_match {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!("{} ends the deal where it is made, scored on what has been played, and the match: the declarer's side wins it", with_article(&d.label)),
            ));
        }
        if let Some(c) = &d.every_card_counts {
            lines.push(line("declarations and bonuses", c, format!("every card shown in {} must count: its value drops without it", with_article(&d.label))));
        }
        if let Some((k, c)) = &d.keeps {
            lines.push(line("declarations and bonuses", c, format!("its declarer keeps {} until the last trick, unless he has no other card to play", r.cards_named(*k))));
        }
        for (msg, _, c) in &d.requires {
            lines.push(Line { aspect: "declarations and bonuses", rule: c.rule.clone(), text: force.label(msg), source: c.source.clone(), at: c.at.clone() });
        }
    }
    let pl = &r.play;
    if let Some((w, c)) = &pl.direction {
        let way = force.text(&w.expr(), |v| match plain(v).as_str() {
            "anticlockwise" => "anticlockwise, each player's turn passing to his right".into(),
            "clockwise" => "clockwise, each player's turn passing to his left".into(),
            other => other.into(),
        });
        lines.push(line("trick obligations", c, format!("play goes {way} (the record lists each player before the one to his right)")));
    }
    lines.push(line("trick obligations", &pl.order_clause, "each plays in turn, once bidding and discards are done".into()));
    lines.push(line("trick obligations", &pl.hold_clause, "a player plays only cards he holds".into()));
    lines.push(Line {
        aspect: "trick obligations",
        rule: pl.lead_clause.rule.clone(),
        text: lead_words(&force.formula(&pl.lead_clause), || force.words(&pl.lead)),
        source: pl.lead_clause.source.clone(),
        at: pl.lead_clause.at.clone(),
    });
    let ladder: Vec<String> = pl.ladder.iter().map(|(o, _)| format!("{o:?}").to_lowercase()).collect();
    for (i, (o, c)) in pl.ladder.iter().enumerate() {
        let text = match o {
            Obligation::Follow => "must follow suit (trumps led: play a trump)",
            Obligation::Trump => "unable to follow: must trump",
            Obligation::Overtrump => "a trump played must beat the highest trump in the trick if possible",
            Obligation::Beat => "must win the trick if possible: a higher card of the suit led, or a higher trump",
        };
        let text = match pl.ladder_when.get(i) {
            Some(Some(e)) if people => format!("{text}, when {}", force.words(e)),
            Some(Some(_)) => format!("{text}, when {}", formula_text(r, c)),
            _ => text.to_string(),
        };
        lines.push(Line { aspect: "trick obligations", rule: c.rule.clone(), text, source: c.source.clone(), at: c.at.clone() });
    }
    for k in &pl.keeps {
        let c = &k.clause;
        let said = |e: &crate::expr::Expr| if people { force.words(e) } else { formula_text(r, c) };
        let when = |w: &Option<crate::expr::Expr>| w.as_ref().map_or(String::new(), |w| format!(", when {}", said(w)));
        let text = match (&k.cards, k.last_trump) {
            (e, true) => format!("these cards may be played only as a player's last trump: {}", said(e)),
            (crate::expr::Expr::Const(crate::expr::Value::Cards(set)), false) => {
                // `while CLASS`: while other cards of the class are held.
                let others = match k.among {
                    a if a == CardSet::full() => "other cards".to_string(),
                    a if a == r.pack.trumps() => "other trumps".to_string(),
                    a => format!("other cards of {}", r.cards_named(a)),
                };
                format!("{}: {} may not be led or played while {others} are held{}", k.label, r.cards_named(*set), when(&k.when))
            }
            (_, false) => format!("{}: cards kept back while others are held{}", k.label, when(&k.when)),
        };
        lines.push(line("trick obligations", c, text));
    }
    for f in &pl.forced {
        let word = if f.lead { "led" } else { "played" };
        let when = match &f.when {
            Some(w) if people => format!(", when {}", force.words(w)),
            Some(_) => format!(", when {}", formula_text(r, &f.clause)),
            None => String::new(),
        };
        let text = match &f.cards {
            crate::expr::Expr::Const(crate::expr::Value::Cards(set)) => format!("{}: {} must be {word} when held{when}", f.label, r.cards_named(*set)),
            e => format!(
                "{}: these cards must be {word} when held, as worked out at the player's turn: {}",
                f.label,
                if people { force.words(e) } else { formula_text(r, &f.clause) }
            ),
        };
        lines.push(line("trick obligations", &f.clause, text));
    }
    for end in &pl.ends {
        let when = if people { force.words(&end.when) } else { formula_text(r, &end.clause) };
        lines.push(line("trick obligations", &end.clause, format!("{}: play ends after the trick in which {when}, and the deal is scored as it stands", end.label)));
    }
    if let Some((e, c)) = &pl.trumps_win {
        let when = if people { force.words(e) } else { formula_text(r, c) };
        lines.push(line("trick obligations", c, format!("trumps beat the cards of a suit led only when {when} (otherwise the highest card of the suit led wins)")));
    }
    for f in &pl.faults {
        let word = format!("{:?}", f.obligation).to_lowercase();
        let mut text = format!(
            "breaking `must {word}` is a fault, \"{}\", not a refused card: the card stands and the offender pays {} to each other player",
            f.label,
            if people { force.words(&f.amount) } else { formula_text(r, &f.clause) }
        );
        if people && force.known_value(&f.amount) == Some(Value::Cards(CardSet::EMPTY)) {
            text = format!("breaking must {word} is no fault with these options: the card is refused");
        } else if formula_text(r, &f.clause).split(|ch: char| !ch.is_alphanumeric() && ch != '_').any(|w| w == "none") {
            text.push_str(" (where it is `none`, breaking the obligation is no fault: the card is refused)");
        }
        if let Some(e) = &f.gives_back {
            let name = match e {
                Expr::Const(Value::Cards(class)) => r.classes.iter().find(|k| k.cards == *class).map(|k| k.name.clone()).unwrap_or_else(|| cards_short(*class)),
                Expr::Let(i) if people => {
                    r.constants.get(*i).map(|l| format!("{} ({})", l.name.replace('_', " "), force.text(&Expr::Let(*i), |v| force.value_words(v)))).unwrap_or_default()
                }
                Expr::Let(i) => r.constants.get(*i).map(|l| format!("`{}` ({})", l.name, formula_text(r, &l.clause))).unwrap_or_default(),
                _ => "a formula".into(),
            };
            text.push_str(&format!("; the cards of {name} its card takes go back to the players who played them"));
        }
        lines.push(line("trick obligations", &f.clause, text));
    }
    if ladder.is_empty() {
        lines.push(Line { aspect: "trick obligations", rule: "play".into(), text: "no obligation".into(), source: None, at: pl.lead_clause.at.clone() });
    }
    let f = &r.fool;
    // A pack whose Fool is a trump (or that has none) has no Excuse for these rules to describe.
    let excuse_in_pack = r.pack.cards.contains(crate::cards::FOOL);
    let fool_lines: Vec<(&Clause, String)> = if !excuse_in_pack {
        vec![]
    } else {
        [
            f.excuse.as_ref().map(|c| (c, "may be played to any trick instead of obeying".to_string())),
            Some((
                &f.clause,
                format!(
                    "led, {}; played, {}; played to the last trick, {}",
                    force.text(&f.led.expr(), |v| fool_words(&plain(v))),
                    force.text(&f.keep.expr(), |v| fool_words(&plain(v))),
                    force.text(&f.last_trick.expr(), |v| fool_words(&plain(v)))
                ),
            )),
            f.slam_wins.as_ref().map(|c| match &f.slam_wins_when {
                None => (c, "led to the last trick by a side that won every other trick, it wins".to_string()),
                Some(w) => (c, format!("{} to the last trick by a side that won every other trick, it wins", force.text(&w.expr(), plain))),
            }),
            f.deadline.as_ref().map(|(e, c)| (c, format!("must be played before the last {} tricks, by a holder who may play it", force.words(e)))),
        ]
        .into_iter()
        .flatten()
        .collect()
    };
    for (c, t) in fool_lines {
        lines.push(Line { aspect: "the excuse", rule: c.rule.clone(), text: t, source: c.source.clone(), at: c.at.clone() });
    }
    // Where the Fool is a trump by an option, the Excuse's rules hold only while it is not: said
    // under the choice that keeps them, and under the one that voids them.
    if let (Some((_, choice, _)), Some(section)) = (&other_pack, Some(&original.fool.clause).filter(|c| !c.at.is_empty())) {
        let name = &original.pack.fool_name;
        let text = if excuse_in_pack {
            format!("these rules hold while {name} is the Excuse: with {choice} it is a trump, and they do not apply")
        } else {
            format!("{name} is a trump with these options: the rules of the Excuse (the fool section) do not apply; with {choice} they do")
        };
        lines.push(line("the excuse", section, text));
    }
    if let Some(u) = &r.untouchable {
        let when = force.words(&u.when);
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
    for p in &r.pots {
        lines.push(line(
            "pots",
            &p.clause,
            format!("{}: money kept on the table from deal to deal; a record says what it holds at the start of its deal (`pots`), the verdict what it holds at the end", p.label),
        ));
    }
    for t in &r.triggers {
        lines.push(Line {
            aspect: "payments during play",
            rule: t.clause.rule.clone(),
            text: format!(
                "{}, {}: {} {}",
                t.label,
                match t.on {
                    TriggerEvent::Cut => "when the cut card is shown",
                    TriggerEvent::Play => "when one of its cards is played",
                },
                match t.pot {
                    Some(i) => format!("{} pays the player", r.pots[i].label),
                    None => "each opponent pays the player".to_string(),
                },
                force.words(&t.value)
            ),
            source: t.clause.source.clone(),
            at: t.clause.at.clone(),
        });
    }
    for l in &r.score.lets {
        lines.push(Line {
            aspect: "scoring",
            rule: l.clause.rule.clone(),
            text: format!("{}: {}", l.name.replace('_', " "), force.words(&l.expr)),
            source: l.clause.source.clone(),
            at: l.clause.at.clone(),
        });
    }
    for t in &r.score.terms {
        lines.push(Line {
            aspect: "scoring",
            rule: t.clause.rule.clone(),
            text: format!("the hand score's term “{}”: {}", t.label, force.words(&t.expr)),
            source: t.clause.source.clone(),
            at: t.clause.at.clone(),
        });
    }
    for p in &r.score.pays {
        lines.push(Line {
            aspect: "scoring",
            rule: p.clause.rule.clone(),
            text: {
                // `pay defence to attack = total`: who pays whom, then how much.
                let head = statement_text(r, &p.clause);
                let who = head.split(" = ").next().unwrap_or_default().strip_prefix("pay ").unwrap_or_default().split('"').next().unwrap_or_default().trim().to_string();
                let (from, to) = who.split_once(" to ").unwrap_or((&who, ""));
                let side = |s: &str, other: bool| match s {
                    "players" if other => "each other player".to_string(),
                    "players" => "each player".to_string(),
                    s if s.starts_with("pot.") => r.pots.iter().find(|p| s[4..] == *p.name).map_or_else(|| s.to_string(), |p| p.label.to_string()),
                    s if s.contains(' ') || s.contains('(') => s.to_string(),
                    s => format!("the {s}"),
                };
                // Between a pot and players, each player pays or is paid: no "other" player.
                let other = !from.starts_with("pot.");
                format!("{} pays {}: {}", side(from, false), side(to, other), force.words(&p.amount))
            },
            source: p.clause.source.clone(),
            at: p.clause.at.clone(),
        });
    }
    for (what, (e, c)) in [("each player's standing", &r.score.standing), ("a winner", &r.score.winner)].into_iter().filter_map(|(w, x)| Some((w, x.as_ref()?))) {
        lines.push(Line { aspect: "scoring", rule: c.rule.clone(), text: format!("{what}: {}", force.words(e)), source: c.source.clone(), at: c.at.clone() });
    }
    if let Some(m) = &r.game_match {
        for (what, slot) in
            [("the match is over after this many deals played to the end", &m.deals), ("the match is over after the deal in which a player's total reaches", &m.target)]
        {
            if let Some((e, c)) = slot {
                lines.push(line("the match", c, format!("{what}: {}", force.words(e))));
            }
        }
        lines.push(line("the match", &m.clause, "its winners: the players with the highest total when it is over".into()));
    }
    // The values the rules name (`let`), as they are with these options: a ruleset that changes one
    // (the poignées' sizes at three players, their values at 20/40/60) differs here.
    for (i, l) in r.constants.iter().enumerate() {
        let value = force.text(&Expr::Let(i), |v| force.value_words(v));
        lines.push(line("values the rules name", &l.clause, format!("{}: {value}", l.name.replace('_', " "))));
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
