//! The engine's FFT scores against a second scorer written by hand from the rulebook (`common/fft.rs`),
//! over simulated games of `fft-3p`, `fft-4p` and `fft-5p` (and, a quarter as many, their options and
//! the house variants that change only a figure: seed 000's Excuse, the share in halves at five, seed
//! 003's taker alone where the FFT calls a jack, the
//! dealer sitting out at five, garde contre x8, poignées 20/40/60), both unsteered and steered to the rare
//! cases (every contract evenly, poignées, chelems, the Excuse held to the last trick). Each game is
//! simulated from its own seed, so a difference names the seed that reproduces it (`tarot-archive
//! simulate --ruleset ID --games 1 --seed S [--steer] --out DIR`).
//!
//! `FFT_SCORER_GAMES` sets the number of steered games per table (default 2,000; a quarter as many
//! unsteered), and `FFT_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::fft;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Status};

/// The rulesets and tables compared, with the options chosen and the variant of the rules they give.
fn tables() -> Vec<(&'static str, usize, BTreeMap<String, serde_json::Value>, fft::Variant)> {
    let opt = |k: &str, v: &str| [(k.to_string(), serde_json::json!(v))].into_iter().collect::<BTreeMap<_, _>>();
    vec![
        ("fft-3p", 3, BTreeMap::new(), fft::FFT),
        ("fft-4p", 4, BTreeMap::new(), fft::FFT),
        ("fft-5p", 5, BTreeMap::new(), fft::FFT),
        ("fft-4p", 4, opt("excuse_last_trick", "to-winner"), fft::Variant { excuse_to_winner: true, ..fft::FFT }),
        ("fft-5p", 5, opt("share", "halves"), fft::Variant { halves: true, ..fft::FFT }),
        ("fft-5p", 5, opt("jack_call", "alone"), fft::FFT),
        ("fft-5p-mort", 5, BTreeMap::new(), fft::FFT),
        ("fft-4p-garde-contre-x8", 4, BTreeMap::new(), fft::Variant { garde_contre: 8, ..fft::FFT }),
        ("fft-4p-poignee-20-40-60", 4, BTreeMap::new(), fft::Variant { poignee_values: [20, 40, 60], ..fft::FFT }),
    ]
}

/// The cases a game shows, as the rows of the coverage table.
fn cases(s: &fft::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: String| *tally.entry(k).or_default() += 1;
    add(format!("{} {}", s.contract, if s.made { "made" } else { "failed" }));
    if s.players == 5 {
        add(if s.alone { "taker alone (called himself or the dog)".into() } else { "taker with a partner".into() });
        if s.called.is_none() {
            add("no card called (the taker holds every card he may call)".into());
        }
        if let Some(fft::Card::Suited(_, rank)) = s.called {
            add(format!(
                "called a {}",
                match rank {
                    14 => "king",
                    13 => "queen",
                    12 => "cavalier",
                    _ => "jack",
                }
            ));
        }
    }
    if s.chelem_announced {
        add(format!("chelem announced, {}", if s.attack_slam { "made" } else { "failed" }));
    } else if s.attack_slam {
        add("chelem made unannounced".into());
    }
    if s.defence_slam {
        add("defence chelem".into());
    }
    for &(attack, level) in &s.poignees {
        add(format!("poignée {} by the {}", ["single", "double", "triple"][level - 1], if attack { "attack" } else { "defence" }));
    }
    match s.petit_au_bout {
        1 => add("petit au bout, attack".into()),
        -1 => add("petit au bout, defence".into()),
        _ => {}
    }
    if s.petit_au_bout_before_last {
        add("petit au bout in the trick before an Excuse chelem".into());
    }
    if s.petit_lost_before_last {
        add("Petit captured in the trick before an Excuse chelem".into());
    }
    if let Some((led, took)) = s.excuse_last {
        add(format!("Excuse {} to the last trick, {}", if led { "led" } else { "played, not led," }, if took { "taking it (chelem)" } else { "changing side" }));
    }
    if s.excuse_unpaid {
        add("Excuse kept by a side that took no trick".into());
    }
    if s.points_halves % 2 != 0 {
        add("attack points not whole (a half point)".into());
    }
}

struct Run {
    games: u64,
    annulled: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
    /// For each mistake of `MISTAKES`, the games a scorer making it would have scored differently.
    caught: BTreeMap<u8, u64>,
}

