//! A second Dreierles scorer, written from pagat's page ("Dreierles: A card game from central Baden",
//! McLeod and Martin, updated 16 November 2024), not from the rule file or the engine: it reads a
//! record's events, plays the tricks out by the page's rules, counts the piles in threes and scores by
//! the page's table of game points, the knocks, the Pfeife, the combinations and the Räuber. At a
//! table of four the dealer sits out ("Players and Objective": "players take turns to deal and sit
//! out") and pays or receives "the same amount as the declarer's active opponents" ("Scoring").

use std::collections::BTreeMap;

use tarot_engine::{Event, GameRecord, Q};

use super::{card_code, Code};

/// A card: a trump 1 to 22 (the Stiess, `EX` or `T22`), or a suit letter and a rank (K 14, Q 13, C 12,
/// J 11, else the number).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Card {
    Trump(u8),
    Suit(char, u8),
}

impl Card {
    pub fn parse(code: &str) -> Card {
        if code == "EX" {
            return Card::Trump(22);
        }
        match card_code(code) {
            Code::Trump(n) => Card::Trump(n),
            Code::Suited(s, r) => Card::Suit(s, r),
        }
    }

    /// "Stiess, 21, 1, Kings: 5 each; Queens 4; Cavaliers 3; Jacks 2; Trumps 2-20 and empty suit cards 1."
    fn value(self) -> i64 {
        match self {
            Card::Trump(1 | 21 | 22) | Card::Suit(_, 14) => 5,
            Card::Suit(_, 13) => 4,
            Card::Suit(_, 12) => 3,
            Card::Suit(_, 11) => 2,
            _ => 1,
        }
    }

    /// Strength within its suit: the courts above the empty cards; the black suits' 10 high, the red
    /// suits' 1 high ("in the red suits the order of the empty cards is reversed").
    fn strength(self) -> u8 {
        match self {
            Card::Trump(n) => n,
            Card::Suit(_, r) if r >= 11 => r,
            Card::Suit('H' | 'D', n) => 5 - n,
            Card::Suit(_, n) => n,
        }
    }
}

/// "The cards are counted in groups of three, and two points are subtracted from the value of each
/// group of 3 cards. If one or two cards are left over ... one point is subtracted from this group."
pub fn count(cards: &[Card]) -> i64 {
    let sum: i64 = cards.iter().map(|c| c.value()).sum();
    let n = cards.len() as i64;
    sum - 2 * (n / 3) - if n % 3 > 0 { 1 } else { 0 }
}

/// The page's table of the declarer's game points by his card points, before the bid's factor:
/// (lowest, highest, score).
const TABLE: &[(i64, i64, i64)] = &[
    (65, 69, 7),
    (60, 64, 6),
    (55, 59, 5),
    (50, 54, 4),
    (45, 49, 3),
    (40, 44, 2),
    (36, 39, 1),
    (31, 35, -1),
    (26, 30, -2),
    (21, 25, -3),
    (16, 20, -4),
    (11, 15, -5),
    (6, 10, -6),
    (1, 5, -7),
];

/// The table's cell for `points` card points in contract `factor` (x1 Dreier ... x4 Solo). The row for
/// 0 reads "impossible" for the Dreier and the Zweier, -24 (Einer) and -32 (Solo).
pub fn table(points: i64, factor: i64) -> i64 {
    if points == 0 {
        assert!(factor >= 3, "0 card points is impossible in a Dreier or a Zweier");
        return -8 * factor;
    }
    let (_, _, s) = TABLE.iter().find(|&&(lo, hi, _)| (lo..=hi).contains(&points)).unwrap_or_else(|| panic!("{points} card points"));
    s * factor
}

/// What the scorer found in a game.
#[derive(Default, Debug)]
pub struct Scored {
    pub contract: String,
    pub declarer: Option<String>,
    /// The declarer's card points (the tricks before a forced Pfeife, with his discard).
    pub points: i64,
    pub knocks: usize,
    /// "announced won", "announced lost", "announced forced out", "won", "lost", or "" (no Pfeife in
    /// the last trick from the declarer).
    pub pfeife: &'static str,
    pub claims: Vec<String>,
    /// Räuber: how many share the most card points.
    pub tied: usize,
    /// Each player's score, the dealer who sits out at four included (a third of a point where three
    /// share a Räuber's payment to him).
    pub scores: BTreeMap<String, Q>,
}

