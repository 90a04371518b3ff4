//! The compiled exchanges around the dog: the discard, the talon and its packets, buying and
//! stealing cards, and sitting a deal out by choice.

use super::*;

#[derive(Clone, Debug)]
pub struct Discard {
    pub taker: Option<Expr>,
    pub dealer: Option<Expr>,
    pub others: Option<Expr>,
    pub clause: Clause,
    /// Cards that may never be discarded: a violation.
    pub forbid: Vec<CardClass>,
    /// Cards that may be discarded only when nothing else can, and are then shown.
    pub unless_unavoidable: Option<CardClass>,
    /// Cards whose discard is paid for rather than forbidden: the amount each opponent receives, and
    /// the clause that sets it.
    pub penalize: Option<(CardClass, Expr, Clause)>,
    /// `require "label" = condition`: conditions over the discard (`discarded`), the hand left
    /// (`hand`) and the dog, checked in order; rule `discard.require.N`.
    pub requires: Vec<(String, Expr, Clause)>,
    /// `goes-to = formula`, evaluated at scoring for each discarder (`player`): "discarder" (the
    /// default) or "opponents" (the next opponent in the order of play takes the discard).
    pub goes_to: Option<(Choice<GoesTo>, Clause)>,
    /// `forbid "label" = formula of options`: the index in `forbid` of each class whose cards follow
    /// options, and the setup formula that gives them (`forbid` holds the default options' cards).
    pub forbid_by_option: Vec<(usize, Expr)>,
    /// `fault size "label" [by-side] ends-deal = amount`: a discard of the wrong number of cards is not
    /// refused but ends the deal there, the discarder (with `by-side` his side) paying the amount to
    /// each other player (each player of the other side); rule `discard.fault.size`.
    pub size_fault: Option<DiscardFault>,
}

/// A discard's fault: its label, the amount (a formula after the auction), whether the discarder's
/// side pays, and its clause.
#[derive(Clone, Debug)]
pub struct DiscardFault {
    pub label: Arc<str>,
    pub amount: Expr,
    pub by_side: bool,
    pub clause: Clause,
}

/// The pack compiled the other way where the Fool is a trump by an option: the condition (over
/// options only), and the whole ruleset with the Fool a trump if the condition's default choice makes
/// it the Excuse, or the Excuse if it makes it a trump.
#[derive(Clone, Debug)]
pub struct FoolVariant {
    pub when: Expr,
    pub rules: Box<Ruleset>,
    pub clause: Clause,
    /// A choice of the options that makes the pack the other one (the options that differ from their
    /// defaults, by name): what descriptions and statistics name.
    pub other_way: BTreeMap<String, OptionValue>,
}

/// Buying a card (Droggn's Simple): after the exchange the taker calls any card he does not hold;
/// its holder gives it to him and takes back a card of the taker's hand (event `buy`). Its setting
/// applies after the auction, so it may read the contract.
#[derive(Clone, Debug)]
pub struct Buy {
    /// `cards = N`: how many cards the taker may buy, one `buy` event each (0: none).
    pub cards: Expr,
    pub clause: Clause,
}

/// The talon (the dog) shown in packets, of which the taker takes one when his contract's dog is
/// `"taker"` (Tapp Tarock's halves, Königrufen's six packets); the others go to the defence or to
/// the taker's pile. Its settings apply after the auction, so they may read the contract.
#[derive(Clone, Debug)]
pub struct Talon {
    /// `packets = N`: how many packets, cut in the order the deal lists the dog; 1 gives the whole dog.
    pub packets: Expr,
    /// `rest = "defence" | "taker"`: where the packets not taken go (default the defence); where
    /// its conditions read the game (`packet`, `called`, the sides), it is read for each packet as
    /// the packet goes, and it also sends the packets of a talon not taken (a contract whose `dog`
    /// is `"defence"`).
    pub rest: Option<(Choice<TalonRest>, Clause)>,
    /// Whether `rest` reads the game, and so is read packet by packet.
    pub rest_per_packet: bool,
    /// `discard = "after" | "before"`: whether the taker discards after taking the talon (the
    /// default) or before he sees it.
    pub discard: Option<Choice<TalonDiscard>>,
    /// `split = N`: the taker lays away N of the cards he owes (`discard { taker }`) before he sees
    /// the talon, in a first `discard` event, and the rest once it has come to him, in a second
    ///; rule `talon.split`.
    pub split: Option<(Expr, Clause)>,
    /// `given = K`: the taker gets the Kth packet, in the order the deal lists the dog, with no
    /// choice (0: his choice); rule `talon.given` (the 1821 Dreyer's top three).
    pub given: Option<(Expr, Clause)>,
    /// `unseen`: the talon is not turned up, and the taker never shows the cards he took from it
    /// before the hand's end; rule `talon.unseen`.
    pub unseen: Option<Clause>,
    pub clause: Clause,
}

/// Stealing from the stock (Minchiate's *rubare*): after the deal, the cutter and then the dealer take
/// cards that may be stolen from the head of the stock, in the order the deal event lists it, each in
/// a `take` event, and each then lays away as many cards from his hand (a `discard`), which go to the
/// stock, out of play. Rule `steal`.
#[derive(Clone, Debug)]
pub struct Steal {
    /// `cards "label" = cards`: what may be stolen.
    pub cards: CardClass,
    /// `cutter = "some"`: the cutter (the player before the dealer) may take the stock's first cards,
    /// as many as he likes while each may be stolen; he takes nothing when no `take` is recorded.
    pub cutter: Option<(StealHow, Clause)>,
    /// `dealer = "all"` (or `"some"`): the dealer then takes the cards that follow.
    pub dealer: Option<(StealHow, Clause)>,
    pub clause: Clause,
}

/// Sitting out by choice (Minchiate's four-player table, M4): after the deal and the steals, before the
/// first declaration or card, one player may sit the deal out (a `sit-out` event); the players before
/// him in turn from first hand are taken to have chosen to play. His hand is out of play, tricks have
/// one card fewer and the turn passes him by; he pays `fee[place]` (place 0 for first hand) to the
/// winner of the last trick. Rule `sit-out-by-choice`.
#[derive(Clone, Debug)]
pub struct SitOutChoice {
    /// `allowed = condition`: at which tables anyone may (Setup context); absent, at every table.
    pub allowed: Option<(Expr, Clause)>,
    /// `fee = [first hand's, second's, ...]`: the fee by place in turn; a player past the list may not.
    pub fee: Expr,
    pub fee_clause: Clause,
    pub clause: Clause,
}

/// How much of the head of the stock a stealer takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StealHow {
    /// Any number of its first cards (none, one, ...), each one that may be stolen.
    Some,
    /// Every card while they may be stolen, stopping at the first that may not.
    All,
}
