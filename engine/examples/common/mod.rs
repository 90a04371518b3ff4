//! What the fixture-writing examples share (each uses what it needs of it).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, replay, GameRecord, SimOptions, Status, Verdict};

/// Writes `rec` to `path` as pretty JSON once it replays valid under `rules`, and prints its verdict.
pub fn write_valid(path: &Path, rec: &GameRecord, rules: &Ruleset) {
    let v = replay(rules, rec).unwrap();
    assert_eq!(v.status, Status::Valid, "{}: {}", path.display(), v.to_text());
    write(path, rec);
    println!("{}:\n{}", path.display(), v.to_text());
}

/// Writes `rec` to `path` as pretty JSON, as the fixtures are stored (its folder made if need be).
pub fn write(path: &Path, rec: &GameRecord) {
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable fixtures folder");
    std::fs::write(path, serde_json::to_string_pretty(rec).expect("serializable") + "\n").expect("writable fixture");
}

/// The fixtures folder an example writes into: `TAROT_FIXTURES` when it is set (the generators' drift
/// check, `scripts/check_generators.sh`, has them write into a copy), else the repository's `fixtures/`.
pub fn fixtures() -> PathBuf {
    std::env::var_os("TAROT_FIXTURES").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"))
}

/// The first of `tries` games simulated in turn from `seed0` (one generator for them all) that replays
/// valid and that `want` maps to something: its number in the run, and what `want` made of it.
pub fn find_game<T>(
    rules: &Ruleset,
    players: usize,
    options: &BTreeMap<String, serde_json::Value>,
    sim: &SimOptions,
    (seed0, tries): (u64, u64),
    mut want: impl FnMut(GameRecord, Verdict) -> Option<T>,
) -> Option<(u64, T)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed0);
    (0..tries).find_map(|n| {
        let rec = random_game_with(rules, players, options, sim, &mut rng).ok()?;
        let v = replay(rules, &rec).expect("replayable");
        if v.status != Status::Valid {
            return None;
        }
        want(rec, v).map(|t| (n, t))
    })
}
