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

/// The importer's reading of TarotClub's log: the deal, declarations, the discard, and where a log
/// that cannot be read breaks.
mod reading {
    use serde_json::Value;
    use tarot_engine::import_tarotclub as import;
    use tarot_engine::Imported;

    const SEATS: [&str; 4] = ["South", "East", "North", "West"];

    const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/peers/tarotclub-deals/");
    const FILES: [&str; 10] = [
        "01-T_lasttrickbydefense_game_lost.json",
        "01-T_lasttrickbydefense_game_won.json",
        "3_oudlers.json",
        "4_oudlers_bug.json",
        "maximum_points.json",
        "slam_announced_failure.json",
        "slam_not_announed_by_defense.json",
        "taker_loses_two_oudlers.json",
        "tarotmag_17.json",
        "tarotmag_18.json",
    ];

    fn load(name: &str) -> Imported {
        let path = format!("{DIR}{name}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        import(&text, name).unwrap_or_else(|e| panic!("{e}"))
    }

    fn events_of<'a>(record: &'a Value, kind: &str) -> Vec<&'a Value> {
        record["events"].as_array().expect("events").iter().filter(|e| e["type"] == kind).collect()
    }

    #[test]
    fn imports_all_ten_deals() {
        for name in FILES {
            let imported = load(name);
            let record = &imported.record;
            let deal = events_of(record, "deal");
            assert_eq!(deal.len(), 1, "{name}");
            let mut all_cards = Vec::new();
            for seat in SEATS {
                let hand = deal[0]["hands"][seat].as_array().expect("hand");
                assert_eq!(hand.len(), 18, "{name}: {seat}");
                all_cards.extend(hand.iter().cloned());
            }
            let dog = deal[0]["dog"].as_array().expect("dog");
            assert_eq!(dog.len(), 6, "{name}");
            all_cards.extend(dog.iter().cloned());
            let mut distinct: Vec<String> = all_cards.iter().map(|c| c.as_str().expect("code").to_string()).collect();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 78, "{name}: every card dealt once");
            assert_eq!(events_of(record, "play").len(), 72, "{name}");
            assert_eq!(events_of(record, "bid").len(), 4, "{name}");
            assert_eq!(record["description"], format!("Imported from TarotClub deal log {name}"));
            assert!(!imported.inferred.is_empty(), "{name}");
        }
    }

    #[test]
    fn slam_and_poignee_are_declared_before_the_first_card() {
        let record = load("maximum_points.json").record;
        assert_eq!(record["dealer"], "West");
        let events = record["events"].as_array().expect("events");
        let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
        // deal, 4 bids, then no discard in a garde contre, the slam, the poignée, the first card.
        assert_eq!(kinds[..8], ["deal", "bid", "bid", "bid", "bid", "declare", "declare", "play"]);
        assert_eq!(events[5]["declaration"], "chelem");
        assert_eq!(events[6]["declaration"], "poignee");
        assert_eq!(events[6]["player"], "South");
        assert_eq!(events[6]["cards"].as_array().map(Vec::len), Some(15));
        assert_eq!(events[7]["card"], "T21");
        // Bidding starts with the player after the dealer.
        assert_eq!(events[1]["player"], "South");
        assert_eq!(events[1]["bid"], "garde-contre");
    }

    #[test]
    fn defence_poignee_is_shown_by_the_defender_holding_it() {
        let text = std::fs::read_to_string(format!("{DIR}slam_not_announed_by_defense.json")).expect("fixture");
        let trumps = "21-T;20-T;19-T;18-T;17-T;16-T;15-T;14-T;13-T;12-T";
        let with_handle = text.replace("\"defense_handle\": \"\"", &format!("\"defense_handle\": \"{trumps}\""));
        let record = import(&with_handle, "x.json").unwrap_or_else(|e| panic!("{e}")).record;
        let events = record["events"].as_array().expect("events");
        let at = events.iter().position(|e| e["declaration"] == "poignee").expect("a poignée");
        // West holds those trumps and plays last in trick 1: the poignée comes just before.
        assert_eq!(events[at]["player"], "West");
        assert_eq!(events[at]["cards"].as_array().map(Vec::len), Some(10));
        assert_eq!(events[at + 1]["type"], "play");
        assert_eq!(events[at + 1]["player"], "West");
        assert!(events[..at].iter().all(|e| e["player"] != "West" || e["type"] == "bid"));

        // 11-T was North's: no defender held all of these.
        let mixed = text.replace("\"defense_handle\": \"\"", &format!("\"defense_handle\": \"{trumps};11-T\""));
        let error = import(&mixed, "x.json").err().expect("must fail");
        assert_eq!(error, "x.json: deal_info.defense_handle: no defender held all of these trumps");
    }

    #[test]
    fn prise_discard_is_the_unplayed_cards() {
        let record = load("tarotmag_17.json").record;
        assert_eq!(record["dealer"], "North");
        let discard = events_of(&record, "discard");
        assert_eq!(discard.len(), 1);
        assert_eq!(discard[0]["player"], "South");
        assert_eq!(discard[0]["cards"].as_array().map(Vec::len), Some(6));
        // West led, so North dealt and West bid first.
        let bids: Vec<(&str, &str)> = events_of(&record, "bid").iter().filter_map(|b| Some((b["player"].as_str()?, b["bid"].as_str()?))).collect();
        assert_eq!(bids, [("West", "pass"), ("South", "prise"), ("East", "pass"), ("North", "pass")]);
    }

    #[test]
    fn malformed_input_is_reported_with_its_place() {
        let text = std::fs::read_to_string(format!("{DIR}tarotmag_17.json")).expect("fixture");

        let bad_card = text.replace("\"06-D;05-T;08-T;10-T\"", "\"06-D;05-T;15-X;10-T\"");
        let error = import(&bad_card, "tarotmag_17.json").err().expect("must fail");
        assert_eq!(error, "tarotmag_17.json: trick 9: unknown card \"15-X\"");

        let duplicate = text.replace("\"06-D;05-T;08-T;10-T\"", "\"06-D;05-T;01-H;10-T\"");
        let error = import(&duplicate, "x.json").err().expect("must fail");
        assert!(error.starts_with("x.json: trick 9: card 01-H was already played in trick 1"), "{error}");

        // Swapping tricks 4 and 5 puts trick 5 after the wrong winner: the cards are then
        // attributed to the wrong players and North seems to trump while holding diamonds.
        let swapped = text.replace("\"13-D;10-D;09-D;00-T\"", "\"@\"").replace("\"02-D;02-T;15-T;12-D\"", "\"13-D;10-D;09-D;00-T\"").replace("\"@\"", "\"02-D;02-T;15-T;12-D\"");
        let error = import(&swapped, "x.json").err().expect("must fail");
        assert!(error.starts_with("x.json: trick 4: with South (winner of trick 3) leading"), "{error}");
        assert!(error.contains("leaders do not fit"), "{error}");

        // A dog card played by a defender: here because the first leader is wrong.
        let wrong_lead = std::fs::read_to_string(format!("{DIR}01-T_lasttrickbydefense_game_lost.json"))
            .expect("fixture")
            .replace("\"first_trick_lead\": \"East\"", "\"first_trick_lead\": \"South\"");
        let error = import(&wrong_lead, "x.json").err().expect("must fail");
        assert!(error.starts_with("x.json: deal_info.dog: 21-T was played by East"), "{error}");

        for (input, expected) in
            [("", "x.json: not valid JSON"), ("[]", "x.json: the top level should be a JSON object"), ("{\"version\": \"3\"}", "x.json: missing \"deal_info\"")]
        {
            let error = import(input, "x.json").err().expect("must fail");
            assert!(error.starts_with(expected), "{error}");
        }
        let short = text.replace("\"11-C;13-C;10-C;07-C\"\n", "");
        let short = short.replace("\"14-C;09-C;08-C;05-C\",", "\"14-C;09-C;08-C;05-C\"");
        let error = import(&short, "x.json").err().expect("must fail");
        assert_eq!(error, "x.json: 17 tricks instead of 18");
    }
}
