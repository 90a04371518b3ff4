//! The second Cego scorer's count in twos (`common/cego.rs` reads a `cego-twos` record with it), written
//! from pagat.com's section "Cards counted in twos" with nothing from the rule files:
//!
//! - The cards of a pile are laid out in pairs, and each pair is worth its two values added, less one.
//! - The side with 40 or more of the pack's 79 wins; there is no tie.
//! - The base value is read from P's table, row by row as P prints it (the opponents' "59 - 59" beside
//!   the declarer's 20 to 24 taken as 55 to 59), and multiplied by the factor of the game played: the
//!   Gasthaus zum Löwen's (Solo 2 won and 1 lost, Cego 1 up to Kleiner Mann 6, one more for a game bid
//!   over a Solo), not rounded.

/// P's table by the declarer's points: the lowest and highest of a row and its base value, the
/// declarer winning (40 and over) and losing.
const TABLE: [(i64, i64, i64); 16] = [
    (75, 79, 8),
    (70, 74, 7),
    (65, 69, 6),
    (60, 64, 5),
    (55, 59, 4),
    (50, 54, 3),
    (45, 49, 2),
    (40, 44, 1),
    (35, 39, 1),
    (30, 34, 2),
    (25, 29, 3),
    (20, 24, 4),
    (15, 19, 5),
    (10, 14, 6),
    (5, 9, 7),
    (0, 4, 8),
];

/// A pile's points counted in pairs: the cards' values taken two at a time in the pile's order, each
/// pair's sum less one. Every Cego pile of four players holds an even number of cards.
pub fn points_in_pairs(values: &[i64]) -> i64 {
    assert!(values.len().is_multiple_of(2), "a pile of {} cards cannot be laid out in pairs", values.len());
    values.chunks(2).map(|pair| pair[0] + pair[1] - 1).sum()
}

/// The base value of P's table for the declarer's points.
pub fn base(declarer_points: i64) -> i64 {
    TABLE.iter().find(|&&(lo, hi, _)| (lo..=hi).contains(&declarer_points)).map(|&(_, _, b)| b).unwrap_or_else(|| panic!("{declarer_points} is not in P's table"))
}

/// The game's value to the declarer from each defender: the base times the factor, won with 40 or
/// more, else paid.
pub fn game_value(contract: &str, over_solo: bool, declarer_points: i64) -> i64 {
    let made = declarer_points >= 40;
    let factor = super::cego::game_factor(contract, made, over_solo);
    let value = base(declarer_points) * factor;
    if made {
        value
    } else {
        -value
    }
}
