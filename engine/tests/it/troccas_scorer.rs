//! The engine's Troccas scores against a second scorer written by hand from the sources
//! (`common/troccas.rs`: Berther's rules, Cathomas' guide, Wikipedia), over simulated deals of
//! `troccas`, unsteered and steered to the rare cases (a strong hand that takes most tricks, the Narr
//! held to the last trick), and an eighth as many with the first trick led by first hand. Each deal is
//! simulated from its own seed, so a difference names the seed that reproduces it (`tarot-archive
//! simulate --ruleset troccas --games 1 --seed S [--steer] --out DIR`).
//!
//! `TROCCAS_SCORER_GAMES` sets the number of steered deals (default 2,000; a quarter as many
//! unsteered), and `TROCCAS_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::troccas;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Status};

/// The cases a deal shows, as the rows of the coverage table.
fn cases(s: &troccas::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: &str| *tally.entry(k.to_string()).or_default() += 1;
    let dealers = s.sides[s.dealer_side];
    add(match dealers {
        x if x > 36 => "the dealer's side in credit",
        36 => "both sides at 36",
        _ => "the dealer's side in debt",
    });
    if s.tricks.contains(&0) {
        add("a side took no trick");
    }
    if s.sides.iter().any(|&x| x >= 54 || x <= 18) {
        add("a side owing 18 or more");
    }
    if s.skat >= 6 {
        add("two counting cards in the Skat");
    } else if s.skat == 1 {
        add("two empty cards in the Skat");
    }
    if s.narr_last {
        add("the Narr in the last trick");
    }
    if s.narr_led {
        add("the Narr led");
    }
    if s.narr_exchanged {
        add("the Narr kept from a trick the other side took");
    }
    if s.narr_unpaid {
        add("the Narr kept by a side that took no trick");
    }
}

#[derive(Default)]
struct Run {
    games: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
    /// Deals where a side that took no trick, not the dealer's, kept the Narr (it owes the empty card
    /// it cannot give): compared like the others.
    narr_unpaid_compared: u64,
}

fn compare(options: &BTreeMap<String, serde_json::Value>, sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("troccas").unwrap();
    let dealer_leads = options.get("lead").is_none_or(|l| l == "dealer");
    let steer = if *sim == SimOptions::default() { "" } else { " --steer" };
    for seed in seeds {
        let rec = random_game_with(rules, 4, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let mine = troccas::score(&rec, dealer_leads);
        cases(&mine, &mut run.tally);
        let outcome = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, (Q, Q)> = outcome.players.iter().map(|p| (p.player.to_string(), (p.score, p.card_points))).collect();
        let expected: BTreeMap<String, (Q, Q)> = mine.scores.iter().map(|(k, &x)| (k.clone(), (Q::int(x), Q::int(mine.points[k])))).collect();
        // A side that took no trick but kept the Narr has no empty card to give for it, and still owes
        // it: the Narr alone counts 4, and the two sides make 72 ("Das ganze Spiel zählt 72 Punkte",
        // BE §4), whichever side deals.
        if mine.narr_unpaid && mine.narr_side != mine.dealer_side {
            run.narr_unpaid_compared += 1;
        }
        if let Some(wrong) = &mine.wrong_leader {
            run.differences.push(format!("{options:?} seed {seed}{steer}: {wrong}"));
        } else if engine != expected {
            run.differences.push(format!(
                "{options:?} seed {seed}{steer}: engine (score, card points) {:?}, sources {:?} (tricks {:?}, Skat {})",
                engine.values().map(|(s, p)| (s.to_string(), p.to_string())).collect::<Vec<_>>(),
                expected.values().map(|(s, p)| (s.to_string(), p.to_string())).collect::<Vec<_>>(),
                mine.tricks,
                mine.skat
            ));
        }
    }
}

#[test]
fn the_engine_scores_troccas_as_the_sources_do() {
    let steered_games = count("TROCCAS_SCORER_GAMES", 2000);
    let base = seed("TROCCAS_SCORER_SEED");
    let opt = |k: &str, v: &str| [(k.to_string(), serde_json::json!(v))].into_iter().collect::<BTreeMap<_, _>>();
    let mut runs = vec![];
    for (options, k) in [(BTreeMap::new(), steered_games), (opt("lead", "first-hand"), steered_games / 8)] {
        let mut plain = Run::default();
        let mut steered = Run::default();
        compare(&options, &SimOptions::default(), base..base + k / 4, &mut plain);
        compare(&options, &SimOptions::steered(), base + 1_000_000_000..base + 1_000_000_000 + k, &mut steered);
        runs.push((options, plain, steered));
    }
    let mut report = String::new();
    let mut differences = vec![];
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for (options, plain, steered) in runs {
        report += &format!("\ntroccas {options:?}: {} deals unsteered, {} steered\n", plain.games, steered.games);
        report += "| case | unsteered, per 1,000 deals | steered, per 1,000 deals |\n|---|---:|---:|\n";
        let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
        for k in keys {
            let per = |r: &Run| r.tally.get(k).copied().unwrap_or(0) as f64 * 1000.0 / r.games.max(1) as f64;
            report += &format!("| {k} | {:.1} | {:.1} |\n", per(&plain), per(&steered));
            *reached.entry(k.clone()).or_default() += plain.tally.get(k).copied().unwrap_or(0) + steered.tally.get(k).copied().unwrap_or(0);
        }
        *reached.entry("the Narr kept by a side that took no trick, not the dealer's".into()).or_default() += plain.narr_unpaid_compared + steered.narr_unpaid_compared;
        differences.extend(plain.differences);
        differences.extend(steered.differences);
    }
    if std::env::var("TROCCAS_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for case in [
        "the Narr in the last trick",
        "the Narr kept from a trick the other side took",
        "the dealer's side in credit",
        "the dealer's side in debt",
        "the Narr kept by a side that took no trick, not the dealer's",
    ] {
        assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
    }
}
