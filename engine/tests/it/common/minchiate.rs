//! A second scorer for Minchiate as Paolo Minucci describes it in his note to Lippi's *Malmantile
//! racquistato* (1688), written by hand from the note with no rule file and nothing from the engine but
//! the record's types. It reads a finished game's events, plays the tricks out itself and works out
//! every player's score, so that the engine can be checked against it. The note's pages:
//! - M2, https://it.wikisource.org/wiki/Pagina:Lippi_-_Malmantile_racquistato.pdf/364: the Matto "si
//!   confà con ogni carta ... ed è superata da ogni carta, ma non muor mai, cioè non passa mai nel monte
//!   dell'avversario, il quale riceve in cambio del detto matto un'altra cartaccia", and is given itself
//!   by a player who "non ha mai preso carte all'avversario"; the nobili: the 1 five, the 2 to 5 three,
//!   "10, 13, 20, e 28, fino al 35" five, the five arie ten, "il matto conta cinque, ed ogni re conta
//!   cinque"; "il numero 29 non conta, se non quando è in verzicola, chè allora conta cinque, ed una
//!   volta meno delle compagne respettivamente"; versicole of three or four kings or "tre carte
//!   andanti" of the nobili.
//! - M3, https://abruzzoinmostra.it/letteratura/lippi_01/il-malmantile-riacquistato-di-lorenzo-lippi-pagt0263.htm:
//!   a versicola shown counts three times, broken "solamente due volte", saved (three still in a row)
//!   three times; the Matto "conta sempre il suo valore due volte o tre, secondochè conta la verzicola,
//!   o guasta o salvata", and with several "una sol volta conta tre, ed il resto conta due"; versicole
//!   made with captured cards count twice; "quando è ammazzata alcuna delle carte nobili, ciascuno
//!   avversario segna a colui a cui è stata morta" its value, except cards shown in a versicola, for
//!   which nothing is marked "se non da quello che per privilegio non giuoca".
//! - M4, https://abruzzoinmostra.it/letteratura/lippi_01/il-malmantile-riacquistato-di-lorenzo-lippi-pagt0264.htm:
//!   21 cards each at four, 25 at two or three; at four the first after the dealer may sit out for 30
//!   to whoever takes the last trick, then the second for 40, the third 50, the fourth 60; the sitter
//!   "guadagna ancor egli de' morti"; the taker of the last trick "guadagna a ciascuno di quelli che
//!   hanno giuocato, dieci segni".
//! - M5, https://it.wikisource.org/wiki/Pagina:Lippi_-_Malmantile_racquistato.pdf/369: "ciascuno
//!   conta le carte che ha prese: ed avendone di più delle sue 21, segna a chi n'ha meno tanti punti,
//!   quante sono le carte che ha di più: dipoi conta i suoi onori, cioè il valore delle carte nobili e
//!   verzicole ... e segna all'avversario tanti punti, quanti co' suoi onori conta più di esso".
//!
//! The readings it makes where the note is short:
//! - The runs are of consecutive trumps among the 1 to 5 and among the 28 to the Trumpets (the nobili
//!   that follow one another, with the 29 between them); M3's example is 31 to 35.
//! - What was shown is the `declare` event's cards; a versicola still holds where three or more of the
//!   shown cards left in its player's cards are still in a row (or three kings); a 29 counts five each
//!   time it counts, one time fewer than its companions: 10 in a versicola saved, 5 in one broken or
//!   made with captured cards, nothing once captured.
//! - The cards a player took are those of the tricks he won: the cartaccia given for the Matto makes
//!   up for it, so every trick gives its taker as many cards as were played to it.
//! - The Matto goes with each versicola shown (whole or broken) and each made in its player's cards of
//!   cards he did not show: it counts three times once if a versicola shown is still whole, twice for
//!   each of the others, once with none.
//! - A player who sits out is paid for every noble card captured from the others, shown ones too, and
//!   plays no part in the last trick's ten, the cards over the hand or the honours.

use std::collections::{BTreeMap, BTreeSet};

use tarot_engine::{Event, GameRecord};

