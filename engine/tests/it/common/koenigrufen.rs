//! A second scorer for Königrufen, written by hand from the Upper Austrian tournament rules 4/2023 as the
//! harbour-tarock specification quotes them (HK), with no rule file and nothing from the engine but the
//! record's types. It reads a finished deal's events, plays the tricks out itself, counts the cards in
//! thirds and works out every player's score (the "Schrift", without Kontra), so that the engine can be
//! checked against it.
//!
//! What HK says, and this scorer does:
//! - 54 cards: 22 tarocks, the Sküs (EX) above the XXI down to the I; the black suits K Q C J 10 9 8 7,
//!   the red K Q C J 1 2 3 4 (1.1-1.3). Kings, Sküs, XXI and I 5, queens 4, cavalls 3, jacks 2, the rest
//!   1; each card counts its value less two thirds, 210 thirds to the pack (1.4, 1.5).
//! - The declarer's side wins a positive game with 107 thirds (35 and 2 cards, 1.6).
//! - Play goes anticlockwise, the winner of a trick leading the next; forehand leads in the positive
//!   games, the declarer in Piccolo and Bettel, forehand (the Trischaker) in Trischaken (6.1). The
//!   highest tarock takes a trick, else the highest card of the suit led; in the colour games a tarock
//!   takes only a trick led in tarocks (6.3, 6.6).
//! - The talon (1.8, 4.2): in Rufer, Dreier, Farbendreier the half taken joins the declarer's hand, the
//!   other half counts for the opponents, the cards laid away for the declarer; the Sechserdreier takes
//!   all six and lays away six; in the solo games the talon counts for the opponents; in Trischaken for
//!   the winner of the last trick.
//! - The partner holds the called king; a king in the talon leaves the declarer alone (4.1, 4.5). In a
//!   Solorufer the talon's half (its first or last three cards as dealt) with the called king then
//!   counts for the declarer, the other half for the opponents (1.8, 4.5 b).
//! - The Besserrufer is a Rufer (a king called, a talon half taken) in which the declarer announces a
//!   bird he was dealt (3.2, 5.3); its bird is scored as any announced premium (7.2, 7.3). The scorer
//!   says which birds he announced that he was dealt (`own_birds`).
//! - The game (7.2): Rufer 1, Piccolo 2, Bettel 2, Solorufer 2, Besserrufer 1, Farbendreier 3, Sechserdreier 4 (8
//!   lost), Dreier 4, Farbensolo 6, Piccolo ouvert 6, Bettel ouvert 7, Solodreier 8. Piccolo is exactly
//!   one trick, Bettel none (3.2). The Valat (7.4): every trick, 4 times the game silent, 8 times
//!   announced; an announced Valat lost costs 8 times (a lost Sechserdreier's doubling applies too).
//! - The premiums (5.1, 5.5, 7.3): Trull 2, four kings 2, König ultimo 2, Pagat 2, Uhu 4, Kakadu 6,
//!   Quapil 8, announced; half silent, and only when made; double in the solo games (Solorufer,
//!   Farbensolo, Solodreier); with a Valat only the announced ones. A bird must take its trick (the 12th,
//!   11th, 10th, 9th) itself; the König ultimo is the called king in the last trick, taken by the
//!   declarer's side. The tarock games have them all (the König ultimo only the calling games), the
//!   colour games only the four kings and the Valat, the negative games none.
//! - Each item is paid between the sides (7.1): two against two, each player wins or loses its value;
//!   one against three, the lone player three times.
//! - Trischaken (7.6): the most card points (with the talon) loses 1 to each, 2 with 107 thirds or more;
//!   forehand among those with the most loses alone, paying double; a player without a trick takes the
//!   whole payment, two share it (3 to share is 4); two tied pay 2 each (a lone trickless player among the
//!   others takes the 4), three tied 1 each.

use std::collections::BTreeMap;

use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// 1 (the Pagat) to 21 (the Mond), 22 the Sküs.
    Tarock(u8),
    /// A suit letter and its rank from the top: 8 the king ... 1 the lowest card.
    Suit(char, u8),
}

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Tarock(22);
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Tarock(n),
            super::Code::Suited(s, r) => Card::Suit(
                s,
                match (r, s) {
                    (11..=14, _) => r - 6,
                    (n, 'S' | 'C') => n - 6,
                    (n, _) => 5 - n,
                },
            ),
        }
    }

    fn value(self) -> i64 {
        match self {
            Card::Tarock(1 | 21 | 22) | Card::Suit(_, 8) => 5,
            Card::Suit(_, 7) => 4,
            Card::Suit(_, 6) => 3,
            Card::Suit(_, 5) => 2,
            _ => 1,
        }
    }
}

