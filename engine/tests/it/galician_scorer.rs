//! The engine's Galician Tarok scores against a second scorer written by hand from the sources
//! (`common/galician.rs`: Szczepański's handbook as astroweb.pl quotes it, Tower Grove's 42-card
//! Driertarock for the bids and the score, the 1821 Tappen with 42 cards for the count in threes), over
//! simulated deals of `galician-tarok`, unsteered and steered to the rare cases (every contract evenly,
//! Trischaken among them, a strong hand that takes every trick, the Pagat held to the last trick or the
//! one before), and an eighth as many with each option that changes the score or the play (`target =
//! 46`, `count = "threes"`, `solo_lead = "declarer"`, `direction = "clockwise"`, `priority =
//! "seniority"`). Each player's score and the declarer's card points (in Trischaken every player's) are
//! compared. Each deal is simulated from its own seed, so a difference names the seed that reproduces
//! it (`tarot-archive simulate --ruleset galician-tarok --games 1 --seed S [--steer] --out DIR`).
//!
//! Two players tied for the most card points in Trischaken come about once in 2,000 steered deals, and
//! all three tied never: the report shows them, the test does not require them.
//!
//! `GALICIAN_SCORER_GAMES` sets the number of steered deals (default 2,000; a quarter as many
//! unsteered), and `GALICIAN_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::galician;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Status};

/// The cases a deal shows, as the rows of the coverage table.
fn cases(s: &galician::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: String| *tally.entry(k).or_default() += 1;
    if s.contract == "trischaken" {
        add(format!("trischaken, {} with the most card points", s.losers));
    } else {
        add(format!("{} {}", s.contract, if s.made { "made" } else { "lost" }));
    }
    if s.declarer.is_some() && s.declarer_tricks == s.tricks {
        add("the declarer took every trick".into());
    }
    if s.on_the_line {
        add("the declarer one point short of the target, or on it".into());
    }
    if let Some((attack, won, announced)) = s.ultimo {
        add(format!("Ultimo{} by the {}, {}", if announced { " announced" } else { "" }, if attack { "declarer" } else { "defence" }, if won { "won" } else { "lost" }));
    }
    if s.ultimo_driven_out {
        add("an announced Ultimo's Pagat played before the last trick".into());
    }
    if s.pagat_beaten_silent {
        add("a silent Pagat beaten in the last trick".into());
    }
    if s.tarock_beaten_by_suit {
        add("a tarock played to a suit led, beaten by the suit (Suit-Solo)".into());
    }
}

#[derive(Default)]
struct Run {
    games: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(options: &BTreeMap<String, serde_json::Value>, variant: galician::Variant, sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("galician-tarok").unwrap();
    let steer = if *sim == SimOptions::default() { "" } else { " --steer" };
    for seed in seeds {
        let rec = random_game_with(rules, 3, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let mine = galician::score(&rec, variant);
        cases(&mine, &mut run.tally);
        let outcome = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, Q> = outcome.players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        let engine_points: BTreeMap<String, Q> = outcome.players.iter().filter(|p| mine.points.contains_key(&*p.player)).map(|p| (p.player.to_string(), p.card_points)).collect();
        let expected_points: BTreeMap<String, Q> = mine.points.iter().map(|(k, &x)| (k.clone(), Q::int(x))).collect();
        if outcome.taker.as_deref() != mine.declarer.as_deref() {
            run.differences.push(format!("{options:?} seed {seed}{steer}: engine's declarer {:?}, sources' {:?}", outcome.taker, mine.declarer));
        } else if let Some(wrong) = &mine.wrong_leader {
            run.differences.push(format!("{options:?} seed {seed}{steer}: {wrong}"));
        } else if engine != mine.scores || engine_points != expected_points {
            run.differences.push(format!(
                "{options:?} seed {seed}{steer} ({}): engine {:?} with card points {:?}, sources {:?} with {:?} (Ultimo {:?})",
                mine.contract,
                engine.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                engine_points.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                mine.scores.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                mine.points.values().collect::<Vec<_>>(),
                mine.ultimo
            ));
        }
    }
}

#[test]
fn the_engine_scores_galician_tarok_as_the_sources_do() {
    let steered_games = count("GALICIAN_SCORER_GAMES", 2000);
    let base = seed("GALICIAN_SCORER_SEED");
    let opt = |k: &str, v: serde_json::Value| [(k.to_string(), v)].into_iter().collect::<BTreeMap<_, _>>();
    let tables = [
        (BTreeMap::new(), galician::AW, steered_games),
        (opt("target", serde_json::json!(46)), galician::Variant { target: 46, ..galician::AW }, steered_games / 8),
        (opt("count", serde_json::json!("threes")), galician::Variant { threes: true, ..galician::AW }, steered_games / 8),
        (opt("solo_lead", serde_json::json!("declarer")), galician::Variant { declarer_leads_solo: true, ..galician::AW }, steered_games / 8),
        (opt("direction", serde_json::json!("clockwise")), galician::AW, steered_games / 8),
        (opt("priority", serde_json::json!("seniority")), galician::AW, steered_games / 8),
    ];
    let mut report = String::new();
    let mut differences = vec![];
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for (options, variant, k) in tables {
        let mut plain = Run::default();
        let mut steered = Run::default();
        compare(&options, variant, &SimOptions::default(), base..base + k / 4, &mut plain);
        compare(&options, variant, &SimOptions::steered(), base + 1_000_000_000..base + 1_000_000_000 + k, &mut steered);
        report += &format!("\ngalician-tarok {options:?}: {} deals unsteered, {} steered\n", plain.games, steered.games);
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
    if std::env::var("GALICIAN_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    let mut expected: Vec<String> = vec![];
    for contract in ["single", "double", "triple", "suit-solo", "solo", "solo-slam"] {
        for result in ["made", "lost"] {
            expected.push(format!("{contract} {result}"));
        }
    }
    expected.push("trischaken, 1 with the most card points".into());
    expected
        .extend(["Ultimo by the declarer, won", "Ultimo by the defence, won", "Ultimo announced by the declarer, won", "Ultimo announced by the declarer, lost"].map(String::from));
    for case in expected {
        assert!(reached.get(&case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
    }
}
