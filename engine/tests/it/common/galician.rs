//! A second scorer for Galician Tarok, written by hand from the sources the rule file names, with no
//! rule file and nothing from the engine but the record's types: Szczepański's handbook (Kraków, about
//! 1900) as astroweb.pl quotes its §1 to §8 (AW: the pack, the values, the play, the Pagat Ultimo), and,
//! for what the handbook's quoted part does not reach (the deal, the bids, the talon, the score), Tower
//! Grove's 42-card Driertarock (TG42), the three-hand 42-card Tarock that Polish Wikipedia says the
//! Galician game was; with the 1821 rules of Tappen with 42 cards as HT quotes them for the count in
//! threes (option `count`). It reads a finished deal's events, plays the tricks out itself, counts the
//! cards and works out every player's score, so that the engine can be checked against it.
//!
//! What the sources say, and this scorer does:
//! - 22 tarocks, the Skiz highest, "przebija monda" (AW §2), the Pagat (I) lowest; four suits of five,
//!   king, queen, cavalier, jack and a ten or an ace (AW §7); "Tarok wyższy bije niższy; tak samo i
//!   farba wyższa niższą" (AW §4). Follow suit; unable, trump; a tarock led is followed by a tarock,
//!   higher or lower; else any card (AW §5): the highest tarock takes the trick, else the highest card of
//!   the suit led.
//! - Values: the Pagat, the Mond and the Skiz 5, every other tarock 1 (AW §3); king 5, queen 4, cavalier
//!   3, jack 2, ten or ace 1 (AW §7), "counted singly" (TG42): 94 to the pack. With the option `count =
//!   "threes"` each three counts its values less two, 66 to the pack, "three and thirty is a draw, four
//!   and thirty won by one" (ATT1821 §E.6 as HT quotes it).
//! - The bids (TG42): Single 10, Double 20, Triple 30 ("Exchange three cards, and take over half the
//!   points"), Suit-Solo 40 ("Leave the Talon unseen ... Trumps don't trump"), Solo 40, Solo-Slam 320
//!   ("take every trick"); the last bid standing is the contract, its bidder the declarer, against the
//!   other two. "The six cards of the Talon are exposed in two groups of three. The declarer may take
//!   either set ..., the remaining three cards counting toward his opponents. He then discards three
//!   cards which will count for him in the end."
//! - "Normally Eldest leads to the first trick" (TG42), eldest being the first to bid; "some play that in
//!   a Suit-Solo or Solo Declarer leads" (the option `solo_lead`). The winner of a trick leads the next.
//! - The Pagat Ultimo (AW §6): "Jeżeli pagatem zdobywa się ostatnią lewę (ultimo), osobno liczy się 50
//!   punktów, albo 100 punktów w razie, gdy się ultimo przed początkiem gry zapowie. Ultimo zapowiedziane
//!   a nie zrobione ... płaci wyż. wspomniane liczby punktów", and an announced Ultimo whose Pagat is
//!   driven out before the last trick is lost.
//! - Trischaken (TG42): eldest, having won the bidding with a Single, may play it instead; "everyone
//!   plays for himself ... The Talon is unused, and does not contribute to anyone's score. There are no
//!   bonuses. ... The player who takes the most points has lost, and pays 10¢. If two tie for the most
//!   points, they each pay the value to the third. If all three tie, there is no payment."
//!
//! The readings it makes where the sources are short:
//! - "Over half the points": over 47 of AW's 94, so 48 (TG42 writes "46+", the option `target`); in
//!   threes, 34 of the 66, 33 being a draw the declarer does not win.
//! - Each opponent pays the declarer the contract's value when he makes it, and is paid it by him when
//!   he does not; the Ultimo likewise, between the Pagat's side and the other (AW §27, who pays it, was
//!   not read), on the same scale as the bids (AW's 50 points and TG42's 10 cents for a Single are one
//!   scale). A silent Pagat beaten in the last trick costs nothing (AW speaks of the announced Ultimo).
//! - In the Suit-Solo the tarocks are a fifth suit (as in Königrufen's Farben-Dreier, FD: "einfach die
//!   fünfte Farbe"): a tarock wins only a trick in which tarocks were led.
//! - In the Suit-Solo, the Solo and the Solo-Slam the unseen talon counts for the defenders, as in Tapp
//!   Tarock's Solo.
//! - Trischaken's loser "pays 10¢" to each of the two others, as the two tied for the most each pay the
//!   third.

use std::collections::BTreeMap;

use tarot_engine::Q;
use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// T1 (the Pagat) to T21 (the Mond), and T22 the Skiz.
    Trump(u8),
    /// A suit letter (S H D C) and a rank: 14 king, 13 queen, 12 cavalier, 11 jack, 10 or 1 the ten or
    /// the ace.
    Suited(char, u8),
}

