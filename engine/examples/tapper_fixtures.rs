//! Writes the fixtures of ATT1821 §19 in `tapp-tarock-1821` (a forehand who said Tapper may not then
//! play a Solo himself): a valid game in which forehand says Tapper and another player wins with a
//! Solo, and on the same deal, an auction in which forehand, his Tapper outbid by a Three, bids the
//! Solo himself (invalid: `bidding.contract.solo.by`). The valid game is the first seeded simulated
//! game found with that auction, so the fixtures are reproducible:
//!
//!     cargo run -p tarot-engine --example tapper_fixtures

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::simulate::random_game;
use tarot_engine::{replay, Event, GameRecord, Registry, Status};

const ID: &str = "tapp-tarock-1821";

fn bids(g: &GameRecord) -> Vec<(String, String)> {
    g.events.iter().filter_map(|e| if let Event::Bid { player, bid } = e { Some((player.to_string(), bid.to_string())) } else { None }).collect()
}

fn write(path: &Path, rec: &GameRecord) {
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable fixtures folder");
    std::fs::write(path, serde_json::to_string_pretty(rec).expect("serializable") + "\n").expect("writable fixture");
}

fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("built-in ruleset");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(ID);
    let none = BTreeMap::new();
    for seed in 0..20_000u64 {
        let mut g = random_game(rules, 3, &none, &mut ChaCha8Rng::seed_from_u64(seed)).expect("a game");
        let b = bids(&g);
        let forehand = b.first().map(|(p, _)| p.clone()).unwrap_or_default();
        let anothers_solo = b.iter().any(|(p, c)| *p != forehand && c == "solo");
        if b.first().map(|(_, c)| c.as_str()) != Some("tapp") || !anothers_solo || replay(rules, &g).expect("replayable").status != Status::Valid {
            continue;
        }
        let solo = b.iter().find(|(_, c)| c == "solo").map(|(p, _)| p.clone()).unwrap_or_default();
        g.description = Some(format!(
            "ATT1821 §19 (HT): forehand {forehand} says Tapper, and {solo}, who did not, bids and plays a Solo; seed {seed} of `tapper_fixtures`, the first simulated game with that auction"
        ));
        write(&dir.join("valid/tapper-then-anothers-solo.json"), &g);
        // The same deal: forehand's Tapper, a Three, a pass, and forehand's own Solo, each said by
        // whoever the verdict says speaks next.
        let mut bad = g.clone();
        bad.events.truncate(1);
        let mut said = vec![];
        for bid in ["tapp", "three", "pass", "solo"] {
            let who = replay(rules, &bad).expect("replayable").next.expect("someone to bid").player.to_string();
            said.push(who.clone());
            bad.events.push(Event::Bid { player: who.as_str().into(), bid: bid.into() });
        }
        assert!(said[0] == forehand && said[3] == forehand, "{said:?}");
        bad.description = Some(format!(
            "Breaks bidding.contract.solo.by: forehand {} says Tapper, {} outbids him with a Three, {} passes, and {} bids a Solo himself, which ATT1821 §19 (HT) forbids; the deal of seed {seed} of `tapper_fixtures`",
            said[0], said[1], said[2], said[3]
        ));
        let v = replay(rules, &bad).expect("replayable");
        assert_eq!(v.violation.as_ref().map(|x| x.rule.to_string()).as_deref(), Some("bidding.contract.solo.by"), "{:?}", v.status);
        write(&dir.join("invalid/bidding.contract.solo.by.json"), &bad);
        println!("seed {seed}: forehand {forehand}, Solo by {solo}");
        return;
    }
    panic!("no simulated game with forehand's Tapper and another's Solo");
}
