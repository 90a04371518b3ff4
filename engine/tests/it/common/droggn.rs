//! A second scorer for Droggn, written by hand from the sources the rule file names, with no rule file
//! and nothing from the engine but the record's types: the summary of pagat.com's rules (PW,
//! `pwinckles/card-game-rules`, `traditional/tarot/Droggn.md`, read whole), pagat's introduction (P:
//! the Gstieß "may be played at any time instead of following suit"), Wikipedia's infobox (W: the
//! Gstieß as the top trump; the aim, "37 or 38") and its summary (WS: the Matsch, "the game value plus
//! 37"). It reads a finished deal's events, plays the tricks out itself, counts the declarer's cards
//! and works out every player's score, so that the engine can be checked against it.
//!
//! What the sources say, and this scorer does (PW unless named):
//! - The declarer ("the player who bids the highest ranked contract") against the other two; at four,
//!   the dealer sits out and scores nothing (W).
//! - The red suits rank K Q C J 1 2 ... 7, the black K Q C J 10 ... 4 ("standard tarot ... rankings");
//!   21 trumps. "Players must follow suit if able and must trump otherwise ... standard trick-taking
//!   rules": the highest trump takes the trick, else the highest card of the suit led. "The Fool is
//!   played as the Excuse": it takes no trick, stays with its player, who gives the side that took the
//!   trick a card worth nothing for it. With the option `gstiess = "top-trump"` (W's infobox) it is the
//!   highest trump.
//! - "The declarer leads the first trick"; the winner of a trick leads the next.
//! - Values: the Mond, the Pagat, the Fool and kings 4, queens 3, cavaliers 2, jacks 1, others 0,
//!   "counted in batches of three, using the standard method. There are 74 card-points in total": a
//!   batch counts its values and one more, so a pile of n cards counts its values and n/3.
//! - "The cards in either the declarer's discard or the untouched stock count as part of the
//!   declarer's tricks".
//! - With 37 card points (38 with the option `target`, W) he wins and "is paid the value of the game by
//!   each of [his] opponents", else pays each: Simple 20, Solo 40, Super 80, "plus 1 point per
//!   card-point over 37" taken by the winning side.
//! - "If the Pagat is played to the final trick, regardless of whether or not Pagat Ultimo was
//!   announced, it is considered an attempt": the team that played it wins or pays 20 announced, 10
//!   unannounced. "If the Pagat is lost in a trick other than the final trick, then the team that
//!   played the Pagat loses 5 points. The opponents pay and receive points equally."
//! - With the option `matsch = "yes"` (WS): "A player who wins every trick ... makes a Matsch: the game
//!   value plus 37".
//!
//! The readings it makes where the sources are short:
//! - The Pagat is "lost" when the other team takes its trick (a defender's Pagat taken by his partner
//!   stays with his team).
//! - A defence that took no trick has no card to give for its Excuse: it owes it all the same, as the
//!   FFT's Excuse of a side that took no trick "compte pour 4 points" (its 4½ less the ½ point it
//!   would have given). A card worth nothing is a third of a batch's one point: the lone Excuse counts
//!   its 4 and a third, less the third it owes, 4; the declarer 70.
//! - "Over 37" counts from 37 whatever the target: a declarer who fails with 37 against the target 38
//!   pays the contract alone (the defence's 37 is not over 37).

use std::collections::BTreeMap;

use tarot_engine::Q;
use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// T1 to T21, and T22 for the Gstieß as the top trump.
    Trump(u8),
    Gstiess,
    /// A suit letter (S H D C) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
    Suited(char, u8),
}

pub const PAGAT: Card = Card::Trump(1);

impl Card {
    pub fn parse(code: &str, top_trump: bool) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" || code == "T22" {
            return if top_trump { Card::Trump(22) } else { Card::Gstiess };
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    /// PW's values: the Mond, the Pagat, the Gstieß and kings 4, queens 3, cavaliers 2, jacks 1.
    pub fn value(self) -> i64 {
        match self {
            Card::Gstiess | Card::Trump(1 | 21 | 22) | Card::Suited(_, 14) => 4,
            Card::Suited(_, 13) => 3,
            Card::Suited(_, 12) => 2,
            Card::Suited(_, 11) => 1,
            _ => 0,
        }
    }

