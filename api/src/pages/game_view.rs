//! One game and its verdict, drawn for people: the table, the deal, the auction, the dog and the
//! discard, every trick as cards (who led, who won, the Excuse and what becomes of it), then the
//! score sheet and the ledger, each line with its rule and source. Where a game breaks a rule, the
//! view stops there, on the trick (or the bid, the discard) itself, and says why.

use maud::{html, Markup};
use tarot_engine::ir::Ruleset;
use tarot_engine::Card;
use tarot_engine::{draw_game, Event, GameDrawing, GameRecord, Play};
use tarot_engine::{Status, Verdict, Violation};

use crate::pages::{card_code, score_sheet, status_word};

/// The view of `record`, replayed under `rules` (absent when the registry has no such ruleset).
pub(crate) fn view(rules: Option<&Ruleset>, record: &GameRecord, verdict: Result<&Verdict, String>) -> Markup {
    // The pack the game's options choose, where it follows an option (`fool "name" trump = condition`).
    let rules = rules.map(|r| r.with_pack_for(record.players.len(), &record.options).unwrap_or(r));
    let verdict = match verdict {
        Ok(v) => v,
        Err(why) => {
            return html! {
                (table_of(rules, record))
                div class="stop" id="stop" { strong { "This record cannot be replayed as a game. " } (crate::pages::engine_line(rules, &why)) }
                (events_list(rules, record))
            }
        }
    };
    let (class, word) = status_word(verdict.status);
    let stop = verdict.violation.as_ref();
    let drawing = draw_game(rules, record, verdict);
    html! {
        p { "Verdict under " a href={ "/pages/rulesets/" (verdict.ruleset) } { code { (verdict.ruleset) } } ": "
            strong class=(class) { (word) }
            @if let Some(v) = stop { " at event " (v.event) " — " a href="#stop" { "see where it stopped" } } }
        @if let Some(a) = &verdict.annulled {
            div class="stop" id="stop" { strong { "The deal is annulled: " } (a.reason)
                @if let Some(p) = a.player.as_ref().filter(|p| !a.reason.contains(&***p)) { " (" (p) ")" } " " (rule_ref(&a.rule, a.source.as_deref(), None)) }
        }
        (table_of(rules, record))
        (deal(rules, record, stop, verdict.annulled.as_ref().and_then(|a| a.player.as_deref())))
        (auction(rules, record, stop))
        (tricks(rules, verdict, &drawing))
        @if let Some(n) = &verdict.next {
            h2 { "Next" }
            p { strong { (n.player) } " to " (n.phase.word())
                @if let Some(k) = n.count { " (" (k) " cards)" } ":" }
            p { @for l in &n.legal { (card_code(rules, l, "")) " " }
                // The packets that may be taken, told apart as the text verdict tells them.
                @for (i, k) in n.packets.iter().enumerate() { @if i > 0 { "| " } @for c in k { (card_code(rules, c, "")) " " } } }
            @if !n.sit_out.is_empty() {
                p class="sit-out-offer" { "Or, before the first declaration or card, one of " (n.sit_out.join(", ")) " may sit the deal out (a " code { "sit-out" } " event)." }
            }
        }
        (score_sheet::score_sheet(rules, record, verdict, &drawing))
        (score_sheet::ledger(rules, verdict, &drawing.sides))
        @if !verdict.notes.is_empty() {
            h2 { "Notes" }
            ul { @for n in &verdict.notes { li { (crate::pages::engine_line(rules, n)) } } }
        }
    }
}

fn table_of(rules: Option<&Ruleset>, record: &GameRecord) -> Markup {
    html! {
        @if let Some(d) = &record.description { p { (d) } }
        p { "Round the table: " (record.players.join(", ")) "; " (record.dealer) " deals."
            @if rules.is_none() { " The ruleset " code { (record.ruleset) } " is not in this archive." }
            @for (k, v) in &record.options { " Option " code { (k) } " = " (v.to_string().trim_matches('"')) "." } }
        @if !record.pots.is_empty() {
            p { "Carried into this deal from the one before: "
                @for (i, (k, v)) in record.pots.iter().enumerate() { @if i > 0 { ", " } (pot_label(rules, k)) " " strong { (v) } } "." }
        }
        @if !record.standing.is_empty() {
            p class="standing" { "Carried into this deal from the match, each player's total before it (its record's " code { "standing" } "): "
                @for (i, (k, v)) in record.players.iter().filter_map(|p| record.standing.get(p).map(|v| (p, v))).enumerate() { @if i > 0 { ", " } (k) " " strong { (v) } } "." }
        }
    }
}

