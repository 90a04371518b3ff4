//! A second scorer for Troggu, written by hand from the sources the rule file names, with no rule file
//! and nothing from the engine but the record's types: Board Game Arena's game help (BGA), The
//! Incompleat Gamester (IG), the Eisten-Stalden rules (JV), gamerules.com (GR) and pagat (P). It reads
//! a finished deal's events, plays the tricks out itself and counts the cards, so that the engine can be
//! checked against it.
//!
//! What the sources say, and this scorer does:
//! - 62 cards: cups and coins (H, D) K Q C J 1 ... 6, swords and batons (S, C) K Q C J 10 ... 5 (JV),
//!   21 trumps and the Bättler, "usually played as the highest trump" (P; BGA: "The Fool, XXI, XX,
//!   ..., II, I"). A trick goes to the highest trump, else the highest card of the suit led.
//! - Values, counted card by card: the Bättler, XXI, I and kings 5, queens 4, cavaliers 3, jacks 2, all
//!   others 1 (GR), 114 in all (JV).
//! - The bidding, one turn each: the last Tapp or Solo bid is the contract (BGA). The Tappist lays away
//!   as many cards as the Tapp holds, into his pile; the Soloist's Tapp goes to his pile unseen (BGA).
//!   When all pass, a Misère: each for himself, the Tapp to nobody (IG).
//! - "The aim of the game is to win more than half the points in tricks" (BGA): the declarer wins with
//!   more than 57, and the others when he does not. In a Misère, "not ... more than 58" (IG).
//! - The Tappist or Soloist leads the first trick, the dealer in a Misère (IG).

use std::collections::BTreeMap;

use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// 1 to 21, and 22 for the Bättler.
    Trump(u8),
    /// A suit letter (S H D C) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
    Suited(char, u8),
}

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Trump(22);
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    pub fn value(self) -> i64 {
        match self {
            Card::Trump(1 | 21 | 22) | Card::Suited(_, 14) => 5,
            Card::Suited(_, 13) => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 1,
        }
    }

    fn strength(self) -> u8 {
        match self {
            Card::Suited('H' | 'D', r) if r <= 10 => 11 - r,
            Card::Suited(_, r) | Card::Trump(r) => r,
        }
    }
}

/// What one deal came to.
#[derive(Debug, Default)]
pub struct Scored {
    /// "tapp", "solo" or "misere".
    pub contract: String,
    pub declarer: Option<String>,
    /// Every player's standing (his side's card points, his own in a Misère) and whether he won.
    pub points: BTreeMap<String, i64>,
    pub winners: BTreeMap<String, bool>,
    /// The declarer's card points (none in a Misère).
    pub declarer_points: Option<i64>,
    /// The four kings laid away together.
    pub kings_discarded: bool,
    pub wrong_leader: Option<String>,
}

pub fn score(rec: &GameRecord) -> Scored {
    let names = &rec.players;
    let n = names.len();
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let dealer = seat(&rec.dealer);
    let mut tapp: Vec<Card> = vec![];
    let mut declarer: Option<(usize, String)> = None;
    let mut discard: Vec<Card> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { dog, .. } => tapp = dog.iter().map(|c| Card::parse(c)).collect(),
            Event::Bid { player, bid } => {
                if &**bid != "pass" {
                    declarer = Some((seat(player), bid.to_string()));
                }
            }
            Event::Discard { player, cards } => {
                assert_eq!(Some(seat(player)), declarer.as_ref().map(|d| d.0), "only the Tappist lays away");
                discard = cards.iter().map(|c| Card::parse(c)).collect();
            }
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Troggu has no such event: {other:?}"),
        }
    }
    let hand = [18, 13, 11, 9][n - 3];
    assert_eq!(tapp.len(), 62 - n * hand, "the Tapp");
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(n).collect();
    assert!(tricks.len() == hand && tricks.iter().all(|t| t.len() == n), "{hand} tricks of {n}");

    let mut s = Scored { contract: declarer.as_ref().map_or("misere".into(), |d| d.1.clone()), declarer: declarer.as_ref().map(|d| names[d.0].clone()), ..Scored::default() };
    s.kings_discarded = discard.iter().filter(|c| matches!(c, Card::Suited(_, 14))).count() == 4;
    let mut pile = vec![0i64; n];
    match &declarer {
        Some((d, c)) if c == "tapp" => pile[*d] += discard.iter().map(|c| c.value()).sum::<i64>(),
        Some((d, _)) => pile[*d] += tapp.iter().map(|c| c.value()).sum::<i64>(),
        None => {}
    }
    let mut leader = declarer.as_ref().map_or(dealer, |d| d.0);
    for (i, t) in tricks.iter().enumerate() {
        if t[0].0 != leader && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[leader]));
        }
        let mut best = t[0];
        for &(p, c) in &t[1..] {
            let beats = match (c, best.1) {
                (Card::Trump(x), Card::Trump(b)) => x > b,
                (Card::Trump(_), _) => true,
                (_, Card::Trump(_)) => false,
                (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && c.strength() > best.1.strength(),
            };
            if beats {
                best = (p, c);
            }
        }
        pile[best.0] += t.iter().map(|&(_, c)| c.value()).sum::<i64>();
        leader = best.0;
    }
    match &declarer {
        Some((d, _)) => {
            let own = pile[*d];
            s.declarer_points = Some(own);
            let made = own > 57;
            for (p, name) in names.iter().enumerate() {
                let theirs = if p == *d { own } else { 114 - own };
                s.points.insert(name.clone(), theirs);
                s.winners.insert(name.clone(), if p == *d { made } else { !made });
            }
        }
        None => {
            for (p, name) in names.iter().enumerate() {
                s.points.insert(name.clone(), pile[p]);
                s.winners.insert(name.clone(), pile[p] <= 58);
            }
        }
    }
    s
}
