//! The fixtures of `troggu-7-8` that show its own rules (P "Special rules for 7 or 8 players"), each a
//! seeded game found by search among steered games, so reproducible:
//!
//! - valid/called-partner-7.json and valid/called-partner-8.json: a Tapp bid, a trump called, its
//!   holder the partner: the opponents pay the Tappist, who pays the partner twice their stake.
//! - valid/tappist-alone.json: the called trump in the Tappist's own hand or the Tapp: he plays alone,
//!   and every opponent's stake is his.
//! - valid/forced-tapp-battler.json: everyone passes, and the holder of the Bättler plays a Tapp.
//! - valid/forced-tapp-bagat.json: everyone passes with the Bättler in the Tapp: the holder of the
//!   Bagat plays a Tapp.
//! - valid/misere-both-in-tapp.json: everyone passes with both in the Tapp: a Misère.
//! - invalid/bidding.all-pass.tapp.json: the game of forced-tapp-battler.json, where the dealer leads
//!   a Misère after the passes instead of the holder of the Bättler calling.
//! - invalid/call.levels.json: the game of called-partner-7.json, where the Tappist calls the XXI.
//!
//!     cargo run -p tarot-engine --example generators -- troggu_fixtures

use crate::common;

use common::{write, write_valid};

use std::collections::BTreeMap;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, Event, GameRecord, Registry, Verdict};
use tarot_engine::{ContractChoice, SimOptions};

const ID: &str = "troggu-7-8";
const SEED: u64 = 78;

/// Whether everyone passed.
fn all_passed(rec: &GameRecord) -> bool {
    rec.events.iter().all(|e| !matches!(e, Event::Bid { bid, .. } if bid.as_str() != "pass"))
}

fn note(v: &Verdict, text: &str) -> bool {
    v.notes.iter().any(|n| n.contains(text))
}

fn contract(v: &Verdict) -> Option<&str> {
    v.outcome.as_ref()?.contract.as_deref()
}

fn partner(v: &Verdict) -> bool {
    v.outcome.as_ref().is_some_and(|o| o.partner.is_some())
}

pub(super) fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("troggu-7-8 is built in");
    let root = common::fixtures().join(ID);
    // Steered to a Tapp, or to the Misère, which nobody bids: everyone passes.
    let tapp = SimOptions { contract: ContractChoice::Only("tapp".into()), ..SimOptions::steered() };
    let passes = SimOptions { contract: ContractChoice::Only("misere".into()), ..SimOptions::steered() };
    type Wanted<'a> = (&'static str, usize, &'a SimOptions, &'static str, fn(&GameRecord, &Verdict) -> bool);
    let wanted: [Wanted; 6] = [
        (
            "called-partner-7",
            7,
            &tapp,
            "Seven players: the Tappist calls a trump other than the XXI and the Bättler, and its holder is his partner; each opponent pays or receives the stake, the partner twice it, from the Tappist, who keeps the balance (P \"Special rules for 7 or 8 players\")",
            |rec, v| !all_passed(rec) && contract(v) == Some("tapp") && partner(v),
        ),
        (
            "called-partner-8",
            8,
            &tapp,
            "Eight players: the Tappist calls a trump, and its holder is his partner; the partner's stake is twice an opponent's, the Tappist's the balance (P \"Special rules for 7 or 8 players\")",
            |rec, v| !all_passed(rec) && contract(v) == Some("tapp") && partner(v),
        ),
        (
            "tappist-alone",
            7,
            &tapp,
            "The trump called is in the Tappist's own hand or in the Tapp: he plays alone, and each opponent's stake is his (P \"Special rules for 7 or 8 players\")",
            |rec, v| !all_passed(rec) && contract(v) == Some("tapp") && !partner(v),
        ),
        (
            "forced-tapp-battler",
            7,
            &passes,
            "Everyone passes: the holder of the Bättler must play a Tapp, as its taker, calling a partner (P \"Special rules for 7 or 8 players\")",
            |rec, v| all_passed(rec) && note(v, "the holder of the Bättler, plays Tapp") && partner(v),
        ),
        (
            "forced-tapp-bagat",
            8,
            &passes,
            "Everyone passes with the Bättler in the Tapp: the holder of the Bagat must play a Tapp (P \"Special rules for 7 or 8 players\")",
            |rec, v| all_passed(rec) && note(v, "the holder of the Bagat") && contract(v) == Some("tapp"),
        ),
        (
            "misere-both-in-tapp",
            7,
            &passes,
            "Everyone passes with the Bättler and the Bagat both in the Tapp: a Misère, each for himself (P \"Special rules for 7 or 8 players\")",
            |rec, v| all_passed(rec) && contract(v) == Some("misere"),
        ),
    ];
    let mut found_games = BTreeMap::new();
    for (k, (file, players, sim, what, shows)) in wanted.iter().enumerate() {
        let seed0 = SEED + k as u64;
        let found = common::find_game(rules, *players, &BTreeMap::new(), sim, (seed0, 20_000), |rec, v| shows(&rec, &v).then_some(rec));
        let Some((seed, mut rec)) = found else {
            eprintln!("{file}: not found in 20000 games");
            continue;
        };
        let origin = format!("game {seed} of seed {seed0} of `troggu_fixtures`");
        rec.description = Some(format!("{what}: {origin}"));
        write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
        found_games.insert(*file, (rec, origin));
    }
    if let Some((rec, origin)) = found_games.get("forced-tapp-battler") {
        misere_instead(rules, &root, rec, origin);
    }
    if let Some((rec, origin)) = found_games.get("called-partner-7") {
        call_the_xxi(rules, &root, rec, origin);
    }
}

