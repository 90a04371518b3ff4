//! `packets = [[...], [...]]`: the orders of the deal the dealer chooses among. The record's packets
//! show which he chose; either is accepted, a deal in neither breaks `deal.packets`, and the Tapp dealt
//! after the first round (`dog_after`) falls after the first round of the order chosen. Tried on the
//! test rule file `deal-packet-orders` (the FFT's four dealt in threes or sixes) and on Grächen's deal
//! at five (`troggu-graechen`: 5 + Tapp + 6 or 6 + Tapp + 5, P "Variations").

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{describe, random_game, replay, Event, GameRecord, Packet, Status};

/// The players' packet sizes of a record's deal, in order (the dog's left out).
fn sizes(g: &GameRecord) -> Vec<usize> {
    match &g.events[0] {
        Event::Deal { packets, .. } => packets.iter().filter(|p| p.to.is_some()).map(|p| p.cards.len()).collect(),
        _ => vec![],
    }
}

fn packets_of(g: &GameRecord) -> Vec<Packet> {
    match &g.events[0] {
        Event::Deal { packets, .. } => packets.clone(),
        _ => vec![],
    }
}

/// `g` with its deal's packets replaced.
fn dealt(g: &GameRecord, packets: Vec<Packet>) -> GameRecord {
    let mut g = g.clone();
    if let Event::Deal { packets: p, .. } = &mut g.events[0] {
        *p = packets;
    }
    g
}

/// The deal of `g` (dealt in packets of `from`) dealt again in packets of `to` cards, each player's
/// cards in the order he received them; the dog's cards go just before the next packet to a player
/// (after the first), so never first or last.
fn regroup(g: &GameRecord, from: usize, to: usize) -> GameRecord {
    let mut out: Vec<Packet> = vec![];
    let mut dogs: Vec<Packet> = vec![];
    let mut pending: BTreeMap<String, Vec<tarot_engine::Text>> = BTreeMap::new();
    for p in packets_of(g) {
        match &p.to {
            None => dogs.push(p),
            Some(who) => {
                assert_eq!(p.cards.len(), from);
                let mine = pending.entry(who.to_string()).or_default();
                mine.extend(p.cards.iter().cloned());
                if mine.len() == to {
                    let packet = Packet { to: Some(who.clone()), cards: std::mem::take(mine) };
                    if out.is_empty() {
                        out.push(packet);
                    } else {
                        out.append(&mut dogs);
                        out.push(packet);
                    }
                }
            }
        }
    }
    let last = out.pop().expect("a packet");
    out.append(&mut dogs);
    out.push(last);
    dealt(g, out)
}

