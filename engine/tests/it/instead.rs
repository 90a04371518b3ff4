//! A contract the auction's winner chooses in place of the one he won (`instead`), a card played only
//! as one's last trump (`last-trump`) and a contract in which trumps do not trump (`trumps-win`), on
//! the test rule file `tests/rules/auction-instead.tarot` (the FFT game where forehand, having won
//! with a prise, may play Räuber instead; the Petit is kept as one's last trump in Räuber; trumps win
//! only when led in a garde sans). Galician Tarok's Trischaken and Suit-Solo use the same constructs.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::Q;
use tarot_engine::{replay, Event, GameRecord, Phase, Status, Verdict};

const ID: &str = "auction-instead";

fn rules() -> Ruleset {
    common::test_rules(ID, None).unwrap_or_else(|d| panic!("{d}"))
}

/// A seeded random game's deal, with no bid yet.
fn deal(rules: &Ruleset, seed: u64) -> GameRecord {
    let mut g = random_game(rules, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
    g.events.truncate(1);
    g
}

/// The bids said in turn, each by whoever the verdict says speaks next; the verdict after the last.
fn say(rules: &Ruleset, mut g: GameRecord, bids: &[&str]) -> Verdict {
    for bid in bids {
        let v = replay(rules, &g).unwrap();
        let next = v.next.unwrap_or_else(|| panic!("nobody to say {bid}: {:?} {:?}", v.status, v.violation));
        g.events.push(Event::Bid { player: next.player.as_ref().into(), bid: (*bid).into() });
    }
    replay(rules, &g).unwrap()
}

fn broken(v: &Verdict) -> String {
    assert_eq!(v.status, Status::Invalid, "{:?}", v.next);
    v.violation.as_ref().unwrap().rule.to_string()
}

fn next(v: &Verdict) -> (String, Phase, Vec<String>) {
    let n = v.next.as_ref().unwrap_or_else(|| panic!("{:?} {:?}", v.status, v.violation));
    (n.player.to_string(), n.phase, n.legal.clone())
}

#[test]
fn forehand_having_won_with_a_prise_says_whether_he_plays_it_or_raeuber() {
    let r = rules();
    let g = deal(&r, 1);
    let (forehand, _, legal) = next(&say(&r, g.clone(), &[]));
    // Nobody bids the contract chosen after the auction.
    assert_eq!(legal, ["pass", "prise", "garde", "garde-sans", "garde-contre"]);
    assert_eq!(broken(&say(&r, g.clone(), &["raeuber"])), "bidding.instead.raeuber");
    // Forehand wins with a prise: he speaks once more, the prise or Räuber.
    let won = ["prise", "pass", "pass", "pass"];
    let v = say(&r, g.clone(), &won);
    assert_eq!(next(&v), (forehand.clone(), Phase::Bid, vec!["prise".into(), "raeuber".into()]));
    assert_eq!(broken(&say(&r, g.clone(), &[&won[..], &["garde"]].concat())), "bidding.instead.raeuber");
    assert_eq!(broken(&say(&r, g.clone(), &[&won[..], &["pass"]].concat())), "bidding.instead.raeuber");
    // Another player speaking then breaks the rule too.
    let second = next(&say(&r, g.clone(), &["pass"])).0;
    let mut rec = g.clone();
    rec.events = say_events(&r, g.clone(), &won);
    rec.events.push(Event::Bid { player: second.into(), bid: "raeuber".into() });
    let other = replay(&r, &rec).unwrap();
    assert_eq!(broken(&other), "bidding.instead.raeuber");
    assert!(other.violation.as_ref().unwrap().message.contains(&format!("{forehand} won the auction with prise")), "{:?}", other.violation);
    // The prise: the dog is shown and the taker discards, as at the FFT.
    let v = say(&r, g.clone(), &[&won[..], &["prise"]].concat());
    assert_eq!(next(&v).1, Phase::Discard);
    // Räuber: no taker, no discard, play begins with forehand.
    let v = say(&r, g.clone(), &[&won[..], &["raeuber"]].concat());
    assert_eq!(next(&v).0, forehand);
    assert_eq!(next(&v).1, Phase::Play);
    // Another player winning with a prise has no choice; nor has forehand winning with a garde.
    let v = say(&r, g.clone(), &["pass", "prise", "pass", "pass"]);
    assert_eq!(next(&v).1, Phase::Discard);
    let v = say(&r, g.clone(), &["garde", "pass", "pass", "pass"]);
    assert_eq!(next(&v).1, Phase::Discard);
}

/// The events of `say`: the deal and the bids.
fn say_events(r: &Ruleset, mut g: GameRecord, bids: &[&str]) -> Vec<Event> {
    for bid in bids {
        let v = replay(r, &g).unwrap();
        let next = v.next.unwrap();
        g.events.push(Event::Bid { player: next.player.as_ref().into(), bid: (*bid).into() });
    }
    g.events
}

/// Simulated games (the simulator chooses among the legal words, Räuber included): all valid; Räuber
/// is scored each for himself, the most card points paying each other player 10; the Petit is never
/// played in Räuber while its holder has another trump; in a garde sans a trump never takes a trick of
/// a suit led.
#[test]
fn simulated_games_choose_raeuber_keep_the_petit_last_and_play_a_garde_sans_without_trumping() {
    let r = rules();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut chosen, mut sans, mut trumped_in_vain, mut kept_last) = (0, 0, 0, 0);
    let mut games = 0;
    while (chosen < 5 || sans < 5 || kept_last == 0) && games < 5000 {
        games += 1;
        let g = random_game(&r, 4, &BTreeMap::new(), &mut rng).unwrap();
        let v = replay(&r, &g).unwrap();
        if v.status == Status::Annulled {
            continue;
        }
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        let o = v.outcome.as_ref().unwrap();
        match o.contract.as_deref() {
            Some("raeuber") => {
                chosen += 1;
                assert_eq!(o.taker, None);
                assert!(v.notes.iter().any(|n| n.contains("chose Räuber instead")), "{:?}", v.notes);
                let most = o.players.iter().map(|p| p.card_points).max().unwrap();
                let losers = o.players.iter().filter(|p| p.card_points == most).count() as i64;
                for p in &o.players {
                    let expected = if p.card_points == most { -10 * (4 - losers) } else { 10 * losers };
                    assert_eq!(p.score, Q::int(expected), "{}: {:?}", p.player, o.players);
                }
                kept_last += petit_played_last(&r, &g);
            }
            Some("garde-sans") => {
                sans += 1;
                for t in &v.tricks {
                    let lead = t.cards.iter().find(|c| c.to_string() != "EX").copied();
                    let Some(lead) = lead.filter(|c| !c.is_trump()) else { continue };
                    let seat = |name: &str| g.players.iter().position(|p| p == name).unwrap();
                    let at = (seat(&t.winner) + 4 - seat(&t.leader)) % 4;
                    let won_with = t.cards[at];
                    assert!(!won_with.is_trump(), "a trump took a trick of a suit led in a garde sans: {t:?}");
                    trumped_in_vain += t.cards.iter().any(|c| c.is_trump()) as usize;
                    assert_eq!(won_with.lane(), lead.lane(), "{t:?}");
                }
            }
            _ => {}
        }
    }
    assert!(chosen >= 5 && kept_last > 0, "{chosen} games of Räuber, {kept_last} Petits refused before the last trump");
    assert!(sans >= 5 && trumped_in_vain > 0, "{sans} gardes sans, {trumped_in_vain} tricks trumped in vain");
}

