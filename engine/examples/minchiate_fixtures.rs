//! Writes the fixtures of `minchiate` under the option `revoke = "two-resti"` (the modern Florentine
//! rules' penalty, MF: two resti to each opponent for not following or not trumping, the hand standing),
//! which the simulator's command line cannot give (fixtures/minchiate/valid/):
//!
//! - `two-resti-revoke-king`: valid/revoke-king.json (M5's own example) under MF's penalty.
//! - `two-resti-not-trumping`: invalid/play.must.trump.json's bad card, paid for under MF: the record
//!   up to that card, then each player's first legal card.
//!
//! and the games dealt here to show how the note is read (fixtures/minchiate/valid/), each played out
//! among the legal cards with a fixed seed, the moves that matter chosen:
//!
//! - `stolen-arie-shown`: the dealer steals the Sun and shows it with the World and the Trumpets he
//!   was dealt: what was shown, not what was dealt, is the versicola (M3), counted three times.
//! - `stolen-card-shown-captured`: the dealer steals the 32 and shows it with the 30 and the 31 he was
//!   dealt; the 31 is captured: not paid for (M3), the versicola broken.
//! - `sit-out-shown-card-captured`: a versicola's card captured while a player sits out: he alone is
//!   paid for it, "se non da quello che per privilegio non giuoca" (M3).
//! - `matto-broken-versicola`: the Matto counts twice with a versicola broken, "due volte o tre,
//!   secondochè conta la verzicola, o guasta o salvata" (M3).
//!
//!     cargo run -p tarot-engine --example generators -- minchiate_fixtures

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{parse_record, replay, Event, GameRecord, Phase, Registry, Status};

const ID: &str = "minchiate";

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("minchiate is built in");
    let root = common::fixtures().join(ID);
    let read = |p: &str| parse_record(&std::fs::read_to_string(root.join(p)).unwrap()).unwrap();
    let two_resti = BTreeMap::from([("revoke".to_string(), serde_json::json!("two-resti"))]);

    let mut rec = read("valid/revoke-king.json");
    rec.options = two_resti.clone();
    rec.description = Some(
        "M5's example of a revoke (valid/revoke-king.json: Bob, holding denari, trumps Ann's King of denari with the 30) under the modern Florentine penalty (option revoke = two-resti, MF): Bob pays two resti, 120, to Ann, and keeps the King (the hand stands); the King is paid for as a noble card captured".into(),
    );
    common::write_valid(&root.join("valid/two-resti-revoke-king.json"), &rec, rules);

    // The bad card of invalid/play.must.trump.json stands under MF; what the record played after it
    // no longer fits the hands, so the rest is each player's first legal card.
    let mut rec = read("invalid/play.must.trump.json");
    rec.options = two_resti;
    let bad = replay(rules, &read("invalid/play.must.trump.json")).unwrap().violation.expect("refused").event;
    rec.events.truncate(bad + 1);
    loop {
        let v = replay(rules, &rec).unwrap();
        match v.status {
            Status::InProgress => {
                let next = v.next.expect("someone moves");
                rec.events.push(Event::Play { player: next.player.as_ref().into(), card: next.legal[0].as_str().into() });
            }
            Status::Valid => break,
            other => panic!("two-resti-not-trumping: {other:?}: {}", v.to_text()),
        }
    }
    rec.description = Some(format!(
        "Not trumping, paid for under the modern Florentine penalty (option revoke = two-resti, MF): the record of invalid/play.must.trump.json up to its bad card (event {bad}, a card that breaks must trump), which stands: the offender pays two resti, 120, to the other player; then each player's first legal card"
    ));
    common::write_valid(&root.join("valid/two-resti-not-trumping.json"), &rec, rules);

    dealt_games(rules, &root);
}

const TABLE: [&str; 4] = ["Ann", "Bob", "Cid", "Dan"];

