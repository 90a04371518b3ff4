//! The compiled `play { ... }` section: the trick obligations, forced and kept cards, the end of play,
//! a card that wins a trick holding others, the faults paid for a broken obligation, the cards a
//! player may withhold from the trump obligations, and cards played as the Excuse; the untouchable
//! card, the `fool` section, and the payments made during play (`on play`, `on cut`).

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Obligation {
    Follow,
    Trump,
    Overtrump,
    /// Win the trick if one can: of the cards the other obligations allow, one that would take the
    /// trick so far (a higher card of the suit led, or a trump above the trick's).
    Beat,
}

#[derive(Clone, Debug)]
pub struct Play {
    pub lead: Expr,
    pub lead_clause: Clause,
    /// Playing in turn, once the bidding, call and discards are done (`play.order`), and only cards one
    /// holds (`play.hold`): what the `play` section itself says, cited there.
    pub order_clause: Clause,
    pub hold_clause: Clause,
    /// The trick obligations in the order they apply.
    pub ladder: Vec<(Obligation, Clause)>,
    /// For each obligation of `ladder`, the setup condition under which it applies (`must trump =
    /// option.x == "yes"`); `None` when it always does.
    pub ladder_when: Vec<Option<Expr>>,
    /// "anticlockwise" (the default: each player's next is the one after him in the record's list,
    /// to his right) or "clockwise" (the one before him); a setup formula.
    pub direction: Option<(Choice<Direction>, Clause)>,
    /// `must lead|play CARDS "label" [= condition]`: cards that must be led (or played) when held,
    /// allowed and the condition holds; `must lead|play "label" = cards`: the cards a formula gives at
    /// the player's turn (rule `play.must.lead|play.LABEL`).
    pub forced: Vec<Forced>,
    /// `keep CARDS "label" [while CLASS] [= condition]`: cards that may not be led or played while
    /// the player holds another card (of CLASS), unless nothing else is allowed; `last-trump = cards`
    /// is one of them (rule `play.last-trump`; TG42's Trischaken: "the Pagat must be played as one's
    /// last trump").
    pub keeps: Vec<Keep>,
    /// `trumps-win = condition` (after the auction): when no, trumps take a trick only when trumps
    /// were led, and otherwise the highest card of the suit led wins (rule `play.trumps-win`; TG42's
    /// Suit-Solo: "the trumps lose their trumping power").
    pub trumps_win: Option<(Expr, Clause)>,
    /// `fault follow|trump|overtrump "label" = amount`: breaking that obligation is a fault paid, not
    /// an invalid game: the card stands, play goes on, and the offender pays the amount (a formula
    /// after the auction) to each other player (rule `play.fault.OBLIGATION`; Minchiate's revoke, 60
    /// to each).
    pub faults: Vec<Fault>,
    /// `end "label" = condition`: after each trick, play ends when the condition (a formula of the
    /// score's context, on the tricks played so far) holds; the deal is scored as it stands (rule
    /// `play.end.LABEL`; a beggar who takes a trick, a valat that loses one).
    pub ends: Vec<PlayEnd>,
    /// `wins CARD "label" = cards`: CARD takes the trick it is played to when every one of the
    /// cards (a formula after the auction) is in that trick too, above the cards that would otherwise
    /// beat it (rule `play.wins.LABEL`; "Pagat, Mond and Sküs": the lowest trump takes the two highest).
    pub wins: Vec<WinsWith>,
    /// `withhold CARDS "label" [= condition]`: a trump obligation (`must follow` on trumps led, `must
    /// trump`) that only cards of CARDS would meet does not bind: their holder may play another card,
    /// and so withholds them (`withheld(p)`; rule `play.withhold.LABEL`; a Fool made the top trump that
    /// its holder need not give as his one trump left).
    pub withholds: Vec<CardRule>,
    /// `excuse CARDS "label" [= condition]`: a card of CARDS played while the condition holds for its
    /// player is played as the Excuse: it obeys no obligation, sets no suit, takes no trick, and stays
    /// with its player's side, who gives the trick's winner an empty card for it (rule
    /// `play.excuse.LABEL`; such a Fool, once withheld, "loses all its trick-taking power").
    pub excuses: Vec<CardRule>,
    /// `loses CARDS "label" [= condition]` or `loses "label" = cards`: a card of them played (the
    /// condition holding, or the formula giving it, at its player's turn) takes no trick and, led, sets
    /// no suit (the next card does); it obeys the obligations as any card and goes with the trick (rule
    /// `play.loses.LABEL`; Cego's empty card kept and shown, which "can never win a trick").
    pub loses: Vec<Loses>,
    /// `lead-together N "label" highest SUITS = condition`: a lead of N cards beginning N tricks at
    /// once, when the condition holds for the leader at his lead (rule `play.lead-together.LABEL`;
    /// pagat's Zwei Leere, whose two cards kept "are placed face up on the table to begin the tricks").
    pub together: Vec<LeadTogether>,
    /// `next-lead "label" = formula`: after each trick before the last (play not ended), who leads
    /// the next one: a player, or `none` for the usual leader (the trick's winner; after a lead
    /// together, the highest winning card's). A formula of the score's context on the tricks played
    /// so far; the first that gives a player, in the order written, decides (rule
    /// `play.next-lead.LABEL`; pagat's Ministranten, whose bidder leads after the tricks of the empty
    /// cards he kept).
    pub next_leads: Vec<NextLead>,
}

