//! A `let` whose formula fails in a game (a division by a count that is 0 there, a trick not
//! played, a value another contract gives) is no error by itself: the game is scored, and the verdict
//! lists only the `let`s that have a value. A formula that is evaluated and reads it fails, naming
//! the `let` and its clause.

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::{compile, parse_record, replay, Figure, GameRecord, Registry, RuleFile, Verdict, Q};

fn child_of_fft(body: &str) -> tarot_engine::ir::Ruleset {
    let mut files: BTreeMap<String, RuleFile> = Registry::builtin_files();
    let text = format!("ruleset x \"x\"\nextends fft-4p\n{body}\n");
    files.insert("x".into(), RuleFile { path: "rulesets/x.tarot".into(), text });
    compile("x", &|id: &str| files.get(id).cloned()).unwrap_or_else(|d| panic!("{d}"))
}

/// A finished fixture of fft-4p, played under `x`: `4p-1` is a garde sans (multiplier 4),
/// `poignee-at-his-turn` a garde (multiplier 2).
fn game(fixture: &str, options: &[(&str, i64)]) -> GameRecord {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../fixtures/fft-4p/valid/{fixture}.json"))).unwrap();
    let mut rec = parse_record(&text).unwrap();
    rec.ruleset = "x".into();
    for (k, v) in options {
        rec.options.insert(k.to_string(), serde_json::json!(v));
    }
    rec
}

const GARDE_SANS: &str = "4p-1";
const GARDE: &str = "poignee-at-his-turn";

fn scored(rules: &tarot_engine::ir::Ruleset, g: &GameRecord) -> Verdict {
    let v = replay(rules, g).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(v.outcome.is_some(), "no outcome: {:?}", v.violation);
    v
}

fn value(v: &Verdict, name: &str) -> Option<Figure> {
    v.outcome.as_ref().unwrap().values.iter().find(|(n, _)| **n == *name).map(|(_, f)| f.clone())
}

fn probe(v: &Verdict) -> Option<Q> {
    v.ledger.iter().find(|l| &*l.rule == "score.term.probe").map(|l| l.amount)
}

/// The ruleset error of a game that does not replay: the rule that fails, where it is written, and
/// why.
fn ruleset_error(rules: &tarot_engine::ir::Ruleset, g: &GameRecord) -> String {
    let e = replay(rules, g).expect_err("a ruleset error");
    let fault = e.ruleset_fault.unwrap_or_else(|| panic!("not the ruleset's fault: {}", e.message));
    format!("{} ({}): {}", fault.rule.unwrap_or_default(), fault.at.unwrap_or_default(), e.message)
}

/// 12 shared among the contract's multiplier less 2: none under a garde; and the opening lead of
/// the trick the multiplier gives (the 19th, not played, under a garde sans).
const SCORE: &str = "score {
  let share = 12 / (contract.multiplier - 2)
  let opening = leading_card(tricks[4 * contract.multiplier + 2])
  term probe \"probe\" = PROBE
}";

fn with_probe(formula: &str) -> tarot_engine::ir::Ruleset {
    child_of_fft(&SCORE.replace("PROBE", formula))
}

#[test]
fn a_score_let_that_fails_where_nothing_reads_it_is_no_error() {
    let rules = with_probe("if contract.multiplier == 2 then points_of(opening) else share");
    let sans = scored(&rules, &game(GARDE_SANS, &[]));
    assert_eq!(probe(&sans), Some(Q::int(6)));
    assert_eq!(value(&sans, "share"), Some(Figure::Num(Q::int(6))));
    // Under the garde sans the 19th trick is not played: `opening` has no value and is not listed.
    assert_eq!(value(&sans, "opening"), None);
    let garde = scored(&rules, &game(GARDE, &[]));
    assert!(probe(&garde).is_some());
    assert_eq!(value(&garde, "share"), None);
    assert!(matches!(value(&garde, "opening"), Some(Figure::List(l)) if l.len() == 1));
    // The other values are there, in their order.
    let names: Vec<String> = garde.outcome.as_ref().unwrap().values.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(names.first().map(String::as_str), Some("points"));
    assert_eq!(names.last().map(String::as_str), Some("opening"));
    // The rest of the verdict is fft-4p's.
    let fft = Registry::builtin().unwrap().get("fft-4p").unwrap().clone();
    let mut plain = game(GARDE, &[]);
    plain.ruleset = "fft-4p".into();
    let plain = scored(&fft, &plain);
    let contract = |v: &Verdict| v.ledger.iter().find(|l| &*l.rule == "score.term.contract").map(|l| l.amount);
    assert_eq!(contract(&garde), contract(&plain));
}

