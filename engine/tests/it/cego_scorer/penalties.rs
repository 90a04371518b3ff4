//! The Ministranten's penalties (P "Penalties": "the offender pays 70 points to each other player"; an
//! incorrect discard and a revoke abandon the deal): the engine against the second scorer, which finds
//! the revoke from the hands itself (`common/cego_local.rs`, `Deal`).

use super::Run;
use crate::common::cego;
use crate::common::{count_or, seed};

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game_with, replay, Event, GameRecord, Registry, SimOptions, Status, Q};

/// The game with the declarer's further card of a Legage laid away in two parts forgotten (P: "you
/// forget to discard a further card but lead to the first trick instead"): his second discard made of
/// no card, the deal ending there.
fn forgotten(rec: &GameRecord) -> Option<GameRecord> {
    let second = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Discard { .. })).nth(1)?.0;
    let mut out = rec.clone();
    out.events.truncate(second + 1);
    if let Event::Discard { cards, .. } = &mut out.events[second] {
        cards.clear();
    }
    Some(out)
}

/// Over steered deals of each ruleset with the Ministranten's penalties, each deal also with a revoke
/// put in (the first play at which a defender, or in every other deal the declarer, held a card that
/// revokes, found from the hands by the second scorer) and, where the Legage is laid away in two
/// parts, with its further card forgotten: the engine calls each valid, ended at the fault, and scores
/// it as the second scorer does, the offender paying 70 to each other player. Revokes by the declarer
/// and by a defender, and the discard forgotten, must each be seen.
#[test]
fn the_engine_scores_the_ministranten_penalties_as_the_sources_do() {
    let games = count_or("CEGO_SCORER_GAMES", 600, 600) / 2;
    let base = seed("CEGO_SCORER_SEED") + 5_000_000_000;
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    for id in ["cego-ministranten", "cego-ministranten-3"] {
        let rules = registry.get(id).unwrap();
        let players = rules.players.0;
        let mut run = Run::default();
        for seed in base..base + games {
            let rec = random_game_with(rules, players, &BTreeMap::new(), &SimOptions::steered(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
            let declarer = seed % 2 == 0;
            let mut cases: Vec<(String, GameRecord)> = vec![];
            cases.extend(cego::revoked(&rec, declarer).map(|r| (format!("a revoke by {}", if declarer { "the declarer" } else { "a defender" }), r)));
            cases.extend(forgotten(&rec).map(|r| ("the further card of the Legage forgotten".to_string(), r)));
            for (what, bad) in cases {
                run.games += 1;
                let v = replay(rules, &bad).unwrap();
                assert_eq!(v.status, Status::Valid, "seed {seed}, {what}: {}", v.to_text());
                assert!(v.next.is_none(), "seed {seed}, {what}: the deal goes on");
                let mine = cego::score(&bad);
                *run.tally.entry(what.clone()).or_default() += 1;
                let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
                if mine.penalty.is_none() || engine != mine.balance {
                    run.differences.push(format!(
                        "seed {seed} --steer, {what} ({:?}): engine {:?}, sources {:?}",
                        mine.penalty,
                        engine.values().map(|s| s.to_string()).collect::<Vec<_>>(),
                        mine.balance.values().map(|s| s.to_string()).collect::<Vec<_>>()
                    ));
                }
            }
        }
        let report = format!("{id} penalties: {} deals: {:?}", run.games, run.tally);
        if std::env::var("CEGO_SCORER_REPORT").is_ok() {
            println!("{report}");
        }
        assert!(run.differences.is_empty(), "{} deals scored differently:\n{}", run.differences.len(), run.differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
        for case in ["a revoke by the declarer", "a revoke by a defender", "the further card of the Legage forgotten"] {
            assert!(run.tally.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
        }
    }
}
