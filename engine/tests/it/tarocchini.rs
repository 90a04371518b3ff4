//! Tarocchini (rulesets/tarocchini.tarot): the sources' figures, checked on the committed fixtures of
//! `fixtures/tarocchini/valid/` (made by play with a fixed strategy, legal at every step; their
//! descriptions say which example each reproduces).

use std::path::Path;

use serde_json::json;
use tarot_engine::Q;
use tarot_engine::{parse_record, replay, Status, Verdict};

fn replay_valid(name: &str) -> Verdict {
    replay_valid_record(name).1
}

/// A valid fixture's record, with its verdict.
fn replay_valid_record(name: &str) -> (tarot_engine::GameRecord, Verdict) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/tarocchini/valid").join(format!("{name}.json"));
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let record = parse_record(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(record.description.is_some(), "{name} says what it shows");
    let registry = tarot_testkit::registry();
    let verdict = replay(registry.get("tarocchini").expect("built in"), &record).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(verdict.status, Status::Valid, "{name}:\n{}", verdict.to_text());
    (record, verdict)
}

fn value(v: &Verdict, name: &str) -> serde_json::Value {
    v.outcome.as_ref().expect("finished").value(name).unwrap_or_else(|| panic!("no value {name}"))
}

/// A score `let` that reads `player` has one value per player, in the order of the players: the value
/// for `player`'s side. The dealer, Ann, and Cid against first hand, Bob, and Dan in every fixture here.
fn of(v: &Verdict, name: &str, player: &str) -> serde_json::Value {
    let o = v.outcome.as_ref().expect("finished");
    let i = o.players.iter().position(|p| &*p.player == player).expect("a player");
    value(v, name)[i].clone()
}

fn score(v: &Verdict, player: &str) -> Q {
    v.outcome.as_ref().expect("finished").players.iter().find(|p| &*p.player == player).expect("a player").score
}

/// MP's mezzo criccone (148, doubled), Pisarri's whole Grande (105), and the pack's 93 with the last trick:
/// the dealer's side takes every trick.
#[test]
fn every_trick_to_one_side_scores_the_whole_pack() {
    let v = replay_valid("every-trick-mezzo-criccone");
    assert_eq!(of(&v, "cricche", "Ann"), json!([4, 4, 4, 4, 4]));
    assert_eq!(of(&v, "cricche_sum", "Ann"), json!(148));
    assert_eq!(of(&v, "cricche_pts", "Ann"), json!(296));
    // The Grande: Angel to the 5 (16), the Moors (4), both contatori (2): 22 cards, 10 + 5 x 19 = 105.
    assert_eq!(of(&v, "sequences", "Ann"), json!([22, 6, 6, 6, 6]));
    assert_eq!(of(&v, "sequences_pts", "Ann"), json!((105 + 4 * 25) * 2));
    assert_eq!(of(&v, "total_side", "Ann"), json!(296 + 410 + 87 + 6));
    assert_eq!(score(&v, "Ann"), Q::int(799));
    assert_eq!(score(&v, "Cid"), Q::int(799));
    assert_eq!(score(&v, "Bob"), Q::int(0));
}

/// Pisarri's Grande of seven (DM): Angel, Sun, Moon, 16, 15, the Matto for the 14, the 13; worth 30.
#[test]
fn pisarris_grande_of_seven_is_worth_30() {
    let v = replay_valid("pisarri-grande-of-seven");
    assert_eq!(of(&v, "grande_run", "Bob"), json!(7));
    assert_eq!(of(&v, "sequences_pts", "Bob"), json!(30));
}

/// Past the 5, the Grande adds each Moor held, not only a whole set of four: "da uno a quattro Mori,
/// con incremento di 5 punti per ogni Moro" (MBP p. 51). Bob and Dan's Grande: the Angel, the World
/// and the Sun, the Moon passed over, the 16 to the 6 with a contatore for the 14 and the other for the
/// 5, then three Moors: 18 cards, 85.
#[test]
fn the_grande_adds_each_moor_after_the_5() {
    let v = replay_valid("grande-to-three-moors");
    assert_eq!(of(&v, "grande_len", "Bob"), json!(16), "the run to the Moors' step");
    assert_eq!(of(&v, "grande_run", "Bob"), json!(18));
    assert_eq!(of(&v, "sequences_pts", "Bob"), json!(85));
    assert_eq!(score(&v, "Bob"), Q::int(154 + 85 + 56));
}

/// Of two Moors in a trick the later played wins (W).
#[test]
fn the_later_moor_wins() {
    let v = replay_valid("moors-later-wins");
    let t = &v.tricks[7];
    let codes: Vec<String> = t.cards.iter().map(|c| c.to_string()).collect();
    assert_eq!(codes, ["T1", "T4", "10S", "T2"]);
    assert_eq!(&*t.winner, "Bob", "the Moor T2, played after the T4, takes the trick");
}

/// Counted in pairs the pack is worth 87, 93 with the last trick's 6 (B): in every complete game the
/// two sides' card points and the last trick make 93.
#[test]
fn every_game_counts_93() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/tarocchini/valid");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("the folder").flatten() {
        let name = entry.path().file_stem().and_then(|s| s.to_str()).map(String::from).expect("a name");
        let v = replay_valid(&name);
        let o = v.outcome.as_ref().expect("finished");
        if !o.ends_match.is_empty() {
            // A hand cut short by a call-out (`ends-match`) is not a complete game.
            continue;
        }
        let points: Q = o.players.iter().map(|p| p.card_points).sum();
        assert_eq!(points, Q::int(87), "{name}");
        seen += 1;
    }
    assert!(seen >= 5);
}