pub fn score(rec: &GameRecord) -> Scored {
    let names: Vec<String> = rec.players.clone();
    let n = names.len();
    let at = |name: &str| names.iter().position(|p| p == name).unwrap_or_else(|| panic!("player {name}"));
    let dealer = at(&rec.dealer);
    // "There are three active players ... At a four player table players take turns to deal and sit
    // out": at four the dealer is dealt nothing and plays no card.
    let sitter = (n == 4).then_some(dealer);
    let active = n - sitter.is_some() as usize;
    // "The direction of play is anticlockwise": a record lists each player before the one to his right.
    let next = |p: usize| (p + 1) % n;
    let first_hand = next(dealer);
    let mut s = Scored::default();
    let mut hands: Vec<Vec<Card>> = vec![vec![]; n];
    let mut discard: Vec<Card> = vec![];
    let (mut bid, mut declarer): (Option<&'static str>, Option<usize>) = (None, None);
    let mut declared: Vec<(usize, String)> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { hands: dealt, .. } => {
                for (p, cards) in dealt {
                    hands[at(p)] = cards.iter().map(|c| Card::parse(c)).collect();
                }
            }
            // "each bid must be higher than the last ... The last and highest bidder is the declarer."
            Event::Bid { player, bid: b } if b.as_str() != "pass" => {
                bid = Some(match b.as_str() {
                    "dreier" => "dreier",
                    "zweier" => "zweier",
                    "einer" => "einer",
                    "solo" => "solo",
                    other => panic!("bid {other}"),
                });
                declarer = Some(at(player));
            }
            Event::Take { player, cards } => hands[at(player)].extend(cards.iter().map(|c| Card::parse(c))),
            Event::Discard { player, cards } => {
                let cards: Vec<Card> = cards.iter().map(|c| Card::parse(c)).collect();
                hands[at(player)].retain(|c| !cards.contains(c));
                discard.extend(cards);
            }
            Event::Declare { player, declaration, .. } => declared.push((at(player), declaration.to_string())),
            Event::Play { player, card } => plays.push((at(player), Card::parse(card))),
            _ => {}
        }
    }
    let factor = match bid {
        Some("dreier") => 1,
        Some("zweier") => 2,
        Some("einer") => 3,
        Some("solo") => 4,
        _ => 0,
    };
    s.contract = bid.unwrap_or("rauber").into();
    s.declarer = declarer.map(|d| names[d].clone());
    let made = |d: &str| declared.iter().any(|(_, x)| x == d);
    // The tricks: the declarer leads (in a Räuber the player to dealer's right); the highest trump, or
    // the highest card of the suit led, wins, and its winner leads the next.
    let mut piles: Vec<Vec<Card>> = vec![vec![]; n];
    let mut leader = declarer.unwrap_or(first_hand);
    let mut pfeife_trick = None;
    let mut last = None;
    for (t, trick) in plays.chunks(active).enumerate() {
        assert_eq!(trick[0].0, leader, "trick {} led by {}", t + 1, names[trick[0].0]);
        let winner = winner_of(trick);
        if trick.iter().any(|&(p, c)| Some(p) == declarer && c == Card::Trump(1)) {
            pfeife_trick = Some(t);
        }
        piles[winner].extend(trick.iter().map(|(_, c)| *c));
        last = Some((t, trick.to_vec(), winner));
        leader = winner;
    }
    let tricks = plays.len() / active;
    let knock_factor = |k: usize| 1i64 << k;
    let mut pay = vec![Q::ZERO; n];
    let mut settle = |from: usize, to: usize, amount: Q| {
        pay[from] = pay[from] - amount;
        pay[to] = pay[to] + amount;
    };
    // Combinations: "1 game point for the holder, paid by each of the other players"; "Combinations
    // claimed by an opponent are paid for by all the other players at the table ... at a 4-player
    // table also by the dealer".
    for (p, d) in &declared {
        if ["zehn_druck", "zehn_druck_claimed", "drull", "vier_koenige"].contains(&d.as_str()) {
            s.claims.push(d.clone());
            for q in (0..n).filter(|q| q != p) {
                settle(q, *p, Q::ONE);
            }
        }
    }
    match declarer {
        Some(d) => {
            // "The cards discarded by the declarer are counted with the declarer's tricks"; a Pfeife
            // raus forced out early forfeits "the trick to which the Pfeife is played and all
            // subsequent tricks" to the opponents.
            let forced = made("pfeife_raus") && pfeife_trick.is_some_and(|t| t + 1 < 16);
            let mut mine = discard.clone();
            if forced {
                for trick in plays.chunks(active).take(pfeife_trick.unwrap()) {
                    if winner_of(trick) == d {
                        mine.extend(trick.iter().map(|(_, c)| *c));
                    }
                }
            } else {
                mine.extend(piles[d].iter().copied());
            }
            s.points = count(&mine);
            s.knocks = ["kontra", "rekontra", "kontra3", "rekontra4"].iter().filter(|k| made(k)).count();
            let game = table(s.points, factor) * knock_factor(s.knocks);
            // The Pfeife in the last trick, the declarer's only; laid out, 2; not touched by knocks.
            let (t, last_trick, winner) = last.clone().expect("tricks");
            let in_last = !forced && t + 1 == tricks && last_trick.iter().any(|&(p, c)| p == d && c == Card::Trump(1));
            let won_last = in_last && winner == d;
            let pfeife = if made("pfeife_raus") {
                s.pfeife = if forced {
                    "announced forced out"
                } else if won_last {
                    "announced won"
                } else {
                    "announced lost"
                };
                if won_last {
                    2
                } else {
                    -2
                }
            } else if in_last {
                s.pfeife = if won_last { "won" } else { "lost" };
                if won_last {
                    1
                } else {
                    -1
                }
            } else {
                0
            };
            // "paid by each opponent to the declarer or vice versa"; "In a four-player game the dealer
            // is treated as a third opponent, paying or receiving the same amount as the declarer's
            // active opponents."
            for q in (0..n).filter(|&q| q != d) {
                settle(q, d, Q::int(game + pfeife));
            }
        }
        None => {
            // The Räuber: "the player with most card points pays 2 game points (doubled for each
            // knock) to each of the others, including the non-playing dealer if there are four
            // players"; two tied each pay 1 to the third player "and to the non-playing dealer if
            // present"; all three tied, nothing at three, and at four the dealer "would still be
            // entitled to collect the appropriate amount and the active players would have to share
            // the payment somehow between them": read as equal shares, a third each.
            let points: Vec<i64> = piles.iter().map(|p| count(p)).collect();
            let playing: Vec<usize> = (0..n).filter(|&p| Some(p) != sitter).collect();
            let top = playing.iter().map(|&p| points[p]).max().unwrap();
            let losers: Vec<usize> = playing.iter().copied().filter(|&p| points[p] == top).collect();
            s.tied = losers.len();
            s.knocks = declared.iter().filter(|(_, x)| x == "rauber_knock").count();
            let share = Q::new(2 * knock_factor(s.knocks), losers.len() as i64);
            for &l in &losers {
                for q in (0..n).filter(|q| !losers.contains(q)) {
                    settle(l, q, share);
                }
            }
        }
    }
    for (p, name) in names.iter().enumerate() {
        s.scores.insert(name.clone(), pay[p]);
    }
    s
}