/// A card as the note names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    Trump(u8),
    Matto,
    /// A suit letter (S C long, H D round) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
    Suited(char, u8),
}

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        match code.as_str() {
            "EX" => return Card::Matto,
            "STA" => return Card::Trump(36),
            "MOO" => return Card::Trump(37),
            "SUN" => return Card::Trump(38),
            "WOR" => return Card::Trump(39),
            "TRO" => return Card::Trump(40),
            _ => {}
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    /// What a noble card counts (M2); every other card, the 29 included, nothing.
    pub fn value(self) -> i64 {
        match self {
            Card::Trump(1) => 5,
            Card::Trump(2..=5) => 3,
            Card::Trump(10 | 13 | 20 | 28 | 30..=35) => 5,
            Card::Trump(36..=40) => 10,
            Card::Matto => 5,
            Card::Suited(_, 14) => 5,
            _ => 0,
        }
    }

    fn is_king(self) -> bool {
        matches!(self, Card::Suited(_, 14))
    }

    /// The card's strength within its suit, or among the trumps: long suits rank K Q C J 10 .. 1, round
    /// suits K Q C J 1 .. 10.
    fn strength(self) -> u8 {
        match self {
            Card::Trump(n) => n,
            Card::Suited(s, r) if r <= 10 && (s == 'H' || s == 'D') => 11 - r,
            Card::Suited(_, r) => r,
            Card::Matto => 0,
        }
    }
}

type Cards = BTreeSet<Card>;

/// The cards of `set` in a versicola: runs of three or more of the 1 to 5 and of the 28 to 40, and
/// three or four kings.
fn versicole(set: &Cards) -> Cards {
    let mut out = Cards::new();
    for (lo, hi) in [(1u8, 5u8), (28, 40)] {
        let mut run = vec![];
        for n in lo..=hi + 1 {
            if n <= hi && set.contains(&Card::Trump(n)) {
                run.push(Card::Trump(n));
            } else {
                if run.len() >= 3 {
                    out.extend(run.iter().copied());
                }
                run.clear();
            }
        }
    }
    let kings: Vec<Card> = set.iter().copied().filter(|c| c.is_king()).collect();
    if kings.len() >= 3 {
        out.extend(kings);
    }
    out
}

/// How many versicole `set` holds: each run of three or more, and the kings.
fn versicole_count(set: &Cards) -> i64 {
    let mut k = 0;
    for (lo, hi) in [(1u8, 5u8), (28, 40)] {
        let mut len = 0;
        for n in lo..=hi + 1 {
            if n <= hi && set.contains(&Card::Trump(n)) {
                len += 1;
            } else {
                k += (len >= 3) as i64;
                len = 0;
            }
        }
    }
    k + (set.iter().filter(|c| c.is_king()).count() >= 3) as i64
}

/// What one game came to, with the facts the comparison tallies.
#[derive(Debug, Default)]
pub struct Scored {
    pub scores: BTreeMap<String, i64>,
    pub sat_out: Option<String>,
    pub steals: usize,
    pub versicole_shown: usize,
    pub versicola_broken: bool,
    pub versicola_saved_after_a_loss: bool,
    pub t29_in_versicola: bool,
    pub shown_card_captured: bool,
    pub shown_card_captured_with_a_sitter: bool,
    pub stolen_card_shown: bool,
    pub captured_versicola: bool,
    pub matto_exchanged: bool,
    pub matto_shut_out: bool,
    pub matto_with_versicole: i64,
    pub nobili_captured: usize,
    pub cards_over: bool,
}

