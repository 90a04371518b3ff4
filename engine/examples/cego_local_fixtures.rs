//! Writes the fixtures of the local versions of Cego that pagat.com reports (P "Ministranten Version",
//! "Oberwolfach Version", "Ichenheim Version", "Schmidt Version"): `cego-ministranten`, `cego-ministranten-3`,
//! `cego-oberwolfach`, `cego-oberwolfach-4`, `cego-ichenheim` and `cego-schmidt`. For each, one game played out
//! for each contract the auction reaches (fixtures/ID/valid/CONTRACT.json); P's table of bids of the
//! version played out, where P gives one (valid/p-*.json), its deal and play a seeded simulated game of the contract, the
//! dealer moved so that the declarer sits where P's does; one invalid game per rule the version adds
//! to the auction, each that example's deal (or the first contract's) with bids broken at their last
//! word (invalid/); and the
//! bids open where the version's auction differs (in_progress/). The Ministranten's Geregelter Räuber,
//! under its option, is played out and broken rule by rule (`geregelt.rs`), and their penalties of 70,
//! a revoke and a discard of the wrong number ending the deal, are shown (`penalties.rs`); the Schmidt
//! leaflet's variations, its options, are played and broken (`schmidt.rs`).
//! Each is a seeded simulated game found by search, or one changed from it, so it is reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- cego_local_fixtures

mod geregelt;
mod penalties;
mod schmidt;

use crate::cego_fixtures::pagat::{outcome, seated, with_bids};
use crate::common::{self, write};

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, Registry, Status};
use tarot_engine::{ContractChoice, SimOptions};

/// A local version: its ruleset, its table size, the contracts its auction reaches (each with the seed
/// of its search and what it shows), P's table of bids, and the auction's rules broken.
struct Local {
    id: &'static str,
    players: usize,
    section: &'static str,
    /// Each contract, the seed of its search, whether it is found among uniform bids rather than
    /// steered to (a Gegensolo: the simulator steers to the second phase's contracts, not to a Solo
    /// before them), and what it shows.
    contracts: &'static [(&'static str, u64, bool, &'static str)],
    /// P's table of bids, where P gives one (the others' invalid games are broken from the first
    /// contract's game).
    example: Option<Example>,
    broken: &'static [Broken],
    open: &'static [(&'static str, &'static str, &'static [(char, &'static str)])],
    /// The contracts whose trick after those of the cards kept the bidder leads (`next-lead`), each
    /// with the tricks of the cards kept: each one's game is broken there by the winner of the last
    /// of them leading instead (invalid/RULE--CONTRACT.json).
    lead_after: &'static [(&'static str, usize)],
}

/// P's table of bids: the file, what it shows, the bids (the seat, A Vorhand and the others in turn,
/// and the word), the declarer's seat and the contract played.
struct Example {
    file: &'static str,
    seed: u64,
    what: &'static str,
    bids: &'static [(char, &'static str)],
    taker: char,
    contract: &'static str,
}

/// An invalid game: the file (the rule broken, then `--` and a word where one rule has several), what
/// it shows, and the bids, broken at the last.
type Broken = (&'static str, &'static str, &'static [(char, &'static str)]);

const FORT4: [(char, &str); 4] = [('A', "pass"), ('B', "pass"), ('C', "pass"), ('D', "pass")];
const FORT3: [(char, &str); 3] = [('A', "pass"), ('B', "pass"), ('C', "pass")];

