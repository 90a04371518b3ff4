//! `next` at a take (phase `take`): what may be taken is in `packets`, each choice the list of its
//! cards as a `take` event gives them, and `legal` is empty. Checked on Königrufen's talon, cut in
//! halves for the contracts that take three cards, and on Minchiate's steal from the dog, where the
//! cutter may take each run of the dog's head; each choice offered is a take replay accepts.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use tarot_engine::ir::Ruleset;
use tarot_engine::{parse_record, random_game_with, replay, Event, GameRecord, Next, Phase, SimOptions, Status};
use tarot_testkit::registry;

/// The first `take` of a game: its index, its player and its cards.
fn first_take(g: &GameRecord) -> Option<(usize, String, Vec<String>)> {
    g.events.iter().enumerate().find_map(|(i, e)| match e {
        Event::Take { player, cards } => Some((i, player.to_string(), cards.iter().map(|c| c.to_string()).collect())),
        _ => None,
    })
}

/// What `next` says before event `at` of `g`.
fn next_before(rules: &Ruleset, g: &GameRecord, at: usize) -> Next {
    let mut before = g.clone();
    before.events.truncate(at);
    let v = replay(rules, &before).unwrap();
    assert_eq!(v.status, Status::InProgress, "{}", v.to_text());
    v.next.unwrap()
}

/// Each choice of `next` (a take at event `at`), taken in place of the rest of the game: replay
/// accepts it and the game goes on.
fn each_accepted(rules: &Ruleset, g: &GameRecord, at: usize, next: &Next) {
    for packet in &next.packets {
        let mut taken = g.clone();
        taken.events.truncate(at);
        taken.events.push(Event::Take { player: next.player.as_ref().into(), cards: packet.iter().map(|c| c.as_str().into()).collect() });
        let v = replay(rules, &taken).unwrap();
        assert_eq!(v.status, Status::InProgress, "{packet:?}: {}", v.to_text());
    }
}

/// `next` as the wire writes it: the phase's word, `packets` a list of lists of card codes, `legal`
/// empty.
fn check_wire(next: &Next) {
    let wire = serde_json::to_value(next).unwrap();
    assert_eq!(wire["phase"], "take", "{wire}");
    assert_eq!(wire["legal"], json!([]), "{wire}");
    assert_eq!(wire["packets"], json!(next.packets), "{wire}");
    for packet in wire["packets"].as_array().unwrap() {
        assert!(packet.as_array().unwrap().iter().all(|c| c.as_str().is_some_and(|c| !c.is_empty() && !c.contains(' '))), "{wire}");
    }
}

#[test]
fn a_take_of_the_talon_offers_its_packets_each_as_its_cards() {
    let rules = registry().get("koenigrufen").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut halves = 0;
    for _ in 0..60 {
        let g = random_game_with(rules, 4, &BTreeMap::new(), &SimOptions::steered(), &mut rng).unwrap();
        let Some((at, who, taken)) = first_take(&g) else { continue };
        let Some(Event::Deal { dog, .. }) = g.events.first() else { panic!("a deal first") };
        let dog: Vec<String> = dog.iter().map(|c| c.to_string()).collect();
        let next = next_before(rules, &g, at);
        assert_eq!((next.phase, &*next.player), (Phase::Take, who.as_str()));
        assert!(next.legal.is_empty(), "{:?}", next.legal);
        // The talon in the order dealt, cut into packets of `count` cards (each packet's cards in the
        // pack's order).
        let sorted = |cards: &[String]| {
            let mut cards = cards.to_vec();
            cards.sort();
            cards
        };
        let k = next.count.unwrap();
        let cut: Vec<Vec<String>> = dog.chunks(k).map(sorted).collect();
        assert_eq!(next.packets.iter().map(|p| sorted(p)).collect::<Vec<_>>(), cut, "the talon {dog:?}");
        assert!(next.packets.iter().any(|p| sorted(p) == sorted(&taken)), "{taken:?} taken, {:?} offered", next.packets);
        each_accepted(rules, &g, at, &next);
        check_wire(&next);
        if next.packets.len() == 2 {
            halves += 1;
        }
    }
    assert!(halves > 0, "no take of a half of the talon");
}

#[test]
fn a_steal_offers_each_run_of_the_dog_as_its_cards() {
    let rules = registry().get("minchiate").unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/minchiate/in_progress/steal-pending.json");
    let g = parse_record(&std::fs::read_to_string(path).unwrap()).unwrap();
    let at = g.events.len();
    let next = next_before(rules, &g, at);
    assert_eq!((next.phase, &*next.player), (Phase::Take, "Dan"));
    assert!(next.legal.is_empty(), "{:?}", next.legal);
    assert_eq!(next.packets, [vec!["T25"], vec!["T25", "KS"], vec!["T25", "KS", "T36"], vec!["T25", "KS", "T36", "T22"]]);
    each_accepted(rules, &g, at, &next);
    check_wire(&next);
}