/// Who leads the trick after the tricks played: `next-lead "label" = formula`.
#[derive(Clone, Debug)]
pub struct NextLead {
    pub label: Arc<str>,
    pub who: Expr,
    pub clause: Clause,
}

/// A lead of several cards at once: the leader plays `n` cards in a row, each beginning a trick, then
/// each player in turn plays `n`, the k-th to the k-th trick. Each trick is won as any trick; the
/// next lead goes to whoever won with the highest winning card (a trump above a suit card, trumps by
/// rank, suit cards by their height in their suit counted from its top), equal ones by the suit that
/// comes first in `suits`.
#[derive(Clone, Debug)]
pub struct LeadTogether {
    pub n: usize,
    pub label: Arc<str>,
    /// The suits (lanes 0..4) from the highest, to part equal winning cards.
    pub suits: Vec<u8>,
    /// A condition on the leader at his lead (the turn's context).
    pub when: Expr,
    pub clause: Clause,
}

/// Cards a rule of the play names, with its label and the condition on the player at his turn under
/// which it applies (`None`: always): `withhold` and `excuse`.
#[derive(Clone, Debug)]
pub struct CardRule {
    pub cards: CardSet,
    pub label: Arc<str>,
    pub when: Option<Expr>,
    pub clause: Clause,
}

/// A trick-winner exception: `wins CARD "label" = cards`.
#[derive(Clone, Debug)]
pub struct WinsWith {
    pub card: Card,
    pub label: Arc<str>,
    pub with: Expr,
    pub clause: Clause,
}

/// A card that must be led or played: `must lead|play CARDS "label" [= condition]`, or `must
/// lead|play "label" = cards`.
#[derive(Clone, Debug)]
pub struct Forced {
    /// Only on the lead (`must lead`), or at any card (`must play`).
    pub lead: bool,
    /// A constant for CARDS; for `= cards`, a card formula read at the player's turn (what the
    /// condition sees: `hand`, `player`, `taker`, `tricks`, `trick`, `hand_of(p)`), `none` where
    /// nothing is forced.
    pub cards: Expr,
    pub label: Arc<str>,
    /// A condition on the player at his turn (`hand`, `player`, `taker`, the contract, options);
    /// `None`: always.
    pub when: Option<Expr>,
    /// `must play ... instead`: where the player holds one of its cards (the condition holding), the
    /// obligations of the trick begun (`must follow`, `must trump`, `must overtrump`, `must beat`) do
    /// not bind his card: these cards take their place (pagat's Geregelter Räuber, trumps to the first
    /// three tricks whatever is led).
    pub instead: bool,
    pub clause: Clause,
}

/// Cards that take no trick: `loses CARDS "label" [= condition]`, or `loses "label" = cards`.
#[derive(Clone, Debug)]
pub struct Loses {
    /// A constant for CARDS; for `= cards`, a card formula read at the player's turn (as `must lead`'s).
    pub cards: Expr,
    pub label: Arc<str>,
    /// A condition on the player at his turn; `None`: always.
    pub when: Option<Expr>,
    pub clause: Clause,
}

