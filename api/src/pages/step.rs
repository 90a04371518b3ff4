//! A stored game step by step, as a chess viewer goes move by move: after trick N, the hands as they
//! stand, the cards each side has taken and its running card points, with links (and access keys) to
//! the first, previous, next and last trick; no script. The record itself can be downloaded.

use std::collections::BTreeMap;

use maud::{html, Markup};
use tarot_engine::ir::Ruleset;
use tarot_engine::CardSet;
use tarot_engine::Verdict;
use tarot_engine::{draw_game, Event, GameRecord};

use crate::pages::game_view::sorted;
use crate::pages::score_sheet::amount;

/// The cards of a record as the pack reads them.
fn parse(rules: &Ruleset, codes: &[impl AsRef<str>]) -> CardSet {
    codes.iter().filter_map(|c| rules.pack.parse_card(c.as_ref())).collect()
}

/// The step panel of the game `key` after trick `n` (0: before the first), or the links to start.
pub(crate) fn panel(rules: Option<&Ruleset>, record: &GameRecord, verdict: &Verdict, key: &str, n: Option<usize>) -> Markup {
    let total = verdict.tricks.len();
    let Some(rules) = rules.filter(|_| total > 0) else {
        return html! { p class="src" { a href={ "/pages/games/" (key) "?download=record" } download={ (key) ".json" } { "Download the record" } " (JSON, as it was stored)." } };
    };
    let link = |t: usize| format!("/pages/games/{key}?trick={t}#step");
    let Some(n) = n.map(|n| n.min(total)) else {
        return html! {
            p class="step-start" { "Step through the game trick by trick: "
                a href=(link(0)) accesskey="s" { "from the deal" } ", or to trick "
                @for t in 1..=total { a class="to-trick" href=(link(t)) { (t) } " " }
                "· " a href={ "/pages/games/" (key) "?download=record" } download={ (key) ".json" } { "download the record" } }
        };
    };
    let drawing = draw_game(Some(rules), record, verdict);
    // The hands: dealt, then the talon taken, the discards, the purchases, the cards played.
    let mut hands: BTreeMap<String, CardSet> = BTreeMap::new();
    let mut dog = CardSet::EMPTY;
    // The plays of the first n tricks, by their events (tricks begun together interleave theirs).
    let played: std::collections::BTreeSet<usize> = drawing.tricks.iter().take(n).flat_map(|t| t.plays.iter().map(|p| p.event)).collect();
    for (i, e) in record.events.iter().enumerate() {
        match e {
            Event::Deal { hands: h, dog: d, .. } => {
                for (p, cards) in h {
                    hands.insert(p.to_string(), parse(rules, cards));
                }
                dog = parse(rules, d);
            }
            Event::Take { player, cards } => {
                let hand = hands.entry(player.to_string()).or_default();
                *hand = hand.or(parse(rules, cards));
            }
            Event::Discard { player, cards } => {
                let hand = hands.entry(player.to_string()).or_default();
                let cards = parse(rules, cards);
                // The dog taken up with no event of its own: the discard lays away cards of it.
                if !cards.minus(*hand).is_empty() && !dog.is_empty() {
                    *hand = hand.or(dog);
                    dog = CardSet::EMPTY;
                }
                *hand = hand.minus(cards);
            }
            Event::Buy { player, card: Some(c), gives: Some(g) } => {
                if let (Some(c), Some(g)) = (rules.pack.parse_card(c), rules.pack.parse_card(g)) {
                    let from = hands.iter().find(|(_, h)| h.contains(c)).map(|(p, _)| p.clone());
                    if let Some(from) = from {
                        let f = hands.entry(from).or_default();
                        f.remove(c);
                        f.insert(g);
                    }
                    let hand = hands.entry(player.to_string()).or_default();
                    hand.insert(c);
                    hand.remove(g);
                }
            }
            Event::Play { player, card } if played.contains(&i) => {
                if let Some(c) = rules.pack.parse_card(card) {
                    hands.entry(player.to_string()).or_default().remove(c);
                }
            }
            _ => {}
        }
    }
    // The cards each side has taken: each trick to its winner's side, the Fool kept by its side where
    // the rules say so (the empty card given for it is left to the score sheet).
    let taken = drawing.taken_after(rules, n);
    let side_name = |p: &str| {
        let mates: Vec<&str> = record.players.iter().map(|x| x.as_str()).filter(|x| drawing.sides.same_side(x, p)).collect();
        match mates.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => mates.join(""),
        }
    };
    let this = n.checked_sub(1).and_then(|i| verdict.tricks.get(i));
    html! {
        div id="step" class="notice step" {
            h2 { @if n == 0 { "The deal, before the first trick" } @else { "After trick " (n) " of " (total) } }
            nav class="steps" {
                a href=(link(0)) accesskey="h" { "« the deal" }
                @if n > 0 { a rel="prev" href=(link(n - 1)) accesskey="p" { "◀ trick " (n - 1) } }
                @if n < total { a rel="next" href=(link(n + 1)) accesskey="n" { "trick " (n + 1) " ▶" } }
                a href=(link(total)) accesskey="e" { "the end »" }
                a href={ "/pages/games/" (key) } { "the whole game" }
            }
            p class="src" { "Keys (the browser's access keys, Alt or Alt+Shift with): n next, p previous, h the deal, e the end." }
            @if let Some(t) = this { p { "Trick " (t.number) " led by " (t.leader) ", won by " strong { (t.winner) } "." } }
            table class="step-hands" {
                tr { th { "player" } th { "hand as it stands" } }
                @for p in &record.players {
                    @let codes: Vec<String> = hands.get(p).map(|h| h.iter().map(|c| c.code_str().to_string()).collect()).unwrap_or_default();
                    tr { th { (p) } td { @if codes.is_empty() { "no card" } @else { (sorted(Some(rules), &codes)) } } }
                }
            }
            table class="step-taken" {
                tr { th { "side" } th { "cards taken" } th { "card points so far" } }
                @for (owner, set) in &taken {
                    @let codes: Vec<String> = set.iter().map(|c| c.code_str().to_string()).collect();
                    tr { th { (side_name(owner)) } td { (sorted(Some(rules), &codes)) } td class="running-points" { strong { (amount(drawing.card_points(*set))) } } }
                }
            }
            p class="src" { "Card points counted card by card from the cards taken; the empty card handed back for the Fool and " (rules.the_dog()) " are counted at the end, on the score sheet." }
        }
    }
}
