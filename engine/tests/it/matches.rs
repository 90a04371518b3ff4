//! A match over a table's deals (`matches::match_state`), with the test rule file
//! `tests/rules/basic-partners-match.tarot`: Basic Tarot by partners, a match of 3 or 6 deals (an
//! option) that a side's total of 156 ends early. Simulated deals are refereed one by one, then added up.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::match_state;
use tarot_engine::random_game;
use tarot_engine::Setup;
use tarot_engine::Q;
use tarot_engine::{replay, GameRecord, Registry, Status, Verdict};

fn registry() -> Registry {
    common::registry_of(&["basic-partners-match"])
}

/// `k` deals at a table of four with these options, and their verdicts.
fn deals(r: &Registry, id: &str, options: &BTreeMap<String, serde_json::Value>, k: u64) -> (Vec<GameRecord>, Vec<Verdict>) {
    let rules = r.get(id).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(800);
    let records: Vec<GameRecord> = (0..k).map(|_| random_game(rules, 4, options, &mut rng).unwrap()).collect();
    let verdicts = records.iter().map(|rec| replay(rules, rec).unwrap()).collect();
    (records, verdicts)
}

/// Each player's total over these verdicts, and the players with the highest.
fn totals(verdicts: &[Verdict]) -> (Vec<(Arc<str>, Q)>, Vec<Arc<str>>) {
    let mut totals: Vec<(Arc<str>, Q)> = vec![];
    for p in verdicts.iter().flat_map(|v| &v.outcome.as_ref().unwrap().players) {
        match totals.iter_mut().find(|(n, _)| *n == p.player) {
            Some((_, t)) => *t = *t + p.score,
            None => totals.push((p.player.clone(), p.score)),
        }
    }
    let top = totals.iter().map(|(_, t)| *t).max().unwrap();
    let winners = totals.iter().filter(|(_, t)| *t == top).map(|(p, _)| p.clone()).collect();
    (totals, winners)
}

#[test]
fn a_match_is_over_after_its_number_of_deals() {
    let r = registry();
    let (records, verdicts) = deals(&r, "basic-partners-match", &BTreeMap::new(), 4);
    let setup = Setup::new(r.get("basic-partners-match").unwrap(), 4, &BTreeMap::new()).unwrap();
    let refs: Vec<(&GameRecord, &Verdict)> = records.iter().zip(&verdicts).collect();
    // Two deals: under way.
    let m = match_state(&setup, &refs[..2]).unwrap().unwrap();
    assert_eq!((m.played, m.deals, m.over_after, m.winners.len()), (2, Some(3), None, 0));
    assert_eq!(m.target, Some(Q::int(156)));
    // Four deals: over after the third, which a side of two cannot have reached 156 by (3 x 78 split).
    let m = match_state(&setup, &refs).unwrap().unwrap();
    let (want_totals, want_winners) = totals(&verdicts[..3]);
    assert_eq!((m.played, m.over_after), (3, Some(3)));
    assert_eq!(m.totals, want_totals);
    assert_eq!(m.winners, want_winners);
    // Partners share their side's total, so a side wins together.
    assert_eq!(m.winners.len() % 2, 0, "{:?}", m.winners);
}

#[test]
fn a_target_ends_the_match_before_its_deals() {
    let r = registry();
    let options: BTreeMap<String, serde_json::Value> = [("deals".to_string(), serde_json::json!(6))].into();
    let (records, verdicts) = deals(&r, "basic-partners-match", &options, 6);
    let setup = Setup::new(r.get("basic-partners-match").unwrap(), 4, &options).unwrap();
    let refs: Vec<(&GameRecord, &Verdict)> = records.iter().zip(&verdicts).collect();
    let m = match_state(&setup, &refs).unwrap().unwrap();
    assert_eq!(m.deals, Some(6));
    // The first deal after which a total is 156 or more (each deal shares 78 between two sides, so by
    // the fourth deal at the latest).
    let end = (1..=6).find(|&k| totals(&verdicts[..k]).0.iter().any(|(_, t)| *t >= Q::int(156))).unwrap();
    assert!(end <= 4);
    assert_eq!((m.played, m.over_after, m.target_reached), (end, Some(end), true));
    assert_eq!(m.winners, totals(&verdicts[..end]).1);
}

