//! A second scorer for Grosstarock as played in Denmark (Tarok), written by hand from the sources the
//! rule file names, with no rule file and nothing from the engine but the record's types: the summary
//! of J. B. Christiansen's pagat.com rules (PW, `pwinckles/card-game-rules`,
//! `traditional/tarot/DanishTarok.md`, read whole) and pagat's page itself where it was readable (PD:
//! "With four people, the player sitting opposite the dealer takes no part in the play"). It reads a
//! finished deal's events and works out from scratch the declarations each hand holds, the tricks,
//! the payments during play, the achievements, the pots and the card points, so that the engine can be
//! checked against it.
//!
//! What PW says, and this scorer does:
//! - Three players each for himself; "standard tarot ... rankings" (every suit K Q C J 10 ... 1; with
//!   the option `round_suits_reversed`, W's historical order, the red numerals from the ace up). "Players
//!   must follow suit if able and must trump otherwise ... standard trick-taking rules. The Fool is
//!   played as the Excuse": it takes no trick and stays with its player, who gives a card of no value
//!   to the trick's winner.
//! - "Forehand leads the first trick"; the winner of a trick leads the next.
//! - Declarations, which "each player must declare", each other player paying at once: Trumps ("10 or
//!   more trumps ... The Fool counts as trump here") 10 for 10, 5 for each more; Matadors (the Fool,
//!   the Pagat and the 21, "increases by one for each trump card the player holds in sequence with the
//!   21") 10 for 3, 5 for each more; Kings and each suit's Cavallerie (the four courts), full 10,
//!   abundant (with the Fool) 15, half (the Fool and three) 5. The dealer declares what he held with
//!   the cards he laid away ("must still declare the combination as normal").
//! - Pots: "each player contributes 20 points to each pot. Whenever a pot is emptied, all players
//!   contribute another 20": each player pays 20 into a pot that the record says holds nothing (the
//!   option `pot_foundation` 40, B). "The dealer pays 5 points to each pot."
//! - "If a player plays a king or the Pagat to a trick, excluding the final trick, but does not win
//!   the trick, then they must pay 5 points to each of the other players, and 5 points to the king pot
//!   or pagat pot"; the Pagat winning such a trick "receive[s] 5 points from each of the other players".
//! - Achievements, paid by each other player: Tout (every trick) 135; Nolo (no trick, no tout) 25;
//!   Pagat Ultimo 45, King Ultimo 40, Last Trick ("when the Pagat or a king are not played") 20, each
//!   with no tout or nolo. A made Ultimo "also receives the contents of the appropriate pot". A player
//!   who plays the Pagat or a king to the last trick and does not take it pays each other player the
//!   Ultimo's value (45, 40), "regardless of whether there is a tout or nolo", and pays into the pot
//!   "the amount that was in the pot at the end of the hand, doubling the amount", after a made Ultimo
//!   has been evaluated.
//! - Card points "counted in groups of three, using the standard method" (a group counts its values,
//!   the Mond, the Pagat, the Fool and kings 4, queens 3, cavaliers 2, jacks 1, others 0, and one more),
//!   the dealer's three laid-away cards with his tricks. "Each player subtracts 26 ... rounds this
//!   number to the nearest multiple of 5. The resulting number is the number of points the player gains
//!   or loses." None under a Tout or a Nolo.
//!
//! The readings it makes where PW is short:
//! - A king or the Pagat that "does not win the trick" is one its player does not take.
//! - Card points: PW does not say who pays a player's gain. This scorer gives each player his rounded
//!   number (`card_gain`); the comparison says what the engine does when the three do not add up to
//!   nothing.
//! - Two kings failing in one last trick each pay into the King pot what it held "at the end of the
//!   hand" (after a made Ultimo took it).

use std::collections::BTreeMap;

use tarot_engine::Q;
use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    Trump(u8),
    Fool,
    /// A suit letter (S H D C) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
    Suited(char, u8),
}

