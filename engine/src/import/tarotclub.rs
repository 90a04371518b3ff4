//! Import of TarotClub "deal log v3" files into this project's recorded-game JSON.
//!
//! TarotClub (an open-source French Tarot program) saves a played deal as the contract, the dog,
//! any poignées and the 18 tricks, each trick written from its leader onwards. It does not record
//! the hands, the bids, the dealer, the taker's discard or who led each trick after the first, so
//! this importer rebuilds them and reports every such guess as a sentence in
//! [`Imported::inferred`].
//!
//! Error messages name the input (`label`), the place in it (e.g. `trick 5`) and quote cards in
//! the input's own `NN-S` notation so they can be found in the file. The inferred sentences
//! describe the output record, so they use this project's card codes (`T21`, `EX`, `KS`, `10C`).
//!
//! Whether the cards obey the rules of play is the engine's to judge: the record built is replayed
//! under the ruleset it names (`check_rules_of_play`); the importer keeps no rules of its own beyond who won a trick.

use serde_json::{json, Map, Value};

mod log;
mod rebuild;

use log::*;
use rebuild::*;

/// The result of an import: the recorded game and the facts that had to be inferred to build it.
pub struct Imported {
    pub record: Value,
    pub inferred: Vec<String>,
}

/// Imports one TarotClub deal log.
///
/// `label` names the input (a file name) in messages and the description.
pub fn import(json: &str, label: &str) -> Result<Imported, String> {
    let mut inferred = Vec::new();
    let log = parse_log(json, &mut inferred).map_err(|e| format!("{label}: {e}"))?;
    let record = build_record(&log, label, &mut inferred).map_err(|e| format!("{label}: {e}"))?;
    Ok(Imported { record, inferred })
}

// ---------------------------------------------------------------------------------------------
// Seats and cards
// ---------------------------------------------------------------------------------------------

/// Seats in order of play (TarotClub's order, anticlockwise). A seat is an index into this array,
/// so the next player is `(seat + 1) % 4`.
const SEATS: [&str; 4] = ["South", "East", "North", "West"];
/// The ruleset of the records made: French Tarot for four.
const RULESET: &str = "fft-4p";
const TRICKS: usize = 18;
const DOG_SIZE: usize = 6;
const DECK_SIZE: usize = 78;

fn next(seat: usize) -> usize {
    (seat + 1) % 4
}

fn previous(seat: usize) -> usize {
    (seat + 3) % 4
}

fn parse_seat(text: &str) -> Option<usize> {
    SEATS.iter().position(|s| *s == text)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Card {
    /// `rank` is 1..=14 (11 jack, 12 cavalier, 13 queen, 14 king); `suit` indexes `SUITS`.
    Suited {
        suit: usize,
        rank: u8,
    },
    /// 1..=21
    Trump(u8),
    Excuse,
}

/// Suit letters, shared by TarotClub and this project.
const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];

impl Card {
    /// Parses TarotClub's `NN-S` notation (`00-T` is the Excuse).
    fn parse(text: &str) -> Option<Card> {
        let (number, suit) = text.split_once('-')?;
        if number.is_empty() || number.len() > 2 || !number.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let number: u8 = number.parse().ok()?;
        match suit {
            "T" if number == 0 => Some(Card::Excuse),
            "T" if number <= 21 => Some(Card::Trump(number)),
            _ => {
                let suit = SUITS.iter().position(|s| s.to_string() == suit)?;
                if (1..=14).contains(&number) {
                    Some(Card::Suited { suit, rank: number })
                } else {
                    None
                }
            }
        }
    }

    /// The card in TarotClub's notation, for error messages about the input.
    fn tarotclub(self) -> String {
        match self {
            Card::Suited { suit, rank } => format!("{rank:02}-{}", SUITS[suit % 4]),
            Card::Trump(n) => format!("{n:02}-T"),
            Card::Excuse => "00-T".to_string(),
        }
    }

    /// The card in this project's notation: `T1`..`T21`, `EX`, rank then suit for suited cards.
    fn code(self) -> String {
        match self {
            Card::Suited { suit, rank } => {
                let rank = match rank {
                    14 => "K".to_string(),
                    13 => "Q".to_string(),
                    12 => "C".to_string(),
                    11 => "J".to_string(),
                    n => n.to_string(),
                };
                format!("{rank}{}", SUITS[suit % 4])
            }
            Card::Trump(n) => format!("T{n}"),
            Card::Excuse => "EX".to_string(),
        }
    }

    /// A distinct number 0..78 per card, used to check that every card appears exactly once.
    fn index(self) -> usize {
        match self {
            Card::Suited { suit, rank } => (suit % 4) * 14 + (rank as usize).saturating_sub(1) % 14,
            Card::Trump(n) => 56 + (n as usize).saturating_sub(1) % 21,
            Card::Excuse => 77,
        }
    }

    fn from_index(index: usize) -> Card {
        match index {
            0..=55 => Card::Suited { suit: index / 14, rank: (index % 14) as u8 + 1 },
            56..=76 => Card::Trump((index - 55) as u8),
            _ => Card::Excuse,
        }
    }

    fn is_trump(self) -> bool {
        matches!(self, Card::Trump(_))
    }

    /// Kings and the three oudlers may never be discarded.
    fn is_king_or_oudler(self) -> bool {
        matches!(self, Card::Suited { rank: 14, .. } | Card::Trump(1) | Card::Trump(21) | Card::Excuse)
    }

    /// Order used to print hands: Excuse and trumps high to low, then each suit king to one.
    fn sort_key(self) -> (usize, u8) {
        match self {
            Card::Excuse => (0, 0),
            Card::Trump(n) => (1, 21 - n.min(21)),
            Card::Suited { suit, rank } => (2 + suit, 14 - rank.min(14)),
        }
    }
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort_by_key(|c| c.sort_key());
    cards
}

fn codes(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.code()).collect()
}

fn code_list(cards: &[Card]) -> String {
    codes(cards).join(" ")
}

/// Parses a `;`-separated card list such as `"21-T;02-T;07-C"`; `""` is the empty list.
fn parse_card_list(text: &str, place: &str) -> Result<Vec<Card>, String> {
    text.split(';')
        .map(str::trim)
        // TarotClub writes no trailing `;`, but tolerating one costs nothing.
        .filter(|piece| !piece.is_empty())
        .map(|piece| Card::parse(piece).ok_or_else(|| format!("{place}: unknown card {piece:?}")))
        .collect()
}

/// Rejects a card list that names the same card twice.
fn check_distinct(cards: &[Card], place: &str) -> Result<(), String> {
    let mut seen = [false; DECK_SIZE];
    for card in cards {
        if std::mem::replace(&mut seen[card.index()], true) {
            return Err(format!("{place}: card {} is listed twice", card.tarotclub()));
        }
    }
    Ok(())
}