/// A pot in the ruleset's words ("the King pot"), or its name.
pub(crate) fn pot_label(rules: Option<&Ruleset>, name: &str) -> String {
    rules.and_then(|r| r.pots.iter().find(|p| &*p.name == name)).map_or_else(|| format!("pot {name}"), |p| p.label.to_string())
}

/// A rule's id, its source and where it is written, for a citation after a sentence.
pub(crate) fn rule_ref(rule: &str, source: Option<&str>, at: Option<&str>) -> Markup {
    html! { span class="src" { "[rule " code { (rule) } @if let Some(s) = source { ", " (s) } @if let Some(a) = at { "; " (a) } "]" } }
}

/// The box that says where and why a game stopped.
fn stopped(rules: Option<&Ruleset>, v: &Violation) -> Markup {
    html! {
        div class="stop" id="stop" {
            strong { "Stopped here, at event " (v.event) @if let Some(p) = &v.player { " (" (p) ")" } ": " }
            (crate::pages::engine_line(rules, &v.message)) " " (rule_ref(&v.rule, v.source.as_deref(), Some(&v.at)))
        }
    }
}

pub(crate) fn sorted(rules: Option<&Ruleset>, codes: &[impl AsRef<str>]) -> Markup {
    let parse = |code: &str| rules.map_or_else(|| Card::parse(code), |r| r.pack.parse_card(code));
    let mut cards: Vec<(Option<Card>, &str)> = codes.iter().map(|c| (parse(c.as_ref()), c.as_ref())).collect();
    // Trumps by number (T22 to T40 too), then the Fool, then the suits.
    let place = |c: Card| match c.kind() {
        tarot_engine::Kind::Trump(n) => n as u16,
        tarot_engine::Kind::Fool => 41,
        _ => 42 + c.0 as u16,
    };
    cards.sort_by_key(|(c, code)| (c.map_or(u16::MAX, place), code.to_string()));
    html! { @for (_, code) in cards { (card_code(rules, code, "")) } }
}

/// The hands, the piles, the dog and the cut card; `marked`, the hand that annuls the deal.
fn deal(rules: Option<&Ruleset>, record: &GameRecord, stop: Option<&Violation>, marked: Option<&str>) -> Markup {
    let Some((i, Event::Deal { hands, dog, cut, piles, .. })) = record.events.iter().enumerate().find(|(_, e)| matches!(e, Event::Deal { .. })) else {
        return html! { h2 { "The deal" } p { "No deal is recorded yet." } };
    };
    html! {
        h2 { "The deal" }
        table {
            @for (player, hand) in hands {
                tr class=[(marked == Some(player.as_str())).then_some("diverge")] { th { (player) } td { (sorted(rules, hand)) } }
            }
            @for (player, ps) in piles {
                tr { th { (player) "'s piles" } td { @for p in ps { span class="notice" { @for c in p { (card_code(rules, c, "")) } } " " } } }
            }
            @if !dog.is_empty() { tr { th { (the_dog(rules)) } td { (sorted(rules, dog)) } } }
            @if let Some(c) = cut { tr { th { "the cut card" } td { (card_code(rules, c, "")) } } }
        }
        @if let Some(v) = stop.filter(|v| v.event == i) { (stopped(rules, v)) }
    }
}

/// The bids, the call, the discards and the declarations, in the order made.
fn auction(rules: Option<&Ruleset>, record: &GameRecord, stop: Option<&Violation>) -> Markup {
    let moves: Vec<(usize, &Event)> = record
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(e, Event::Bid { .. } | Event::Call { .. } | Event::Take { .. } | Event::Buy { .. } | Event::Discard { .. } | Event::Declare { .. } | Event::SitOut { .. })
        })
        .collect();
    if moves.is_empty() {
        return html! {};
    }
    html! {
        h2 { (phases_heading(rules, &moves, record.events.iter().any(|e| matches!(e, Event::Deal { dog, .. } if !dog.is_empty())))) }
        table {
            tr { th { "event" } th { "player" } th { "move" } }
            @for (i, e) in &moves {
                @let bad = stop.is_some_and(|v| v.event == *i);
                tr class=[bad.then_some("diverge")] {
                    td { (i) }
                    td { (e.player().unwrap_or_default()) }
                    td {
                        @match e {
                            Event::Bid { bid, .. } => { @if bid == "pass" { "passes" } @else { "bids " strong { (contract_label(rules, bid)) } } }
                            Event::Call { card: c, .. } => { "calls " (card_code(rules, c, "")) }
                            Event::Take { cards, .. } => { @if rules.is_some_and(|r| r.steal.is_some()) { "steals " (sorted(rules, cards)) " from " (the_dog(rules)) } @else { "takes " (sorted(rules, cards)) " from " (rules.map_or_else(|| "the talon".to_string(), |r| r.the_talon())) } }
                            Event::Discard { cards, .. } => { "discards " (sorted(rules, cards)) }
                            Event::Buy { card: Some(c), gives: Some(g), .. } => { "buys " (card_code(rules, c, "")) ", giving back " (card_code(rules, g, "")) }
                            Event::Buy { .. } => { "buys no card" }
                            Event::Declare { declaration, cards, .. } => { "declares " strong { (declaration_label(rules, declaration)) } @if !cards.is_empty() { ", showing " (sorted(rules, cards)) } }
                            Event::SitOut { .. } => { "sits the deal out, paying a fee to the taker of the last trick" }
                            _ => {}
                        }
                        @if bad { @if let Some(v) = stop { (stopped(rules, v)) } }
                    }
                }
            }
        }
    }
}

