//! A second scorer for French Tarot at three, four and five players, written by hand from the FFT
//! rulebook (its *Règlement officiel* of 2012), with no rule file
//! and nothing from the engine but the record's types. It reads a finished game's events, plays the
//! tricks out itself and works out every player's score, so that the engine can be checked against it.
//!
//! Card points are counted in half points (an oudler or a king 4½, a queen 3½, a cavalier 2½, a jack
//! 1½, any other card ½: 91 in all), as whole numbers of halves.
//!
//! The readings it makes where the rulebook is short, each written down in the ruleset files too:
//! - "le ½ point va toujours au camp gagnant": the attack's points, when not whole, are rounded in
//!   favour of the side that wins (the rulebook says it at three and five players; at four, the same
//!   rounding gives its worked example of a chelem with the defence's Excuse, 87 points).
//! - The Excuse played to the last trick "change de camp" unless its side makes a chelem; the side that
//!   receives it then hands the other a ½-point card, as in the ordinary exchange (TarotClub's reading,
//!   RULES.md FFT.OFF.5).
//! - The Excuse of a side that takes no trick "compte pour 4 points" (the rulebook's chelem example, where
//!   the taker then makes 87): the ½ point it would have given goes to the other side all the same.
//! - With the Excuse played to the last trick (led or not) by a side that won every trick before, the
//!   Excuse takes that trick (seed 003; seed 000 says "leads", the FFT only "la jouer en dernier"), and
//!   the Petit counts au bout in the trick before if it won that trick (seeds 000 and 003).

use std::collections::BTreeMap;

use tarot_engine::{Event, GameRecord};

/// A card as the rulebook names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    Trump(u8),
    Excuse,
    /// A suit letter (S H D C) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
    Suited(char, u8),
}

pub const PETIT: Card = Card::Trump(1);

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Excuse;
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    pub fn is_oudler(self) -> bool {
        matches!(self, Card::Excuse | Card::Trump(1) | Card::Trump(21))
    }

    /// Card points in halves.
    pub fn halves(self) -> i64 {
        match self {
            c if c.is_oudler() => 9,
            Card::Suited(_, 14) => 9,
            Card::Suited(_, 13) => 7,
            Card::Suited(_, 12) => 5,
            Card::Suited(_, 11) => 3,
            _ => 1,
        }
    }
}

/// What one game came to, with the facts the comparison tallies.
#[derive(Debug, Default)]
pub struct Scored {
    /// Every player's score, in halves (a share in halves at five can leave one).
    pub scores: BTreeMap<String, i64>,
    pub contract: String,
    pub players: usize,
    pub made: bool,
    /// The attack's card points, in halves, before rounding.
    pub points_halves: i64,
    pub oudlers: usize,
    pub hand_score: i64,
    pub alone: bool,
    /// The card the taker called, at five.
    pub called: Option<Card>,
    pub chelem_announced: bool,
    pub attack_slam: bool,
    pub defence_slam: bool,
    /// The sizes of the poignées shown (1 single, 2 double, 3 triple), by the attack or the defence.
    pub poignees: Vec<(bool, usize)>,
    /// +1 the attack's petit au bout, -1 the defence's, 0 none.
    pub petit_au_bout: i64,
    pub petit_au_bout_before_last: bool,
    /// The Petit in the trick before an Excuse chelem, which it did not win.
    pub petit_lost_before_last: bool,
    /// The Excuse in the last trick: led, and whether it took the trick.
    pub excuse_last: Option<(bool, bool)>,
    /// The Excuse's side never took a trick, so it gave no card for it.
    pub excuse_unpaid: bool,
}

/// Mistakes the engine made before issue 14 was fixed, which the scorer can make too: the comparison
/// shows that it would have caught each of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mistakes {
    /// Item 1: at garde contre the dog goes to the first seat that is not the taker's, partner or not.
    pub dog_to_first_seat: bool,
    /// Item 3: only an Excuse led to the last trick takes it, and any other changes side.
    pub excuse_played_last_changes_side: bool,
    /// Item 4: in an Excuse chelem, a Petit anywhere in the trick before counts au bout.
    pub petit_before_last_not_won: bool,
}

