//! Writes the fixtures of `cego-pflicht-rauber`, the Gasthaus zum Löwen's round of compulsory Räuber
//! (P "Pflicht-Räuber"), in fixtures/cego-pflicht-rauber/:
//! - each payment of the round: the most card points paying 30 to each other player, nobody without
//!   a trick (valid/pflicht-30.json); 60, one player without a trick (valid/pflicht-60.json); 120,
//!   two without one (valid/pflicht-120.json); and the one who took every trick winning 240 from each
//!   (valid/pflicht-240.json: Vorhand dealt the Gstieß and the ten trumps from the 21 down, so that
//!   every card he plays takes its trick);
//! - a normal game after the round, at ten times the stake (valid/after-pflicht.json);
//! - a bid in the round, Vorhand saying Solo where nobody may bid
//!   (invalid/bidding.contract.solo.by.json).
//!
//! Each is a seeded simulated game found by search, or one played out from a deal arranged, so it is
//! reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- cego_pflicht_rauber_fixtures

use crate::cego_fixtures::pagat::{outcome, with_bids};
use crate::common::{self, write};

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game_from, replay, Event, SimOptions, Status, Verdict};

const ID: &str = "cego-pflicht-rauber";
const SECTION: &str = "P \"Pflicht-Räuber\"";

fn round(choice: &str) -> BTreeMap<String, serde_json::Value> {
    BTreeMap::from([("round".to_string(), serde_json::Value::from(choice))])
}

/// How many players took no trick in the deal.
fn trickless(v: &Verdict) -> usize {
    v.outcome.as_ref().map_or(0, |o| o.players.iter().filter(|p| p.tricks == 0).count())
}

/// The round's payments found by search: the file, the seed, the players without a trick, and what
/// the file shows.
const CASES: &[(&str, u64, usize, &str)] = &[
    ("pflicht-30", 10, 0, "Every player took a trick: the most card points pay 30 to each other player"),
    ("pflicht-60", 11, 1, "One player took no trick: the most card points pay 60 to each other player"),
    ("pflicht-120", 12, 2, "Two players took no trick: the most card points pay 120 to each other player"),
];

pub fn main() {
    let registry = tarot_engine::Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("cego-pflicht-rauber is built in");
    let root = common::fixtures().join(ID);
    let options = round("pflicht-rauber");
    for &(file, seed, none, what) in CASES {
        let found = common::find_game(rules, 4, &options, &SimOptions::steered(), (seed, 20_000), |rec, v| (trickless(&v) == none).then_some(rec));
        match found {
            Some((n, mut rec)) => {
                rec.description = Some(format!("{what} ({SECTION}): game {n} of seed {seed} of `cego_pflicht_rauber_fixtures`"));
                common::write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
            }
            None => eprintln!("{ID}: {file} not found in 20000 games"),
        }
    }
    // Every trick to one player: B, Vorhand (A dealing), dealt the Gstieß and the trumps from the 21
    // down to the 12, which no card the others hold can beat; the other cards dealt in order.
    let table: Vec<String> = ["A", "B", "C", "D"].map(String::from).to_vec();
    let top: Vec<String> = ["EX", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12"].map(String::from).to_vec();
    let mut rest: Vec<String> = (1..=11).map(|t| format!("T{t}")).collect();
    for s in ["C", "S"] {
        rest.extend(["K", "Q", "C", "J", "10", "9", "8", "7"].map(|r| format!("{r}{s}")));
    }
    for s in ["H", "D"] {
        rest.extend(["K", "Q", "C", "J", "1", "2", "3", "4"].map(|r| format!("{r}{s}")));
    }
    let hand = |i: usize| rest[i * 11..(i + 1) * 11].iter().map(|c| c.as_str().into()).collect::<Vec<_>>();
    let hands = BTreeMap::from([("A".into(), hand(0)), ("B".into(), top.iter().map(|c| c.as_str().into()).collect()), ("C".into(), hand(1)), ("D".into(), hand(2))]);
    let deal = Event::Deal { hands, dog: rest[33..].iter().map(|c| c.as_str().into()).collect(), cut: None, piles: BTreeMap::new(), packets: vec![] };
    let seed = 13;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rec = random_game_from(rules, &table, 0, deal, &options, &mut rng).expect("a game");
    rec.options = options.clone();
    rec.description = Some(format!(
        "B, Vorhand (A dealing), holds the Gstieß and the trumps from the 21 down to the 12 and takes every trick; the three without a trick each pay him 240 ({SECTION}): the deal arranged, played out from seed {seed} of `cego_pflicht_rauber_fixtures`"
    ));
    assert_eq!(trickless(&replay(rules, &rec).expect("replayable")), 3);
    common::write_valid(&root.join("valid").join("pflicht-240.json"), &rec, rules);
    // After the round: a declarer's game at ten times the stake.
    let seed = 14;
    let found = common::find_game(rules, 4, &round("after-pflicht"), &SimOptions::steered(), (seed, 20_000), |rec, v| outcome(&v).0.is_some().then_some(rec));
    if let Some((n, mut rec)) = found {
        rec.description =
            Some(format!("A normal game after the Pflicht-Räuber, every payment ten times cego-pagat's ({SECTION}): game {n} of seed {seed} of `cego_pflicht_rauber_fixtures`"));
        common::write_valid(&root.join("valid").join("after-pflicht.json"), &rec, rules);
    }
    // A bid in the round: Vorhand says Solo.
    let base: tarot_engine::GameRecord =
        tarot_engine::read_record(std::fs::read(root.join("valid").join("pflicht-30.json")).expect("pflicht-30 written").as_slice()).expect("a record");
    let mut bad = with_bids(&base, &[('A', "solo")], false);
    bad.description =
        Some(format!("Vorhand (A) says Solo in the round of compulsory Räuber, where nobody may bid ({SECTION}): the deal of valid/pflicht-30.json, its bids broken at the first"));
    let v = replay(rules, &bad).expect("replayable");
    assert_eq!(v.status, Status::Invalid, "{}", v.to_text());
    assert_eq!(v.violation.as_ref().map(|b| b.rule.to_string()).as_deref(), Some("bidding.contract.solo.by"), "{}", v.to_text());
    write(&root.join("invalid").join("bidding.contract.solo.by.json"), &bad);
}
