//! The engine's Minchiate scores against a second scorer written by hand from Minucci's note
//! (`common/minchiate.rs`), over simulated games of `minchiate` at two, three and four players: games
//! unsteered, games steered to the rare cases (a strong hand of the highest trumps or of a versicola's
//! cards, shown and played high; the Matto held to the last trick; versicole shown nine times in ten),
//! deals arranged with a versicola that can be captured (and, for the dealer, the card that lengthens
//! it at the head of the stock, to steal), and deals arranged so that the Matto's player takes nothing (he must then give the Matto itself, M2). Each game is simulated from
//! its own seed, so a difference names the seed that reproduces it.
//!
//! `MINCHIATE_SCORER_GAMES` sets the number of steered games per table (default 400; half as many with
//! a versicola dealt, a quarter as many unsteered and with the Matto's hand arranged), and `MINCHIATE_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::minchiate;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tarot_engine::testing::NAMES;
use tarot_engine::Q;
use tarot_engine::{random_game_from, random_game_with, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Status};

/// The cases a game shows, as the rows of the coverage table.
fn cases(s: &minchiate::Scored, tally: &mut BTreeMap<&'static str, u64>) {
    let mut add = |k: &'static str, yes: bool| {
        if yes {
            *tally.entry(k).or_default() += 1;
        }
    };
    add("a player sits out", s.sat_out.is_some());
    add("a card stolen", s.steals > 0);
    add("a versicola shown", s.versicole_shown > 0);
    add("a stolen card shown in a versicola", s.stolen_card_shown);
    add("a shown card captured", s.shown_card_captured);
    add("a shown card captured, a player sitting out", s.shown_card_captured_with_a_sitter);
    add("a versicola broken", s.versicola_broken);
    add("a versicola saved after a loss", s.versicola_saved_after_a_loss);
    add("a versicola made with captured cards", s.captured_versicola);
    add("the 29 in a versicola", s.t29_in_versicola);
    add("a noble card captured", s.nobili_captured > 0);
    add("the Matto exchanged for a cartaccia", s.matto_exchanged);
    add("the Matto given by a player who took nothing", s.matto_shut_out);
    add("the Matto with one versicola", s.matto_with_versicole == 1);
    add("the Matto with two versicole or more", s.matto_with_versicole >= 2);
    add("cards over the hand paid", s.cards_over);
}

