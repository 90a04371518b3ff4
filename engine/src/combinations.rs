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

/// `run(set, order, wild)`: how many steps of `order`, from its first, `set` covers, where each card of
/// `wild` that `set` holds stands for one missing step (*contatori*, Tarocchini's Bagatto and Matto).
/// A wild card held is wild only: it does not also count in its own place of the order. The run goes
/// on while a step is held or a wild card is left for it, so wild cards fill the first gaps and then
/// lengthen the run at its end, never beyond the last step. With no wild cards this is `run(set, order)`.
pub fn run_from_head(set: CardSet, order: &[CardSet], wild: CardSet) -> usize {
    let natural = set.minus(wild);
    let mut spare = set.and(wild).len();
    let mut run = 0;
    for step in order {
        if natural.and(*step).is_empty() {
            if spare == 0 {
                break;
            }
            spare -= 1;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;

    /// A set of cards from codes: "T21 T20 EX".
    fn set(codes: &str) -> CardSet {
        codes.split_whitespace().fold(CardSet::EMPTY, |acc, c| acc.or(CardSet::single(Card::parse(c).unwrap_or_else(|| panic!("{c}")))))
    }

    /// An order of single cards, highest first.
    fn order(codes: &str) -> Vec<CardSet> {
        codes.split_whitespace().map(set).collect()
    }

    fn check_run(hand: &str, steps: &str, wild: &str, expected: usize) {
        assert_eq!(run_from_head(set(hand), &order(steps), set(wild)), expected, "run of {hand} along {steps}, wild {wild}");
    }

    #[test]
    fn a_run_from_the_head_counted_by_hand() {
        let top = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12";
        // 21 20 19, then the 18 is missing: three.
        check_run("T21 T20 T19 T17 KS", top, "", 3);
        // The Fool stands for the 18, and the run goes on to the 17: five.
        check_run("T21 T20 T19 T17 EX", top, "T1 EX", 5);
        // Two wild cards: they fill the 18 and the 16, and the run breaks at the missing 15: six.
        check_run("T21 T20 T19 T17 EX T1", top, "T1 EX", 6);
        // The Fool fills the 20, then the run goes 19 18 17 16 15 and breaks at the missing 14: seven steps.
        check_run("T21 T19 T18 T17 T16 T15 T13 EX", top, "T1 EX", 7);
        // Without the head the run is none, unless a wild card stands for it: a formula that wants the head
        // itself writes `has(hand, T21) and ...`.
        check_run("T20 T19 T18", top, "", 0);
        check_run("T20 T19 T18 EX", top, "EX", 4);
        // A wild card held is wild only: T1 at the bottom of the order fills the first gap, not its own place.
        check_run("T3 T2 T1", "T3 T2 T1", "T1", 3);
        check_run("T3 T1", "T3 T2 T1", "T1", 2);
        // Wild cards never lengthen a run past the last step.
        check_run("KS EX T1", "KS QS", "EX T1", 2);
    }

    #[test]
    fn runs_anywhere_counted_by_hand() {
        let low = order("T1 T2 T3 T4 T5");
        // Minchiate's trumps 28 to 35 stand here as T14 to T21 (the 78-card pack has no trump 28): the
        // order is data, so the codes do not matter to the counting.
        let high = order("T14 T15 T16 T17 T18 T19 T20 T21");
        // Minucci's example: 32, 33, 34, 35 shown (T18 to T21): one run of four.
        assert_eq!(runs(set("T18 T19 T20 T21"), &high, 3), vec![4]);
        // The 33 captured: 32 alone and 34 35, no run of three left ("the versicola is broken").
        assert_eq!(runs(set("T18 T20 T21"), &high, 3), Vec::<usize>::new());
        assert_eq!(in_runs(set("T18 T20 T21"), &high, 3), CardSet::EMPTY);
        // The 35 captured: 32 33 34 remain, still a versicola.
        assert_eq!(runs(set("T18 T19 T20"), &high, 3), vec![3]);
        // Two runs in one order, and a stretch too short.
        assert_eq!(runs(set("T14 T15 T16 T18 T19 T21"), &high, 3), vec![3]);
        assert_eq!(runs(set("T14 T15 T16 T18 T19 T20 T21 KS"), &high, 3), vec![3, 4]);
        assert_eq!(runs(set("T14 T15 T16 T18 T19 T21"), &high, 2), vec![3, 2]);
        assert_eq!(in_runs(set("T14 T15 T16 T18 T19 T21 KS"), &high, 3), set("T14 T15 T16"));
        assert_eq!(runs(set("T1 T2 T3 T4 T5"), &low, 3), vec![5]);
        assert_eq!(runs(set("T1 T2 T4 T5"), &low, 3), Vec::<usize>::new());
        // `min` below 1 counts as 1: every stretch.
        assert_eq!(runs(set("T1 T3"), &low, 0), vec![1, 1]);
    }

    #[test]
    fn a_step_of_several_equal_cards() {
        // Four equal cards as one step (Tarocchini's Moors): any one of them has the step.
        let steps = vec![set("T6"), set("T5"), set("T4 T3 T2 T1")];
        assert_eq!(run_from_head(set("T6 T5 T2"), &steps, CardSet::EMPTY), 3);
        assert_eq!(runs(set("T6 T5 T3 T2"), &steps, 3), vec![3]);
        assert_eq!(in_runs(set("T6 T5 T3 T2 KS"), &steps, 3), set("T6 T5 T3 T2"));
    }
}
