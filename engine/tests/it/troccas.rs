//! Troccas (rulesets/troccas.tarot): the deal a side in debt may ask for (Berther §7), checked on the
//! committed fixture `fixtures/troccas/valid/asked-nines-and-tens.json` and on its packets changed;
//! the card points each player is given, which add up to the pack's 72 side by side.

use std::path::Path;

use tarot_engine::{parse_record, replay, Status};

fn asked_fixture() -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/troccas/valid/asked-nines-and-tens.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the fixture")).expect("JSON")
}

/// Replays a record and gives its status and the rule it breaks, if any.
fn verdict(record: &serde_json::Value) -> (Status, Option<String>) {
    let registry = tarot_testkit::registry();
    let record = parse_record(&record.to_string()).expect("readable");
    let v = replay(registry.get("troccas").expect("built in"), &record).expect("replayable");
    (v.status, v.violation.map(|x| x.rule.to_string()))
}

/// Asked for (option `asked`), the cards go nine to each, then ten, the dealer's second packet twelve.
#[test]
fn a_side_that_asked_is_dealt_nine_then_ten() {
    let record = asked_fixture();
    assert_eq!(verdict(&record), (Status::Valid, None));
}

/// The same packets without the side's asking break the deal's order, and so does the usual deal in
/// sixes when the side asked.
#[test]
fn the_packets_follow_the_asking() {
    let mut record = asked_fixture();
    record["options"]["asked"] = "no".into();
    assert_eq!(verdict(&record), (Status::Invalid, Some("deal.packets".into())));

    let mut record = asked_fixture();
    let packets = record["events"][0]["packets"].as_array().expect("packets").clone();
    // Regroup each player's 19 (the dealer's 21) into the usual 6, 6, 7 (9), round by round.
    let order = ["Bob", "Cid", "Dan", "Ann"];
    let cards = |p: &str| -> Vec<serde_json::Value> { packets.iter().filter(|k| k["to"] == p).flat_map(|k| k["cards"].as_array().expect("cards").clone()).collect() };
    let mut sixes = Vec::new();
    for (from, to) in [(0, 6), (6, 12), (12, 21)] {
        for p in order {
            let c = cards(p);
            let end = if to == 21 && p != "Ann" { 19 } else { to };
            sixes.push(serde_json::json!({ "to": p, "cards": c[from..end] }));
        }
    }
    record["events"][0]["packets"] = sixes.into();
    assert_eq!(verdict(&record), (Status::Invalid, Some("deal.packets".into())));
    record["options"]["asked"] = "no".into();
    assert_eq!(verdict(&record), (Status::Valid, None), "the usual deal when nobody asked");
}

/// Only a side owing nine or more may ask (BE §7; the deal's `require`, reading the record's
/// `standing`): first hand's side owing 12 may (the fixture), owing 8 may not, owing exactly 9 may; the
/// dealer's side owing 9 may too; nobody owing anything, the usual deal stays valid.
#[test]
fn only_a_side_owing_nine_or_more_may_ask() {
    let standing = |ann: i64, bob: i64| serde_json::json!({ "Ann": ann, "Bob": bob, "Cid": ann, "Dan": bob });
    let mut record = asked_fixture();
    assert_eq!(record["standing"], standing(12, -12));
    record["standing"] = standing(8, -8);
    assert_eq!(verdict(&record), (Status::Invalid, Some("deal.require.1".into())));
    record["standing"] = standing(9, -9);
    assert_eq!(verdict(&record), (Status::Valid, None));
    record["standing"] = standing(-9, 9);
    assert_eq!(verdict(&record), (Status::Valid, None), "the dealer's side owing nine");
    record.as_object_mut().unwrap().remove("standing");
    assert_eq!(verdict(&record), (Status::Invalid, Some("deal.require.1".into())), "a first deal: nobody owes");
}

/// Partners count their tricks together, in packets of four (BE §2-4): each side's count, and the two
/// together make the pack's 72. Each partner is given his side's count, since a player's own cards
/// counted in packets alone do not add up to it (28 and 12 for a side counting 40).
#[test]
fn each_partner_is_given_his_sides_card_points_and_the_sides_make_72() {
    use rand::SeedableRng;
    let registry = tarot_testkit::registry();
    let rules = registry.get("troccas").expect("built in");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(267);
    let mut scored = 0;
    for _ in 0..400 {
        let game = tarot_engine::random_game(rules, 4, &Default::default(), &mut rng).expect("the simulator plays legal games");
        let v = replay(rules, &game).expect("replayable");
        let Some(outcome) = v.outcome else { continue };
        let points: Vec<_> = outcome.players.iter().map(|p| p.card_points).collect();
        // Seats 0 and 2 against 1 and 3.
        assert_eq!((points[0], points[1]), (points[2], points[3]), "partners are given their side's: {points:?}");
        assert_eq!(points[0] + points[1], tarot_engine::Q::int(72), "the two sides make 72: {points:?}");
        scored += 1;
    }
    assert!(scored > 300, "{scored} games scored");
}
