//! The engine's Tapp Tarock scores against a second scorer written by hand from the sources
//! (`common/tapp_tarock.rs`: the Tower Grove summary of Babsch, the oldcardgames count and play, and the
//! payments as the Tarock app specification quotes the Austrian sources), over simulated deals of
//! `tapp-tarock`, unsteered and steered to the rare cases (both contracts evenly, a strong hand that
//! takes every trick and announces its Slam, the Pagat held to the last trick or the one before), and an
//! eighth as many with each option that changes who scores what (`lead = "forehand"`,
//! `defender_ultimo = "yes"`). Each player's score and the declarer's card points are compared. Each
//! deal is simulated from its own seed, so a difference names the seed that reproduces it
//! (`tarot-archive simulate --ruleset tapp-tarock --games 1 --seed S [--steer] --out DIR`).
//!
//! The children are not scored here: `tapp-tarock-ocg` has other contracts, the Bridscher and bonuses
//! won by each player for himself, and `tapp-tarock-1821` the Tapper settled unplayed and a score on
//! the points over 35 with its Volat: other scorers, not other values.
//!
//! `TAPP_TAROCK_SCORER_GAMES` sets the number of steered deals (default 2,000; a quarter as many
//! unsteered), and `TAPP_TAROCK_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::tapp_tarock;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Status};

/// The cases a deal shows, as the rows of the coverage table.
fn cases(s: &tapp_tarock::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: String| *tally.entry(k).or_default() += 1;
    if s.slam_made {
        add(format!("{} Slam{}", s.contract, if s.slam_announced { " announced" } else { "" }));
    } else {
        add(format!("{} {}", s.contract, if s.made { "made" } else { "lost" }));
        if s.slam_announced {
            add("Slam announced and lost".into());
        }
    }
    if s.declarer_tricks == 0 {
        add("the defenders took every trick".into());
    }
    if s.points == 35 || s.points == 36 {
        add(format!("the declarer on exactly {}", s.points));
    }
    if let Some((attack, won, announced)) = s.ultimo {
        add(format!("Pagat Ultimo{} by the {}, {}", if announced { " announced" } else { "" }, if attack { "declarer" } else { "defence" }, if won { "won" } else { "lost" }));
    }
    if s.ultimo_driven_out {
        add("an announced Ultimo's Pagat played before the last trick".into());
    }
    match s.kontra {
        2 => add("Kontra on the game".into()),
        4 => add("Rekontra on the game".into()),
        _ => {}
    }
    match s.kontra_ultimo {
        2 => add("Kontra on the Ultimo".into()),
        4 => add("Rekontra on the Ultimo".into()),
        _ => {}
    }
    for (name, attack) in &s.honours {
        add(format!("{name} claimed by the {}", if *attack { "declarer" } else { "defence" }));
    }
    if s.honours_unclaimed > 0 {
        add("honours dealt and not claimed".into());
    }
}

#[derive(Default)]
struct Run {
    games: u64,
    annulled: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(options: &BTreeMap<String, serde_json::Value>, sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("tapp-tarock").unwrap();
    let forehand_leads = options.get("lead").is_some_and(|l| l == "forehand");
    let steer = if *sim == SimOptions::default() { "" } else { " --steer" };
    for seed in seeds {
        let rec = random_game_with(rules, 3, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        if v.status == Status::Annulled {
            run.annulled += 1;
            continue;
        }
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let mine = tapp_tarock::score(&rec, forehand_leads);
        cases(&mine, &mut run.tally);
        let what = format!("{options:?} seed {seed}{steer} ({}; Ultimo {:?}, honours {:?})", mine.contract, mine.ultimo, mine.honours);
        run.differences.extend(tapp_tarock::differs(v.outcome.as_ref().unwrap(), &mine, &what));
    }
}

#[test]
fn the_engine_scores_tapp_tarock_as_the_sources_do() {
    let steered_games = count("TAPP_TAROCK_SCORER_GAMES", 2000);
    let base = seed("TAPP_TAROCK_SCORER_SEED");
    let opt = |k: &str, v: &str| [(k.to_string(), serde_json::json!(v))].into_iter().collect::<BTreeMap<_, _>>();
    let tables = [(BTreeMap::new(), steered_games), (opt("lead", "forehand"), steered_games / 8), (opt("defender_ultimo", "yes"), steered_games / 8)];
    let mut report = String::new();
    let mut differences = vec![];
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for (options, k) in tables {
        let mut plain = Run::default();
        let mut steered = Run::default();
        compare(&options, &SimOptions::default(), base..base + k / 4, &mut plain);
        compare(&options, &SimOptions::steered(), base + 1_000_000_000..base + 1_000_000_000 + k, &mut steered);
        report += &format!("\ntapp-tarock {options:?}: {} deals unsteered ({} annulled), {} steered ({} annulled)\n", plain.games, plain.annulled, steered.games, steered.annulled);
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
    if std::env::var("TAPP_TAROCK_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for case in [
        "three made",
        "three lost",
        "solo made",
        "solo lost",
        "Pagat Ultimo by the declarer, won",
        "Pagat Ultimo by the defence, won",
        "Pagat Ultimo announced by the declarer, won",
        "Pagat Ultimo announced by the declarer, lost",
        "Kontra on the game",
        "Trull claimed by the defence",
        "Kings claimed by the defence",
        "Heads claimed by the declarer",
    ] {
        assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
    }
}