pub const PAGAT: Card = Card::Trump(1);

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

    /// AW §3 and §7: the Pagat, the Mond, the Skiz and kings 5, queens 4, cavaliers 3, jacks 2, the
    /// rest 1.
    pub fn value(self) -> i64 {
        match self {
            Card::Trump(1 | 21 | 22) | Card::Suited(_, 14) => 5,
            Card::Suited(_, 13) => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 1,
        }
    }
}

/// The options of the ruleset that change the score or who leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub target: i64,
    pub threes: bool,
    pub declarer_leads_solo: bool,
}

pub const AW: Variant = Variant { target: 48, threes: false, declarer_leads_solo: false };

/// A pile's card points: each card its value, or in threes each three its values less two.
pub fn count(cards: &[Card], v: Variant) -> i64 {
    let values: i64 = cards.iter().map(|c| c.value()).sum();
    if v.threes {
        assert_eq!(cards.len() % 3, 0, "a pile of whole threes");
        values - 2 * (cards.len() / 3) as i64
    } else {
        values
    }
}

/// What one deal came to, with the facts the comparison tallies.
#[derive(Debug, Default)]
pub struct Scored {
    pub scores: BTreeMap<String, Q>,
    pub contract: String,
    /// The declarer's side's card points, or in Trischaken each player's.
    pub points: BTreeMap<String, i64>,
    pub declarer: Option<String>,
    pub made: bool,
    pub declarer_tricks: usize,
    pub tricks: usize,
    /// The Pagat Ultimo: the declarer's side's (true) or the defenders', won, announced.
    pub ultimo: Option<(bool, bool, bool)>,
    pub ultimo_driven_out: bool,
    /// A silent Pagat beaten in the last trick.
    pub pagat_beaten_silent: bool,
    /// Trischaken: how many players had the most card points.
    pub losers: usize,
    /// The declarer's points on the line (the target less one, or the target).
    pub on_the_line: bool,
    /// A suit-led trick taken by a suit card over a tarock played to it (the Suit-Solo).
    pub tarock_beaten_by_suit: bool,
    pub wrong_leader: Option<String>,
}

