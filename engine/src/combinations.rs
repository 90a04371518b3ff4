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
        assert_eq!(run_from_head(set(hand), &order(steps), set(wild), CardSet::EMPTY), expected, "run of {hand} along {steps}, wild {wild}");
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

    /// Pisarri (1754), as Dummett and McLeod give it (A History of Games Played with the Tarot Pack,
    /// p. 261 n. 6, quoted at forum.tarothistory.com): "if one side has World, 14, 12, 10, 9, 7, 5, Begato,
    /// the critical trump is the 12 (since the Matto can be substituted for the 14) ... the value of the
    /// grande held by the other side is 105-(12+3) x 5=30": a grande of seven, Angel, Sun, Moon, 16, 15,
    /// the Matto for the 14, and 13, the World passed over. Codes as in a 78-card stand-in: the Angel
    /// T21, World T20, Sun T19, Moon T18, the numbered trumps 16 to 5 as T17 to T6, the Moors T5 to T2,
    /// the Bagattino T1, the Matto EX.
    #[test]
    fn pisarris_grande_of_seven() {
        let grande = order("T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6");
        let other_side = set("T20 T15 T13 T11 T10 T8 T6 T1");
        let angel_side = CardSet::trumps().or(set("EX")).minus(other_side);
        let (contatori, top) = (set("T1 EX"), set("T20 T19 T18"));
        let length = run_from_head(angel_side, &grande, contatori, top);
        assert_eq!(length, 7);
        // Barilli: three cards make a sequence, and each card more adds 5; Pisarri's reckoning agrees.
        assert_eq!(10 + 5 * (length - 3), 105 - (12 + 3) * 5);
        // Without the World passed over, the Matto fills the World and the run breaks at the 14.
        assert_eq!(run_from_head(angel_side, &grande, contatori, CardSet::EMPTY), 6);
    }

    #[test]
    fn a_step_passed_over_counted_by_hand() {
        let suit = order("KS QS CS JS");
        // Barilli: in a suit's sequence one card but the king may be missing: K, C, J is three.
        assert_eq!(run_from_head(set("KS CS JS"), &suit, CardSet::EMPTY, set("QS CS JS")), 3);
        // Only one step may be passed over: with the queen and cavalier missing, the run is the king alone.
        assert_eq!(run_from_head(set("KS JS"), &suit, CardSet::EMPTY, set("QS CS JS")), 1);
        // The king is not passable, so without him there is no run.
        assert_eq!(run_from_head(set("QS CS JS"), &suit, CardSet::EMPTY, set("QS CS JS")), 0);
        // A wild card to spare at the end of the order fills the step passed over: K, Q, [C], J = 4.
        assert_eq!(run_from_head(set("KS QS JS EX"), &suit, set("EX"), set("QS CS JS")), 4);
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
        assert_eq!(run_from_head(set("T6 T5 T2"), &steps, CardSet::EMPTY, CardSet::EMPTY), 3);
        assert_eq!(runs(set("T6 T5 T3 T2"), &steps, 3), vec![3]);
        assert_eq!(in_runs(set("T6 T5 T3 T2 KS"), &steps, 3), set("T6 T5 T3 T2"));
    }
}
