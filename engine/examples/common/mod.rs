//! What the fixture-writing examples share.

use std::path::Path;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, GameRecord, Status};

/// Writes `rec` to `path` as pretty JSON once it replays valid under `rules`, and prints its verdict.
pub fn write_valid(path: &Path, rec: &GameRecord, rules: &Ruleset) {
    let v = replay(rules, rec).unwrap();
    assert_eq!(v.status, Status::Valid, "{}: {}", path.display(), v.to_text());
    let mut json = serde_json::to_string_pretty(rec).unwrap();
    json.push('\n');
    std::fs::write(path, json).unwrap();
    println!("{}:\n{}", path.display(), v.to_text());
}