/// A pile's worth in thirds of a point.
pub fn thirds(cards: &[Card]) -> i64 {
    cards.iter().map(|c| 3 * c.value() - 2).sum()
}

/// What one deal came to.
#[derive(Debug, Default)]
pub struct Scored {
    pub scores: BTreeMap<String, i64>,
    pub contract: String,
    pub made: bool,
    pub alone: bool,
    pub valat: bool,
    pub premiums: Vec<&'static str>,
    /// In a Besserrufer, the birds the declarer announced that he was dealt (5.3: one at least).
    pub own_birds: Vec<&'static str>,
    /// A Solorufer whose called king lay in the talon (its half counted for the declarer, 4.5 b).
    pub king_in_talon: bool,
    /// A Rufer or Besserrufer given up ("Schleifen", 4.5 a, 7.7 a): the called king seen in the talon.
    pub given_up: bool,
}

fn beats(a: Card, b: Card, colour: bool) -> bool {
    // Whether `a`, played after `b` (the trick's best so far), takes the trick from it.
    match (a, b) {
        (Card::Tarock(x), Card::Tarock(y)) => x > y,
        (Card::Tarock(_), Card::Suit(..)) => !colour,
        (Card::Suit(s, x), Card::Suit(t, y)) => s == t && x > y,
        (Card::Suit(..), Card::Tarock(_)) => false,
    }
}

