//! The shows a hand has for a declaration: the cards it may show, the best show and what it is
//! worth; and the cards a declaration binds its maker to keep (`keeps`).

use crate::cards::{Card, CardSet, FOOL};
use crate::expr::{eval, truthy, Expr, Fact, Value};
use crate::ir::*;
use crate::num::Q;

use super::{Game, GameEnv};

impl<'s, 'r> Game<'s, 'r> {
    /// The declaration `p` made that binds him to keep card `c` (`keeps`), if any.
    pub(super) fn kept_by(&self, p: u8, c: Card) -> Option<&'r DeclarationKind> {
        let rules = self.rules();
        self.declarations.iter().filter(|x| x.player == p).map(|x| &rules.declarations[x.kind]).find(|d| d.keeps.as_ref().is_some_and(|(k, _)| k.contains(c)))
    }

    /// The cards of `allowed` that `p` may play, once the cards his declarations bind him to keep are
    /// held back: all of them in the last trick, or when nothing else is allowed (a kept card driven
    /// out is played, and the score may say what that costs).
    pub(super) fn keeping(&self, p: u8, allowed: CardSet) -> CardSet {
        if self.cards_to_play(p) <= 1 {
            return allowed;
        }
        let rules = self.rules();
        let kept = self.declarations.iter().filter(|x| x.player == p).filter_map(|x| rules.declarations[x.kind].keeps.as_ref()).fold(CardSet::EMPTY, |a, (k, _)| a.or(*k));
        let free = allowed.minus(kept);
        if free.is_empty() {
            allowed
        } else {
            free
        }
    }

    /// The largest show of `hand` that makes declaration `d` valid (every `require` holds and a value,
    /// where the declaration has one, is not zero), trying the strongest cards first and the Fool last; `None` when there is none.
    /// The declaration's timing and who may make it are not considered.
    pub fn best_show(&self, p: u8, hand: CardSet, d: &DeclarationKind) -> Option<CardSet> {
        // The largest valid run from the strongest card, unless the trimmed show (tried last) is
        // worth more.
        let (runs, trimmed) = self.shows_to_try(p, hand, d);
        let best = runs.into_iter().find_map(|shown| self.valid_show(p, hand, d, shown).map(|v| (v, shown)));
        match trimmed.and_then(|shown| self.valid_show(p, hand, d, shown).map(|v| (v, shown))) {
            Some((v, shown)) if best.is_none_or(|(b, _)| v > b) => Some(shown),
            _ => best.map(|(_, shown)| shown),
        }
    }

    /// The most any valid show of `hand` is worth for declaration `d` (zero when there is none), over
    /// the same shows [`Game::best_show`] tries: what `best_value` means in a `require`.
    pub fn best_value(&self, p: u8, hand: CardSet, d: &DeclarationKind) -> Q {
        let (runs, trimmed) = self.shows_to_try(p, hand, d);
        runs.into_iter().chain(trimmed).filter_map(|shown| self.valid_show(p, hand, d, shown)).max().unwrap_or(Q::ZERO)
    }

    /// The cards of `hand` that `p` may show in `d`: those it shows, but for any he took from an unseen
    /// talon (`talon { unseen }`), which he shows to nobody before the hand's end.
    pub(super) fn showable(&self, p: u8, hand: CardSet, d: &DeclarationKind) -> CardSet {
        hand.and(d.shows).minus(self.unseen_taken(p))
    }

    /// The strongest card of `hand` that `d` shows, then the two strongest, and so on, the Fool last;
    /// largest first. Apart, where the declaration has a value, the smallest show worth as much as all
    /// those cards: each card left out in turn, the Fool and the weakest first, when the value does
    /// not drop without it and no requirement that held with it fails without it (Matadors whose
    /// value is the run down from the XXI but which `require` the Fool and the Pagat keep both).
    /// That show is the combinations the hand holds without the cards that complete none (an
    /// Imperial of four courts of a suit beside a stray Queen, the highest and lowest sequences of
    /// trumps without the trumps between), which no run from the strongest card reaches.
    pub(super) fn shows_to_try(&self, p: u8, hand: CardSet, d: &DeclarationKind) -> (impl Iterator<Item = CardSet>, Option<CardSet>) {
        let showable = self.showable(p, hand, d);
        let mut ordered: Vec<Card> = showable.iter().filter(|c| !c.is_fool()).collect();
        ordered.reverse();
        if showable.contains(FOOL) {
            ordered.push(FOOL);
        }
        let trimmed = d.value.as_ref().and_then(|e| {
            let mut env = self.env(Some(p)).with_hand(hand);
            let mut worth = |shown: CardSet| -> Option<Q> {
                env.shown = Some(shown);
                match eval(e, &env) {
                    Ok(Value::Num(q)) => Some(q),
                    _ => None,
                }
            };
            let mut shown: CardSet = ordered.iter().copied().collect();
            let all = worth(shown).filter(|q| *q != Q::ZERO)?;
            // The requirements that can be judged before the value (those that read it, or
            // `best_value`, cannot): a card is kept when one that holds needs it.
            let requires: Vec<&Expr> = d.requires.iter().map(|(_, c, _)| c).filter(|c| !c.mentions(Fact::DeclValue) && !c.mentions(Fact::BestValue)).collect();
            let mut env = self.env(Some(p)).with_hand(hand);
            let mut holding = |shown: CardSet| -> Vec<bool> {
                env.shown = Some(shown);
                requires.iter().map(|c| eval(c, &env).ok().and_then(|v| truthy(&v).ok()).unwrap_or(false)).collect()
            };
            let mut held = holding(shown);
            for &c in ordered.iter().rev() {
                let mut without = shown;
                without.remove(c);
                if worth(without) != Some(all) {
                    continue;
                }
                let still = holding(without);
                if held.iter().zip(&still).all(|(before, after)| !before || *after) {
                    shown = without;
                    held = still;
                }
            }
            Some(shown).filter(|s| s.len() < ordered.len())
        });
        ((1..=ordered.len()).rev().map(move |size| ordered[..size].iter().copied().collect::<CardSet>()), trimmed)
    }

    /// The value of a valid show, `None` when a `require` fails or the value is zero. Requirements
    /// that compare with `best_value` are left out: they are about which show to make, not whether one
    /// can be made.
    pub(super) fn valid_show(&self, p: u8, hand: CardSet, d: &DeclarationKind, shown: CardSet) -> Option<Q> {
        let mut env = self.env(Some(p)).with_hand(hand);
        env.shown = Some(shown);
        let holds = |cond: &Expr, env: &GameEnv| eval(cond, env).ok().and_then(|v| truthy(&v).ok()).unwrap_or(false);
        let requires = || d.requires.iter().map(|(_, c, _)| c).filter(|c| !c.mentions(Fact::BestValue));
        // Requirements that do not need the value first: most shows fail one of them cheaply.
        if !requires().filter(|c| !c.mentions(Fact::DeclValue)).all(|c| holds(c, &env)) {
            return None;
        }
        // A declaration with a value is valid only when it is worth something; one without (an
        // announcement) is worth nothing, as `declare` records it.
        let value = match &d.value {
            Some(e) => match eval(e, &env) {
                Ok(Value::Num(q)) if q != Q::ZERO => q,
                _ => return None,
            },
            None => Q::ZERO,
        };
        env.decl_value = Some(value);
        let valid = requires().filter(|c| c.mentions(Fact::DeclValue)).all(|c| holds(c, &env));
        (valid && self.idle_card(p, hand, d, shown, value).is_none()).then_some(value)
    }
}
