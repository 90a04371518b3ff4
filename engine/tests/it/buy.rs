//! Buying a card (`buy { cards = N }`, Droggn's Simple), checked on replayed games of
//! `tests/rules/buy-garde.tarot`: seeded random games (the simulator buys half the time) are valid,
//! then a move is changed and the verdict checked.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Status, Verdict};

fn compiled(id: &str) -> Ruleset {
    common::rules(id, &[id])
}

/// Seeded random games that reach the end, each with its verdict; the simulator's are never invalid.
fn games(rules: &Ruleset, count: usize) -> Vec<(GameRecord, Verdict)> {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    (0..count)
        .map(|_| {
            let g = random_game_with(rules, 3, &BTreeMap::new(), &SimOptions::steered(), &mut rng).unwrap();
            let v = replay(rules, &g).unwrap();
            assert_ne!(v.status, Status::Invalid, "the simulator broke {:?}", v.violation);
            (g, v)
        })
        .filter(|(_, v)| v.status == Status::Valid)
        .collect()
}

fn contract(v: &Verdict) -> String {
    v.outcome.as_ref().and_then(|o| o.contract.clone()).unwrap_or_default()
}

/// The index of the buy event, if any.
fn buy_at(g: &GameRecord) -> Option<usize> {
    g.events.iter().position(|e| matches!(e, Event::Buy { .. }))
}

fn with_buy(g: &GameRecord, at: usize, card: Option<&str>, gives: Option<&str>) -> GameRecord {
    let mut g = g.clone();
    if let Event::Buy { card: c, gives: k, .. } = &mut g.events[at] {
        *c = card.map(Into::into);
        *k = gives.map(Into::into);
    }
    g
}

fn violation(v: &Verdict) -> (String, String) {
    assert_eq!(v.status, Status::Invalid, "{}", v.to_text());
    let x = v.violation.as_ref().unwrap();
    (x.rule.to_string(), x.message.clone())
}

/// Whom the deal gave each card.
fn holder(g: &GameRecord, card: &str) -> Option<String> {
    match &g.events[0] {
        Event::Deal { hands, .. } => hands.iter().find(|(_, cs)| cs.iter().any(|c| c == card)).map(|(p, _)| p.to_string()),
        _ => None,
    }
}

#[test]
fn a_garde_buys_a_card_and_other_contracts_do_not() {
    let rules = compiled("buy-garde");
    let (mut bought, mut passed) = (0, 0);
    for (g, v) in games(&rules, 120) {
        let c = contract(&v);
        match buy_at(&g) {
            None => assert_ne!(c, "garde", "a garde owes a buy event"),
            Some(i) => {
                assert_eq!(c, "garde", "only a garde buys");
                // The buy comes right after the taker's discard.
                assert!(matches!(g.events[i - 1], Event::Discard { .. }));
                match &g.events[i] {
                    Event::Buy { card: Some(card), gives: Some(given), player } => {
                        bought += 1;
                        assert!(v.notes.iter().any(|n| n.contains(" buys ") && n.contains("(buy)")), "{:?}", v.notes);
                        // The card bought is played by the taker, the card given back by its holder.
                        let played = |card: &str| {
                            g.events.iter().find_map(|e| match e {
                                Event::Play { player, card: c } if c == card => Some(player.to_string()),
                                _ => None,
                            })
                        };
                        assert_eq!(played(card).as_deref(), Some(player.as_str()));
                        let seller = holder(&g, card).unwrap();
                        if let Some(p) = played(given) {
                            assert_eq!(p, seller, "the card given back is the seller's");
                        }
                        // The same game without the buy: the seller plays a card he no longer
                        // holds, or the taker the card he gave, or the card bought is missing.
                        let mut without = g.clone();
                        without.events.remove(i);
                        assert_eq!(replay(&rules, &without).unwrap().status, Status::Invalid);
                    }
                    _ => passed += 1,
                }
            }
        }
    }
    assert!(bought > 3 && passed > 3, "bought {bought}, passed {passed}");
}