/// A declaration by the ruleset's title for it ("Kings and Fool"), the name as written otherwise.
pub(crate) fn declaration_label(rules: Option<&Ruleset>, name: &str) -> String {
    rules.and_then(|r| r.declarations.iter().find(|d| d.name == name).map(|d| d.label.to_string())).unwrap_or_else(|| name.replace('_', " "))
}

/// The dog in the ruleset's own word ("the Blinde", "the stock"); "the dog" without the rules.
fn the_dog(rules: Option<&Ruleset>) -> String {
    rules.map_or_else(|| "the dog".to_string(), |r| r.the_dog())
}

/// The heading over the moves before play: only the phases this game has ("The auction, the dog and
/// the discard", "The steals and the declarations").
fn phases_heading(rules: Option<&Ruleset>, moves: &[(usize, &Event)], dog_taken: bool) -> String {
    let has = |f: fn(&Event) -> bool| moves.iter().any(|(_, e)| f(e));
    let dog = the_dog(rules);
    let mut parts: Vec<&str> = vec![];
    if has(|e| matches!(e, Event::Bid { .. })) {
        parts.push("the auction");
    }
    if has(|e| matches!(e, Event::Call { .. })) {
        parts.push("the call");
    }
    if has(|e| matches!(e, Event::Take { .. })) {
        parts.push(if rules.is_some_and(|r| r.steal.is_some()) { "the steals" } else { &dog });
    }
    if has(|e| matches!(e, Event::Discard { .. })) {
        // The dog taken up with no event of its own, before the discard.
        if dog_taken && !parts.contains(&dog.as_str()) {
            parts.push(&dog);
        }
        parts.push("the discard");
    }
    if has(|e| matches!(e, Event::Buy { .. })) {
        parts.push("the purchases");
    }
    if has(|e| matches!(e, Event::Declare { .. })) {
        parts.push("the declarations");
    }
    if has(|e| matches!(e, Event::SitOut { .. })) {
        parts.push("who sits out");
    }
    let text = match parts.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "before play".to_string(),
    };
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or(text)
}

/// A contract by the ruleset's own name for it ("garde contre le chien"), the bid as written otherwise.
pub(crate) fn contract_label(rules: Option<&Ruleset>, bid: &str) -> String {
    rules.and_then(|r| r.bidding.as_ref()?.contracts.iter().find(|k| k.name == bid).map(|k| k.label.clone())).unwrap_or_else(|| bid.to_string())
}

