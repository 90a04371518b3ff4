//! A declaration made right after the deal (`when after-deal`) from the cards dealt first
//! (`dealt(p, N)`), on the test rule file `tests/rules/dealer-first-cards.tarot`: the dealer claims
//! the match with the kings among his first 19 cards, before he takes his last two (Tarocchini's
//! dealer calling himself out on his first 15, rulesets/tarocchini.tarot, fixtures/tarocchini/).

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::Packet;
use tarot_engine::{replay, Event, GameRecord, Status};

fn rules() -> Ruleset {
    common::test_rules("dealer-first-cards", None).unwrap_or_else(|e| panic!("{e}"))
}

fn is_king(c: &str) -> bool {
    c.starts_with('K')
}

/// A simulated deal whose dealer holds two kings at least, with the order of the deal written in:
/// each other player's hand in one packet, then the dealer's in two, his first 19 cards and his last
/// two. `king_last` puts one of his kings among the last two; otherwise both are among the first.
fn deal_with_kings(rules: &Ruleset, king_last: bool) -> (GameRecord, Vec<String>) {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    loop {
        let mut rec = random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap();
        let dealer = rec.dealer.clone();
        let Event::Deal { hands, packets, .. } = &mut rec.events[0] else { panic!("a deal first") };
        let mut mine: Vec<String> = hands[dealer.as_str()].iter().map(|c| c.to_string()).collect();
        let kings: Vec<String> = mine.iter().filter(|c| is_king(c)).take(2).cloned().collect();
        if kings.len() < 2 {
            continue;
        }
        // The kings first, then the rest; with `king_last`, the second king goes to the very end.
        mine.sort_by_key(|c| !is_king(c));
        if king_last {
            let k = mine.iter().position(|c| *c == kings[1]).unwrap();
            let c = mine.remove(k);
            mine.push(c);
        }
        packets.clear();
        for p in rec.players.iter().cycle().skip_while(|p| **p != dealer).skip(1).take(3) {
            packets.push(Packet { to: Some(p.as_str().into()), cards: hands[p.as_str()].clone() });
        }
        packets.push(Packet { to: Some(dealer.as_str().into()), cards: mine[..19].iter().map(|c| c.as_str().into()).collect() });
        packets.push(Packet { to: Some(dealer.as_str().into()), cards: mine[19..].iter().map(|c| c.as_str().into()).collect() });
        return (rec, kings);
    }
}

fn carrying(rec: &GameRecord, side: i64) -> GameRecord {
    let mut rec = rec.clone();
    let n = rec.players.len();
    let dealer = rec.players.iter().position(|p| *p == rec.dealer).unwrap();
    rec.standing = rec.players.iter().enumerate().map(|(i, p)| (p.clone(), if (i + n - dealer).is_multiple_of(2) { side } else { 0 })).collect();
    rec
}

fn claim(rec: &GameRecord, player: &str, cards: &[String], at: usize) -> GameRecord {
    let mut rec = rec.clone();
    rec.events.truncate(at);
    rec.events.push(Event::Declare { player: player.into(), declaration: "dealer_claim".into(), cards: cards.iter().map(|c| c.as_str().into()).collect() });
    rec
}

fn broken(rules: &Ruleset, rec: &GameRecord) -> Option<String> {
    let v = replay(rules, rec).unwrap();
    v.violation.map(|x| x.rule.to_string())
}

#[test]
fn the_dealer_claims_on_his_first_cards() {
    let rules = rules();
    let (rec, kings) = deal_with_kings(&rules, false);
    // Played out without a claim: valid.
    assert_eq!(replay(&rules, &rec).unwrap().status, Status::Valid);
    // Two kings among his first 19, the side carrying 80: 100, the match is his side's.
    let rec80 = carrying(&rec, 80);
    let v = replay(&rules, &claim(&rec80, &rec.dealer, &kings, 1)).unwrap();
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    let ends = &v.outcome.as_ref().unwrap().ends_match;
    assert_eq!(ends.first().map(|p| p.to_string()).as_deref(), Some(rec.dealer.as_str()));
    // One king is not enough: 90.
    assert_eq!(broken(&rules, &claim(&rec80, &rec.dealer, &kings[..1], 1)).as_deref(), Some("declaration.dealer_claim.require.2"));
    // Not the dealer's to make.
    let other = rec.players.iter().find(|p| **p != rec.dealer).unwrap().clone();
    assert_eq!(broken(&rules, &claim(&rec80, &other, &[], 1)).as_deref(), Some("declaration.dealer_claim.allowed"));
    // Too late once the dealer has laid his cards away.
    assert!(matches!(rec.events[1], Event::Discard { .. }));
    assert_eq!(broken(&rules, &claim(&rec80, &rec.dealer, &kings, 2)).as_deref(), Some("declaration.dealer_claim"));
}

