//! Declarations claimed once the last trick is played (`when after-play`: the 1821 honours, ATT1821
//! §49), checked by replay on `tests/rules/declare-after-play.tarot`: a claim after the last trick is
//! valid and paid, one made before is refused, it shows only cards its player held before his
//! discard, and nothing else may follow the last trick.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord, Status};

const ID: &str = "declare-after-play";

fn rules() -> Ruleset {
    common::rules(ID, &[ID])
}

fn refused(find: &str, replace: &str) -> String {
    common::test_rules(ID, Some((find, replace))).expect_err("refused")
}

/// The player dealt all three trull cards, if one was.
fn trull_holder(g: &GameRecord) -> Option<String> {
    let Event::Deal { hands, .. } = &g.events[0] else { return None };
    hands.iter().find(|(_, cards)| ["T1", "T21", "T22"].iter().all(|t| cards.iter().any(|c| &**c == *t))).map(|(p, _)| p.to_string())
}

fn claim(player: &str) -> Event {
    Event::Declare { player: player.into(), declaration: "trull_bonus".into(), cards: vec!["T1".into(), "T21".into(), "T22".into()] }
}

fn score(v: &tarot_engine::Verdict, player: &str) -> tarot_engine::Q {
    v.outcome.as_ref().unwrap().players.iter().find(|p| &*p.player == player).unwrap().score
}

#[test]
fn the_trull_is_claimed_after_the_last_trick() {
    let rules = rules();
    let mut claims = 0;
    for seed in 0..400u64 {
        let g = random_game(&rules, 3, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(&rules, &g).unwrap();
        assert_ne!(v.status, Status::Invalid, "{:?}", v.violation);
        assert!(!g.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if &**declaration == "trull_bonus")), "the simulator claims nothing after play");
        let Some(holder) = trull_holder(&g) else { continue };
        if v.status != Status::Valid {
            continue;
        }
        // Claimed after the last trick: valid, and each other player pays the holder 3 (a defender's
        // too: the declarer and the other defender, as in the parent).
        let mut claimed = g.clone();
        claimed.events.push(claim(&holder));
        let w = replay(&rules, &claimed).unwrap();
        assert_eq!(w.status, Status::Valid, "{:?}", w.violation);
        assert_eq!(score(&w, &holder) - score(&v, &holder), tarot_engine::Q::int(6));
        // Claimed before the first card: refused.
        let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
        let mut early = g.clone();
        early.events.insert(first, claim(&holder));
        let x = replay(&rules, &early).unwrap().violation.unwrap();
        assert_eq!((&*x.rule, x.event), ("declaration.trull_bonus", first), "{}", x.message);
        assert!(x.message.contains("once the last trick is played"), "{}", x.message);
        // Another player shows cards he never held.
        let other = g.players.iter().find(|p| ***p != *holder).unwrap().to_string();
        let mut stolen = g.clone();
        stolen.events.push(claim(&other));
        let x = replay(&rules, &stolen).unwrap().violation.unwrap();
        assert_eq!(&*x.rule, "declaration.trull_bonus", "{}", x.message);
        assert!(x.message.contains("does not hold"), "{}", x.message);
        // Nothing but such a claim follows the last trick.
        let mut more = claimed.clone();
        more.events.push(Event::Declare { player: holder.as_str().into(), declaration: "slam".into(), cards: vec![] });
        assert!(replay(&rules, &more).is_err());
        claims += 1;
    }
    assert!(claims > 0);
}

#[test]
fn a_claim_after_play_is_refused_where_it_cannot_be() {
    let d = refused("trull_bonus \"Trull\" {\n  when after-play\n", "trull_bonus \"Trull\" {\n  when after-play\n  compulsory\n");
    assert!(d.to_string().contains("a declaration `when after-play` cannot have `compulsory`"), "{d}");
    let d = refused("four_kings \"Kings\" {\n  when after-play\n", "four_kings \"Kings\" {\n  when after-play\n  keeps = kings\n");
    assert!(d.to_string().contains("cannot have `keeps`"), "{d}");
    let d = refused("four_kings \"Kings\" {\n  when after-play\n", "four_kings \"Kings\" {\n  when after-play\n  from hand-and-discard\n");
    assert!(d.to_string().contains("cannot have `from`") && d.to_string().contains("declare-after-play.tarot:12:"), "{d}");
    let text = tarot_engine::describe(&rules(), &BTreeMap::new()).to_text();
    assert!(text.contains("Trull (claimed after the last trick"), "{text}");
}