const MINISTRANTEN: Local = Local {
    id: "cego-ministranten",
    players: 4,
    section: "Bidding procedure",
    contracts: &[
        ("solo", 70, false, "A Solo: all pass it, nobody saying Gegensolo"),
        ("gegensolo", 71, true, "A Gegensolo: said over a Solo, it ends the auction; factor 4 won, 2 lost"),
        ("cego", 72, false, "A Cego: Vorhand's, all having passed it"),
        ("eine", 73, false, "An Eine over Vorhand's Cego"),
        ("eine-leere", 74, false, "An Eine Leere"),
        ("zwei-leere", 75, false, "A Zwei Leere"),
        ("zwei-verschiedene", 76, false, "A Zwei Verschiedene"),
        ("kleiner-mann", 77, false, "A Kleiner Mann"),
        ("piccolo", 78, false, "A Piccolo (40): said over Vorhand's Cego, or chosen by him when all pass it"),
        ("bettel", 79, false, "A Bettel (50): said over Vorhand's Cego, or chosen by him when all pass it"),
        ("ulti", 80, false, "An Ulti (70), said in the first phase"),
        ("rauber", 81, false, "A Räuber: Vorhand's choice when all pass his Cego; the loser pays his points rounded to 5 above 30, Vorhand at least 60"),
        ("dresch", 82, false, "A Dresch: Vorhand's choice when all pass his Cego; the winner of the last trick pays each other player 70"),
    ],
    example: Some(Example {
        file: "p-zwei-leere",
        seed: 83,
        what: "P's example: Cego, Eine, Eine Leere over it, Vorhand's \"selbst\", C's Zwei Leere, and all pass",
        bids: &[
            FORT4[0],
            FORT4[1],
            FORT4[2],
            FORT4[3],
            ('A', "cego"),
            ('B', "pass"),
            ('C', "eine"),
            ('D', "eine-leere"),
            ('A', "eine-leere"),
            ('C', "zwei-leere"),
            ('D', "pass"),
            ('A', "pass"),
        ],
        taker: 'C',
        contract: "zwei-leere",
    }),
    broken: &[
        ("bidding.opening-bidder", "B, who said Solo, bids Gegensolo in the second phase", &[('A', "pass"), ('B', "solo"), ('C', "pass"), ('B', "gegensolo")]),
        ("bidding.turns--after-solo", "Vorhand speaks first after C's Solo, where D begins", &[('A', "pass"), ('B', "pass"), ('C', "solo"), ('A', "gegensolo")]),
        ("bidding.contract.cego.by", "A Cego over a Solo, where only a Gegensolo may be said", &[('A', "pass"), ('B', "solo"), ('C', "cego")]),
        ("bidding.contract.gegensolo.by", "A Gegensolo over Vorhand's Cego, with no Solo bid", &[FORT4[0], FORT4[1], FORT4[2], FORT4[3], ('A', "cego"), ('B', "gegensolo")]),
        ("bidding.closing", "A bid after C's Gegensolo, which ended the auction", &[('A', "pass"), ('B', "solo"), ('C', "gegensolo"), ('D', "eine")]),
        ("bidding.contract.piccolo.by", "A Piccolo over C's Eine", &[FORT4[0], FORT4[1], FORT4[2], FORT4[3], ('A', "cego"), ('B', "pass"), ('C', "eine"), ('D', "piccolo")]),
        (
            "bidding.turns--passed",
            "B, who passed Vorhand's Cego, bids again in a later round",
            &[FORT4[0], FORT4[1], FORT4[2], FORT4[3], ('A', "cego"), ('B', "pass"), ('C', "eine"), ('D', "pass"), ('A', "eine"), ('B', "eine-leere")],
        ),
        (
            "bidding.contract.eine",
            "D says Eine over C's Eine, holding it, where only Vorhand holds",
            &[FORT4[0], FORT4[1], FORT4[2], FORT4[3], ('A', "cego"), ('B', "pass"), ('C', "eine"), ('D', "eine")],
        ),
        ("bidding.instead.dresch", "B bids a Dresch, which only Vorhand chooses when all pass his Cego", &[FORT4[0], FORT4[1], FORT4[2], FORT4[3], ('A', "cego"), ('B', "dresch")]),
        (
            "bidding.raise.cego",
            "All having passed his Cego, Vorhand names an Eine",
            &[FORT4[0], FORT4[1], FORT4[2], FORT4[3], ('A', "cego"), ('B', "pass"), ('C', "pass"), ('D', "pass"), ('A', "eine")],
        ),
    ],
    open: &[
        ("after-solo", "C's Solo: D, the player after him, says Gegensolo or passes", &[('A', "pass"), ('B', "pass"), ('C', "solo")]),
        (
            "vorhand-chooses",
            "All pass Vorhand's Cego: he chooses Cego, Piccolo, Bettel, a Räuber or a Dresch",
            &[FORT4[0], FORT4[1], FORT4[2], FORT4[3], ('A', "cego"), ('B', "pass"), ('C', "pass"), ('D', "pass")],
        ),
    ],
    lead_after: &[("eine-leere", 1), ("zwei-leere", 2)],
};