#[test]
fn a_wrong_buy_is_refused_by_rule_buy() {
    let rules = compiled("buy-garde");
    let gs = games(&rules, 120);
    let (g, _) = gs.iter().find(|(g, _)| buy_at(g).is_some()).expect("a garde");
    let i = buy_at(g).unwrap();
    let taker = g.events[i].player().unwrap().to_string();
    let hand_of = |who: &str| -> Vec<String> {
        match &g.events[0] {
            Event::Deal { hands, .. } => hands[who].iter().map(|c| c.to_string()).collect(),
            _ => unreachable!(),
        }
    };
    let discarded: Vec<String> = g
        .events
        .iter()
        .find_map(|e| match e {
            Event::Discard { cards, .. } => Some(cards.iter().map(|c| c.to_string()).collect()),
            _ => None,
        })
        .unwrap();
    let mine: Vec<String> = hand_of(&taker).into_iter().filter(|c| !discarded.contains(c)).collect();
    let other = g.events[0].clone();
    let theirs: String = match &other {
        Event::Deal { hands, .. } => hands.iter().find(|(p, _)| p.as_str() != taker).map(|(_, cs)| cs[0].to_string()).unwrap(),
        _ => unreachable!(),
    };
    // A card he holds.
    let (rule, message) = violation(&replay(&rules, &with_buy(g, i, Some(&mine[0]), Some(&mine[1]))).unwrap());
    assert_eq!(rule, "buy");
    assert!(message.contains("which he holds himself"), "{message}");
    // A card he laid away: in no other hand.
    let (rule, message) = violation(&replay(&rules, &with_buy(g, i, Some(&discarded[0]), Some(&mine[1]))).unwrap());
    assert_eq!(rule, "buy");
    assert!(message.contains("which no other player holds"), "{message}");
    // A card given back that he does not hold (another player's).
    let (rule, message) = violation(&replay(&rules, &with_buy(g, i, Some(&theirs), Some(&discarded[0]))).unwrap());
    assert_eq!(rule, "buy");
    assert!(message.contains("which he does not hold"), "{message}");
    // Bought by another player.
    let mut by_other = g.clone();
    let someone = match &other {
        Event::Deal { hands, .. } => hands.keys().find(|p| p.as_str() != taker).unwrap().clone(),
        _ => unreachable!(),
    };
    if let Event::Buy { player, .. } = &mut by_other.events[i] {
        *player = someone;
    }
    let (rule, message) = violation(&replay(&rules, &by_other).unwrap());
    assert_eq!(rule, "buy");
    assert!(message.contains("buys cards, not"), "{message}");
    // No buy at all: the first card is refused.
    let mut skipped = g.clone();
    skipped.events.remove(i);
    let v = replay(&rules, &skipped).unwrap();
    if v.violation.as_ref().is_some_and(|x| x.event == i) {
        let (rule, message) = violation(&v);
        assert_eq!(rule, "buy");
        assert!(message.contains("must first buy a card"), "{message}");
    }
    // A second buy: there is no card to buy now.
    let mut twice = g.clone();
    twice.events.insert(i + 1, Event::Buy { player: taker.as_str().into(), card: None, gives: None });
    let (rule, message) = violation(&replay(&rules, &twice).unwrap());
    assert_eq!(rule, "buy");
    assert!(message.contains("no card to buy now"), "{message}");
    // A card without the card given back cannot be read.
    let half = with_buy(g, i, Some(&theirs), None);
    let e = replay(&rules, &half).expect_err("a half buy cannot be read");
    assert!(e.message.contains("or neither"), "{}", e.message);
}

#[test]
fn a_prise_may_not_buy() {
    let rules = compiled("buy-garde");
    let gs = games(&rules, 120);
    let (g, v) = gs.iter().find(|(_, v)| contract(v) == "prise").expect("a prise");
    let at = g.events.iter().position(|e| matches!(e, Event::Discard { .. })).unwrap() + 1;
    let taker = v.outcome.as_ref().and_then(|o| o.taker.as_deref()).unwrap().to_string();
    let mut buying = g.clone();
    buying.events.insert(at, Event::Buy { player: taker.as_str().into(), card: None, gives: None });
    let (rule, message) = violation(&replay(&rules, &buying).unwrap());
    assert_eq!(rule, "buy");
    assert!(message.contains("no card to buy now"), "{message}");
}
