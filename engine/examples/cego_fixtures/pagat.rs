//! The fixtures of `cego-pagat` that show pagat.com's auction (P "Bidding Procedure"): P's worked
//! examples, each a table of bids (A Vorhand, B, C, D in turn, D dealing), played out as valid games
//! (fixtures/cego-pagat/valid/p-*.json); simulated games that reach each phase's outcomes (an Ulti
//! ending the auction in the first phase, a Gegensolo over a Solo); one invalid game per rule of the
//! auction, each the deal of P's first example with its bids broken at one word
//! (fixtures/cego-pagat/invalid/); and the bids open at the start of each phase
//! (fixtures/cego-pagat/in_progress/).
//! A worked example's deal and play come from a seeded simulated game of its contract, the dealer moved
//! so that its declarer sits where the example's does: its bids are replaced by the example's, which
//! lead to the same declarer and contract, so the rest of the game stands.

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, Event, GameRecord, Registry, Status, Verdict};
use tarot_engine::{ContractChoice, SimOptions};

use crate::common::{self, write};

const ID: &str = "cego-pagat";

/// One of P's tables of bids: the file, what it shows, the bids (the seat, A to D, and the word),
/// the declarer's seat (none in a Räuber) and the contract played.
struct Example {
    file: &'static str,
    seed: u64,
    what: &'static str,
    bids: &'static [(char, &'static str)],
    taker: Option<char>,
    contract: &'static str,
}

const FORTS: [(char, &str); 4] = [('A', "pass"), ('B', "pass"), ('C', "pass"), ('D', "pass")];

const EXAMPLES: &[Example] = &[
    Example {
        file: "p-zwei-leere",
        seed: 60,
        what: "P's first example after four Forts: Cego, Eine held by Vorhand, Eine Leere, Zwei Leere held by C, who plays it",
        bids: &[
            FORTS[0],
            FORTS[1],
            FORTS[2],
            FORTS[3],
            ('A', "cego"),
            ('B', "pass"),
            ('C', "eine"),
            ('A', "eine"),
            ('C', "eine-leere"),
            ('A', "pass"),
            ('D', "zwei-leere"),
            ('C', "zwei-leere"),
            ('D', "pass"),
        ],
        taker: Some('C'),
        contract: "zwei-leere",
    },
    Example {
        file: "p-eine",
        seed: 61,
        what: "P's second example after four Forts: B's Eine over Vorhand's Cego, and all pass",
        bids: &[FORTS[0], FORTS[1], FORTS[2], FORTS[3], ('A', "cego"), ('B', "eine"), ('A', "pass"), ('C', "pass"), ('D', "pass")],
        taker: Some('B'),
        contract: "eine",
    },
    Example {
        file: "p-piccolo",
        seed: 62,
        what: "P's third example after four Forts: D says Piccolo before his turn, over B's Eine, and the auction ends",
        bids: &[FORTS[0], FORTS[1], FORTS[2], FORTS[3], ('A', "cego"), ('B', "eine"), ('D', "piccolo")],
        taker: Some('D'),
        contract: "piccolo",
    },
    Example {
        file: "p-rauber",
        seed: 63,
        what: "P's fourth example after four Forts: all pass Vorhand's Cego, and he chooses a Räuber",
        bids: &[FORTS[0], FORTS[1], FORTS[2], FORTS[3], ('A', "cego"), ('B', "pass"), ('C', "pass"), ('D', "pass"), ('A', "rauber")],
        taker: None,
        contract: "rauber",
    },
    Example {
        file: "p-cego",
        seed: 64,
        what: "P's fourth example after four Forts: all pass Vorhand's Cego, and he plays the Cego",
        bids: &[FORTS[0], FORTS[1], FORTS[2], FORTS[3], ('A', "cego"), ('B', "pass"), ('C', "pass"), ('D', "pass"), ('A', "cego")],
        taker: Some('A'),
        contract: "cego",
    },
    Example {
        file: "p-solo",
        seed: 65,
        what: "P's first example after a Solo: C's Solo, and the others pass",
        bids: &[('A', "pass"), ('B', "pass"), ('C', "solo"), ('A', "pass"), ('B', "pass"), ('D', "pass")],
        taker: Some('C'),
        contract: "solo",
    },
    Example {
        file: "p-gegensolo",
        seed: 66,
        what: "P's second example after a Solo: C's Gegensolo over B's Solo, which B does not hold",
        bids: &[('A', "pass"), ('B', "solo"), ('A', "pass"), ('C', "cego"), ('B', "pass"), ('D', "pass")],
        taker: Some('C'),
        contract: "cego",
    },
    Example {
        file: "p-solo-eine",
        seed: 67,
        what: "P's third example after a Solo: the Solo bidder holds Vorhand's Gegensolo and D's Eine, and plays Eine",
        bids: &[('A', "pass"), ('B', "pass"), ('C', "solo"), ('A', "cego"), ('C', "cego"), ('A', "pass"), ('B', "pass"), ('D', "eine"), ('C', "eine"), ('D', "pass")],
        taker: Some('C'),
        contract: "eine",
    },
];

