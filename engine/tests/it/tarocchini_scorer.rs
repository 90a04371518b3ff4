//! The engine's Tarocchini scores against a second scorer written by hand from the sources
//! (`common/tarocchini.rs`: Barilli's tournament rules and the treatise appended to them, the
//! 18th-century letter on the count, Pisarri via Dummett and McLeod, Bunbury, Wikipedia, pagat), over
//! simulated deals of `tarocchini`: unsteered; steered to the rare cases (a strong hand of the highest
//! trumps or of the cards an accuso shows, played high; the Matto held to the last trick); steered in
//! a match near its end, where a player, his partner's accusi added, or the dealer on his first 15
//! cards may call himself out; deals arranged with three schiere in one hand, for an accuso with the
//! criccone; and a sixteenth as many under each option that changes the count (`suit_sequences`,
//! `moors_aces`, `suit_ace`). Each player's score, each side's card points and the match's winners by
//! a call-out are compared. Each deal is simulated from its own seed, so a difference names the seed
//! that reproduces it (unsteered and steered: `tarot-archive simulate --ruleset tarocchini --games 1
//! --seed S [--steer] [--option NAME=VALUE] --out DIR`; near the match's end the simulator announces a
//! lawful call-out half the time, which the command line does not offer).
//!
//! `TAROCCHINI_SCORER_GAMES` sets the number of steered deals (default 2,000; a quarter as many
//! unsteered, an eighth near the match's end, a sixteenth with three schiere dealt),
//! `TAROCCHINI_SCORER_SEED` where the seeds start, and `TAROCCHINI_SCORER_REPORT=1` prints how often
//! each case occurred. The deals are shared among as many threads as there are cores.

use crate::common::tarocchini;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tarot_engine::testing::NAMES;
use tarot_engine::Packet;
use tarot_engine::Q;
use tarot_engine::{random_game_from, random_game_with, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Status};

/// The cases a deal shows, as the rows of the coverage table.
fn cases(s: &tarocchini::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: &str, yes: bool| {
        if yes {
            *tally.entry(k.to_string()).or_default() += 1;
        }
    };
    let schiere = ["the tarocchi", "the kings", "the queens", "the cavaliers", "the jacks"];
    for (i, name) in schiere.iter().enumerate() {
        add(&format!("a cricca of {name} won"), s.piles.iter().any(|c| c.schiere[i] == 3));
        add(&format!("all four of {name} won"), s.piles.iter().any(|c| c.schiere[i] == 4));
    }
    add("the criccone won (three cricche or more, doubled)", s.piles.iter().any(|c| c.cricche_made() >= 3));
    add("the mezzo criccone won (all five schiere)", s.piles.iter().any(|c| c.cricche_made() == 5));
    let won = || s.piles.iter().flat_map(|c| c.sequences.iter());
    add("the Grande won", won().any(|q| q.family == "Grande"));
    add("the Grande won, the World, Sun or Moon skipped", won().any(|q| q.family == "Grande" && q.skipped));
    add("the Grande won, a contatore standing for a trump", won().any(|q| q.family == "Grande" && q.stood_for > 0));
    add("the Grande won, both contatori standing for trumps", won().any(|q| q.family == "Grande" && q.stood_for == 2));
    add("the Grande won to the Moors", won().any(|q| q.family == "Grande" && q.moors > 0));
    add("a suit's sequence won", won().any(|q| q.family.len() == 1));
    add("a suit's sequence won, a court skipped", won().any(|q| q.family.len() == 1 && q.skipped));
    add("a suit's sequence won, a contatore standing for a court", won().any(|q| q.family.len() == 1 && q.stood_for > 0));
    add("a suit's sequence won of the King and both contatori", won().any(|q| q.family.len() == 1 && q.stood_for == 2));
    add("a suit's sequence won with its ace", won().any(|q| q.ace));
    add("the Moors' sequence won", won().any(|q| q.family == "Moors"));
    add("the aces' sequence won", won().any(|q| q.family == "aces"));
    add("three sequences or more won (doubled)", s.piles.iter().any(|c| c.sequences.len() >= 3));
    add("a side took no combination", s.piles.iter().any(|c| c.points() == 0) && s.called_out.is_none());
    let accusi: Vec<&tarocchini::Declared> = s.declared.iter().filter(|d| d.kind == "accuso").collect();
    add("an accuso", !accusi.is_empty());
    add("an accuso with a cricca of four", accusi.iter().any(|d| d.combinations.schiere.contains(&4)));
    add("an accuso with the criccone", accusi.iter().any(|d| d.combinations.cricche_made() >= 3));
    add("an accuso of the Grande", accusi.iter().any(|d| d.combinations.sequences.iter().any(|q| q.family == "Grande")));
    add("an accuso with three sequences or more", accusi.iter().any(|d| d.combinations.sequences.len() >= 3));
    add("an accuso with a contatore standing in", accusi.iter().any(|d| d.combinations.sequences.iter().any(|q| q.stood_for > 0)));
    add("an accuso by the dealer", accusi.iter().any(|d| d.player == s.dealer));
    add("accusi by both partners of a side", (0..2).any(|k| accusi.iter().filter(|d| d.player % 2 == k).count() == 2));
    add("the dealer's side took no trick (its discards to the opponents)", s.called_out.is_none() && s.tricks[s.dealer_side] == 0);
    add("first hand's side took no trick", s.called_out.is_none() && s.tricks[1 - s.dealer_side] == 0);
    add("the Matto kept from a trick the other side took", s.matto_exchanged);
    add("the Matto kept by a side that took no trick", s.matto_unpaid);
    add("the Matto in the last trick", s.matto_last);
    add("the Matto led", s.matto_led);
    if let Some((_, kind)) = &s.called_out {
        add("a call-out (chiamarsi fuori) at a player's first card", kind == "fuori");
        add("the dealer's call-out on his first 15 cards", kind == "fuori_mazziere");
        let caller = s.declared.iter().find(|d| &d.kind == kind).unwrap();
        let partner_declared = s.declared.iter().any(|d| d.kind == "accuso" && d.player == (caller.player + 2) % 4);
        add("a call-out with the partner's accuso", kind == "fuori" && partner_declared);
    }
}

