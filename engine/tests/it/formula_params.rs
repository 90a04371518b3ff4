//! Formulas with parameters (`let NAME PARAM... = formula`), on the test rule file
//! `tests/rules/formula-params.tarot`: one formula values a declaration's show (`shown`) and, in the
//! score, the cards a player took; every verdict equals that of the same rules written out
//! (`tests/rules/formula-params-inline.tarot`). Tarocchini's accuso and the dealer's call-out share
//! their value formula so (rulesets/tarocchini.tarot).

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::random_game;
use tarot_engine::{replay, Event};

#[test]
fn a_formula_called_gives_the_verdicts_of_the_formula_written_out() {
    let with = common::test_rules("formula-params", None).unwrap_or_else(|e| panic!("{e}"));
    let inline = common::test_rules("formula-params-inline", None).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut shows, mut counted) = (0, 0);
    for players in [3, 4, 5] {
        for _ in 0..25 {
            let rec = random_game(&with, players, &BTreeMap::new(), &mut rng).unwrap();
            let a = replay(&with, &rec).unwrap();
            let mut other = rec.clone();
            other.ruleset = "formula-params-inline".into();
            let b = replay(&inline, &other).unwrap();
            assert_eq!(a.status, b.status);
            assert_eq!(a.to_text().replace("formula-params ", "formula-params-inline "), b.to_text());
            shows += rec.events.iter().filter(|e| matches!(e, Event::Declare { .. })).count();
            // A player's score beyond his card points: the formula counted his cards.
            counted += a.outcome.iter().flat_map(|o| o.players.iter()).filter(|s| s.score != s.card_points).count();
        }
    }
    assert!(shows > 0 && counted > 0, "the games exercise the formula: {shows} shows, {counted} scores");
}

#[test]
fn a_formula_is_refused_where_it_cannot_mean_one_thing() {
    let refused = |find: &str, replace: &str, why: &str| {
        let e = common::test_rules("formula-params", Some((find, replace))).err().unwrap_or_else(|| panic!("{replace}: compiled"));
        assert!(e.contains(why), "{replace}: {e}");
    };
    refused("value = sets_value(shown)", "value = sets_value(shown, hand)", "`sets_value` takes 1 argument(s) (cards), not 2");
    refused("let twice x = 2 * x", "let twice x = 2 * twice(x)", "`twice` calls itself");
    refused("let twice x = 2 * x", "let twice x = 2 * x\nlet thrice x = 3 * x", "no formula calls `thrice`");
    refused("let twice x = 2 * x", "let twice x x = 2 * x", "`x` is not a parameter name");
    refused("let twice x = 2 * x", "let kings x = 2 * x", "`kings` is already the name");
    // A parameter the formula never reads (here hidden by its own comprehension variable): the
    // argument would be dropped.
    refused("let twice x = 2 * x", "let twice x = 2 * 3", "`x` is a parameter of `twice` that its formula never reads");
    refused("let twice x = 2 * x", "let twice x = sum(x in [1, 2] : x)", "`x` is a parameter of `twice` that its formula never reads");
    // Compiled where it is called: `shown` is known in a declaration, not in the score.
    refused("let twice x = 2 * x", "let twice x = 2 * x + count(shown)", "`shown` is not known per player");
    refused("let twice x = 2 * x", "let twice x = 2 * x + count(shown)", "`twice` cannot be worked out where it is called here");
}

#[test]
fn a_mistake_in_a_formula_is_reported_where_it_is_written_and_once() {
    // The diagnostics of the file changed so, one a line.
    let errors = |find: &str, replace: &str| -> Vec<String> {
        let e = common::test_rules("formula-params", Some((find, replace))).err().unwrap_or_else(|| panic!("{replace}: compiled"));
        e.lines().map(String::from).collect()
    };
    const FILE: &str = "engine/tests/rules/formula-params.tarot";
    // A part of the formula that fails whatever the game: at the formula's line (12), not at the
    // score's `standing` that calls it (line 22), and nothing at the caller.
    let e = errors("let twice x = 2 * x", "let twice x = 2 * x + (\"a\" + 1)");
    assert_eq!(e, [format!("{FILE}:12:24: this formula cannot be evaluated, whatever the game: expected a number, found a text")]);
    // The only call's argument fails: that error alone, not a second saying the parameter is never read.
    let e = errors("twice(sets_value(pile(p)))", "twice(sets_value(pile(q)))");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with(&format!("{FILE}:22:")) && e[0].contains("`q` is not defined"), "{e:?}");
    // The only caller fails before its formula is reached: that error alone, not "no formula calls `twice`".
    let e = errors("sum(p in players where p == player : twice", "avg(p in players where p == player : twice");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("`avg` cannot go through a set"), "{e:?}");
    // A formula refused for its name: its body is never compiled, and what it calls is not unread.
    let e = errors("let twice x = 2 * x", "let twice x = 2 * x\nlet half y = y / 2\nlet kings y = half(y)");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("`kings` is already the name"), "{e:?}");
    // A formula that nothing calls is still reported; what only it calls is not, its error being that one.
    let e = errors("let twice x = 2 * x", "let twice x = 2 * x\nlet thrice y = 3 * once(y)\nlet once z = z");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("no formula calls `thrice`"), "{e:?}");
}