const MINISTRANTEN_3: Local = Local {
    id: "cego-ministranten-3",
    players: 3,
    section: "Three Player Version",
    contracts: &[
        ("solo", 130, false, "A Solo: both others pass it, nobody saying Gegensolo"),
        ("gegensolo", 131, true, "A Gegensolo: said over a Solo, it ends the auction; factor 4 won, 2 lost"),
        ("cego", 132, false, "A Cego: Vorhand's, the others having passed it"),
        ("eine", 133, false, "An Eine over Vorhand's Cego"),
        ("eine-leere", 134, false, "An Eine Leere"),
        ("zwei-leere", 135, false, "A Zwei Leere"),
        ("zwei-verschiedene", 136, false, "A Zwei Verschiedene"),
        ("kleiner-mann", 137, false, "A Kleiner Mann"),
        ("piccolo", 138, false, "A Piccolo (40): said over Vorhand's Cego, or chosen by him when both others pass it"),
        ("bettel", 139, false, "A Bettel (50): said over Vorhand's Cego, or chosen by him when both others pass it"),
        ("ulti", 140, false, "An Ulti (70), said in the first phase"),
    ],
    example: None,
    broken: &[
        ("bidding.contract.gegensolo.by", "A Gegensolo over Vorhand's Cego, with no Solo bid", &[FORT3[0], FORT3[1], FORT3[2], ('A', "cego"), ('B', "gegensolo")]),
        ("bidding.opening-bidder", "B, who said Solo, bids Gegensolo in the second phase", &[('A', "pass"), ('B', "solo"), ('C', "pass"), ('B', "gegensolo")]),
        (
            "bidding.raise.cego",
            "Both others having passed his Cego, Vorhand names an Eine",
            &[FORT3[0], FORT3[1], FORT3[2], ('A', "cego"), ('B', "pass"), ('C', "pass"), ('A', "eine")],
        ),
    ],
    open: &[(
        "vorhand-chooses",
        "Both others pass Vorhand's Cego: he chooses Cego, Piccolo or Bettel, no Räuber or Dresch being played at three",
        &[FORT3[0], FORT3[1], FORT3[2], ('A', "cego"), ('B', "pass"), ('C', "pass")],
    )],
    lead_after: &[("eine-leere", 1), ("zwei-leere", 2)],
};

const OBERWOLFACH: Local = Local {
    id: "cego-oberwolfach",
    players: 3,
    section: "Oberwolfach Version",
    contracts: &[
        ("solo", 90, false, "A Solo, factor 1 won and 2 lost"),
        ("cego", 91, true, "A Cego: a Gegensolo over a Solo (after three Forts the next player must overcall Vorhand's Cego)"),
        ("eine", 92, false, "An Eine"),
        ("eine-leere", 93, false, "An Eine Leere"),
        ("zwei-leere", 94, false, "A Zwei Leere"),
        ("zwei-verschiedene", 95, false, "A Zwei Verschiedene"),
        ("kleiner-mann", 96, false, "A Kleiner Mann (die Pfeif')"),
    ],
    example: Some(Example {
        file: "p-eine",
        seed: 97,
        what: "P's example: B's Solo, C's Gegensolo, A's Eine held by C, and A passes",
        bids: &[('A', "pass"), ('B', "solo"), ('C', "cego"), ('A', "eine"), ('C', "eine"), ('A', "pass")],
        taker: 'C',
        contract: "eine",
    }),
    broken: &[
        (
            "bidding.must-bid.eine--after-forts",
            "B passes Vorhand's Cego after three Forts, where he must overcall it with Eine",
            &[FORT3[0], FORT3[1], FORT3[2], ('A', "cego"), ('B', "pass")],
        ),
        ("bidding.opening-bidder", "B, who said Solo, holds C's Gegensolo", &[('A', "pass"), ('B', "solo"), ('C', "cego"), ('B', "cego")]),
        ("bidding.turns--after-solo", "Vorhand speaks first after B's Solo, where C begins", &[('A', "pass"), ('B', "solo"), ('A', "cego")]),
    ],
    open: &[
        ("forced-eine", "Three Forts and Vorhand's Cego: B must say Eine", &[FORT3[0], FORT3[1], FORT3[2], ('A', "cego")]),
        ("after-solo", "B's Solo: C, the player after him, says Gegensolo or passes", &[('A', "pass"), ('B', "solo")]),
    ],
    lead_after: &[],
};

