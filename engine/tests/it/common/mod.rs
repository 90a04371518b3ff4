//! What several test files share: the helpers below, and the second scorers written by hand from
//! each game's sources, one module a game (`use crate::common::fft;` in the test file that uses it).

pub mod droggn;
pub mod fft;
pub mod galician;
pub mod grosstarock;
pub mod koenigrufen;
pub mod minchiate;
pub mod scarto;
pub mod tapp_tarock;
pub mod tarocchini;
pub mod troccas;
pub mod troggu;

use tarot_engine::dsl::{compile, RuleFile};
use tarot_engine::ir::Ruleset;
use tarot_engine::Registry;

/// The built-in rulesets and one more, `id`, written as the rule file `rulesets/<id>.tarot`.
pub fn registry_with(id: &str, text: &str) -> Registry {
    let mut files = Registry::builtin_files();
    files.insert(id.into(), RuleFile { path: format!("rulesets/{id}.tarot"), text: text.into() });
    Registry::from_files(files).unwrap_or_else(|e| panic!("{e}"))
}

/// The rule file `engine/tests/rules/<id>.tarot` compiled over the built-in files it extends; `edit`
/// replaces a text that must occur in it exactly once (a test's mutation), or nothing.
pub fn test_rules(id: &str, edit: Option<(&str, &str)>) -> Result<Ruleset, String> {
    let mut files = Registry::builtin_files();
    let path = format!("engine/tests/rules/{id}.tarot");
    let mut text = std::fs::read_to_string(format!("{}/tests/rules/{id}.tarot", env!("CARGO_MANIFEST_DIR"))).unwrap_or_else(|e| panic!("{path}: {e}"));
    if let Some((find, replace)) = edit {
        assert_eq!(text.matches(find).count(), 1, "{find}");
        text = text.replace(find, replace);
    }
    files.insert(id.to_string(), RuleFile { text, path });
    compile(id, &|id: &str| files.get(id).cloned()).map_err(|d| d.to_string())
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
