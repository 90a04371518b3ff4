//! Writes the worked fixtures of `point-tarock` (fixtures/point-tarock/valid/): the source's example,
//! "with 50" announced and 46 card points made (HT §3.8: the 50 lost, the 45 and the 40 won, 1 to each
//! defender for the announcement), each contract with an announcement, and a Kontra on a level. Every
//! game is a seeded simulated game found by search, so the fixtures are reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- point_tarock_fixtures
//!
//! The simulated fixtures of the ruleset (two valid games, one invalid game per rule the simulator can
//! break, malformed records) come from `make_fixtures only point-tarock`.

use crate::common;

use common::write;

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Registry, Status};

const ID: &str = "point-tarock";

fn declared(rec: &GameRecord, name: &str) -> bool {
    rec.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if declaration.as_str() == name))
}

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("point-tarock is built in");
    let root = common::fixtures().join(ID);
    type Want = fn(&GameRecord, i64) -> bool;
    let cases: [(&str, &str, Want, &str); 5] = [
        ("worked-mit50-46", "three", |r, p| declared(r, "mit50") && p == 46, "The source's example (HT §3.8): 'with 50' announced and 46 card points made: the 50 lost (-10), the 45 and the 40 won (+6, +3), the announcement 1 to each defender, beside the Three won (+3)"),
        ("unterer-with-40", "unterer", |r, _| declared(r, "mit40"), "A Lower (4) with 'with 40' announced"),
        ("oberer-with-55", "oberer", |r, _| declared(r, "mit55"), "An Upper (5) with 'with 55' announced"),
        ("solo-with-45", "solo", |r, _| declared(r, "mit45"), "A Solo with 'with 45' announced"),
        ("kontra-on-a-level", "three", |r, _| r.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if declaration.starts_with("kontra4") || declaration.starts_with("kontra5"))), "A Three with a Kontra on a level of the announcement, that level doubled alone"),
    ];
    for (name, contract, want, what) in cases {
        let sim = SimOptions { contract: ContractChoice::Only(contract.into()), ..SimOptions::steered() };
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut found = None;
        for seed in 0..20_000u64 {
            let Ok(rec) = random_game_with(rules, 3, &BTreeMap::new(), &sim, &mut rng) else { continue };
            let v = replay(rules, &rec).expect("replayable");
            let Some(o) = v.outcome.as_ref().filter(|_| v.status == Status::Valid) else { continue };
            let taker = o.taker.as_deref();
            let points = o.players.iter().find(|p| Some(&*p.player) == taker).map(|p| p.card_points);
            let Some(points) = points.filter(|q| q.is_integer()).map(|q| q.numer()) else { continue };
            if o.contract.as_deref() == Some(contract) && want(&rec, points) {
                found = Some((seed, rec));
                break;
            }
        }
        let Some((seed, mut rec)) = found else {
            eprintln!("{name}: not found in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed 42 of `point_tarock_fixtures`"));
        write(&root.join("valid").join(format!("{name}.json")), &rec);
    }
    invalid(rules, &root);
}

/// The step the simulator does not break, broken by one edit of a valid game found above: a Three
/// outbid by the Upper, skipping the Lower ("except for the Solo, the contracts must be bid in ascending
/// order", HT §3.8).
fn invalid(rules: &tarot_engine::ir::Ruleset, root: &Path) {
    let text = std::fs::read_to_string(root.join("valid/unterer-with-40.json")).expect("written above");
    let mut rec: GameRecord = serde_json::from_str(&text).expect("a record");
    let three = rec.events.iter().position(|e| matches!(e, Event::Bid { bid, .. } if bid.as_str() == "three"));
    let Some(lower) = three.and_then(|t| rec.events.iter().skip(t).position(|e| matches!(e, Event::Bid { bid, .. } if bid.as_str() == "unterer")).map(|i| i + t)) else {
        eprintln!("bidding.step: the Lower game has no Three outbid by a Lower");
        return;
    };
    if let Event::Bid { bid, .. } = &mut rec.events[lower] {
        *bid = "oberer".into();
    }
    let rule = "bidding.step";
    let v = replay(rules, &rec).expect("replayable");
    let broken = v.violation.as_ref().map(|x| x.rule.to_string());
    if broken.as_deref() != Some(rule) {
        eprintln!("{rule}: the edit breaks {broken:?} instead");
        return;
    }
    rec.description = Some(format!("Breaks {rule}: a Three outbid by the Upper, skipping the Lower (HT 3.8: in ascending order but for the Solo)"));
    write(&root.join("invalid").join(format!("{rule}.json")), &rec);
}
