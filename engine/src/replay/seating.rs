//! Who plays a deal, in which order: the table of the record turned into the players of one deal.

use super::Setup;

/// Who plays a deal: every player, or, where the dealer sits out, the others. Play starts after the
/// dealer either way; at a table where he sits out, the player before first hand stands as the
/// dealer among those who play (so `dealer` in a formula names him).
pub struct Seating {
    pub playing: Vec<String>,
    /// The dealer among `playing`, by index.
    pub dealer: u8,
    pub sits_out: Option<String>,
}

impl Seating {
    /// `players` as the record lists them, each followed by the player to his right; `dealer` among
    /// them. Where play goes clockwise, the order of play is the list's reverse.
    pub fn of(setup: &Setup, players: &[String], dealer: usize) -> Seating {
        let (mut playing, mut dealer) = (players.to_vec(), dealer);
        if setup.clockwise && !playing.is_empty() {
            playing.reverse();
            dealer = playing.len() - 1 - dealer;
        }
        if !setup.rules.sits_out(playing.len()) || playing.len() < 2 {
            return Seating { playing, dealer: dealer as u8, sits_out: None };
        }
        let n = playing.len();
        if setup.rules.sit_out_opposite {
            // The player opposite the dealer sits out; the dealer deals and plays.
            let seat = (dealer + n / 2) % n;
            let out = playing.remove(seat);
            return Seating { dealer: (if seat < dealer { dealer - 1 } else { dealer }) as u8, playing, sits_out: Some(out) };
        }
        let out = playing.remove(dealer);
        let n = playing.len();
        Seating { dealer: ((dealer + n - 1) % n) as u8, playing, sits_out: Some(out) }
    }
}
