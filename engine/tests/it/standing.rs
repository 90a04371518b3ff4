//! The match so far (Design 1 of round 1's italswiss report): a record's `standing` (each player's
//! running total before the deal), read by `carried(p)`, checked by the deal's `require` and followed
//! from deal to deal (`matches::standing_follows`). On the test rule file
//! `tests/rules/standing-catch-up.tarot` (Basic Tarot: the player furthest behind deals, and one 50 or
//! more behind the leader scores double) and on Troccas' `asked` (BE §7: a side owing nine or more).

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::random_game;
use tarot_engine::Q;
use tarot_engine::{parse_record, replay, GameRecord, Registry, Status, Verdict};
use tarot_engine::{standing_follows, Played};

fn registry() -> Registry {
    common::registry_of(&["standing-catch-up", "basic-partners-match", "call-out-match"])
}

fn score(v: &Verdict, player: &str) -> Q {
    v.outcome.as_ref().expect("a finished deal").players.iter().find(|p| &*p.player == player).expect("the player").score
}

fn with_standing(rec: &GameRecord, standing: &[(&str, i64)]) -> GameRecord {
    let mut rec = rec.clone();
    rec.standing = standing.iter().map(|(p, t)| (p.to_string(), *t)).collect();
    rec
}

/// Simulated deals of the test rules, the dealer first at the table (Ann), none annulled.
fn deals(rules: &tarot_engine::ir::Ruleset, n: usize, seed: u64) -> Vec<GameRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap()).collect()
}

#[test]
fn the_deal_requires_what_the_match_says() {
    let r = registry();
    let rules = r.get("standing-catch-up").unwrap();
    for rec in deals(rules, 5, 3) {
        // Nothing carried (a first deal): everyone carries 0, the dealer no more than anyone.
        assert_eq!(replay(rules, &rec).unwrap().status, Status::Valid);
        let dealer = rec.dealer.clone();
        let other = rec.players.iter().find(|p| **p != dealer).unwrap().clone();
        // Someone else behind the dealer: the dealer should not deal.
        let v = replay(rules, &with_standing(&rec, &[(&other, -10)])).unwrap();
        assert_eq!(v.status, Status::Invalid, "{}", v.to_text());
        let violation = v.violation.unwrap();
        assert_eq!(&*violation.rule, "deal.require.1");
        assert_eq!(violation.player.as_deref(), Some(dealer.as_str()));
        // The dealer furthest behind: valid.
        assert_eq!(replay(rules, &with_standing(&rec, &[(&dealer, -10)])).unwrap().status, Status::Valid);
    }
}

#[test]
fn the_score_reads_what_each_player_carries() {
    let r = registry();
    let rules = r.get("standing-catch-up").unwrap();
    let rec = &deals(rules, 1, 5)[0];
    let dealer = rec.dealer.clone();
    let plain = replay(rules, rec).unwrap();
    let points = plain.outcome.as_ref().unwrap().players.iter().find(|p| *p.player == *dealer).unwrap().card_points;
    assert_eq!(score(&plain, &dealer), points);
    // The dealer 50 behind the leader scores double; 49 behind, not.
    let leader = rec.players.iter().find(|p| **p != dealer).unwrap().clone();
    let behind = replay(rules, &with_standing(rec, &[(&dealer, -20), (&leader, 30)])).unwrap();
    assert_eq!(score(&behind, &dealer), points * Q::int(2));
    let not_quite = replay(rules, &with_standing(rec, &[(&dealer, -19), (&leader, 30)])).unwrap();
    assert_eq!(score(&not_quite, &dealer), points);
}

#[test]
fn a_standing_naming_nobody_at_the_table_is_refused() {
    let r = registry();
    let rules = r.get("standing-catch-up").unwrap();
    let rec = with_standing(&deals(rules, 1, 7)[0], &[("Zed", -5)]);
    let e = replay(rules, &rec).unwrap_err();
    assert!(e.message.contains("Zed, who is not at the table"), "{}", e.message);
    // Read the same way from JSON, by the quick reader and by serde.
    let text = serde_json::to_string(&rec).unwrap();
    assert!(text.contains("\"standing\":{\"Zed\":-5}"), "{text}");
    assert_eq!(parse_record(&text).unwrap(), rec);
}