const OBERWOLFACH_4: Local = Local {
    id: "cego-oberwolfach-4",
    players: 4,
    section: "Oberwolfach Version",
    contracts: &[
        ("solo", 110, false, "A Solo, factor 1 won and 2 lost"),
        ("cego", 111, false, "A Cego: Vorhand's, all having passed it, or a Gegensolo over a Solo"),
        ("eine", 112, false, "An Eine"),
        ("eine-leere", 113, false, "An Eine Leere"),
        ("zwei-leere", 114, false, "A Zwei Leere"),
        ("zwei-verschiedene", 115, false, "A Zwei Verschiedene"),
        ("kleiner-mann", 116, false, "A Kleiner Mann (die Pfeif')"),
        ("piccolo", 117, false, "A Piccolo, at 10, bid in turn over the normal games"),
        ("bettel", 118, false, "A Bettel, at 15, bid in turn over the normal games and Piccolo"),
        ("rauber", 119, false, "A Räuber: Vorhand's choice when all pass his Cego; its loser pays 5, Vorhand 10"),
    ],
    example: None,
    broken: &[
        ("bidding.opening-bidder", "B, who said Solo, holds C's Gegensolo", &[('A', "pass"), ('B', "solo"), ('C', "cego"), ('B', "cego")]),
        ("bidding.turns--after-solo", "Vorhand speaks first after B's Solo, where C begins", &[('A', "pass"), ('B', "solo"), ('A', "cego")]),
        ("bidding.contract.piccolo.by", "A Piccolo over a Solo", &[('A', "pass"), ('B', "solo"), ('C', "piccolo")]),
    ],
    open: &[
        (
            "bettel-over-piccolo",
            "B's Piccolo over Vorhand's Cego does not end the auction: C may say Bettel over it",
            &[FORT4[0], FORT4[1], FORT4[2], FORT4[3], ('A', "cego"), ('B', "piccolo")],
        ),
        ("after-solo", "B's Solo: C, the player after him, says Gegensolo or passes", &[('A', "pass"), ('B', "solo")]),
    ],
    lead_after: &[],
};

const SCHMIDT: Local = Local {
    id: "cego-schmidt",
    players: 3,
    section: "Schmidt Version",
    contracts: &[
        ("solo", 160, false, "A Solo, factor 1 won and 2 lost (the default reading of the leaflet)"),
        ("cego", 161, true, "A Cego: a Gegensolo over a Solo (after three Forts the next player must overcall Vorhand's Cego)"),
        ("eine", 162, false, "An Eine"),
        ("eine-leere", 163, false, "An Eine Leere, with an empty card, led or not"),
        ("zwei-leere", 164, false, "A Zwei Leere, with two empty cards, led or not"),
        ("zwei-verschiedene", 165, false, "A Zwei Verschiedene, with two empty cards, led or not"),
        ("kleiner-mann", 166, false, "A Kleiner Mann (die Pfeif'), the Geiß led to the first trick"),
    ],
    example: None,
    broken: &[
        (
            "bidding.opening-bidder",
            "B, who said Solo, holds C's Gegensolo, where bidding over one's own Solo is only a variation",
            &[('A', "pass"), ('B', "solo"), ('C', "cego"), ('B', "cego")],
        ),
        ("bidding.turns--after-solo", "Vorhand speaks first after B's Solo, where C begins", &[('A', "pass"), ('B', "solo"), ('A', "cego")]),
    ],
    open: &[("after-solo", "B's Solo: C, the player after him, says Gegensolo or passes", &[('A', "pass"), ('B', "solo")])],
    lead_after: &[],
};

