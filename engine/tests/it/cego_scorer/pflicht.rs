//! The Gasthaus zum Löwen's evening (P "Pflicht-Räuber", `cego-pflicht-rauber`) by the second scorer
//! (`common/cego.rs`): the round of compulsory Räuber, nobody bidding, its payments by the players
//! without a trick, and the normal game after it at ten times the stake.

use std::collections::BTreeMap;

use super::{compare, stored_game_agrees, Run};
use crate::common::{count_or, seed};
use tarot_engine::{ContractChoice, SimOptions};

const ID: &str = "cego-pflicht-rauber";

fn round(choice: &str) -> BTreeMap<String, serde_json::Value> {
    BTreeMap::from([("round".to_string(), serde_json::json!(choice))])
}

/// Simulated deals of each part of the evening, unsteered and steered (the steered deals give a
/// player a run of the highest trumps a third of the time, so that players without a trick are
/// seen): the engine scores each as the second scorer does. The round's payments with nobody, one,
/// two and three players without a trick must each be seen; after the round, Cego and Solo made and
/// lost and Vorhand's Räuber.
#[test]
fn the_engine_scores_the_gasthaus_evening_as_p_does() {
    let games = count_or("CEGO_SCORER_GAMES", 600, 600);
    let base = seed("CEGO_SCORER_SEED");
    let mut run = Run::default();
    for (i, choice) in ["pflicht-rauber", "after-pflicht", "normal"].into_iter().enumerate() {
        let from = base + 1_000_000_000 * i as u64;
        compare(ID, &SimOptions::default(), &round(choice), from..from + games / 4, &mut run);
        compare(ID, &SimOptions::steered(), &round(choice), from + 500_000_000..from + 500_000_000 + games / 2, &mut run);
    }
    // Vorhand's Räuber after the round, at ten times the stake.
    let only = SimOptions { contract: ContractChoice::Only("rauber".into()), ..SimOptions::steered() };
    compare(ID, &only, &round("after-pflicht"), base + 3_000_000_000..base + 3_000_000_000 + games / 10, &mut run);
    let report = format!("{ID}: {} deals: {:?}", run.games, run.tally);
    if std::env::var("CEGO_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(run.differences.is_empty(), "{} deals scored differently:\n{}", run.differences.len(), run.differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for none in 0..4 {
        let case = format!("Pflicht-Räuber, {none} without a trick");
        assert!(run.tally.get(&case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
    }
    for case in ["cego made", "cego lost", "solo made", "solo lost", "rauber played"] {
        assert!(run.tally.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}\n{report}");
    }
}

/// The stored games (`fixtures/cego-pflicht-rauber/valid/`, written by `cego_pflicht_rauber_fixtures`):
/// the engine scores each as the second scorer does, and each shows the case its name says.
#[test]
fn the_stored_games_of_the_gasthaus_evening_score_as_p_does() {
    let rules = tarot_testkit::registry().get(ID).unwrap();
    let mut seen = 0;
    for path in tarot_testkit::fixture_files(ID, "valid") {
        let rec = tarot_engine::read_record(&std::fs::read(&path).unwrap()).unwrap();
        let mine = stored_game_agrees(rules, &rec, &path);
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let want = match name.as_str() {
            "pflicht-30" => Some(0),
            "pflicht-60" => Some(1),
            "pflicht-120" => Some(2),
            "pflicht-240" => Some(3),
            _ => None,
        };
        assert_eq!(mine.trickless, want, "{}", path.display());
        // The loser pays 30 times 2 for each player without a trick; the taker of every trick wins 240.
        let pays: i64 = match want {
            Some(3) => 240,
            Some(n) => 30 << n,
            None => continue,
        };
        let top = mine.balance.values().map(|q| q.to_string().parse::<i64>().unwrap().abs()).max().unwrap();
        assert_eq!(top % pays, 0, "{}: {:?}", path.display(), mine.balance);
        seen += 1;
    }
    assert_eq!(seen, 4, "the four payments of the round are stored");
}

/// Outside the round (`round = "normal"`, the default) the evening's file is cego-pagat's game: every
/// stored game of cego-pagat at four, replayed as a deal of the evening, has cego-pagat's verdict (its
/// status, and each player's score).
#[test]
fn a_normal_deal_of_the_evening_is_cego_pagats() {
    let pagat = tarot_testkit::registry().get("cego-pagat").unwrap();
    let evening = tarot_testkit::registry().get(ID).unwrap();
    let mut seen = 0;
    for kind in ["valid", "invalid"] {
        for path in tarot_testkit::fixture_files("cego-pagat", kind) {
            let rec = tarot_engine::read_record(&std::fs::read(&path).unwrap()).unwrap();
            if rec.players.len() != 4 {
                continue;
            }
            let theirs = tarot_engine::replay(pagat, &rec).unwrap();
            let mut ours = rec.clone();
            ours.ruleset = ID.into();
            let ours = tarot_engine::replay(evening, &ours).unwrap();
            let scores = |v: &tarot_engine::Verdict| v.outcome.as_ref().map(|o| o.players.iter().map(|p| (p.player.to_string(), p.score)).collect::<Vec<_>>());
            assert_eq!((theirs.status, scores(&theirs)), (ours.status, scores(&ours)), "{}", path.display());
            assert_eq!(theirs.violation.map(|b| b.rule.to_string()), ours.violation.map(|b| b.rule.to_string()), "{}", path.display());
            seen += 1;
        }
    }
    assert!(seen > 20, "{seen} games of cego-pagat");
}