fn tricks(rules: Option<&Ruleset>, verdict: &Verdict, drawing: &GameDrawing) -> Markup {
    let stop = verdict.violation.as_ref();
    let mut rows = vec![];
    for trick in &drawing.tricks {
        let note = trick.excuse.as_ref().and_then(|e| Some((e.words.as_ref()?, e.clause.as_ref())));
        rows.push(html! {
            tr {
                th { (trick.number) }
                td { (trick.leader) }
                td {
                    @for p in &trick.plays {
                        span class="play" { (card_code(rules, &p.card, if p.player == trick.winner { "won" } else { "" })) span class="who" { (p.player) } }
                    }
                    @if let Some((n, clause)) = note { div class="notice" { (n) " " @if let Some(c) = clause { (rule_ref(&c.rule, c.source.as_deref(), None)) } } }
                }
                td { strong { (trick.winner) } }
            }
        });
    }
    // The trick where the game stopped: the cards played to it, and the one refused.
    if let Some(v) = stop.filter(|v| drawing.tricks.iter().flat_map(|t| &t.plays).chain(&drawing.after).any(|p| p.event == v.event)) {
        let these: Vec<&Play> = drawing.after.iter().take_while(|p| p.event <= v.event).collect();
        rows.push(html! {
            tr class="diverge" {
                th { (verdict.tricks.len() + 1) }
                td { @if let Some(p) = these.first() { (p.player) } }
                td {
                    @for p in &these {
                        span class="play" { (card_code(rules, &p.card, if p.event == v.event { "bad" } else { "" })) span class="who" { (p.player) } }
                    }
                    (stopped(rules, v))
                }
                td { "—" }
            }
        });
    }
    // A game in progress: the cards of the trick being played. In a game over with cards after its
    // last trick, the deal ended in the middle of a trick (a fault that ends it, `ends-deal`): those
    // cards, the last one the card it ended at, with the payment it caused.
    let on_table = &drawing.after;
    if stop.is_none() && verdict.status != Status::InProgress && !on_table.is_empty() {
        let last = on_table[on_table.len() - 1].event;
        let cause = verdict.ledger.iter().find(|l| l.event == Some(last));
        rows.push(html! {
            tr class="diverge" {
                th { (verdict.tricks.len() + 1) }
                td { (on_table[0].player) }
                td {
                    @for p in on_table {
                        span class="play" { (card_code(rules, &p.card, if p.event == last { "bad" } else { "" })) span class="who" { (p.player) } }
                    }
                    div class="stop" {
                        @if let Some(c) = cause {
                            strong { "The deal ended here, at event " (last) ": " (c.label) "." }
                            " The card is not played; the notes say why. " (rule_ref(&c.rule, c.source.as_deref(), None))
                        } @else {
                            strong { "The deal ended before this trick was finished." }
                        }
                    }
                }
                td { "—" }
            }
        });
    } else if stop.is_none() && !on_table.is_empty() {
        rows.push(html! {
            tr {
                th { (verdict.tricks.len() + 1) }
                td { (on_table[0].player) }
                td { @for p in on_table { span class="play" { (card_code(rules, &p.card, "")) span class="who" { (p.player) } } } }
                td { "being played" }
            }
        });
    }
    if rows.is_empty() {
        return html! {};
    }
    html! {
        h2 { "The tricks" }
        p class="src" { "Each card as played, from the leader round the table; the card that won the trick is outlined in green. "
            "Hover over a card for its name in this ruleset." }
        table {
            tr { th { "trick" } th { "led by" } th { "cards" } th { "won by" } }
            @for r in rows { (r) }
        }
    }
}

/// A record that cannot be replayed: its events as written, so the reader can see which is wrong.
fn events_list(rules: Option<&Ruleset>, record: &GameRecord) -> Markup {
    html! {
        h2 { "The events as recorded" }
        ol start="0" {
            @for e in &record.events {
                li { (e.kind()) @if let Some(p) = e.player() { " by " (p) }
                    @if let Event::Play { card: c, .. } = e { ": " (card_code(rules, c, "")) } }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// A hand of a larger pack is drawn trumps first by number (T22 after T21, not after the suits),
    /// then the Fool, then the suits; the Fool as a trump, written `EX`, among the trumps.
    #[test]
    fn hands_are_drawn_trumps_by_number() {
        let registry = tarot_engine::Registry::from_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/rules/pack")).unwrap();
        let order = |id: &str, codes: &[&str]| -> Vec<String> {
            let html = super::sorted(registry.get(id), codes).into_string();
            html.split("data-code=\"").skip(1).map(|s| s.split('"').next().unwrap().to_string()).collect()
        };
        assert_eq!(order("forty", &["KS", "T40", "EX", "T22", "T3"]), ["T3", "T22", "T40", "EX", "KS"]);
        assert_eq!(order("skus", &["KS", "EX", "T21"]), ["T21", "T22", "KS"]);
    }

    /// A deal ended in the middle of a trick by a fault (Dobbm's revoke, `fault ... ends-deal`) is
    /// drawn as ended at the card at fault, with the payment's rule, not as a trick being played.
    #[test]
    fn a_deal_ended_by_a_fault_is_drawn_as_ended_there() {
        let registry = tarot_engine::Registry::builtin().unwrap();
        let json = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/dobbm/valid/revoke-by-a-defender.json")).unwrap();
        let record = tarot_engine::parse_record(&json).unwrap();
        let rules = registry.get(&record.ruleset);
        let verdict = tarot_engine::replay(rules.unwrap(), &record).unwrap();
        let html = super::tricks(rules, &verdict, &tarot_engine::draw_game(rules, &record, &verdict)).into_string();
        assert!(html.contains("The deal ended here, at event 7: revoke (verleugnen)."), "{html}");
        assert!(html.contains("play.fault.follow"), "{html}");
        // The card at fault, the revoke's sow of leaves (1S), is the one marked.
        assert_eq!(html.matches(" bad\"").count(), 1, "{html}");
        assert!(html.split(" bad\"").nth(1).and_then(|rest| rest.split('>').next()).is_some_and(|tag| tag.contains("data-code=\"1S\"")), "{html}");
        assert!(!html.contains("being played"), "{html}");
    }
}
