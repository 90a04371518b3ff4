//! A second scorer for Cego, written by hand from the sources the rule file names, with no rule file
//! and nothing from the engine but the record's types: Parlett's Penguin Book (PB, PB9), pagat.com's
//! page and its summary (P, PW), Wikipedia and the Black Forest clubs' pages (W, CF, HS). It reads a
//! finished deal's events, plays the tricks out itself and counts the cards.
//!
//! What the sources say, and this scorer does:
//! - 54 cards: clubs and spades K Q C J 10 9 8 7, hearts and diamonds K Q C J 1 2 3 4 (1 the highest
//!   numeral), 21 trumps and the Gstieß above them (W, CF). A trick goes to the highest trump, else
//!   the highest card of the suit led.
//! - Gstieß, Mond, Geiß and kings 5, queens 4, Reiter 3, jacks 2, others 1, counted in threes less
//!   two: each card is worth its value less two thirds, 70 in all; a pile is rounded to the nearest
//!   point.
//! - The declarer's Legage (both his discards) counts for him if he takes a trick (PW); in a Solo the
//!   Blinde counts for him if he takes a trick (P "The Scoring"); in the special games it is the
//!   defence's, and in a Räuber nobody's (PB).
//! - The game: |points - 35| times the factor (Solo 2, lost 1; Cego 1, Eine 2, Eine Leere 3, Zwei Leere
//!   4, Zwei Verschiedene 5, Kleiner Mann 6; each one more when bid over a Solo, the Gegensolo: P's
//!   table "Factor if bid over a Solo"), rounded up to a multiple of 5, won from each defender with 36
//!   or more, paid to each below 35; 35 is the Bürgermeister, 5 to each defender (PB, PW, P).
//! - Piccolo (one trick exactly) and Bettel (none) 30, Ulti (the Geiß takes the last trick) 80, won
//!   from or paid to each defender (PB, HS).
//! - Räuber: whoever has the most card points pays 30 to each other player, Vorhand 60; tied, Vorhand
//!   alone if he is among them, else each tied player pays 30 to each other player (PB).
//! - The Gasthaus's evening (P "Pflicht-Räuber", `cego-pflicht-rauber`'s option `round`): in the round
//!   of compulsory Räuber the most card points pay 30 to each other player, Vorhand no more, 60 where
//!   one player took no trick, 120 where two took none; three without a trick, the fourth wins 240
//!   from each. After the round every payment is ten times as large.
//! - The declarer leads, Vorhand in a Räuber (PW); Vorhand sits after the dealer in the record's order.
//! - In Zwei Leere and Zwei Verschiedene the declarer lays his two first cards at once, each beginning
//!   one of the first two tricks, and each defender in turn plays a card to each (P "The Play"): the
//!   record lists the declarer's two, then each defender's two, the first of each pair to the first
//!   trick. Each trick goes to its own highest card; the third is led by whoever won with the higher
//!   card (a trump above a suit card, trumps by number, suit cards by their rank, two kings equal), of
//!   equal cards the one of the higher suit, clubs, spades, hearts, diamonds.
//! - At three (P "Three Player Game", PB "Cego for three"): the clubs 7, the spades 7 and the diamonds 4
//!   taken out, 13 cards each and 12 to the Blinde, no Piccolo, Bettel or Räuber; the pack holds 69
//!   points, and a declarer who takes a trick is given the 70th. When all pass, Vorhand plays a Cego
//!   (he must say it, P "Second phase after everyone said \"Fort\""). When nobody bid Solo, the
//!   declarer may claim a skinned Solo: a player dealt nine trumps or more, or eight with two above
//!   the 17 and at most two suits, passed a Solo; each such player pays each other player the game's
//!   factor times 35 (the game bid lost without a trick), or, if none was dealt one, the claimant pays
//!   that; nothing is played.
//! - The Leere games keep empty cards (numerals) before the Blinde: one in Eine Leere, two of one suit
//!   in Zwei Leere, two of two suits in Zwei Verschiedene (PB9). A declarer dealt too few keeps courts
//!   in their stead: in Eine Leere one dealt no empty card a court; in the others one dealt no such
//!   two any two cards of one suit, or of two suits (PB9, P "Normal Games"). Kept, they take no trick.
//! - Kleiner Mann's Geiß taken back ("frei"), where the record's option `geiss_frei` allows it (P's
//!   Oberwolfach and Schmidt versions, PW): a declarer who does not lead the Geiß to the first trick
//!   must take the last trick with it (`last-trick`) or a trick (`a-trick`); failing, he is paid as
//!   one who took no trick (PW: "as if they lost every trick").
//! - The local versions' scores (the Ministranten's, Oberwolfach's): `common/cego_local.rs`; the count
//!   in twos (P "Cards counted in twos"): `common/cego_twos.rs`.

