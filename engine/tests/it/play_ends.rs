//! `play { end "label" = condition }` (`tests/rules/play-ends.tarot`, Basic Tarot where play ends as
//! soon as first hand takes a trick): the deal ends after that trick and is scored, the verdict says
//! why, no card is expected after it, and a card played after it breaks the rule that ended play; under `basic` the same
//! record is still in progress. The simulator's games stop there too.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, Status};

const ID: &str = "play-ends";

/// The test rule file, or a built-in ruleset, compiled.
fn rules(id: &str) -> Ruleset {
    common::rules(id, &[ID])
}

#[test]
fn play_ends_after_the_trick_that_decides_and_the_deal_is_scored() {
    let (r, basic) = (rules(ID), rules("basic"));
    let mut early = 0;
    for seed in 0..10 {
        let g = random_game(&r, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(&r, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "seed {seed}: {:?}", v.violation);
        assert!(v.next.is_none() && v.outcome.is_some());
        let first_hand = g.players[(g.players.iter().position(|p| *p == g.dealer).unwrap() + 1) % 4].clone();
        let n = v.tricks.len();
        // Every trick but the last was taken by another player; the last, by first hand.
        assert!(v.tricks[..n - 1].iter().all(|t| *t.winner != *first_hand), "seed {seed}");
        if n == 78 / 4 && *v.tricks[n - 1].winner != *first_hand {
            continue;
        }
        assert_eq!(*v.tricks[n - 1].winner, *first_hand, "seed {seed}");
        if n == 78 / 4 {
            continue;
        }
        early += 1;
        let note = v.notes.iter().find(|x| x.starts_with("play ends after trick")).unwrap_or_else(|| panic!("{:?}", v.notes));
        assert!(note.contains(&format!("trick {n} (play.end.first-hand-took-a-trick")) && note.contains("first hand took a trick"), "{note}");
        // The same record under basic: still in progress, a card expected.
        let mut under_basic = g.clone();
        under_basic.ruleset = "basic".into();
        let w = replay(&basic, &under_basic).unwrap();
        assert_eq!(w.status, Status::InProgress);
        let next = w.next.unwrap();
        assert!(!next.legal.is_empty());
        // A card played after the end breaks the rule that ended play, which the verdict cites.
        let mut more = g.clone();
        more.events.push(Event::Play { player: next.player.as_ref().into(), card: next.legal[0].as_str().into() });
        let refused = replay(&r, &more).unwrap();
        assert_eq!(refused.status, Status::Invalid, "seed {seed}");
        let violation = refused.violation.unwrap();
        assert_eq!(&*violation.rule, "play.end.first-hand-took-a-trick", "seed {seed}");
        assert_eq!(violation.event, g.events.len(), "seed {seed}");
        assert_eq!(violation.player.as_deref(), Some(next.player.as_ref()), "seed {seed}");
        assert_eq!(violation.message, format!("play ended after trick {n} (first hand took a trick), but the record goes on with a play event"), "seed {seed}");
    }
    assert!(early > 0, "no seeded game ended early");
}

#[test]
fn an_end_has_a_label_and_a_condition() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  end \"x\" = won(first_hand) > 0"), "");
    assert!(err("  end = won(first_hand) > 0").contains("`end` is written `end \"label\" = condition`"));
    assert!(err("  end \"x\" = 3").contains("yes or no"), "{}", err("  end \"x\" = 3"));
    assert!(err("  end \"x\"").contains("needs a value"));
    assert!(err("  end \"x\" = won(nobody) > 0").contains("nobody"), "{}", err("  end \"x\" = won(nobody) > 0"));
}
