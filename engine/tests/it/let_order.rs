//! `let`s worked out in the order of what they read, not of where they are written: a parent's `let`
//! (or score formula) reading a `let` its child adds, a `let` reading one written below it, and a
//! circle of `let`s refused with each named where it is written.

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::{compile, parse_record, replay, Figure, GameRecord, Registry, RuleFile, Q};

/// The built-in rule files and `extra` (id, text), each as `rulesets/<id>.tarot`.
fn files(extra: &[(&str, &str)]) -> BTreeMap<String, RuleFile> {
    let mut files = Registry::builtin_files();
    for (id, text) in extra {
        files.insert(id.to_string(), RuleFile { path: format!("rulesets/{id}.tarot"), text: text.to_string() });
    }
    files
}

fn compiled(id: &str, extra: &[(&str, &str)]) -> Result<tarot_engine::ir::Ruleset, String> {
    let files = files(extra);
    compile(id, &|id: &str| files.get(id).cloned()).map_err(|d| d.to_string())
}

fn child_of_fft(body: &str) -> Result<tarot_engine::ir::Ruleset, String> {
    compiled("x", &[("x", &format!("ruleset x \"x\"\nextends fft-4p\n{body}\n"))])
}

/// A finished game of fft-4p, played under `id`.
fn game(id: &str) -> GameRecord {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/fft-4p/valid/4p-1.json")).unwrap();
    let mut rec = parse_record(&text).unwrap();
    rec.ruleset = id.into();
    rec
}

/// The score's named value `name` in the verdict of `game(id)` under `rules`, and the names in the
/// order the verdict lists them.
fn value(rules: &tarot_engine::ir::Ruleset, name: &str) -> (Figure, Vec<String>) {
    let v = replay(rules, &game(&rules.id)).unwrap_or_else(|e| panic!("{e:?}"));
    let outcome = v.outcome.unwrap_or_else(|| panic!("no outcome: {:?}", v.violation));
    let names = outcome.values.iter().map(|(n, _)| n.to_string()).collect();
    let found = outcome.values.iter().find(|(n, _)| **n == *name).map(|(_, f)| f.clone());
    (found.unwrap_or_else(|| panic!("no value `{name}`")), names)
}

fn num(n: i64) -> Figure {
    Figure::Num(Q::int(n))
}

const PARENT: &str = "ruleset p \"p\"
extends fft-4p
let bonus = 10
let doubled = bonus * 2
score {
  let swing = doubled + 1
  term probe \"probe\" = swing
}
";

#[test]
fn an_inherited_let_reads_a_let_its_child_adds() {
    // The parent alone: 2 * 10 + 1.
    let parent = compiled("p", &[("p", PARENT)]).unwrap();
    assert_eq!(value(&parent, "swing").0, num(21));
    // The child gives `bonus` and `swing` new formulas that read `let`s it adds below them; the
    // parent's `doubled` and `probe`, written before those, read them under the child's formulas.
    let child = "ruleset c \"c\"
extends p
let bonus = step + 1
let step = 4
score {
  let swing = doubled + lift
  let lift = 100
}
";
    let rules = compiled("c", &[("p", PARENT), ("c", child)]).unwrap_or_else(|e| panic!("{e}"));
    let (swing, names) = value(&rules, "swing");
    assert_eq!(swing, num(2 * (4 + 1) + 100));
    // Worked out after what it reads: `lift` before `swing`, which the parent wrote first.
    let at = |n: &str| names.iter().position(|m| m == n).unwrap();
    assert!(at("lift") < at("swing"), "{names:?}");
    let probe = replay(&rules, &game("c")).unwrap().ledger.iter().find(|l| &*l.rule == "score.term.probe").map(|l| l.amount);
    assert_eq!(probe, Some(Q::int(110)));
    let order: Vec<&str> = rules.constants.iter().map(|l| &*l.name).filter(|n| ["bonus", "doubled", "step"].contains(n)).collect();
    assert_eq!(order, ["step", "bonus", "doubled"]);
}