/// The player at seat `s` (A Vorhand, the player after the dealer, then B, C, D in turn).
pub(crate) fn seat(rec: &GameRecord, s: char) -> String {
    let n = rec.players.len();
    let dealer = rec.players.iter().position(|p| *p == rec.dealer).expect("the dealer plays");
    rec.players[(dealer + 1 + (s as usize - 'A' as usize)) % n].clone()
}

/// `rec` with the dealer moved so that `taker` sits at seat `at`: the deal, the taker's lead and the
/// order of play stay as they were (a contract with a taker reads first hand nowhere else).
pub(crate) fn seated(rec: &GameRecord, taker: &str, at: char) -> GameRecord {
    let n = rec.players.len();
    let t = rec.players.iter().position(|p| p == taker).expect("the taker plays");
    let mut out = rec.clone();
    out.dealer = rec.players[(t + 2 * n - 1 - (at as usize - 'A' as usize)) % n].clone();
    out
}

/// `rec` with its bids replaced by `bids`, and the events after them kept (none with `keep_rest` off).
pub(crate) fn with_bids(rec: &GameRecord, bids: &[(char, &str)], keep_rest: bool) -> GameRecord {
    let last = rec.events.iter().rposition(|e| matches!(e, Event::Bid { .. })).expect("an auction");
    let mut out = rec.clone();
    out.events = vec![rec.events[0].clone()];
    out.events.extend(bids.iter().map(|&(s, bid)| Event::Bid { player: seat(rec, s).as_str().into(), bid: bid.into() }));
    if keep_rest {
        out.events.extend(rec.events[last + 1..].iter().cloned());
    }
    out
}

pub(crate) fn outcome(v: &Verdict) -> (Option<String>, String) {
    let o = v.outcome.as_ref();
    (o.and_then(|o| o.taker.as_deref().map(String::from)), o.and_then(|o| o.contract.clone()).unwrap_or_default())
}

pub fn main(registry: &Registry) {
    let rules = registry.get(ID).expect("cego-pagat is built in");
    let root = common::fixtures().join(ID);
    let mut first_deal = None;
    for ex in EXAMPLES {
        let sim = SimOptions { contract: ContractChoice::Only(ex.contract.into()), ..SimOptions::steered() };
        let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (ex.seed, 20_000), |rec, v| {
            let (taker, contract) = outcome(&v);
            (contract == ex.contract).then_some(())?;
            let rec = match (&taker, ex.taker) {
                (Some(t), Some(at)) => seated(&rec, t, at),
                _ => rec,
            };
            let game = with_bids(&rec, ex.bids, true);
            let v = replay(rules, &game).expect("replayable");
            (v.status == Status::Valid && outcome(&v) == (taker, contract)).then_some(game)
        });
        let Some((n, mut game)) = found else {
            eprintln!("{}: not found in 20000 games", ex.file);
            continue;
        };
        game.description = Some(format!("{}: P \"Bidding Procedure\"; the deal and play of game {n} of seed {} of `cego_fixtures`", ex.what, ex.seed));
        common::write_valid(&root.join("valid").join(format!("{}.json", ex.file)), &game, rules);
        first_deal.get_or_insert(game);
    }
    simulated(rules, &root);
    if let Some(base) = first_deal {
        broken(rules, &root, &base);
    }
}

