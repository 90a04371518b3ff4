//! The engine's Königrufen scores against a second scorer written by hand from the Upper Austrian
//! rules 4/2023 as the harbour-tarock specification quotes them (`common/koenigrufen.rs`), over
//! simulated deals of `koenigrufen`, unsteered and steered (every contract bid evenly, strong hands).
//! Every contract must be seen made and lost (Trischaken: played), and the premiums, the Valat and a
//! declarer left alone by his called king must each occur. Each deal is simulated from its own seed, so
//! a difference names the seed that reproduces it (`tarot-archive simulate --ruleset koenigrufen
//! --games 1 --seed S [--steer] --out DIR`).
//!
//! Rufers and Besserrufers whose declarer calls a king lying in the talon are steered to it
//! (`SimOptions::call_dog`), and given up half the time (`SimOptions::end_deal`: Schleifen, HK 4.5 a).
//!
//! A quarter as many deals again are steered through forehand's last word (`SimOptions::last_word`):
//! his "Vorhand" (a Rufer) raised to the contract aimed at, once the other three have passed.
//!
//! `KOENIGRUFEN_SCORER_GAMES` sets the number of steered deals (default 2,000; a quarter as many
//! unsteered), and `KOENIGRUFEN_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::koenigrufen;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Registry, Status};

fn cases(s: &koenigrufen::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: &str| *tally.entry(k.to_string()).or_default() += 1;
    if s.contract == "trischaken" {
        add("trischaken played");
    } else {
        add(&format!("{} {}", s.contract, if s.made { "made" } else { "lost" }));
    }
    if s.valat {
        add("a valat");
    }
    if s.alone && ["rufer", "solorufer", "besserrufer"].contains(&s.contract.as_str()) {
        add("a calling game played alone");
    }
    if s.king_in_talon {
        add("a solorufer with the called king in the talon");
    }
    if s.given_up {
        add(&format!("a {} given up", s.contract));
    }
    for p in &s.premiums {
        add(&format!("premium {p}"));
    }
}

#[derive(Default)]
struct Run {
    games: u64,
    tally: BTreeMap<String, u64>,
    differences: Vec<String>,
}

