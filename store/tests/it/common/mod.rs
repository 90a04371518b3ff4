//! What the store's tests share: the built-in rulesets, random games, a scratch directory, and the
//! test PostgreSQL cluster.

pub mod postgres;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::simulate::random_game;
use tarot_engine::{Event, GameRecord, Registry};
use tarot_store::NewEvent;

/// A fresh directory under the system's temporary directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// Named after the test, the process and a count: the tests of the binary run side by side in
    /// one process, and none may remove another's directory.
    pub fn new(name: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!("tarot-store-test-{name}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
        let _ = std::fs::remove_dir_all(&path);
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The built-in rulesets, compiled once for the test binary.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::builtin().expect("the built-in rulesets compile"))
}

/// A complete random game (it may end annulled).
pub fn game(ruleset: &str, players: usize, seed: u64) -> GameRecord {
    let rules = registry().get(ruleset).expect("a built-in ruleset");
    random_game(rules, players, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).expect("the simulator plays legal games")
}

/// Events to store, with no client ids.
pub fn without_ids(events: &[Event]) -> Vec<NewEvent> {
    events.iter().map(|event| NewEvent { id: None, event: event.clone() }).collect()
}
