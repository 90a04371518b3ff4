//! A second scorer for Scarto, written by hand from the sources the rule file names, with no rule file
//! and nothing from the engine but the record's types: the GenovaGioca rules for three (GG), the
//! Wikipedia article (W) and the Card Games Planet page (CP). It reads a finished deal's events, plays
//! the tricks out itself and counts each player's cards, so that the engine can be checked against it.
//!
//! What the sources say, and this scorer does:
//! - Three players, each for himself. Swords and batons (S, C) rank K Q C J 10 ... 1, cups and coins
//!   (H, D) K Q C J 1 2 ... 10 (GG §1).
//! - The trumps rank "20, 21, 19, 18, ... 1" (GG §1); with the option `trump_order = "world-high"`, by
//!   number (CP: "the strongest being the XXI and then XX").
//! - A trick goes to the highest trump, else the highest card of the suit led. "Il Matto non può
//!   prendere nè essere preso" (GG §1): it takes nothing, and its player "takes him into his trick pile
//!   and gives the player that won the trick another blank card from his trick pile" (CP).
//! - Values: kings, the Bagatto and the World 5 (W: the Angel, the option `five = "angel"`), queens and
//!   the Matto 4, cavaliers 3, jacks 2 (GG §2). "Per il conteggio dei punti si valutano 3 carte alla
//!   volta": a counting card with two empties counts its value, each counting card after the first in a
//!   three one less, three empties 1 (GG §2). So, an empty card counting 1, a pile of n cards counts its
//!   cards' values less 2 for each three: its values less 2n/3.
//! - The three cards the dealer lays away go to his pile (W, CP). The most points wins (CP).
//!
//! The reading it makes where the sources are short: the blank card the Matto's player gives is worth
//! a third of a point wherever it comes from (a player with no pile to give from owes it all the same),
//! so the Matto counts 4 less 2/3 less the 1/3 given, 3, to its player, and the trick's winner a third
//! more.

use std::collections::BTreeMap;

use tarot_engine::Q;
use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    Trump(u8),
    Matto,
    /// A suit letter (S H D C) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
    Suited(char, u8),
}

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Matto;
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    /// Its value counted with the empty cards at 1. `angel_five`: the Angel (XX) is the 5-point trump
    /// in place of the World (XXI).
    pub fn value(self, angel_five: bool) -> i64 {
        match self {
            Card::Trump(1) | Card::Suited(_, 14) => 5,
            Card::Trump(21) if !angel_five => 5,
            Card::Trump(20) if angel_five => 5,
            Card::Suited(_, 13) | Card::Matto => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 1,
        }
    }

    /// Its strength against cards of its suit, or trumps against trumps.
    fn strength(self, angel_high: bool) -> u8 {
        match self {
            Card::Suited('H' | 'D', r) if r <= 10 => 11 - r,
            Card::Trump(20) if angel_high => 22,
            Card::Suited(_, r) | Card::Trump(r) => r,
            Card::Matto => 0,
        }
    }
}

/// What one deal came to, with the facts the comparison tallies.
#[derive(Debug, Default)]
pub struct Scored {
    /// Every player's card points, which are his score.
    pub points: BTreeMap<String, Q>,
    pub tricks: BTreeMap<String, usize>,
    pub dealer: String,
    /// Those with the most points.
    pub winners: Vec<String>,
    /// The Matto: kept from a trick another took, in the last trick, led, laid away.
    pub matto_exchanged: bool,
    pub matto_last: bool,
    pub matto_led: bool,
    pub matto_discarded: bool,
    /// Trumps in the discard.
    pub trumps_discarded: usize,
    /// A trick where the Angel and the World met, and whether the Angel took it.
    pub angel_met_world: Option<bool>,
    /// A trick led by another player than the one who took the trick before (or, for the first, than
    /// first hand, the dealer's next): the scorer's tricks are not the engine's.
    pub wrong_leader: Option<String>,
}