/// A deal where one player (drawn at random, the dealer drawn apart) holds three schiere drawn at
/// random, each three or four of its cards, so that his accuso may hold the criccone; the other cards
/// shuffled and dealt in three rounds of five from first hand, the dealer's last packet seven (W).
fn criccone_dealt<R: Rng>(rng: &mut R) -> (Vec<String>, usize, Event) {
    let names: Vec<String> = NAMES[..4].iter().map(|s| s.to_string()).collect();
    let suits = ["S", "C", "H", "D"];
    let schiere: Vec<Vec<String>> = std::iter::once(vec!["T21".to_string(), "T20".into(), "T1".into(), "EX".into()])
        .chain(["K", "Q", "C", "J"].iter().map(|r| suits.iter().map(|s| format!("{r}{s}")).collect()))
        .collect();
    let mut chosen: Vec<usize> = (0..5).collect();
    chosen.shuffle(rng);
    let mut mine: Vec<String> = vec![];
    for &i in &chosen[..3] {
        let mut set = schiere[i].clone();
        set.shuffle(rng);
        set.truncate(if rng.gen_bool(0.25) { 4 } else { 3 });
        mine.extend(set);
    }
    let mut rest: Vec<String> = (1..=21)
        .map(|t| format!("T{t}"))
        .chain(["EX".to_string()])
        .chain(suits.iter().flat_map(|s| ["1", "6", "7", "8", "9", "10", "J", "C", "Q", "K"].iter().map(move |r| format!("{r}{s}"))))
        .filter(|c| !mine.contains(c))
        .collect();
    rest.shuffle(rng);
    let holder = rng.gen_range(0..4);
    let dealer = rng.gen_range(0..4);
    let mut hands: Vec<Vec<String>> = (0..4)
        .map(|p| {
            let mut cards: Vec<String> = if p == holder { mine.clone() } else { vec![] };
            let need = if p == dealer { 17 } else { 15 } - cards.len();
            cards.extend(rest.drain(..need));
            cards.shuffle(rng);
            cards
        })
        .collect();
    let mut packets = vec![];
    let mut left: Vec<Vec<String>> = hands.clone();
    for round in 0..3 {
        for i in 1..=4 {
            let p = (dealer + i) % 4;
            let k = if p == dealer && round == 2 { 7 } else { 5 };
            packets.push(Packet { to: Some(names[p].as_str().into()), cards: left[p].drain(..k).map(|c| c.as_str().into()).collect() });
        }
    }
    let hands = names.iter().zip(hands.iter_mut()).map(|(n, h)| (n.as_str().into(), h.iter().map(|c| c.as_str().into()).collect())).collect();
    (names, dealer, Event::Deal { hands, dog: vec![], cut: None, piles: BTreeMap::new(), packets })
}