#[test]
fn a_king_among_his_last_two_cards_does_not_count() {
    let rules = rules();
    let (rec, kings) = deal_with_kings(&rules, true);
    let rec80 = carrying(&rec, 80);
    assert_eq!(broken(&rules, &claim(&rec80, &rec.dealer, &kings, 1)).as_deref(), Some("declaration.dealer_claim.require.1"));
    // The side carrying 90, the one king of his first 19 is enough.
    let rec90 = carrying(&rec, 90);
    assert_eq!(replay(&rules, &claim(&rec90, &rec.dealer, &kings[..1], 1)).unwrap().status, Status::Valid);
}

#[test]
fn without_the_order_of_the_deal_the_first_cards_are_unknown() {
    let rules = rules();
    let (rec, kings) = deal_with_kings(&rules, false);
    let mut rec = claim(&carrying(&rec, 80), &rec.dealer, &kings, 1);
    let Event::Deal { packets, .. } = &mut rec.events[0] else { panic!("a deal first") };
    packets.clear();
    // The record's lack, not the ruleset's mistake.
    let e = match replay(&rules, &rec) {
        Err(e) if e.ruleset_fault.is_none() => e.message,
        Err(e) => panic!("the record's error, not the ruleset's: {e}"),
        Ok(v) => panic!("{}", v.to_text()),
    };
    assert!(e.contains("order of the deal"), "{e}");
}

/// A game in progress right after the deal offers the dealer his claim (the verdict's open
/// declarations), and no longer once he has laid his cards away.
#[test]
fn the_claim_is_offered_right_after_the_deal_only() {
    let rules = rules();
    let (rec, _) = deal_with_kings(&rules, false);
    let mut dealt = carrying(&rec, 80);
    dealt.events.truncate(1);
    let open = |rec: &GameRecord| -> Vec<(String, String)> {
        let v = replay(&rules, rec).unwrap();
        assert_eq!(v.status, Status::InProgress, "{}", v.to_text());
        v.next.map(|n| n.declarations.iter().map(|d| (d.player.to_string(), d.declaration.to_string())).collect()).unwrap_or_default()
    };
    assert!(open(&dealt).contains(&(rec.dealer.clone(), "dealer_claim".to_string())), "{:?}", open(&dealt));
    let mut discarded = carrying(&rec, 80);
    discarded.events.truncate(2);
    assert!(!open(&discarded).iter().any(|(_, d)| d == "dealer_claim"));
}

/// The simulator makes declarations `when after-deal` where they are lawful (it never made them):
/// Tarocchini's dealer calling himself out on his first 15 cards, reached on purpose by deals of a match
/// near its end (`SimOptions::match_end`: the standing drawn from the last tenth below the target).
/// Every such game replays valid, the call-out right after the deal, by the dealer, ending the match;
/// without `match_end` the seeded games are those the simulator always made (no call-out is lawful).
#[test]
fn the_simulator_makes_the_dealers_call_out_near_the_matchs_end() {
    use tarot_engine::{random_game_with, SimOptions};
    let registry = tarot_testkit::registry();
    let rules = registry.get("tarocchini").unwrap();
    let mut made = 0;
    for sim in [SimOptions { match_end: 1.0, ..SimOptions::default() }, SimOptions { match_end: 1.0, ..SimOptions::steered() }] {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..60 {
            let rec = random_game_with(rules, 4, &BTreeMap::new(), &sim, &mut rng).unwrap();
            assert!(rec.standing.values().all(|s| (720..800).contains(s)), "{:?}", rec.standing);
            let v = replay(rules, &rec).unwrap();
            assert!(matches!(v.status, Status::Valid | Status::Annulled), "{}", v.to_text());
            if let Some(i) = rec.events.iter().position(|e| matches!(e, Event::Declare { declaration, .. } if &**declaration == "fuori_mazziere")) {
                made += 1;
                assert_eq!(i, 1, "right after the deal");
                let Event::Declare { player, .. } = &rec.events[i] else { unreachable!() };
                assert_eq!(**player, *rec.dealer);
                assert_eq!(v.status, Status::Valid);
                assert!(rec.events.len() == 2, "the deal ends at the call-out: {:?}", rec.events.len());
            }
        }
    }
    assert!(made >= 5, "only {made} call-outs in 120 games near the match's end");
    // Without a match near its end, none: the default simulator's games are unchanged.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..30 {
        let rec = random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap();
        assert!(rec.standing.is_empty() && !rec.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if &**declaration == "fuori_mazziere")));
    }
}
