//! The engine's Cego scores against a second scorer written by hand from the sources
//! (`common/cego.rs`: Parlett's Penguin Book, pagat.com's page and its summary, the Black Forest
//! clubs' pages), over simulated four-player deals of `cego`, unsteered (each bid uniform) and steered
//! (every contract won evenly, the Räuber of a deal all passed among them). Each contract must be seen
//! made and lost, a game bid over a Solo made and lost, the Räuber played, and a court kept in a Leere
//! game (by a declarer dealt too few empty cards); the cards kept in every Leere game must be ones the
//! second scorer finds lawful. Kleiner Mann is also played with each choice of the option
//! `geiss_frei` that lets its declarer take the Geiß back, which must be seen taking its trick and
//! failing. Each deal is simulated from its own seed, so a difference names the seed
//! that reproduces it (`tarot-archive simulate --ruleset cego --players 4 --games 1 --seed S [--steer]
//! --out DIR`).
//!
//! The same for Cego at three (`cego-3`): its contracts, a deal all passed (Vorhand's Cego), and the
//! claim of a skinned Solo, judged by the second scorer on every hand as dealt.
//!
//! The same for the local versions (`cego-ministranten` at four and `cego-ministranten-3` at three, `cego-oberwolfach` at three and
//! `cego-oberwolfach-4` at four, `cego-schmidt` with each of its options, `cego-ichenheim`, `cego-braeunlingen`), at their own scores
//! (`common/cego_local.rs`), and for the count in twos (`cego-twos`, `common/cego_twos.rs`).
//!
//! `CEGO_SCORER_GAMES` sets the number of steered deals (default 600; half as many unsteered), and
//! `CEGO_SCORER_REPORT=1` prints how often each case occurred.

mod braeunlingen;
mod penalties;
mod pflicht;

use crate::common::cego;

use std::collections::BTreeMap;

use crate::common::{count_or, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Registry, Status};

