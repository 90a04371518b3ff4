//! Declarations made in turn from first hand (`in-turn`, Grosstarock's "In turn, each player must
//! declare"): `engine/tests/rules/declare-in-turn.tarot`. The dealer is Cid, so first hand is Ann,
//! then Bob, then Cid. A player makes his in-turn declarations at his turn, in any order among his
//! own; one made after a player later in turn has declared breaks `declaration.NAME.in-turn`; a
//! declaration that is not `in-turn` is not ordered; the simulator declares in turn (player by
//! player from first hand, so that a compulsory one is never refused for coming late).

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::Setup;
use tarot_engine::{random_deal, random_game_from};
use tarot_engine::{replay, Event, GameRecord, Status};

use crate::common::test_rules;

fn rules(edit: Option<(&str, &str)>) -> Ruleset {
    test_rules("declare-in-turn", edit).unwrap_or_else(|e| panic!("{e}"))
}

fn table() -> Vec<String> {
    ["Ann", "Bob", "Cid"].iter().map(|s| s.to_string()).collect()
}

/// A game simulated with Cid dealing, its declarations replaced by `declares` (player, declaration),
/// made in that order before the first card.
fn game(rules: &Ruleset, declares: &[(&str, &str)]) -> GameRecord {
    let setup = Setup::new(rules, 3, &BTreeMap::new()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1783);
    let deal = random_deal(&setup, &table(), 2, &mut rng);
    let mut rec = random_game_from(rules, &table(), 2, deal, &BTreeMap::new(), &mut rng).expect("a game from the deal");
    rec.events.retain(|e| !matches!(e, Event::Declare { .. }));
    let at = rec.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("a card played");
    for (i, (p, d)) in declares.iter().enumerate() {
        rec.events.insert(at + i, Event::Declare { player: (*p).into(), declaration: (*d).into(), cards: vec![] });
    }
    rec
}

#[test]
fn declarations_in_turn_from_first_hand_are_valid() {
    let rules = rules(None);
    // Ann (first hand) passes her turn by declaring nothing; Bob makes both, bow before hail; Cid
    // then hails; the shrug, not in turn, comes where it likes.
    let rec = game(&rules, &[("Cid", "shrug"), ("Bob", "bow"), ("Bob", "hail"), ("Cid", "hail"), ("Ann", "shrug")]);
    let v = replay(&rules, &rec).unwrap();
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
}

#[test]
fn a_declaration_after_one_later_in_turn_breaks_the_rule() {
    let rules = rules(None);
    let rec = game(&rules, &[("Bob", "hail"), ("Ann", "bow")]);
    let v = replay(&rules, &rec).unwrap();
    let x = v.violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.bow.in-turn", "{}", x.message);
    assert_eq!(x.player.as_deref(), Some("Ann"));
    assert!(x.message.contains("out of turn") && x.message.contains("Bob"), "{}", x.message);
    // The dealer, last in turn, may not go first either.
    let x = replay(&rules, &game(&rules, &[("Cid", "hail"), ("Bob", "hail")])).unwrap().violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.hail.in-turn", "{}", x.message);
    assert_eq!(x.player.as_deref(), Some("Bob"));
    // Without `in-turn` on either, the same games are valid: the switch is what orders them.
    let free = self::rules(Some(("  in-turn\n}\n\ndeclaration bow \"bow\" {\n  in-turn\n}", "}\n\ndeclaration bow \"bow\" {\n}")));
    assert_eq!(replay(&free, &rec).unwrap().status, Status::Valid);
}

#[test]
fn a_declaration_not_in_turn_is_not_ordered() {
    let rules = rules(None);
    let rec = game(&rules, &[("Cid", "hail"), ("Ann", "shrug"), ("Bob", "shrug")]);
    assert_eq!(replay(&rules, &rec).unwrap().status, Status::Valid);
}

#[test]
fn the_simulator_declares_in_turn() {
    // The bow compulsory: every player must bow, in turn, whoever hailed before him.
    let rules = rules(Some(("declaration bow \"bow\" {\n  in-turn\n}", "declaration bow \"bow\" {\n  in-turn\n  compulsory\n}")));
    let setup = Setup::new(&rules, 3, &BTreeMap::new()).unwrap();
    let mut ordered = 0;
    for seed in 0..40 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let deal = random_deal(&setup, &table(), 2, &mut rng);
        let rec = random_game_from(&rules, &table(), 2, deal, &BTreeMap::new(), &mut rng).expect("a game");
        let v = replay(&rules, &rec).unwrap();
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let turns: Vec<usize> = rec
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Declare { player, declaration, .. } if &**declaration != "shrug" => Some(["Ann", "Bob", "Cid"].iter().position(|p| **p == **player).unwrap()),
                _ => None,
            })
            .collect();
        assert!(turns.windows(2).all(|w| w[0] <= w[1]), "seed {seed}: {turns:?}");
        let bows = rec.events.iter().filter(|e| matches!(e, Event::Declare { declaration, .. } if &**declaration == "bow")).count();
        assert_eq!(bows, 3, "seed {seed}: every player bows");
        ordered += (turns.len() >= 2 && turns.first() != turns.last()) as usize;
    }
    assert!(ordered > 0, "no simulated game had in-turn declarations by two players");
}

#[test]
fn a_player_passed_over_has_no_in_turn_declaration_open() {
    let rules = rules(None);
    let mut rec = game(&rules, &[("Bob", "hail")]);
    // The game stops right after Bob's hail, before the first card.
    let at = rec.events.iter().position(|e| matches!(e, Event::Declare { .. })).unwrap();
    rec.events.truncate(at + 1);
    let v = replay(&rules, &rec).unwrap();
    assert_eq!(v.status, Status::InProgress, "{}", v.to_text());
    let open: Vec<(String, String)> = v.next.expect("a next move").declarations.iter().map(|d| (d.player.to_string(), d.declaration.clone())).collect();
    let has = |p: &str, d: &str| open.contains(&(p.to_string(), d.to_string()));
    // Ann, before Bob in turn, may no longer hail or bow; she may still shrug (not in turn).
    assert!(!has("Ann", "hail") && !has("Ann", "bow") && has("Ann", "shrug"), "{open:?}");
    // Bob may still bow at his turn, and Cid's turn is to come.
    assert!(has("Bob", "bow") && !has("Bob", "hail") && has("Cid", "hail") && has("Cid", "bow"), "{open:?}");
}
