//! Forced cards (`tests/rules/forced-cards.tarot`, Basic Tarot where first hand must lead the 1 of
//! trumps when he holds it, `must lead T1 "label" = condition`, and the 21 is kept to the last trick,
//! `keep T21 "label"`): another lead and an early 21 are refused with their rule, and accepted under
//! `basic`; the simulator plays by them.

use crate::common;

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord, Status};

const ID: &str = "forced-cards";

/// The test rule file, or a built-in ruleset, compiled.
fn rules(id: &str) -> Ruleset {
    common::rules(id, &[ID])
}

/// In a seeded game played with random legal cards, the first card `basic` allows and the test
/// rules refuse for which `wanted(card, legal, table is empty)` holds: the record before it, the
/// player and the card.
fn chance(r: &Ruleset, basic: &Ruleset, seed: u64, wanted: &dyn Fn(&str, &[String], bool) -> bool) -> Option<(GameRecord, String, String)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = random_game(r, 4, &BTreeMap::new(), &mut rng).unwrap();
    let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
    g.events.truncate(first);
    loop {
        let next = replay(r, &g).unwrap().next?;
        let mut under_basic = g.clone();
        under_basic.ruleset = "basic".into();
        let free = replay(basic, &under_basic).unwrap().next.unwrap().legal;
        if let Some(c) = free.iter().find(|c| !next.legal.contains(c) && wanted(c, &next.legal, next.table.is_empty())) {
            return Some((g, next.player.to_string(), c.clone()));
        }
        let card = next.legal.choose(&mut rng).unwrap();
        g.events.push(Event::Play { player: next.player.as_ref().into(), card: card.as_str().into() });
    }
}

/// The card refused under the test rules with `rule` and a message containing `says`, accepted
/// under basic.
pub(crate) fn refused_here_accepted_there(r: &Ruleset, basic: &Ruleset, (g, player, card): (GameRecord, String, String), rule: &str, says: &str) {
    let mut g = g;
    g.events.push(Event::Play { player: player.as_str().into(), card: card.as_str().into() });
    let v = replay(r, &g).unwrap();
    assert_eq!(v.status, Status::Invalid);
    let broke = v.violation.unwrap();
    assert_eq!((&*broke.rule, broke.event), (rule, g.events.len() - 1));
    assert!(broke.message.contains(says), "{}", broke.message);
    g.ruleset = "basic".into();
    assert_eq!(replay(basic, &g).unwrap().status, Status::InProgress);
}

#[test]
fn first_hand_holding_the_1_must_lead_it() {
    let (r, basic) = (rules(ID), rules("basic"));
    let c = (0..40).find_map(|seed| chance(&r, &basic, seed, &|_, legal, lead| lead && legal == ["T1"])).expect("first hand held the 1 in no seeded game");
    refused_here_accepted_there(&r, &basic, c, "play.must.lead.first-hand-leads-the-1", "must lead T1: first hand leads the 1");
}

#[test]
fn the_21_is_kept_while_other_cards_are_held() {
    let (r, basic) = (rules(ID), rules("basic"));
    let c = (0..40).find_map(|seed| chance(&r, &basic, seed, &|c, legal, _| c == "T21" && legal != ["T1"])).expect("no chance to play the 21 early");
    refused_here_accepted_there(&r, &basic, c, "play.keep.the-21-to-the-last-trick", "while he holds");
}

#[test]
fn the_simulator_plays_by_forced_cards() {
    assert!(common::simulated_games_obey(&rules(ID), 12) > 0);
}

#[test]
fn forced_cards_are_written_with_cards_a_label_and_a_condition() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nclass kings = rank(K)\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  must lead T1 \"x\" = player == first_hand\n  must play kings \"y\"\n  keep T21 \"z\" while kings = count(hand) > 2"), "");
    assert!(err("  must lead T99 \"x\"").contains("`T99`: unknown card or card class"));
    assert!(err("  must lead T1").contains("`must lead` is written `must lead CARDS \"label\""));
    assert!(err("  must lead T1 \"x\" = 3").contains("yes or no"));
    assert!(err("  keep T21").contains("`keep` is written"));
    assert!(err("  keep T21 \"x\" while wizards").contains("`wizards`: unknown card or card class"));
    assert!(err("  keep T21 \"x\" = points(nobody) > 0").contains("nobody"));
    assert!(err("  must follow always").contains("`must follow` takes no further word"));
}