/// Who takes a trick, by the page's rule (the highest trump, or the highest card of the suit led).
fn winner_of(trick: &[(usize, Card)]) -> usize {
    let led = trick[0].1;
    let key = |c: Card| match c {
        Card::Trump(n) => 100 + n as i64,
        Card::Suit(s, _) if matches!(led, Card::Suit(l, _) if l == s) => c.strength() as i64,
        _ => -1,
    };
    trick.iter().max_by_key(|(_, c)| key(*c)).unwrap().0
}

/// The record with every combination its players hold claimed after the last trick, as a table
/// would claim them (the simulator claims none): an opponent's ten trumps, anyone's Drull or four
/// kings, in the hand held before the play (the declarer's with the cards he drew).
pub fn with_claims(mut rec: GameRecord) -> GameRecord {
    let Some(Event::Deal { hands, .. }) = rec.events.first().cloned() else { return rec };
    let declarer = rec.events.iter().rev().find_map(|e| if let Event::Bid { player, bid } = e { (bid.as_str() != "pass").then(|| player.to_string()) } else { None });
    for (player, dealt) in &hands {
        let mut held: Vec<String> = dealt.iter().map(|c| c.to_string()).collect();
        for e in &rec.events {
            if let Event::Take { player: q, cards } = e {
                if q == player {
                    held.extend(cards.iter().map(|c| c.to_string()));
                }
            }
        }
        let has = |cs: &[&str]| cs.iter().all(|c| held.iter().any(|h| h == c || (*c == "T22" && h == "EX")));
        let trumps = held.iter().filter(|c| c.starts_with('T') || c.as_str() == "EX").count();
        let mut claims: Vec<(&str, Vec<&str>)> = vec![];
        if declarer.as_deref() != Some(player.as_str()) && trumps >= 10 {
            claims.push(("zehn_druck_claimed", vec![]));
        }
        if has(&["T1", "T21", "T22"]) {
            let stiess = if held.iter().any(|h| h == "EX") { "EX" } else { "T22" };
            claims.push(("drull", vec!["T1", "T21", stiess]));
        }
        if has(&["KS", "KH", "KD", "KC"]) {
            claims.push(("vier_koenige", vec!["KS", "KH", "KD", "KC"]));
        }
        for (d, cards) in claims {
            rec.events.push(Event::Declare { player: player.clone(), declaration: d.into(), cards: cards.into_iter().map(Into::into).collect() });
        }
    }
    rec
}
