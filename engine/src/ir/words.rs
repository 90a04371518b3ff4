//! The settings that are one of a few words (the fool's `led`, the direction of play, a contract's
//! `dog`, the talon's `rest`, ...), resolved by the compiler into typed choices: a word a setting does
//! not know is refused where it is written, and replay reads an enum, never a text.

use crate::expr::{eval, truthy, Env, Expr, Value};

/// A setting's words, as a rule file writes them, each with its meaning.
pub trait Words: Copy + PartialEq + std::fmt::Debug + 'static {
    const WORDS: &'static [(&'static str, Self)];

    /// The meaning of a word, if it is one of the setting's.
    fn parse(t: &str) -> Option<Self> {
        Self::WORDS.iter().find(|(w, _)| *w == t).map(|(_, v)| *v)
    }

    /// The word a rule file writes for this meaning.
    fn word(self) -> &'static str {
        Self::WORDS.iter().find(|(_, v)| *v == self).map_or("", |(w, _)| w)
    }

    /// The words allowed, quoted: `"a", "b"`.
    fn listed() -> String {
        Self::WORDS.iter().map(|(w, _)| format!("\"{w}\"")).collect::<Vec<_>>().join(", ")
    }

    /// The compiler's message for a statement `key` that gives `given` (a text as written, or a kind
    /// of value in brackets) where one of the words is wanted.
    fn refusal(key: &str, given: &str) -> String {
        format!("`{key}` is one of {}, not \"{given}\"", Self::listed())
    }
}

/// A word setting as the compiler resolved it: a word, the word for each choice of an option, or a
/// condition choosing between two of them (read where the setting is worked out: options and
/// contract before the game, the player for `goes-to`).
#[derive(Clone, Debug)]
pub enum Choice<T> {
    Is(T),
    /// `option.NAME`: the word each choice of the option means (every choice is one).
    ByOption(usize, Vec<(Value, T)>),
    /// `if condition then ... else ...`.
    If(Expr, Box<Choice<T>>, Box<Choice<T>>),
}

impl<T: Words> Choice<T> {
    /// The word in force where `env` reads the options (and whatever the conditions read).
    pub fn get(&self, env: &dyn Env) -> Result<T, String> {
        match self {
            Choice::Is(t) => Ok(*t),
            Choice::ByOption(i, table) => {
                let v = env.option(*i);
                table.iter().find(|(c, _)| *c == v).map(|(_, t)| *t).ok_or_else(|| format!("option value {v:?} is none of the option's choices"))
            }
            Choice::If(c, a, b) => {
                if truthy(&eval(c, env)?)? {
                    a.get(env)
                } else {
                    b.get(env)
                }
            }
        }
    }

    /// Whether some choice of the options gives this word.
    pub fn may_be(&self, t: T) -> bool {
        match self {
            Choice::Is(x) => *x == t,
            Choice::ByOption(_, table) => table.iter().any(|(_, x)| *x == t),
            Choice::If(_, a, b) => a.may_be(t) || b.may_be(t),
        }
    }

    /// Whether the setting is this word whatever the game.
    pub fn is(&self, t: T) -> bool {
        matches!(self, Choice::Is(x) if *x == t)
    }

    /// The setting as a formula, as it was written (the rules in words read it).
    pub fn expr(&self) -> Expr {
        match self {
            Choice::Is(t) => Expr::Const(Value::Str(t.word().into())),
            Choice::ByOption(i, _) => Expr::Opt(*i),
            Choice::If(c, a, b) => Expr::If(Box::new(c.clone()), Box::new(a.expr()), Box::new(b.expr())),
        }
    }
}

macro_rules! words {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $t:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum $name { $($(#[$vm])* $v),+ }
        impl Words for $name {
            const WORDS: &'static [(&'static str, Self)] = &[$(($t, $name::$v)),+];
        }
    };
}

words! {
    /// The fool's `led`: what a trick led with the Fool follows.
    FoolLed { NextCardSetsSuit = "next-card-sets-suit", Forbidden = "forbidden" }
}
words! {
    /// The fool's `keep`: its side keeps it, or hands it to the trick's winner for an empty card.
    FoolKeep { Keep = "keep", Exchange = "exchange" }
}
words! {
    /// The fool's `shut_out`: a holder who takes no trick keeps it, or gives it to the trick's winner.
    FoolShutOut { Keep = "keep", ToWinner = "to-winner" }
}
words! {
    /// The fool's `slam_wins`: it wins the last trick of a slam only led, or however played.
    FoolSlamWins { Led = "led", Played = "played" }
}
words! {
    /// The play's `direction`.
    Direction { Anticlockwise = "anticlockwise", Clockwise = "clockwise" }
}
words! {
    /// The deal's `next_dealer` and `next_dealer_annulled`: who deals a table's next deal. First hand
    /// (the player after the dealer in the direction of play), the same dealer again, or the deal's
    /// taker.
    NextDealer { FirstHand = "first-hand", Dealer = "dealer", Taker = "taker" }
}
words! {
    /// The bidding's `hold`: forehand's, or by seniority.
    Hold { Forehand = "forehand", Seniority = "seniority" }
}
words! {
    /// The talon's `rest`: where the packets the taker does not take go.
    TalonRest { Defence = "defence", Taker = "taker" }
}
words! {
    /// The talon's `discard`: the taker discards after taking the talon, or before he sees it.
    TalonDiscard { After = "after", Before = "before" }
}

/// The discard's `goes-to`: each discard stays the discarder's, or goes to his next opponent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GoesTo {
    Discarder,
    Opponents,
}

impl Words for GoesTo {
    const WORDS: &'static [(&'static str, Self)] = &[("discarder", GoesTo::Discarder), ("opponents", GoesTo::Opponents)];
    fn refusal(key: &str, given: &str) -> String {
        format!("`{key}` is \"discarder\" or \"opponents\", not {given}")
    }
}

impl Words for super::DogUse {
    const WORDS: &'static [(&'static str, Self)] = &[("taker", Self::Taker), ("taker-unseen", Self::TakerUnseen), ("defence", Self::Defence)];
    fn refusal(_: &str, given: &str) -> String {
        format!("a contract's `dog` is \"taker\" (shown, taken, discarded), \"taker-unseen\" or \"defence\", not \"{given}\"")
    }
}

impl Words for super::FoolLast {
    const WORDS: &'static [(&'static str, Self)] = &[("changes-side", Self::ChangesSide), ("to-winner", Self::Winner), ("keep", Self::Keep)];
}