/// In a game of Räuber: each play of the Petit came when its player held no other trump; and playing
/// the Petit in place of another trump played while he held it breaks `play.last-trump` (or an
/// obligation that forbids the Petit there anyway).
fn petit_played_last(r: &Ruleset, g: &GameRecord) -> usize {
    let mut refused = 0;
    let Event::Deal { hands, .. } = &g.events[0] else { panic!("a deal first") };
    let mut held: BTreeMap<String, Vec<String>> = hands.iter().map(|(p, h)| (p.to_string(), h.iter().map(|c| c.to_string()).collect())).collect();
    let is_trump = |c: &str| c.starts_with('T');
    for (i, e) in g.events.iter().enumerate() {
        let Event::Play { player, card } = e else { continue };
        let hand = held.get_mut(player.as_str()).unwrap();
        let others = hand.iter().filter(|c| is_trump(c) && c.as_str() != "T1").count();
        let card = card.as_str();
        if card == "T1" {
            assert_eq!(others, 0, "{player} played the Petit holding another trump at event {i}");
        } else if is_trump(card) && hand.iter().any(|c| c == "T1") {
            let mut bad = g.clone();
            bad.events.truncate(i);
            bad.events.push(Event::Play { player: player.clone(), card: "T1".into() });
            let v = replay(r, &bad).unwrap();
            let rule = broken(&v);
            assert!(rule == "play.last-trump" || rule == "play.must.overtrump", "{rule}");
            refused += (rule == "play.last-trump") as usize;
        }
        hand.retain(|c| c != card);
    }
    refused
}
