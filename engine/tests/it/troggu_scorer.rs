//! The engine's Troggu scores (pagat's stakes) and winners against a second scorer written by hand
//! from the sources (`common/troggu.rs`: Board Game Arena, The Incompleat Gamester, the Eisten-Stalden
//! rules, gamerules.com, pagat), over simulated deals of `troggu` at each table from three to six,
//! unsteered and steered (every contract bid evenly, strong hands, the Bättler held back until it is
//! withheld), of `troggu-7-8` at seven and eight (also steered to all passing), and of
//! `troggu-graechen` and `troggu-st-niklaus` at three to six (St Niklaus also steered to all
//! passing). Each contract, Tapp, Solo and the Misère played when all pass, must be seen made and
//! lost, each multiple of the stake paid (1, 2 and 3, doubled in a Solo), and the Bättler withheld:
//! given for a low card in the last trick, led to it, and kept by its side when that side takes the
//! last trick; in Grächen both orders of the deal at five, a deal all pass annulled, the double at 20
//! and none from 21 to 30; in St Niklaus the double at 31 and the Misère won by the fewest card
//! points, alone and tied. The fixtures of the four files are scored too. Each deal is simulated from its own seed, so a difference names the seed that
//! reproduces it (`tarot-archive simulate --ruleset troggu --players N --games 1 --seed S [--steer]
//! --out DIR`).
//!
//! `TROGGU_SCORER_GAMES` sets the number of steered deals per table (default 300; a quarter as many
//! unsteered), and `TROGGU_SCORER_REPORT=1` prints how often each case occurred.

