//! Pots (issue 15, N9): money kept on the table from deal to deal (`pot NAME`). On the test rule file
//! `tests/rules/pots-kitty.tarot` (Basic Tarot with a kitty: a stake of 2 each per deal, 1 for a lost
//! Petit, taken by 50 card points) and on Grosstarock's King and Pagat pots: what a record carries
//! changes what is paid, players and pots balance, and a table's deals must carry the pots on.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::random_game;
use tarot_engine::read_quick;
use tarot_engine::Setup;
use tarot_engine::Q;
use tarot_engine::{match_state, pots_follow, Played};
use tarot_engine::{parse_record, replay, GameRecord, Registry, Status, Verdict};

fn registry() -> Registry {
    common::registry_of(&["pots-kitty"])
}

fn kitty(v: &Verdict) -> (Q, Q) {
    let p = &v.outcome.as_ref().expect("a finished deal").pots[0];
    assert_eq!(&*p.pot, "kitty");
    (p.carried, p.closing)
}

/// Players' scores plus what the pots took come to nothing.
fn balance(v: &Verdict) -> Q {
    let o = v.outcome.as_ref().unwrap();
    o.players.iter().map(|p| p.score).sum::<Q>() + o.pots.iter().map(|p| p.closing - p.carried).sum::<Q>()
}

#[test]
fn the_kitty_is_staked_carried_and_taken() {
    let r = registry();
    let rules = r.get("pots-kitty").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut taken, mut kept) = (0, 0);
    for n in [3, 4, 5] {
        for _ in 0..30 {
            let mut rec = random_game(rules, n, &BTreeMap::new(), &mut rng).unwrap();
            for carried in [0, 7] {
                if carried > 0 {
                    rec.pots.insert("kitty".into(), carried);
                }
                let v = replay(rules, &rec).unwrap();
                if v.status == Status::Annulled {
                    continue;
                }
                assert_eq!(v.status, Status::Valid, "{}", v.to_text());
                assert_eq!(balance(&v), Q::ZERO, "{}", v.to_text());
                let (c, closing) = kitty(&v);
                assert_eq!(c, Q::int(carried));
                let lost_petit = v.ledger.iter().filter(|l| &*l.label == "kitty for a lost Petit").count() as i64;
                let won = v.outcome.as_ref().unwrap().players.iter().any(|p| p.card_points >= Q::int(50));
                if won {
                    taken += 1;
                    assert_eq!(closing, Q::ZERO, "the kitty is taken whole\n{}", v.to_text());
                    let paid_out: Q = v.ledger.iter().filter(|l| &*l.label == "kitty won").map(|l| l.amount).sum();
                    assert_eq!(paid_out, Q::int(carried + 2 * n as i64 + lost_petit), "{}", v.to_text());
                } else {
                    kept += 1;
                    assert_eq!(closing, Q::int(carried + 2 * n as i64 + lost_petit), "{}", v.to_text());
                }
            }
        }
    }
    assert!(taken > 0 && kept > 0, "both cases seen: taken {taken}, kept {kept}");
}

/// A table's deals, each carrying what the one before closed with.
fn session(rules: &tarot_engine::ir::Ruleset, k: usize, seed: u64) -> Vec<(GameRecord, Verdict)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out: Vec<(GameRecord, Verdict)> = vec![];
    while out.len() < k {
        let mut rec = random_game(rules, 3, &BTreeMap::new(), &mut rng).unwrap();
        if let Some((_, v)) = out.last() {
            for p in &v.outcome.as_ref().unwrap().pots {
                rec.pots.insert(p.pot.to_string(), p.closing.numer());
            }
        }
        let v = replay(rules, &rec).unwrap();
        if v.status == Status::Valid {
            out.push((rec, v));
        }
    }
    out
}

#[test]
fn a_session_carries_the_pots_on_and_a_gap_is_named() {
    let r = registry();
    let rules = r.get("pots-kitty").unwrap();
    let deals = session(rules, 6, 3);
    let pairs: Vec<Played> = deals.iter().map(|(r, v)| (rules, r, v)).collect();
    assert_eq!(pots_follow(&pairs), Ok(()));
    // The fourth deal carries one more than the third left.
    let mut broken = deals.clone();
    let left = kitty(&broken[2].1).1;
    broken[3].0.pots.insert("kitty".into(), left.numer() + 1);
    let pairs: Vec<Played> = broken.iter().map(|(r, v)| (rules, r, v)).collect();
    let e = pots_follow(&pairs).unwrap_err();
    assert_eq!(e, format!("deal 4 carries the kitty at {}, but deal 3 closed it at {left}: a deal's `pots` are what the deal before it left in them", left + Q::int(1)));
    // Deals read under a ruleset without pots: always follow.
    let basic = r.get("basic").unwrap();
    let pairs: Vec<Played> = broken.iter().map(|(r, v)| (basic, r, v)).collect();
    assert_eq!(pots_follow(&pairs), Ok(()));
    // A deal of a ruleset without the pot between two that keep it leaves it as it was: the deal
    // after it carries what the last deal keeping it left (deals 3 and 4 read as Basic Tarot's, the
    // fifth carrying what the second left); a gap is named with the deal that left it.
    let second = kitty(&deals[1].1).1;
    let mut fifth = deals[4].0.clone();
    for (carried, follows) in [(second, true), (second + Q::int(1), false)] {
        fifth.pots.insert("kitty".into(), carried.numer());
        let across: Vec<Played> = deals.iter().enumerate().map(|(i, (r, v))| (if i == 2 || i == 3 { basic } else { rules }, if i == 4 { &fifth } else { r }, v)).collect();
        match pots_follow(&across) {
            Ok(()) => assert!(follows, "deal 5 carries {carried}, deal 2 left {second}"),
            Err(e) => {
                assert!(!follows, "{e}");
                assert!(e.starts_with(&format!("deal 5 carries the kitty at {carried}, but deal 2 closed it at {second} (the deals between keep no such pot)")), "{e}");
            }
        }
    }
}