const ICHENHEIM: Local = Local {
    id: "cego-ichenheim",
    players: 3,
    section: "Ichenheim Version",
    contracts: &[
        ("cego", 100, false, "A Cego: Vorhand's, all having passed it"),
        ("solo", 101, false, "A Solo"),
        ("eine", 102, false, "An Eine"),
        ("eine-leere", 103, false, "An Eine Leere"),
        ("zwei-leere", 104, false, "A Zwei Leere"),
        ("zwei-verschiedene", 105, false, "A Zwei Verschiedene"),
        ("kleiner-mann", 106, false, "A Kleiner Mann"),
        ("ulti", 107, false, "An Ulti, said in the first phase, at 20"),
        ("solodu", 108, false, "A Solodu, said in the first phase: a Solo bound to take every trick, at 64, ended at the first trick lost"),
    ],
    example: None,
    broken: &[
        ("bidding.opening-round--solodu", "A Solodu said in the second phase, over Vorhand's Cego", &[FORT3[0], FORT3[1], FORT3[2], ('A', "cego"), ('B', "solodu")]),
        ("bidding.closing", "A bid after B's Solodu, which ended the auction", &[('A', "pass"), ('B', "solodu"), ('C', "solo")]),
    ],
    open: &[("first-phase", "Vorhand to speak first: Solo, Ulti, Solodu or Fort", &[])],
    lead_after: &[],
};

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    for local in [&MINISTRANTEN, &MINISTRANTEN_3, &OBERWOLFACH, &OBERWOLFACH_4, &ICHENHEIM, &SCHMIDT] {
        let rules = registry.get(local.id).unwrap_or_else(|| panic!("{} is built in", local.id));
        let root = common::fixtures().join(local.id);
        let first = contracts(rules, local, &root);
        let base = match &local.example {
            Some(ex) => example(rules, local, ex, &root),
            None => first,
        };
        lead_broken(rules, local, &root);
        if local.id == MINISTRANTEN.id {
            geregelt::write_all(rules, &root);
            penalties::write_all(rules, local.players, 130, &root);
        }
        if local.id == MINISTRANTEN_3.id {
            penalties::write_all(rules, local.players, 150, &root);
            penalties::claims(rules, &root);
        }
        if local.id == "cego-oberwolfach" {
            throw_in(rules, &root);
        }
        if local.id == SCHMIDT.id {
            schmidt::write_all(rules, &root);
        }
        let Some(base) = base else { continue };
        let from = local.example.as_ref().map_or(local.contracts[0].0, |ex| ex.file);
        broken(rules, local, &root, &base, from);
    }
}

/// Each contract the auction reaches, played out: a simulated game steered to it. The first contract's
/// game is returned.
fn contracts(rules: &Ruleset, local: &Local, root: &Path) -> Option<tarot_engine::GameRecord> {
    let mut first = None;
    for &(c, seed, uniform, what) in local.contracts {
        let sim = if uniform { SimOptions::default() } else { SimOptions { contract: ContractChoice::Only(c.into()), hold_petit: 1.0, ..SimOptions::steered() } };
        let found = common::find_game(rules, local.players, &BTreeMap::new(), &sim, (seed, 20_000), |rec, v| (outcome(&v).1 == c).then_some(rec));
        match found {
            Some((n, mut rec)) => {
                rec.description = Some(format!("{what} (P \"{}\"): game {n} of seed {seed} of `cego_local_fixtures`", local.section));
                common::write_valid(&root.join("valid").join(format!("{c}.json")), &rec, rules);
                first.get_or_insert(rec);
            }
            None => eprintln!("{}: {c} not found in 20000 games", local.id),
        }
    }
    first
}

