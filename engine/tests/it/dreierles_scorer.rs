//! The engine's Dreierles scores against a second scorer written from pagat's page
//! (`common/dreierles.rs`: the tricks played out, the piles counted in threes, the page's table of game
//! points, the knocks, the Pfeife, the combinations and the Räuber), over simulated deals of
//! `dreierles`, unsteered and steered, with every combination held claimed at the end, at tables of
//! three and of four (the dealer sitting out, paying and receiving as a third opponent). Each player's
//! score and the declarer's card points are compared; each deal is simulated from its own seed, so a
//! difference names the seed that reproduces it (`tarot-archive simulate --ruleset dreierles --players
//! N --games 1 --seed S [--steer] --out DIR`, the claims added as `common::dreierles::with_claims` adds
//! them).
//!
//! `DREIERLES_SCORER_GAMES` sets the number of steered deals at three (default 2,000; a quarter as
//! many unsteered; at four, half as many of each), and `DREIERLES_SCORER_REPORT=1` prints how often
//! each case occurred.

use crate::common::dreierles;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, count_or};
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

fn compare(n: usize, sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    let rules = registry().get("dreierles").unwrap();
    let steer = format!("{}{}", if n == 3 { "" } else { " --players 4" }, if *sim == SimOptions::default() { "" } else { " --steer" });
    for seed in seeds {
        let Ok(rec) = random_game_with(rules, n, &BTreeMap::new(), sim, &mut ChaCha8Rng::seed_from_u64(seed)) else {
            run.unplayable += 1;
            continue;
        };
        compare_one(rec, seed, &steer, run);
    }
}

