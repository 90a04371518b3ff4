//! A stored game step by step, as a chess viewer goes move by move: after trick N, the hands as they
//! stand, the cards each side has taken and its running card points, with links (and access keys) to
//! the first, previous, next and last trick; no script. The record itself can be downloaded.

use std::collections::BTreeMap;

use maud::{html, Markup};
use tarot_engine::cards::CardSet;
use tarot_engine::expr::Value;
use tarot_engine::ir::Ruleset;
use tarot_engine::num::Q;
use tarot_engine::replay::{Game, Setup};
use tarot_engine::verdict::Verdict;
use tarot_engine::{Event, GameRecord};

use crate::pages::game_view::{sorted, Sides};
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
    let seats = Sides::new(Some(rules), record, verdict);
    let setup = Setup::new(rules, record.players.len(), &record.options).ok();
    let game = setup.as_ref().map(|s| Game::new(s, &record.players, 0));
    let counting = game.as_ref().and_then(|g| tarot_engine::replay::counting_for(&rules.counting, &|e| g.constant(e).ok_or_else(|| "needs a game".to_string())).ok());
    let keeps_fool = game.as_ref().and_then(|g| match g.constant(&rules.fool.keep.expr()) {
        Some(Value::Str(s)) => Some(&*s != "to-winner"),
        _ => None,
    });
    // The hands: dealt, then the talon taken, the discards, the purchases, the cards played.
    let mut hands: BTreeMap<String, CardSet> = BTreeMap::new();
    let mut dog = CardSet::EMPTY;
    let mut taken: Vec<(String, CardSet)> = vec![];
    let mut played = 0;
    let trick_cards: usize = verdict.tricks.iter().take(n).map(|t| t.cards.len()).sum();
    for e in &record.events {
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
            Event::Play { player, card } if played < trick_cards => {
                played += 1;
                if let Some(c) = rules.pack.parse_card(card) {
                    hands.entry(player.to_string()).or_default().remove(c);
                }
            }
            _ => {}
        }
    }
    // The cards each side has taken: each trick to its winner's side, the Fool kept by its side where
    // the rules say so (the empty card given for it is left to the score sheet).
    let mut plays = record.events.iter().filter_map(|e| if let Event::Play { player, card } = e { Some((player.as_str(), card.as_str())) } else { None });
    for trick in verdict.tricks.iter().take(n) {
        let these: Vec<(&str, &str)> = plays.by_ref().take(trick.cards.len()).collect();
        for (p, code) in these {
            let Some(c) = rules.pack.parse_card(code) else { continue };
            let owner = if c.is_fool() && keeps_fool == Some(true) { p } else { &*trick.winner };
            match taken.iter_mut().find(|(q, _)| seats.same_side(q, owner)) {
                Some((_, set)) => set.insert(c),
                None => taken.push((owner.to_string(), CardSet::single(c))),
            }
        }
    }
    let side_name = |p: &str| {
        let mates: Vec<&str> = record.players.iter().map(|x| x.as_str()).filter(|x| seats.same_side(x, p)).collect();
        match mates.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => mates.join(""),
        }
    };
    let points = |set: CardSet| counting.as_ref().map(|c| tarot_engine::replay::card_points(c, set)).unwrap_or(Q::ZERO);
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
                    tr { th { (side_name(owner)) } td { (sorted(Some(rules), &codes)) } td class="running-points" { strong { (amount(points(*set))) } } }
                }
            }
            p class="src" { "Card points counted card by card from the cards taken; the empty card handed back for the Fool and the dog are counted at the end, on the score sheet." }
        }
    }
}