    /// Its strength within its suit: the red suits' numerals from the 1 (highest) to the 7.
    fn strength(self) -> u8 {
        match self {
            Card::Suited('H' | 'D', r) if r <= 10 => 11 - r,
            Card::Suited(_, r) | Card::Trump(r) => r,
            Card::Gstiess => 0,
        }
    }
}

/// The options of the ruleset that change the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub target: i64,
    pub top_trump: bool,
    pub matsch: bool,
}

pub const PW: Variant = Variant { target: 37, top_trump: false, matsch: false };

/// What one deal came to, with the facts the comparison tallies.
#[derive(Debug)]
pub struct Scored {
    pub scores: BTreeMap<String, Q>,
    pub contract: String,
    /// The declarer's card points.
    pub points: Q,
    pub made: bool,
    pub declarer_tricks: usize,
    pub tricks: usize,
    pub announced: bool,
    /// The Pagat in the last trick: played by the declarer, and whether it took the trick.
    pub pagat_last: Option<(bool, bool)>,
    /// The Pagat lost before the last trick, by the declarer or by a defender.
    pub pagat_lost: Option<bool>,
    /// The Pagat played by a defender (bought or dealt).
    pub pagat_defence: bool,
    pub bought: bool,
    pub gstiess_last: bool,
    pub gstiess_exchanged: bool,
    pub gstiess_unpaid: bool,
    pub sitting_out: bool,
    /// A trick led by another player than the declarer (the first) or the winner of the trick before.
    pub wrong_leader: Option<String>,
}