pub fn score(rec: &GameRecord) -> Scored {
    let names = &rec.players;
    assert_eq!(names.len(), 4);
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let forehand = (seat(&rec.dealer) + 1) % 4;
    let mut s = Scored::default();
    let mut hands: Vec<Vec<Card>> = vec![vec![]; 4];
    let mut talon: Vec<Card> = vec![];
    let (mut taken, mut laid): (Vec<Card>, Vec<Card>) = (vec![], vec![]);
    let (mut declarer, mut called) = (None, None);
    let mut announced: BTreeMap<String, usize> = BTreeMap::new();
    let mut shown: Vec<Card> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { hands: h, dog, .. } => {
                for (p, cs) in h {
                    hands[seat(p)] = cs.iter().map(|c| Card::parse(c)).collect();
                }
                talon = dog.iter().map(|c| Card::parse(c)).collect();
            }
            Event::Bid { player, bid } if bid != "pass" => {
                declarer = Some(seat(player));
                s.contract = bid.to_string();
            }
            Event::Bid { .. } => {}
            Event::Call { card, .. } => called = Some(Card::parse(card)),
            Event::Take { cards, .. } => taken = cards.iter().map(|c| Card::parse(c)).collect(),
            Event::Discard { cards, .. } => laid = cards.iter().map(|c| Card::parse(c)).collect(),
            Event::Declare { player, declaration, cards } => {
                if declaration.starts_with("schleifen") {
                    shown = cards.iter().map(|c| Card::parse(c)).collect();
                    assert!(taken.is_empty(), "given up after a half of the talon was taken (4.5 a)");
                }
                announced.insert(declaration.to_string(), seat(player));
            }
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Königrufen has no such event: {other:?}"),
        }
    }
    let c = s.contract.clone();
    let declarer = declarer.expect("a bid");
    let trischaken = c == "trischaken";
    let negative = matches!(c.as_str(), "piccolo" | "bettel" | "piccolo-ouvert" | "bettel-ouvert");
    let colour = matches!(c.as_str(), "farbendreier" | "farbensolo");
    let solo = matches!(c.as_str(), "solorufer" | "farbensolo" | "solodreier");
    let calling = matches!(c.as_str(), "rufer" | "solorufer" | "besserrufer");
    let value: i64 = match c.as_str() {
        "rufer" | "besserrufer" | "trischaken" => 1,
        "piccolo" | "bettel" | "solorufer" => 2,
        "farbendreier" => 3,
        "sechserdreier" | "dreier" => 4,
        "farbensolo" | "piccolo-ouvert" => 6,
        "bettel-ouvert" => 7,
        "solodreier" => 8,
        other => panic!("contract {other}"),
    };
    let partner = if calling { (0..4).find(|&p| p != declarer && hands[p].contains(&called.expect("a king called"))) } else { None };
    let attack = |p: usize| !trischaken && (p == declarer || Some(p) == partner);
    s.alone = partner.is_none();
    if c == "besserrufer" {
        let birds = [("pagat", 1), ("uhu", 2), ("kakadu", 3), ("quapil", 4)];
        s.own_birds = birds.iter().filter(|(b, n)| announced.get(*b) == Some(&declarer) && hands[declarer].contains(&Card::Tarock(*n))).map(|(b, _)| *b).collect();
    }

    // Schleifen (4.5 a, 7.7 a): in a Rufer or a Besserrufer whose called king lies in the talon, the
    // declarer gives up before taking a half; he pays each of the other three the game and the bird
    // he planned (a Rufer 1; a Besserrufer 1 + 2, 4, 6 or 8: "3, 5, 7 oder 9"), nothing else.
    if announced.keys().any(|d| d.starts_with("schleifen")) {
        assert!(matches!(c.as_str(), "rufer" | "besserrufer"), "{c} given up: only a Rufer or a Besserrufer (4.5 a)");
        assert!(talon.contains(&called.expect("a king called")), "given up while the called king is not in the talon (4.5 a)");
        assert!(plays.is_empty() && laid.is_empty(), "nothing is played after giving up (4.5 a)");
        let bird = match shown.as_slice() {
            [] if c == "rufer" => 0,
            [Card::Tarock(n @ 1..=4)] if c == "besserrufer" && hands[declarer].contains(&Card::Tarock(*n)) => 2 * *n as i64,
            other => panic!("{c} given up with the bird {other:?}: a Besserrufer's planned bird is one he was dealt, a Rufer's none"),
        };
        let each = value + bird;
        s.given_up = true;
        for (p, name) in names.iter().enumerate() {
            s.scores.insert(name.to_string(), if p == declarer { -3 * each } else { each });
        }
        return s;
    }

    // The tricks, played out.
    let mut piles: Vec<Vec<Card>> = vec![vec![]; 4];
    let mut tricks: Vec<(usize, Card, Vec<Card>)> = vec![];
    let mut leader = if negative { declarer } else { forehand };
    for trick in plays.chunks(4) {
        assert_eq!(trick[0].0, leader, "{c}: the leader");
        for (i, &(p, _)) in trick.iter().enumerate() {
            assert_eq!(p, (leader + i) % 4, "{c}: anticlockwise");
        }
        let mut best = 0;
        for i in 1..trick.len() {
            if beats(trick[i].1, trick[best].1, colour) {
                best = i;
            }
        }
        let (w, card) = trick[best];
        piles[w].extend(trick.iter().map(|x| x.1));
        tricks.push((w, card, trick.iter().map(|x| x.1).collect()));
        leader = w;
    }
    let won = |p: usize| tricks.iter().filter(|t| t.0 == p).count();
    let first_defender = (0..4).find(|&p| !attack(p)).unwrap();
    // The talon and the cards laid away.
    if trischaken {
        let last = tricks.last().expect("twelve tricks").0;
        piles[last].extend(talon.iter().copied());
    } else if !taken.is_empty() {
        piles[declarer].extend(laid.iter().copied());
        piles[first_defender].extend(talon.iter().filter(|x| !taken.contains(x)).copied());
    } else if c == "sechserdreier" {
        piles[declarer].extend(laid.iter().copied());
    } else if let Some(half) = talon.chunks(3).find(|h| c == "solorufer" && h.contains(&called.unwrap())) {
        // The Solorufer's called king in the talon: its half counts for the declarer (1.8, 4.5 b).
        s.king_in_talon = true;
        piles[declarer].extend(half.iter().copied());
        piles[first_defender].extend(talon.iter().filter(|x| !half.contains(x)).copied());
    } else {
        piles[first_defender].extend(talon.iter().copied());
    }
    let side_pile = |a: bool| -> Vec<Card> { (0..4).filter(|&p| attack(p) == a).flat_map(|p| piles[p].clone()).collect() };
    let (att, def) = (side_pile(true), side_pile(false));
    if tricks.len() == 12 && !trischaken {
        assert_eq!(thirds(&att) + thirds(&def), 210, "the pack is 70");
    }

    let mut net = 0i64; // what the declarer's side wins, per player of it
    let mut pay = [0i64; 4];
    if trischaken {
        let pts: Vec<i64> = (0..4).map(|p| thirds(&piles[p])).collect();
        let top = *pts.iter().max().unwrap();
        let losers: Vec<usize> = (0..4).filter(|&p| pts[p] == top).collect();
        let virgins: Vec<usize> = (0..4).filter(|&p| won(p) == 0).collect();
        let single = if losers.contains(&forehand) {
            Some((forehand, if top >= 107 { 4 } else { 2 }))
        } else if losers.len() == 1 {
            Some((losers[0], if top >= 107 { 2 } else { 1 }))
        } else {
            None
        };
        if let Some((l, b)) = single {
            if virgins.is_empty() {
                for p in (0..4).filter(|&p| p != l) {
                    pay[p] += b;
                    pay[l] -= b;
                }
            } else {
                let whole = if l != forehand && b == 1 && virgins.len() == 2 { 4 } else { 3 * b };
                pay[l] -= whole;
                for &v in &virgins {
                    pay[v] += whole / virgins.len() as i64;
                }
            }
        } else if losers.len() == 2 {
            let others: Vec<usize> = (0..4).filter(|p| !losers.contains(p)).collect();
            let lone_virgin: Vec<usize> = others.iter().copied().filter(|&p| won(p) == 0).collect();
            for &l in &losers {
                pay[l] -= 2;
            }
            if lone_virgin.len() == 1 {
                pay[lone_virgin[0]] += 4;
            } else {
                for &o in &others {
                    pay[o] += 2;
                }
            }
        } else {
            for (p, x) in pay.iter_mut().enumerate() {
                *x += if losers.contains(&p) { -1 } else { 3 };
            }
        }
    } else {
        let dec_won = won(declarer);
        let made = if negative {
            if c.starts_with("bettel") {
                dec_won == 0
            } else {
                dec_won == 1
            }
        } else {
            thirds(&att) >= 107
        };
        s.made = made;
        let lost_x = if c == "sechserdreier" { 2 } else { 1 };
        let all_att = tricks.len() == 12 && tricks.iter().all(|t| attack(t.0));
        let all_def = tricks.len() == 12 && tricks.iter().all(|t| !attack(t.0));
        let valat_by = announced.get("valat").map(|&p| attack(p));
        let positive = !negative;
        s.valat = positive && (valat_by.is_some() || all_att || all_def);
        net += if negative {
            if made {
                value
            } else {
                -value
            }
        } else if let Some(a) = valat_by {
            let ok = if a { all_att } else { !all_def };
            if ok {
                8 * value
            } else {
                -8 * value * lost_x
            }
        } else if all_att {
            4 * value
        } else if all_def {
            -4 * value * lost_x
        } else if made {
            value
        } else {
            -value * lost_x
        };
        // The premiums: (name, value announced, made by the declarer's side, made by the other).
        let tarock_game = positive && !colour;
        let bird = |n: u8, k: usize, a: bool| tricks.len() == 12 && tricks[k].1 == Card::Tarock(n) && attack(tricks[k].0) == a;
        let mut items: Vec<(&'static str, i64, bool, bool)> = vec![];
        if tarock_game {
            let trull = [Card::Tarock(1), Card::Tarock(21), Card::Tarock(22)];
            items.push(("trull_bonus", 2, trull.iter().all(|x| att.contains(x)), trull.iter().all(|x| def.contains(x))));
            items.push(("pagat", 2, bird(1, 11, true), bird(1, 11, false)));
            items.push(("uhu", 4, bird(2, 10, true), bird(2, 10, false)));
            items.push(("kakadu", 6, bird(3, 9, true), bird(3, 9, false)));
            items.push(("quapil", 8, bird(4, 8, true), bird(4, 8, false)));
        }
        if positive {
            let kings: Vec<Card> = "SCHD".chars().map(|s| Card::Suit(s, 8)).collect();
            items.push(("four_kings", 2, kings.iter().all(|x| att.contains(x)), kings.iter().all(|x| def.contains(x))));
        }
        if calling {
            let k = called.unwrap();
            let last = tricks.last().unwrap();
            items.push(("king_ultimo", 2, last.2.contains(&k) && attack(last.0), false));
        }
        let factor = if solo { 2 } else { 1 };
        for (name, v, a, d) in items {
            let item = match announced.get(name) {
                Some(&p) => {
                    let by_att = attack(p);
                    let ok = if by_att { a } else { d };
                    let to_att = if ok == by_att { v } else { -v };
                    s.premiums.push(name);
                    to_att
                }
                None if s.valat => 0,
                None if a => v / 2,
                None if d => -v / 2,
                None => 0,
            };
            if item != 0 && !announced.contains_key(name) {
                s.premiums.push(name);
            }
            net += factor * item;
        }
        let n_att = (0..4).filter(|&p| attack(p)).count() as i64;
        for (p, x) in pay.iter_mut().enumerate() {
            *x = if attack(p) { net * (4 - n_att) / n_att } else { -net };
        }
    }
    s.scores = (0..4).map(|p| (names[p].clone(), pay[p])).collect();
    s
}