pub fn score(rec: &GameRecord) -> Scored {
    let names: Vec<String> = rec.players.iter().map(|p| p.to_string()).collect();
    let n = names.len();
    let at = |name: &str| names.iter().position(|p| p == name).unwrap_or_else(|| panic!("player {name}"));
    let dealer = at(&rec.dealer);
    let mut s = Scored::default();
    let mut ledger = vec![0i64; n];
    let mut pay = |from: usize, to: usize, amount: i64| {
        ledger[from] -= amount;
        ledger[to] += amount;
    };
    let mut shown: Vec<Cards> = vec![Cards::new(); n];
    let mut stolen: Vec<Cards> = vec![Cards::new(); n];
    let mut sitter: Option<usize> = None;
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Take { player, cards } => {
                s.steals += 1;
                stolen[at(player)].extend(cards.iter().map(|c| Card::parse(c)));
            }
            Event::SitOut { player } => sitter = Some(at(player)),
            Event::Declare { player, cards, .. } => {
                s.versicole_shown += 1;
                shown[at(player)].extend(cards.iter().map(|c| Card::parse(c)));
            }
            Event::Play { player, card } => plays.push((at(player), Card::parse(card))),
            _ => {}
        }
    }
    s.sat_out = sitter.map(|p| names[p].clone());
    let playing: Vec<usize> = (0..n).filter(|&p| Some(p) != sitter).collect();
    let size = playing.len();
    assert_eq!(plays.len() % size, 0, "a finished game");
    let mut piles: Vec<Cards> = vec![Cards::new(); n];
    let mut taken = vec![0i64; n];
    let mut matto_trick: Option<(usize, usize)> = None;
    let mut last_winner = 0;
    for trick in plays.chunks(size) {
        let trumps = trick.iter().filter(|(_, c)| matches!(c, Card::Trump(_)));
        let led = trick.iter().find_map(|(_, c)| match c {
            Card::Suited(suit, _) if trick.iter().all(|(_, c)| !matches!(c, Card::Trump(_))) => Some(*suit),
            _ => None,
        });
        let winner = match trumps.max_by_key(|(_, c)| c.strength()) {
            Some(&(p, _)) => p,
            None => trick.iter().filter(|(_, c)| matches!(c, Card::Suited(x, _) if Some(*x) == led)).max_by_key(|(_, c)| c.strength()).unwrap().0,
        };
        last_winner = winner;
        taken[winner] += size as i64;
        for &(p, c) in trick {
            if c == Card::Matto && p != winner {
                // The Matto never dies: its player keeps it and gives a cartaccia for it (M2).
                piles[p].insert(c);
                matto_trick = Some((p, winner));
                s.matto_exchanged = true;
                continue;
            }
            piles[winner].insert(c);
            if p == winner || c == Card::Matto || c.value() == 0 {
                continue;
            }
            s.nobili_captured += 1;
            if shown[p].contains(&c) {
                // Paid by the versicola's smaller value; to the player who sits out, as any card (M3).
                s.shown_card_captured = true;
                if let Some(q) = sitter {
                    s.shown_card_captured_with_a_sitter = true;
                    pay(p, q, c.value());
                }
            } else {
                for q in (0..n).filter(|&q| q != p) {
                    pay(p, q, c.value());
                }
            }
        }
    }
    // A player who took no card at all gives the Matto itself (M2).
    if let Some((h, w)) = matto_trick {
        if taken[h] == 0 {
            piles[h].remove(&Card::Matto);
            piles[w].insert(Card::Matto);
            s.matto_shut_out = true;
        }
    }
    // The last trick: ten from each who played (M4); the sitter's fee to its taker.
    for &q in playing.iter().filter(|&&q| q != last_winner) {
        pay(q, last_winner, 10);
    }
    if let Some(q) = sitter {
        let turn = (q + n - dealer - 1) % n;
        pay(q, last_winner, [30, 40, 50, 60][turn]);
    }
    // The cards over the hand (M5).
    let hand = if n == 4 { 21 } else { 25 };
    for &a in &playing {
        for &b in &playing {
            if taken[a] > hand && taken[b] < hand {
                s.cards_over = true;
                pay(b, a, taken[a] - hand);
            }
        }
    }
    // The honours (M2, M3, M5).
    let mut honours = vec![0i64; n];
    for &p in &playing {
        let pile = &piles[p];
        let kept: Cards = shown[p].intersection(pile).copied().collect();
        let whole = versicole(&kept);
        let broken: Cards = kept.difference(&whole).copied().collect();
        let captured: Cards = versicole(pile).difference(&shown[p]).copied().collect();
        let mut h: i64 = pile.iter().map(|c| c.value()).sum();
        for c in &whole {
            h += if *c == Card::Trump(29) { 10 } else { 2 * c.value() };
        }
        for c in broken.iter().chain(captured.iter()) {
            h += if *c == Card::Trump(29) { 5 } else { c.value() };
        }
        if !broken.is_empty() {
            s.versicola_broken = true;
        }
        if !whole.is_empty() && whole.len() < shown[p].len() {
            s.versicola_saved_after_a_loss = true;
        }
        if !captured.is_empty() {
            s.captured_versicola = true;
        }
        if whole.contains(&Card::Trump(29)) || captured.contains(&Card::Trump(29)) || broken.contains(&Card::Trump(29)) {
            s.t29_in_versicola = true;
        }
        if !shown[p].is_disjoint(&stolen[p]) {
            s.stolen_card_shown = true;
        }
        if pile.contains(&Card::Matto) {
            let unshown: Cards = pile.difference(&shown[p]).copied().collect();
            let v = versicole_count(&shown[p]) + versicole_count(&unshown);
            if v > 0 {
                s.matto_with_versicole = s.matto_with_versicole.max(v);
                let times = 2 * v + (!whole.is_empty()) as i64;
                h += 5 * (times - 1);
            }
        }
        honours[p] = h;
    }
    for &a in &playing {
        for &b in &playing {
            if honours[a] > honours[b] {
                pay(b, a, honours[a] - honours[b]);
            }
        }
    }
    s.scores = names.iter().cloned().zip(ledger).collect();
    s
}