#[derive(Default)]
struct Run {
    games: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(id: &str, sim: &SimOptions, options: &BTreeMap<String, serde_json::Value>, seeds: std::ops::Range<u64>, run: &mut Run) {
    static R: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    let rules = R.get_or_init(|| Registry::builtin().unwrap_or_else(|d| panic!("{d}"))).get(id).unwrap();
    let players = rules.players.0;
    let mut steer = if *sim == SimOptions::default() { String::new() } else { " --steer".to_string() };
    if let ContractChoice::Only(c) = &sim.contract {
        steer += &format!(" (only {c})");
    }
    for (k, v) in options {
        steer += &format!(" --option {k}={v}");
    }
    for seed in seeds {
        let rec = random_game_with(rules, players, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let mine = cego::score(&rec);
        let mut add = |k: String| *run.tally.entry(k).or_default() += 1;
        match (mine.claim, mine.made) {
            _ if mine.penalty.is_some() => add(format!("{} ends the deal", mine.penalty.unwrap_or_default())),
            (Some(won), _) => add(format!("the claim of a skinned Solo {}", if won { "won" } else { "lost" })),
            (None, Some(m)) => add(format!("{} {}", mine.contract, if m { "made" } else { "lost" })),
            (None, None) => add(format!("{} played", mine.contract)),
        }
        // At three, all said Fort: Vorhand must say Cego, and the others passed it.
        let said: Vec<(&str, &str)> = rec
            .events
            .iter()
            .filter_map(|e| if let tarot_engine::Event::Bid { player, bid } = e { Some((&**player, &**bid)) } else { None })
            .filter(|(_, b)| *b != "pass")
            .collect();
        let vorhand = rec.events.iter().find_map(|e| if let tarot_engine::Event::Bid { player, .. } = e { Some(&**player) } else { None });
        if players == 3 && mine.claim.is_none() && vorhand.is_some_and(|v| said == [(v, "cego")]) {
            add("all passed: Vorhand's Cego".into());
        }
        // The Solo bidder bidding again after his Solo (the Schmidt leaflet's variation).
        if let Some(k) = said.iter().position(|(_, b)| *b == "solo") {
            if said[k + 1..].iter().any(|(p, _)| *p == said[k].0) {
                add("the Solo bidder bids over his own Solo".into());
            }
        }
        // A declarer's game (not a special game, whose value is fixed) bid over a Solo.
        if let Some(m) = mine.made.filter(|_| mine.over_solo && !["piccolo", "bettel", "ulti"].contains(&mine.contract.as_str())) {
            add(format!("over a Solo {}", if m { "made" } else { "lost" }));
        }
        // (Counted in twos, 35 of 79 is a game lost, no tie.)
        if mine.declarer_points == Some(35) && crate::common::cego_local::Local::of(id).target() == 36 {
            add("Bürgermeister (35)".into());
        }
        if let Some(none) = mine.trickless {
            add(format!("Pflicht-Räuber, {none} without a trick"));
        }
        if mine.legage_lost {
            add("the Legage to the defence (no trick)".into());
        }
        if mine.kept_card_lost {
            add("a card kept and shown that would have taken a trick takes none".into());
        }
        if mine.court_kept {
            add("a court kept in a Leere game by a declarer dealt too few empty cards".into());
        }
        if let Some(kept) = mine.geiss_frei {
            let frei = options.get("geiss_frei").and_then(|v| v.as_str()).unwrap_or_default();
            add(format!("the Geiß taken back ({frei}) {}", if kept { "takes its trick" } else { "fails" }));
        }
        if mine.contract == "solo" && mine.declarer_points == Some(0) {
            add("a Solo without a trick (the Blinde to the defence)".into());
        }
        let outcome = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, Q> = outcome.players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        if let Some(wrong) = mine.wrong_leader.as_ref().or(mine.wrong_bidder.as_ref()).or(mine.wrong_card.as_ref()) {
            run.differences.push(format!("seed {seed}{steer}: {wrong}"));
        } else if mine.kept_lawful == Some(false) {
            run.differences.push(format!("seed {seed}{steer} ({}): the engine lets the declarer keep cards the sources do not", mine.contract));
        } else if engine != mine.balance {
            run.differences.push(format!(
                "seed {seed}{steer} ({}, declarer {:?}): engine {:?}, sources {:?}",
                mine.contract,
                mine.declarer_points,
                engine.values().map(|s| s.to_string()).collect::<Vec<_>>(),
                mine.balance.values().map(|s| s.to_string()).collect::<Vec<_>>(),
            ));
        }
    }
}

/// Cego for three (`cego-3`, P "Three Player Game"): the engine's scores against the second scorer over
/// simulated deals of three, unsteered and steered, the claim of a skinned Solo made in a fifth of the
/// steered deals where it may be, and Kleiner Mann with each choice of the option `geiss_frei`. Each
/// contract must be seen made and lost, a deal all passed played as Vorhand's Cego, the claim won
/// (someone was dealt a Solo hand) and lost, and the Geiß taken back taking its trick and failing.
#[test]
fn the_engine_scores_cego_for_three_as_the_sources_do() {
    let steered_games = count_or("CEGO_SCORER_GAMES", 600, 600);
    let base = seed("CEGO_SCORER_SEED");
    let mut plain = Run::default();
    let mut steered = Run::default();
    compare("cego-3", &SimOptions::default(), &BTreeMap::new(), base..base + steered_games / 2, &mut plain);
    let sim = SimOptions { end_deal: 0.2, ..SimOptions::steered() };
    compare("cego-3", &sim, &BTreeMap::new(), base + 1_000_000_000..base + 1_000_000_000 + steered_games, &mut steered);
    // Kleiner Mann where its Geiß may be taken back (the option geiss_frei, which cego-3 has from
    // cego), steered to it: a tenth as many deals for each choice.
    let mut frei = Run::default();
    let kleiner_mann = SimOptions { contract: ContractChoice::Only("kleiner-mann".into()), ..SimOptions::steered() };
    for (i, choice) in ["last-trick", "a-trick"].into_iter().enumerate() {
        let options = BTreeMap::from([("geiss_frei".to_string(), serde_json::json!(choice))]);
        let from = base + 2_000_000_000 + i as u64 * 1_000_000;
        compare("cego-3", &kleiner_mann, &options, from..from + steered_games / 10, &mut frei);
    }
    let mut reached: BTreeMap<String, u64> = plain.tally.clone();
    for (k, n) in steered.tally.iter().chain(&frei.tally) {
        *reached.entry(k.clone()).or_default() += n;
    }
    let report = format!("cego-3, 3 players: {} deals unsteered, {} steered, {} of Kleiner Mann with geiss_frei: {reached:?}", plain.games, steered.games, frei.games);
    if std::env::var("CEGO_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    let differences: Vec<String> = plain.differences.into_iter().chain(steered.differences).chain(frei.differences).collect();
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for contract in ["solo", "cego", "eine", "eine-leere", "zwei-leere", "zwei-verschiedene", "kleiner-mann", "ulti"] {
        for how in ["made", "lost"] {
            let case = format!("{contract} {how}");
            assert!(reached.get(&case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
        }
    }
    for case in [
        "all passed: Vorhand's Cego",
        "the claim of a skinned Solo won",
        "the claim of a skinned Solo lost",
        "the Geiß taken back (last-trick) takes its trick",
        "the Geiß taken back (last-trick) fails",
        "the Geiß taken back (a-trick) takes its trick",
        "the Geiß taken back (a-trick) fails",
    ] {
        assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
    }
    assert!(!reached.keys().any(|k| k.starts_with("piccolo") || k.starts_with("bettel") || k == "rauber played"), "{report}");
}

/// The stored games of three (`fixtures/cego-3/valid/`), the claims among them: the engine scores each
/// as the second scorer does.
#[test]
fn the_stored_games_of_three_score_as_the_sources_do() {
    let rules = tarot_testkit::registry().get("cego-3").unwrap();
    let mut claims = vec![];
    for path in tarot_testkit::fixture_files("cego-3", "valid") {
        let rec = tarot_engine::read_record(&std::fs::read(&path).unwrap()).unwrap();
        let v = replay(rules, &rec).unwrap();
        assert_eq!(v.status, Status::Valid, "{}: {}", path.display(), v.to_text());
        let mine = cego::score(&rec);
        let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        assert_eq!(engine, mine.balance, "{}", path.display());
        claims.extend(mine.claim);
    }
    claims.sort();
    assert_eq!(claims, [false, true], "the claim lost and won");
}

/// Parlett's three worked examples of the game's value (PB, "Examples"), and pagat's two of a
/// Gegensolo (P, "The Scoring": lost with 27 points, and with no trick, the Legage to the defence).
#[test]
fn the_second_scorer_gives_the_sources_examples() {
    assert_eq!(cego::game_value("solo", false, 41), 15);
    assert_eq!(cego::game_value("solo", false, 29), -10);
    assert_eq!(cego::game_value("zwei-leere", false, 39), 20);
    assert_eq!(cego::game_value("cego", false, 35), -5);
    assert_eq!(cego::game_value("cego", true, 27), -20);
    assert_eq!(cego::game_value("cego", true, 0), -70);
}

#[test]
fn the_engine_scores_cego_as_the_sources_do() {
    let steered_games = count_or("CEGO_SCORER_GAMES", 600, 600);
    let base = seed("CEGO_SCORER_SEED");
    let mut plain = Run::default();
    let mut steered = Run::default();
    let mut frei = Run::default();
    let none = BTreeMap::new();
    compare("cego", &SimOptions::default(), &none, base..base + steered_games / 2, &mut plain);
    compare("cego", &SimOptions::steered(), &none, base + 1_000_000_000..base + 1_000_000_000 + steered_games, &mut steered);
    // Kleiner Mann where its Geiß may be taken back (option geiss_frei), steered to it: a quarter as
    // many deals for each choice.
    let kleiner_mann = SimOptions { contract: ContractChoice::Only("kleiner-mann".into()), ..SimOptions::steered() };
    for (i, choice) in ["last-trick", "a-trick"].into_iter().enumerate() {
        let options = BTreeMap::from([("geiss_frei".to_string(), serde_json::json!(choice))]);
        let from = base + 2_000_000_000 + i as u64 * 1_000_000;
        compare("cego", &kleiner_mann, &options, from..from + steered_games / 4, &mut frei);
    }
    let mut report = format!("cego, 4 players: {} deals unsteered, {} steered, {} of Kleiner Mann with geiss_frei\n", plain.games, steered.games, frei.games);
    report += "| case | unsteered, per 1,000 deals | steered, per 1,000 deals | Kleiner Mann, geiss_frei, per 1,000 deals |\n|---|---:|---:|---:|\n";
    let runs = [&plain, &steered, &frei];
    let keys: std::collections::BTreeSet<&String> = runs.iter().flat_map(|r| r.tally.keys()).collect();
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for k in keys {
        let per = |r: &Run| r.tally.get(k).copied().unwrap_or(0) as f64 * 1000.0 / r.games.max(1) as f64;
        report += &format!("| {k} | {:.1} | {:.1} | {:.1} |\n", per(&plain), per(&steered), per(&frei));
        reached.insert(k.clone(), runs.iter().map(|r| r.tally.get(k).copied().unwrap_or(0)).sum());
    }
    if std::env::var("CEGO_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    let differences: Vec<String> = plain.differences.into_iter().chain(steered.differences).chain(frei.differences).collect();
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for contract in ["solo", "cego", "eine", "eine-leere", "zwei-leere", "zwei-verschiedene", "kleiner-mann", "piccolo", "bettel", "ulti", "over a Solo"] {
        for how in ["made", "lost"] {
            let case = format!("{contract} {how}");
            assert!(reached.get(&case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
        }
    }
    assert!(reached.get("rauber played").copied().unwrap_or(0) > 0, "no Räuber\n{report}");
    for case in [
        "a Solo without a trick (the Blinde to the defence)",
        "a card kept and shown that would have taken a trick takes none",
        "a court kept in a Leere game by a declarer dealt too few empty cards",
        "the Geiß taken back (last-trick) takes its trick",
        "the Geiß taken back (last-trick) fails",
        "the Geiß taken back (a-trick) takes its trick",
        "the Geiß taken back (a-trick) fails",
    ] {
        assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
    }
}

/// A stored valid game, `rec` read from `path`: the engine calls it valid and scores it as the second
/// scorer does, who finds no card kept that the sources forbid. The second scorer's reading of it.
fn stored_game_agrees(rules: &tarot_engine::ir::Ruleset, rec: &tarot_engine::GameRecord, path: &std::path::Path) -> cego::Scored {
    let v = replay(rules, rec).unwrap();
    assert_eq!(v.status, Status::Valid, "{}: {}", path.display(), v.to_text());
    let mine = cego::score(rec);
    let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
    assert_eq!(engine, mine.balance, "{}", path.display());
    assert_ne!(mine.kept_lawful, Some(false), "{}: cards kept that the sources do not allow", path.display());
    assert_eq!(mine.wrong_bidder, None, "{}", path.display());
    assert_eq!(mine.wrong_card, None, "{}: a card the sources do not allow", path.display());
    mine
}

/// The stored valid four-player games (`fixtures/cego/valid/`): the engine scores each as the second
/// scorer does, and among them is a Leere game in which a card kept and shown would have taken a trick
/// and takes none (`play { loses }`, P "Normal Games").
#[test]
fn the_stored_games_score_as_the_sources_do() {
    let rules = tarot_testkit::registry().get("cego").unwrap();
    let mut kept_lost = vec![];
    for path in tarot_testkit::fixture_files("cego", "valid") {
        let rec = tarot_engine::read_record(&std::fs::read(&path).unwrap()).unwrap();
        if rec.players.len() != 4 {
            continue;
        }
        let mine = stored_game_agrees(rules, &rec, &path);
        if mine.kept_card_lost {
            kept_lost.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(!kept_lost.is_empty(), "no stored game where a card kept and shown would have taken a trick");
}

/// A court kept in place of an empty card (PB9, P "Normal Games"): in each Leere game, the stored game
/// whose declarer, dealt too few empty cards, keeps a court that would have taken a trick and takes
/// none (`valid/<game>-court.json`) is valid, its cards kept lawful to the second scorer and scored
/// alike; the same game with the empty cards dealt him (`invalid/discard.require.N.json`) is refused by
/// that game's requirement, and the second scorer finds the court kept unlawful there too.
#[test]
fn a_court_kept_for_want_of_empty_cards_is_judged_as_the_sources_do() {
    let rules = tarot_testkit::registry().get("cego").unwrap();
    let read = |rel: &str| tarot_engine::read_record(tarot_testkit::fixture(&format!("cego/{rel}")).as_bytes()).unwrap();
    for (game, n) in [("eine-leere", 1), ("zwei-leere", 2), ("zwei-verschiedene", 3)] {
        let rec = read(&format!("valid/{game}-court.json"));
        let v = replay(rules, &rec).unwrap();
        assert_eq!(v.status, Status::Valid, "{game}: {}", v.to_text());
        let mine = cego::score(&rec);
        assert_eq!(mine.contract, game);
        assert!(mine.court_kept && mine.court_lost, "{game}: a court kept that would have taken a trick: {mine:?}");
        assert_eq!(mine.kept_lawful, Some(true), "{game}");
        let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        assert_eq!(engine, mine.balance, "{game}");
        let bad = read(&format!("invalid/discard.require.{n}.json"));
        let v = replay(rules, &bad).unwrap();
        assert_eq!(v.violation.as_ref().map(|b| b.rule.to_string()), Some(format!("discard.require.{n}")), "{game}: {}", v.to_text());
        let mine = cego::score(&bad);
        assert!(mine.court_kept, "{game}");
        assert_eq!(mine.kept_lawful, Some(false), "{game}");
    }
}

/// The local versions (`cego-ministranten`, `cego-ministranten-3`, `cego-oberwolfach`, `cego-oberwolfach-4`, `cego-schmidt`, `cego-ichenheim`,
/// `cego-twos`, `cego-braeunlingen`; P "Ministranten Version" at four and at three, "Oberwolfach Version" at three and at
/// four, "Ichenheim Version", "Cards counted in twos", "Bräunlingen Tournament Version"): the engine's
/// scores against the second scorer (`common/cego_local.rs`) over simulated
/// deals, unsteered (where a Solo is bid, and its Gegensolo) and steered to every contract; the
/// Ministranten also with Piccolo at 35 (the option `piccolo`) and with the Geregelter Räuber among
/// Vorhand's choices (the option `geregelter_rauber`: steered to it, and to every contract), each of its
/// first three tricks played by P's rule and seen played, Oberwolfach (at three and at four) and the
/// Ministranten at three with the claim of a skinned Solo made in a fifth of the steered deals where it
/// may be. Each declarer's game must be seen made
/// and lost (at Ichenheim the Ulti too, and the Solodu lost; in twos the special games and a game bid
/// over a Solo; at the tournament those too and the Bürgermeister), and each game each for himself
/// played; the tournament's Solo bidder silent in the second phase, begun by Vorhand; no court may be kept in a Leere game of the
/// versions that ask for Brettli (the cards kept are Brettli, and a player without them does not bid
/// the game). The Schmidt leaflet (`cego-schmidt`) also with each variation, an option
/// (`schmidt_variations`): a court kept where other cards may stand in, the Geiß taken back for any
/// trick taking it and failing, and the Solo bidder bidding over his own Solo must each be seen.
#[test]
fn the_engine_scores_the_local_versions_as_the_sources_do() {
    let steered_games = count_or("CEGO_SCORER_GAMES", 600, 600);
    let base = seed("CEGO_SCORER_SEED");
    let normal = ["solo", "cego", "eine", "eine-leere", "zwei-leere", "zwei-verschiedene", "kleiner-mann"];
    let versions: [(&str, &[&str], &[&str]); 8] = [
        ("cego-ministranten", &["gegensolo", "piccolo", "bettel", "ulti"], &["rauber played", "dresch played", "geregelter-rauber played"]),
        ("cego-ministranten-3", &["gegensolo", "piccolo", "bettel", "ulti"], &["the claim of a skinned Solo won", "the claim of a skinned Solo lost"]),
        ("cego-oberwolfach", &[], &["the claim of a skinned Solo won", "the claim of a skinned Solo lost"]),
        ("cego-oberwolfach-4", &["piccolo", "bettel"], &["rauber played", "the claim of a skinned Solo won", "the claim of a skinned Solo lost"]),
        ("cego-schmidt", &[], &["the claim of a skinned Solo won", "the claim of a skinned Solo lost"]),
        ("cego-ichenheim", &["ulti"], &["solodu lost"]),
        ("cego-twos", &["piccolo", "bettel", "ulti", "over a Solo"], &["rauber played"]),
        ("cego-braeunlingen", &["piccolo", "bettel", "ulti", "over a Solo"], &["rauber played", "Bürgermeister (35)"]),
    ];
    for (id, more, cases) in versions {
        let mut runs = [Run::default(), Run::default(), Run::default()];
        compare(id, &SimOptions::default(), &BTreeMap::new(), base..base + steered_games / 2, &mut runs[0]);
        let sim = SimOptions { end_deal: 0.2, ..SimOptions::steered() };
        compare(id, &sim, &BTreeMap::new(), base + 1_000_000_000..base + 1_000_000_000 + steered_games, &mut runs[1]);
        if id == "cego-ministranten" {
            let cheap = BTreeMap::from([("piccolo".to_string(), serde_json::json!(35))]);
            let only = SimOptions { contract: ContractChoice::Only("piccolo".into()), ..SimOptions::steered() };
            compare(id, &only, &cheap, base + 2_000_000_000..base + 2_000_000_000 + steered_games / 10, &mut runs[2]);
            // The Geregelter Räuber, Vorhand's choice under its option: its first three tricks by P's rule.
            let geregelt = BTreeMap::from([("geregelter_rauber".to_string(), serde_json::json!("yes"))]);
            let only = SimOptions { contract: ContractChoice::Only("geregelter-rauber".into()), ..SimOptions::steered() };
            compare(id, &only, &geregelt, base + 3_000_000_000..base + 3_000_000_000 + steered_games / 5, &mut runs[2]);
            compare(id, &SimOptions::steered(), &geregelt, base + 4_000_000_000..base + 4_000_000_000 + steered_games / 2, &mut runs[2]);
        }
        if id == "cego-schmidt" {
            schmidt_variations(base, steered_games, &mut runs[2]);
        }
        let mut reached: BTreeMap<String, u64> = BTreeMap::new();
        for (k, n) in runs.iter().flat_map(|r| &r.tally) {
            *reached.entry(k.clone()).or_default() += n;
        }
        let report = format!("{id}: {} deals: {reached:?}", runs.iter().map(|r| r.games).sum::<u64>());
        if std::env::var("CEGO_SCORER_REPORT").is_ok() {
            println!("{report}");
        }
        let differences: Vec<String> = runs.into_iter().flat_map(|r| r.differences).collect();
        assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
        for contract in normal.iter().chain(more) {
            for how in ["made", "lost"] {
                let case = format!("{contract} {how}");
                assert!(reached.get(&case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
            }
        }
        for &case in cases {
            assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
        }
        // Brettli only (P: "must really be empty cards"), but in twos and at the tournament, which keep cego's games: no Leere game is bid by a
        // player dealt too few empty cards, so no court is kept in their stead.
        let court = "a court kept in a Leere game by a declarer dealt too few empty cards";
        if !["cego-twos", "cego-braeunlingen", "cego-schmidt"].contains(&id) {
            assert!(!reached.contains_key(court), "{id}: {court}\n{report}");
        }
        if id == "cego-schmidt" {
            let cases = [court, "the Geiß taken back (a-trick) takes its trick", "the Geiß taken back (a-trick) fails", "the Solo bidder bids over his own Solo"];
            for case in cases {
                assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
            }
        }
    }
}

/// The Schmidt leaflet's variations (P "Schmidt Version"), each option's other choice by itself:
/// the Geiß taken back for any trick (steered to Kleiner Mann), other cards standing in for empty ones
/// and the cards kept led (steered to every contract), a Solo's factor 2 won and 1 lost (steered to
/// the Solo), and bidding over one's own Solo (unsteered, where Solos are bid).
fn schmidt_variations(base: u64, games: u64, run: &mut Run) {
    let id = "cego-schmidt";
    let one = |k: &str, v: &str| BTreeMap::from([(k.to_string(), serde_json::json!(v))]);
    let only = |c: &str| SimOptions { contract: ContractChoice::Only(c.into()), hold_petit: 1.0, ..SimOptions::steered() };
    let mut from = base + 5_000_000_000;
    let mut next = |n: u64| {
        from += 100_000_000;
        from..from + n
    };
    compare(id, &only("kleiner-mann"), &one("geiss_frei", "a-trick"), next(games / 4), run);
    compare(id, &SimOptions::steered(), &one("leere_ersatz", "yes"), next(games / 2), run);
    compare(id, &SimOptions::steered(), &one("leere_lead", "yes"), next(games / 2), run);
    let both = BTreeMap::from([("leere_ersatz".to_string(), serde_json::json!("yes")), ("leere_lead".to_string(), serde_json::json!("yes"))]);
    compare(id, &SimOptions::steered(), &both, next(games / 4), run);
    compare(id, &only("solo"), &one("solo_factor", "won-2"), next(games / 4), run);
    compare(id, &SimOptions::default(), &one("own_solo", "yes"), next(games / 2), run);
}

/// The stored games of the local versions (`fixtures/cego-ministranten/valid/`, `fixtures/cego-ministranten-3/valid/`,
/// `fixtures/cego-oberwolfach/valid/`, `fixtures/cego-oberwolfach-4/valid/`, `fixtures/cego-schmidt/valid/`, `fixtures/cego-ichenheim/valid/`,
/// `fixtures/cego-twos/valid/`, `fixtures/cego-braeunlingen/valid/`), at the table of the rules' smallest size (at five, the dealer
/// sits out): the engine scores each as the second scorer does.
#[test]
fn the_stored_games_of_the_local_versions_score_as_the_sources_do() {
    for id in ["cego-ministranten", "cego-ministranten-3", "cego-oberwolfach", "cego-oberwolfach-4", "cego-schmidt", "cego-ichenheim", "cego-twos", "cego-braeunlingen"] {
        let rules = tarot_testkit::registry().get(id).unwrap();
        for path in tarot_testkit::fixture_files(id, "valid") {
            let rec = tarot_engine::read_record(&std::fs::read(&path).unwrap()).unwrap();
            if rec.players.len() != rules.players.0 {
                continue;
            }
            stored_game_agrees(rules, &rec, &path);
        }
    }
}

/// The Geregelter Räuber by the second scorer (P "The possible Games"): P's example, a player with only
/// the 16 and the 1, plays the 16 to the first trick, a Brettli to the second (trumps led), the 1 to the
/// third; the 1 given to the second, or a Brettli to the first while he holds the 16, breaks the rule,
/// and so does another trump than the Gstieß held, given to the first trick, or a card of the suit led
/// where a trump could be given.
#[test]
fn the_second_scorer_plays_the_geregelter_rauber_as_p_does() {
    use crate::common::cego::Card;
    use crate::common::cego_local::geregelt_breach;
    let cards = |codes: &str| codes.split(' ').map(Card::parse).collect::<Vec<Card>>();
    let hands = vec![cards("EX T21 T20 T19 KC"), cards("T16 T1 7C 8C 9C"), cards("T2 T3 T4 10C KS"), cards("T5 T6 T7 QS JS")];
    let trick = |seats: [usize; 4], codes: &str| seats.into_iter().zip(cards(codes)).collect::<Vec<(usize, Card)>>();
    let right = [trick([0, 1, 2, 3], "EX T16 T2 T5"), trick([0, 1, 2, 3], "T21 7C T3 T6"), trick([0, 1, 2, 3], "T20 T1 T4 T7")];
    assert_eq!(geregelt_breach(&hands, &right), None);
    let the_1_early = [trick([0, 1, 2, 3], "EX T16 T2 T5"), trick([0, 1, 2, 3], "T21 T1 T3 T6")];
    assert!(geregelt_breach(&hands, &the_1_early).is_some_and(|b| b.contains("trick 2") && b.contains("Brettli")));
    let brettli_early = [trick([0, 1, 2, 3], "EX 7C T2 T5")];
    assert!(geregelt_breach(&hands, &brettli_early).is_some_and(|b| b.contains("trick 1") && b.contains("a trump not owed later")));
    let gstiess_held = [trick([0, 1, 2, 3], "T20 T16 T2 T5")];
    assert!(geregelt_breach(&hands, &gstiess_held).is_some_and(|b| b.contains("the card owed to it")));
    // A leader whose one trump is owed later and who holds no Brettli leads a club: the 10 of clubs
    // followed by a player holding trumps breaks the rule.
    let hands = vec![cards("KC T21 QC JC CC"), cards("T16 T1 7C 8C 9C"), cards("T2 T3 T4 10C KS"), cards("EX T6 T7 QS JS")];
    let followed = [trick([0, 1, 2, 3], "KC T16 10C EX")];
    assert!(geregelt_breach(&hands, &followed).is_some_and(|b| b.contains("seat 2") && b.contains("a trump not owed later")));
}

/// The count in twos by the second scorer (P "Cards counted in twos"): the whole pack in pairs is 79,
/// whatever the order; the table's edges, won at 40 and lost at 39 both base 1, 44 and 45 either side
/// of a row, 79 and none base 8; a Solo lost at factor 1 and a game over a Solo one more.
#[test]
fn the_second_scorer_counts_in_twos_as_pagat_does() {
    use crate::common::cego_twos::{base, game_value, points_in_pairs};
    // Gstieß, Mond, Geiß and four kings 5, four queens 4, four Reiter 3, four jacks 2, 35 others 1.
    let mut pack: Vec<i64> = [vec![5; 7], vec![4; 4], vec![3; 4], vec![2; 4], vec![1; 35]].concat();
    assert_eq!(pack.len(), 54);
    assert_eq!(points_in_pairs(&pack), 79);
    pack.reverse();
    pack.rotate_left(17);
    assert_eq!(points_in_pairs(&pack), 79);
    // A king and a queen: 5 + 4 - 1; two empty cards: 1.
    assert_eq!(points_in_pairs(&[5, 4]), 8);
    assert_eq!(points_in_pairs(&[1, 1]), 1);
    for (points, b) in [(40, 1), (44, 1), (45, 2), (74, 7), (75, 8), (79, 8), (39, 1), (35, 1), (34, 2), (5, 7), (4, 8), (0, 8)] {
        assert_eq!(base(points), b, "{points}");
    }
    assert_eq!(game_value("cego", false, 40), 1);
    assert_eq!(game_value("cego", false, 39), -1);
    assert_eq!(game_value("solo", false, 40), 2);
    assert_eq!(game_value("solo", false, 39), -1);
    assert_eq!(game_value("kleiner-mann", false, 79), 48);
    assert_eq!(game_value("cego", true, 0), -16);
    assert_eq!(game_value("zwei-leere", true, 52), 15);
}

/// The games of the count in twos at the edges of P's table (`fixtures/cego-twos/valid/`, written by
/// `cego_twos_fixtures`): each shows the declarer's points its name says (`won-top` 75 or more,
/// `no-trick` none), is won from 40 and lost below it, and is scored by the engine as the second scorer
/// scores it, base and factor.
#[test]
fn the_count_in_twos_at_the_edges_of_the_table_scores_as_pagat_does() {
    let rules = tarot_testkit::registry().get("cego-twos").unwrap();
    let read = |name: &str| tarot_engine::read_record(tarot_testkit::fixture(&format!("cego-twos/valid/{name}.json")).as_bytes()).unwrap();
    for (name, points, made) in [
        ("won-40", 40..=40, true),
        ("lost-39", 39..=39, false),
        ("won-44", 44..=44, true),
        ("won-45", 45..=45, true),
        ("lost-35", 35..=35, false),
        ("lost-34", 34..=34, false),
        ("no-trick", 0..=0, false),
        ("won-top", 75..=79, true),
    ] {
        let rec = read(name);
        let v = replay(rules, &rec).unwrap();
        assert_eq!(v.status, Status::Valid, "{name}: {}", v.to_text());
        let mine = cego::score(&rec);
        let pts = mine.declarer_points.expect("a declarer's game");
        assert!(points.contains(&pts), "{name}: the declarer has {pts}");
        assert_eq!(mine.made, Some(made), "{name}");
        let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        assert_eq!(engine, mine.balance, "{name}");
        let game = crate::common::cego_twos::game_value(&mine.contract, mine.over_solo, pts);
        let term = v.outcome.as_ref().unwrap().values.iter().find(|(k, _)| &**k == "counted").map(|(_, x)| x.to_string());
        assert_eq!(term, Some(pts.to_string()), "{name}: the engine's count");
        // The declarer wins or pays the game from or to each of the three others.
        let moved = engine.values().fold(Q::int(0), |a, s| a + s.abs());
        assert_eq!(moved, Q::int(6 * game.abs()), "{name}: the game is {game} from each defender");
    }
}