/// Ann, Bob, Cid and Dan's hands (21 each, Ann dealing: Bob is first hand, Dan cuts) and the stock:
/// the cards of `fixed`, the rest shuffled with `seed`; the stock's head is `stock`, then the rest.
fn deal(fixed: &[(&str, &[&str])], stock: &[&str], seed: u64) -> Event {
    let suits = ["S", "C", "H", "D"];
    let ranks = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"];
    let pack: Vec<String> = (1..=40).map(|t| format!("T{t}")).chain(["EX".to_string()]).chain(suits.iter().flat_map(|s| ranks.iter().map(move |r| format!("{r}{s}")))).collect();
    let taken: Vec<&str> = fixed.iter().flat_map(|(_, cards)| cards.iter().copied()).chain(stock.iter().copied()).collect();
    let mut rest: Vec<String> = pack.into_iter().filter(|c| !taken.contains(&c.as_str())).collect();
    rest.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let mut hands = BTreeMap::new();
    for p in TABLE {
        let mut hand: Vec<String> = fixed.iter().find(|(q, _)| *q == p).map(|(_, cards)| cards.iter().map(|c| c.to_string()).collect()).unwrap_or_default();
        let need = 21 - hand.len();
        hand.extend(rest.drain(..need));
        hands.insert(p.into(), hand.iter().map(|c| c.as_str().into()).collect());
    }
    let dog = stock.iter().map(|c| c.to_string()).chain(rest).map(|c| c.as_str().into()).collect::<Vec<_>>();
    assert_eq!(dog.len(), 13, "the stock at four");
    Event::Deal { hands, dog, cut: None, piles: BTreeMap::new(), packets: vec![] }
}

/// `events` after a deal, played out: each card chosen by `policy(player, legal cards, trick so far)`.
fn play_out(rules: &Ruleset, events: Vec<Event>, description: &str, mut policy: impl FnMut(&str, &[String], &[String]) -> String) -> GameRecord {
    let mut rec = GameRecord {
        ruleset: ID.into(),
        options: BTreeMap::new(),
        players: TABLE.iter().map(|p| p.to_string()).collect(),
        dealer: "Ann".into(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: Some(format!("{description}. Dealt and played by engine/examples/minchiate_fixtures.rs.")),
        events,
    };
    loop {
        let v = replay(rules, &rec).unwrap();
        match v.status {
            Status::InProgress => {
                let next = v.next.clone().expect("someone moves");
                assert_eq!(next.phase, Phase::Play, "{}", v.to_text());
                let table: Vec<String> = next.table.iter().map(|c| c.to_string()).collect();
                let card = policy(&next.player, &next.legal, &table);
                rec.events.push(Event::Play { player: next.player.as_ref().into(), card: card.as_str().into() });
            }
            Status::Valid => return rec,
            other => panic!("{other:?}: {}", v.to_text()),
        }
    }
}

fn event(json: serde_json::Value) -> Event {
    serde_json::from_value(json).unwrap()
}

/// A policy: the cards `wanted` by a player when they are legal (the first that is), else a card at
/// random, a card `kept` only when nothing else is legal.
fn wanting(wanted: &'static [(&'static str, &'static str)], kept: &'static [(&'static str, &'static str)], seed: u64) -> impl FnMut(&str, &[String], &[String]) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    move |player, legal, _| {
        if let Some((_, c)) = wanted.iter().filter(|(p, _)| *p == player).find(|(_, c)| legal.iter().any(|l| l == c)) {
            return c.to_string();
        }
        let free: Vec<&String> = legal.iter().filter(|l| !kept.contains(&(player, l.as_str()))).collect();
        match free.choose(&mut rng) {
            Some(c) => c.to_string(),
            None => legal.choose(&mut rng).unwrap().clone(),
        }
    }
}

/// Numerals of swords and batons, which make no versicola: the rest of a hand that should hold only
/// the versicola it shows.
const PLAIN: [&str; 20] = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "1S", "1C"];

