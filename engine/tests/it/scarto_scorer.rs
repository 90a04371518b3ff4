//! The engine's Scarto scores against a second scorer written by hand from the sources
//! (`common/scarto.rs`: the GenovaGioca rules, Wikipedia, Card Games Planet), over simulated deals of
//! `scarto` under each choice of its two options (the trump order, the 5-point trump), unsteered and
//! steered to the rare cases (a strong hand that takes most tricks, the Matto held to the last trick).
//! Scarto has no contract: the cases counted are the dealer's (the hand won and lost) and the Matto's.
//! Each deal is simulated from its own seed, so a difference names the seed that reproduces it
//! (`tarot-archive simulate --ruleset scarto --games 1 --seed S [--steer] [--option ...] --out DIR`).
//!
//! `SCARTO_SCORER_GAMES` sets the number of steered deals per choice of the options (default 500; a
//! quarter as many unsteered), and `SCARTO_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::scarto;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Status};

/// The cases a deal shows, as the rows of the coverage table.
fn cases(s: &scarto::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: &str| *tally.entry(k.to_string()).or_default() += 1;
    add(match (s.winners.contains(&s.dealer), s.winners.len()) {
        (true, 1) => "the dealer wins the hand",
        (true, _) => "the dealer ties for the most points",
        (false, _) => "the dealer loses the hand",
    });
    if s.winners.len() > 1 {
        add("two or three tie for the most points");
    }
    if s.tricks.values().any(|&t| t == 0) {
        add("a player took no trick");
    }
    if s.matto_exchanged {
        add("the Matto kept from a trick another took");
    }
    if s.matto_last {
        add("the Matto in the last trick");
    }
    if s.matto_led {
        add("the Matto led");
    }
    if s.matto_discarded {
        add("the Matto laid away");
    }
    if s.trumps_discarded > 0 {
        add("trumps laid away");
    }
    match s.angel_met_world {
        Some(true) => add("the Angel takes the World"),
        Some(false) => add("the World takes the Angel"),
        None => {}
    }
}

#[derive(Default)]
struct Run {
    games: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(options: &BTreeMap<String, serde_json::Value>, sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("scarto").unwrap();
    let angel_high = options.get("trump_order").is_none_or(|o| o == "angel-high");
    let angel_five = options.get("five").is_some_and(|o| o == "angel");
    let steer = if *sim == SimOptions::default() { "" } else { " --steer" };
    for seed in seeds {
        let rec = random_game_with(rules, 3, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let mine = scarto::score(&rec, angel_high, angel_five);
        cases(&mine, &mut run.tally);
        let outcome = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, (Q, Q, bool)> = outcome.players.iter().map(|p| (p.player.to_string(), (p.score, p.card_points, p.winner))).collect();
        let expected: BTreeMap<String, (Q, Q, bool)> = mine.points.iter().map(|(k, &x)| (k.clone(), (x, x, mine.winners.contains(k)))).collect();
        if let Some(wrong) = &mine.wrong_leader {
            run.differences.push(format!("{options:?} seed {seed}{steer}: {wrong}"));
        } else if engine != expected {
            run.differences.push(format!(
                "{options:?} seed {seed}{steer}: engine (score, card points, winner) {:?}, sources {:?}",
                engine.values().map(|(s, p, w)| (s.to_string(), p.to_string(), *w)).collect::<Vec<_>>(),
                expected.values().map(|(s, p, w)| (s.to_string(), p.to_string(), *w)).collect::<Vec<_>>(),
            ));
        }
    }
}

#[test]
fn the_engine_scores_scarto_as_the_sources_do() {
    let steered_games = count("SCARTO_SCORER_GAMES", 500);
    let base = seed("SCARTO_SCORER_SEED");
    let mut runs = vec![];
    for (order, five) in [("angel-high", "world"), ("world-high", "world"), ("angel-high", "angel"), ("world-high", "angel")] {
        let options: BTreeMap<String, serde_json::Value> =
            [("trump_order".to_string(), serde_json::json!(order)), ("five".to_string(), serde_json::json!(five))].into_iter().collect();
        let mut plain = Run::default();
        let mut steered = Run::default();
        compare(&options, &SimOptions::default(), base..base + steered_games / 4, &mut plain);
        compare(&options, &SimOptions::steered(), base + 1_000_000_000..base + 1_000_000_000 + steered_games, &mut steered);
        runs.push((options, plain, steered));
    }
    let mut report = String::new();
    let mut differences = vec![];
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for (options, plain, steered) in runs {
        report += &format!("\nscarto {options:?}: {} deals unsteered, {} steered\n", plain.games, steered.games);
        report += "| case | unsteered, per 1,000 deals | steered, per 1,000 deals |\n|---|---:|---:|\n";
        let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
        for k in keys {
            let per = |r: &Run| r.tally.get(k).copied().unwrap_or(0) as f64 * 1000.0 / r.games.max(1) as f64;
            report += &format!("| {k} | {:.1} | {:.1} |\n", per(&plain), per(&steered));
            let key = format!("{} / {k}", options["trump_order"].as_str().unwrap());
            *reached.entry(key).or_default() += plain.tally.get(k).copied().unwrap_or(0) + steered.tally.get(k).copied().unwrap_or(0);
            *reached.entry(k.clone()).or_default() += plain.tally.get(k).copied().unwrap_or(0) + steered.tally.get(k).copied().unwrap_or(0);
        }
        differences.extend(plain.differences);
        differences.extend(steered.differences);
    }
    if std::env::var("SCARTO_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for case in [
        "the dealer wins the hand",
        "the dealer loses the hand",
        "the Matto kept from a trick another took",
        "the Matto in the last trick",
        "trumps laid away",
        // Each order of the trumps is seen deciding a trick between the Angel and the World.
        "angel-high / the Angel takes the World",
        "world-high / the World takes the Angel",
    ] {
        assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
    }
}