#[test]
fn a_let_may_read_one_written_below_it() {
    let rules = child_of_fft("let b = a + 1\nlet a = 2\nscore {\n  term probe \"probe\" = c\n  let c = b * b\n}").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(value(&rules, "c").0, num(9));
    // `let`s that read only those above them keep the order written: fft-4p's score, unchanged.
    let fft = Registry::builtin().unwrap().get("fft-4p").unwrap().clone();
    let (_, names) = value(&fft, "points");
    let written: Vec<String> = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/fft-4p.tarot"))
        .unwrap()
        .lines()
        .skip_while(|l| !l.starts_with("score {"))
        .filter_map(|l| l.trim_start().strip_prefix("let ").and_then(|l| l.split_whitespace().next()).map(String::from))
        .collect();
    assert_eq!(names, written);
}

#[test]
fn the_reference_example_compiles_and_counts_the_bonus() {
    // grammar/REFERENCE.md §4: the child's `margin`, in fft-4p's place, reads the `bonus` it adds.
    let rules = child_of_fft("score {\n  let margin = abs(points - target) + bonus\n  let bonus = if attack_slam then 10 else 0\n}").unwrap_or_else(|e| panic!("{e}"));
    let fft = Registry::builtin().unwrap().get("fft-4p").unwrap().clone();
    assert_eq!(value(&rules, "margin").0, value(&fft, "margin").0);
    assert_eq!(value(&rules, "bonus").0, num(0));
}

#[test]
fn a_let_reading_one_of_its_own_circle_is_refused_naming_each_where_it_is_written() {
    let e = child_of_fft("let a = b + 1\nlet b = 2 * c\nlet c = a\nscore {\n  term probe \"probe\" = a\n}").unwrap_err();
    assert_eq!(
        e.trim(),
        "rulesets/x.tarot:3:1: these `let`s read one another in a circle, so none of them can be worked out: \
         `a` (rulesets/x.tarot:3) reads `b` (rulesets/x.tarot:4), which reads `c` (rulesets/x.tarot:5), which reads `a`"
    );
    // Across a child and its parent: the parent's `doubled` reads `bonus`, which the child makes read
    // a `let` it adds that reads `doubled`. Told from the first in the merged order (the child's
    // `bonus`, in the parent's place).
    let child = "ruleset c \"c\"\nextends p\nlet bonus = step\nlet step = doubled - 1\n";
    let e = compiled("c", &[("p", PARENT), ("c", child)]).unwrap_err();
    assert_eq!(
        e.trim(),
        "rulesets/c.tarot:3:1: these `let`s read one another in a circle, so none of them can be worked out: \
         `bonus` (rulesets/c.tarot:3) reads `step` (rulesets/c.tarot:4), which reads `doubled` (rulesets/p.tarot:4), which reads `bonus`"
    );
    // In the score.
    let child = "ruleset c \"c\"\nextends p\nscore {\n  let lift = swing\n  let swing = lift + doubled\n}\n";
    let e = compiled("c", &[("p", PARENT), ("c", child)]).unwrap_err();
    assert!(
        e.contains("rulesets/c.tarot:5:3: these `let`s read one another in a circle")
            && e.contains("`swing` (rulesets/c.tarot:5) reads `lift` (rulesets/c.tarot:4), which reads `swing`"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn a_let_reading_itself_is_refused_also_through_a_formula() {
    let e = child_of_fft("let a = a + 1\nscore {\n  term probe \"probe\" = a\n}").unwrap_err();
    assert_eq!(e.trim(), "rulesets/x.tarot:3:1: `a` (rulesets/x.tarot:3) reads itself, so it cannot be worked out: a `let` is worked out from the values it reads");
    let e = child_of_fft("let plus x = x + a\nlet a = plus(1)\nscore {\n  term probe \"probe\" = a\n}").unwrap_err();
    assert!(e.contains("rulesets/x.tarot:4:1: `a` (rulesets/x.tarot:4) reads itself"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn a_comprehension_variable_is_not_a_read_of_the_let_of_its_name() {
    // `b` inside the sum is the sum's own variable: `a` reads `xs`, and `b` reads `a`, no circle.
    let rules = child_of_fft("let xs = [1, 2]\nlet a = sum(b in xs : b)\nlet b = a * 10\nscore {\n  term probe \"probe\" = b\n}").unwrap_or_else(|e| panic!("{e}"));
    let probe = replay(&rules, &game("x")).unwrap().ledger.iter().find(|l| &*l.rule == "score.term.probe").map(|l| l.amount);
    assert_eq!(probe, Some(Q::int(30)));
}
