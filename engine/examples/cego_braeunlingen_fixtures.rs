//! Writes the fixtures of `cego-braeunlingen` that show what the Bräunlingen tournament's sheet changes
//! (P "Bräunlingen Tournament Version"), in fixtures/cego-braeunlingen/:
//! - the rounding of a normal game's difference from 35 up to a multiple of 5 before the factor: a
//!   difference of 1 (36 won, 34 lost) is 5, of 5 (40, 30) still 5, of 6 (41, 29) 10, each times the
//!   factor (valid/diff-*.json);
//! - each special game made and lost at the sheet's values, Ultimo 80, Piccolo 40, Bettel 40
//!   (valid/ulti-made.json, ...);
//! - the Solo bidder out of the bidding once a Gegensolo is bid: B says Solo, A (Vorhand) the
//!   Gegensolo, C and D pass and A plays it, B never speaking again (valid/gegensolo.json); the same
//!   deal with B saying "selbst" to A's Gegensolo (invalid/bidding.opening-bidder.json), and with C,
//!   the player after B, beginning the second phase before Vorhand
//!   (invalid/bidding.turns--after-solo.json).
//!
//! Each is a seeded simulated game found by search, or one changed from it, so it is reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- cego_braeunlingen_fixtures

use crate::cego_fixtures::pagat::{outcome, seated, with_bids};
use crate::common::{self, write};

use std::collections::BTreeMap;

use tarot_engine::{replay, ContractChoice, Registry, SimOptions, Status, Verdict};

const ID: &str = "cego-braeunlingen";

fn value(v: &Verdict, name: &str) -> Option<i64> {
    v.outcome.as_ref()?.values.iter().find(|(k, _)| &**k == name).and_then(|(_, x)| x.to_string().parse().ok())
}

/// The scoring edges: the file, the seed of its search, the declarer's points it must show, and its
/// description.
const DIFFS: &[(&str, u64, i64, &str)] = &[
    ("diff-1-won", 36, 36, "A normal game won at 36: the difference of 1 rounded up to 5, then times the factor"),
    ("diff-1-lost", 34, 34, "A normal game lost at 34: the difference of 1 rounded up to 5, then times the factor"),
    ("diff-5-won", 40, 40, "A normal game won at 40: the difference of 5, a multiple of 5, stays 5, then times the factor"),
    ("diff-5-lost", 30, 30, "A normal game lost at 30: the difference of 5 stays 5, then times the factor"),
    ("diff-6-won", 41, 41, "A normal game won at 41: the difference of 6 rounded up to 10, then times the factor (P's Gasthaus example, a Solo won at 41, pays 15 there, 20 here)"),
    ("diff-6-lost", 29, 29, "A normal game lost at 29: the difference of 6 rounded up to 10, then times the factor"),
];

/// The special games: the contract, the seed of its search, and its value.
const SPECIALS: &[(&str, u64, &str)] = &[("ulti", 80, "Ultimo (the Ulti), 80"), ("piccolo", 81, "Piccolo, 40"), ("bettel", 82, "Bettel, 40")];

/// B's Solo, A's (Vorhand's) Gegensolo, C and D passing: A plays the Cego over the Solo.
const GEGENSOLO: &[(char, &str)] = &[('A', "pass"), ('B', "solo"), ('A', "cego"), ('C', "pass"), ('D', "pass")];

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("cego-braeunlingen is built in");
    let root = common::fixtures().join(ID);
    let section = "P \"Bräunlingen Tournament Version\"";
    for &(file, seed, points, what) in DIFFS {
        let found = common::find_game(rules, 4, &BTreeMap::new(), &SimOptions::steered(), (seed, 20_000), |rec, v| {
            // A declarer's game (a special game or a Räuber has no factor).
            let normal = value(&v, "mult").is_some_and(|m| m > 0);
            (normal && value(&v, "counted") == Some(points)).then_some(rec)
        });
        match found {
            Some((n, mut rec)) => {
                rec.description = Some(format!("{what} ({section}): game {n} of seed {seed} of `cego_braeunlingen_fixtures`"));
                common::write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
            }
            None => eprintln!("{ID}: {file} not found in 20000 games"),
        }
    }
    for &(contract, seed, what) in SPECIALS {
        for made in [true, false] {
            let sim = SimOptions { contract: ContractChoice::Only(contract.into()), ..SimOptions::steered() };
            let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed, 20_000), |rec, v| {
                let won = v
                    .outcome
                    .as_ref()
                    .and_then(|o| o.taker.as_deref())
                    .and_then(|t| v.outcome.as_ref()?.players.iter().find(|p| &*p.player == t))
                    .map(|p| p.score.to_string().parse::<i64>().unwrap_or(0) > 0);
                (outcome(&v).1 == contract && won == Some(made)).then_some(rec)
            });
            let how = if made { "made" } else { "lost" };
            match found {
                Some((n, mut rec)) => {
                    rec.description = Some(format!("{what}, {how} ({section}): game {n} of seed {seed} of `cego_braeunlingen_fixtures`"));
                    common::write_valid(&root.join("valid").join(format!("{contract}-{how}.json")), &rec, rules);
                }
                None => eprintln!("{ID}: {contract} {how} not found in 20000 games"),
            }
        }
    }
    // The Gegensolo: a game of Cego, its declarer seated at A, its bids made B's Solo and A's
    // Gegensolo.
    let sim = SimOptions { contract: ContractChoice::Only("cego".into()), ..SimOptions::steered() };
    let seed = 90;
    let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed, 20_000), |rec, v| {
        let (taker, contract) = outcome(&v);
        (contract == "cego").then_some(())?;
        let game = with_bids(&seated(&rec, taker.as_deref()?, 'A'), GEGENSOLO, true);
        let v = replay(rules, &game).expect("replayable");
        (v.status == Status::Valid && outcome(&v).1 == "cego").then_some(game)
    });
    let Some((n, mut game)) = found else {
        eprintln!("{ID}: the Gegensolo not found in 20000 games");
        return;
    };
    let from = format!("game {n} of seed {seed} of `cego_braeunlingen_fixtures`");
    game.description = Some(format!(
        "B says Solo, A (Vorhand) Gegensolo; C and D pass, and A plays the Cego over the Solo, B never speaking again: \"you cannot bid against your own Solo\" ({section}): {from}"
    ));
    common::write_valid(&root.join("valid").join("gegensolo.json"), &game, rules);
    let broken: [(&str, &str, &[(char, &str)]); 2] = [
        (
            "bidding.opening-bidder",
            "B, who said Solo, holds A's Gegensolo (\"selbst\"): once a Gegensolo is bid over his Solo he is out of the bidding",
            &[('A', "pass"), ('B', "solo"), ('A', "cego"), ('B', "cego")],
        ),
        (
            "bidding.turns--after-solo",
            "C, the player after the Solo bidder B, begins the second phase: it begins with Vorhand, as at the Gasthaus",
            &[('A', "pass"), ('B', "solo"), ('C', "cego")],
        ),
    ];
    for (file, what, bids) in broken {
        let mut bad = with_bids(&game, bids, false);
        bad.description = Some(format!("{what} ({section}): the deal of valid/gegensolo.json, {from}, its bids broken at the last"));
        let v = replay(rules, &bad).expect("replayable");
        let rule = file.split_once("--").map_or(file, |(rule, _)| rule);
        assert_eq!(v.violation.as_ref().map(|b| b.rule.to_string()).as_deref(), Some(rule), "{file}: {}", v.to_text());
        write(&root.join("invalid").join(format!("{file}.json")), &bad);
    }
}