/// Simulated games of the first phase's outcomes: an Ulti said in it, which ends the auction; a Solo
/// outbid by a Gegensolo.
fn simulated(rules: &Ruleset, root: &Path) {
    let wants: [(&str, u64, &str, fn(&GameRecord, &Verdict) -> bool); 2] = [
        ("ulti", 68, "An Ulti said in the first phase, which ends the auction", |_, v| outcome(v).1 == "ulti"),
        ("gegensolo", 69, "A Gegensolo: a Cego bid over a Solo in the second phase, at factor 2", |rec, v| {
            outcome(v).1 == "cego" && rec.events.iter().any(|e| matches!(e, Event::Bid { bid, .. } if &**bid == "solo"))
        }),
    ];
    for (file, seed, what, shows) in wants {
        // An Ulti steered to; a Gegensolo among uniform bids (steered to a Cego, the first phase is
        // passed).
        let sim = if file == "ulti" { SimOptions { contract: ContractChoice::Only("ulti".into()), hold_petit: 1.0, ..SimOptions::steered() } } else { SimOptions::default() };
        let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed, 20_000), |rec, v| shows(&rec, &v).then_some(rec));
        match found {
            Some((n, mut rec)) => {
                rec.description = Some(format!("{what}: game {n} of seed {seed} of `cego_fixtures`"));
                common::write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
            }
            None => eprintln!("{file}: not found in 20000 games"),
        }
    }
}

/// One invalid game per rule of the auction, each P's first example's deal with bids that break it at
/// their last word; and the bids open at the start of each phase (in progress).
fn broken(rules: &Ruleset, root: &Path, base: &GameRecord) {
    let f = FORTS;
    let cases: [(&str, &str, &[(char, &str)]); 10] = [
        ("bidding.opening-round--cego", "Cego said in the first phase, which is for Solo or Ulti", &[('A', "cego")]),
        ("bidding.must-bid.cego", "Vorhand passes at the start of the second phase, where he must say Cego, Piccolo or Bettel", &[f[0], f[1], f[2], f[3], ('A', "pass")]),
        ("bidding.turns--eine", "C bids Eine while it is B's turn to answer Vorhand's Cego", &[f[0], f[1], f[2], f[3], ('A', "cego"), ('C', "eine")]),
        ("bidding.step", "A jump bid: B says Eine Leere over Vorhand's Cego", &[f[0], f[1], f[2], f[3], ('A', "cego"), ('B', "eine-leere")]),
        (
            "bidding.step--lowest",
            "Vorhand answers B's Eine with Eine Leere, where he may only hold (\"selbst\") or pass",
            &[f[0], f[1], f[2], f[3], ('A', "cego"), ('B', "eine"), ('A', "eine-leere")],
        ),
        ("bidding.out-of-turn", "B, having bid Eine, says Piccolo before his turn", &[f[0], f[1], f[2], f[3], ('A', "cego"), ('B', "eine"), ('B', "piccolo")]),
        ("bidding.first-turn", "B, having bid Eine, says Piccolo at his next turn", &[f[0], f[1], f[2], f[3], ('A', "cego"), ('B', "eine"), ('A', "eine"), ('B', "piccolo")]),
        ("bidding.closing", "A bid after D's Piccolo, which ended the auction", &[f[0], f[1], f[2], f[3], ('A', "cego"), ('B', "eine"), ('D', "piccolo"), ('A', "eine")]),
        ("bidding.contract.piccolo.by", "Piccolo over a Solo", &[('A', "pass"), ('B', "solo"), ('A', "piccolo")]),
        ("bidding.opening-round--solo", "Solo said in the second phase, over Vorhand's Cego", &[f[0], f[1], f[2], f[3], ('A', "cego"), ('B', "solo")]),
    ];
    for (file, what, bids) in cases {
        let mut rec = with_bids(base, bids, false);
        rec.description = Some(format!("{what} (P \"Bidding Procedure\"): the deal of valid/p-zwei-leere.json"));
        let v = replay(rules, &rec).expect("replayable");
        let rule = file.split_once("--").map_or(file, |(r, _)| r);
        let broke = v.violation.map(|b| b.rule.to_string()).unwrap_or_default();
        assert_eq!(broke, rule, "{file}: the record breaks {broke:?}");
        write(&root.join("invalid").join(format!("{file}.json")), &rec);
    }
    let open: [(&str, &str, &[(char, &str)]); 2] = [
        ("second-phase", "Four Forts: Vorhand must say Cego, Piccolo or Bettel", &f),
        ("after-solo", "B's Solo: Vorhand may pass or say Gegensolo", &[('A', "pass"), ('B', "solo")]),
    ];
    for (file, what, bids) in open {
        let mut rec = with_bids(base, bids, false);
        rec.description = Some(format!("{what} (P \"Bidding Procedure\"): the deal of valid/p-zwei-leere.json"));
        assert_eq!(replay(rules, &rec).expect("replayable").status, Status::InProgress, "{file}");
        write(&root.join("in_progress").join(format!("{file}.json")), &rec);
    }
}
