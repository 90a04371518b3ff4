//! The compiled `bidding { ... }` section: the auction's turns and holds, the contracts with who may
//! bid them and what they require, the call, and what happens when all pass.

use super::*;

#[derive(Clone, Debug)]
pub struct Bidding {
    pub turns: Turns,
    pub turns_clause: Clause,
    pub contracts: Vec<Contract>,
    pub all_pass: Option<Clause>,
    /// `all-pass play CONTRACT`: when everyone passes, this contract (by index) is played, each for
    /// himself, with no taker; it cannot be bid.
    pub all_pass_play: Option<usize>,
    /// `all-pass play CONTRACT by "who" = condition`: when everyone passes, tried in the order
    /// written, before `all_pass`/`all_pass_play`: the first player in turn from first hand whose hand
    /// as dealt meets a condition becomes the taker of its contract, as if he had won the auction.
    pub all_pass_by: Vec<AllPassBy>,
    /// `all-pass pay PAYERS to PAYEES ["label"] = amount`: when everyone passes and the deal is
    /// thrown in (annulled), these payments are made between players all the same, in the order
    /// written (rule `bidding.all-pass.pay`, then `.pay.2`, ...): the annulled deal scores them.
    pub all_pass_pays: Vec<Pay>,
    pub reserve: Option<Reserve>,
    /// `hold forehand`: forehand may bid the contract another player holds, and so take it over;
    /// every other bid must be higher (the Tarock games' hold).
    pub hold: Option<Clause>,
    /// `hold seniority` (a constant) or `hold = formula of options`: the hold's kind, "forehand" or
    /// "seniority" (each player may bid the contract a player later in turn from first hand holds);
    /// `None` is `hold forehand`. Each game reads it once (`Settings::hold_seniority`).
    pub hold_by: Option<Choice<Hold>>,
    /// `no-reraise`: a player whose bid was outbid may only pass afterwards.
    pub no_reraise: Option<Clause>,
    /// `must-bid CONTRACT "label" = condition`: a player whose hand as dealt meets the condition may
    /// neither pass nor bid lower while that contract is open to him.
    pub must_bid: Vec<MustBid>,
    /// `first-turn CONTRACT ...`: contracts (by index) a player may bid only the first time he
    /// speaks (rule `bidding.first-turn`).
    pub first_turn: Option<(Vec<usize>, Clause)>,
    /// `step CONTRACT ...`: contracts (by index, lowest first) of which one held may be outbid only
    /// by the next (rule `bidding.step`).
    pub step: Option<(Vec<usize>, Clause)>,
    /// `step lowest ...`: among the step's contracts, a player who may hold the contract held only
    /// holds it (or passes): each bid is the lowest open to its bidder, never one above it.
    pub step_lowest: bool,
    /// `opening-round CONTRACT ...`: an opening round before the auction, from first hand, each
    /// saying one of these contracts (by index) or passing; the first bid ends the round. These are
    /// bid only in it, the others only in the auction after it, which every player enters again: the
    /// opening bid held by its bidder, who heads the auction's order (rule `bidding.opening-round`).
    pub opening_round: Option<(Vec<usize>, Clause)>,
    /// `opening-bidder out`: the opening round's bidder does not speak in the auction after it; his
    /// bid is carried into it as the best bid, which nobody holds, and the auction's order begins
    /// with the player after him in turn (rule `bidding.opening-bidder`).
    pub opening_out: Option<Clause>,
    /// `opening-bidder out from first-hand`: the auction after the opening round begins with first
    /// hand, or with the player after him if it was first hand who bid, and goes round the others
    /// in turn, skipping the opening bidder.
    pub opening_out_from_first: bool,
    /// `opening-bidder out = condition`: a condition of the options alone; the opening bidder is out
    /// only in the games where it is true, and in the others speaks again as without the statement.
    pub opening_out_if: Option<Expr>,
    /// `closing CONTRACT ...`: a bid of one of these contracts (by index) ends the auction at once,
    /// its bidder playing it (rule `bidding.closing`).
    pub closing: Option<(Vec<usize>, Clause)>,
    /// `out-of-turn CONTRACT ...`: these closing contracts (by index) may be bid before the bidder's
    /// turn comes, by a player who has not yet spoken in the round (rule `bidding.out-of-turn`).
    pub out_of_turn: Option<(Vec<usize>, Clause)>,
    /// `instead WON CHOSEN "label" = condition`: the winner of the auction with WON, whose hand as
    /// dealt meets the condition, may play CHOSEN in its place, each for himself (rule
    /// `bidding.instead.CHOSEN`; TG42's Trischaken, declared by eldest who won with a Single).
    pub instead: Vec<Instead>,
    /// `raise WON [except C ... | to C ...] "label" = condition`: the winner of the auction with WON,
    /// whose hand as dealt meets the condition, names once more the contract he plays, WON or one of
    /// `to`, played with him as taker (rule `bidding.raise.WON`; Königrufen's forehand, the other
    /// three having passed his "Vorhand"). At most one per contract won.
    pub raise: Vec<Raise>,
}

