//! A second scorer for Troccas, written by hand from the sources the rule file names, with no rule
//! file and nothing from the engine but the record's types: Pader Vigeli Berther's rules of 1962 (BE,
//! historia-tujetsch.ch, "Reglas da troccas"), Annalisa Cathomas' guide (JC, jassverzeichnis.ch) and
//! the Wikipedia article (W). It reads a finished deal's events, plays the tricks out itself and
//! counts each side's cards, so that the engine can be checked against it.
//!
//! What the sources say, and this scorer does:
//! - Four players, "wobei immer zwei zusammenhalten" (BE §5): partners sit opposite, the first and
//!   third seats of the record against the second and fourth.
//! - 21 trumps, the Narr, four suits; the round suits (cups and coins, the red suits' letters H and D)
//!   rank K Q C J 1 2 ... 10, the long suits (swords and batons, S and C) K Q C J 10 ... 1 (W: "red (or
//!   round) suits rank in reverse").
//! - "man die troccas ausspielen muss, wenn man die Farbe nicht mehr spielen kann" (JC): the trick goes
//!   to the highest trump, else the highest card of the suit led. "Der narr ist der Joker. Er kann jede
//!   beliebige Karte ersetzen. Der narr bleibt jedoch immer im Besitz desjenigen Spielers, der den narr
//!   ausgespielt hat" (JC): the Narr never takes a trick, and goes to its player's side.
//! - Values: kings, the I, the XXI and the Narr 5, queens 4, cavaliers 3, jacks 2 (BE §3). Counting
//!   (BE §2-3): "eine zählbare Figur und drei leere Karten zusammen", two figures and two empties one
//!   point less, three figures and an empty two less, four figures three less, "1 Punkt zählen vier leere
//!   Karten, oder der Skat (zwei leere Karten). Hat man im Skat eine Figur, zählt nur diese. Sind zwei
//!   Figuren im Skat, wird ein Punkt abgezogen". So, an empty card counting 1: a packet of four counts
//!   its cards less 3 (W: "subtracting three points for each group"), the Skat its two cards less 1 (W:
//!   "two odd cards, counting the combined value, minus one point"), the pack 72 (BE §4).
//! - The Skat, the two cards the dealer lays away, counts for his side (W: the scartist "will have two
//!   odd cards").
//! - "Jede Partei sollte die Hälfte davon erreichen. Was fehlt bis zu 36 Punkten, sind Schulden, was über
//!   36 Punkte geht, ist Guthaben" (BE §4): each player scores his side's count less 36.
//!
//! The readings it makes where the sources are short:
//! - The Narr kept from a trick the other side took leaves that side three cards: its player's side
//!   gives an empty card for it, so that every side counts whole packets and the pack stays 72 (no
//!   source read says how; Troccas Online's "Fool (Narr) Debt Handling" names a debt).
//! - A side that took no trick has no card to give: it owes it all the same, as the FFT's Excuse of a
//!   side that took no trick "compte pour 4 points" (its 4½ less the ½ point it would have given). An
//!   empty card is a quarter of a packet's one point: the lone Narr counts its 5 less three quarters,
//!   less the quarter it owes, 4; with the Skat, a packet of its own, if it is the dealer's side; the
//!   other side the rest of the 72.

use std::collections::BTreeMap;

use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    Trump(u8),
    Narr,
    /// A suit letter (S H D C) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
    Suited(char, u8),
}

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Narr;
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    /// Its value counted with the empty cards at 1: kings and honours 5, queens 4, cavaliers 3, jacks 2.
    pub fn value(self) -> i64 {
        match self {
            Card::Narr | Card::Trump(1) | Card::Trump(21) | Card::Suited(_, 14) => 5,
            Card::Suited(_, 13) => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 1,
        }
    }

    /// Its strength within its suit: the round suits' numerals from the 1 (highest) to the 10.
    fn strength(self) -> u8 {
        match self {
            Card::Suited('H' | 'D', r) if r <= 10 => 11 - r,
            Card::Suited(_, r) | Card::Trump(r) => r,
            Card::Narr => 0,
        }
    }
}

/// What one deal came to, with the facts the comparison tallies.
#[derive(Debug, Default)]
pub struct Scored {
    /// Every player's score: his side's count less 36.
    pub scores: BTreeMap<String, i64>,
    /// Every player's side's card points.
    pub points: BTreeMap<String, i64>,
    /// The count of the first and third seats' side, and of the second and fourth's.
    pub sides: [i64; 2],
    pub tricks: [usize; 2],
    /// The dealer's side and the Narr's: 0 for the first and third seats, 1 for the others.
    pub dealer_side: usize,
    pub narr_side: usize,
    /// The Skat's count.
    pub skat: i64,
    /// The Narr: in the last trick, led, kept from a trick the other side took, with no trick to pay from.
    pub narr_last: bool,
    pub narr_led: bool,
    pub narr_exchanged: bool,
    pub narr_unpaid: bool,
    /// A trick led by another player than the one who took the trick before (or, for the first, than
    /// the dealer when the dealer leads): the scorer's tricks are not the engine's.
    pub wrong_leader: Option<String>,
}

