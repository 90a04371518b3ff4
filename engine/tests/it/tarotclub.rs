//! The ten TarotClub deals of `fixtures/peers/tarotclub-deals/` (a peer's test data, with expected
//! scores in its README) are imported and replayed under fft-4p to TarotClub's scores.

use tarot_engine::import_tarotclub as import;
use tarot_engine::{replay, GameRecord, Status};

const PEERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/peers/tarotclub-deals/");

/// File, contract, taker's oudlers, taker's points, taker's score, each defender's score: the table
/// of the README there.
const EXPECTED: &[(&str, &str, i64, i64, i64, i64)] = &[
    ("tarotmag_17", "prise", 1, 42, -102, 34),
    ("tarotmag_18", "garde", 2, 43, 162, -54),
    ("3_oudlers", "garde", 3, 47, 216, -72),
    ("4_oudlers_bug", "prise", 3, 47, 108, -36),
    ("01-T_lasttrickbydefense_game_lost", "prise", 1, 28, -174, 58),
    ("01-T_lasttrickbydefense_game_won", "prise", 1, 28, -174, 58),
    ("slam_announced_failure", "garde-sans", 3, 81, 360, -120),
    ("taker_loses_two_oudlers", "garde-sans", 1, 67, 492, -164),
    ("maximum_points", "garde-contre", 3, 88, 2886, -962),
    ("slam_not_announed_by_defense", "garde-contre", 0, 0, -2058, 686),
];

fn value(outcome: &tarot_engine::Outcome, name: &str) -> serde_json::Value {
    outcome.value(name).unwrap_or_default()
}

#[test]
fn the_ten_tarotclub_deals_score_as_tarotclub_scores_them() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("fft-4p").unwrap();
    for &(file, contract, oudlers, points, taker, defender) in EXPECTED {
        let text = std::fs::read_to_string(format!("{PEERS}{file}.json")).expect("a TarotClub deal under fixtures/peers");
        let imported = import(&text, file).unwrap_or_else(|e| panic!("{e}"));
        let record: GameRecord = serde_json::from_value(imported.record).unwrap();
        let v = replay(rules, &record).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(v.status, Status::Valid, "{file}: {}", v.to_text());
        let o = v.outcome.as_ref().unwrap();
        assert_eq!(o.contract.as_deref(), Some(contract), "{file}");
        assert_eq!(value(o, "bouts"), serde_json::json!(oudlers), "{file}");
        assert_eq!(value(o, "points"), serde_json::json!(points), "{file}");
        let taker_name = o.taker.clone().unwrap();
        for p in &o.players {
            let want = if p.player == taker_name { taker } else { defender };
            assert_eq!(p.score, tarot_engine::Q::int(want), "{file}: {}", p.player);
        }
    }
}

#[test]
fn committed_conversions_match_a_fresh_import() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/fft-4p/tarotclub/");
    for &(file, ..) in EXPECTED {
        let text = std::fs::read_to_string(format!("{PEERS}{file}.json")).unwrap();
        let fresh = import(&text, &format!("{file}.json")).unwrap().record;
        let committed: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}{file}.json")).unwrap()).unwrap();
        assert_eq!(fresh, committed, "{file}: re-run `tarot-archive import tarotclub fixtures/peers/tarotclub-deals/*.json --out fixtures/fft-4p/tarotclub`");
    }
}

#[test]
fn importer_errors_say_where() {
    let e = import("{\"version\":\"3\"}", "x.json").err().unwrap();
    assert!(e.starts_with("x.json"), "{e}");
}