/// P's table of bids played out: a game of its contract, seated and given P's bids.
fn example(rules: &Ruleset, local: &Local, ex: &Example, root: &Path) -> Option<tarot_engine::GameRecord> {
    let sim = SimOptions { contract: ContractChoice::Only(ex.contract.into()), ..SimOptions::steered() };
    let found = common::find_game(rules, local.players, &BTreeMap::new(), &sim, (ex.seed, 20_000), |rec, v| {
        let (taker, contract) = outcome(&v);
        (contract == ex.contract).then_some(())?;
        let rec = seated(&rec, taker.as_deref()?, ex.taker);
        let game = with_bids(&rec, ex.bids, true);
        let v = replay(rules, &game).expect("replayable");
        (v.status == Status::Valid && outcome(&v) == (taker, contract)).then_some(game)
    });
    let Some((n, mut game)) = found else {
        eprintln!("{}: {} not found in 20000 games", local.id, ex.file);
        return None;
    };
    game.description = Some(format!("{} (P \"{}\"): the deal and play of game {n} of seed {} of `cego_local_fixtures`", ex.what, local.section, ex.seed));
    common::write_valid(&root.join("valid").join(format!("{}.json", ex.file)), &game, rules);
    Some(game)
}

/// One invalid game per rule of the auction, each the deal of `base` (valid/FROM.json) with bids that
/// break it at their last word; and the bids open where the auction differs (in progress).
fn broken(rules: &Ruleset, local: &Local, root: &Path, base: &tarot_engine::GameRecord, from: &str) {
    for &(file, what, bids) in local.broken {
        let mut rec = with_bids(base, bids, false);
        rec.description = Some(format!("{what} (P \"{}\"): the deal of valid/{from}.json", local.section));
        let v = replay(rules, &rec).expect("replayable");
        let rule = file.split_once("--").map_or(file, |(r, _)| r);
        let broke = v.violation.map(|b| b.rule.to_string()).unwrap_or_default();
        assert_eq!(broke, rule, "{}: {file}: the record breaks {broke:?}", local.id);
        write(&root.join("invalid").join(format!("{file}.json")), &rec);
    }
    for &(file, what, bids) in local.open {
        let mut rec = with_bids(base, bids, false);
        rec.description = Some(format!("{what} (P \"{}\"): the deal of valid/{from}.json", local.section));
        assert_eq!(replay(rules, &rec).expect("replayable").status, Status::InProgress, "{}: {file}", local.id);
        write(&root.join("in_progress").join(format!("{file}.json")), &rec);
    }
}

/// The bidder's lead after the tricks of the cards kept (`next-lead`, P "The Play"): each contract's
/// valid game, cut where that trick begins, the winner of the trick before it leading instead.
fn lead_broken(rules: &Ruleset, local: &Local, root: &Path) {
    for &(c, kept) in local.lead_after {
        let path = root.join("valid").join(format!("{c}.json"));
        let Ok(text) = std::fs::read(&path) else { continue };
        let rec = tarot_engine::read_record(&text).expect("a record");
        let v = replay(rules, &rec).expect("replayable");
        let rule = &rules.play.next_leads[0];
        // The note of the lead given: "... Cid leads trick 2 in place of Dan, who would lead it".
        let mark = format!("leads trick {} in place of ", kept + 1);
        let Some(winner) = v.notes.iter().find_map(|n| n.split_once(&mark).and_then(|(_, w)| w.split_once(',')).map(|(w, _)| w.to_string())) else {
            panic!("{}: {c}: no lead after the tricks of the cards kept: {:?}", local.id, v.notes);
        };
        let n = rec.players.len();
        let at = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, tarot_engine::Event::Play { .. })).nth(n * kept).map(|(i, _)| i).expect("a trick after them");
        let mut broken = rec.clone();
        broken.events.truncate(at);
        let played: Vec<&str> =
            broken.events.iter().filter_map(|e| if let tarot_engine::Event::Play { player, card } = e { (**player == *winner).then_some(&**card) } else { None }).collect();
        let dealt = rec.events.iter().find_map(|e| if let tarot_engine::Event::Deal { hands, .. } = e { hands.get(winner.as_str()).cloned() } else { None }).expect("his hand");
        let card = dealt.iter().find(|c| !played.contains(&c.as_str())).expect("a card left");
        broken.events.push(tarot_engine::Event::Play { player: winner.as_str().into(), card: card.clone() });
        broken.description = Some(format!(
            "{}, the winner of trick {kept}, leads the next, where the bidder leads after the tricks of the empty cards kept (P \"The Play\"): valid/{c}.json cut there",
            winner
        ));
        let v = replay(rules, &broken).expect("replayable");
        assert_eq!(v.violation.map(|b| b.rule.to_string()), Some(rule.clause.rule.to_string()), "{}: {c}", local.id);
        write(&root.join("invalid").join(format!("{}--{c}.json", rule.clause.rule)), &broken);
    }
}