pub const PAGAT: Card = Card::Trump(1);

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Fool;
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    /// PW's values: the 21, the Pagat, the Fool and kings 4, queens 3, cavaliers 2, jacks 1.
    pub fn value(self) -> i64 {
        match self {
            Card::Fool | Card::Trump(1 | 21) | Card::Suited(_, 14) => 4,
            Card::Suited(_, 13) => 3,
            Card::Suited(_, 12) => 2,
            Card::Suited(_, 11) => 1,
            _ => 0,
        }
    }

    pub fn is_king(self) -> bool {
        matches!(self, Card::Suited(_, 14))
    }

    fn is_court(self, suit: char) -> bool {
        matches!(self, Card::Suited(s, r) if s == suit && r >= 11)
    }
}

/// The options of the ruleset that change the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub round_suits_reversed: bool,
    pub pot_foundation: i64,
}

pub const PW: Variant = Variant { round_suits_reversed: false, pot_foundation: 20 };

/// What one deal came to, with the facts the comparison tallies.
#[derive(Debug)]
pub struct Scored {
    /// Every player's score but for card points, and his card points' rounded gain.
    pub scores: BTreeMap<String, i64>,
    pub card_gain: BTreeMap<String, i64>,
    pub card_points: BTreeMap<String, i64>,
    /// The King pot and the Pagat pot at the end of the deal.
    pub pots: [i64; 2],
    pub declarations: Vec<String>,
    pub tout: bool,
    pub nolo: bool,
    /// What the last trick made: "Pagat Ultimo", "King Ultimo", "Last Trick", or nothing under a Tout or
    /// a Nolo; and the Ultimos failed there.
    pub last: Option<&'static str>,
    pub failed: Vec<&'static str>,
    pub kings_lost: usize,
    pub pagat_lost: bool,
    pub pagat_won_early: bool,
    pub fool_last: bool,
    pub sitting_out: bool,
    pub wrong_leader: Option<String>,
}

/// The declarations a hand holds, with their values.
fn declarations(hand: &[Card]) -> Vec<(String, i64)> {
    let mut out = vec![];
    let has = |c: Card| hand.contains(&c);
    let trumps = hand.iter().filter(|c| matches!(c, Card::Trump(_) | Card::Fool)).count() as i64;
    if trumps >= 10 {
        out.push((format!("{trumps} trumps"), 10 + 5 * (trumps - 10)));
    }
    if has(Card::Fool) && has(PAGAT) && has(Card::Trump(21)) {
        let run = (2..=20).rev().take_while(|&n| has(Card::Trump(n))).count() as i64;
        out.push((format!("{} matadors", 3 + run), 10 + 5 * run));
    }
    let fours: [(&str, Box<dyn Fn(Card) -> bool>); 5] = [
        ("kings", Box::new(|c: Card| c.is_king())),
        ("hearts", Box::new(|c: Card| c.is_court('H'))),
        ("diamonds", Box::new(|c: Card| c.is_court('D'))),
        ("spades", Box::new(|c: Card| c.is_court('S'))),
        ("clubs", Box::new(|c: Card| c.is_court('C'))),
    ];
    for (name, of) in fours.iter() {
        let k = hand.iter().filter(|&&c| of(c)).count();
        match (k, has(Card::Fool)) {
            (4, true) => out.push((format!("abundant {name}"), 15)),
            (4, false) => out.push((format!("full {name}"), 10)),
            (3, true) => out.push((format!("half {name}"), 5)),
            _ => {}
        }
    }
    out
}

