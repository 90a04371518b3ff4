//! What several test files share: the helpers below, and the second scorers written by hand from
//! each game's sources, one module a game (`use crate::common::fft;` in the test file that uses it).

pub mod cego;
pub mod cego_local;
pub mod cego_twos;
pub mod dreierles;
pub mod dreierles_rauber;
pub mod droggn;
pub mod fft;
pub mod galician;
pub mod grosstarock;
pub mod koenigrufen;
pub mod minchiate;
pub mod point_tarock;
pub mod scarto;
pub mod tapp_tarock;
pub mod tarocchini;
pub mod troccas;
pub mod troggu;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{compile, RuleFile};
use tarot_engine::{illegal_variant, random_game};
use tarot_engine::{replay, Registry, Status};

/// The built-in rulesets and one more, `id`, written as the rule file `rulesets/<id>.tarot`.
pub fn registry_with(id: &str, text: &str) -> Registry {
    let mut files = Registry::builtin_files();
    files.insert(id.into(), RuleFile { path: format!("rulesets/{id}.tarot"), text: text.into() });
    Registry::from_files(files).unwrap_or_else(|e| panic!("{e}"))
}

/// The built-in rulesets with the file of `id` changed by `change`, or the compiler's diagnostics.
pub fn builtin_changed(id: &str, change: impl Fn(&str) -> String) -> Result<Registry, String> {
    let mut files = Registry::builtin_files();
    let file = files.get_mut(id).unwrap_or_else(|| panic!("no built-in ruleset {id}"));
    file.text = change(&file.text);
    Registry::from_files(files).map_err(|e| e.to_string())
}

/// The built-in rulesets and the test rule files `ids` of `engine/tests/rules/`.
pub fn registry_of(ids: &[&str]) -> Registry {
    Registry::from_files(files_with(ids)).unwrap_or_else(|e| panic!("{e}"))
}

/// The test rule file `engine/tests/rules/<id>.tarot`, cited by that path.
pub fn test_file(id: &str) -> RuleFile {
    let path = format!("engine/tests/rules/{id}.tarot");
    let text = std::fs::read_to_string(format!("{}/tests/rules/{id}.tarot", env!("CARGO_MANIFEST_DIR"))).unwrap_or_else(|e| panic!("{path}: {e}"));
    RuleFile { text, path }
}

/// The built-in rule files and the test rule files `ids` of `engine/tests/rules/`.
pub fn files_with(ids: &[&str]) -> BTreeMap<String, RuleFile> {
    let mut files = Registry::builtin_files();
    for id in ids {
        files.insert(id.to_string(), test_file(id));
    }
    files
}

/// `id` compiled over `files`; a diagnostic fails the test.
pub fn compiled(id: &str, files: &BTreeMap<String, RuleFile>) -> Ruleset {
    compile(id, &|id: &str| files.get(id).cloned()).unwrap_or_else(|d| panic!("{d}"))
}

/// `id`, a built-in ruleset or one of the test rule files `with`, compiled over the built-in rule
/// files and those test rule files; a diagnostic fails the test.
pub fn rules(id: &str, with: &[&str]) -> Ruleset {
    compiled(id, &files_with(with))
}

/// Basic Tarot with `play { LINES }` (ruleset `x`), and a seeded game of four played under Basic and
/// recorded under it: for the play's rules that only a game can show to be the ruleset's mistake.
pub fn basic_game_with_play(lines: &str) -> (Ruleset, tarot_engine::GameRecord) {
    let rules = compile_text("x", &format!("ruleset x \"x\"\nextends basic\nplay {{\n{lines}\n}}\n")).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let game = random_game(&self::rules("basic", &[]), 4, &BTreeMap::new(), &mut rng).unwrap();
    (rules, tarot_engine::GameRecord { ruleset: "x".into(), ..game })
}

/// The replay of `game` under `rules` stops on the ruleset's mistake in `rule` (not the record's).
pub fn rules_mistake(rules: &Ruleset, game: &tarot_engine::GameRecord, rule: &str) -> tarot_engine::ReplayError {
    let e = replay(rules, game).unwrap_err();
    let fault = e.ruleset_fault.as_ref().unwrap_or_else(|| panic!("the ruleset's fault, not the record's: {e}"));
    assert_eq!(fault.rule.as_deref(), Some(rule), "{e}");
    e
}

