//! A second scorer for Tapp Tarock, written by hand from the sources the rule file names, with no rule
//! file and nothing from the engine but the record's types: the Tower Grove summary of Babsch (TG,
//! "Tapp Tarock", three players, read whole), the oldcardgames rules (OCG: the count in threes, the
//! play), the Tarock app specification that quotes the Austrian sources (HT: its §5.3 and §7 on the
//! honours and the payments, after the 1821 booklet and the English Wikipedia's rules) and Wikipedia's
//! infobox (W: the ranks). It reads a finished deal's events, plays the tricks out itself, counts both
//! sides' cards and works out every player's score, so that the engine can be checked against it.
//!
//! What the sources say, and this scorer does:
//! - The declarer alone against the other two (TG "Three Player"); 22 tarocks, the Sküs the highest
//!   ("the Sküs as 22nd and highest trump", W); the black suits K Q C J 10 9 8 7, the red K Q C J 1 2 3
//!   4 (W). Follow suit, else play a tarock, else anything (OCG "Following Suit"): the highest tarock
//!   takes the trick, else the highest card of the suit led. The winner of a trick leads the next; the
//!   first is led by the declarer (OCG "Trick Taking"), or with the option `lead = "forehand"` by
//!   forehand, the first to bid.
//! - Values: kings and the trull (Sküs, Mond, Pagat) 5, queens 4, knights 3, jacks 2, the rest 1,
//!   "counted in threes", each three its values less two (OCG "Trick Points"): a pile of n cards (a
//!   multiple of three) with values F counts F - 2n/3, 70 to the pack.
//! - "Threes 3: Take either set of three cards, add them to your hand, discard three, and take over
//!   half the points. Solo 8: Leave the Talon unseen, and take over half the points" (TG): the declarer
//!   wins the game with 36 of the 70. His discard counts for him; the half he leaves, and in a Solo the
//!   whole talon, for the defenders (TG, OCG "Exchanging Cards": the Austrian talon).
//! - Bonuses (TG): Pagat Ultimo 4, 8 in a Solo: "Take the last trick with the I"; "The Pagat must win
//!   the Trick to score the bonus: if the Pagat is taken by one's partner on the last trick, the bonus
//!   is deemed to have failed, and the opponents score". Slam 12, "Take every trick (Replaces the Game
//!   score)". Trull 3 "Be dealt all 3", Heads 1 "Be dealt 2 of the 3", Kings 3 "Be dealt all 4 Kings".
//!   "Pagat Ultimo or Slam may be announced to double their value won or lost; Pagat Ultimo or the Game
//!   may be Doubled and Redoubled as well" (Kontra x2, Rekontra x4).
//! - "If won, the value (as appropriately doubled) is given to the winner; if lost, the value is given
//!   to each opponent" (TG): each item is paid by each opponent ("The game value or bonus is paid by each
//!   defender to the declarer if the latter won it. Otherwise the declarer pays it to each defender",
//!   English Wikipedia as HT §7.1 quotes it). The game, the Slam and the Ultimo are the sides'. The
//!   honours are their holder's alone: "+3 an den Inhaber, von jedem anderen" (HT §7.3: to the holder,
//!   from each other player; its example 7, a defender's four kings, paid by the declarer and by the
//!   other defender), "so gereichen sie dem jedesmahligen Inhaber im Aufschreiben allein zum Vortheile"
//!   (ATT1821 §2 as HT §5.3 quotes it), as TG's "given to the winner" writes them to him alone.
//!
//! The readings it makes where the sources are short:
//! - The honours are those a player claims (TG: they are "claimed"; the record's `declare` events),
//!   checked here against the hand he was dealt; a player dealt them who does not claim them scores
//!   nothing for them.
//! - The Ultimo is the side's of the player of the Pagat. A Pagat played to the last trick and beaten is
//!   a lost Ultimo even when silent ("won or lost", TG); an announced Ultimo whose Pagat is played before
//!   the last trick is lost. A silent Pagat played earlier attempts nothing.
//! - An announced Slam not made is lost (24 to each defender), and the game is scored as well. The
//!   Kontra on the game does not reach the Slam that replaces it (TG names only the Ultimo and the Game
//!   as doubled). A Slam by the defenders is the declarer's game lost, nothing more.