/// The variants of the rules that the rulesets of the family offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Garde contre multiplied by 6 (FFT) or 8 (seed 003's house rule).
    pub garde_contre: i64,
    /// The poignées' values: 20/30/40 (FFT) or 20/40/60 (seed 003).
    pub poignee_values: [i64; 3],
    /// Seed 000's Excuse: in the last trick it goes to the side that takes the trick, and it takes the
    /// last trick only when led there by a side that won every trick before.
    pub excuse_to_winner: bool,
    /// At five, the taker and his partner share the attack's gain in halves (seed 000), not 2/3 and 1/3.
    pub halves: bool,
}

pub const FFT: Variant = Variant { garde_contre: 6, poignee_values: [20, 30, 40], excuse_to_winner: false, halves: false };

/// Scores a finished FFT game (3, 4 or 5 players, or 4 of 5 with the dealer sitting out) from its
/// record alone.
pub fn score(rec: &GameRecord, v: Variant) -> Scored {
    score_with(rec, v, Mistakes::default())
}

/// Scores a game making the mistakes `m`.
pub fn score_with(rec: &GameRecord, v: Variant, m: Mistakes) -> Scored {
    // The players dealt a hand; a dealer who sits out scores nothing.
    let dealt: Vec<&str> = rec.events.iter().find_map(|e| if let Event::Deal { hands, .. } = e { Some(hands.keys().map(|k| k.as_str()).collect()) } else { None }).expect("a deal");
    let names: Vec<String> = rec.players.iter().filter(|p| dealt.contains(&p.as_str())).cloned().collect();
    let n = names.len();
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let cards = |v: &[tarot_engine::Text]| v.iter().map(|c| Card::parse(c)).collect::<Vec<Card>>();

    let mut hands: Vec<Vec<Card>> = vec![vec![]; n];
    let mut dog: Vec<Card> = vec![];
    let mut contract: Option<(usize, String)> = None;
    let mut called: Option<Card> = None;
    let mut discard: Vec<Card> = vec![];
    let mut chelem_announced = false;
    let mut poignees: Vec<(usize, usize)> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { hands: h, dog: d, .. } => {
                for (p, cs) in h {
                    hands[seat(p)] = cards(cs);
                }
                dog = cards(d);
            }
            // Each player speaks once and may only outbid: the last contract bid is the highest.
            Event::Bid { player, bid } if bid != "pass" => contract = Some((seat(player), bid.to_string())),
            Event::Bid { .. } => {}
            Event::Call { card, .. } => called = Some(Card::parse(card)),
            Event::Discard { cards: cs, .. } => discard = cards(cs),
            Event::Declare { declaration, .. } if declaration == "chelem" => chelem_announced = true,
            Event::Declare { player, declaration, cards: cs } if declaration == "poignee" => poignees.push((seat(player), cs.len())),
            Event::Declare { declaration, .. } => panic!("unknown declaration {declaration}"),
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            Event::Take { .. } => panic!("the FFT shows no talon in packets"),
            Event::Buy { .. } => panic!("the FFT buys no card"),
            Event::SitOut { .. } => panic!("nobody sits out by choice at the FFT"),
        }
    }
    let (taker, contract) = contract.expect("a taker");
    // "Si la carte appelée est au Chien ou si le preneur s'est appelé, alors le preneur joue seul."
    let partner = called.and_then(|c| (0..n).find(|&p| hands[p].contains(&c))).filter(|&p| p != taker);
    let attack = |p: usize| p == taker || Some(p) == partner;
    let multiplier = match contract.as_str() {
        "prise" => 1,
        "garde" => 2,
        "garde-sans" => 4,
        "garde-contre" => v.garde_contre,
        c => panic!("contract {c}"),
    };

    // The tricks, with their winners: the highest trump, else the highest card of the suit led (the
    // first card that is not the Excuse). The Excuse takes no trick, but the last one when it is played
    // there by a side that has won every trick before ("sauf en cas de Chelem"; seed 003: "The Fool
    // never wins the trick, unless it is played to the last trick and the side playing it has taken
    // every previous trick").
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(n).collect();
    assert!(tricks.iter().all(|t| t.len() == n), "an unfinished trick");
    let last = tricks.len() - 1;
    let mut winners: Vec<usize> = vec![];
    let mut excuse_took_last = false;
    for (i, t) in tricks.iter().enumerate() {
        let mut best: Option<(usize, Card)> = None;
        for &(p, c) in t.iter() {
            let beats = match (best.map(|b| b.1), c) {
                (_, Card::Excuse) => false,
                (None, _) => true,
                (Some(Card::Trump(b)), Card::Trump(x)) => x > b,
                (Some(Card::Trump(_)), _) => false,
                (Some(_), Card::Trump(_)) => true,
                (Some(Card::Suited(bs, br)), Card::Suited(s, r)) => s == bs && r > br,
                (Some(Card::Excuse), _) => unreachable!(),
            };
            if beats {
                best = Some((p, c));
            }
        }
        let mut w = best.expect("a trick has a card that is not the Excuse").0;
        if let Some(&(p, _)) = t.iter().find(|&&(_, c)| c == Card::Excuse) {
            let led = t[0].1 == Card::Excuse;
            if i == last && winners.iter().all(|&x| attack(x) == attack(p)) && (led || !(m.excuse_played_last_changes_side || v.excuse_to_winner)) {
                w = p;
                excuse_took_last = true;
            }
        }
        winners.push(w);
    }
    let attack_tricks = winners.iter().filter(|&&w| attack(w)).count();
    let attack_slam = attack_tricks == tricks.len();
    let defence_slam = attack_tricks == 0;

    // Card points: each trick to its winner's side; the Excuse to its owner's side, who gives a ½-point
    // card for it to the side that took the trick.
    let mut attack_halves = 0i64;
    let mut attack_cards: Vec<Card> = vec![];
    let mut excuse: Option<(usize, usize)> = None;
    for (i, t) in tricks.iter().enumerate() {
        for &(p, c) in t.iter() {
            if c == Card::Excuse {
                excuse = Some((i, p));
            } else if attack(winners[i]) {
                attack_halves += c.halves();
                attack_cards.push(c);
            }
        }
    }
    let mut excuse_unpaid = false;
    let mut excuse_last = None;
    if let Some((i, p)) = excuse {
        let side = attack(p);
        let slam_of_its_side = if side { attack_slam } else { defence_slam };
        // "l'Excuse ne doit pas être jouée à la dernière levée, sauf en cas de Chelem, sinon elle change de camp"
        // The engine's old mistake (item 3): an Excuse played to the last trick without taking it
        // changed side even when its side took that trick too.
        let slam_of_its_side = slam_of_its_side && (excuse_took_last || !m.excuse_played_last_changes_side);
        let owner = match (i == last && !slam_of_its_side, v.excuse_to_winner) {
            (false, _) => side,
            (true, false) => !side,
            // Seed 000: "unless the excuse is played in the last trick, then the excuse is taken by the
            // team who wins the trick".
            (true, true) => attack(winners[i]),
        };
        if i == last {
            excuse_last = Some((tricks[i][0].1 == Card::Excuse, excuse_took_last));
        }
        let took = attack(winners[i]);
        let owner_took_a_trick = if owner { attack_tricks > 0 } else { attack_tricks < tricks.len() };
        if owner {
            attack_halves += 9;
            attack_cards.push(Card::Excuse);
        }
        if owner != took {
            attack_halves += if owner { -1 } else { 1 };
            excuse_unpaid = !owner_took_a_trick;
        }
    }
    // The dog: the taker's discard (prise, garde); the dog itself, unseen (garde sans for the taker,
    // garde contre for the defence).
    let set_aside: &[Card] = match contract.as_str() {
        "prise" | "garde" => &discard,
        "garde-sans" => &dog,
        _ => &[],
    };
    attack_halves += set_aside.iter().map(|c| c.halves()).sum::<i64>();
    attack_cards.extend_from_slice(set_aside);
    if m.dog_to_first_seat && contract == "garde-contre" && (0..n).find(|&p| p != taker).is_some_and(attack) {
        attack_halves += dog.iter().map(|c| c.halves()).sum::<i64>();
        attack_cards.extend_from_slice(&dog);
    }

    let oudlers = attack_cards.iter().filter(|c| c.is_oudler()).count();
    let target = [56, 51, 41, 36][oudlers];
    let made = attack_halves >= 2 * target;
    let sign = if made { 1 } else { -1 };
    // The half point to the winning side: the margin rounded up.
    let margin = ((attack_halves - 2 * target).abs() + 1) / 2;

    // Petit au bout: the Petit in the last trick, 10 to the side that takes it; with the Excuse taking
    // the last trick of a chelem, in the trick before if it won that trick.
    let has_petit = |t: &[(usize, Card)]| t.iter().any(|&(_, c)| c == PETIT);
    let mut petit_au_bout_before_last = false;
    let petit_lost_before_last = excuse_took_last && last > 0 && tricks[last - 1].iter().any(|&(p, c)| c == PETIT && p != winners[last - 1]);
    let petit_au_bout = if has_petit(tricks[last]) {
        if attack(winners[last]) {
            1
        } else {
            -1
        }
    } else if excuse_took_last && last > 0 && tricks[last - 1].iter().any(|&(p, c)| c == PETIT && (p == winners[last - 1] || m.petit_before_last_not_won)) {
        petit_au_bout_before_last = true;
        if attack(winners[last - 1]) {
            1
        } else {
            -1
        }
    } else {
        0
    };

    // Poignées: 20, 30, 40 to the side that wins, whoever showed it.
    let sizes: [usize; 3] = match n {
        3 => [13, 15, 18],
        4 => [10, 13, 15],
        5 => [8, 10, 13],
        _ => panic!("{n} players"),
    };
    let shown: Vec<(bool, usize)> = poignees.iter().map(|&(p, k)| (attack(p), 1 + sizes.iter().position(|&s| s == k).unwrap_or_else(|| panic!("a poignée of {k}")))).collect();
    let poignee: i64 = shown.iter().map(|&(_, level)| v.poignee_values[level - 1]).sum();

    // Chelem: announced and made 400, made unannounced 200, announced and failed -200; the defence's
    // chelem 200 to each defender.
    let chelem = if chelem_announced {
        if attack_slam {
            400
        } else {
            -200
        }
    } else if attack_slam {
        200
    } else if defence_slam {
        -200
    } else {
        0
    };

    let hand_score = sign * (25 + margin) * multiplier + 10 * petit_au_bout * multiplier + sign * poignee + chelem;
    // Each defender pays the hand score; the attack receives what they pay: the taker all of it, or,
    // with a partner at five, the taker two thirds and the partner one third.
    let defenders = (0..n).filter(|&p| !attack(p)).count() as i64;
    // In halves, for the share in halves at five.
    let mut scores: BTreeMap<String, i64> = rec.players.iter().map(|p| (p.clone(), 0)).collect();
    for (p, name) in names.iter().enumerate() {
        let s = if !attack(p) {
            -2 * hand_score
        } else if partner.is_none() {
            2 * defenders * hand_score
        } else if v.halves {
            defenders * hand_score
        } else if p == taker {
            2 * defenders * hand_score * 2 / 3
        } else {
            2 * defenders * hand_score / 3
        };
        scores.insert(name.clone(), s);
    }
    Scored {
        scores,
        contract,
        players: n,
        made,
        points_halves: attack_halves,
        oudlers,
        hand_score,
        alone: partner.is_none(),
        called,
        chelem_announced,
        attack_slam,
        defence_slam,
        poignees: shown,
        petit_au_bout,
        petit_au_bout_before_last,
        petit_lost_before_last,
        excuse_last,
        excuse_unpaid,
    }
}