use std::collections::BTreeMap;

use tarot_engine::Q;
use tarot_engine::{Event, GameRecord};

use super::cego_local::Local;
use super::cego_twos;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// 1 to 21, and 22 for the Gstieß.
    Trump(u8),
    /// A suit letter (S H D C) and a rank (K = 14, Q = 13, C = 12, J = 11).
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

    fn value(self) -> i64 {
        match self {
            Card::Trump(1 | 21 | 22) | Card::Suited(_, 14) => 5,
            Card::Suited(_, 13) => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 1,
        }
    }

    /// A numeral of a suit: an empty card (Leere).
    fn is_empty(self) -> bool {
        matches!(self, Card::Suited(_, r) if r <= 10)
    }

    fn is_court(self) -> bool {
        matches!(self, Card::Suited(_, r) if r >= 11)
    }

    pub fn suit(self) -> Option<char> {
        match self {
            Card::Suited(s, _) => Some(s),
            Card::Trump(_) => None,
        }
    }

    fn strength(self) -> u8 {
        match self {
            Card::Suited('H' | 'D', r) if r <= 10 => 11 - r,
            Card::Suited(_, r) | Card::Trump(r) => r,
        }
    }
}

/// A pile's card points: each card its value less two thirds, rounded to the nearest point; counted in
/// twos (`cego-twos`), in pairs (`cego_twos::points_in_pairs`).
fn points(local: Local, cards: &[Card]) -> i64 {
    if local == Local::Twos {
        return cego_twos::points_in_pairs(&cards.iter().map(|c| c.value()).collect::<Vec<_>>());
    }
    let thirds: i64 = cards.iter().map(|c| 3 * c.value() - 2).sum();
    (thirds + 1).div_euclid(3)
}

/// Whether the cards a declarer kept before the Blinde in a Leere game are ones the sources let him
/// keep, from the cards dealt him (PB9 "4. One Blank", "5. Two blanks", "6. Two different"; P "Normal
/// Games"): empty cards, or, where he was dealt too few, courts or any cards of the suits asked for.
pub fn kept_lawful(contract: &str, dealt: &[Card], kept: &[Card]) -> bool {
    let mut suits: Vec<char> = kept.iter().filter_map(|c| c.suit()).collect();
    suits.sort();
    suits.dedup();
    let all_suited = kept.iter().all(|c| c.suit().is_some());
    let all_empty = kept.iter().all(|c| c.is_empty());
    // The empty cards dealt him, by suit.
    let mut empty: BTreeMap<char, usize> = BTreeMap::new();
    for c in dealt.iter().filter(|c| c.is_empty()) {
        *empty.entry(c.suit().expect("a suit")).or_default() += 1;
    }
    match contract {
        "eine-leere" => kept.len() == 1 && (all_empty || (empty.is_empty() && kept[0].is_court())),
        "zwei-leere" => kept.len() == 2 && all_suited && suits.len() == 1 && (all_empty || !empty.values().any(|&n| n >= 2)),
        "zwei-verschiedene" => kept.len() == 2 && all_suited && suits.len() == 2 && (all_empty || empty.len() < 2),
        _ => true,
    }
}