fn compare(sim: &SimOptions, seeds: std::ops::Range<u64>, run: &mut Run) {
    static R: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    let rules = R.get_or_init(|| Registry::builtin().unwrap_or_else(|d| panic!("{d}"))).get("koenigrufen").unwrap();
    let steer = match (*sim == SimOptions::default(), sim.last_word > 0.0, sim.call_dog > 0.0, sim.end_deal > 0.0) {
        (true, ..) => "",
        (false, false, false, _) => " --steer",
        (false, true, ..) => " (steered through the last word)",
        (false, false, true, false) => " (a Solorufer, the king called from the talon)",
        (false, false, true, true) => " (a Rufer or Besserrufer, the king called from the talon, given up half the time)",
    };
    for seed in seeds {
        let rec = random_game_with(rules, 4, &BTreeMap::new(), sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let v = replay(rules, &rec).unwrap();
        run.games += 1;
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let mine = koenigrufen::score(&rec);
        if mine.contract == "besserrufer" && !mine.given_up {
            assert!(!mine.own_birds.is_empty(), "seed {seed}{steer}: a Besserrufer in which the declarer announced no bird he was dealt");
        }
        cases(&mine, &mut run.tally);
        // Forehand's "Vorhand" raised at his last word: a Rufer, three passes, another contract.
        let bids: Vec<&str> = rec.events.iter().filter_map(|e| if let tarot_engine::Event::Bid { bid, .. } = e { Some(bid.as_str()) } else { None }).collect();
        if bids.len() == 5 && bids[..4] == ["rufer", "pass", "pass", "pass"] && !["rufer", "trischaken"].contains(&bids[4]) {
            *run.tally.entry(format!("raised at the last word to {}", bids[4])).or_default() += 1;
            *run.tally.entry("raised at the last word".into()).or_default() += 1;
        }
        let outcome = v.outcome.as_ref().unwrap();
        let engine: BTreeMap<String, Q> = outcome.players.iter().map(|p| (p.player.to_string(), p.score)).collect();
        let expected: BTreeMap<String, Q> = mine.scores.iter().map(|(k, &x)| (k.clone(), Q::int(x))).collect();
        if engine != expected {
            run.differences.push(format!(
                "seed {seed}{steer} ({}): engine {:?}, sources {:?}",
                mine.contract,
                engine.values().map(|s| s.to_string()).collect::<Vec<_>>(),
                expected.values().map(|s| s.to_string()).collect::<Vec<_>>(),
            ));
        }
    }
}

#[test]
fn the_engine_scores_koenigrufen_as_the_sources_do() {
    let steered_games = count("KOENIGRUFEN_SCORER_GAMES", 2000);
    let base = seed("KOENIGRUFEN_SCORER_SEED");
    let mut plain = Run::default();
    let mut steered = Run::default();
    compare(&SimOptions::default(), base..base + steered_games / 4, &mut plain);
    compare(&SimOptions::steered(), base + 1_000_000_000..base + 1_000_000_000 + steered_games, &mut steered);
    let raising = SimOptions { last_word: 0.5, ..SimOptions::steered() };
    compare(&raising, base + 2_000_000_000..base + 2_000_000_000 + steered_games / 4, &mut steered);
    // Solorufers whose declarer calls a king lying in the talon (rare unsteered: one in seven calls).
    let king_in_talon = SimOptions { contract: ContractChoice::Only("solorufer".into()), call_dog: 1.0, ..SimOptions::steered() };
    compare(&king_in_talon, base + 3_000_000_000..base + 3_000_000_000 + steered_games / 8, &mut steered);
    // Rufers and Besserrufers whose called king lies in the talon, given up half the time (Schleifen).
    for c in ["rufer", "besserrufer"] {
        let giving_up = SimOptions { contract: ContractChoice::Only(c.into()), call_dog: 1.0, end_deal: 0.5, ..SimOptions::steered() };
        compare(&giving_up, base + 4_000_000_000..base + 4_000_000_000 + steered_games / 16, &mut steered);
    }
    let mut report = format!("\nkoenigrufen: {} deals unsteered, {} steered\n", plain.games, steered.games);
    report += "| case | unsteered, per 1,000 deals | steered, per 1,000 deals |\n|---|---:|---:|\n";
    let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
    let mut reached: BTreeMap<String, u64> = BTreeMap::new();
    for k in keys {
        let per = |r: &Run| r.tally.get(k).copied().unwrap_or(0) as f64 * 1000.0 / r.games.max(1) as f64;
        report += &format!("| {k} | {:.1} | {:.1} |\n", per(&plain), per(&steered));
        reached.insert(k.clone(), plain.tally.get(k).copied().unwrap_or(0) + steered.tally.get(k).copied().unwrap_or(0));
    }
    if std::env::var("KOENIGRUFEN_SCORER_REPORT").is_ok() {
        println!("{report}");
    }
    let differences: Vec<String> = plain.differences.into_iter().chain(steered.differences).collect();
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    let mut wanted: Vec<String> = vec![
        "trischaken played".into(),
        "a valat".into(),
        "a calling game played alone".into(),
        "raised at the last word".into(),
        "a solorufer with the called king in the talon".into(),
        "a rufer given up".into(),
        "a besserrufer given up".into(),
    ];
    for c in ["rufer", "piccolo", "bettel", "solorufer", "besserrufer", "farbendreier", "sechserdreier", "dreier", "farbensolo", "piccolo-ouvert", "bettel-ouvert", "solodreier"] {
        wanted.push(format!("{c} made"));
        wanted.push(format!("{c} lost"));
    }
    for p in ["trull_bonus", "four_kings", "pagat", "king_ultimo"] {
        wanted.push(format!("premium {p}"));
    }
    for case in wanted {
        assert!(reached.get(&case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
    }
}

/// HK 1.7's worked counts, counted by the rule file's `counting` (to the card, in thirds): example A, an
/// eight-card pile of 16 points and 2 cards (50 thirds); and the HK example B's two piles of 35 and 19
/// cards, 41/2 and 28/1 (125 and 85 thirds: the pack's 210).
#[test]
fn the_count_to_the_card_as_hk_works_it() {
    use tarot_engine::testing::count_points;
    use tarot_engine::{Card, CardSet};
    let pile = |codes: &[&str]| -> CardSet { codes.iter().map(|c| Card::parse(c).unwrap_or_else(|| panic!("{c}"))).collect() };
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get("koenigrufen").unwrap();
    let a = pile(&["KH", "QS", "T7", "T22", "JD", "10C", "T15", "CH"]);
    assert_eq!(count_points(&rules.counting, a, 0), Q::new(50, 3));
    // Example B: the declarer's side holds the four kings, two queens (clubs, diamonds), two cavalls
    // (clubs, hearts), the four jacks and 23 cards worth 1; the opponents the trull, two queens, two
    // cavalls and 12 cards worth 1.
    let mut ones: Vec<&str> = vec!["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "T13", "T14", "T15", "T16", "T17", "T18", "T19", "T20"];
    ones.extend(["10S", "9S", "8S", "7S", "10C", "9C", "8C", "7C", "1H", "2H", "3H", "4H", "1D", "2D", "3D", "4D"]);
    let mut att: Vec<&str> = vec!["KS", "KC", "KH", "KD", "QC", "QD", "CC", "CH", "JS", "JC", "JH", "JD"];
    att.extend(&ones[..23]);
    let mut def: Vec<&str> = vec!["T1", "T22", "T21", "QS", "QH", "CS", "CD"];
    def.extend(&ones[23..]);
    assert_eq!((att.len(), def.len()), (35, 19));
    assert_eq!(count_points(&rules.counting, pile(&att), 0), Q::new(125, 3));
    assert_eq!(count_points(&rules.counting, pile(&def), 0), Q::new(85, 3));
    assert_eq!(thirds_of(&att) + thirds_of(&def), 210);
}

fn thirds_of(codes: &[&str]) -> i64 {
    koenigrufen::thirds(&codes.iter().map(|c| koenigrufen::Card::parse(c)).collect::<Vec<_>>())
}