use crate::common::troggu;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use crate::common::{count, seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::Q;
use tarot_engine::{compile, parse_record, replay, GameRecord, Registry, Status};
use tarot_engine::{random_game_with, SimOptions};

fn cases(s: &troggu::Scored, tally: &mut BTreeMap<String, u64>) {
    let mut add = |k: &str| *tally.entry(k.to_string()).or_default() += 1;
    if let Some(k) = s.graechen_first_packet {
        add(&format!("dealt {k} + Tapp + {}", 11 - k));
    }
    if s.annulled {
        add("all passed: the deal passes on");
        return;
    }
    if let (Some(points), Some((stake, times))) = (s.losers_points, s.stake) {
        if stake != 0 && times % 3 != 0 && s.contract == "tapp" {
            add(&format!(
                "a Tapp, the losers at {}: stake x{}",
                if points <= 20 {
                    "20 or fewer"
                } else if points <= 30 {
                    "21 to 30"
                } else if points == 31 {
                    "31"
                } else {
                    "over 31"
                },
                times
            ));
        }
    }
    match (&s.declarer, s.stake) {
        (Some(d), Some((stake, times))) => {
            let outcome = if stake == 0 {
                "drawn at 57"
            } else if s.winners[d] {
                "made"
            } else {
                "lost"
            };
            add(&format!("{} {outcome}", s.contract));
            if stake != 0 {
                add(&format!("stake x{times}"));
            }
        }
        _ => {
            add("misere played");
            let most = if s.village == troggu::Village::StNiklaus { "fewest" } else { "most" };
            add(&if s.misere_top > 1 { format!("misere: tied for the {most} card points") } else { format!("misere: one player with the {most} card points") });
            if s.misere_led_by_first_hand {
                add("misere led by first hand");
            }
        }
    }
    if let Some(card) = s.forced_by {
        add(&format!("all passed: the holder of {card} plays a Tapp"));
    }
    if s.contract == "tapp" && s.points.len() >= 7 {
        add(if s.partner.is_some() { "a partner called" } else { "the Tappist alone, the card called his own or in the Tapp" });
    }
    if s.kings_discarded {
        add("the four kings laid away");
    }
    if s.fives_discarded {
        add("the seven 5-point cards laid away");
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

fn compare(rules: &Ruleset, players: usize, sim: &SimOptions, options: &BTreeMap<String, serde_json::Value>, seeds: std::ops::Range<u64>, run: &mut Run) {
    let steer = if *sim == SimOptions::default() { String::new() } else { " --steer".to_string() }
        + &options.iter().map(|(k, v)| format!(" --option {k}={}", v.as_str().unwrap_or_default())).collect::<String>();
    for seed in seeds {
        let rec = random_game_with(rules, players, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        judge(rules, &rec, &format!("{players} players seed {seed}{steer}"), run);
    }
}

/// The engine's verdict on one deal, `what`, against the second scorer's: a difference is added to
/// `run`. The second scorer decides whether the deal is played (Grächen annuls a deal all pass).
fn judge(rules: &Ruleset, rec: &GameRecord, what: &str, run: &mut Run) {
    let v = replay(rules, rec).unwrap();
    run.games += 1;
    let mine = troggu::score(rec);
    cases(&mine, &mut run.tally);
    let status = if mine.annulled { Status::Annulled } else { Status::Valid };
    if v.status != status || mine.annulled {
        if let Some(wrong) = mine.unlawful.as_ref().filter(|_| v.status != status) {
            run.differences.push(format!("{what}: {wrong}"));
        } else if v.status != status {
            run.differences.push(format!("{what}: the engine's {:?}, the sources' {status:?}: {}", v.status, v.to_text()));
        }
        return;
    }
    let outcome = v.outcome.as_ref().unwrap();
    let engine: BTreeMap<String, (Q, bool)> = outcome.players.iter().map(|p| (p.player.to_string(), (p.score, p.winner))).collect();
    let expected: BTreeMap<String, (Q, bool)> = mine.paid.iter().map(|(k, &x)| (k.clone(), (Q::int(x), mine.winners[k]))).collect();
    if let Some(wrong) = mine.wrong_leader.as_ref().or(mine.unlawful.as_ref()) {
        run.differences.push(format!("{what}: {wrong}"));
    } else if engine != expected {
        run.differences.push(format!(
            "{what} ({}): engine (score, winner) {:?}, sources {:?}",
            mine.contract,
            engine.values().map(|(s, w)| (s.to_string(), *w)).collect::<Vec<_>>(),
            expected.values().map(|(s, w)| (s.to_string(), *w)).collect::<Vec<_>>(),
        ));
    }
}

/// The valid and annulled fixtures of `id` (`fixtures/<id>/valid/`, `annulled/`): the games picked to
/// show its rules, some of which simulation reaches only now and then (the seven 5-point cards laid
/// away).
fn fixture_games(id: &str) -> Vec<(String, GameRecord)> {
    let mut out = vec![];
    for kind in ["valid", "annulled"] {
        for path in tarot_testkit::fixture_files(id, kind) {
            let rec = parse_record(&std::fs::read_to_string(&path).unwrap()).unwrap();
            out.push((format!("fixtures/{id}/{kind}/{}", path.file_name().unwrap().to_string_lossy()), rec));
        }
    }
    out
}

/// The runs of every table: the report's tables, how often each case was reached (keyed by the
/// ruleset's prefix), and the differences found.
#[derive(Default)]
struct Totals {
    report: String,
    reached: BTreeMap<String, u64>,
    differences: Vec<String>,
}

impl Totals {
    /// One table's unsteered and steered runs: a table of the cases per 1,000 deals of each.
    fn add(&mut self, title: &str, prefix: &str, plain: Run, steered: Run) {
        self.report += &format!("\n{title}: {} deals unsteered, {} steered\n", plain.games, steered.games);
        self.report += "| case | unsteered, per 1,000 deals | steered, per 1,000 deals |\n|---|---:|---:|\n";
        let keys: std::collections::BTreeSet<&String> = plain.tally.keys().chain(steered.tally.keys()).collect();
        for k in keys {
            let per = |r: &Run| r.tally.get(k).copied().unwrap_or(0) as f64 * 1000.0 / r.games.max(1) as f64;
            self.report += &format!("| {k} | {:.1} | {:.1} |\n", per(&plain), per(&steered));
            *self.reached.entry(format!("{prefix}{k}")).or_default() += plain.tally.get(k).copied().unwrap_or(0) + steered.tally.get(k).copied().unwrap_or(0);
        }
        self.differences.extend(plain.differences);
        self.differences.extend(steered.differences);
    }
}

#[test]
fn the_engine_scores_troggu_as_the_sources_do() {
    let steered_games = count("TROGGU_SCORER_GAMES", 300);
    let base = seed("TROGGU_SCORER_SEED");
    let mut totals = Totals::default();
    for players in 3..=6 {
        let mut plain = Run::default();
        let mut steered = Run::default();
        let rules = registry().get("troggu").unwrap();
        let none = BTreeMap::new();
        compare(rules, players, &SimOptions::default(), &none, base..base + steered_games / 4, &mut plain);
        compare(rules, players, &SimOptions::steered(), &none, base + 1_000_000_000..base + 1_000_000_000 + steered_games, &mut steered);
        // A quarter as many steered deals with P's lead of a Misère (the option misere_lead).
        let first_hand = BTreeMap::from([("misere_lead".to_string(), serde_json::json!("first-hand"))]);
        let from = base + 2_000_000_000;
        compare(rules, players, &SimOptions::steered(), &first_hand, from..from + steered_games / 4, &mut steered);
        totals.add(&format!("troggu, {players} players"), "", plain, steered);
    }
    // Seven and eight (`troggu-7-8`): also steered to the Misère, which nobody bids, so that all pass.
    let rules = registry().get("troggu-7-8").unwrap();
    let passes = SimOptions { contract: tarot_engine::ContractChoice::Only("misere".into()), ..SimOptions::steered() };
    for players in 7..=8 {
        let (mut plain, mut steered) = (Run::default(), Run::default());
        let none = BTreeMap::new();
        compare(rules, players, &SimOptions::default(), &none, base..base + steered_games / 4, &mut plain);
        compare(rules, players, &SimOptions::steered(), &none, base + 1_000_000_000..base + 1_000_000_000 + steered_games, &mut steered);
        let from = base + 3_000_000_000;
        compare(rules, players, &passes, &none, from..from + steered_games / 2, &mut steered);
        totals.add(&format!("troggu-7-8, {players} players"), "7-8: ", plain, steered);
    }
    // Grächen and St Niklaus (P "Variations"), also steered to all passing (Grächen: the deal passes
    // on; St Niklaus: a Misère).
    for id in ["troggu-graechen", "troggu-st-niklaus"] {
        let rules = registry().get(id).unwrap();
        for players in 3..=6 {
            let (mut plain, mut steered) = (Run::default(), Run::default());
            let none = BTreeMap::new();
            compare(rules, players, &SimOptions::default(), &none, base..base + steered_games / 4, &mut plain);
            compare(rules, players, &SimOptions::steered(), &none, base + 1_000_000_000..base + 1_000_000_000 + steered_games / 2, &mut steered);
            // (Grächen has no Misère to steer to: its deals all pass often enough unsteered.)
            if id == "troggu-st-niklaus" {
                let from = base + 3_000_000_000;
                compare(rules, players, &passes, &none, from..from + steered_games / 4, &mut steered);
            }
            totals.add(&format!("{id}, {players} players"), &format!("{id}: "), plain, steered);
        }
    }
    if std::env::var("TROGGU_SCORER_REPORT").is_ok() {
        println!("{}", totals.report);
    }
    let (differences, reached) = (&totals.differences, &totals.reached);
    assert!(differences.is_empty(), "{} deals scored differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    for case in [
        "tapp made",
        "tapp lost",
        "solo made",
        "solo lost",
        "stake x1",
        "stake x2",
        "stake x3",
        "stake x4",
        "stake x6",
        "misere: one player with the most card points",
        "misere led by first hand",
        "the Bättler withheld: a low card given for it",
        "the Bättler withheld: its side takes the last trick",
        "the Bättler withheld: led to the last trick",
        "7-8: a partner called",
        "7-8: the Tappist alone, the card called his own or in the Tapp",
        "7-8: all passed: the holder of the Bättler plays a Tapp",
        "7-8: all passed: the holder of the I plays a Tapp",
        "7-8: tapp made",
        "7-8: tapp lost",
        "7-8: solo made",
        "7-8: stake x2",
        "troggu-graechen: dealt 5 + Tapp + 6",
        "troggu-graechen: dealt 6 + Tapp + 5",
        "troggu-graechen: all passed: the deal passes on",
        "troggu-graechen: a Tapp, the losers at 20 or fewer: stake x2",
        "troggu-graechen: a Tapp, the losers at 21 to 30: stake x1",
        "troggu-graechen: tapp made",
        "troggu-graechen: solo lost",
        "troggu-st-niklaus: a Tapp, the losers at 31: stake x2",
        "troggu-st-niklaus: a Tapp, the losers at over 31: stake x1",
        "troggu-st-niklaus: misere: one player with the fewest card points",
        "troggu-st-niklaus: misere: tied for the fewest card points",
        "troggu-st-niklaus: tapp made",
        "troggu-st-niklaus: solo made",
    ] {
        assert!(reached.get(case).copied().unwrap_or(0) > 0, "no deal reached the case: {case}");
    }
}

/// The rule file with one passage replaced.
fn troggu_with(find: &str, replace: &str) -> Ruleset {
    file_with("troggu", find, replace)
}

/// The rule file `id` with one passage replaced, compiled.
fn file_with(id: &str, find: &str, replace: &str) -> Ruleset {
    let mut files = Registry::builtin_files();
    let file = files.get_mut(id).expect("the rule file");
    assert_eq!(file.text.matches(find).count(), 1, "{find}");
    file.text = file.text.replace(find, replace);
    compile(id, &|id: &str| files.get(id).cloned()).unwrap_or_else(|d| panic!("{d}"))
}

/// At seven and eight, the partner's share, the Tappist's stake, the trump that may be called and the
/// Tapp forced when all pass, each changed in the rule file, make some of the same deals differ from
/// the second scorer (or be refused by it).
#[test]
fn a_changed_rule_at_seven_or_eight_is_found_by_the_second_scorer() {
    let base = seed("TROGGU_SCORER_SEED");
    let passes = SimOptions { contract: tarot_engine::ContractChoice::Only("misere".into()), ..SimOptions::steered() };
    for (find, replace) in [
        ("then 2 * total else 0", "then total else 0"),
        ("if payee == taker then total else 0", "total"),
        ("all-pass play tapp by \"the holder of the Bättler\" = has(hand, EX)", "all-pass play tapp by \"the holder of the Bättler\" = has(hand, T2)"),
        ("  all-pass play tapp by \"the holder of the Bagat, the Bättler lying in the Tapp\" = has(hand, T1)", "  # nobody named but the Bättler's holder"),
    ] {
        let rules = file_with("troggu-7-8", find, replace);
        let mut run = Run::default();
        for players in [7, 8] {
            compare(&rules, players, &SimOptions::steered(), &BTreeMap::new(), base..base + 60, &mut run);
            compare(&rules, players, &passes, &BTreeMap::new(), base..base + 60, &mut run);
        }
        assert!(!run.differences.is_empty(), "`{find}` made `{replace}`: no deal of {} scored differently", run.games);
    }
}

/// The second scorer holds the payments to the sources: with the rule file's stake, its double, its
/// treble, the Solo's double or the Misère's payment changed, or the Misère led by the dealer
/// under the option that has first hand lead it, some of the same deals score differently.
#[test]
fn a_changed_payment_is_found_by_the_second_scorer() {
    let base = seed("TROGGU_SCORER_SEED");
    for (find, replace) in [
        ("then 10 else -10", "then 5 else -5"),
        ("losers_points <= 30 then 2", "losers_points <= 40 then 2"),
        ("losers_tricks == 0 then 3", "losers_tricks == 0 then 2"),
        ("contract.name == \"solo\" then 2", "contract.name == \"solo\" then 1"),
        ("points(payee) != top then 10", "points(payee) != top then 20"),
        ("option.misere_lead == \"first-hand\"", "option.misere_lead != \"first-hand\""),
    ] {
        let rules = troggu_with(find, replace);
        let mut run = Run::default();
        for players in [3, 5] {
            compare(&rules, players, &SimOptions::steered(), &BTreeMap::new(), base..base + 150, &mut run);
        }
        assert!(!run.differences.is_empty(), "`{find}` made `{replace}`: no deal of {} scored differently", run.games);
    }
}

/// The fixtures of the four Troggu rule files (`troggu`, `troggu-7-8`, `troggu-graechen`,
/// `troggu-st-niklaus`) played to the end or annulled are scored by the second scorer as by the
/// engine: among them the seven 5-point cards laid away in Grächen and in St Niklaus, which simulated
/// deals reach only now and then.
#[test]
fn the_second_scorer_agrees_on_every_fixture() {
    let mut run = Run::default();
    for id in ["troggu", "troggu-7-8", "troggu-graechen", "troggu-st-niklaus"] {
        let rules = registry().get(id).unwrap();
        for (file, rec) in fixture_games(id) {
            let before = run.tally.get("the seven 5-point cards laid away").copied().unwrap_or(0);
            judge(rules, &rec, &file, &mut run);
            if run.tally.get("the seven 5-point cards laid away").copied().unwrap_or(0) > before {
                run.tally.entry(format!("{id}: the seven 5-point cards laid away")).or_default();
            }
        }
    }
    assert!(run.games > 40, "{} fixtures", run.games);
    assert!(run.differences.is_empty(), "{} fixtures scored differently:\n{}", run.differences.len(), run.differences.join("\n"));
    for case in [
        "troggu-graechen: the seven 5-point cards laid away",
        "troggu-st-niklaus: the seven 5-point cards laid away",
        "all passed: the deal passes on",
        "dealt 5 + Tapp + 6",
        "dealt 6 + Tapp + 5",
    ] {
        assert!(run.tally.contains_key(case), "no fixture shows: {case}");
    }
}

/// Grächen's and St Niklaus's rules, each changed in their rule file (the stake, the double, the
/// orders of the deal at five, when the Tapp is dealt, the seven 5-point cards laid away, the Misère
/// won by the fewest card points), make some of the same deals (simulated, and the fixtures) differ
/// from the second scorer, or be refused by the engine where the sources allow them.
#[test]
fn a_changed_village_rule_is_found_by_the_second_scorer() {
    let base = seed("TROGGU_SCORER_SEED");
    let passes = SimOptions { contract: tarot_engine::ContractChoice::Only("misere".into()), ..SimOptions::steered() };
    for (id, find, replace) in [
        ("troggu-graechen", "let stake = 5 ", "let stake = 10"),
        ("troggu-graechen", "let double_at = 20 ", "let double_at = 30"),
        ("troggu-graechen", "[[5, 6], [6, 5]]", "[5, 6]"),
        ("troggu-graechen", "dog_after = 1 ", "dog_after = 2"),
        ("troggu-graechen", "count(discarded, fives) == 7", "count(discarded, fives) == 6"),
        ("troggu-st-niklaus", "let stake = 5 ", "let stake = 10"),
        ("troggu-st-niklaus", "let double_at = 31 ", "let double_at = 30"),
        ("troggu-st-niklaus", "count(discarded, fives) == 7", "count(discarded, fives) == 6"),
        ("troggu-st-niklaus", "points(payer) != low then stake else 0", "points(payer) != low then 10 else 0"),
        ("troggu-st-niklaus", "if misere then points(player) == low", "if misere then points(player) != low"),
    ] {
        let rules = file_with(id, find, replace);
        let mut run = Run::default();
        for players in [3, 5] {
            compare(&rules, players, &SimOptions::steered(), &BTreeMap::new(), base..base + 100, &mut run);
            if id == "troggu-st-niklaus" {
                compare(&rules, players, &passes, &BTreeMap::new(), base..base + 40, &mut run);
            }
        }
        for (file, rec) in fixture_games(id) {
            // A fixture the changed rules refuse is a difference too: the sources allow it.
            judge(&rules, &rec, &file, &mut run);
        }
        assert!(!run.differences.is_empty(), "{id}: `{find}` made `{replace}`: no deal of {} scored differently", run.games);
    }
}