/// The game's value to the declarer from each defender, the game bid over a Solo or not (PB's examples:
/// a Solo won 41-29 is 15, lost 29-41 -10; Two Blanks won 39-31 is 20; P's: a Gegensolo lost with 27
/// is -20, with no trick -70).
pub fn game_value(contract: &str, over_solo: bool, declarer_points: i64) -> i64 {
    if declarer_points == 35 {
        return -5;
    }
    let made = declarer_points >= 36;
    let factor = game_factor(contract, made, over_solo);
    let x = (declarer_points - 35).abs() * factor;
    let rounded = (x + 4) / 5 * 5;
    if made {
        rounded
    } else {
        -rounded
    }
}

#[derive(Debug, Default)]
pub struct Scored {
    /// The contract ("rauber" when all passed) and whether the declarer made it.
    pub contract: String,
    pub made: Option<bool>,
    /// The game won an auction in which a Solo was bid (a Gegensolo, or a higher game over a Solo).
    pub over_solo: bool,
    pub declarer_points: Option<i64>,
    /// Each player's balance.
    pub balance: BTreeMap<String, Q>,
    pub wrong_leader: Option<String>,
    /// Where the Solo bidder is out of the second phase (`Local::solo_bidder_out`): a bid that breaks
    /// it (his own after the Solo, or a second phase begun by another than Vorhand, or the player
    /// after him where Vorhand bid the Solo).
    pub wrong_bidder: Option<String>,
    /// A card the sources forbid in the first three tricks of the Ministranten's Geregelter Räuber.
    pub wrong_card: Option<String>,
    /// The Legage went to the defence (the declarer took no trick).
    pub legage_lost: bool,
    /// A card the declarer kept and showed in a Leere game would have taken a trick, and took none.
    pub kept_card_lost: bool,
    /// In a Leere game, the cards the declarer kept before the Blinde, a court among them, and whether
    /// the sources let him keep them (`kept_lawful`).
    pub court_kept: bool,
    pub kept_lawful: Option<bool>,
    /// A court so kept would have taken a trick, and took none.
    pub court_lost: bool,
    /// In Kleiner Mann, the Geiß taken back (not led to the first trick, where the option allows
    /// it): whether it took the trick it had to.
    pub geiss_frei: Option<bool>,
    /// At three, the claim of a skinned Solo: whether it was made, and whether the claimant won it
    /// (another player was dealt a Solo hand, and he himself none).
    pub claim: Option<bool>,
    /// In the Gasthaus's round of compulsory Räuber (`cego-pflicht-rauber`, option `round`), how many
    /// players took no trick.
    pub trickless: Option<usize>,
    /// The Ministranten's penalty that ended the deal (`Local::penalties`): "a revoke" or "an
    /// incorrect discard".
    pub penalty: Option<&'static str>,
}

/// A Solo hand at three (P "Three Player Game"): nine trumps or more (the Gstieß one of them), or eight
/// of which two are above the 17, the other cards of at most two suits; at Oberwolfach's four, one
/// trump fewer (`Local::solo_hand`).
pub fn solo_hand(local: Local, hand: &[Card]) -> bool {
    let trumps = hand.iter().filter(|c| matches!(c, Card::Trump(_))).count();
    let high = hand.iter().filter(|c| matches!(c, Card::Trump(n) if *n > 17)).count();
    let mut suits: Vec<char> = hand.iter().filter_map(|c| c.suit()).collect();
    suits.sort();
    suits.dedup();
    local.solo_hand(trumps, high, suits.len())
}

/// The factor a declarer's game is paid at (P "The Scoring"): a Solo's 2 won and 1 lost, one more
/// for a game bid over a Solo.
pub fn game_factor(contract: &str, made: bool, over_solo: bool) -> i64 {
    let f = if contract == "solo" && !made { 1 } else { factor(contract) };
    f + i64::from(over_solo && contract != "solo")
}

/// The factor of a declarer's game (P "The Scoring"), not bid over a Solo.
fn factor(contract: &str) -> i64 {
    match contract {
        "solo" | "eine" | "gegensolo" => 2,
        "cego" => 1,
        "eine-leere" => 3,
        "zwei-leere" => 4,
        "zwei-verschiedene" => 5,
        "kleiner-mann" => 6,
        other => panic!("no factor for {other}"),
    }
}