/// The rule file `<id>.tarot` (`text`, which may extend a built-in ruleset) compiled over the
/// built-in files, or its diagnostics.
pub fn compile_text(id: &str, text: &str) -> Result<Ruleset, String> {
    let mut files = Registry::builtin_files();
    files.insert(id.into(), RuleFile { text: text.into(), path: format!("{id}.tarot") });
    compile(id, &|id: &str| files.get(id).cloned()).map_err(|d| d.to_string())
}

/// What the compiler says of the rule file `t.tarot` (`text`): its diagnostics, or nothing when it
/// compiles.
pub fn compile_error(text: &str) -> String {
    compile_text("t", text).err().unwrap_or_default()
}

/// The rule file `engine/tests/rules/<id>.tarot` compiled over the built-in files it extends; `edit`
/// replaces a text that must occur in it exactly once (a test's mutation), or nothing.
pub fn test_rules(id: &str, edit: Option<(&str, &str)>) -> Result<Ruleset, String> {
    let mut file = test_file(id);
    if let Some((find, replace)) = edit {
        assert_eq!(file.text.matches(find).count(), 1, "{find}");
        file.text = file.text.replace(find, replace);
    }
    let mut files = Registry::builtin_files();
    files.insert(id.to_string(), file);
    compile(id, &|id: &str| files.get(id).cloned()).map_err(|d| d.to_string())
}

/// Seeded random games of four (seeds `0..seeds`) under `rules` replay valid, and the illegal
/// variant the simulator makes of each, where it can, is refused at the card it changed: how many
/// variants were refused.
pub fn simulated_games_obey(rules: &Ruleset, seeds: u64) -> usize {
    let mut refused = 0;
    for seed in 0..seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap();
        let v = replay(rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "seed {seed}: {:?}", v.violation);
        if let Some((variant, at)) = illegal_variant(rules, &g, &mut rng) {
            let v = replay(rules, &variant).unwrap();
            assert_eq!((v.status, v.violation.unwrap().event), (Status::Invalid, at), "seed {seed}");
            refused += 1;
        }
    }
    refused
}

/// A card code of a record as the second scorers read it, after each has taken its game's own names
/// (the Fool's `EX`, Minchiate's `STA` ... `TRO`): a trump `T<n>`, or a rank (`K` 14, `Q` 13, `C` 12,
/// `J` 11, else its number) and a suit letter.
pub enum Code {
    Trump(u8),
    Suited(char, u8),
}

/// Reads `code` (upper case), panicking on one that is no card: a record the engine accepted.
pub fn card_code(code: &str) -> Code {
    let bad = || -> u8 { panic!("card {code}") };
    if let Some(n) = code.strip_prefix('T') {
        return Code::Trump(n.parse().unwrap_or_else(|_| bad()));
    }
    let Some(suit) = code.chars().last() else { panic!("an empty card code") };
    let rank = match &code[..code.len() - suit.len_utf8()] {
        "K" => 14,
        "Q" => 13,
        "C" => 12,
        "J" => 11,
        n => n.parse().unwrap_or_else(|_| bad()),
    };
    Code::Suited(suit, rank)
}

/// How many deals (or cases) a test tries: the variable `var` when it is set (`FFT_SCORER_GAMES=5000`
/// and the like, to run more by hand); else `full` at full strength (`TAROT_TESTS=full`, which
/// `scripts/test.sh`, and so CI, sets); else a quarter of it, so that a plain `cargo test` is quick.
pub fn count(var: &str, full: u64) -> u64 {
    count_or(var, full, (full / 4).max(1))
}

/// `count`, where a plain `cargo test` tries `quick`: for a comparison whose rarest cases, which it
/// checks were reached, need more than a quarter of its deals.
pub fn count_or(var: &str, full: u64, quick: u64) -> u64 {
    match number(var) {
        Some(n) => n,
        None if std::env::var("TAROT_TESTS").is_ok_and(|v| v == "full") => full,
        None => quick,
    }
}

/// The first seed a comparison draws from: the variable `var` when it is set (`FFT_SCORER_SEED=7`, to
/// draw other deals by hand), else 0.
pub fn seed(var: &str) -> u64 {
    number(var).unwrap_or(0)
}

/// The whole number the environment variable `var` holds, if any.
pub fn number(var: &str) -> Option<u64> {
    std::env::var(var).ok().and_then(|v| v.parse().ok())
}
