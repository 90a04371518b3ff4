//! A trick-winner exception (`tests/rules/wins-with.tarot`, Basic Tarot where the 1 of trumps takes
//! a trick with the 21 in it, `wins T1 "label" = T21`): such a trick goes to the 1's player, the
//! verdict notes it, and under `basic` the same trick goes to the 21's; the simulator's games under it
//! are valid.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, Status};

const ID: &str = "wins-with";

/// The test rule file, or a built-in ruleset, compiled.
fn rules(id: &str) -> Ruleset {
    common::rules(id, &[ID])
}

#[test]
fn the_1_takes_a_trick_with_the_21_in_it() {
    let (r, basic) = (rules(ID), rules("basic"));
    let mut seen = 0;
    for seed in 0..150 {
        let g = random_game(&r, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(&r, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "seed {seed}: {:?}", v.violation);
        let plays: Vec<(usize, &str, String)> = g
            .events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                Event::Play { player, card } => Some((i, player.as_ref(), card.to_string())),
                _ => None,
            })
            .collect();
        let Some(k) = v.tricks.iter().position(|t| t.cards.iter().any(|c| c.to_string() == "T1") && t.cards.iter().any(|c| c.to_string() == "T21")) else { continue };
        seen += 1;
        let trick = &plays[k * 4..k * 4 + 4];
        let owner = |code: &str| trick.iter().find(|(_, _, c)| c == code).unwrap().1;
        assert_eq!(&*v.tricks[k].winner, owner("T1"), "seed {seed}");
        let note = v.notes.iter().find(|n| n.starts_with("the 1 takes the 21 (play.wins.the-1-takes-the-21")).unwrap_or_else(|| panic!("{:?}", v.notes));
        assert!(note.contains(&format!("{} takes trick {}", owner("T1"), k + 1)), "{note}");
        // Under basic, the same cards up to that trick: the 21 takes it.
        let mut under_basic = g.clone();
        under_basic.ruleset = "basic".into();
        under_basic.events.truncate(trick[3].0 + 1);
        let w = replay(&basic, &under_basic).unwrap();
        assert_eq!(w.status, Status::InProgress, "seed {seed}: {:?}", w.violation);
        assert_eq!(&*w.tricks[k].winner, owner("T21"), "seed {seed}");
    }
    assert!(seen > 0, "the 1 and the 21 fell in no trick");
}

#[test]
fn an_exception_names_one_card_a_label_and_cards() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  wins T1 \"x\" = T21 + EX"), "");
    assert!(err("  wins T99 \"x\" = T21").contains("`T99`: unknown card"));
    assert!(err("  wins T1 = T21").contains("`wins` is written"));
    assert!(err("  wins T1 \"x\" = 3").contains("not a number"), "{}", err("  wins T1 \"x\" = 3"));
}