#[test]
fn deals_not_played_to_the_end_do_not_count() {
    let r = registry();
    let rules = r.get("basic-partners-match").unwrap();
    let (records, verdicts) = deals(&r, "basic-partners-match", &BTreeMap::new(), 3);
    // The first deal broken off after the deal and three cards.
    let mut broken = records[0].clone();
    broken.events.truncate(4);
    let unfinished = replay(rules, &broken).unwrap();
    assert_eq!(unfinished.status, Status::InProgress);
    let setup = Setup::new(rules, 4, &BTreeMap::new()).unwrap();
    let refs = vec![(&broken, &unfinished), (&records[0], &verdicts[0]), (&records[1], &verdicts[1]), (&records[2], &verdicts[2])];
    let m = match_state(&setup, &refs).unwrap().unwrap();
    assert_eq!((m.played, m.over_after), (3, Some(4)));
    assert_eq!(m.totals, totals(&verdicts).0);
}

#[test]
fn a_ruleset_without_a_match_has_none() {
    let r = registry();
    let (records, verdicts) = deals(&r, "basic-partners", &BTreeMap::new(), 1);
    let setup = Setup::new(r.get("basic-partners").unwrap(), 4, &BTreeMap::new()).unwrap();
    assert_eq!(match_state(&setup, &[(&records[0], &verdicts[0])]).unwrap(), None);
}

/// What the compiler refuses in a `match` block, each with a message that says why.
#[test]
fn a_match_that_could_not_be_played_is_refused() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules/basic-partners-match.tarot")).unwrap();
    for (find, replace, message) in [
        ("  deals = option.deals\n  target = 2 * 78\n", "  # nothing\n", "give `deals = N`, `target = N`, or both"),
        ("deals = option.deals", "deals = 0", "`deals` is a whole number of deals, 1 or more"),
        ("deals = option.deals", "deals = 5 / 2", "`deals` is a whole number of deals, 1 or more"),
        ("target = 2 * 78", "target = 0 - 1", "`target` is a number of points above 0"),
        ("target = 2 * 78", "rounds = 2", "unknown match statement `rounds`"),
        ("target = 2 * 78", "target", "`target` needs a value"),
        ("target = 2 * 78", "target = points(player)", "`points` looks at the game being played"),
    ] {
        assert!(text.contains(find), "{find}");
        let mut files = Registry::builtin_files();
        files.insert("basic-partners-match".into(), tarot_engine::RuleFile { path: "basic-partners-match.tarot".into(), text: text.replace(find, replace) });
        let err = Registry::from_files(files).err().unwrap_or_else(|| panic!("`{replace}` was accepted")).to_string();
        assert!(err.contains(message), "`{replace}`: {err}");
    }
}

/// A deal thrown in that the rules pay for (`all-pass pay`: Dobbm's Stockerl at five) scores its
/// payments: a match adds them to the totals, and does not count the deal as one played. Dobbm made
/// a match of one deal here: the deal thrown in, then a deal played, over after the second.
#[test]
fn a_deal_thrown_in_and_paid_for_adds_to_the_totals_but_is_no_deal_played() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("rulesets/dobbm.tarot")).unwrap() + "\nmatch {\n  deals = 1\n}\n";
    let mut files = Registry::builtin_files();
    files.insert("dobbm".into(), tarot_engine::RuleFile { path: "dobbm.tarot".into(), text });
    let r = Registry::from_files(files).unwrap_or_else(|e| panic!("{e}"));
    let rules = r.get("dobbm").unwrap();
    let read = |name: &str| -> GameRecord { serde_json::from_str(&std::fs::read_to_string(root.join("fixtures/dobbm").join(name)).unwrap()).unwrap() };
    let (thrown_record, played_record) = (read("annulled/bidding.all-pass--stockerl-5p.json"), read("valid/5p-1.json"));
    let (thrown, played) = (replay(rules, &thrown_record).unwrap(), replay(rules, &played_record).unwrap());
    assert_eq!(thrown.status, Status::Annulled);
    let stockerl: Vec<(Arc<str>, Q)> = thrown.outcome.as_ref().expect("paid for").players.iter().map(|p| (p.player.clone(), p.score)).collect();
    assert_eq!(stockerl.iter().filter(|(_, s)| *s == Q::int(-10)).count(), 4, "{stockerl:?}");
    let setup = Setup::new(rules, 5, &BTreeMap::new()).unwrap();
    let m = match_state(&setup, &[(&thrown_record, &thrown)]).unwrap().unwrap();
    assert_eq!((m.played, m.over_after), (0, None));
    assert_eq!(m.totals, stockerl);
    let m = match_state(&setup, &[(&thrown_record, &thrown), (&played_record, &played)]).unwrap().unwrap();
    assert_eq!((m.played, m.over_after), (1, Some(2)));
    for (p, total) in &m.totals {
        let paid = stockerl.iter().find(|(q, _)| q == p).unwrap().1;
        let score = played.outcome.as_ref().unwrap().players.iter().find(|r| r.player == *p).unwrap().score;
        assert_eq!(*total, paid + score, "{p}");
    }
}