/// The forced Tapp's game cut after the passes, the dealer then leading a card as in a Misère.
fn misere_instead(rules: &Ruleset, root: &std::path::Path, rec: &GameRecord, origin: &str) {
    let passes = rec.events.iter().take_while(|e| matches!(e, Event::Deal { .. } | Event::Bid { .. })).count();
    let mut bad = rec.clone();
    bad.events.truncate(passes);
    let Some(Event::Deal { hands, .. }) = rec.events.first() else { panic!("a deal") };
    let card = hands[&*rec.dealer][0].clone();
    bad.events.push(Event::Play { player: rec.dealer.as_str().into(), card });
    bad.description = Some(format!(
        "The deal of valid/forced-tapp-battler.json ({origin}): everyone passes, and the record goes on as if a Misère were played, the dealer leading; the holder of the Bättler must play a Tapp and call first (P \"Special rules for 7 or 8 players\")"
    ));
    let v = replay(rules, &bad).expect("replayable");
    let rule = v.violation.as_ref().map(|x| x.rule.to_string()).expect("the Misère refused");
    assert_eq!(rule, "bidding.all-pass.tapp", "{}", v.to_text());
    write(&root.join("invalid").join(format!("{rule}.json")), &bad);
    println!("{rule}: {}", v.to_text());
}

/// The game with a partner at seven, where the Tappist calls the XXI instead.
fn call_the_xxi(rules: &Ruleset, root: &std::path::Path, rec: &GameRecord, origin: &str) {
    let mut bad = rec.clone();
    let at = bad.events.iter().position(|e| matches!(e, Event::Call { .. })).expect("a call");
    let Event::Call { player, card } = bad.events[at].clone() else { unreachable!("a call") };
    bad.events[at] = Event::Call { player, card: "T21".into() };
    bad.description = Some(format!(
        "The game of valid/called-partner-7.json ({origin}), where the Tappist calls the XXI (he called {card}): any trump but the XXI and the Bättler may be called (P \"Special rules for 7 or 8 players\")"
    ));
    let v = replay(rules, &bad).expect("replayable");
    let rule = v.violation.as_ref().map(|x| x.rule.to_string()).expect("the XXI refused");
    assert_eq!(rule, "call.levels", "{}", v.to_text());
    write(&root.join("invalid").join(format!("{rule}.json")), &bad);
    println!("{rule}: {}", v.to_text());
}