/// The engine's mistakes that issue 14 reported (items 1, 3 and 4), now fixed: a scorer that makes one
/// of them must disagree with the engine somewhere, which shows that this comparison would have found it.
const MISTAKES: [(u8, fft::Mistakes); 3] = [
    (1, fft::Mistakes { dog_to_first_seat: true, excuse_played_last_changes_side: false, petit_before_last_not_won: false }),
    (3, fft::Mistakes { dog_to_first_seat: false, excuse_played_last_changes_side: true, petit_before_last_not_won: false }),
    (4, fft::Mistakes { dog_to_first_seat: false, excuse_played_last_changes_side: false, petit_before_last_not_won: true }),
];

fn compare(id: &str, n: usize, options: &BTreeMap<String, serde_json::Value>, variant: fft::Variant, sim: &SimOptions, seeds: std::ops::Range<u64>) -> Run {
    let rules = registry().get(id).unwrap();
    let mut run = Run { games: 0, annulled: 0, tally: BTreeMap::new(), differences: vec![], caught: BTreeMap::new() };
    for seed in seeds {
        let rec = random_game_with(rules, n, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        if v.status == Status::Annulled {
            run.annulled += 1;
            continue;
        }
        assert_eq!(v.status, Status::Valid, "{id} seed {seed}: {}", v.to_text());
        let mine = fft::score(&rec, variant);
        cases(&mine, &mut run.tally);
        let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        let agrees = |s: &fft::Scored| s.scores.iter().all(|(k, &x)| engine.get(k) == Some(&Q::new(x, 2))) && s.scores.len() == engine.len();
        for (item, m) in MISTAKES {
            if !agrees(&fft::score_with(&rec, variant, m)) {
                *run.caught.entry(item).or_default() += 1;
            }
        }
        if !agrees(&mine) {
            let expected: Vec<String> = mine.scores.values().map(|&s| Q::new(s, 2).to_string()).collect();
            run.differences.push(format!(
                "{id} {options:?} seed {seed} ({}{}): engine {:?}, rulebook {:?} (hand score {}, attack {} halves, {} oudlers)",
                mine.contract,
                if sim.hold_excuse > 0.0 { ", steered: --steer" } else { "" },
                engine.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                expected,
                mine.hand_score,
                mine.points_halves,
                mine.oudlers
            ));
        }
    }
    run
}

#[test]
fn the_engine_scores_fft_games_as_the_rulebook_does() {
    let steered_games = count("FFT_SCORER_GAMES", 2000);
    let base = seed("FFT_SCORER_SEED");
    let mut differences = vec![];
    let mut caught: BTreeMap<u8, u64> = BTreeMap::new();
    let mut report = String::new();
    for (t, (id, n, options, variant)) in tables().into_iter().enumerate() {
        // The FFT's own three tables in full; the options and house variants a quarter as often.
        let k = if t < 3 { steered_games } else { steered_games / 4 };
        let plain = compare(id, n, &options, variant, &SimOptions::default(), base..base + k / 4);
        let steered = compare(id, n, &options, variant, &SimOptions::steered(), base + 1_000_000_000..base + 1_000_000_000 + k);
        report += &format!("\n{id} {options:?}: {} games unsteered ({} annulled), {} steered ({} annulled)\n", plain.games, plain.annulled, steered.games, steered.annulled);
        report += "| case | unsteered, per 1,000 games | steered, per 1,000 games |\n|---|---:|---:|\n";
        let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
        for k in keys {
            let per = |r: &Run| r.tally.get(k).copied().unwrap_or(0) as f64 * 1000.0 / r.games.max(1) as f64;
            report += &format!("| {k} | {:.1} | {:.1} |\n", per(&plain), per(&steered));
        }
        for (item, _) in MISTAKES {
            let k = plain.caught.get(&item).copied().unwrap_or(0) + steered.caught.get(&item).copied().unwrap_or(0);
            *caught.entry(item).or_default() += k;
            report += &format!("issue 14 item {item} would have shown in {k} games\n");
        }
        differences.extend(plain.differences);
        differences.extend(steered.differences);
    }
    if std::env::var("FFT_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} games scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    // Items 1 and 3 are common in steered games; item 4 (a Petit captured in the trick before an Excuse
    // chelem) is too rare to count on, and has its fixture (fft-4p/valid/excuse-chelem-petit-captured).
    for item in [1, 3] {
        assert!(caught.get(&item).copied().unwrap_or(0) > 0, "no game would have shown issue 14 item {item}");
    }
}
