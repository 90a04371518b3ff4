//! Forced leads whose cards are a formula read at the player's turn (`must lead "label" = cards`):
//! the compiler refuses a formula that gives no cards or reads a name the turn cannot, and one that
//! gives something else at a turn is the rules' error.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game, replay, GameRecord};

#[test]
fn a_lead_formula_gives_cards_and_reads_what_a_turn_can() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  must lead \"x\" = if count(tricks) == 0 then suit_of(hand - (hand - hand_of(player))) else none"), "");
    assert_eq!(err("  must play \"x\" = hand - hand_of(player)"), "");
    // A condition where the cards belong, a number or a text: not cards.
    let e = err("  must lead \"x\" = count(tricks) == 0 and player == taker");
    assert!(e.contains("takes the cards that must be led") && e.contains("not a yes/no value"), "{e}");
    assert!(err("  must play \"x\" = count(hand)").contains("not a number"));
    assert!(err("  must lead \"x\" = if count(tricks) == 0 then 1 else \"none\"").contains("takes the cards that must be led"));
    // A name the turn does not see.
    let e = err("  must lead \"x\" = discarded");
    assert!(e.contains("`discarded` is not known in the condition of `must lead|play`"), "{e}");
    // Neither cards nor a formula, or both.
    assert!(err("  must lead \"x\"").contains("`must lead` is written"));
    assert!(err("  must lead T1 \"x\" \"y\" = yes").contains("`must lead` is written"));
}

#[test]
fn a_lead_formula_that_gives_no_cards_at_the_turn_is_the_rules_error() {
    // Not refused by the compiler (one branch is cards), refused at the first lead.
    let rules = common::compile_text("x", "ruleset x \"x\"\nextends basic\nplay {\n  must lead \"x\" = if count(tricks) == 0 then count(hand) else T1\n}\n").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let g = random_game(&common::rules("basic", &[]), 4, &BTreeMap::new(), &mut rng).unwrap();
    let g = GameRecord { ruleset: "x".into(), ..g };
    let e = replay(&rules, &g).unwrap_err();
    let fault = e.ruleset_fault.as_ref().unwrap_or_else(|| panic!("the ruleset's fault, not the record's: {e}"));
    assert_eq!(fault.rule.as_deref(), Some("play.must.lead.x"));
    assert!(e.message.contains("a number, not a set of cards"), "{e}");
}
