//! Cards forbidden in the discard that follow an option (`forbid "label" = if option... then ...`):
//! `tests/rules/discard-forbid-option.tarot`, fft-4p whose kings may be laid away under an option.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::testing::Game;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Setup};
use tarot_engine::{Card, CardSet};
use tarot_engine::{Event, Status};

/// A test rule file of `tests/rules/`, compiled with the built-in rulesets as its parents.
fn test_rules(id: &str, text: Option<&str>) -> Result<Ruleset, String> {
    match text {
        Some(text) => common::compile_text(id, text),
        None => common::test_rules(id, None),
    }
}

fn kings_away(choice: &str) -> BTreeMap<String, serde_json::Value> {
    [("kings_away".to_string(), serde_json::json!(choice))].into()
}

fn kings() -> CardSet {
    ["KS", "KH", "KD", "KC"].iter().map(|c| Card::parse(c).unwrap()).collect()
}

#[test]
fn the_forbidden_cards_follow_the_option() {
    let rules = test_rules("discard-forbid-option", None).unwrap();
    let forbidden = |choice: &str| {
        let setup = Setup::new(&rules, 4, &kings_away(choice)).unwrap();
        let names: Vec<String> = tarot_engine::testing::NAMES[..4].iter().map(|s| s.to_string()).collect();
        Game::new(&setup, &names, 0).forbidden()
    };
    assert!(kings().minus(forbidden("no")).is_empty(), "the default forbids the kings");
    assert!(kings().and(forbidden("yes")).is_empty(), "the other choice lets them go");
    assert!(!forbidden("yes").is_empty(), "the oudlers stay forbidden");
}

#[test]
fn a_king_laid_away_is_valid_under_one_choice_and_breaks_the_rule_under_the_other() {
    let rules = test_rules("discard-forbid-option", None).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut checked = 0;
    // Prises, so that the taker takes the dog and lays six cards away.
    let sim = SimOptions { contract: ContractChoice::Only("prise".into()), ..SimOptions::steered() };
    for _ in 0..60 {
        let rec = random_game_with(&rules, 4, &kings_away("yes"), &sim, &mut rng).unwrap();
        match replay(&rules, &rec).unwrap().status {
            Status::Annulled => continue,
            status => assert_eq!(status, Status::Valid),
        }
        let king_away = rec.events.iter().any(|e| matches!(e, Event::Discard { cards, .. } if cards.iter().any(|c| Card::parse(c).is_some_and(|c| kings().contains(c)))));
        if king_away {
            let mut same = rec.clone();
            same.options.remove("kings_away");
            let v = replay(&rules, &same).unwrap();
            assert_eq!(v.violation.as_ref().map(|x| &*x.rule), Some("discard.forbid"), "{}", v.to_text());
            checked += 1;
        }
    }
    assert!(checked > 0, "some simulated taker laid a king away");
    // Under the default no simulated discard holds a king.
    for _ in 0..20 {
        let rec = random_game_with(&rules, 4, &BTreeMap::new(), &sim, &mut rng).unwrap();
        assert_ne!(replay(&rules, &rec).unwrap().status, Status::Invalid);
    }
}

#[test]
fn forbidden_cards_that_follow_options_are_checked_for_every_choice() {
    let head = "ruleset discard-forbid-option \"t\"\nextends fft-4p\noption kings_away \"k\" = [\"no\", \"yes\"]\n";
    let number = test_rules("discard-forbid-option", Some(&format!("{head}discard {{\n  forbid \"kings and oudlers\" = if option.kings_away == \"yes\" then 3 else kings\n}}\n")))
        .unwrap_err();
    assert!(number.contains("with option.kings_away = \"yes\": the forbidden cards must be a set of cards, not"), "{number}");
    let game = test_rules(
        "discard-forbid-option",
        Some(&format!("{head}discard {{\n  forbid \"kings and oudlers\" = if option.kings_away == \"yes\" and count(players) == 4 then oudlers else kings\n}}\n")),
    )
    .unwrap_err();
    assert!(game.contains("may follow options, and nothing else of the game"), "{game}");
}
