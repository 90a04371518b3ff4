//! The expression language of rule formulas, compiled: names are resolved to slots, facts and
//! functions by the compiler, so evaluation is a plain walk over this tree. The game state behind the
//! facts (`points(attack)`, `hand`, `last_trick`) is supplied by the interpreter through `Env`.

use std::sync::Arc;

use crate::cards::CardSet;
use crate::num::Q;

mod analysis;
mod eval;
mod functions;

pub(crate) use eval::too_large;
pub use eval::{eval, truthy, Env};

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Num(Q),
    Bool(bool),
    Str(Arc<str>),
    Cards(CardSet),
    Player(u8),
    /// A set of players, as a bit mask of seats.
    Players(u16),
    /// A trick, by number from 0; the number after the tricks played is the trick in play (`trick`).
    Trick(u8),
    List(Arc<Vec<Value>>),
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Num(_) => "a number",
            Value::Bool(_) => "a yes/no value",
            Value::Str(_) => "a text",
            Value::Cards(_) => "a set of cards",
            Value::Player(_) => "a player",
            Value::Players(_) => "a set of players",
            Value::Trick(_) => "a trick",
            Value::List(_) => "a list",
        }
    }
}

/// A name whose value comes from the game being replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    Players,
    Dealer,
    FirstHand,
    Taker,
    Partner,
    /// The card the taker called.
    Called,
    Attack,
    Defence,
    Tricks,
    LastTrick,
    /// The trick in play, at a player's turn (`must lead|play` and `keep`): the cards played to it so
    /// far, none when he leads.
    Trick,
    DogSize,
    /// `table_size`: the players at the table, one who sits the deal out included (`players` counts those
    /// who play).
    Table,
    /// The dog's cards as dealt (the discard's `require`).
    Dog,
    /// The hand of the player in question (annulments, declarations).
    Hand,
    /// The first packet dealt to the player in question, when the record gives the order of the deal.
    FirstPacket,
    /// The cards a declaration shows.
    Shown,
    /// A declaration's own value, inside its `require`s.
    DeclValue,
    /// The most the declaring player's hand allows of that declaration (`best_value`).
    BestValue,
    Discarded,
    /// The cards of one packet of the talon, where the talon's `rest` decides where it goes.
    Packet,
    /// The card that triggered a payment.
    Card,
    /// The trick being played is the last one.
    Last,
    /// The trick was won by the player who played the triggering card.
    WonByPlayer,
    Player,
    Payer,
    Payee,
    /// The sum of the score's terms.
    Total,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Count,
    Has,
    Abs,
    Floor,
    Ceil,
    Round,
    /// `pow(x, n)`: x multiplied by itself n times, n a whole number from 0 to 62 (a stake doubled
    /// once per double: `pow(2, declared(retour))`).
    Pow,
    Min,
    Max,
    Contains,
    Index,
    Complete,
    /// `run(set, order[, wild[, passable]])`: the run from the order's first step (`combinations::run_from_head`).
    Run,
    /// `runs(set, order, min)`: the lengths of the runs anywhere along the order (`combinations::runs`).
    Runs,
    /// `in_runs(set, order, min)`: the cards of those runs (`combinations::in_runs`).
    InRuns,
    /// Every card of the suits of the given cards.
    SuitOf,
    Points,
    /// What cards are worth one by one, added up (`points_of(card)`).
    PointsOf,
    Pile,
    /// `taken(p)`: how many cards a player or side has taken, the empty cards the Fool's exchange
    /// moves counted where they go.
    Taken,
    HandOf,
    /// `played(p)`: the cards `p` played to tricks.
    Played,
    /// `withheld(p)`: the cards `p` withheld from a trump obligation (`play { withhold }`) so far.
    Withheld,
    WinnerSide,
    Winner,
    /// `sat_out(p)`: whether `p` sits this deal out by choice (`sit-out-by-choice`).
    SatOut,
    /// A player's side: himself, his partner, or his whole camp.
    Side,
    /// How many tricks a player or side won.
    Won,
    WinningCard,
    /// `leading_card(t)`: the first card played to trick `t` (none for the trick in play before its lead).
    LeadingCard,
    Declared,
    /// `showed(D[, who])`: the cards shown in declaration `a[0]` (by a player or side).
    Showed,
    Announced,
    Declarer,
    /// `pot.NAME`: what pot number `a[0]` holds at this point of the deal's payments.
    Pot,
    /// `pot.NAME.carried`: what it held at the start of the deal.
    Carried,
    /// `carried(p)`: a player's running total in the match before this deal (the record's `standing`);
    /// for several players (a side), the sum of theirs.
    Standing,
    /// `dealt(p, N)`: the first N cards dealt to `p`, in the order of the deal (the deal event's `packets`).
    Dealt,
    /// `bid_before(p, CONTRACT)`: whether `p` bid the contract (its index, `a[1]`) in this auction,
    /// before the bid being judged (in a contract's `by`) or at all (once the auction is over).
    BidBefore,
    /// `passed_over(p, CONTRACT)`: whether `p` passed at a turn where no bid as high as the contract
    /// (its index, `a[1]`) had yet been made, so that it was still open to him.
    PassedOver,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompFunc {
    Count,
    Sum,
    Max,
    Min,
    All,
    Any,
}

#[derive(Clone, Debug)]
pub enum Expr {
    Const(Value),
    /// An option of the ruleset, by index.
    Opt(usize),
    /// A `let` of the ruleset (index into the constants, then the score's lets).
    Let(usize),
    /// A comprehension variable, by depth (0 = innermost).
    Var(usize),
    Fact(Fact),
    /// An attribute of the contract being played (`contract.multiplier`).
    Attr(Arc<str>),
    /// A declaration kind, by index, as the argument of `declared`/`announced`/`declarer`.
    Decl(usize),
    Un(UnOp, Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    List(Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
    Comp {
        func: CompFunc,
        /// The variable's name as written, for the rules in words (formulas read it by depth, `Var`).
        var: String,
        set: Box<Expr>,
        cond: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
    },
}

/// A binary operator of the rules language, as the parser reads it and a formula applies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Le,
    Ge,
    Lt,
    Gt,
    Add,
    Sub,
    Mul,
    Div,
}

/// A unary operator of the rules language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}
