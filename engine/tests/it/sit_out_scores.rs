//! A player who sits the deal out but pays and receives as a member of the defence (`sit-out dealer
//! scores-as defence`), on the test rule file `tests/rules/sit-out-scores.tarot` (French Tarot at a
//! table of five, the dealer sitting out as the FFT's mort, but scoring as a defender), compared with
//! the same file where he scores nothing (`sit-out dealer`): each payment a defender makes or receives
//! with the attack, he makes or receives too, in the score, in a marque paid during play and in a
//! revoke paid to each other player; nothing else changes. Dreierles at four is the game that needs it
//! (`dreierles_scorer.rs` compares it with the source at four).

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{describe, random_game, replay, Event, GameRecord, LedgerEntry, Phase, Status, Verdict, Q};

const ID: &str = "sit-out-scores";

fn scoring() -> Ruleset {
    common::rules(ID, &[ID])
}

/// The test file with the dealer sitting out and scoring nothing, as the FFT's mort does.
fn plain() -> Ruleset {
    common::test_rules(ID, Some(("sit-out dealer scores-as defence", "sit-out dealer"))).unwrap_or_else(|e| panic!("{e}"))
}

/// A payment as the verdict's text gives it.
fn line(l: &LedgerEntry) -> String {
    format!("{} {:?} -> {:?} {} [{}]", l.label, l.from, l.to, l.amount, l.rule)
}

fn named(l: &LedgerEntry, who: &str) -> bool {
    l.from.as_deref() == Some(who) || l.to.as_deref() == Some(who)
}

fn score(v: &Verdict, who: &str) -> Q {
    v.outcome.as_ref().unwrap().players.iter().find(|p| &*p.player == who).unwrap().score
}

/// `v` (scored with the sitter) against `w` (the same game, the sitter scoring nothing): the payments
/// not naming the sitter are `w`'s, in order; each naming him has a twin in which a defender stands
/// in his place (the same rule, amount, direction and player of the attack); the scores sum to zero,
/// his being what he paid and received. The rules of the payments that reached him.
fn compare(g: &GameRecord, v: &Verdict, w: &Verdict) -> Vec<String> {
    let sitter = g.dealer.as_str();
    let others: Vec<String> = v.ledger.iter().filter(|l| !named(l, sitter)).map(line).collect();
    assert_eq!(others, w.ledger.iter().map(line).collect::<Vec<_>>(), "{}", v.to_text());
    let o = v.outcome.as_ref().unwrap();
    let taker = o.taker.as_deref().expect("a taker");
    let mut reached = vec![];
    let mut balance = Q::ZERO;
    for l in v.ledger.iter().filter(|l| named(l, sitter)) {
        let (from, to) = (l.from.as_deref().unwrap(), l.to.as_deref().unwrap());
        let other = if from == sitter { to } else { from };
        balance = if from == sitter { balance - l.amount } else { balance + l.amount };
        // A revoke is paid to each other player, the taker's partner in the defence too.
        if !l.rule.starts_with("play.fault") {
            assert_eq!(other, taker, "{}: {}", line(l), v.to_text());
        }
        let defenders = o.players.iter().map(|p| &*p.player).filter(|p| *p != taker && *p != sitter && *p != other);
        let twin = |d: &str| {
            v.ledger.iter().any(|m| {
                m.rule == l.rule
                    && m.amount == l.amount
                    && if from == sitter { m.from.as_deref() == Some(d) && m.to == l.to } else { m.to.as_deref() == Some(d) && m.from == l.from }
            })
        };
        assert!(defenders.clone().any(twin), "{} has no twin among the defenders: {}", line(l), v.to_text());
        reached.push(l.rule.to_string());
    }
    assert_eq!(score(v, sitter), balance, "{}", v.to_text());
    assert_eq!(score(w, sitter), Q::ZERO, "{}", w.to_text());
    assert_eq!(o.players.iter().map(|p| p.score).sum::<Q>(), Q::ZERO, "{}", v.to_text());
    reached
}