/// Scores a finished deal of Galician Tarok from its record alone.
pub fn score(rec: &GameRecord, v: Variant) -> Scored {
    let names = &rec.players;
    assert_eq!(names.len(), 3, "three play");
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));

    let mut s = Scored::default();
    let mut hands: Vec<Vec<Card>> = vec![vec![]; 3];
    let mut talon: Vec<Card> = vec![];
    let mut taken: Vec<Card> = vec![];
    let mut discard: Vec<Card> = vec![];
    let mut declarer: Option<usize> = None;
    let mut eldest: Option<usize> = None;
    let mut announced: Option<usize> = None;
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { hands: h, dog, .. } => {
                for (p, cs) in h {
                    hands[seat(p)] = cs.iter().map(|c| Card::parse(c)).collect();
                }
                talon = dog.iter().map(|c| Card::parse(c)).collect();
            }
            Event::Bid { player, bid } => {
                eldest.get_or_insert(seat(player));
                if bid != "pass" {
                    declarer = Some(seat(player));
                    s.contract = bid.to_string();
                }
            }
            Event::Take { cards, .. } => taken = cards.iter().map(|c| Card::parse(c)).collect(),
            Event::Discard { player, cards } => {
                assert_eq!(Some(seat(player)), declarer, "the declarer lays away");
                discard = cards.iter().map(|c| Card::parse(c)).collect();
            }
            Event::Declare { player, declaration, .. } if declaration == "ultimo" => announced = Some(seat(player)),
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Galician Tarok has no such event: {other:?}"),
        }
    }
    let eldest = eldest.expect("a bid");
    let trischaken = s.contract == "trischaken";
    let declarer = if trischaken {
        assert_eq!(declarer, Some(eldest), "eldest chooses Trischaken");
        None
    } else {
        Some(declarer.expect("a declarer"))
    };
    s.declarer = declarer.map(|d| names[d].clone());
    let attack = |p: usize| Some(p) == declarer;
    let value: i64 = match s.contract.as_str() {
        "single" | "trischaken" => 10,
        "double" => 20,
        "triple" => 30,
        "suit-solo" | "solo" => 40,
        "solo-slam" => 320,
        c => panic!("contract {c}"),
    };
    let exchange = matches!(s.contract.as_str(), "single" | "double" | "triple");
    assert_eq!(talon.len(), 6, "a talon of six");
    let rest: Vec<Card> = if exchange {
        let key = |cs: &[Card]| {
            let mut k: Vec<String> = cs.iter().map(|c| format!("{c:?}")).collect();
            k.sort();
            k
        };
        assert!(key(&taken) == key(&talon[..3]) || key(&taken) == key(&talon[3..]), "the declarer takes one group of the talon");
        assert_eq!(discard.len(), 3, "and discards three");
        talon.iter().copied().filter(|c| !taken.contains(c)).collect()
    } else {
        assert!(taken.is_empty() && discard.is_empty(), "the talon is left unseen");
        if trischaken {
            vec![]
        } else {
            talon.clone()
        }
    };

    // The tricks.
    let suit_solo = s.contract == "suit-solo";
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(3).collect();
    assert!(tricks.len() == 12 && tricks.iter().all(|t| t.len() == 3), "12 tricks of three");
    s.tricks = tricks.len();
    let first_leader = match declarer {
        Some(d) if v.declarer_leads_solo && (s.contract == "solo" || suit_solo) => d,
        _ => eldest,
    };
    let suit_of = |c: Card| match c {
        Card::Trump(_) => 'T',
        Card::Suited(su, _) => su,
    };
    let rank_of = |c: Card| match c {
        Card::Trump(r) | Card::Suited(_, r) => r,
    };
    let mut winners: Vec<usize> = vec![];
    for (i, t) in tricks.iter().enumerate() {
        let expected = if i == 0 { first_leader } else { winners[i - 1] };
        if t[0].0 != expected && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[expected]));
        }
        let led = suit_of(t[0].1);
        let beats = |c: Card, best: Card| {
            if suit_solo {
                suit_of(c) == led && rank_of(c) > rank_of(best)
            } else {
                match (c, best) {
                    (Card::Trump(x), Card::Trump(b)) => x > b,
                    (Card::Trump(_), _) => true,
                    (_, Card::Trump(_)) => false,
                    (Card::Suited(su, r), Card::Suited(bs, b)) => su == bs && r > b,
                }
            }
        };
        let mut best = t[0];
        for &(p, c) in t.iter() {
            if beats(c, best.1) {
                best = (p, c);
            }
        }
        if suit_solo && led != 'T' && t.iter().any(|&(_, c)| suit_of(c) == 'T') {
            s.tarock_beaten_by_suit = true;
        }
        winners.push(best.0);
    }
    s.declarer_tricks = winners.iter().filter(|&&w| attack(w)).count();

    let mut score = [0i64; 3];
    if trischaken {
        // Each for himself: his tricks; the most card points pays each player with fewer.
        let mut piles: [Vec<Card>; 3] = Default::default();
        for (i, t) in tricks.iter().enumerate() {
            piles[winners[i]].extend(t.iter().map(|&(_, c)| c));
        }
        let points: Vec<i64> = piles.iter().map(|p| count(p, v)).collect();
        let top = *points.iter().max().unwrap();
        s.losers = points.iter().filter(|&&x| x == top).count();
        for a in 0..3 {
            for b in 0..3 {
                if points[a] == top && points[b] < top {
                    score[a] -= value;
                    score[b] += value;
                }
            }
        }
        for (p, name) in names.iter().enumerate() {
            s.points.insert(name.clone(), points[p]);
        }
    } else {
        let d = declarer.unwrap();
        let mut piles: [Vec<Card>; 2] = [discard.clone(), rest];
        for (i, t) in tricks.iter().enumerate() {
            piles[if attack(winners[i]) { 0 } else { 1 }].extend(t.iter().map(|&(_, c)| c));
        }
        let points = count(&piles[0], v);
        assert_eq!(points + count(&piles[1], v), if v.threes { 66 } else { 94 }, "the pack's points");
        let target = if v.threes { 34 } else { v.target };
        s.on_the_line = points == target || points == target - 1;
        s.made = if s.contract == "solo-slam" { s.declarer_tricks == tricks.len() } else { points >= target };
        s.points.insert(names[d].clone(), points);
        let mut side = if s.made { value } else { -value };

        // The Pagat Ultimo.
        let last = tricks.len() - 1;
        let pagat = tricks.iter().enumerate().find_map(|(i, t)| t.iter().find(|&&(_, c)| c == PAGAT).map(|&(p, _)| (i, p)));
        if let Some(a) = announced {
            assert!(hands[a].contains(&PAGAT) || (attack(a) && taken.contains(&PAGAT)), "the Ultimo is announced by the holder of the Pagat");
            assert_eq!(pagat.map(|(_, p)| p), Some(a), "and he plays it");
        }
        if let Some((i, p)) = pagat {
            let won = i == last && winners[i] == p;
            let amount = if announced.is_some() { 100 } else { 50 };
            if won || announced.is_some() {
                s.ultimo = Some((attack(p), won, announced.is_some()));
                s.ultimo_driven_out = announced.is_some() && i != last;
                side += if won == attack(p) { amount } else { -amount };
            } else if i == last {
                s.pagat_beaten_silent = true;
            }
        }
        for (p, x) in score.iter_mut().enumerate() {
            *x = if attack(p) { 2 * side } else { -side };
        }
    }
    for (p, name) in names.iter().enumerate() {
        s.scores.insert(name.clone(), Q::int(score[p]));
    }
    s
}
