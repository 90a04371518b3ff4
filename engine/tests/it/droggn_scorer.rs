//! The engine's Droggn scores against a second scorer written by hand from the sources
//! (`common/droggn.rs`: the summary of pagat.com's rules, with Wikipedia's options), over simulated
//! deals of `droggn` at three (and at four, the dealer sitting out), unsteered and steered to the rare
//! cases (every contract evenly, a strong hand that takes every trick, the Gstieß and the Pagat held to
//! the last trick or the one before, Pagat Ultimo announced), and an eighth as many at four and with each option
//! that changes the score (`target = 38`, `gstiess = "top-trump"`, `matsch = "yes"`). Each deal is
//! simulated from its own seed, so a difference names the seed that reproduces it (`tarot-archive
//! simulate --ruleset droggn --games 1 --seed S [--steer] --out DIR`).
//!
//! `DROGGN_SCORER_GAMES` sets the number of steered deals at three (default 2,000; a quarter as many
//! unsteered), and `DROGGN_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::droggn;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Status};

/// The cases a deal shows, as the rows of the coverage table.
fn cases(s: &droggn::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: String| *tally.entry(k).or_default() += 1;
    add(format!("{} {}", s.contract, if s.made { "made" } else { "lost" }));
    if s.declarer_tricks == s.tricks {
        add("the declarer took every trick".into());
    } else if s.declarer_tricks == 0 {
        add("the declarer took no trick".into());
    }
    if !s.points.is_integer() {
        add("card points not whole".into());
    }
    if s.points == Q::int(37) {
        add("the declarer on exactly 37".into());
    }
    if s.announced {
        add("Pagat Ultimo announced".into());
    }
    if let Some((attack, took)) = s.pagat_last {
        add(format!("the Pagat in the last trick, by the {}, {}", if attack { "declarer" } else { "defence" }, if took { "won" } else { "lost" }))
    }
    if let Some(attack) = s.pagat_lost {
        add(format!("the Pagat lost before the last trick by the {}", if attack { "declarer" } else { "defence" }));
    }
    if s.bought {
        add("a card bought".into());
    }
    if s.pagat_defence && s.pagat_last.is_none() && s.pagat_lost.is_none() {
        add("a defender's Pagat taken by his partner or taking its trick".into());
    }
    if s.gstiess_last {
        add("the Gstieß in the last trick".into());
    }
    if s.gstiess_exchanged {
        add("the Gstieß kept from a trick the other side took".into());
    }
    if s.gstiess_unpaid {
        add("the Gstieß kept by a defence that took no trick".into());
    }
    if s.sitting_out {
        add("four at the table, the dealer sitting out".into());
    }
}

#[derive(Default)]
struct Run {
    games: u64,
    annulled: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(n: usize, options: &BTreeMap<String, serde_json::Value>, variant: droggn::Variant, sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("droggn").unwrap();
    let steer = if *sim == SimOptions::default() { "" } else { " --steer" };
    for seed in seeds {
        let rec = random_game_with(rules, n, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        if v.status == Status::Annulled {
            run.annulled += 1;
            continue;
        }
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let mine = droggn::score(&rec, variant);
        cases(&mine, &mut run.tally);
        let outcome = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, Q> = outcome.players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        let declarer = outcome.taker.as_deref().expect("a declarer");
        let engine_points = outcome.players.iter().find(|p| &*p.player == declarer).unwrap().card_points;
        if let Some(wrong) = &mine.wrong_leader {
            run.differences.push(format!("{n} players {options:?} seed {seed}{steer}: {wrong}"));
        } else if engine != mine.scores || engine_points != mine.points {
            run.differences.push(format!(
                "{n} players {options:?} seed {seed}{steer} ({}): engine {:?} with {} card points, sources {:?} with {}",
                mine.contract,
                engine.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                engine_points,
                mine.scores.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                mine.points
            ));
        }
    }
}

#[test]
fn the_engine_scores_droggn_as_the_sources_do() {
    let steered_games = count("DROGGN_SCORER_GAMES", 2000);
    let base = seed("DROGGN_SCORER_SEED");
    let opt = |k: &str, v: serde_json::Value| [(k.to_string(), v)].into_iter().collect::<BTreeMap<_, _>>();
    let tables = [
        (3, BTreeMap::new(), droggn::PW, steered_games),
        (4, BTreeMap::new(), droggn::PW, steered_games / 8),
        (3, opt("target", serde_json::json!(38)), droggn::Variant { target: 38, ..droggn::PW }, steered_games / 8),
        (3, opt("gstiess", serde_json::json!("top-trump")), droggn::Variant { top_trump: true, ..droggn::PW }, steered_games / 8),
        (3, opt("matsch", serde_json::json!("yes")), droggn::Variant { matsch: true, ..droggn::PW }, steered_games / 8),
    ];
    let mut report = String::new();
    let mut differences = vec![];
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for (n, options, variant, k) in tables {
        let mut plain = Run::default();
        let mut steered = Run::default();
        compare(n, &options, variant, &SimOptions::default(), base..base + k / 4, &mut plain);
        compare(n, &options, variant, &SimOptions::steered(), base + 1_000_000_000..base + 1_000_000_000 + k, &mut steered);
        report += &format!(
            "\ndroggn, {n} players, {options:?}: {} deals unsteered ({} annulled), {} steered ({} annulled)\n",
            plain.games, plain.annulled, steered.games, steered.annulled
        );
        report += "| case | unsteered, per 1,000 deals | steered, per 1,000 deals |\n|---|---:|---:|\n";
        let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
        for k in keys {
            let per = |r: &Run| r.tally.get(k).copied().unwrap_or(0) as f64 * 1000.0 / r.games.max(1) as f64;
            report += &format!("| {k} | {:.1} | {:.1} |\n", per(&plain), per(&steered));
            *reached.entry(k.clone()).or_default() += plain.tally.get(k).copied().unwrap_or(0) + steered.tally.get(k).copied().unwrap_or(0);
        }
        differences.extend(plain.differences);
        differences.extend(steered.differences);
    }
    if std::env::var("DROGGN_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for contract in ["simple", "solo", "super"] {
        for result in ["made", "lost"] {
            let case = format!("{contract} {result}");
            assert!(reached.get(&case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
        }
    }
}