/// One deal, its combinations claimed: valid, and scored as the page does (a difference is added to
/// `run`, naming the seed; `steer`, how it was simulated).
fn compare_one(rec: tarot_engine::GameRecord, seed: u64, steer: &str, run: &mut Run) {
    let rules = registry().get("dreierles").unwrap();
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
    let expected: BTreeMap<String, Q> = mine.scores.clone();
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

#[test]
fn the_engine_scores_dreierles_as_the_source_does() {
    let steered_games = count_or("DREIERLES_SCORER_GAMES", 2000, 2000);
    let mut plain = Run::default();
    let mut steered = Run::default();
    compare(3, &SimOptions::default(), 0..steered_games / 4, &mut plain);
    compare(3, &SimOptions::steered(), 1_000_000_000..1_000_000_000 + steered_games, &mut steered);
    let (mut plain4, mut steered4) = (Run::default(), Run::default());
    compare(4, &SimOptions::default(), 0..steered_games / 8, &mut plain4);
    compare(4, &SimOptions::steered(), 1_000_000_000..1_000_000_000 + steered_games / 2, &mut steered4);
    if std::env::var("DREIERLES_SCORER_REPORT").is_ok() {
        for (n, plain, steered) in [(3, &plain, &steered), (4, &plain4, &steered4)] {
            println!("dreierles at {n}: {} deals unsteered ({} not playable), {} steered ({} not playable)", plain.games, plain.unplayable, steered.games, steered.unplayable);
            let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
            for k in keys {
                println!("| {k} | {} | {} |", plain.tally.get(k).copied().unwrap_or(0), steered.tally.get(k).copied().unwrap_or(0));
            }
        }
    }
    let differences: Vec<String> = [plain.differences.clone(), steered.differences.clone(), plain4.differences.clone(), steered4.differences.clone()].concat();
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    // At four, the cases where the dealer's payment differs by the contract and the side: a contract
    // won and lost, a combination claimed by an opponent (the dealer pays it too), a Räuber lost alone
    // and one shared by two (he receives from each loser).
    let reached4 = |case: &str| plain4.tally.get(case).copied().unwrap_or(0) + steered4.tally.get(case).copied().unwrap_or(0);
    for case in ["dreier won", "dreier lost", "solo won", "solo lost", "rauber, 1 tied for the most", "rauber, 2 tied for the most", "1 knock(s)", "combination zehn_druck_claimed"]
    {
        assert!(reached4(case) > 0, "no deal at four reached the case: {case}");
    }
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

/// The Räuber's restrictions (`rauber_rules`) against the page's, checked card by card by
/// `common/dreierles_rauber.rs`: Räuber played under each choice keep them and score as the page
/// does; Räuber played with none, judged under each choice, are refused by the engine at the card
/// where the page finds the first one broken, and for the same restriction (or kept by both); each
/// restriction's invalid fixture is refused by both at the same card.
#[test]
fn the_rauber_restrictions_are_the_page_s() {
    use crate::common::dreierles_rauber::{self as page, breach};
    use tarot_engine::ContractChoice;
    let rules = registry().get("dreierles").unwrap();
    let sim = SimOptions { contract: ContractChoice::Only("rauber".into()), ..SimOptions::default() };
    let same = [
        ("play.must.play.the-pfeife-to-the-third-trick-a-trump-is-led-to", page::PFEIFE_WITHHELD),
        ("play.keep.the-pfeife-not-before-the-third-trick-a-trump-is-led-to", page::PFEIFE_EARLY),
        ("play.keep.the-21-not-to-a-trick-holding-the-stiess", page::XXI_ON_STIESS),
        ("play.must.lead.trumps-led-to-the-first-three-tricks", page::TRUMPS_LED),
        ("play.must.play.the-stiess-and-the-21-at-the-first-opportunity", page::TOP_WITHHELD),
        ("play.keep.the-stiess-and-the-21-not-in-the-same-trick", page::TOP_TOGETHER),
        ("play.must.play.the-pfiff-in-the-third-trick", page::PFIFF_WITHHELD),
        ("play.keep.the-pfiff-not-before-the-third-trick", page::PFIFF_EARLY),
    ];
    let (mut differences, mut refused) = (vec![], BTreeMap::<String, u64>::new());
    let games = count("DREIERLES_RAUBER_GAMES", 300);
    for seed in 0..games {
        for choice in ["Steinmauern", "Iffezheim"] {
            let options = BTreeMap::from([("rauber_rules".to_string(), serde_json::json!(choice))]);
            let mut run = Run::default();
            let rec = random_game_with(rules, 3, &options, &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
            assert_eq!(replay(rules, &rec).unwrap().status, Status::Valid, "seed {seed} at {choice}");
            if let Some((at, why)) = breach(&rec) {
                differences.push(format!("seed {seed}, played at {choice}: the page finds \"{why}\" broken at event {at}"));
            }
            let none = BTreeMap::from([("rauber_rules".to_string(), serde_json::json!("none"))]);
            let mut free = random_game_with(rules, 3, &none, &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
            free.options = options.clone();
            let engine = replay(rules, &free).unwrap().violation.map(|x| (x.event, same.iter().find(|(r, _)| *r == &*x.rule).map_or("another rule", |(_, w)| *w), x.rule));
            let mine = breach(&free);
            if engine.as_ref().map(|(at, why, _)| (*at, *why)) != mine {
                differences.push(format!("seed {seed}, played with none, judged at {choice}: engine {engine:?}, page {mine:?}"));
            }
            if let Some((_, _, rule)) = engine {
                *refused.entry(rule.to_string()).or_default() += 1;
            }
            compare_one(rec, seed, &format!(" at {choice}"), &mut run);
            differences.extend(run.differences);
        }
    }
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    assert!(refused.len() >= 4, "the Räuber played with none broke few restrictions: {refused:?}");
    // Each restriction broken in its fixture (`dreierles_fixtures`), where the page finds it too.
    for (rule, words) in same {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../fixtures/dreierles/invalid/{rule}.json"));
        let rec: tarot_engine::GameRecord = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let v = replay(rules, &rec).unwrap().violation.unwrap();
        assert_eq!((&*v.rule, breach(&rec)), (rule, Some((v.event, words))), "{}", path.display());
    }
}