#[test]
fn the_sitter_pays_and_receives_what_each_defender_does() {
    let (r, p) = (scoring(), plain());
    let mut reached = BTreeMap::<String, u64>::new();
    let mut scored = 0;
    for seed in 0..common::count("SIT_OUT_SCORES_GAMES", 400) {
        let g = random_game(&r, 5, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let (v, w) = (replay(&r, &g).unwrap(), replay(&p, &g).unwrap());
        assert_eq!(v.status, w.status, "seed {seed}");
        if v.status == Status::Annulled {
            continue;
        }
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        for rule in compare(&g, &v, &w) {
            *reached.entry(rule).or_default() += 1;
        }
        scored += 1;
        // What the score sees: five at the table, the sitter one of the four defenders.
        let values = &v.outcome.as_ref().unwrap().values;
        let value = |k: &str| values.iter().find(|(n, _)| &**n == k).map(|(_, x)| serde_json::to_value(x).unwrap());
        assert_eq!((value("table"), value("defenders")), (Some(serde_json::json!(5)), Some(serde_json::json!(4))), "seed {seed}");
        let plain_values = &w.outcome.as_ref().unwrap().values;
        assert!(plain_values.iter().any(|(n, x)| &**n == "table" && serde_json::to_value(x).unwrap() == serde_json::json!(4)), "seed {seed}");
    }
    assert!(scored > 40, "{scored} games scored");
    for rule in ["score.pay.defence.attack", "on.play.the-petit"] {
        assert!(reached.get(rule).is_some_and(|&k| k > 0), "no payment of {rule} reached the sitter: {reached:?}");
    }
}

/// A seeded game of five played out with first legal cards, but for one revoke: the first player who
/// holds the suit led and a card of another suit plays that card instead. `None` when nobody could.
fn with_revoke(r: &Ruleset, seed: u64) -> Option<GameRecord> {
    let mut g = random_game(r, 5, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).ok()?;
    let first = g.events.iter().position(|e| matches!(e, Event::Play { .. }))?;
    g.events.truncate(first);
    let suit = |c: &str| if c.starts_with('T') || c == "EX" { None } else { c.chars().last() };
    let mut revoked = false;
    loop {
        let v = replay(r, &g).unwrap();
        let Some(next) = v.next.clone().filter(|n| n.phase == Phase::Play) else { return revoked.then_some(g) };
        // The player's cards: dealt, taken, less those laid away and played.
        let mut hand: Vec<String> = vec![];
        let mut plays: Vec<String> = vec![];
        for e in &g.events {
            match e {
                Event::Deal { hands, .. } => hand = hands.get(next.player.as_ref()).map(|h| h.iter().map(|c| c.to_string()).collect()).unwrap_or_default(),
                Event::Take { player, cards } if **player == *next.player => hand.extend(cards.iter().map(|c| c.to_string())),
                Event::Discard { player, cards } if **player == *next.player => hand.retain(|c| !cards.iter().any(|d| d.as_str() == c)),
                Event::Play { player, card } => {
                    if **player == *next.player {
                        hand.retain(|c| c != card.as_str());
                    }
                    plays.push(card.to_string());
                }
                _ => {}
            }
        }
        let led = plays.get(plays.len() / 4 * 4).and_then(|c| suit(c));
        let off = hand.iter().find(|c| suit(c).is_some_and(|s| Some(s) != led));
        let card = match (led, off) {
            (Some(l), Some(off)) if !revoked && hand.iter().any(|c| suit(c) == Some(l)) => {
                revoked = true;
                off.clone()
            }
            _ => next.legal[0].clone(),
        };
        g.events.push(Event::Play { player: next.player.as_ref().into(), card: card.as_str().into() });
    }
}

#[test]
fn a_revoke_is_paid_to_the_sitter_as_to_each_other_player() {
    let (r, p) = (scoring(), plain());
    let mut paid = 0;
    for seed in 0..30 {
        let Some(g) = with_revoke(&r, seed) else { continue };
        let (v, w) = (replay(&r, &g).unwrap(), replay(&p, &g).unwrap());
        assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
        let faults: Vec<&LedgerEntry> = v.ledger.iter().filter(|l| l.rule.starts_with("play.fault")).collect();
        // The revoker pays each of the other three who play, and the sitter.
        assert_eq!(faults.len(), 4, "seed {seed}: {}", v.to_text());
        assert!(faults.iter().any(|l| l.to.as_deref() == Some(g.dealer.as_str()) && l.amount == Q::int(5)), "seed {seed}: {}", v.to_text());
        compare(&g, &v, &w);
        paid += 1;
    }
    assert!(paid >= 5, "{paid} games with a revoke");
}

#[test]
fn the_verdict_notes_that_he_sat_out_and_shows_his_score() {
    let (r, p) = (scoring(), plain());
    let g = (0..50)
        .map(|seed| random_game(&r, 5, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap())
        .find(|g| replay(&r, g).unwrap().status == Status::Valid)
        .expect("a game played");
    let (v, w) = (replay(&r, &g).unwrap(), replay(&p, &g).unwrap());
    let sitter = g.dealer.as_str();
    assert_eq!(v.notes[0], format!("{sitter} deals and sits this deal out: no cards, but he pays and receives as a member of the defence (sit-out, FFT \"LE JEU A 5 JOUEURS\")"));
    assert_eq!(w.notes[0], format!("{sitter} deals and sits this deal out: no cards, no score (sit-out, FFT \"LE JEU A 5 JOUEURS\")"));
    let me = v.outcome.as_ref().unwrap().players.iter().find(|x| &*x.player == sitter).unwrap();
    assert_ne!(me.score, Q::ZERO, "{}", v.to_text());
    assert_eq!((me.card_points, me.tricks), (Q::ZERO, 0));
    // Listed once, in the record's order.
    let names: Vec<&str> = v.outcome.as_ref().unwrap().players.iter().map(|x| &*x.player).collect();
    assert_eq!(names, g.players.iter().map(String::as_str).collect::<Vec<_>>());
    let says = |r: &Ruleset| describe(r, &Default::default()).rules.iter().find(|l| &*l.rule == "sit-out").map(|l| l.text.clone()).unwrap();
    assert_eq!(
        says(&r),
        "the dealer deals to the others and sits the deal out: one fewer play; he is dealt no cards and makes no move, but pays and receives as a member of the defence"
    );
    assert_eq!(says(&p), "the dealer deals to the others and sits the deal out: one fewer play, and he scores nothing");
}
