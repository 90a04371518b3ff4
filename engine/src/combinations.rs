//! Combinations of cards: runs along an order, as the Italian games score them (Tarocchini's
//! *sequenze*, Minchiate's *versicole*). Sets of alike cards (three or four kings, a *cricca*) need
//! nothing new: `count(hand, rank(K)) >= 3` says it.
//!
//! An order is a list of steps, highest first; a step is a set of cards, and a set of cards *has* the
//! step when it holds any of them, so several cards of equal rank (Tarocchini's four Moors) can make one
//! step. These functions are pure: they see only the cards they are given, whether a hand (`hand_of(p)`,
//! `shown`) or the cards won (`pile(p)`), which is how one definition serves combinations declared from
//! the hand and combinations counted in the tricks.

use crate::cards::CardSet;

/// `run(set, order, wild[, passable])`: how long a run from the order's first step `set` makes, where
/// each card of `wild` that `set` holds stands for one missing step (*contatori*, Tarocchini's Bagatto
/// and Matto), and one missing step among those with a card in `passable` may be passed over without
/// counting (Barilli's Tarocchino: one of the top trumps of the *grande* may be missing, "saltato").
/// A wild card held is wild only: it does not also count in its own place of the order. The run goes
/// on while a step is held, passed over or filled, so wild cards fill the gaps and then lengthen the run
/// at its end, never beyond the last step. The length counts the cards of the run, wild ones included,
/// not the step passed over. With no wild or passable cards this is `run(set, order)`.
pub fn run_from_head(set: CardSet, order: &[CardSet], wild: CardSet, passable: CardSet) -> usize {
    let natural = set.minus(wild);
    let mut spare = set.and(wild).len();
    let (mut run, mut passed) = (0, false);
    for step in order {
        if natural.and(*step).is_empty() {
            // Passing over keeps a wild card for a later gap, which is worth as much or more.
            if !passed && !passable.and(*step).is_empty() {
                passed = true;
                continue;
            }
            if spare == 0 {
                break;
            }
            spare -= 1;
        }
        run += 1;
    }
    // Unless the order ended with a wild card to spare: it fills the step passed over instead.
    if passed && spare > 0 {
        run += 1;
    }
    run
}

/// The maximal stretches of consecutive steps of `order` that `set` has, as `(first step, length)`,
/// keeping those of at least `min` steps, in the order's order.
fn stretches(set: CardSet, order: &[CardSet], min: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < order.len() {
            while i < order.len() && set.and(order[i]).is_empty() {
                i += 1;
            }
            let start = i;
            while i < order.len() && !set.and(order[i]).is_empty() {
                i += 1;
            }
            if i > start && i - start >= min.max(1) {
                return Some((start, i - start));
            }
        }
        None
    })
}

/// `runs(set, order, min)`: the lengths of the runs `set` holds anywhere along `order`, each a
/// maximal stretch of consecutive steps, keeping those of at least `min` steps (Minchiate: "three cards
/// in sequence", *tre carte andanti*). Highest run first.
pub fn runs(set: CardSet, order: &[CardSet], min: usize) -> Vec<usize> {
    stretches(set, order, min).map(|(_, len)| len).collect()
}

/// `in_runs(set, order, min)`: the cards of `set` that lie in those runs, so that a formula can value
/// a run by its cards (Minchiate counts each card of a *versicola* at its own value, two or three times).
pub fn in_runs(set: CardSet, order: &[CardSet], min: usize) -> CardSet {
    stretches(set, order, min).fold(CardSet::EMPTY, |acc, (start, len)| order[start..start + len].iter().fold(acc, |acc, step| acc.or(set.and(*step))))
}