/// The dealer's discards count for his side, unless it takes no trick: then for the opponents (W).
#[test]
fn discards_go_to_the_opponents_when_the_dealers_side_takes_no_trick() {
    let v = replay_valid("dealer-side-no-trick");
    assert_eq!(of(&v, "won", "Ann"), json!([]), "{}", v.to_text());
    assert_eq!(of(&v, "total_side", "Ann"), json!(0));
    assert_eq!(score(&v, "Ann"), Q::int(0));
    let o = v.outcome.as_ref().expect("finished");
    let bob_dan: Q = o.players.iter().filter(|p| &*p.player == "Bob" || &*p.player == "Dan").map(|p| p.card_points).sum();
    assert_eq!(bob_dan, Q::int(87), "the discards too");
    // With any trick, the discards stay with the dealer's side.
    let v = replay_valid("pisarri-grande-of-seven");
    let won_dealer = of(&v, "won", "Ann");
    assert!(won_dealer.as_array().expect("a list").len() > 2);
}

/// MP's shortcut: a side lacking one tarocco (here the Matto, kept by its opponent) makes 148 - 18 = 130
/// in cricche, doubled 260.
#[test]
fn a_side_short_of_one_tarocco_makes_130_doubled() {
    let v = replay_valid("matto-kept-cricche-130");
    assert_eq!(of(&v, "cricche", "Ann"), json!([3, 4, 4, 4, 4]));
    assert_eq!(of(&v, "cricche_sum", "Ann"), json!(148 - 18));
    assert_eq!(of(&v, "cricche_pts", "Ann"), json!(260));
    // One contatore left: the Grande 21 cards (100), each suit K Q C J and the Bégato (20); doubled.
    assert_eq!(of(&v, "sequences_pts", "Ann"), json!((100 + 4 * 20) * 2));
}

/// The option `suit_sequences = "not-counted"`: only the Grande is a sequence, so nothing is doubled.
#[test]
fn without_suit_sequences_only_the_grande_counts() {
    let v = replay_valid("every-trick-suit-sequences-not-counted");
    assert_eq!(of(&v, "sequences", "Ann"), json!([22, 0, 0, 0, 0]));
    assert_eq!(of(&v, "sequences_pts", "Ann"), json!(105));
    assert_eq!(score(&v, "Ann"), Q::int(296 + 105 + 87 + 6));
}

/// The accusi: combinations declared from the hand before the declarer's first card score what the
/// count at the end gives them (AO), added to his side's total. Four kings and four queens: 34 + 28.
#[test]
fn an_accuso_of_kings_and_queens_adds_62_to_the_side() {
    let v = replay_valid("accuso-kings-and-queens");
    assert_eq!(of(&v, "total_side", "Ann"), json!(799));
    assert_eq!(score(&v, "Ann"), Q::int(799 + 34 + 28));
    assert_eq!(score(&v, "Cid"), Q::int(799 + 34 + 28), "the partner's side scores it too");
    assert_eq!(score(&v, "Bob"), Q::int(0));
}

/// A declared Grande with the Matto standing for a missing trump (MB p. 51): Angel to the 15 and the
/// Matto, seven cards, 30; with the tarocchi's cricca (18) and the four kings (34), 82.
#[test]
fn an_accuso_of_the_grande_with_the_matto_is_worth_82() {
    let v = replay_valid("accuso-grande-with-the-matto");
    assert_eq!(score(&v, "Ann"), Q::int(799 + 30 + 18 + 34));
}

/// Calling oneself out (MBO 4.1.1, `ends-match`): Dan's accuso of 15 brings his side's 785 to 800; the
/// deal ends there, valid, scored on what was played (the side's accuso and the discard it was given),
/// and the match ends after it with Dan and Bob the winners, though no total of the deal reached 800.
#[test]
fn calling_oneself_out_ends_the_deal_and_the_match() {
    let (called_out, v) = replay_valid_record("call-out-at-800");
    assert!(v.tricks.is_empty() && v.next.is_none());
    let o = v.outcome.as_ref().unwrap();
    assert_eq!(o.ends_match.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["Dan", "Bob"]);
    assert_eq!((score(&v, "Dan"), score(&v, "Bob"), score(&v, "Ann")), (Q::int(16), Q::int(16), Q::ZERO));
    let text = String::from_utf8(v.to_json()).unwrap();
    assert!(text.contains("\"ends_match\":[\"Dan\",\"Bob\"]"), "{text}");

    let registry = tarot_testkit::registry();
    let rules = registry.get("tarocchini").unwrap();
    let setup = tarot_engine::Setup::new(rules, 4, &std::collections::BTreeMap::<String, serde_json::Value>::new()).unwrap();
    let (deal, other) = replay_valid_record("4p-1");
    let m = tarot_engine::match_state(&setup, &[(&deal, &other), (&called_out, &v), (&deal, &other)]).unwrap().unwrap();
    assert_eq!((m.played, m.over_after, m.target_reached), (2, Some(2), false));
    assert_eq!(m.winners.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["Dan", "Bob"]);
    // Without the call-out, the match goes on.
    let m = tarot_engine::match_state(&setup, &[(&deal, &other), (&deal, &other)]).unwrap().unwrap();
    assert!(!m.over());

    // No event may follow the call-out.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/tarocchini/valid/call-out-at-800.json");
    let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let hand = record["events"][0]["hands"]["Bob"][0].clone();
    record["events"].as_array_mut().unwrap().push(json!({"type": "play", "player": "Bob", "card": hand}));
    let e = replay(rules, &parse_record(&record.to_string()).unwrap()).unwrap_err();
    assert!(e.message.contains("the game is over"), "{}", e.message);
}
