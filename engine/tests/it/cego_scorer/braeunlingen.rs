//! The Bräunlingen tournament's sheet (P "Bräunlingen Tournament Version") by the second scorer
//! (`common/cego_local.rs`): the difference from 35 rounded up to a multiple of 5 before the factor,
//! the special games' values, and the Solo bidder silent once the second phase begins.

use std::collections::BTreeMap;

use crate::common::cego;
use crate::common::cego_local::Local;
use tarot_engine::{replay, GameRecord, Status, Q};

const ID: &str = "cego-braeunlingen";

fn read(rel: &str) -> GameRecord {
    tarot_engine::read_record(tarot_testkit::fixture(&format!("{ID}/{rel}")).as_bytes()).unwrap()
}

/// The sheet's rounding, by the second scorer: a difference of 1 is 5, of 5 still 5, of 6 10, each
/// then times the factor; the Bürgermeister loses the Gasthaus's 5; a Solo won at 41 is 20 (the
/// Gasthaus's rounding of the product gives 15); a Gegensolo without a trick 70, as at the Gasthaus.
#[test]
fn the_second_scorer_rounds_the_difference_before_the_factor() {
    let b = Local::Braeunlingen;
    for (contract, over_solo, points, value) in [
        ("cego", false, 36, 5),
        ("cego", false, 34, -5),
        ("cego", false, 40, 5),
        ("cego", false, 30, -5),
        ("cego", false, 41, 10),
        ("cego", false, 29, -10),
        ("solo", false, 41, 20),
        ("solo", false, 29, -10),
        ("zwei-leere", false, 39, 20),
        ("eine", true, 36, 15),
        ("cego", true, 0, -70),
        ("kleiner-mann", false, 70, 210),
        ("cego", false, 35, -5),
        ("kleiner-mann", true, 35, -5),
    ] {
        assert_eq!(b.game_value(contract, 0, over_solo, points), Some(value), "{contract} {over_solo} {points}");
    }
    assert_eq!(cego::game_value("solo", false, 41), 15, "the Gasthaus's rounding of the product");
    for (contract, value) in [("ulti", 80), ("piccolo", 40), ("bettel", 40), ("rauber", 30)] {
        assert_eq!(b.special(contract, None), value, "{contract}");
    }
}

/// The games at the rounding's edges (`valid/diff-*.json`, written by `cego_braeunlingen_fixtures`):
/// each shows the declarer's points its name says, and the engine moves the rounded difference times
/// the factor from or to each defender, as the second scorer does; the special games made and lost
/// move their value.
#[test]
fn the_games_at_the_rounding_edges_score_as_the_sheet_says() {
    let rules = tarot_testkit::registry().get(ID).unwrap();
    for (name, points, rounded) in [("diff-1-won", 36, 5), ("diff-1-lost", 34, 5), ("diff-5-won", 40, 5), ("diff-5-lost", 30, 5), ("diff-6-won", 41, 10), ("diff-6-lost", 29, 10)] {
        let rec = read(&format!("valid/{name}.json"));
        let v = replay(rules, &rec).unwrap();
        assert_eq!(v.status, Status::Valid, "{name}: {}", v.to_text());
        let mine = cego::score(&rec);
        assert_eq!(mine.declarer_points, Some(points), "{name}");
        assert_eq!(mine.made, Some(points >= 36), "{name}");
        let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        assert_eq!(engine, mine.balance, "{name}");
        let factor = crate::common::cego::game_factor(&mine.contract, points >= 36, mine.over_solo);
        let moved = engine.values().fold(Q::int(0), |a, s| a + s.abs());
        assert_eq!(moved, Q::int(6 * rounded * factor), "{name}: {rounded} times {factor} from or to each defender");
    }
    for (contract, value) in [("ulti", 80), ("piccolo", 40), ("bettel", 40)] {
        for made in [true, false] {
            let name = format!("{contract}-{}", if made { "made" } else { "lost" });
            let rec = read(&format!("valid/{name}.json"));
            let v = replay(rules, &rec).unwrap();
            assert_eq!(v.status, Status::Valid, "{name}: {}", v.to_text());
            let mine = cego::score(&rec);
            assert_eq!((mine.contract.as_str(), mine.made), (contract, Some(made)), "{name}");
            let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
            assert_eq!(engine, mine.balance, "{name}");
            let moved = engine.values().fold(Q::int(0), |a, s| a + s.abs());
            assert_eq!(moved, Q::int(6 * value), "{name}");
        }
    }
}

/// The second scorer's reading of the auction after a Solo: in the stored Gegensolo (B's Solo, A's
/// Gegensolo, C and D passing) nothing is wrong; in the invalid games' bids (B holding A's Gegensolo;
/// C beginning the second phase before Vorhand) it names the bid.
#[test]
fn the_second_scorer_finds_the_solo_bidder_out_and_vorhand_first() {
    let valid = read("valid/gegensolo.json");
    assert_eq!(cego::wrong_bid(&valid), None);
    assert_eq!(cego::score(&valid).wrong_bidder, None);
    for (file, says) in [("bidding.opening-bidder", "says cego in the second phase"), ("bidding.turns--after-solo", "begins the second phase after the Solo")] {
        let wrong = cego::wrong_bid(&read(&format!("invalid/{file}.json"))).unwrap_or_else(|| panic!("{file}: no wrong bid found"));
        assert!(wrong.contains(says), "{file}: {wrong}");
    }
}