/// Scores a finished deal of Troccas from its record alone. `dealer_leads`: the first trick is led by
/// the dealer (BE's Skatist, "Ausspieler"), not checked otherwise.
pub fn score(rec: &GameRecord, dealer_leads: bool) -> Scored {
    let names = &rec.players;
    assert_eq!(names.len(), 4, "four players");
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let side = |p: usize| p % 2;
    let dealer = seat(&rec.dealer);

    let mut skat: Vec<Card> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { .. } => {}
            Event::Discard { player, cards } => {
                assert_eq!(seat(player), dealer, "only the dealer lays away");
                skat = cards.iter().map(|c| Card::parse(c)).collect();
            }
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Troccas has no such event: {other:?}"),
        }
    }
    assert_eq!(skat.len(), 2, "the Skat is two cards");

    let mut s = Scored { dealer_side: side(dealer), ..Scored::default() };
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(4).collect();
    assert!(tricks.len() == 19 && tricks.iter().all(|t| t.len() == 4), "19 tricks of four");
    let mut winners = vec![];
    for (i, t) in tricks.iter().enumerate() {
        let expected = if i == 0 { dealer_leads.then_some(dealer) } else { Some(winners[i - 1]) };
        if expected.is_some_and(|p| p != t[0].0) && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[expected.unwrap()]));
        }
        // The suit led is the first card's, or after a Narr led the next card's.
        let led = t.iter().map(|&(_, c)| c).find(|&c| c != Card::Narr).expect("a trick holds a card besides the Narr");
        let beats = |c: Card, best: Card| match (c, best) {
            (Card::Narr, _) => false,
            (Card::Trump(x), Card::Trump(b)) => x > b,
            (Card::Trump(_), _) => true,
            (_, Card::Trump(_)) => false,
            (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && c.strength() > best.strength(),
            (_, Card::Narr) => unreachable!(),
        };
        let mut best = *t.iter().find(|&&(_, c)| c == led).unwrap();
        for &(p, c) in t.iter() {
            if beats(c, best.1) {
                best = (p, c);
            }
        }
        winners.push(best.0);
        s.tricks[side(best.0)] += 1;
    }

    // Each side's pile, counted as cards at their values (empty 1) less 3 for each packet of four.
    let mut raw = [0i64; 2];
    let mut cards = [0usize; 2];
    let mut narr: Option<(usize, usize)> = None;
    for (i, t) in tricks.iter().enumerate() {
        for &(p, c) in t.iter() {
            if c == Card::Narr {
                narr = Some((i, p));
            } else {
                raw[side(winners[i])] += c.value();
                cards[side(winners[i])] += 1;
            }
        }
    }
    let mut alone: Option<usize> = None;
    if let Some((i, p)) = narr {
        let (own, took) = (side(p), side(winners[i]));
        s.narr_side = own;
        s.narr_last = i == tricks.len() - 1;
        s.narr_led = tricks[i][0].1 == Card::Narr;
        raw[own] += 5;
        cards[own] += 1;
        if own != took {
            s.narr_exchanged = true;
            if s.tricks[own] == 0 {
                s.narr_unpaid = true;
                alone = Some(own);
            } else {
                // An empty card, worth 1, to the side that took the trick.
                raw[own] -= 1;
                cards[own] -= 1;
                raw[took] += 1;
                cards[took] += 1;
            }
        }
    }
    s.skat = skat.iter().map(|c| c.value()).sum::<i64>() - 1;
    for k in 0..2 {
        if alone.is_some() {
            break;
        }
        assert_eq!(cards[k] % 4, 0, "whole packets");
        s.sides[k] = raw[k] - 3 * (cards[k] / 4) as i64;
    }
    s.sides[s.dealer_side] += s.skat;
    if let Some(k) = alone {
        s.sides[k] = 4 + if k == s.dealer_side { s.skat } else { 0 };
        s.sides[1 - k] = 72 - s.sides[k];
    }
    assert_eq!(s.sides[0] + s.sides[1], 72, "the pack counts 72");
    for (p, name) in names.iter().enumerate() {
        s.points.insert(name.clone(), s.sides[side(p)]);
        s.scores.insert(name.clone(), s.sides[side(p)] - 36);
    }
    s
}
