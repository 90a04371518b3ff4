//! `every-card-counts`: a declaration whose shown cards must each count, so that a card shown beside
//! the combinations but completing none of them is refused (Tarocchini's accusi: a 10 of trumps shown
//! beside the Angel, the World and the Matto). A card counts when leaving it out lowers the value, or
//! breaks a requirement that held with it: the same test that finds the trimmed show the simulator
//! tries (`Game::shows_to_try`).

use crate::cards::{Card, CardSet};
use crate::expr::{eval, truthy, Expr, Fact, Value};
use crate::ir::DeclarationKind;
use crate::num::Q;

use super::Game;

impl<'s, 'r> Game<'s, 'r> {
    /// A card of `shown` that counts for nothing in declaration `d` worth `value` (the weakest such
    /// card, the Fool first), or `None` when every card counts or the declaration does not ask it.
    pub(super) fn idle_card(&self, p: u8, hand: CardSet, d: &DeclarationKind, shown: CardSet, value: Q) -> Option<Card> {
        d.every_card_counts.as_ref()?;
        let e = d.value.as_ref()?;
        let mut env = self.env(Some(p)).with_hand(hand);
        let requires: Vec<&Expr> = d.requires.iter().map(|(_, c, _)| c).filter(|c| !c.mentions(Fact::DeclValue) && !c.mentions(Fact::BestValue)).collect();
        let mut held = |s: CardSet| -> Vec<bool> {
            env.shown = Some(s);
            requires.iter().map(|c| eval(c, &env).ok().and_then(|v| truthy(&v).ok()).unwrap_or(false)).collect()
        };
        let with = held(shown);
        let mut cards: Vec<Card> = shown.iter().filter(|c| c.is_fool()).chain(shown.iter().filter(|c| !c.is_fool())).collect();
        cards.dedup();
        cards.into_iter().find(|&c| {
            let mut without = shown;
            without.remove(c);
            let mut env = self.env(Some(p)).with_hand(hand);
            env.shown = Some(without);
            let worth = match eval(e, &env) {
                Ok(Value::Num(q)) => q,
                Ok(Value::Bool(b)) => Q::int(b as i64),
                _ => return false,
            };
            worth == value && with.iter().zip(held(without)).all(|(before, after)| !before || after)
        })
    }
}