/// Where the Solo bidder is out of the second phase (`Local::solo_bidder_out`), the first bid that
/// breaks it: his own after the Solo, or a second phase begun by another than Vorhand (the player
/// after Vorhand, where Vorhand bid the Solo).
pub fn wrong_bid(rec: &GameRecord) -> Option<String> {
    if !Local::of(&rec.ruleset).solo_bidder_out() {
        return None;
    }
    let names = &rec.players;
    let n = names.len();
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let vorhand = (seat(&rec.dealer) + 1) % n;
    let mut bids = rec.events.iter().filter_map(|e| if let Event::Bid { player, bid } = e { Some((seat(player), &**bid)) } else { None });
    let soloist = bids.by_ref().find(|&(_, bid)| bid == "solo")?.0;
    let first = if soloist == vorhand { (vorhand + 1) % n } else { vorhand };
    for (k, (p, bid)) in bids.enumerate() {
        if p == soloist {
            return Some(format!("{} bid Solo and says {bid} in the second phase", names[p]));
        }
        if k == 0 && p != first {
            return Some(format!("{} begins the second phase after the Solo, not {}", names[p], names[first]));
        }
    }
    None
}

/// A deal's events as read: the seats, the cards dealt, the auction's outcome, the Legage, the cards
/// played (each with its seat) and the claim of a skinned Solo.
struct Read {
    vorhand: usize,
    /// A game each for himself chosen by the auction's winner (a Räuber, the Ministranten's Dresch).
    alone: Option<String>,
    blinde: Vec<Card>,
    dealt: BTreeMap<String, Vec<Card>>,
    declarer: Option<(usize, String)>,
    solo_bid: bool,
    legage: Vec<Card>,
    first_discard: Option<Vec<Card>>,
    plays: Vec<(usize, Card)>,
    claimant: Option<usize>,
}

fn read(rec: &GameRecord) -> Read {
    let names = &rec.players;
    let n = names.len();
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let vorhand = (seat(&rec.dealer) + 1) % n;
    // A game each for himself chosen by the auction's winner (a Räuber, the Ministranten's Dresch).
    let mut alone: Option<String> = None;
    let mut blinde: Vec<Card> = vec![];
    let mut dealt: BTreeMap<String, Vec<Card>> = BTreeMap::new();
    let mut declarer: Option<(usize, String)> = None;
    let mut solo_bid = false;
    let mut legage: Vec<Card> = vec![];
    let mut first_discard: Option<Vec<Card>> = None;
    let mut plays: Vec<(usize, Card)> = vec![];
    let mut claimant: Option<usize> = None;
    for e in &rec.events {
        // At three, a deal all passed is Vorhand's Cego: he is the declarer once the auction is over.
        // The call that ends the session, made right after the deal, is no move of the deal's game.
        let session_end = matches!(e, Event::Declare { declaration, .. } if &**declaration == "gibt_ab");
        if n == 3 && declarer.is_none() && !session_end && !matches!(e, Event::Deal { .. } | Event::Bid { .. }) {
            declarer = Some((vorhand, "cego".into()));
        }
        match e {
            Event::Deal { dog, hands, .. } => {
                blinde = dog.iter().map(|c| Card::parse(c)).collect();
                dealt = hands.iter().map(|(p, cs)| (p.to_string(), cs.iter().map(|c| Card::parse(c)).collect())).collect();
            }
            Event::Bid { player, bid } => {
                if ["rauber", "dresch", "geregelter-rauber"].contains(&&**bid) {
                    (declarer, alone) = (None, Some(bid.to_string()));
                } else if &**bid != "pass" {
                    declarer = Some((seat(player), bid.to_string()));
                }
                solo_bid |= &**bid == "solo";
            }
            Event::Discard { player, cards } => {
                assert_eq!(Some(seat(player)), declarer.as_ref().map(|d| d.0), "only the declarer lays away");
                legage.extend(cards.iter().map(|c| Card::parse(c)));
                first_discard.get_or_insert_with(|| cards.iter().map(|c| Card::parse(c)).collect());
            }
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            Event::Declare { player, declaration, .. } if &**declaration == "skinned_solo" => claimant = Some(seat(player)),
            // "Der Gstieß gibt ab" (P "Ending the Session"): it ends the session after a later deal,
            // and changes nothing in this one's score.
            Event::Declare { .. } if session_end => {}
            other => panic!("Cego has no such event here: {other:?}"),
        }
    }
    Read { vorhand, alone, blinde, dealt, declarer, solo_bid, legage, first_discard, plays, claimant }
}