/// A raise of the contract won at the winner's last word (`raise`): the contracts he may name in
/// its place, each played as if he had won the auction with it (its talon, call and discard).
#[derive(Clone, Debug)]
pub struct Raise {
    /// The contract won (by index), and the contracts (by index, lowest first) he may raise it to.
    pub won: usize,
    pub to: Vec<usize>,
    pub label: String,
    /// A condition on the winner's hand as dealt (`hand` context: `player` is the winner).
    pub when: Expr,
    pub clause: Clause,
}

/// A contract the auction's winner may choose in place of the one he won (`instead`): played with no
/// taker, every player for himself, the dog counting for nobody; nobody bids it.
#[derive(Clone, Debug)]
pub struct Instead {
    /// The contract won (by index) that may be exchanged, and the contract chosen in its place.
    pub won: usize,
    pub chosen: usize,
    pub label: String,
    /// A condition on the winner's hand as dealt (`hand` context: `player` is the winner).
    pub when: Expr,
    pub clause: Clause,
}

/// A bid the hand forces (`must-bid`): rule `bidding.must-bid.CONTRACT`.
#[derive(Clone, Debug)]
pub struct MustBid {
    /// The contract, by index: the least the player must bid.
    pub contract: usize,
    pub label: String,
    /// A condition on the hand (`hand` context), as dealt.
    pub when: Expr,
    pub clause: Clause,
}

/// Who speaks when in the bidding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turns {
    /// Each player speaks once, in turn, outbidding or passing (then a second round for those who
    /// reserved, if the ruleset has a reserving bid).
    Once,
    /// Bidding with immediate hold: a player who is outbid answers at once, outbidding in turn or
    /// leaving; when one of the two leaves, the next player who has not spoken challenges the one who
    /// stayed. A player who passes is out.
    UntilOneLeft,
    /// Round and round from first hand: each player in turn outbids or passes, and a player who
    /// passes is out; the one holding the best bid is skipped. The bidding ends when nobody is left
    /// to outbid him (or everyone has passed).
    Rounds,
}

/// A bid that commits to no contract but reserves the right to speak in a second round (the parole of
/// seed 003), where the player may choose among `contracts` (a formula: a list of contract names).
#[derive(Clone, Debug)]
pub struct Reserve {
    pub name: String,
    pub label: String,
    pub contracts: Expr,
    pub clause: Clause,
}

/// The taker calls a card before the dog is shown; its holder is his secret partner.
#[derive(Clone, Debug)]
pub struct Call {
    /// The ranks that may be called, in order: the first, or the next when the taker holds all of the
    /// ones before (kings, then queens, cavaliers, jacks).
    pub levels: Vec<CardSet>,
    pub clause: Clause,
    /// The cards the first lead may not be, given the called card (`called` in the formula): the
    /// called suit but the called card itself, at the FFT.
    pub opening_lead_excludes: Option<(Expr, Clause)>,
    /// `callable-levels = N`, a setup formula: only the first N levels may be called, and a taker who
    /// holds every card of them calls nothing and plays alone (seed 003: "A taker with all kings,
    /// queens and knights must play alone"). Without it, every level may be called.
    pub callable_levels: Option<(Expr, Clause)>,
}

#[derive(Clone, Debug)]
pub struct Contract {
    pub name: String,
    pub label: String,
    pub attrs: Vec<(String, Expr)>,
    /// `dog = "taker" | "taker-unseen" | "defence"`: what becomes of the dog (also among `attrs`).
    pub dog: Choice<DogUse>,
    pub clause: Clause,
    /// `by "who" = condition`: only a player who meets the condition (`hand` context, `player` the
    /// bidder, his hand as dealt) may bid the contract; rule `bidding.contract.NAME.by`.
    pub by: Option<By>,
    /// `settle = amount`: when the auction is won with this contract the deal ends unplayed, and each
    /// opponent pays the taker the amount (a setting after the auction; negative: he pays each of
    /// them); rule `bidding.contract.NAME.settle`.
    pub settle: Option<(Expr, Clause)>,
    /// `require "label" = condition`: what the contract asks of its taker once the announcements are
    /// closed (`allowed` context, `player` the taker, `hand` his hand then), checked before the first
    /// card of play; the first false one breaks `bidding.contract.NAME.require.1`, `.2`, ... (the
    /// Besserrufer's bird, announced compulsorily and held before the talon).
    pub requires: Vec<(String, Expr, Clause)>,
}

/// A player the rules name to play a contract as taker when everyone passes (`all-pass play
/// CONTRACT by "who" = condition`).
#[derive(Clone, Debug)]
pub struct AllPassBy {
    /// The contract he plays, by index.
    pub contract: usize,
    /// Who he is, in words ("the holder of the Fool").
    pub label: String,
    /// A condition on a player's hand as dealt, as a contract's `by` reads it.
    pub when: Expr,
    pub clause: Clause,
}

/// Who may bid a contract (`by` in the contract's block): its label ("forehand"), the condition on
/// the bidder and his hand as dealt, and the rule.
#[derive(Clone, Debug)]
pub struct By {
    pub label: String,
    pub when: Expr,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DogUse {
    /// Shown, taken into the taker's hand; the taker discards as many cards.
    Taker,
    /// Unseen, counts for the taker.
    TakerUnseen,
    /// Unseen, counts for the defence.
    Defence,
}
