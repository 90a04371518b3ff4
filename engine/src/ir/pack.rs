//! The compiled pack and its counting: the cards, their names and codes, the classes, how card
//! points are counted (`counting`), and a match of several deals.

use super::*;

#[derive(Clone, Debug)]
pub struct Pack {
    pub cards: CardSet,
    pub suit_names: [String; 4],
    /// Indexed by rank 1..=14; index 0 unused.
    pub rank_names: [String; 15],
    pub fool_name: String,
    /// Trump names in messages (`trump-name T40 "the Trumpet"`), by number; empty for `T{n}`.
    pub trump_names: Vec<String>,
    /// Other codes records may write for a card of this pack (`code SK = T22`; `fool "the Sküs"
    /// trump` makes `EX` one): a record is read with them, verdicts give the card's own code.
    pub aliases: Vec<(String, Card)>,
    /// Trumps of equal strength where the one played later wins (`tie ... "later-wins"`).
    pub later_wins: CardSet,
    /// Strength of each card within its suit (higher beats lower); trumps by number unless a
    /// `trump-order` says otherwise, tied trumps equal.
    pub strength: [u8; PACK_SIZE],
    /// Suits whose numerals may be reversed, and the condition (usually an option) that reverses them.
    pub reversible: Option<(Vec<u8>, Expr, Clause)>,
    /// Orders of the trumps, high to low, that follow options (`trump-order CARDS = condition`): the
    /// first whose condition holds for a game replaces `strength`'s order of the trumps there.
    pub trump_orders: Vec<(Vec<Card>, Expr, Clause)>,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Class {
    pub name: String,
    pub label: Option<String>,
    pub cards: CardSet,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surplus {
    /// Fractions are kept (half points in French Tarot).
    Exact,
    /// Each pile's total is rounded to the nearest point.
    Nearest,
    /// Cards are laid out in packets as the source describes; a short last packet counts as if padded
    /// with empties when it holds more than half a packet, and otherwise each card in it is worth its
    /// value less one (an empty nothing).
    Packets,
}

/// `match { deals = N; target = N }`: a match of several deals, evaluated over a table's deals in order
/// by `matches::match_state`. It is over after `deals` deals that were played to the end (an annulled
/// deal is dealt again and does not count), or after the deal in which a player's running total
/// reaches `target`, or after a deal a declaration ends it with (`ends-match`, either form),
/// whichever comes first; its winners are the players with the highest total then (a declaration that
/// ends the match at itself names its own). `match { }`, with neither, is a match only a declaration ends.
#[derive(Clone, Debug)]
pub struct Match {
    /// `deals = N`: how many deals make the match (a setup formula, so an option may choose).
    pub deals: Option<(Expr, Clause)>,
    /// `target = N`: the running total that ends the match (a setup formula).
    pub target: Option<(Expr, Clause)>,
    pub clause: Clause,
}

/// How `surplus packets` counts a short last packet (`short-packet WORD` in `counting`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShortPacket {
    /// `over-half` (the default, Marolles): over half a packet counts as if padded with empties;
    /// otherwise each counter in it is worth its value less one, an empty nothing.
    OverHalf,
    /// `sum-less-one` (Troccas' Skat, Berther §3): a short packet counts as a full one, its counters'
    /// sum less one for each counter after the first, or 1 when it holds none.
    SumLessOne,
}

#[derive(Clone, Debug)]
pub struct Counting {
    pub group: u32,
    /// A counter's whole value in a group (5 for a king), 0 for an empty card.
    pub values: [u8; PACK_SIZE],
    /// The same values as sets: the cards worth each value above 0, so that a pile is counted with a
    /// few mask operations rather than card by card.
    pub counters: Vec<(u8, CardSet)>,
    /// `empty 0`: cards no counter lists are worth nothing, the others their value, card by card
    /// (with groups of one).
    pub empty_zero: bool,
    /// Counters whose cards follow options (`counter 5 = if option.x == "y" then T1 else none`):
    /// their value, the setup formula that gives the cards, and where it is written. Each game adds
    /// them to `values` when its options are known (`Settings::counting`).
    pub by_option: Vec<(u8, Expr, Clause)>,
    /// `group = formula`: a group size that follows options (Galician Tarok counted singly, or in
    /// threes as the 1821 Tappen with 42 cards): the setup formula and where it is written. Each game
    /// sets `group` from it when its options are known (`Settings::counting`); `group` holds the
    /// default options' size.
    pub group_by_option: Option<(Expr, Clause)>,
    pub surplus: Surplus,
    /// How a short last packet counts (only with `surplus packets`).
    pub short_packet: ShortPacket,
    pub clause: Clause,
}

impl Pack {
    /// The pack's trumps (with the Fool, when it is a trump: it is then the card above the top trump).
    pub fn trumps(&self) -> CardSet {
        self.cards.and(CardSet::trumps())
    }
    /// A trump by its name in messages, or `T{n}`.
    pub fn trump_name(&self, c: Card) -> String {
        match c.kind() {
            crate::cards::Kind::Trump(n) => match self.trump_names.get(n as usize) {
                Some(name) if !name.is_empty() => name.clone(),
                _ => format!("T{n}"),
            },
            _ => c.to_string(),
        }
    }
    /// A card code as a record of this pack writes it: the pack's own codes (`code`), then the usual
    /// ones. A code of a card outside the pack is returned too, for the caller to refuse.
    pub fn parse_card(&self, code: &str) -> Option<Card> {
        if !self.aliases.is_empty() {
            let t = code.trim();
            if let Some((_, c)) = self.aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(t)) {
                return Some(*c);
            }
        }
        Card::parse(code)
    }
}

/// The cards worth each value above 0, as sets (`Counting::counters`), from the table of values.
pub fn counters_of(values: &[u8; PACK_SIZE]) -> Vec<(u8, CardSet)> {
    let mut counters: Vec<(u8, CardSet)> = vec![];
    for card in Card::all() {
        match values[card.0 as usize] {
            0 => {}
            v => match counters.iter_mut().find(|(w, _)| *w == v) {
                Some((_, set)) => set.insert(card),
                None => counters.push((v, CardSet::single(card))),
            },
        }
    }
    counters
}