/// Cards kept back while others are held: `keep CARDS "label" [while CLASS] [= condition]`, or
/// `last-trump = cards`.
#[derive(Clone, Debug)]
pub struct Keep {
    /// A card formula after the auction (a constant for `keep`).
    pub cards: Expr,
    pub label: Arc<str>,
    /// The other cards whose holding keeps them back: CLASS of `while`, else every card (trumps for `last-trump`).
    pub among: CardSet,
    pub when: Option<Expr>,
    /// Written `last-trump = cards` (its message speaks of the last trump).
    pub last_trump: bool,
    pub clause: Clause,
}

/// A condition that ends the play before the last trick: the contract is decided.
#[derive(Clone, Debug)]
pub struct PlayEnd {
    pub label: Arc<str>,
    pub when: Expr,
    pub clause: Clause,
}

/// A broken obligation that the rules make a fault paid rather than a refused card.
#[derive(Clone, Debug)]
pub struct Fault {
    pub obligation: Obligation,
    pub label: Arc<str>,
    pub amount: Expr,
    /// `gives-back CLASS`: the cards of the class that the offending card took (it won their trick)
    /// go back to the players who played them, into the cards they have taken, as if not lost
    /// (Minucci's revoke, M5: the revoker "rende il Re a colui di chi era"). A card formula (a class, or
    /// a setup `let` so an option can choose), worked out at the fault; `none` gives nothing back.
    pub gives_back: Option<Expr>,
    /// `by-side`: the offender's side pays, each of its players the amount to each player of the
    /// other side (the sitter who scores as a defender among the defence); without it the offender
    /// alone pays each other player.
    pub by_side: bool,
    /// `ends-deal`: the card that breaks the obligation ends the deal there: it is not played to the
    /// trick, nothing follows (a move after it breaks the fault's rule), the score section is not
    /// run, and each player's score is his balance of the payments made, the fault's among them.
    pub ends_deal: bool,
    pub clause: Clause,
}

/// A card that, in the hand of a player for whom `when` holds at the deal, is played like the Excuse
/// (to any trick, whatever the obligations, and leaving the next card to set the suit) but keeps its
/// rank and may win; when it does not, it goes back to its owner for an empty card (seed 003's "Petit
/// imprenable").
#[derive(Clone, Debug)]
pub struct Untouchable {
    pub card: Card,
    pub label: String,
    pub when: Expr,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct FoolRules {
    /// The Fool may be played to any trick instead of obeying.
    pub excuse: Option<Clause>,
    /// "next-card-sets-suit" or "forbidden".
    pub led: Choice<FoolLed>,
    /// "exchange" (its side keeps it and hands the trick's winner an empty card) or "keep".
    pub keep: Choice<FoolKeep>,
    /// Who gets it when played to the last trick: "changes-side", "to-winner" or "keep".
    pub last_trick: Choice<FoolLast>,
    /// Played to the last trick by a side that won every other trick, it wins that trick and stays
    /// with its side: only when it is led (`"led"`, the bare statement) or however it is played
    /// (`"played"`).
    pub slam_wins: Option<Clause>,
    /// `slam_wins = "led" | "played"`, a setup formula; `None` for the bare statement (`"led"`).
    pub slam_wins_when: Option<Choice<FoolSlamWins>>,
    /// "to-winner": a holder who takes no trick gives it to the winner of the trick it was played to.
    pub shut_out: Option<Choice<FoolShutOut>>,
    /// `deadline = N` (a setup formula): the Fool must be played before the last N tricks; its holder
    /// who still has it in the trick before them must play it there, if he may (`fool.deadline`).
    pub deadline: Option<(Expr, Clause)>,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerEvent {
    Cut,
    Play,
}

/// A payment made during play: each opponent pays the player `value` marques (negative: the player
/// pays each opponent).
#[derive(Clone, Debug)]
pub struct Trigger {
    pub on: TriggerEvent,
    pub cards: CardSet,
    /// `on play CLASS "label" to pot.NAME = marques`: the player and the pot settle instead (negative:
    /// the player pays the pot).
    pub pot: Option<usize>,
    pub label: Arc<str>,
    pub value: Expr,
    pub clause: Clause,
}