use std::collections::BTreeMap;

use tarot_engine::{Event, GameRecord, Outcome, Q};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// T1 (the Pagat) to T21 (the Mond), and T22 the Sküs.
    Trump(u8),
    /// A suit letter (S H D C) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
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

    /// Kings and the trull 5, queens 4, knights 3, jacks 2, the rest 1.
    pub fn value(self) -> i64 {
        match self {
            Card::Trump(1 | 21 | 22) | Card::Suited(_, 14) => 5,
            Card::Suited(_, 13) => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 1,
        }
    }

    pub fn is_trull(self) -> bool {
        matches!(self, Card::Trump(1 | 21 | 22))
    }

    pub fn is_king(self) -> bool {
        matches!(self, Card::Suited(_, 14))
    }

    /// Its strength within its suit: the red numerals from the 1 (highest) to the 4.
    fn strength(self) -> u8 {
        match self {
            Card::Suited('H' | 'D', r) if r <= 10 => 11 - r,
            Card::Suited(_, r) | Card::Trump(r) => r,
        }
    }
}

/// A pile counted in threes: its values less two for each three.
pub fn count(cards: &[Card]) -> i64 {
    assert_eq!(cards.len() % 3, 0, "a pile of whole threes");
    cards.iter().map(|c| c.value()).sum::<i64>() - 2 * (cards.len() / 3) as i64
}

