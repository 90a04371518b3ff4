//! Any text as a rule file extending fft-4p: the compiler answers with the rules or a diagnostic,
//! and the rules it accepts describe themselves without crashing. Seed corpus: the built-in rule files
//! (`cp ../rulesets/*.tarot corpus/compile/`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tarot_engine::{compile, RuleFile};
use tarot_engine::Registry;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut files = Registry::builtin_files();
    files.insert("fuzz".into(), RuleFile { path: "fuzz.tarot".into(), text: format!("ruleset fuzz \"fuzz\"\nextends fft-4p\n{text}") });
    if let Ok(rules) = compile("fuzz", &|id: &str| files.get(id).cloned()) {
        let _ = tarot_engine::describe(&rules, &Default::default());
    }
});