/// How a deal is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum How {
    Unsteered,
    Steered,
    /// Steered, each side's standing drawn from the last tenth below 800 (`match_end`), a call-out
    /// announced half the time it is lawful.
    NearEnd,
    /// `criccone_dealt`, played out by the uniform simulator.
    CricconeDealt,
}

impl How {
    fn title(self) -> &'static str {
        match self {
            How::Unsteered => "unsteered",
            How::Steered => "steered",
            How::NearEnd => "near the match's end",
            How::CricconeDealt => "three schiere dealt",
        }
    }

    /// Where its seeds start, after `TAROCCHINI_SCORER_SEED`.
    fn seeds(self) -> u64 {
        match self {
            How::Unsteered => 0,
            How::Steered => 1_000_000_000,
            How::NearEnd => 2_000_000_000,
            How::CricconeDealt => 3_000_000_000,
        }
    }
}

#[derive(Default)]
struct Run {
    games: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(options: &BTreeMap<String, serde_json::Value>, variant: tarocchini::Variant, how: How, seeds: std::ops::Range<u64>) -> Run {
    let rules = registry().get("tarocchini").unwrap();
    let mut run = Run::default();
    for seed in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rec: GameRecord = match how {
            How::Unsteered => random_game_with(rules, 4, options, &SimOptions::default(), &mut rng).unwrap(),
            How::Steered => random_game_with(rules, 4, options, &SimOptions::steered(), &mut rng).unwrap(),
            How::NearEnd => random_game_with(rules, 4, options, &SimOptions { match_end: 1.0, announce: 0.5, ..SimOptions::steered() }, &mut rng).unwrap(),
            How::CricconeDealt => {
                let (names, dealer, deal) = criccone_dealt(&mut rng);
                random_game_from(rules, &names, dealer, deal, options, &mut rng).unwrap()
            }
        };
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        let at = format!("{options:?} {}, seed {seed}", how.title());
        assert_eq!(v.status, Status::Valid, "{at}: {}", v.to_text());
        let mine = tarocchini::score(&rec, variant);
        cases(&mine, &mut run.tally);
        let outcome = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, Q> = outcome.players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        let expected: BTreeMap<String, Q> = mine.scores.iter().map(|(k, &x)| (k.clone(), Q::int(x))).collect();
        // Partners' card points are counted together (MB §2.1, B): each side's, the sum of its two
        // players' as the engine gives them.
        let side_points: Vec<Q> = (0..2).map(|k| outcome.players.iter().enumerate().filter(|(i, _)| i % 2 == k).map(|(_, p)| p.card_points).sum()).collect();
        let expected_points: Vec<Q> = mine.card_points.iter().map(|&x| Q::int(x)).collect();
        let winners: Vec<String> = outcome.ends_match.iter().map(|p| p.to_string()).collect();
        if let Some(wrong) = mine.wrong_leader.as_ref().or(mine.unlawful.as_ref()) {
            run.differences.push(format!("{at}: {wrong}"));
        } else if engine != expected || side_points != expected_points || winners != mine.match_winners {
            run.differences.push(format!(
                "{at}: engine {:?} card points {:?} winners {winners:?}, sources {:?} card points {:?} winners {:?} (tricks {:?}, schiere {:?} and {:?}, sequences {:?} and {:?}, declared {:?})",
                engine.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                side_points.iter().map(|q| q.to_string()).collect::<Vec<_>>(),
                expected.values().collect::<Vec<_>>(),
                mine.card_points,
                mine.match_winners,
                mine.tricks,
                mine.piles[0].schiere,
                mine.piles[1].schiere,
                mine.piles[0].sequences.iter().map(|q| (q.family, q.cards)).collect::<Vec<_>>(),
                mine.piles[1].sequences.iter().map(|q| (q.family, q.cards)).collect::<Vec<_>>(),
                mine.declared.iter().map(|d| (rec.players[d.player].as_str(), d.kind.as_str(), d.combinations.points())).collect::<Vec<_>>()
            ));
        }
    }
    run
}