/// A deal where the Matto's player holds, besides it, only the lowest numerals of the suits, so that he
/// most likely takes no trick; the other cards shuffled.
fn matto_alone<R: Rng>(n: usize, rng: &mut R) -> (Vec<String>, usize, Event) {
    let hand = if n == 4 { 21 } else { 25 };
    let names: Vec<String> = NAMES[..n].iter().map(|s| s.to_string()).collect();
    let low: Vec<String> =
        ["S", "C"].iter().flat_map(|s| (1..=7).map(move |r| format!("{r}{s}"))).chain(["H", "D"].iter().flat_map(|s| (4..=10).map(move |r| format!("{r}{s}")))).collect();
    let mut weak: Vec<String> = low.clone();
    weak.shuffle(rng);
    weak.truncate(hand - 1);
    weak.push("EX".into());
    let mut rest: Vec<String> = (1..=40)
        .map(|t| format!("T{t}"))
        .chain(["S", "C", "H", "D"].iter().flat_map(|s| ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"].iter().map(move |r| format!("{r}{s}"))))
        .filter(|c| !weak.contains(c))
        .collect();
    rest.shuffle(rng);
    let holder = rng.gen_range(0..n);
    let dealer = rng.gen_range(0..n);
    let mut hands = BTreeMap::new();
    for (p, name) in names.iter().enumerate() {
        let cards: Vec<String> = if p == holder { weak.clone() } else { rest.drain(..hand).collect() };
        hands.insert(name.as_str().into(), cards.iter().map(|c| c.as_str().into()).collect());
    }
    // The stock begins with a card that may not be stolen, so that nobody steals.
    let stop = rest.iter().position(|c| c.len() <= 3 && c.ends_with('S') && c != "KS").unwrap_or(0);
    rest.swap(0, stop);
    let dog = rest.iter().map(|c| c.as_str().into()).collect();
    (names, dealer, Event::Deal { hands, dog, cut: None, piles: BTreeMap::new(), packets: vec![] })
}

/// A deal where one player holds a versicola that can be captured (three to five in a row of the 28 to
/// 35), half the time three kings too and half the time the Matto; where he deals, the stock begins
/// with the trump that lengthens his run, which he steals (M4) and may show.
fn versicola_dealt<R: Rng>(n: usize, rng: &mut R) -> (Vec<String>, usize, Event) {
    let hand = if n == 4 { 21 } else { 25 };
    let names: Vec<String> = NAMES[..n].iter().map(|s| s.to_string()).collect();
    let start = rng.gen_range(28..=33u8);
    let len = rng.gen_range(3..=5u8).min(36 - start);
    let mut mine: Vec<String> = (start..start + len).map(|t| format!("T{t}")).collect();
    if rng.gen_bool(0.5) {
        mine.extend(["KS", "KC", "KD"].map(String::from));
    }
    if rng.gen_bool(0.5) {
        mine.push("EX".into());
    }
    let next = format!("T{}", start + len);
    let mut rest: Vec<String> = (1..=40)
        .map(|t| format!("T{t}"))
        .chain(["EX".to_string()])
        .chain(["S", "C", "H", "D"].iter().flat_map(|s| ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"].iter().map(move |r| format!("{r}{s}"))))
        .filter(|c| !mine.contains(c) && *c != next)
        .collect();
    rest.shuffle(rng);
    let holder = rng.gen_range(0..n);
    let dealer = if rng.gen_bool(0.5) { holder } else { rng.gen_range(0..n) };
    let mut hands = BTreeMap::new();
    for (p, name) in names.iter().enumerate() {
        let mut cards: Vec<String> = if p == holder { mine.clone() } else { vec![] };
        let need = hand - cards.len();
        cards.extend(rest.drain(..need));
        hands.insert(name.as_str().into(), cards.iter().map(|c| c.as_str().into()).collect());
    }
    let dog = std::iter::once(next).chain(rest).map(|c| c.as_str().into()).collect();
    (names, dealer, Event::Deal { hands, dog, cut: None, piles: BTreeMap::new(), packets: vec![] })
}

struct Run {
    games: u64,
    tally: BTreeMap<&'static str, u64>,
    differences: Vec<String>,
}

fn compare(n: usize, how: &str, seeds: std::ops::Range<u64>) -> Run {
    let rules = registry().get("minchiate").unwrap();
    let options = BTreeMap::new();
    let mut run = Run { games: 0, tally: BTreeMap::new(), differences: vec![] };
    for seed in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rec: GameRecord = match how {
            "unsteered" => random_game_with(rules, n, &options, &SimOptions::default(), &mut rng).unwrap(),
            "steered" => random_game_with(rules, n, &options, &SimOptions { declare: 0.9, ..SimOptions::steered() }, &mut rng).unwrap(),
            "versicola" => {
                let (names, dealer, deal) = versicola_dealt(n, &mut rng);
                random_game_from(rules, &names, dealer, deal, &options, &mut rng).unwrap()
            }
            _ => {
                let (names, dealer, deal) = matto_alone(n, &mut rng);
                random_game_from(rules, &names, dealer, deal, &options, &mut rng).unwrap()
            }
        };
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        assert_eq!(v.status, Status::Valid, "{n} players, {how}, seed {seed}: {}", v.to_text());
        let mine = minchiate::score(&rec);
        cases(&mine, &mut run.tally);
        let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        let agrees = mine.scores.iter().all(|(k, &x)| engine.get(k) == Some(&Q::int(x))) && mine.scores.len() == engine.len();
        if !agrees {
            run.differences.push(format!(
                "{n} players, {how}, seed {seed}: engine {:?}, Minucci {:?}",
                engine.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                mine.scores.values().collect::<Vec<_>>()
            ));
        }
    }
    run
}

#[test]
fn the_engine_scores_minchiate_games_as_minucci_does() {
    let steered = count("MINCHIATE_SCORER_GAMES", 400);
    let base = seed("MINCHIATE_SCORER_SEED");
    let mut differences = vec![];
    let mut report = String::new();
    let mut total = 0;
    for n in [2, 3, 4] {
        let runs = [
            ("unsteered", compare(n, "unsteered", base..base + steered / 4)),
            ("steered", compare(n, "steered", base + 1_000_000_000..base + 1_000_000_000 + steered)),
            ("a versicola dealt", compare(n, "versicola", base + 3_000_000_000..base + 3_000_000_000 + steered / 2)),
            ("the Matto's player dealt the lowest cards", compare(n, "matto", base + 2_000_000_000..base + 2_000_000_000 + steered / 4)),
        ];
        report += &format!("\n{n} players: {}\n", runs.iter().map(|(how, r)| format!("{} games {how}", r.games)).collect::<Vec<_>>().join(", "));
        report += "| case |";
        report += &runs.iter().map(|(how, _)| format!(" {how}, per 1,000 |")).collect::<String>();
        report += "\n|---|";
        report += &"---:|".repeat(runs.len());
        report += "\n";
        let keys: std::collections::BTreeSet<&str> = runs.iter().flat_map(|(_, r)| r.tally.keys().copied()).collect();
        for k in keys {
            report += &format!("| {k} |");
            for (_, r) in &runs {
                report += &format!(" {:.1} |", r.tally.get(k).copied().unwrap_or(0) as f64 * 1000.0 / r.games.max(1) as f64);
            }
            report += "\n";
        }
        for (_, r) in runs {
            total += r.games;
            differences.extend(r.differences);
        }
    }
    if std::env::var("MINCHIATE_SCORER_REPORT").is_ok() {
        println!("{total} games\n{report}");
    }
    assert!(differences.is_empty(), "{} of {total} games scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
}

/// The stored games of `minchiate` (those under Minucci's revoke with no revoke in them: the second
/// scorer knows no fault), the hand-dealt ones included, scored alike.
#[test]
fn the_stored_minchiate_games_are_scored_as_minucci_does() {
    let rules = registry().get("minchiate").unwrap();
    let mut checked = 0;
    for path in tarot_testkit::fixture_files("minchiate", "valid") {
        let rec = tarot_engine::parse_record(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let v = replay(rules, &rec).unwrap();
        if !rec.options.is_empty() || v.ledger.iter().any(|l| l.rule.starts_with("play.fault")) {
            continue;
        }
        let mine = minchiate::score(&rec);
        let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        let expected: BTreeMap<String, Q> = mine.scores.iter().map(|(k, &x)| (k.clone(), Q::int(x))).collect();
        assert_eq!(engine, expected, "{}\n{}", path.display(), v.to_text());
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} games checked");
}

/// Two facts of the note, on every stored game: the Matto's player pays nothing for the trick he plays
/// it to, which he loses ("non muor mai", M2); and each trick gives its taker as many cards as were
/// played to it, the cartaccia given for the Matto among them, so the cards over the hand are the
/// tricks won times the trick's cards, less the hand (M5). (A revoke's card given back, M5, moves a
/// card after its trick: those games are left out of the count.)
#[test]
fn the_matto_is_never_paid_for_and_its_cartaccia_is_counted() {
    let rules = registry().get("minchiate").unwrap();
    let (mut mattos, mut lines) = (0, 0);
    for path in tarot_testkit::fixture_files("minchiate", "valid") {
        let rec = tarot_engine::parse_record(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let v = replay(rules, &rec).unwrap();
        let outcome = v.outcome.as_ref().unwrap();
        let revoked = v.ledger.iter().any(|l| l.rule.starts_with("play.fault"));
        let playing = rec.players.len() - rec.events.iter().any(|e| matches!(e, Event::SitOut { .. })) as usize;
        let hand = if rec.players.len() == 4 { 21 } else { 25 };
        let plays: Vec<(usize, &str, &str)> =
            rec.events.iter().enumerate().filter_map(|(i, e)| if let Event::Play { player, card } = e { Some((i, &**player, &**card)) } else { None }).collect();
        if let Some(k) = plays.iter().position(|(_, _, c)| *c == "EX") {
            let (_, holder, _) = plays[k];
            let end = plays[k / playing * playing + playing - 1].0;
            let paid: Vec<_> = v.ledger.iter().filter(|l| l.rule.starts_with("on.play") && l.event == Some(end) && l.from.as_deref() == Some(holder)).collect();
            assert!(paid.is_empty(), "{}: {holder} pays for the trick of his Matto: {paid:?}", path.display());
            mattos += 1;
        }
        for l in v.ledger.iter().filter(|l| !revoked && &*l.rule == "score.pay.cards-over-the-hand") {
            let won = outcome.players.iter().find(|p| Some(&*p.player) == l.to.as_deref()).unwrap().tricks;
            assert_eq!(l.amount, Q::int((won * playing) as i64 - hand), "{}: {l:?}", path.display());
            lines += 1;
        }
    }
    assert!(mattos >= 5 && lines >= 10, "{mattos} Mattos, {lines} lines");
}
