//! The compiled deal: the sides, the deal's sizes and order, and the annulments.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sides {
    /// A taker (with a called partner, if any) against the defence.
    Taker,
    /// Every player for himself.
    Each,
    /// Fixed partners sitting opposite each other (an even number of players).
    Partners,
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub hand: Expr,
    pub dealer: Option<Expr>,
    pub dog: Option<Expr>,
    /// The cut card (the pack's bottom card, which goes to the dealer) is shown and recorded: the
    /// statement that says so.
    pub cut: Option<Clause>,
    /// Piles on the table before each player (how many, and cards in each), played from the top as
    /// if in hand; the next card is turned up when the top is played (the two-player game).
    pub piles: Option<(Expr, Expr)>,
    /// How the cards go round, when a record gives the order of the deal: the size of each player's
    /// packets (a number: all of that size; a list: round by round), from first hand round to the
    /// dealer; `dealer_packets` for the dealer's, when they differ.
    pub packets: Option<(Expr, Clause)>,
    pub dealer_packets: Option<(Expr, Clause)>,
    /// The dog's cards are dealt this many at a time, between the players' packets.
    pub dog_packets: Option<(Expr, Clause)>,
    /// So many cards at each end of the pack may not go to the dog.
    pub dog_apart: Option<(Expr, Clause)>,
    /// The dog's packets are dealt together, after this many rounds of the players' packets (Tapp
    /// Tarock: after the first round).
    pub dog_after: Option<(Expr, Clause)>,
    /// The game's own word for the dog (`dog_name = "Blinde"`), which the rules in words, the
    /// verdicts and the pages use; "dog" when the rules give none (`Ruleset::dog_word`).
    pub dog_name: Option<(String, Clause)>,
    /// Conditions the deal must meet once dealt (`require "label" = condition`), in order: rule
    /// `deal.require.N`. They read the match so far (`carried(p)`): who may ask for what.
    pub requires: Vec<(String, Expr, Clause)>,
    /// Who deals the table's next deal (`next_dealer`): read across a session's deals
    /// (`matches::next_follows`), never within one.
    pub next_dealer: Option<(Choice<NextDealer>, Clause)>,
    /// Who deals after an annulled deal, where not as after the others (`next_dealer_annulled`).
    pub next_dealer_annulled: Option<(Choice<NextDealer>, Clause)>,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Annulment {
    pub name: String,
    pub label: String,
    pub when: Expr,
    pub clause: Clause,
}