/// Scores a finished deal of Droggn from its record alone.
pub fn score(rec: &GameRecord, v: Variant) -> Scored {
    let dealt: Vec<&str> = rec.events.iter().find_map(|e| if let Event::Deal { hands, .. } = e { Some(hands.keys().map(|k| k.as_str()).collect()) } else { None }).expect("a deal");
    let names: Vec<String> = rec.players.iter().filter(|p| dealt.contains(&p.as_str())).cloned().collect();
    assert_eq!(names.len(), 3, "three play");
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let parse = |c: &str| Card::parse(c, v.top_trump);

    let mut s = Scored {
        scores: BTreeMap::new(),
        contract: String::new(),
        points: Q::ZERO,
        made: false,
        declarer_tricks: 0,
        tricks: 0,
        announced: false,
        pagat_last: None,
        pagat_lost: None,
        pagat_defence: false,
        bought: false,
        gstiess_last: false,
        gstiess_exchanged: false,
        gstiess_unpaid: false,
        sitting_out: rec.players.len() == 4,
        wrong_leader: None,
    };
    let mut stock: Vec<Card> = vec![];
    let mut declarer: Option<usize> = None;
    let mut discard: Vec<Card> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { dog, .. } => stock = dog.iter().map(|c| parse(c)).collect(),
            // One round, each bid higher than the last: the last contract bid is the highest.
            Event::Bid { player, bid } if bid != "pass" => {
                declarer = Some(seat(player));
                s.contract = bid.to_string();
            }
            Event::Bid { .. } => {}
            Event::Discard { cards, .. } => discard = cards.iter().map(|c| parse(c)).collect(),
            Event::Buy { card, .. } => s.bought = card.is_some(),
            Event::Declare { declaration, .. } if declaration == "ultimo" => s.announced = true,
            Event::Play { player, card } => plays.push((seat(player), parse(card))),
            other => panic!("Droggn has no such event: {other:?}"),
        }
    }
    let declarer = declarer.expect("a declarer");
    let attack = |p: usize| p == declarer;
    let value = match s.contract.as_str() {
        "simple" => 20,
        "solo" => 40,
        "super" => 80,
        c => panic!("contract {c}"),
    };

    let tricks: Vec<&[(usize, Card)]> = plays.chunks(3).collect();
    assert!(tricks.len() == 21 && tricks.iter().all(|t| t.len() == 3), "21 tricks of three");
    s.tricks = tricks.len();
    let mut winners: Vec<usize> = vec![];
    for (i, t) in tricks.iter().enumerate() {
        let expected = if i == 0 { declarer } else { winners[i - 1] };
        if t[0].0 != expected && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[expected]));
        }
        let led = t.iter().map(|&(_, c)| c).find(|&c| c != Card::Gstiess).expect("a trick holds a card besides the Gstieß");
        let beats = |c: Card, best: Card| match (c, best) {
            (Card::Gstiess, _) => false,
            (Card::Trump(x), Card::Trump(b)) => x > b,
            (Card::Trump(_), _) => true,
            (_, Card::Trump(_)) => false,
            (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && c.strength() > best.strength(),
            (_, Card::Gstiess) => unreachable!(),
        };
        let mut best = *t.iter().find(|&&(_, c)| c == led).unwrap();
        for &(p, c) in t.iter() {
            if beats(c, best.1) {
                best = (p, c);
            }
        }
        winners.push(best.0);
    }
    s.declarer_tricks = winners.iter().filter(|&&w| attack(w)).count();

    // The declarer's pile: his tricks, his discard or the stock, and the Gstieß as the Excuse.
    let mut values = 0i64;
    let mut cards = 0i64;
    let set_aside = if s.contract == "super" { &stock } else { &discard };
    assert_eq!(set_aside.len(), 3, "three cards laid away or left in the stock");
    values += set_aside.iter().map(|c| c.value()).sum::<i64>();
    cards += 3;
    for (i, t) in tricks.iter().enumerate() {
        for &(p, c) in t.iter() {
            if c == Card::Gstiess {
                let (own, took) = (attack(p), attack(winners[i]));
                s.gstiess_last = i == tricks.len() - 1;
                if own {
                    values += c.value();
                    cards += 1;
                }
                if own != took {
                    s.gstiess_exchanged = true;
                    // A card worth nothing changes side for it; a defence that took no trick owes it
                    // all the same.
                    s.gstiess_unpaid = !own && s.declarer_tricks == tricks.len();
                    cards += if own { -1 } else { 1 };
                }
            } else if attack(winners[i]) {
                values += c.value();
                cards += 1;
            }
        }
    }
    // A batch of three counts its values and one: in thirds, 3 × values + the cards.
    s.points = Q::new(3 * values + cards, 3);
    let total = Q::int(74);
    s.made = s.points >= Q::int(v.target);
    let over = if s.made { s.points } else { total - s.points } - Q::int(37);
    let sign = if s.made { 1 } else { -1 };
    let mut attack_gain = Q::int(sign * value) + Q::int(sign) * over;
    if v.matsch && s.declarer_tricks == tricks.len() {
        attack_gain = attack_gain + Q::int(37);
    }

    // The Pagat: an Ultimo when it is in the last trick, else lost when the other team takes it.
    let last = tricks.len() - 1;
    for (i, t) in tricks.iter().enumerate() {
        if let Some(&(p, _)) = t.iter().find(|&&(_, c)| c == PAGAT) {
            s.pagat_defence = !attack(p);
            let for_attack = if attack(p) { 1 } else { -1 };
            if i == last {
                let took = winners[i] == p;
                s.pagat_last = Some((attack(p), took));
                let amount = if s.announced { 20 } else { 10 };
                attack_gain = attack_gain + Q::int(for_attack * if took { amount } else { -amount });
            } else if attack(winners[i]) != attack(p) {
                s.pagat_lost = Some(attack(p));
                attack_gain = attack_gain - Q::int(for_attack * 5);
            }
        }
    }

    for name in &rec.players {
        let x = match names.iter().position(|n| n == name) {
            None => Q::ZERO,
            Some(p) if attack(p) => attack_gain + attack_gain,
            Some(_) => Q::ZERO - attack_gain,
        };
        s.scores.insert(name.clone(), x);
    }
    s
}