/// Oberwolfach's throw-in (P "Oberwolfach Version": all three having said Fort Solo, a hand of seven
/// empty cards or more thrown in): the first seeded game in which the simulator, told to end deals
/// whenever it may, throws a hand in (annulled/declaration.throw_in.ends-deal.json); the same deal with the hand thrown in
/// before the third Fort (invalid/declaration.throw_in--early.json), and thrown in by a player dealt
/// fewer empty cards (invalid/declaration.throw_in.allowed.json).
fn throw_in(rules: &Ruleset, root: &Path) {
    use rand::SeedableRng;
    use tarot_engine::Event;
    let sim = SimOptions { end_deal: 1.0, ..SimOptions::default() };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(120);
    let thrown = |e: &Event| matches!(e, Event::Declare { declaration, .. } if &**declaration == "throw_in");
    let Some((n, mut rec)) = (0..20_000u64).find_map(|n| {
        let rec = tarot_engine::random_game_with(rules, 3, &BTreeMap::new(), &sim, &mut rng).ok()?;
        rec.events.last().is_some_and(thrown).then_some((n, rec))
    }) else {
        eprintln!("cego-oberwolfach: no hand thrown in found in 20000 games");
        return;
    };
    let v = replay(rules, &rec).expect("replayable");
    assert_eq!(v.status, Status::Annulled, "{}", v.to_text());
    rec.description = Some(format!(
        "All three say Fort Solo and a player dealt seven empty cards or more throws his hand in: the deal is annulled, the next dealer deals (P \"Oberwolfach Version\"): game {n} of seed 120 of `cego_local_fixtures`"
    ));
    write(&root.join("annulled").join("declaration.throw_in.ends-deal.json"), &rec);
    let Some(Event::Declare { player, .. }) = rec.events.last().cloned() else { unreachable!("a declaration") };
    let mut early = rec.clone();
    let last = early.events.pop().expect("the throw-in");
    early.events.pop();
    early.events.push(last);
    early.description =
        Some("The hand of seven empty cards thrown in before the third Fort is said (P \"Oberwolfach Version\"): the deal of annulled/declaration.throw_in.ends-deal.json".into());
    let broke = replay(rules, &early).expect("replayable").violation.map(|b| b.rule.to_string());
    assert_eq!(broke.as_deref(), Some("declaration.throw_in"));
    write(&root.join("invalid").join("declaration.throw_in--early.json"), &early);
    let other = rec.players.iter().find(|p| **p != *player).expect("another player").clone();
    let mut few = rec.clone();
    let Some(Event::Declare { player, .. }) = few.events.last_mut() else { unreachable!("a declaration") };
    *player = other.as_str().into();
    few.description = Some(format!(
        "After three Forts {other}, dealt fewer than seven empty cards, throws his hand in (P \"Oberwolfach Version\"): the deal of annulled/declaration.throw_in.ends-deal.json"
    ));
    let broke = replay(rules, &few).expect("replayable").violation.map(|b| b.rule.to_string());
    assert_eq!(broke.as_deref(), Some("declaration.throw_in.allowed"));
    write(&root.join("invalid").join("declaration.throw_in.allowed.json"), &few);
}
