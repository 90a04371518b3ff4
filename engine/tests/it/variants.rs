//! What the variants change, checked on replayed games: each test finds games (seeded random legal
//! games) that show the rule, and checks the verdict follows it.
//!
//! A file of `variants/` for each kind of rule (the deal, the bidding, the declarations, the play,
//! the Fool, the scoring), sharing the helpers below as `super::...`.

use std::collections::BTreeMap;
use tarot_testkit::registry;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, GameRecord, Status, Verdict};

/// A built-in ruleset, the rule files compiled once for all the tests.
fn ruleset(id: &str) -> &'static Ruleset {
    registry().get(id).unwrap_or_else(|| panic!("no ruleset {id}"))
}

fn value(v: &Verdict, name: &str) -> serde_json::Value {
    v.outcome.as_ref().and_then(|o| o.value(name)).unwrap_or_default()
}

/// Seeded random games of a built-in ruleset, with the given options, one after another.
fn records(id: &str, players: usize, options: BTreeMap<String, serde_json::Value>, seed: u64) -> impl Iterator<Item = GameRecord> {
    let rules = ruleset(id);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    std::iter::repeat_with(move || random_game(rules, players, &options, &mut rng).unwrap())
}

/// The verdicts of the valid finished games among `count` random games of a ruleset.
fn games(id: &str, players: usize, options: BTreeMap<String, serde_json::Value>, count: usize) -> Vec<Verdict> {
    let verdicts = records(id, players, options, 3).take(count).map(|g| replay(ruleset(id), &g).unwrap());
    // The simulator plays legal moves only: a game ends valid or annulled.
    verdicts.inspect(|v| assert_ne!(v.status, Status::Invalid, "{:?}", v.violation)).filter(|v| v.status == Status::Valid).collect()
}

fn opts(pairs: &[(&str, serde_json::Value)]) -> BTreeMap<String, serde_json::Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

mod bidding;
mod deal;
mod declarations;
mod fool;
mod play;
mod scoring;