#[test]
fn grosstarock_sessions_follow_or_say_where_not() {
    let r = tarot_testkit::registry();
    let rules = r.get("grosstarock").unwrap();
    let read = |name: &str| -> Vec<(GameRecord, Verdict)> {
        (1..=3)
            .map(|k| {
                let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../fixtures/grosstarock/sessions/{name}/deal-{k}.json"));
                let rec = parse_record(&std::fs::read_to_string(path).unwrap()).unwrap();
                let v = replay(rules, &rec).unwrap();
                assert_eq!(v.status, Status::Valid, "{name} deal {k}");
                (rec, v)
            })
            .collect()
    };
    let follow = read("follow");
    let pairs: Vec<Played> = follow.iter().map(|(r, v)| (rules, r, v)).collect();
    assert_eq!(pots_follow(&pairs), Ok(()));
    // Deal 2's made King Ultimo empties the King pot; deal 3 starts it again (the foundation, 20
    // from each), and its failed King Ultimo doubles it.
    let pots = |v: &Verdict| v.outcome.as_ref().unwrap().pots.iter().map(|p| (p.pot.to_string(), p.carried.numer(), p.closing.numer())).collect::<Vec<_>>();
    assert_eq!(pots(&follow[1].1)[0], ("king".to_string(), 75, 0));
    assert_eq!(pots(&follow[2].1)[0], ("king".to_string(), 0, 150));
    let foundation: Q = follow[2].1.ledger.iter().filter(|l| &*l.label == "King pot foundation").map(|l| l.amount).sum();
    assert_eq!(foundation, Q::int(60));
    assert!(follow[1].1.ledger.iter().all(|l| &*l.label != "King pot foundation"), "a pot carried full is not founded again");
    for (_, v) in &follow {
        assert_eq!(balance(v), Q::ZERO);
    }
    // B's "any multiple of three hands": the three deals are one game (`match { deals =
    // option.deals }`, three by default); with six, the game goes on.
    let verdicts: Vec<(&GameRecord, &Verdict)> = follow.iter().map(|(r, v)| (r, v)).collect();
    let m = match_state(&Setup::new(rules, 3, &BTreeMap::new()).unwrap(), &verdicts).unwrap().expect("a match");
    assert_eq!((m.deals, m.over_after, m.played), (Some(3), Some(3), 3));
    assert!(!m.winners.is_empty());
    let six = BTreeMap::from([("deals".to_string(), serde_json::json!(6))]);
    let m = match_state(&Setup::new(rules, 3, &six).unwrap(), &verdicts).unwrap().expect("a match");
    assert_eq!((m.deals, m.over_after), (Some(6), None));
    let broken = read("broken");
    let pairs: Vec<Played> = broken.iter().map(|(r, v)| (rules, r, v)).collect();
    let e = pots_follow(&pairs).unwrap_err();
    assert!(e.starts_with("deal 3 carries the King pot at 75, but deal 2 closed it at 0"), "{e}");
}

#[test]
fn what_a_record_carries_changes_what_is_paid() {
    let r = tarot_testkit::registry();
    let rules = r.get("grosstarock").unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/grosstarock/valid/king-ultimo.json");
    let mut rec = parse_record(&std::fs::read_to_string(path).unwrap()).unwrap();
    let won = |v: &Verdict| v.ledger.iter().filter(|l| &*l.label == "King pot won").map(|l| l.amount).sum::<Q>();
    let empty = replay(rules, &rec).unwrap();
    rec.pots.insert("king".into(), 100);
    let full = replay(rules, &rec).unwrap();
    // Carried full, it is not founded again (60 less), and the Ultimo takes the 100 besides.
    assert_eq!(won(&full) - won(&empty), Q::int(100 - 60));
    assert_eq!(balance(&full), Q::ZERO);
}

#[test]
fn a_record_carrying_a_pot_the_ruleset_lacks_cannot_be_read() {
    let r = registry();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut rec = random_game(r.get("pots-kitty").unwrap(), 3, &BTreeMap::new(), &mut rng).unwrap();
    rec.pots.insert("king".into(), 5);
    let e = replay(r.get("pots-kitty").unwrap(), &rec).unwrap_err();
    assert_eq!(e.message, "the record carries pot `king`, which pots-kitty does not have; its pots are kitty");
    rec.ruleset = "basic".into();
    let e = replay(r.get("basic").unwrap(), &rec).unwrap_err();
    assert_eq!(e.message, "the record carries pot `king`, but basic has no pots");
}

#[test]
fn the_quick_reader_reads_pots_as_serde_does() {
    let text = r#"{"ruleset":"pots-kitty","players":["A","B","C"],"dealer":"A","pots":{"kitty":12},"events":[]}"#;
    let quick = read_quick(text.as_bytes()).expect("the quick reader reads it");
    let slow: GameRecord = serde_json::from_str(text).unwrap();
    assert_eq!(quick, slow);
    assert_eq!(quick.pots.get("kitty"), Some(&12));
    // Not a whole number: serde_json says what is wrong.
    let e = parse_record(r#"{"ruleset":"pots-kitty","players":["A"],"dealer":"A","pots":{"kitty":1.5},"events":[]}"#).unwrap_err();
    assert!(e.contains("at `pots.kitty`"), "{e}");
    // Written back only when there are pots.
    let none: GameRecord = serde_json::from_str(r#"{"ruleset":"basic","players":["A"],"dealer":"A","events":[]}"#).unwrap();
    assert!(!serde_json::to_string(&none).unwrap().contains("pots"));
}
