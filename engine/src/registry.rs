//! The rulesets the archive knows: the files under `rulesets/`, built into the binary, each compiled
//! once. A directory can be given instead, so a rules author can try a file without rebuilding.

use std::collections::BTreeMap;
use std::path::Path;

use crate::dsl::{compile, Diagnostic, Diagnostics, Pos, RuleFile};
use crate::ir::Ruleset;

/// The rule files compiled into the binary, by id (the file name without `.tarot`).
const BUILT_IN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/rulesets.rs"));

pub struct Registry {
    rulesets: BTreeMap<String, Ruleset>,
}

impl Registry {
    /// The built-in rulesets. They are checked by the test suite, so a failure here is a bug.
    pub fn builtin() -> Result<Registry, Diagnostics> {
        Registry::from_files(Registry::builtin_files())
    }

    /// The built-in rule files by id, to compile with others beside them (`from_files`).
    pub fn builtin_files() -> BTreeMap<String, RuleFile> {
        BUILT_IN.iter().map(|(id, text)| (id.to_string(), RuleFile { path: format!("rulesets/{id}.tarot"), text: text.to_string() })).collect()
    }

    /// Every `*.tarot` file of a directory.
    pub fn from_dir(dir: &Path) -> Result<Registry, String> {
        let mut files = BTreeMap::new();
        // Files that are not UTF-8 text, each reported where its first bad byte is.
        let mut not_text = vec![];
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("tarot") {
                continue;
            }
            let id = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            match String::from_utf8(bytes) {
                Ok(text) => {
                    files.insert(id, RuleFile { path: path.display().to_string(), text });
                }
                Err(e) => not_text.push(not_utf8(&path.display().to_string(), e.as_bytes(), e.utf8_error().valid_up_to())),
            }
        }
        match (Registry::from_files(files), not_text.is_empty()) {
            (Ok(r), true) => Ok(r),
            (Ok(_), false) => Err(Diagnostics(not_text).to_string()),
            (Err(mut d), _) => {
                d.0.extend(not_text);
                Err(d.to_string())
            }
        }
    }

    /// Compiles every file; all diagnostics of all files are returned together.
    pub fn from_files(files: BTreeMap<String, RuleFile>) -> Result<Registry, Diagnostics> {
        let mut rulesets = BTreeMap::new();
        let mut errors = vec![];
        for id in files.keys() {
            match compile(id, &|want| files.get(want).cloned()) {
                Ok(r) => {
                    rulesets.insert(id.clone(), r);
                }
                Err(d) => errors.extend(d.0),
            }
        }
        if errors.is_empty() {
            Ok(Registry { rulesets })
        } else {
            errors.dedup();
            Err(Diagnostics(errors))
        }
    }

    pub fn get(&self, id: &str) -> Option<&Ruleset> {
        self.rulesets.get(id)
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.rulesets.keys().map(|s| s.as_str())
    }

    pub fn all(&self) -> impl Iterator<Item = &Ruleset> {
        self.rulesets.values()
    }
}

/// Where the first byte that is not UTF-8 sits in a rule file, as a diagnostic.
fn not_utf8(path: &str, bytes: &[u8], at: usize) -> Diagnostic {
    let before = &bytes[..at];
    let line = before.iter().filter(|b| **b == b'\n').count() as u32 + 1;
    let line_start = before.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let col = String::from_utf8_lossy(&before[line_start..]).chars().count() as u32 + 1;
    Diagnostic {
        file: path.to_string(),
        pos: Pos { line, col },
        message: format!("byte 0x{:02X} is not UTF-8 text; rule files are written in UTF-8 (save the file as UTF-8)", bytes[at]),
    }
}
