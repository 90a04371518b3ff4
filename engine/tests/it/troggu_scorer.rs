//! The engine's Troggu standings and winners against a second scorer written by hand from the sources
//! (`common/troggu.rs`: Board Game Arena, The Incompleat Gamester, the Eisten-Stalden rules,
//! gamerules.com, pagat), over simulated deals of `troggu` at each table from three to six, unsteered
//! and steered (every contract bid evenly, strong hands, the Bättler held back until it is withheld).
//! Each contract, Tapp, Solo and the Misère played when all pass, must be seen made and lost, and the
//! Bättler withheld: given for a low card in the last trick, led to it, and kept by its side when that
//! side takes the last trick. Each deal is simulated from its own seed, so a
//! difference names the seed that reproduces it (`tarot-archive simulate --ruleset troggu --players N
//! --games 1 --seed S [--steer] --out DIR`).
//!
//! `TROGGU_SCORER_GAMES` sets the number of steered deals per table (default 300; a quarter as many
//! unsteered), and `TROGGU_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::troggu;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Status};

fn cases(s: &troggu::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: &str| *tally.entry(k.to_string()).or_default() += 1;
    match &s.declarer {
        Some(d) => add(&format!("{} {}", s.contract, if s.winners[d] { "made" } else { "lost" })),
        None => {
            add("misere played");
            add(if s.winners.values().all(|&w| w) { "misere: nobody over 58" } else { "misere: a player over 58" });
        }
    }
    if s.kings_discarded {
        add("the four kings laid away");
    }
    if let Some(w) = &s.withheld {
        add("the Bättler withheld");
        add(if w.own_side { "the Bättler withheld: its side takes the last trick" } else { "the Bättler withheld: a low card given for it" });
        if w.led {
            add("the Bättler withheld: led to the last trick");
        }
    }
}

#[derive(Default)]
struct Run {
    games: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(players: usize, sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("troggu").unwrap();
    let steer = if *sim == SimOptions::default() { "" } else { " --steer" };
    for seed in seeds {
        let rec = random_game_with(rules, players, &BTreeMap::new(), sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        assert_eq!(v.status, Status::Valid, "{players} players, seed {seed}: {}", v.to_text());
        let mine = troggu::score(&rec);
        cases(&mine, &mut run.tally);
        let outcome = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, (Q, bool)> = outcome.players.iter().map(|p| (p.player.to_string(), (p.score, p.winner))).collect();
        let expected: BTreeMap<String, (Q, bool)> = mine.points.iter().map(|(k, &x)| (k.clone(), (Q::int(x), mine.winners[k]))).collect();
        if let Some(wrong) = mine.wrong_leader.as_ref().or(mine.unlawful.as_ref()) {
            run.differences.push(format!("{players} players seed {seed}{steer}: {wrong}"));
        } else if engine != expected {
            run.differences.push(format!(
                "{players} players seed {seed}{steer} ({}): engine (standing, winner) {:?}, sources {:?}",
                mine.contract,
                engine.values().map(|(s, w)| (s.to_string(), *w)).collect::<Vec<_>>(),
                expected.values().map(|(s, w)| (s.to_string(), *w)).collect::<Vec<_>>(),
            ));
        }
    }
}

#[test]
fn the_engine_scores_troggu_as_the_sources_do() {
    let steered_games = count("TROGGU_SCORER_GAMES", 300);
    let base = seed("TROGGU_SCORER_SEED");
    let mut report = String::new();
    let mut differences = vec![];
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for players in 3..=6 {
        let mut plain = Run::default();
        let mut steered = Run::default();
        compare(players, &SimOptions::default(), base..base + steered_games / 4, &mut plain);
        compare(players, &SimOptions::steered(), base + 1_000_000_000..base + 1_000_000_000 + steered_games, &mut steered);
        report += &format!("\ntroggu, {players} players: {} deals unsteered, {} steered\n", plain.games, steered.games);
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
    if std::env::var("TROGGU_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for case in [
        "tapp made",
        "tapp lost",
        "solo made",
        "solo lost",
        "misere: nobody over 58",
        "misere: a player over 58",
        "the Bättler withheld: a low card given for it",
        "the Bättler withheld: its side takes the last trick",
        "the Bättler withheld: led to the last trick",
    ] {
        assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
    }
}