/// Scores a finished deal of Scarto from its record alone, under the options `angel_high` (the Angel
/// above the World) and `angel_five` (the Angel worth 5, not the World).
pub fn score(rec: &GameRecord, angel_high: bool, angel_five: bool) -> Scored {
    let names = &rec.players;
    assert_eq!(names.len(), 3, "three players");
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let dealer = seat(&rec.dealer);
    // The player after the dealer: each player is listed before the one to his right, and play goes
    // to the right (W: counter-clockwise).
    let first_hand = (dealer + 1) % 3;

    let mut discard: Vec<Card> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { .. } => {}
            Event::Discard { player, cards } => {
                assert_eq!(seat(player), dealer, "only the dealer lays away");
                discard = cards.iter().map(|c| Card::parse(c)).collect();
            }
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Scarto has no such event: {other:?}"),
        }
    }
    assert_eq!(discard.len(), 3, "the scarto is three cards");

    let mut s = Scored { dealer: names[dealer].clone(), ..Scored::default() };
    s.matto_discarded = discard.contains(&Card::Matto);
    s.trumps_discarded = discard.iter().filter(|c| matches!(c, Card::Trump(_))).count();
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(3).collect();
    assert!(tricks.len() == 25 && tricks.iter().all(|t| t.len() == 3), "25 tricks of three");
    let mut winners = vec![];
    let mut taken = [0usize; 3];
    for (i, t) in tricks.iter().enumerate() {
        let expected = if i == 0 { first_hand } else { winners[i - 1] };
        if expected != t[0].0 && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[expected]));
        }
        // The suit led is the first card's, or after the Matto led the next card's.
        let led = t.iter().map(|&(_, c)| c).find(|&c| c != Card::Matto).expect("a trick holds a card besides the Matto");
        let beats = |c: Card, best: Card| match (c, best) {
            (Card::Matto, _) => false,
            (Card::Trump(_), Card::Trump(_)) => c.strength(angel_high) > best.strength(angel_high),
            (Card::Trump(_), _) => true,
            (_, Card::Trump(_)) => false,
            (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && c.strength(angel_high) > best.strength(angel_high),
            (_, Card::Matto) => unreachable!(),
        };
        let mut best = *t.iter().find(|&&(_, c)| c == led).unwrap();
        for &(p, c) in t.iter() {
            if beats(c, best.1) {
                best = (p, c);
            }
        }
        let cards: Vec<Card> = t.iter().map(|&(_, c)| c).collect();
        if cards.contains(&Card::Trump(20)) && cards.contains(&Card::Trump(21)) {
            s.angel_met_world = Some(best.1 == Card::Trump(20));
        }
        winners.push(best.0);
        taken[best.0] += 1;
    }

    // Each pile as (values with empties at 1, cards).
    let mut raw = [0i64; 3];
    let mut count = [0i64; 3];
    for c in &discard {
        raw[dealer] += c.value(angel_five);
        count[dealer] += 1;
    }
    for (i, t) in tricks.iter().enumerate() {
        for &(p, c) in t.iter() {
            let to = if c == Card::Matto {
                s.matto_last = i == tricks.len() - 1;
                s.matto_led = t[0].1 == Card::Matto;
                if p != winners[i] {
                    s.matto_exchanged = true;
                    // The blank card given for it: one card and one point from its player to the winner.
                    raw[p] -= 1;
                    count[p] -= 1;
                    raw[winners[i]] += 1;
                    count[winners[i]] += 1;
                }
                p
            } else {
                winners[i]
            };
            raw[to] += c.value(angel_five);
            count[to] += 1;
        }
    }
    for p in 0..3 {
        let pts = Q::int(raw[p]) - Q::new(2 * count[p], 3);
        s.points.insert(names[p].clone(), pts);
        s.tricks.insert(names[p].clone(), taken[p]);
    }
    let top = s.points.values().copied().max().unwrap();
    s.winners = names.iter().filter(|n| s.points[*n] == top).cloned().collect();
    s
}