#[test]
fn the_reference_example_scores_every_contract() {
    // grammar/REFERENCE.md §2, the score's `let`: `share` read only where the contract is no garde.
    let rules = child_of_fft("score {\n  let share = 12 / (contract.multiplier - 2)\n  term probe \"probe\" = if contract.multiplier == 2 then 0 else share\n}");
    assert_eq!(probe(&scored(&rules, &game(GARDE, &[]))), Some(Q::ZERO));
    assert_eq!(probe(&scored(&rules, &game(GARDE_SANS, &[]))), Some(Q::int(6)));
}

#[test]
fn a_score_let_read_where_it_fails_is_a_ruleset_error_naming_it() {
    let rules = with_probe("share");
    assert_eq!(probe(&scored(&rules, &game(GARDE_SANS, &[]))), Some(Q::int(6)));
    let e = ruleset_error(&rules, &game(GARDE, &[]));
    assert_eq!(e, "score.term.probe (rulesets/x.tarot:6): `share` (score.share, rulesets/x.tarot:4) has no value in this game: division by zero (12 / 0)");
    let rules = with_probe("points_of(opening)");
    let e = ruleset_error(&rules, &game(GARDE_SANS, &[]));
    assert_eq!(e, "score.term.probe (rulesets/x.tarot:6): `opening` (score.opening, rulesets/x.tarot:5) has no value in this game: index 18 is outside a list of 18");
    // Read through another `let`: that one fails too, and the message goes back to the first, the
    // chain said once.
    let rules = child_of_fft(&SCORE.replace("PROBE", "half").replace("  term", "  let half = share / 2\n  term"));
    let e = ruleset_error(&rules, &game(GARDE, &[]));
    assert_eq!(
        e,
        "score.term.probe (rulesets/x.tarot:7): `half` (score.half, rulesets/x.tarot:6) has no value in this game: it reads `share` (score.share, rulesets/x.tarot:4), which has none: division by zero (12 / 0)"
    );
    let rules = child_of_fft(&SCORE.replace("PROBE", "quarter").replace("  term", "  let half = share / 2\n  let quarter = half / 2\n  term"));
    let e = ruleset_error(&rules, &game(GARDE, &[]));
    assert_eq!(
        e,
        "score.term.probe (rulesets/x.tarot:8): `quarter` (score.quarter, rulesets/x.tarot:7) has no value in this game: it reads `half` (score.half, rulesets/x.tarot:6), which reads `share` (score.share, rulesets/x.tarot:4), which has none: division by zero (12 / 0)"
    );
    // A `note` that reads it fails alike.
    let rules = child_of_fft(&SCORE.replace("PROBE", "0").replace("  term", "  note \"shared\" = share > 1\n  term"));
    let e = ruleset_error(&rules, &game(GARDE, &[]));
    assert!(e.starts_with("score.note.1 (rulesets/x.tarot:6): `share` (score.share, rulesets/x.tarot:4)"), "{e}");
}

#[test]
fn a_per_player_let_that_fails_is_no_error_unless_read() {
    // Each player's points shared as above; read by `winner` only where the contract is not a garde.
    let body = "score {
  let mine = points(player) / (contract.multiplier - 2)
  winner = if contract.multiplier == 2 then player == taker else mine > 0
}";
    let rules = child_of_fft(body);
    let sans = scored(&rules, &game(GARDE_SANS, &[]));
    assert!(matches!(value(&sans, "mine"), Some(Figure::List(l)) if l.len() == 4));
    let garde = scored(&rules, &game(GARDE, &[]));
    assert_eq!(value(&garde, "mine"), None);
    assert_eq!(garde.outcome.as_ref().unwrap().players.iter().filter(|p| p.winner).count(), 1);
    let rules = child_of_fft(&body.replace("if contract.multiplier == 2 then player == taker else mine > 0", "mine > 0"));
    let e = ruleset_error(&rules, &game(GARDE, &[]));
    assert!(e.starts_with("score.winner (rulesets/x.tarot:5): `mine` (score.mine, rulesets/x.tarot:4) has no value for Ann in this game: division by zero"), "{e}");
}

#[test]
fn a_top_level_let_that_fails_at_the_table_is_no_error_unless_read() {
    // 12 shared by the option less 1: none with the option's first choice.
    let body = "option split \"s\" = [1, 3]
let share = 12 / (option.split - 1)
score {
  term probe \"probe\" = PROBE
}";
    let rules = child_of_fft(&body.replace("PROBE", "if option.split == 1 then 0 else share"));
    assert_eq!(probe(&scored(&rules, &game(GARDE, &[]))), Some(Q::ZERO));
    assert_eq!(probe(&scored(&rules, &game(GARDE, &[("split", 3)]))), Some(Q::int(6)));
    let rules = child_of_fft(&body.replace("PROBE", "share"));
    assert_eq!(probe(&scored(&rules, &game(GARDE, &[("split", 3)]))), Some(Q::int(6)));
    let e = ruleset_error(&rules, &game(GARDE, &[]));
    assert_eq!(e, "score.term.probe (rulesets/x.tarot:6): `share` (let.share, rulesets/x.tarot:4) has no value in this game: division by zero (12 / 0)");
}