/// What one deal came to, with the facts the comparison tallies.
#[derive(Debug, Default)]
pub struct Scored {
    pub scores: BTreeMap<String, i64>,
    pub contract: String,
    /// The declarer's card points (his tricks and his discard).
    pub points: i64,
    pub made: bool,
    pub declarer_tricks: usize,
    pub tricks: usize,
    pub slam_announced: bool,
    pub slam_made: bool,
    /// The Pagat Ultimo: the declarer's side's (true) or the defenders', won, announced.
    pub ultimo: Option<(bool, bool, bool)>,
    /// An announced Ultimo whose Pagat was played before the last trick.
    pub ultimo_driven_out: bool,
    /// Kontra on the game and on the Ultimo: 1, 2 (Kontra) or 4 (Rekontra).
    pub kontra: i64,
    pub kontra_ultimo: i64,
    /// The honours claimed: their name and whether the declarer claimed them.
    pub honours: Vec<(&'static str, bool)>,
    /// Honours dealt to a player who did not claim them.
    pub honours_unclaimed: usize,
    /// A trick led by another player than the one who should lead it.
    pub wrong_leader: Option<String>,
    /// Point Tarock's announcements and their Kontras (`mit40`, `kontra45`, ...), for `point_tarock` to
    /// score: a Tapp Tarock record has none.
    pub point_declarations: Vec<String>,
}

/// Scores a finished deal of Tapp Tarock from its record alone. `forehand_leads`: the first trick is led
/// by forehand (the first to bid), not the declarer.
pub fn score(rec: &GameRecord, forehand_leads: bool) -> Scored {
    score_with(rec, forehand_leads, false)
}

/// `score`, for Tapp Tarock or (`point`) for Point Tarock, "identical to Tapp" but for its bids (the
/// Lower, 4, and the Upper, 5, either half of the talon taken as in the Three) and its point
/// announcements, which the caller scores from `point_declarations` and `points`.
pub fn score_with(rec: &GameRecord, forehand_leads: bool, point: bool) -> Scored {
    let names = &rec.players;
    assert_eq!(names.len(), 3, "three play");
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));

    let mut s = Scored { kontra: 1, kontra_ultimo: 1, ..Scored::default() };
    let mut hands: Vec<Vec<Card>> = vec![vec![]; 3];
    let mut talon: Vec<Card> = vec![];
    let mut taken: Vec<Card> = vec![];
    let mut discard: Vec<Card> = vec![];
    let mut declarer: Option<usize> = None;
    let mut forehand: Option<usize> = None;
    let mut announced_ultimo: Option<usize> = None;
    let mut claims: Vec<(usize, String)> = vec![];
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
                forehand.get_or_insert(seat(player));
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
            Event::Declare { player, declaration, .. } => match declaration.as_ref() {
                "ultimo" => announced_ultimo = Some(seat(player)),
                "slam" => s.slam_announced = true,
                "kontra" => s.kontra = s.kontra.max(2),
                "rekontra" => s.kontra = 4,
                "kontra_ultimo" => s.kontra_ultimo = s.kontra_ultimo.max(2),
                "rekontra_ultimo" => s.kontra_ultimo = 4,
                "trull_bonus" | "heads" | "four_kings" => claims.push((seat(player), declaration.to_string())),
                d if point && (d.starts_with("mit") || d.starts_with("kontra")) => s.point_declarations.push(d.to_string()),
                other => panic!("Tapp Tarock has no declaration {other}"),
            },
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Tapp Tarock has no such event: {other:?}"),
        }
    }
    let declarer = declarer.expect("a declarer");
    let attack = |p: usize| p == declarer;
    let (value, pagat) = match s.contract.as_str() {
        "three" => (3, 4),
        "solo" => (8, 8),
        "unterer" if point => (4, 4),
        "oberer" if point => (5, 4),
        c => panic!("contract {c}"),
    };
    // The talon: in a Three (and Point Tarock's Lower and Upper) one half to the declarer, the other to
    // the defenders; in a Solo all of it to
    // the defenders.
    assert_eq!(talon.len(), 6, "a talon of six");
    let rest: Vec<Card> = if s.contract != "solo" {
        let mut half = taken.clone();
        half.sort_by_key(|c| format!("{c:?}"));
        let mut first = talon[..3].to_vec();
        first.sort_by_key(|c| format!("{c:?}"));
        let mut second = talon[3..].to_vec();
        second.sort_by_key(|c| format!("{c:?}"));
        assert!(half == first || half == second, "the declarer takes one half of the talon");
        assert_eq!(discard.len(), 3, "and lays away three");
        talon.iter().copied().filter(|c| !taken.contains(c)).collect()
    } else {
        assert!(taken.is_empty() && discard.is_empty(), "a Solo is played without the talon");
        talon.clone()
    };

    // The tricks.
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(3).collect();
    assert!(tricks.len() == 16 && tricks.iter().all(|t| t.len() == 3), "16 tricks of three");
    s.tricks = tricks.len();
    let mut winners: Vec<usize> = vec![];
    for (i, t) in tricks.iter().enumerate() {
        let expected = if i > 0 {
            winners[i - 1]
        } else if forehand_leads {
            forehand.unwrap()
        } else {
            declarer
        };
        if t[0].0 != expected && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[expected]));
        }
        let beats = |c: Card, best: Card| match (c, best) {
            (Card::Trump(x), Card::Trump(b)) => x > b,
            (Card::Trump(_), _) => true,
            (_, Card::Trump(_)) => false,
            (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && c.strength() > best.strength(),
        };
        let mut best = t[0];
        for &(p, c) in t.iter() {
            if beats(c, best.1) {
                best = (p, c);
            }
        }
        winners.push(best.0);
    }
    s.declarer_tricks = winners.iter().filter(|&&w| attack(w)).count();

    // Card points.
    let mut piles: [Vec<Card>; 2] = [discard.clone(), rest];
    for (i, t) in tricks.iter().enumerate() {
        piles[if attack(winners[i]) { 0 } else { 1 }].extend(t.iter().map(|&(_, c)| c));
    }
    s.points = count(&piles[0]);
    assert_eq!(s.points + count(&piles[1]), 70, "the pack counts 70");
    s.made = s.points >= 36;
    s.slam_made = s.declarer_tricks == tricks.len();

    // The sides' items, as the declarer wins (+) or pays (-) each of them to each defender.
    let mut side = 0i64;
    if !s.slam_made {
        side += if s.made { value } else { -value } * s.kontra;
    }
    if s.slam_made {
        side += if s.slam_announced { 24 } else { 12 };
    } else if s.slam_announced {
        side -= 24;
    }
    let last = tricks.len() - 1;
    let pagat_trick = tricks.iter().position(|t| t.iter().any(|&(_, c)| c == PAGAT));
    let pagat_player = pagat_trick.map(|i| tricks[i].iter().find(|&&(_, c)| c == PAGAT).unwrap().0);
    if let Some(p) = announced_ultimo {
        assert!(hands[p].contains(&PAGAT) || taken.contains(&PAGAT), "the Ultimo is announced by the holder of the Pagat");
        assert_eq!(pagat_player, Some(p), "the Pagat is played by its announcer");
    }
    if let (Some(i), Some(p)) = (pagat_trick, pagat_player) {
        let announced = announced_ultimo.is_some();
        if i == last || announced {
            let won = i == last && winners[i] == p;
            s.ultimo_driven_out = announced && i != last;
            s.ultimo = Some((attack(p), won, announced));
            let amount = pagat * if announced { 2 } else { 1 } * s.kontra_ultimo;
            side += if won == attack(p) { amount } else { -amount };
        }
    }
    let mut score = [0i64; 3];
    for (p, x) in score.iter_mut().enumerate() {
        *x = if attack(p) { 2 * side } else { -side };
    }

    // The honours, each claimed by the player dealt them and paid to him by each other player.
    for (p, name) in &claims {
        let trull = hands[*p].iter().filter(|c| c.is_trull()).count();
        let kings = hands[*p].iter().filter(|c| c.is_king()).count();
        let (label, v, holds) = match name.as_str() {
            "trull_bonus" => ("Trull", 3, trull == 3),
            "heads" => ("Heads", 1, trull == 2),
            "four_kings" => ("Kings", 3, kings == 4),
            _ => unreachable!(),
        };
        assert!(holds, "{} claims {label} without being dealt it", names[*p]);
        s.honours.push((label, attack(*p)));
        for (q, x) in score.iter_mut().enumerate() {
            *x += if q == *p { 2 * v } else { -v };
        }
    }
    for (p, hand) in hands.iter().enumerate() {
        let trull = hand.iter().filter(|c| c.is_trull()).count();
        let kings = hand.iter().filter(|c| c.is_king()).count();
        let dealt = [("trull_bonus", trull == 3), ("heads", trull == 2), ("four_kings", kings == 4)];
        s.honours_unclaimed += dealt.iter().filter(|(n, has)| *has && !claims.contains(&(p, n.to_string()))).count();
    }
    for (p, name) in names.iter().enumerate() {
        s.scores.insert(name.clone(), score[p]);
    }
    s
}

/// Where the engine's outcome differs from `mine`: the reason the scorer gave up on the game (a
/// leader it did not expect), or the players' scores and the declarer's card points both ways,
/// in the words of a report line (`what` says which game: seed, steering, contract).
pub fn differs(outcome: &Outcome, mine: &Scored, what: &str) -> Option<String> {
    if let Some(wrong) = &mine.wrong_leader {
        return Some(format!("{what}: {wrong}"));
    }
    let engine: BTreeMap<String, Q> = outcome.players.iter().map(|p| (p.player.to_string(), p.score)).collect();
    let expected: BTreeMap<String, Q> = mine.scores.iter().map(|(k, &x)| (k.clone(), Q::int(x))).collect();
    let declarer = outcome.taker.as_deref().expect("a declarer");
    let engine_points = outcome.players.iter().find(|p| &*p.player == declarer).unwrap().card_points;
    (engine != expected || engine_points != Q::int(mine.points)).then(|| {
        format!(
            "{what}: engine {:?} with {engine_points} card points, sources {:?} with {}",
            engine.values().map(|q| q.to_string()).collect::<Vec<_>>(),
            expected.values().map(|q| q.to_string()).collect::<Vec<_>>(),
            mine.points,
        )
    })
}