/// The deal as the Ministranten's penalties read it (`cego_local::Deal`): each seat's cards dealt, and
/// the cards kept in a Leere game, which take no trick and, led, set no suit.
fn deal_of<'a>(rec: &GameRecord, r: &'a Read, hands: &'a [Vec<Card>], kept: &'a [Card]) -> super::cego_local::Deal<'a> {
    let local = Local::of_record(rec);
    let contract = r.declarer.as_ref().map_or(r.alone.as_deref().unwrap_or("rauber"), |d| d.1.as_str());
    super::cego_local::Deal {
        dealt: hands,
        blinde: &r.blinde,
        declarer: r.declarer.as_ref().map(|d| d.0),
        legage: &r.legage,
        took_blinde: r.first_discard.is_some(),
        plays: &r.plays,
        together: local.kept_cards_led_together() && ["zwei-leere", "zwei-verschiedene"].contains(&contract),
        kept,
        geregelt: contract == "geregelter-rauber",
    }
}

/// The cards a declarer kept in a Leere game: those dealt him (the others he laid away).
fn kept_of(rec: &GameRecord, r: &Read) -> Vec<Card> {
    let leere = |c: &str| ["eine-leere", "zwei-leere", "zwei-verschiedene"].contains(&c);
    r.declarer.as_ref().filter(|d| leere(&d.1)).map(|d| r.dealt[&rec.players[d.0]].clone()).unwrap_or_default()
}

/// Where the rules pay a revoke (`Local::penalties`), the record up to the first play at which its
/// player held a card that revokes (`cego_local::revokes`, from the hands), that card played in its
/// place: the deal ends there. `declarer`: his first such play, else a defender's.
pub fn revoked(rec: &GameRecord, declarer: bool) -> Option<GameRecord> {
    let r = read(rec);
    let hands: Vec<Vec<Card>> = rec.players.iter().map(|p| r.dealt[p].clone()).collect();
    let kept = kept_of(rec, &r);
    let deal = deal_of(rec, &r, &hands, &kept);
    let (j, bad) = deal.first_revoke(|p| (Some(p) == deal.declarer) == declarer)?;
    // The j-th play's event.
    let at = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).nth(j).map(|(i, _)| i)?;
    let mut out = rec.clone();
    out.events.truncate(at);
    out.events.push(Event::Play { player: rec.players[r.plays[j].0].as_str().into(), card: card_code(bad).into() });
    Some(out)
}

/// A card's code in a record.
fn card_code(c: Card) -> String {
    match c {
        Card::Trump(22) => "EX".into(),
        Card::Trump(n) => format!("T{n}"),
        Card::Suited(s, r) => {
            let rank = match r {
                14 => "K".to_string(),
                13 => "Q".to_string(),
                12 => "C".to_string(),
                11 => "J".to_string(),
                // The red suits' numerals 1 to 4 are themselves.
                r => r.to_string(),
            };
            format!("{rank}{s}")
        }
    }
}

