//! A second Point Tarock scorer, written from the sources (not from the engine): Furr's "identical to
//! Tapp but for the addition of a special announcement" (Wikipedia, *Point Tarock*), so the Tapp Tarock
//! scorer (`common/tapp_tarock.rs`) with Beck's bids, the Lower (4) and the Upper (5), and his point
//! announcement as the harbour-tarock specification quotes German Wikipedia (§3.8): after the exchange
//! the declarer may announce "with 40" (3), "with 45" (6), "with 50" (10) or "with 55" (15), each
//! including the lower ones; each level is settled on its own, won when his card points reach it, lost
//! when not, each doubled on its own by a Kontra. Its example: "with 50" and 46 made is -10 + 6 + 3 = -1.

use tarot_engine::GameRecord;

use super::tapp_tarock::{self, Scored};

/// The levels: the card points aimed at and the announcement's value.
pub const LEVELS: [(i64, i64); 4] = [(40, 3), (45, 6), (50, 10), (55, 15)];

/// The announcement's settlement for the declarer against each defender: the sum over the levels his
/// announcement of `target` includes, each won or lost, doubled where `kontra(level)`.
pub fn announcement(target: i64, points: i64, kontra: impl Fn(i64) -> bool) -> i64 {
    LEVELS.iter().filter(|&&(level, _)| level <= target).map(|&(level, value)| (if points >= level { value } else { -value }) * if kontra(level) { 2 } else { 1 }).sum()
}

/// A finished deal scored: the Tapp Tarock scorer's `Scored`, with the announcement's items added, and
/// the level announced (0 for none).
pub fn score(rec: &GameRecord, forehand_leads: bool) -> (Scored, i64) {
    let mut s = tapp_tarock::score_with(rec, forehand_leads, true);
    let mut target = 0;
    for d in &s.point_declarations {
        if let Some(level) = d.strip_prefix("mit") {
            assert_eq!(target, 0, "one announcement a deal");
            target = level.parse().expect("mit40, mit45, mit50 or mit55");
        }
    }
    let kontras = s.point_declarations.clone();
    let side = announcement(target, s.points, |level| kontras.contains(&format!("kontra{level}")));
    let declarer = rec
        .events
        .iter()
        .rev()
        .find_map(|e| match e {
            tarot_engine::Event::Bid { player, bid } if bid != "pass" => Some(player.to_string()),
            _ => None,
        })
        .expect("a declarer");
    for (name, x) in s.scores.iter_mut() {
        *x += if *name == declarer { 2 * side } else { -side };
    }
    (s, target)
}

#[test]
fn the_sources_example_with_50_and_46_made_is_one_to_each_defender() {
    assert_eq!(announcement(50, 46, |_| false), -1);
    assert_eq!(announcement(55, 55, |_| false), 3 + 6 + 10 + 15);
    assert_eq!(announcement(45, 44, |l| l == 45), 3 - 12);
    assert_eq!(announcement(0, 70, |_| true), 0);
}
