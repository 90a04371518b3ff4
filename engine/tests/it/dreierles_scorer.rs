//! The engine's Dreierles scores against a second scorer written from pagat's page
//! (`common/dreierles.rs`: the tricks played out, the piles counted in threes, the page's table of game
//! points, the knocks, the Pfeife, the combinations and the Räuber), over simulated deals of
//! `dreierles`, unsteered and steered, with every combination held claimed at the end. Each player's
//! score and the declarer's card points are compared; each deal is simulated from its own seed, so a
//! difference names the seed that reproduces it (`tarot-archive simulate --ruleset dreierles --games 1
//! --seed S [--steer] --out DIR`, the claims added as `common::dreierles::with_claims` adds them).
//!
//! `DREIERLES_SCORER_GAMES` sets the number of steered deals (default 2,000; a quarter as many
//! unsteered), and `DREIERLES_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::dreierles;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::count_or;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game_with, SimOptions, Q};
use tarot_engine::{replay, Status};

#[derive(Default)]
struct Run {
    games: u64,
    /// Deals the simulator could not play out (a declarer left with nothing but kings and trumps to
    /// lay away, which the page calls theoretical).
    unplayable: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("dreierles").unwrap();
    let steer = if *sim == SimOptions::default() { "" } else { " --steer" };
    for seed in seeds {
        let Ok(rec) = random_game_with(rules, 3, &BTreeMap::new(), sim, &mut ChaCha8Rng::seed_from_u64(seed)) else {
            run.unplayable += 1;
            continue;
        };
        let rec = dreierles::with_claims(rec);
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let mine = dreierles::score(&rec);
        let mut add = |k: String| *run.tally.entry(k).or_default() += 1;
        match &mine.declarer {
            Some(_) => add(format!("{} {}", mine.contract, if mine.points >= 36 { "won" } else { "lost" })),
            None => add(format!("rauber, {} tied for the most", mine.tied)),
        }
        if mine.knocks > 0 {
            add(format!("{} knock(s){}", mine.knocks, if mine.declarer.is_none() { " in the Räuber" } else { "" }));
        }
        if !mine.pfeife.is_empty() {
            add(format!("Pfeife {}", mine.pfeife));
        }
        for c in &mine.claims {
            add(format!("combination {c}"));
        }
        let o = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, Q> = o.players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        let expected: BTreeMap<String, Q> = mine.scores.iter().map(|(k, &x)| (k.clone(), Q::int(x))).collect();
        // The engine's card points are its piles'; the page's are the declarer's own, the tricks after a
        // forced Pfeife forfeited: compare them where no Pfeife was forced out.
        let engine_points = o.taker.as_deref().map(|t| o.players.iter().find(|p| &*p.player == t).unwrap().card_points);
        let points_differ = mine.pfeife != "announced forced out" && engine_points.is_some_and(|e| e != Q::int(mine.points));
        if engine != expected || points_differ {
            run.differences.push(format!(
                "seed {seed}{steer} ({}): engine {:?} with {engine_points:?} card points, pagat {:?} with {}",
                mine.contract,
                engine.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                expected.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                mine.points
            ));
        }
    }
}

#[test]
fn the_engine_scores_dreierles_as_the_source_does() {
    let steered_games = count_or("DREIERLES_SCORER_GAMES", 2000, 2000);
    let mut plain = Run::default();
    let mut steered = Run::default();
    compare(&SimOptions::default(), 0..steered_games / 4, &mut plain);
    compare(&SimOptions::steered(), 1_000_000_000..1_000_000_000 + steered_games, &mut steered);
    if std::env::var("DREIERLES_SCORER_REPORT").is_ok() {
        println!("dreierles: {} deals unsteered ({} not playable), {} steered ({} not playable)", plain.games, plain.unplayable, steered.games, steered.unplayable);
        let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
        for k in keys {
            println!("| {k} | {} | {} |", plain.tally.get(k).copied().unwrap_or(0), steered.tally.get(k).copied().unwrap_or(0));
        }
    }
    let differences: Vec<String> = plain.differences.into_iter().chain(steered.differences).collect();
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    let reached = |case: &str| plain.tally.get(case).copied().unwrap_or(0) + steered.tally.get(case).copied().unwrap_or(0);
    for case in [
        "dreier won",
        "dreier lost",
        "zweier won",
        "zweier lost",
        "einer won",
        "einer lost",
        "solo won",
        "solo lost",
        "rauber, 1 tied for the most",
        "1 knock(s)",
        "2 knock(s)",
        "3 knock(s)",
        "1 knock(s) in the Räuber",
        "Pfeife announced won",
        "Pfeife announced lost",
        "Pfeife announced forced out",
        "Pfeife won",
        "Pfeife lost",
        "combination zehn_druck",
        "combination zehn_druck_claimed",
        "combination drull",
        "combination vier_koenige",
    ] {
        assert!(reached(case) > 0, "no deal reached the case: {case}");
    }
}

/// The page's figures: its examples of the count (48 card points give 3, 36 give 1), the table's
/// corners, and the worked example's Solo (42 card points, x4: 8).
#[test]
fn the_second_scorer_reads_the_page_s_table() {
    assert_eq!(dreierles::table(48, 1), 3);
    assert_eq!(dreierles::table(36, 1), 1);
    assert_eq!(dreierles::table(35, 1), -1);
    assert_eq!(dreierles::table(69, 4), 28);
    assert_eq!(dreierles::table(0, 3), -24);
    assert_eq!(dreierles::table(0, 4), -32);
    assert_eq!(dreierles::table(42, 4), 8);
    // Every card of the pack counted in one pile makes 70 (18 groups of three).
    let mut pack: Vec<dreierles::Card> = (1..=22).map(dreierles::Card::Trump).collect();
    for s in ['S', 'C'] {
        pack.extend([14, 13, 12, 11, 10, 9, 8, 7].map(|r| dreierles::Card::Suit(s, r)));
    }
    for s in ['H', 'D'] {
        pack.extend([14, 13, 12, 11, 1, 2, 3, 4].map(|r| dreierles::Card::Suit(s, r)));
    }
    assert_eq!(dreierles::count(&pack), 70);
}