#[test]
fn the_engine_scores_tarocchini_as_the_sources_do() {
    let steered_games = count("TAROCCHINI_SCORER_GAMES", 2000);
    let base = seed("TAROCCHINI_SCORER_SEED");
    let opt = |k: &str, v: &str| [(k.to_string(), serde_json::json!(v))].into_iter().collect::<BTreeMap<_, _>>();
    let mb = tarocchini::MB;
    let k = steered_games;
    let tables: Vec<(BTreeMap<String, serde_json::Value>, tarocchini::Variant, Vec<(How, u64)>)> = vec![
        (BTreeMap::new(), mb, vec![(How::Unsteered, k / 4), (How::Steered, k), (How::NearEnd, k / 8), (How::CricconeDealt, k / 16)]),
        (opt("suit_sequences", "not-counted"), tarocchini::Variant { suit_sequences: false, ..mb }, vec![(How::Unsteered, k / 64), (How::Steered, k / 16)]),
        (opt("moors_aces", "sequences"), tarocchini::Variant { moors_aces: true, ..mb }, vec![(How::Unsteered, k / 64), (How::Steered, k / 16)]),
        (opt("suit_ace", "counted"), tarocchini::Variant { suit_ace: true, ..mb }, vec![(How::Unsteered, k / 64), (How::Steered, k / 16)]),
    ];
    // The deals in blocks of 50 seeds, shared among as many threads as there are cores.
    let mut jobs: Vec<(usize, How, std::ops::Range<u64>)> = vec![];
    for (t, (_, _, hows)) in tables.iter().enumerate() {
        for &(how, n) in hows {
            let from = base + how.seeds();
            jobs.extend((0..n).step_by(50).map(|i| (t, how, from + i..from + (i + 50).min(n))));
        }
    }
    let jobs = std::sync::Mutex::new(jobs);
    let results: std::sync::Mutex<BTreeMap<(usize, How), Vec<Run>>> = Default::default();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let Some((t, how, seeds)) = jobs.lock().unwrap().pop() else { break };
                let run = compare(&tables[t].0, tables[t].1, how, seeds);
                results.lock().unwrap().entry((t, how)).or_default().push(run);
            });
        }
    });
    let results = results.into_inner().unwrap();

    let mut report = String::new();
    let mut differences = vec![];
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for (t, (options, _, hows)) in tables.iter().enumerate() {
        let runs: Vec<(How, Run)> = hows
            .iter()
            .map(|&(how, _)| {
                let mut all = Run::default();
                for r in results.get(&(t, how)).into_iter().flatten() {
                    all.games += r.games;
                    for (k, n) in &r.tally {
                        *all.tally.entry(k.clone()).or_default() += n;
                    }
                    all.differences.extend(r.differences.iter().cloned());
                }
                (how, all)
            })
            .collect();
        report += &format!("\ntarocchini {options:?}: {}\n", runs.iter().map(|(how, r)| format!("{} deals {}", r.games, how.title())).collect::<Vec<_>>().join(", "));
        report += "| case |";
        report += &runs.iter().map(|(how, _)| format!(" {}, per 1,000 deals |", how.title())).collect::<String>();
        report += "\n|---|";
        report += &"---:|".repeat(runs.len());
        report += "\n";
        let keys: std::collections::BTreeSet<&String> = runs.iter().flat_map(|(_, r)| r.tally.keys()).collect();
        for key in keys {
            report += &format!("| {key} |");
            for (_, r) in &runs {
                let n = r.tally.get(key).copied().unwrap_or(0);
                report += &format!(" {:.1} |", n as f64 * 1000.0 / r.games.max(1) as f64);
                *reached.entry(key.clone()).or_default() += n;
            }
            report += "\n";
        }
        for (_, r) in runs {
            differences.extend(r.differences);
        }
    }
    if std::env::var("TAROCCHINI_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for case in [
        "all four of the tarocchi won",
        "the mezzo criccone won (all five schiere)",
        "the Grande won, the World, Sun or Moon skipped",
        "the Grande won, both contatori standing for trumps",
        "the Grande won to the Moors",
        "a suit's sequence won of the King and both contatori",
        "three sequences or more won (doubled)",
        "an accuso with the criccone",
        "an accuso with three sequences or more",
        "accusi by both partners of a side",
        "the dealer's side took no trick (its discards to the opponents)",
        "first hand's side took no trick",
        "the Matto kept from a trick the other side took",
        "the Matto kept by a side that took no trick",
        "the Matto in the last trick",
        "a call-out (chiamarsi fuori) at a player's first card",
        "a call-out with the partner's accuso",
        "the dealer's call-out on his first 15 cards",
        "the Moors' sequence won",
        "the aces' sequence won",
        "a suit's sequence won with its ace",
    ] {
        assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
    }
}
