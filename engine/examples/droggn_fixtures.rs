//! Writes the fixtures of `droggn` that need an option the simulator's command line cannot give
//! (fixtures/droggn/valid/): the Gstieß as the top trump (option gstiess = top-trump, W's infobox),
//! taking a trick above the XXI. Each is a seeded simulated game found by search, so it is
//! reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- droggn_fixtures

use crate::common;

use common::write;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Registry, Status};

const ID: &str = "droggn";

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("droggn is built in");
    let root = common::fixtures().join(ID);
    let top = BTreeMap::from([("gstiess".to_string(), serde_json::json!("top-trump"))]);
    let sim = SimOptions { contract: ContractChoice::Only("simple".into()), ..SimOptions::steered() };
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    for seed in 0..20_000u64 {
        let Ok(mut rec) = random_game_with(rules, 3, &top, &sim, &mut rng) else { continue };
        let v = replay(rules, &rec).expect("replayable");
        if v.status != Status::Valid {
            continue;
        }
        // The Gstieß (T22) wins the trick it is played to, over the XXI played to the same trick.
        let wins = v.tricks.iter().any(|t| {
            let cards: Vec<String> = t.cards.iter().map(|c| c.to_string()).collect();
            cards.iter().any(|c| c == "T22") && cards.iter().any(|c| c == "T21")
        });
        if wins {
            rec.description = Some(format!(
                "The Gstieß as the top trump (option gstiess = top-trump, W's infobox; PW plays it as the Excuse): it takes the XXI (the Mond) in one trick: game {seed} of seed 42 of `droggn_fixtures`"
            ));
            write(&root.join("valid").join("gstiess-top-trump.json"), &rec);
            return;
        }
    }
    eprintln!("gstiess-top-trump: not found in 20000 games");
}
