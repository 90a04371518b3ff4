//! The auction: the pousse's immediate hold and the parole's second round, bid by bid.

use std::collections::BTreeMap;

use super::ruleset;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::random_game;
use tarot_engine::{replay, Phase, Status, Verdict};

/// A seeded deal of `id` followed by these bids (`(seat, bid)`, seats in order of play from first
/// hand), replayed: the verdict after the last bid.
fn after_bids(id: &str, options: BTreeMap<String, serde_json::Value>, bids: &[(usize, &str)]) -> Verdict {
    let rules = ruleset(id);
    let mut game = random_game(rules, 4, &options, &mut ChaCha8Rng::seed_from_u64(11)).unwrap();
    game.events.truncate(1);
    // Order of play starts after the dealer.
    let dealer = game.players.iter().position(|p| *p == game.dealer).unwrap();
    let seat = |i: usize| game.players[(dealer + 1 + i) % 4].clone();
    for (i, bid) in bids {
        game.events.push(tarot_engine::Event::Bid { player: seat(*i).as_str().into(), bid: (*bid).into() });
    }
    let mut v = replay(rules, &game).unwrap();
    // Name seats by their place in the bidding, for the checks.
    if let Some(next) = &mut v.next {
        next.player = format!("seat{}", (0..4).find(|i| *seat(*i) == *next.player).unwrap()).into();
    }
    if let Some(x) = &mut v.violation {
        x.player = x.player.as_ref().map(|p| format!("seat{}", (0..4).find(|i| *seat(*i) == **p).unwrap()).into());
    }
    v
}

fn next_bidder(v: &Verdict) -> (String, Vec<String>) {
    let n = v.next.as_ref().unwrap_or_else(|| panic!("no next bidder: {v:?}"));
    (n.player.to_string(), n.legal.clone())
}

/// Seed 003's pousse: "When a player has made a bid and another player outbids, the first player can in
/// turn outbid or leave i.e. it is bidding with immediate hold."
#[test]
fn pousse_bidding_is_with_immediate_hold() {
    let none = BTreeMap::new;
    let v = after_bids("fft-4p-pousse", none(), &[(0, "prise"), (1, "pousse")]);
    assert_eq!(next_bidder(&v), ("seat0".into(), vec!["pass".into(), "garde".into(), "garde-sans".into(), "garde-contre".into()]), "the player outbid answers at once");
    let v = after_bids("fft-4p-pousse", none(), &[(0, "prise"), (1, "pousse"), (0, "garde")]);
    assert_eq!(next_bidder(&v).0, "seat1", "and then the challenger");
    let v = after_bids("fft-4p-pousse", none(), &[(0, "prise"), (1, "pousse"), (0, "garde"), (1, "pass")]);
    assert_eq!(next_bidder(&v).0, "seat2", "the next who has not spoken challenges the one who stayed");
    let v = after_bids("fft-4p-pousse", none(), &[(0, "prise"), (1, "pousse"), (2, "garde")]);
    assert_eq!(v.status, Status::Invalid, "speaking before the player outbid has answered");
    assert_eq!(&*v.violation.as_ref().unwrap().rule, "bidding.turns");
    let v = after_bids("fft-4p-pousse", none(), &[(0, "prise"), (1, "pousse"), (0, "garde"), (1, "pass"), (2, "pass"), (3, "garde-sans"), (0, "pass")]);
    assert_eq!(v.status, Status::InProgress);
    // seat3 took a garde sans: no dog to take, so play begins.
    assert_eq!(v.next.as_ref().unwrap().phase, Phase::Play, "the bidding is over when all but one have left: {v:?}");
    let v = after_bids("fft-4p-pousse", none(), &[(0, "pass"), (1, "pass"), (2, "pass"), (3, "pass")]);
    assert_eq!(v.status, Status::Annulled);
}

/// Seed 003's parole: a first-round bid that commits to nothing, and a second round for those who said
/// it, choosing any contract or only a prise as the option says.
#[test]
fn parole_gives_a_second_round() {
    let any = BTreeMap::new;
    let v = after_bids("fft-4p-parole", any(), &[(0, "parole"), (1, "prise"), (2, "pass")]);
    assert_eq!(next_bidder(&v), ("seat3".into(), vec!["pass".into(), "garde".into(), "garde-sans".into(), "garde-contre".into(), "parole".into()]));
    let v = after_bids("fft-4p-parole", any(), &[(0, "parole"), (1, "prise"), (2, "pass"), (3, "parole")]);
    assert_eq!(next_bidder(&v), ("seat0".into(), vec!["pass".into(), "garde".into(), "garde-sans".into(), "garde-contre".into()]), "the second round, from first hand");
    let v = after_bids("fft-4p-parole", any(), &[(0, "parole"), (1, "prise"), (2, "pass"), (3, "parole"), (0, "garde")]);
    assert_eq!(next_bidder(&v).0, "seat3");
    let v = after_bids("fft-4p-parole", any(), &[(0, "parole"), (1, "prise"), (2, "pass"), (3, "parole"), (0, "garde"), (3, "parole")]);
    assert_eq!(&*v.violation.as_ref().unwrap().rule, "bidding.reserve.parole", "parole is said once, in the first round");
    let v = after_bids("fft-4p-parole", any(), &[(0, "parole"), (1, "prise"), (2, "pass"), (3, "parole"), (0, "garde"), (3, "pass")]);
    assert_eq!(v.next.as_ref().unwrap().phase, Phase::Discard, "{v:?}");
    // Only a prise in the second round: after a prise, nothing is left to choose but to pass.
    let prise = || BTreeMap::from([("parole".to_string(), serde_json::json!("prise"))]);
    let v = after_bids("fft-4p-parole", prise(), &[(0, "parole"), (1, "pass"), (2, "pass"), (3, "pass")]);
    assert_eq!(next_bidder(&v), ("seat0".into(), vec!["pass".into(), "prise".into()]));
    let v = after_bids("fft-4p-parole", prise(), &[(0, "parole"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "garde")]);
    assert_eq!(&*v.violation.as_ref().unwrap().rule, "bidding.reserve.parole");
    let v = after_bids("fft-4p-parole", prise(), &[(0, "parole"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")]);
    assert_eq!(v.status, Status::Annulled, "everyone passed in the end");
}