/// Scores a finished deal of Danish Tarok from its record alone.
pub fn score(rec: &GameRecord, v: Variant) -> Scored {
    let dealt: Vec<&str> = rec.events.iter().find_map(|e| if let Event::Deal { hands, .. } = e { Some(hands.keys().map(|k| k.as_str()).collect()) } else { None }).expect("a deal");
    let names: Vec<String> = rec.players.iter().filter(|p| dealt.contains(&p.as_str())).cloned().collect();
    assert_eq!(names.len(), 3, "three play");
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let dealer = seat(&rec.dealer);

    let mut hands: Vec<Vec<Card>> = vec![vec![]; 3];
    let mut discard: Vec<Card> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { hands: h, .. } => {
                for (p, cs) in h {
                    hands[seat(p)] = cs.iter().map(|c| Card::parse(c)).collect();
                }
            }
            Event::Discard { player, cards } => {
                assert_eq!(seat(player), dealer, "the dealer lays away");
                discard = cards.iter().map(|c| Card::parse(c)).collect();
            }
            // The declarations are worked out from the hands below: they are compulsory.
            Event::Declare { .. } => {}
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Danish Tarok has no such event: {other:?}"),
        }
    }
    assert_eq!(discard.len(), 3, "the dealer lays away three");

    let mut s = Scored {
        scores: names.iter().map(|n| (n.clone(), 0)).collect(),
        card_gain: BTreeMap::new(),
        card_points: BTreeMap::new(),
        pots: [0, 0],
        declarations: vec![],
        tout: false,
        nolo: false,
        last: None,
        failed: vec![],
        kings_lost: 0,
        pagat_lost: false,
        pagat_won_early: false,
        fool_last: false,
        sitting_out: rec.players.len() == 4,
        wrong_leader: None,
    };
    let mut score = [0i64; 3];
    // `from` pays `x` to each other player.
    let pay_each = |score: &mut [i64; 3], from: usize, x: i64| {
        for (p, s) in score.iter_mut().enumerate() {
            *s += if p == from { -2 * x } else { x };
        }
    };

    // The pots: the foundation into an empty one, the dealer's stake.
    const KING: usize = 0;
    const PAGAT_POT: usize = 1;
    for (i, name) in ["king", "pagat"].iter().enumerate() {
        s.pots[i] = rec.pots.get(*name).copied().unwrap_or(0);
        if s.pots[i] == 0 {
            for p in score.iter_mut() {
                *p -= v.pot_foundation;
            }
            s.pots[i] += 3 * v.pot_foundation;
        }
        score[dealer] -= 5;
        s.pots[i] += 5;
    }

    // Declarations, the dealer's with the cards he laid away.
    for (p, hand) in hands.iter().enumerate() {
        for (name, value) in declarations(hand) {
            s.declarations.push(name);
            pay_each(&mut score, p, -value);
        }
    }

    // The tricks.
    let strength = |c: Card| match c {
        Card::Suited('H' | 'D', r) if v.round_suits_reversed && r <= 10 => 11 - r,
        Card::Suited(_, r) | Card::Trump(r) => r,
        Card::Fool => 0,
    };
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(3).collect();
    assert!(tricks.len() == 25 && tricks.iter().all(|t| t.len() == 3), "25 tricks of three");
    if tricks[0][0].0 == dealer {
        s.wrong_leader = Some("the dealer led the first trick, not forehand".into());
    }
    let last = tricks.len() - 1;
    let mut winners: Vec<usize> = vec![];
    for (i, t) in tricks.iter().enumerate() {
        if i > 0 && t[0].0 != winners[i - 1] && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[winners[i - 1]]));
        }
        let led = t.iter().map(|&(_, c)| c).find(|&c| c != Card::Fool).expect("a trick holds a card besides the Fool");
        let beats = |c: Card, best: Card| match (c, best) {
            (Card::Fool, _) => false,
            (Card::Trump(x), Card::Trump(b)) => x > b,
            (Card::Trump(_), _) => true,
            (_, Card::Trump(_)) => false,
            (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && strength(c) > strength(best),
            (_, Card::Fool) => unreachable!(),
        };
        let mut best = *t.iter().find(|&&(_, c)| c == led).unwrap();
        for &(p, c) in t.iter() {
            if beats(c, best.1) {
                best = (p, c);
            }
        }
        winners.push(best.0);
        // Kings and the Pagat before the last trick.
        if i < last {
            for &(p, c) in t.iter() {
                let took = best.0 == p;
                if c.is_king() && !took {
                    s.kings_lost += 1;
                    pay_each(&mut score, p, 5);
                    score[p] -= 5;
                    s.pots[KING] += 5;
                } else if c == PAGAT && !took {
                    s.pagat_lost = true;
                    pay_each(&mut score, p, 5);
                    score[p] -= 5;
                    s.pots[PAGAT_POT] += 5;
                } else if c == PAGAT {
                    s.pagat_won_early = true;
                    pay_each(&mut score, p, -5);
                }
            }
        }
        if i == last && t.iter().any(|&(_, c)| c == Card::Fool) {
            s.fool_last = true;
        }
    }
    let won = |p: usize| winners.iter().filter(|&&w| w == p).count();
    s.tout = (0..3).any(|p| won(p) == tricks.len());
    s.nolo = !s.tout && (0..3).any(|p| won(p) == 0);
    for p in 0..3 {
        if s.tout && won(p) == tricks.len() {
            pay_each(&mut score, p, -135);
        }
        if s.nolo && won(p) == 0 {
            pay_each(&mut score, p, -25);
        }
    }

    // The last trick: the made Ultimo first, with its pot; then the failed ones.
    let lt = tricks[last];
    let lw = winners[last];
    let winning = lt.iter().find(|&&(p, _)| p == lw).unwrap().1;
    if !s.tout && !s.nolo {
        let (name, value, pot) = if winning == PAGAT {
            ("Pagat Ultimo", 45, Some(PAGAT_POT))
        } else if winning.is_king() {
            ("King Ultimo", 40, Some(KING))
        } else if lt.iter().all(|&(_, c)| c != PAGAT && !c.is_king()) {
            ("Last Trick", 20, None)
        } else {
            ("", 0, None)
        };
        if value > 0 {
            s.last = Some(name);
            pay_each(&mut score, lw, -value);
        }
        if let Some(k) = pot {
            score[lw] += s.pots[k];
            s.pots[k] = 0;
        }
    }
    let at_end = s.pots;
    for &(p, c) in lt.iter() {
        if p == lw || !(c == PAGAT || c.is_king()) {
            continue;
        }
        let (name, value, k) = if c == PAGAT { ("Pagat Ultimo failed", 45, PAGAT_POT) } else { ("King Ultimo failed", 40, KING) };
        s.failed.push(name);
        pay_each(&mut score, p, value);
        score[p] -= at_end[k];
        s.pots[k] += at_end[k];
    }

    // Card points, in groups of three: the values and one for each three cards; the Fool with its
    // player, who gives a card of no value for it to the trick's winner.
    let mut values = [0i64; 3];
    let mut cards = [0i64; 3];
    values[dealer] += discard.iter().map(|c| c.value()).sum::<i64>();
    cards[dealer] += 3;
    for (i, t) in tricks.iter().enumerate() {
        for &(p, c) in t.iter() {
            if c == Card::Fool {
                values[p] += c.value();
                if p != winners[i] {
                    cards[winners[i]] += 1;
                } else {
                    cards[p] += 1;
                }
            } else {
                values[winners[i]] += c.value();
                cards[winners[i]] += 1;
            }
        }
    }
    for p in 0..3 {
        assert_eq!(cards[p] % 3, 0, "whole groups of three, or a Nolo");
        let points = values[p] + cards[p] / 3;
        s.card_points.insert(names[p].clone(), points);
        let gain = if s.tout || s.nolo { 0 } else { 5 * ((points - 26) as f64 / 5.0).round() as i64 };
        s.card_gain.insert(names[p].clone(), gain);
        s.scores.insert(names[p].clone(), score[p]);
    }
    for name in &rec.players {
        s.scores.entry(name.clone()).or_insert(0);
        s.card_gain.entry(name.clone()).or_insert(0);
    }
    s
}

/// A player's score with his card points' gain as PW gives it, or with each player's gain less a third
/// of the three gains' sum (so that the gains are paid among the players).
pub fn total(s: &Scored, name: &str, paid_among: bool) -> Q {
    let sum: i64 = s.card_gain.values().sum();
    let gain = Q::int(s.card_gain[name]) - if paid_among && s.card_points.contains_key(name) { Q::new(sum, 3) } else { Q::ZERO };
    Q::int(s.scores[name]) + gain
}
