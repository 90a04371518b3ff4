//! What the store's tests share: the built-in rulesets (compiled once, `tarot_testkit::registry`),
//! random games, a scratch directory, and the test PostgreSQL cluster (`tarot_testkit::postgres`).

pub use tarot_testkit::{postgres, registry, TempDir};

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::random_game;
use tarot_engine::{Event, GameRecord};
use tarot_store::NewEvent;

/// A complete random game (it may end annulled).
pub fn game(ruleset: &str, players: usize, seed: u64) -> GameRecord {
    let rules = registry().get(ruleset).expect("a built-in ruleset");
    random_game(rules, players, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).expect("the simulator plays legal games")
}

/// Events to store, with no client ids.
pub fn without_ids(events: &[Event]) -> Vec<NewEvent> {
    events.iter().map(|event| NewEvent { id: None, event: event.clone() }).collect()
}