pub fn score(rec: &GameRecord) -> Scored {
    let names = &rec.players;
    let n = names.len();
    let local = Local::of_record(rec);
    // The part of the Gasthaus's evening (`cego-pflicht-rauber`'s option `round`).
    let round = rec.options.get("round").and_then(|v| v.as_str()).unwrap_or("normal");
    let r = read(rec);
    let wrong_bidder = wrong_bid(rec);
    let Read { vorhand, ref alone, ref blinde, ref dealt, ref declarer, solo_bid, ref legage, ref first_discard, ref plays, claimant } = r;
    assert_eq!(blinde.len(), if n == 3 { 12 } else { 10 }, "the Blinde");
    if n == 3 {
        // The cards taken out at three: those of the 54 that nobody was dealt and the Blinde lacks.
        let mut all: Vec<Card> = (1..=22).map(Card::Trump).collect();
        for s in ['C', 'S'] {
            all.extend([14, 13, 12, 11, 10, 9, 8, 7].map(|r| Card::Suited(s, r)));
        }
        for s in ['H', 'D'] {
            all.extend([14, 13, 12, 11, 1, 2, 3, 4].map(|r| Card::Suited(s, r)));
        }
        let out: Vec<Card> = all.into_iter().filter(|c| !blinde.contains(c) && !dealt.values().any(|h| h.contains(c))).collect();
        let mut want = local.taken_out_at_three().to_vec();
        want.sort_by_key(|c| format!("{c:?}"));
        let mut out = out;
        out.sort_by_key(|c| format!("{c:?}"));
        assert_eq!(out, want, "{}: the cards taken out at three", rec.ruleset);
    }
    if let Some(c) = claimant {
        // The claim: every hand shown as dealt; each skinner pays each other player, else the claimant.
        let contract = declarer.as_ref().map(|d| d.1.clone()).expect("a declarer");
        let skinners: Vec<usize> = (0..n).filter(|&p| solo_hand(local, &dealt[&names[p]])).collect();
        let payers = if skinners.is_empty() { vec![c] } else { skinners };
        let each = local.claim(factor(&contract));
        let mut balance = vec![0i64; n];
        for &p in &payers {
            for (q, b) in balance.iter_mut().enumerate() {
                *b += if q == p { -each * (n as i64 - 1) } else { each };
            }
        }
        return Scored { contract, claim: Some(!payers.contains(&c)), balance: names.iter().cloned().zip(balance.iter().map(|&b| Q::int(b))).collect(), ..Scored::default() };
    }
    // The Ministranten's penalties (P "Penalties"): a discard of the wrong number, or a revoke, ends
    // the deal, and the offender pays 70 to each other player.
    if local.penalties() {
        let hands: Vec<Vec<Card>> = names.iter().map(|p| dealt[p].clone()).collect();
        let kept = kept_of(rec, &r);
        if let Some((offender, what)) = deal_of(rec, &r, &hands, &kept).penalty() {
            let contract = declarer.as_ref().map_or(alone.clone().unwrap_or("rauber".into()), |d| d.1.clone());
            let balance = (0..n).map(|p| if p == offender { -70 * (n as i64 - 1) } else { 70 });
            return Scored { contract, penalty: Some(what), balance: names.iter().cloned().zip(balance.map(Q::int)).collect(), ..Scored::default() };
        }
    }
    let mut s = Scored { contract: declarer.as_ref().map_or(alone.clone().unwrap_or("rauber".into()), |d| d.1.clone()), wrong_bidder, ..Scored::default() };
    // The Zwei games' first two tricks, begun together: each player's two cards in a row, the first
    // of them to the first trick (but where the cards kept need not be led).
    let together = local.kept_cards_led_together() && ["zwei-leere", "zwei-verschiedene"].contains(&s.contract.as_str()) && plays.len() >= 2 * n;
    let mut tricks: Vec<Vec<(usize, Card)>> = vec![];
    let mut rest = &plays[..];
    if together {
        for pair in plays[..2 * n].chunks(2) {
            if pair[0].0 != pair[1].0 && s.wrong_leader.is_none() {
                s.wrong_leader = Some(format!("the first two tricks: {} and {} play one card each where one player plays two", names[pair[0].0], names[pair[1].0]));
            }
        }
        tricks.push(plays[..2 * n].iter().step_by(2).copied().collect());
        tricks.push(plays[1..2 * n].iter().step_by(2).copied().collect());
        rest = &plays[2 * n..];
    }
    tricks.extend(rest.chunks(n).map(|t| t.to_vec()));
    assert!(tricks.iter().all(|t| t.len() == n), "tricks of {n}");
    s.over_solo = solo_bid && s.contract != "solo";
    if s.contract == "geregelter-rauber" {
        let hands: Vec<Vec<Card>> = names.iter().map(|p| dealt[p].clone()).collect();
        s.wrong_card = super::cego_local::geregelt_breach(&hands, &tricks);
    }
    let mut piles: Vec<Vec<Card>> = vec![vec![]; n];
    let mut won = vec![0usize; n];
    let mut leader = declarer.as_ref().map_or(vorhand, |d| d.0);
    let mut last = None;
    // The tricks the Geiß took.
    let mut geiss_took = vec![];
    // In the Leere games the cards the declarer kept and showed (his own cards, dealt him, that he
    // plays) never take a trick; led, they leave the suit to the next card (P "Normal Games").
    let leere = ["eine-leere", "zwei-leere", "zwei-verschiedene"].contains(&s.contract.as_str());
    let kept: Vec<Card> = declarer.as_ref().filter(|_| leere).map(|d| dealt[&names[d.0]].clone()).unwrap_or_default();
    let powerless = |p: usize, c: Card| declarer.as_ref().is_some_and(|d| d.0 == p) && kept.contains(&c);
    // The cards kept before the Blinde: those dealt him that his first discard left.
    if let (true, Some(laid)) = (leere, &first_discard) {
        let before: Vec<Card> = kept.iter().copied().filter(|c| !laid.contains(c)).collect();
        s.court_kept = before.iter().any(|c| c.is_court());
        // The local versions: Brettli only, no court standing in (P "Ministranten Version", "Oberwolfach
        // Version", "Ichenheim Version").
        s.kept_lawful = Some(kept_lawful(&s.contract, &kept, &before) && (!local.brettli_only() || before.iter().all(|c| c.is_empty())));
    }
    // The card that takes the trick, of those that may: the highest trump, else the highest card of
    // the suit the first of them sets.
    let best_of = |t: &[(usize, Card)], skip: &dyn Fn(usize, Card) -> bool| {
        let mut best: Option<(usize, Card)> = None;
        for &(p, c) in t.iter().filter(|&&(p, c)| !skip(p, c)) {
            let beats = best.is_none_or(|b| match (c, b.1) {
                (Card::Trump(x), Card::Trump(y)) => x > y,
                (Card::Trump(_), _) => true,
                (_, Card::Trump(_)) => false,
                (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && c.strength() > b.1.strength(),
            });
            if beats {
                best = Some((p, c));
            }
        }
        best.expect("a card that may take the trick")
    };
    // Of the two tricks begun together, the winning card that leads the third: a trump above a suit
    // card, then the number or the rank, then the suit in P's order.
    let height = |c: Card| match c {
        Card::Trump(x) => (2, x, 0),
        Card::Suited(su, _) => (1, c.strength(), 4 - "CSHD".find(su).unwrap_or(4) as u8),
    };
    let mut first_best: Option<(usize, Card)> = None;
    for (i, t) in tricks.iter().enumerate() {
        let first_of_two = together && i == 1;
        if t[0].0 != leader && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[leader]));
        }
        let best = best_of(t, &powerless);
        let unbound = best_of(t, &|_, _| false);
        s.kept_card_lost |= powerless(unbound.0, unbound.1);
        s.court_lost |= powerless(unbound.0, unbound.1) && unbound.1.is_court();
        piles[best.0].extend(t.iter().map(|&(_, c)| c));
        won[best.0] += 1;
        if best.1 == Card::Trump(1) {
            geiss_took.push(i);
        }
        leader = best.0;
        if together && i == 0 {
            // The second trick is led by the declarer too, who led the first.
            leader = t[0].0;
            first_best = Some(best);
        }
        if let (true, Some(first)) = (first_of_two, first_best) {
            if height(first.1) > height(best.1) {
                leader = first.0;
            }
        }
        // The Ministranten: the tricks of the cards kept taken, the bidder leads (P "The Play").
        if let (true, Some(d)) = (leere && local.bidder_leads_after_kept(), &declarer) {
            if i + 1 == if s.contract == "eine-leere" { 1 } else { 2 } {
                leader = d.0;
            }
        }
        last = Some(best);
    }
    // Kleiner Mann's Geiß taken back: the option, and the first trick not led with it.
    let frei = rec.options.get("geiss_frei").and_then(|v| v.as_str()).unwrap_or(local.geiss_frei_default());
    if s.contract == "kleiner-mann" && frei != "no" && tricks[0][0].1 != Card::Trump(1) {
        s.geiss_frei = Some(match frei {
            "last-trick" => geiss_took.contains(&(tricks.len() - 1)),
            "a-trick" => !geiss_took.is_empty(),
            other => panic!("no such choice of geiss_frei: {other}"),
        });
    }
    let mut balance = vec![0i64; n];
    match &declarer {
        Some((d, c)) => {
            let d = *d;
            let mut own = piles[d].clone();
            if s.geiss_frei == Some(false) {
                // Paid as a game without a trick: nothing counts for him (PW).
                own.clear();
            } else if won[d] > 0 {
                own.extend(legage.iter().copied());
            } else {
                s.legage_lost = !legage.is_empty();
            }
            // The Blinde counts for the soloist only if he takes a trick (P "The Scoring": "If the
            // bidder loses every trick, the cego counts for the opponents").
            if c == "solo" && won[d] > 0 {
                own.extend(blinde.iter().copied());
            }
            // At three the pack holds 69 points: a declarer who takes a trick is given the 70th, but
            // not one paid as if he had taken none (the Geiß taken back failing).
            let pts = points(local, &own) + i64::from(n == 3 && won[d] > 0 && s.geiss_frei != Some(false));
            s.declarer_points = Some(pts);
            let each = match c.as_str() {
                "bettel" | "piccolo" | "ulti" | "solodu" => {
                    let ok = match c.as_str() {
                        "bettel" => won[d] == 0,
                        "piccolo" => won[d] == 1,
                        // Every trick of the hand, none lost (play ends at the first lost).
                        "solodu" => won[d] == dealt[&names[d]].len(),
                        _ => last == Some((d, Card::Trump(1))),
                    };
                    s.made = Some(ok);
                    let v = local.special(c, rec.options.get("piccolo").and_then(|v| v.as_i64()));
                    if ok {
                        v
                    } else {
                        -v
                    }
                }
                _ => {
                    s.made = Some(pts >= local.target());
                    local.game_value(c, factor(c), s.over_solo, pts).unwrap_or_else(|| game_value(c, s.over_solo, pts))
                }
            };
            for (p, b) in balance.iter_mut().enumerate() {
                *b = if p == d { each * (n as i64 - 1) } else { -each };
            }
        }
        None if round == "pflicht-rauber" => {
            // The Gasthaus's round of compulsory Räuber (P "Pflicht-Räuber"): the most card points pay
            // 30 to each other player, Vorhand no more, 60 with one player without a trick, 120 with
            // two; three without one, the fourth wins 240 from each.
            let pts: Vec<i64> = piles.iter().map(|p| points(local, p)).collect();
            let top = *pts.iter().max().unwrap();
            let none = won.iter().filter(|&&w| w == 0).count();
            s.trickless = Some(none);
            for l in 0..n {
                let pay = match none {
                    3 if won[l] > 0 => -240,
                    3 => continue,
                    _ if pts[l] == top => 30 << none,
                    _ => continue,
                };
                for (p, b) in balance.iter_mut().enumerate() {
                    if p != l {
                        *b += pay;
                    }
                }
                balance[l] -= pay * (n as i64 - 1);
            }
        }
        None => {
            let pts: Vec<i64> = piles.iter().map(|p| points(local, p)).collect();
            let top = *pts.iter().max().unwrap();
            let losers: Vec<usize> = if s.contract == "dresch" {
                // The Dresch: the winner of the last trick loses.
                vec![last.expect("a last trick").0]
            } else if pts[vorhand] == top {
                vec![vorhand]
            } else {
                (0..n).filter(|&p| pts[p] == top).collect()
            };
            for &l in &losers {
                let pay = if s.contract == "dresch" { 70 } else { local.rauber_pay(l == vorhand, pts[l]) };
                for (p, b) in balance.iter_mut().enumerate() {
                    if p != l {
                        *b += pay;
                    }
                }
                balance[l] -= pay * (n as i64 - 1);
            }
        }
    }
    // After the Pflicht-Räuber round, ten times the stake (P "Pflicht-Räuber").
    let stake = if round == "after-pflicht" { 10 } else { 1 };
    s.balance = names.iter().cloned().zip(balance.iter().map(|&b| Q::int(stake * b))).collect();
    s
}