/// A table's deals follow when each deal's standing is the one before plus its scores.
#[test]
fn the_deals_of_a_table_carry_the_standing_on() {
    let r = registry();
    let rules = r.get("standing-catch-up").unwrap();
    let mut records = vec![];
    let mut verdicts = vec![];
    let mut totals: BTreeMap<String, i64> = BTreeMap::new();
    for (i, base) in deals(r.get("basic").unwrap(), 4, 11).into_iter().enumerate() {
        let mut rec = GameRecord { ruleset: "standing-catch-up".into(), ..base };
        rec.standing = totals.clone();
        // The player furthest behind deals (the rule file's require).
        let least = rec.players.iter().min_by_key(|p| totals.get(*p).copied().unwrap_or(0)).unwrap().clone();
        if least != rec.dealer {
            // The same deal with the names turned round the table, so that the dealer's seat is his.
            let from = rec.players.iter().position(|p| *p == rec.dealer).unwrap();
            let to = rec.players.iter().position(|p| *p == least).unwrap();
            let mut text = serde_json::to_string(&rec).unwrap();
            for (k, p) in rec.players.iter().enumerate() {
                text = text.replace(&format!("\"{p}\""), &format!("\"@{k}\""));
            }
            for k in 0..4 {
                text = text.replace(&format!("\"@{k}\""), &format!("\"{}\"", rec.players[(k + 4 + to - from) % 4]));
            }
            rec = parse_record(&text).unwrap();
            rec.standing = totals.clone();
            assert_eq!(rec.dealer, least);
        }
        let v = replay(rules, &rec).unwrap();
        assert_eq!(v.status, Status::Valid, "deal {}: {}", i + 1, v.to_text());
        for p in &v.outcome.as_ref().unwrap().players {
            *totals.entry(p.player.to_string()).or_default() += p.score.numer();
        }
        records.push(rec);
        verdicts.push(v);
    }
    let pairs: Vec<Played> = records.iter().zip(&verdicts).map(|(r, v)| (rules, r, v)).collect();
    assert_eq!(standing_follows(&pairs), Ok(()));
    // A deal that says another total breaks it, named.
    let mut wrong = records.clone();
    *wrong[2].standing.entry("Bob".into()).or_default() += 1;
    let pairs: Vec<Played> = wrong.iter().zip(&verdicts).map(|(r, v)| (rules, r, v)).collect();
    let e = standing_follows(&pairs).unwrap_err();
    assert!(e.starts_with("deal 3 says Bob carries"), "{e}");
    // Deals of a ruleset that reads no `carried` are not checked.
    let basic = r.get("basic").unwrap();
    let pairs: Vec<Played> = wrong.iter().zip(&verdicts).map(|(r, v)| (basic, r, v)).collect();
    assert_eq!(standing_follows(&pairs), Ok(()));
}

/// `ends-match` (tests/rules/call-out-match.tarot): a side carrying 100 may claim the match before the
/// first card; the deal ends there, valid, and the match after it, the claimant's side the winner. 99
/// is not enough, and a claim after the first card is too late.
#[test]
fn a_side_ahead_claims_the_match() {
    let r = registry();
    let rules = r.get("call-out-match").unwrap();
    let setup = tarot_engine::Setup::new(rules, 4, &BTreeMap::new()).unwrap();
    let full = &deals(rules, 1, 13)[0];
    let bob = full.players[1].clone();
    let claim = tarot_engine::Event::Declare { player: bob.as_str().into(), declaration: "claim".into(), cards: vec![] };
    let mut rec = with_standing(full, &[("Bob", 100), ("Dan", 100)]);
    rec.events.truncate(1);
    rec.events.push(claim.clone());
    let v = replay(rules, &rec).unwrap();
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    assert_eq!(v.outcome.as_ref().unwrap().ends_match.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["Bob", "Dan"]);
    let played = replay(rules, full).unwrap();
    let m = tarot_engine::match_state(&setup, &[(full, &played), (&rec, &v), (full, &played)]).unwrap().unwrap();
    assert_eq!((m.played, m.over_after, m.target_reached), (2, Some(2), false));
    assert_eq!(m.winners.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["Bob", "Dan"]);

    rec.standing.insert("Bob".into(), 99);
    let v = replay(rules, &rec).unwrap();
    assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), Some("declaration.claim.require.1"));

    let mut late = with_standing(full, &[("Bob", 100), ("Dan", 100)]);
    let first_play = late.events.iter().position(|e| matches!(e, tarot_engine::Event::Play { .. })).unwrap();
    late.events.truncate(first_play + 1);
    late.events.push(claim);
    let v = replay(rules, &late).unwrap();
    assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), Some("declaration.claim"));
}