fn games(rules: &Ruleset, players: usize, n: u64) -> Vec<GameRecord> {
    (0..n).map(|seed| random_game(rules, players, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap()).collect()
}

#[test]
fn the_dealer_deals_in_either_order_and_the_record_shows_which() {
    let rules = common::rules("deal-packet-orders", &["deal-packet-orders"]);
    let mut seen = BTreeMap::new();
    for g in games(&rules, 4, 30) {
        let v = replay(&rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "{}", v.to_text());
        let order = sizes(&g);
        assert!(order == vec![3; 24] || order == vec![6; 12], "{order:?}");
        let chosen = if order[0] == 3 { "3 + 3 + 3 + 3 + 3 + 3" } else { "6 + 6 + 6" };
        let note = format!("deals the packets {chosen}, one of the orders the dealer may choose (deal.packets)");
        assert!(v.notes.iter().any(|n| n.contains(&note)), "{:?}", v.notes);
        *seen.entry(order[0]).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 2, "the simulator deals in both orders: {seen:?}");
}

#[test]
fn a_deal_in_neither_order_breaks_the_packets_rule() {
    let rules = common::rules("deal-packet-orders", &["deal-packet-orders"]);
    let g = games(&rules, 4, 30).into_iter().find(|g| sizes(g)[0] == 3).expect("a deal in threes");
    // The same cards in sixes: the other order, accepted.
    let sixes = regroup(&g, 3, 6);
    let v = replay(&rules, &sixes).unwrap();
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    // In nines, neither.
    let nines = regroup(&g, 3, 9);
    let v = replay(&rules, &nines).unwrap();
    let x = v.violation.expect("a deal in nines refused");
    assert_eq!((x.event, &*x.rule), (0, "deal.packets"), "{}", x.message);
    assert!(x.message.contains("packet 1 gives 9 cards to"), "{}", x.message);
    assert!(x.message.contains("of the 2 the dealer may choose: 3 + 3 + 3 + 3 + 3 + 3 or 6 + 6 + 6"), "{}", x.message);
    // The FFT's own rules deal in threes only: the sixes are refused there, and no note is made.
    let fft = common::rules("fft-4p", &[]);
    let under_fft = |g: &GameRecord| replay(&fft, &GameRecord { ruleset: "fft-4p".into(), ..g.clone() }).unwrap();
    assert_eq!(under_fft(&sixes).violation.map(|x| x.rule.to_string()).as_deref(), Some("deal.packets"));
    let v = under_fft(&g);
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    assert!(v.notes.iter().all(|n| !n.contains("deals the packets")), "{:?}", v.notes);
}

#[test]
fn the_tapp_after_the_first_round_follows_the_order_chosen() {
    let rules = common::rules("troggu-graechen", &[]);
    let mut seen = BTreeMap::new();
    for g in games(&rules, 5, 40) {
        let v = replay(&rules, &g).unwrap();
        assert!(matches!(v.status, Status::Valid | Status::Annulled), "{}", v.to_text());
        let packets = packets_of(&g);
        let first = packets[0].cards.len();
        // Five packets of the first round, then the Tapp in one packet, then the second round.
        assert!(packets[5].to.is_none() && packets[5].cards.len() == 7, "{packets:?}");
        assert_eq!(sizes(&g), [vec![first; 5], vec![11 - first; 5]].concat());
        *seen.entry(first).or_insert(0) += 1;
        if seen.get(&first) == Some(&1) {
            // The Tapp dealt after the second round instead: refused.
            let mut late = packets.clone();
            let tapp = late.remove(5);
            late.push(tapp);
            let x = replay(&rules, &dealt(&g, late)).unwrap().violation.expect("a late Tapp refused");
            assert_eq!((x.event, &*x.rule), (0, "deal.dog_after"), "{}", x.message);
        }
    }
    assert_eq!(seen.keys().copied().collect::<Vec<_>>(), vec![5, 6], "both orders dealt: {seen:?}");
}

#[test]
fn describe_says_the_dealer_chooses() {
    let d = describe(&common::rules("deal-packet-orders", &["deal-packet-orders"]), &BTreeMap::new());
    let line = d.rules.iter().find(|l| &*l.rule == "deal.packets").expect("the packets described");
    assert!(line.text.contains("in packets of either 3, 3, 3, 3, 3, 3 or 6, 6, 6 (as the dealer chooses) round the table"), "{}", line.text);
}

#[test]
fn orders_that_cannot_be_chosen_among_are_refused() {
    for (find, replace, says) in [
        ("[[3, 3, 3, 3, 3, 3], [6, 6, 6]]", "[[6, 6, 6]]", "one order to choose from leaves the dealer no choice"),
        ("[[3, 3, 3, 3, 3, 3], [6, 6, 6]]", "[[6, 6, 6], 6]", "holds only orders, each a list of packets"),
        ("[[3, 3, 3, 3, 3, 3], [6, 6, 6]]", "[[6, 6, 6], [[6, 6], 6]]", "an order is a list of packets, each a number of cards"),
        ("[[3, 3, 3, 3, 3, 3], [6, 6, 6]]", "[[6, 6, 6], [9, 9], [6, 6, 6]]", "order 3 is order 1 again"),
        ("[[3, 3, 3, 3, 3, 3], [6, 6, 6]]", "if count(players) == 4 then [[6, 6, 6]] else 3", "one order to choose from"),
    ] {
        let e = common::test_rules("deal-packet-orders", Some((find, replace))).expect_err(replace);
        assert!(e.contains(says), "{replace}: {e}");
    }
    // What a formula works out is checked when a game is set up: an order short of the hand, or the
    // dealer's own orders not matching the players'.
    let short = common::test_rules("deal-packet-orders", Some(("[6, 6, 6]]", "[6, 6, 5]]"))).unwrap();
    let e = tarot_engine::random_game(&short, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(0)).unwrap_err();
    assert!(e.contains("packets of [6, 6, 5] make 17 cards, not the hand of 18"), "{e}");
    let dealer = common::test_rules("deal-packet-orders", Some(("[6, 6, 6]]\n", "[6, 6, 6]]\n  dealer_packets = [[6, 6, 6], [9, 9], [18]]\n"))).unwrap();
    let e = tarot_engine::random_game(&dealer, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(0)).unwrap_err();
    assert!(e.contains("the dealer chooses one of 2 orders for the players' packets, and 3 for his own"), "{e}");
    // The dealer's own orders, as many as the players', go with theirs one by one.
    let paired = common::test_rules("deal-packet-orders", Some(("[6, 6, 6]]\n", "[6, 6, 6]]\n  dealer_packets = [[3, 3, 3, 3, 3, 3], [9, 9]]\n"))).unwrap();
    for g in games(&paired, 4, 12) {
        let v = replay(&paired, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "{}", v.to_text());
        let Event::Deal { packets, .. } = &g.events[0] else { panic!("a deal") };
        let dealer: Vec<usize> = packets.iter().filter(|p| p.to.as_deref() == Some(g.dealer.as_str())).map(|p| p.cards.len()).collect();
        let others = sizes(&g)[0];
        assert_eq!(dealer, if others == 3 { vec![3; 6] } else { vec![9, 9] }, "{others}");
    }
}
