//! `must beat` (`tests/rules/must-beat.tarot`, Basic Tarot where a player must win the trick if he
//! can): a card of the suit led lower than the one taking the trick is refused while a higher one is
//! held, and a trump below the trick's while a higher trump is held; the same cards are accepted under
//! `basic`; the simulator plays only cards the rule allows.

use crate::common;

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::Card;
use tarot_engine::{replay, Event, GameRecord, Status};

const ID: &str = "must-beat";

/// The test rule file, or a built-in ruleset, compiled.
fn rules(id: &str) -> Ruleset {
    common::rules(id, &[ID])
}

/// A card the rule refuses and `basic` allows, in a seeded game played with random legal cards:
/// the record up to that card (excluded), the card, the legal cards then, and the trick so far.
struct Chance {
    game: GameRecord,
    card: String,
    legal: Vec<String>,
    table: Vec<Card>,
}

/// The first chance in the seeded game for which `wanted` holds.
fn chance(beat: &Ruleset, basic: &Ruleset, seed: u64, wanted: &dyn Fn(&Chance) -> bool) -> Option<Chance> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = random_game(beat, 4, &BTreeMap::new(), &mut rng).unwrap();
    let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
    g.events.truncate(first);
    loop {
        let v = replay(beat, &g).unwrap();
        let next = v.next.clone()?;
        let mut under_basic = g.clone();
        under_basic.ruleset = "basic".into();
        let w = replay(basic, &under_basic).unwrap();
        let free = w.next.clone().unwrap().legal;
        for card in free.iter().filter(|c| !next.legal.contains(c)) {
            let c = Chance { game: g.clone(), card: card.clone(), legal: next.legal.clone(), table: next.table.to_vec() };
            if wanted(&c) {
                return Some(c);
            }
        }
        let card = next.legal.choose(&mut rng).unwrap();
        g.events.push(Event::Play { player: next.player.as_ref().into(), card: card.as_str().into() });
    }
}

/// The suit led of a trick so far (its first card but the Excuse).
fn led(table: &[Card]) -> Option<Card> {
    table.iter().copied().find(|c| !c.is_fool())
}

/// Each kind of chance: a card of the suit led refused (a suit led), a trump refused (trumping).
fn check(wanted: &dyn Fn(&Chance) -> bool, what: &str) {
    let (beat, basic) = (rules(ID), rules("basic"));
    let c = (0..40).find_map(|seed| chance(&beat, &basic, seed, wanted)).unwrap_or_else(|| panic!("no game gave a chance: {what}"));
    let player = c.game.clone();
    let next = replay(&beat, &player).unwrap().next.unwrap().player;
    let mut refused = c.game.clone();
    refused.events.push(Event::Play { player: next.as_ref().into(), card: c.card.as_str().into() });
    let v = replay(&beat, &refused).unwrap();
    assert_eq!(v.status, Status::Invalid, "{what}");
    let broke = v.violation.unwrap();
    assert_eq!((&*broke.rule, broke.event), ("play.must.beat", refused.events.len() - 1), "{what}");
    assert!(broke.message.contains("must take the trick from"), "{}", broke.message);
    // The same card under basic: accepted.
    refused.ruleset = "basic".into();
    assert_eq!(replay(&basic, &refused).unwrap().status, Status::InProgress, "{what}");
    // Each card the rule leaves: accepted, and it takes the trick so far.
    for card in &c.legal {
        let mut ok = c.game.clone();
        ok.events.push(Event::Play { player: next.as_ref().into(), card: card.as_str().into() });
        let v = replay(&beat, &ok).unwrap();
        assert!(matches!(v.status, Status::InProgress | Status::Valid), "{what}: {card}: {:?}", v.violation);
    }
}

#[test]
fn a_lower_card_of_the_suit_led_is_refused_while_a_higher_one_is_held() {
    check(
        &|c| {
            let led = led(&c.table).unwrap();
            let card = Card::parse(&c.card).unwrap();
            !led.is_trump() && card.lane() == led.lane() && !c.table.iter().any(|t| t.is_trump())
        },
        "a suit led",
    );
}

#[test]
fn a_trump_below_the_tricks_is_refused_while_a_higher_one_is_held() {
    // Basic has no `must overtrump`: winning by a higher trump is `must beat`'s.
    check(
        &|c| {
            let led = led(&c.table).unwrap();
            let card = Card::parse(&c.card).unwrap();
            !led.is_trump() && card.is_trump()
        },
        "trumping",
    );
}

#[test]
fn the_simulator_plays_only_cards_that_beat_when_one_can() {
    assert!(common::simulated_games_obey(&rules(ID), 12) > 0);
}

#[test]
fn must_beat_is_an_obligation_a_fault_may_name() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  must beat\n  fault beat \"x\" = 10"), "");
    assert!(err("  fault beat \"x\" = 10").contains("has no `must beat`"));
    assert!(err("  must beat = 3").contains("yes or no") || err("  must beat = 3").contains("true or false"), "{}", err("  must beat = 3"));
}
