//! What several test files share.

use tarot_engine::dsl::RuleFile;
use tarot_engine::Registry;

/// The built-in rulesets and one more, `id`, written as the rule file `rulesets/<id>.tarot`.
pub fn registry_with(id: &str, text: &str) -> Registry {
    let mut files = Registry::builtin_files();
    files.insert(id.into(), RuleFile { path: format!("rulesets/{id}.tarot"), text: text.into() });
    Registry::from_files(files).unwrap_or_else(|e| panic!("{e}"))
}
