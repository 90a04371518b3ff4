//! The functions of the rules language in words: `count(x, S)` as "the number of S in x", `pile(p)`
//! as "p's pile", a pot, a contract or a declaration by its label.

use crate::expr::{BinOp, Expr, Fact, Func};

use super::super::with_article;
use super::InForce;

impl InForce<'_> {
    pub(in crate::describe) fn call_words(&self, f: Func, args: &[Expr]) -> String {
        let w = |i: usize| args.get(i).map(|x| self.words_in(x, 5)).unwrap_or_default();
        let rest = || args.iter().skip(1).map(|x| self.words_in(x, 5)).collect::<Vec<_>>().join(", ");
        match (f, args.len()) {
            (Func::Count, 1) if matches!(args[0], Expr::Fact(Fact::Tricks)) => "the number of tricks".into(),
            (Func::Count, 1) if matches!(args[0], Expr::Fact(Fact::Trick)) => "the number of cards in the trick in play".into(),
            (Func::Count, 1) if matches!(args[0], Expr::Fact(Fact::Attack | Fact::Defence | Fact::Players)) => format!("the number of players in {}", w(0)),
            (Func::Count, 1) => format!("the number of {}", w(0)),
            (Func::Count, _) => format!("the number of {} in {}", w(1), w(0)),
            (Func::Has, _) => format!("{} holds {}", w(0), w(1)),
            (Func::Abs, _) => match &args[0] {
                Expr::Bin(BinOp::Sub, a, b) => format!("the gap between {} and {}", self.words_in(a, 3), self.words_in(b, 3)),
                _ => format!("the size of {}", w(0)),
            },
            (Func::Floor, _) => format!("{}, rounded down", self.words_in(&args[0], 0)),
            (Func::Ceil, _) => format!("{}, rounded up", self.words_in(&args[0], 0)),
            (Func::Pow, _) => format!("{} to the power {}", self.words_in(&args[0], 6), self.words_in(&args[1], 6)),
            (Func::Round, _) => format!("{}, rounded", self.words_in(&args[0], 0)),
            (Func::Min, _) => format!("the least of {}", args.iter().map(|x| self.words_in(x, 1)).collect::<Vec<_>>().join(" and ")),
            (Func::Max, _) => format!("the most of {}", args.iter().map(|x| self.words_in(x, 1)).collect::<Vec<_>>().join(" and ")),
            (Func::Contains, _) => format!("{} includes {}", w(0), w(1)),
            (Func::Index, _) => format!("the place of {} in {}", w(1), w(0)),
            (Func::Complete, _) => format!("{} holds all of {}", w(0), rest()),
            (Func::Run, 4) => format!("{} holds a run of {}, with {} standing in for missing cards and one of {} passed over", w(0), w(1), w(2), w(3)),
            (Func::Run, 3) => format!("{} holds a run of {}, with {} standing in for missing cards", w(0), w(1), w(2)),
            (Func::Run, _) => format!("{} holds a run of {}", w(0), rest()),
            (Func::Runs, _) => format!("the runs of at least {} of {} in {}", w(2), w(1), w(0)),
            (Func::InRuns, _) => format!("the cards of {} in runs of at least {} of {}", w(0), w(2), w(1)),
            (Func::SuitOf, _) => format!("the suits of {}", w(0)),
            (Func::Points, _) => format!("{} card points", possessive(&w(0))),
            (Func::PointsOf, _) => format!("what {} count{} card by card", w(0), if matches!(&args[0], Expr::Fact(_)) { "s" } else { "" }),
            (Func::Pile, _) => format!("{} pile", possessive(&w(0))),
            (Func::Taken, _) => format!("the number of cards {} took", w(0)),
            (Func::HandOf, _) => format!("{} hand", possessive(&w(0))),
            (Func::Played, _) => format!("the cards {} played", w(0)),
            (Func::Withheld, _) => format!("what {} withheld from the trump obligations", w(0)),
            (Func::WinnerSide, _) => format!("the side that won {}", w(0)),
            (Func::Winner, _) => format!("the winner of {}", w(0)),
            (Func::SatOut, _) => format!("{} sits the deal out", w(0)),
            (Func::Side, _) => format!("{} side", possessive(&w(0))),
            (Func::Won, _) => format!("the tricks {} won", w(0)),
            (Func::WinningCard, _) => format!("the card that won {}", w(0)),
            (Func::LeadingCard, _) => format!("the card that led {}", w(0)),
            (Func::Declared, 1) => format!("the {} declared", w(0)),
            (Func::Declared, _) => format!("the {} {} declared", w(0), w(1)),
            (Func::Showed, 1) => format!("the cards shown in the {}", w(0)),
            (Func::Showed, _) => format!("the cards {} showed in the {}", w(1), w(0)),
            (Func::Announced, _) => format!("{} was announced", with_article(&w(0))),
            (Func::Declarer, _) => format!("whoever declared the {}", w(0)),
            (Func::Pot | Func::Carried, _) => {
                let pot = match args.first() {
                    Some(Expr::Const(crate::expr::Value::Num(i))) => self.rules.pots.get(i.numer() as usize).map_or_else(|| "the pot".to_string(), |p| p.label.to_string()),
                    _ => "the pot".to_string(),
                };
                if f == Func::Pot {
                    format!("what {pot} holds")
                } else {
                    format!("what {pot} held at the start of the deal")
                }
            }
            (Func::Standing, _) => format!("what {} carried into this deal from the match", w(0)),
            (Func::Dealt, _) => format!("the first {} cards dealt to {}", w(1), w(0)),
            (Func::BidBefore | Func::PassedOver, _) => {
                // The contract is compiled to its index in the auction's list.
                let contract = match args.get(1) {
                    Some(Expr::Const(crate::expr::Value::Num(i))) => {
                        self.rules.bidding.as_ref().and_then(|b| b.contracts.get(i.numer() as usize)).map_or_else(|| "the contract".to_string(), |c| c.label.to_string())
                    }
                    _ => "the contract".to_string(),
                };
                if f == Func::BidBefore {
                    format!("{} bid {contract} earlier in the auction", w(0))
                } else {
                    format!("{} passed when {contract} was still open to him", w(0))
                }
            }
        }
    }
}

/// "the attack's", "the players'".
pub(in crate::describe) fn possessive(x: &str) -> String {
    if x.ends_with('s') {
        format!("{x}'")
    } else {
        format!("{x}'s")
    }
}
