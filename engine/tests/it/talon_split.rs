//! A discard split around the talon (`talon { split = N }`, Cego's Legage): the taker lays away N
//! cards of his own hand before he sees the talon, then the rest of what he owes once it has come to
//! him. Checked on seeded games of `tests/rules/talon-split.tarot` (fft-3p, six cards laid away: four
//! before, two after), each then changed one move at a time.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Status};

use crate::common;

fn games(rules: &Ruleset, count: usize) -> Vec<GameRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    (0..count).map(|_| random_game_with(rules, 3, &BTreeMap::new(), &SimOptions::steered(), &mut rng).unwrap()).collect()
}

/// The discard events: (index, player, cards).
fn discards(g: &GameRecord) -> Vec<(usize, String, Vec<String>)> {
    g.events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::Discard { player, cards } => Some((i, player.to_string(), cards.iter().map(|c| c.to_string()).collect())),
            _ => None,
        })
        .collect()
}

fn dog(g: &GameRecord) -> Vec<String> {
    match &g.events[0] {
        Event::Deal { dog, .. } => dog.iter().map(|c| c.to_string()).collect(),
        _ => unreachable!(),
    }
}

#[test]
fn the_taker_lays_away_four_cards_before_the_talon_and_two_after() {
    let rules = common::test_rules("talon-split", None).unwrap();
    let mut checked = 0;
    for g in games(&rules, 60) {
        let v = replay(&rules, &g).unwrap();
        assert_ne!(v.status, Status::Invalid, "{:?}", v.violation);
        let d = discards(&g);
        if d.is_empty() {
            continue; // a contract without the dog
        }
        assert_eq!(d.len(), 2, "two discard events: {d:?}");
        let (first, second) = (&d[0], &d[1]);
        assert_eq!((first.2.len(), second.2.len(), &first.1), (4, 2, &second.1));
        let dog = dog(&g);
        assert!(first.2.iter().all(|c| !dog.contains(c)), "the first part is laid away unseen: {first:?}, dog {dog:?}");
        // The verdict's discard is both parts: six cards.
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn a_split_discard_is_refused_whole_or_from_the_unseen_talon() {
    let rules = common::test_rules("talon-split", None).unwrap();
    let (mut whole, mut unseen) = (0, 0);
    for g in games(&rules, 60) {
        let d = discards(&g);
        if d.len() != 2 {
            continue;
        }
        // Six cards of his own hand before the talon, in one event: the split says four.
        let mut one = g.clone();
        let Event::Deal { hands, .. } = &g.events[0] else { unreachable!() };
        let own: Vec<String> = hands[d[0].1.as_str()].iter().map(|c| c.to_string()).filter(|c| !d[0].2.contains(c)).take(2).collect();
        let six: Vec<_> = d[0].2.iter().chain(own.iter()).map(|c| c.as_str().into()).collect();
        if let Event::Discard { cards, .. } = &mut one.events[d[0].0] {
            *cards = six;
        }
        one.events.remove(d[1].0);
        let x = replay(&rules, &one).unwrap().violation.expect("a discard of six before the talon");
        assert_eq!((x.event, &*x.rule), (d[0].0, "talon.split"), "{}", x.message);
        assert!(x.message.contains("lays away 4 cards before he sees the talon, and 2 once it has come to him: not 6 now"), "{}", x.message);
        whole += 1;
        // A card of the talon in the first part: he has not seen it yet.
        let dog = dog(&g);
        if let Some(c) = dog.iter().find(|c| !c.starts_with('T') && !c.starts_with('K') && c.as_str() != "EX") {
            let mut early = g.clone();
            if let Event::Discard { cards, .. } = &mut early.events[d[0].0] {
                cards[0] = c.as_str().into();
            }
            let x = replay(&rules, &early).unwrap().violation.expect("a talon card laid away before the talon");
            assert_eq!((x.event, &*x.rule), (d[0].0, "discard"), "{}", x.message);
            assert!(x.message.contains("does not hold"), "{}", x.message);
            unseen += 1;
        }
    }
    assert!(whole > 0 && unseen > 0, "{whole} {unseen}");
}

/// Without `split`, the same games are refused: the taker owes his six cards at once, after the talon.
#[test]
fn without_the_split_the_two_discards_are_refused() {
    let rules = common::test_rules("talon-split", None).unwrap();
    let plain = common::test_rules("talon-split", Some(("  split = 4\n", ""))).unwrap();
    let mut refused = 0;
    for g in games(&rules, 60) {
        if discards(&g).len() != 2 {
            continue;
        }
        let x = replay(&plain, &g).unwrap().violation.expect("two discards where one is owed");
        assert_eq!(&*x.rule, "discard", "{}", x.message);
        refused += 1;
    }
    assert!(refused > 0);
}

#[test]
fn the_split_is_refused_where_it_cannot_be() {
    let with_discard = common::test_rules("talon-split", Some(("  split = 4\n", "  split = 4\n  discard = \"before\"\n"))).unwrap_err();
    assert!(with_discard.contains("which `discard` (all before, or all after) would contradict"), "{with_discard}");
    let zero = common::test_rules("talon-split", Some(("split = 4", "split = 0"))).unwrap_err();
    assert!(zero.contains("a whole number from 1, not 0"), "{zero}");
    let text = common::test_rules("talon-split", Some(("split = 4", "split = \"most\""))).unwrap_err();
    assert!(text.contains("a whole number, not"), "{text}");
    // More than he owes: refused when a game is set up.
    let seven = common::test_rules("talon-split", Some(("split = 4", "split = 7"))).unwrap();
    let g = games(&common::test_rules("talon-split", None).unwrap(), 60).into_iter().find(|g| discards(g).len() == 2).unwrap();
    let e = replay(&seven, &g).unwrap_err().to_string();
    assert!(e.contains("lays 7 cards away before the talon, but the taker owes 6"), "{e}");
}
