//! The engine's Point Tarock scores against a second scorer written from the sources
//! (`common/point_tarock.rs`: the Tapp Tarock scorer, Point being "identical to Tapp", with Beck's
//! Lower and Upper and his point announcement of 40, 45, 50 or 55, each level settled and doubled on
//! its own), over simulated deals of `point-tarock`, unsteered and steered. Each player's score and the
//! declarer's card points are compared; each deal is simulated from its own seed, so a difference names
//! the seed that reproduces it (`tarot-archive simulate --ruleset point-tarock --games 1 --seed S
//! [--steer] --out DIR`).
//!
//! `POINT_TAROCK_SCORER_GAMES` sets the number of steered deals (default 2,000; a quarter as many
//! unsteered), and `POINT_TAROCK_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::{point_tarock, tapp_tarock};
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::count;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Status};

#[derive(Default)]
struct Run {
    games: u64,
    annulled: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("point-tarock").unwrap();
    let steer = if *sim == SimOptions::default() { "" } else { " --steer" };
    for seed in seeds {
        let rec = random_game_with(rules, 3, &BTreeMap::new(), sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        if v.status == Status::Annulled {
            run.annulled += 1;
            continue;
        }
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let (mine, target) = point_tarock::score(&rec, false);
        let mut add = |k: String| *run.tally.entry(k).or_default() += 1;
        add(format!("{} {}", mine.contract, if mine.made { "made" } else { "lost" }));
        if target > 0 {
            add(format!("with {target} {}", if mine.points >= target { "reached" } else { "missed" }));
            for &(level, _) in point_tarock::LEVELS.iter().filter(|&&(l, _)| l < target) {
                if mine.points < level {
                    add(format!("with {target} announced, {level} missed"));
                }
            }
        }
        for d in mine.point_declarations.iter().filter(|d| d.starts_with("kontra")) {
            add(format!("Kontra on the {}", &d["kontra".len()..]));
        }
        let what = format!("seed {seed}{steer} ({}, with {target})", mine.contract);
        run.differences.extend(tapp_tarock::differs(v.outcome.as_ref().unwrap(), &mine, &what));
    }
}

#[test]
fn the_engine_scores_point_tarock_as_the_sources_do() {
    let steered_games = count("POINT_TAROCK_SCORER_GAMES", 2000);
    let mut plain = Run::default();
    let mut steered = Run::default();
    compare(&SimOptions::default(), 0..steered_games / 4, &mut plain);
    compare(&SimOptions::steered(), 1_000_000_000..1_000_000_000 + steered_games, &mut steered);
    if std::env::var("POINT_TAROCK_SCORER_REPORT").is_ok() {
        println!("point-tarock: {} deals unsteered ({} annulled), {} steered ({} annulled)", plain.games, plain.annulled, steered.games, steered.annulled);
        let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
        for k in keys {
            println!("| {k} | {} | {} |", plain.tally.get(k).copied().unwrap_or(0), steered.tally.get(k).copied().unwrap_or(0));
        }
    }
    let differences: Vec<String> = plain.differences.into_iter().chain(steered.differences).collect();
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    let reached = |case: &str| plain.tally.get(case).copied().unwrap_or(0) + steered.tally.get(case).copied().unwrap_or(0);
    for case in ["three made", "three lost", "unterer made", "unterer lost", "oberer made", "oberer lost", "solo made", "solo lost"] {
        assert!(reached(case) > 0, "no deal reached the case: {case}");
    }
    for level in [40, 45, 50, 55] {
        assert!(reached(&format!("with {level} reached")) + reached(&format!("with {level} missed")) > 0, "no deal announced with {level}");
    }
}