fn dealt_games(rules: &Ruleset, root: &Path) {
    // The dealer steals the Sun (M4) and shows it with the World and the Trumpets: no card can take
    // them, so the versicola stays whole and counts three times (M3): 3 x 30 = 90 in her honours.
    let mut ann: Vec<&str> = vec!["T39", "T40"];
    ann.extend(&PLAIN[..19]);
    let deal_ = deal(&[("Ann", &ann)], &["T38", "3D"], 38);
    let events = vec![
        deal_,
        event(serde_json::json!({"type": "take", "player": "Ann", "cards": ["T38"]})),
        event(serde_json::json!({"type": "discard", "player": "Ann", "cards": ["2S"]})),
        event(serde_json::json!({"type": "declare", "player": "Ann", "declaration": "versicola", "cards": ["T38", "T39", "T40"]})),
    ];
    let rec = play_out(
        rules,
        events,
        "Ann, the dealer, steals the Sun from the stock (M4) and lays away the 2 of swords; she shows the Sun with the World and the Trumpets she was dealt: a versicola (M2), which no card can take, so its cards count three times in her honours (M3): 90, not the 60 of a versicola made in the cards taken",
        wanting(&[], &[], 38),
    );
    common::write_valid(&root.join("valid/stolen-arie-shown.json"), &rec, rules);

    // The dealer steals the 32 and shows it with the 30 and the 31; Bob leads the Star, and Ann plays
    // the 31 under it: a card shown, not paid for (M3); the 30 and the 32 left count twice.
    let mut ann: Vec<&str> = vec!["T30", "T31"];
    ann.extend(&PLAIN[..19]);
    let deal_ = deal(&[("Ann", &ann), ("Bob", &["T36"])], &["T32", "3D"], 32);
    let events = vec![
        deal_,
        event(serde_json::json!({"type": "take", "player": "Ann", "cards": ["T32"]})),
        event(serde_json::json!({"type": "discard", "player": "Ann", "cards": ["2S"]})),
        event(serde_json::json!({"type": "declare", "player": "Ann", "declaration": "versicola", "cards": ["T30", "T31", "T32"]})),
    ];
    let rec = play_out(
        rules,
        events,
        "Ann, the dealer, steals the 32 from the stock (M4) and shows it with the 30 and the 31 she was dealt; Bob leads the Star and Ann plays the 31 under it: a card shown in a versicola, for which nothing is paid when it is captured (M3); the 30 and the 32 left count twice",
        wanting(&[("Bob", "T36"), ("Ann", "T31")], &[("Ann", "T30"), ("Ann", "T32")], 32),
    );
    common::write_valid(&root.join("valid/stolen-card-shown-captured.json"), &rec, rules);

    // Bob, first hand, sits out for 30 (M4); Ann shows the 30, the 31 and the 32, and plays the 31
    // under Cid's Star (and the 30 under Dan's World): Bob alone is paid for them (M3).
    let mut ann: Vec<&str> = vec!["T30", "T31", "T32"];
    ann.extend(&PLAIN[..18]);
    let deal_ = deal(&[("Ann", &ann), ("Cid", &["T36"])], &["3D"], 31);
    let events = vec![
        deal_,
        event(serde_json::json!({"type": "sit-out", "player": "Bob"})),
        event(serde_json::json!({"type": "declare", "player": "Ann", "declaration": "versicola", "cards": ["T30", "T31", "T32"]})),
    ];
    let rec = play_out(
        rules,
        events,
        "Bob, first hand, sits out for 30 (M4); Ann shows the 30, the 31 and the 32, plays the 31 under Cid's Star, and then, trumps led again, the 30 under Dan's World: for a card shown in a versicola nothing is paid when it is captured, \"se non da quello che per privilegio non giuoca\" (M3): Bob, who sits out, is paid their 10 at the end",
        wanting(&[("Cid", "T36"), ("Ann", "T31")], &[("Ann", "T30"), ("Ann", "T32")], 31),
    );
    common::write_valid(&root.join("valid/sit-out-shown-card-captured.json"), &rec, rules);

    // Ann holds the Matto and shows the 32, the 33 and the 34; Bob leads the Star and Ann plays the 33
    // under it: the versicola is broken, and the Matto counts twice with it (M3).
    let mut ann: Vec<&str> = vec!["EX", "T32", "T33", "T34", "T40"];
    ann.extend(&PLAIN[..16]);
    let deal_ = deal(&[("Ann", &ann), ("Bob", &["T36"])], &["3D"], 33);
    let events = vec![deal_, event(serde_json::json!({"type": "declare", "player": "Ann", "declaration": "versicola", "cards": ["T32", "T33", "T34"]}))];
    let rec = play_out(
        rules,
        events,
        "Ann holds the Matto and shows the 32, the 33 and the 34; Bob leads the Star and Ann plays the 33 under it, breaking the versicola: the 32 and the 34 count twice, and the Matto with them, \"due volte o tre, secondochè conta la verzicola, o guasta o salvata\" (M3): 10, not its single 5",
        wanting(&[("Bob", "T36"), ("Ann", "T33")], &[("Ann", "T32"), ("Ann", "T34")], 33),
    );
    common::write_valid(&root.join("valid/matto-broken-versicola.json"), &rec, rules);
}
