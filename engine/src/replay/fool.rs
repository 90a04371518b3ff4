//! The `fool` section, and the untouchable card played like it: what sets no suit, and where the
//! Fool goes from its trick (kept by its holder for an empty card, to the winner, changing side in the
//! last trick, winning the last trick of a slam, given up by a side that took no trick).

use crate::cards::{Card, CardSet};

use super::Game;

impl<'s, 'r> Game<'s, 'r> {
    /// The Fool, or the untouchable card in its owner's hand: it sets no suit and obeys no obligation.
    pub(super) fn plays_like_the_fool(&self, p: u8, c: Card) -> bool {
        c.is_fool() || self.untouchable == Some((p, c))
    }

    /// Card `c` of the trick `winner` took goes to `to`'s pile instead; with `exchange`, `to` gives
    /// the winner an empty card for it.
    pub(super) fn give_back(&mut self, won: &mut CardSet, c: Card, to: u8, winner: u8, exchange: bool) {
        won.remove(c);
        self.piles[to as usize].insert(c);
        if exchange {
            self.empties[to as usize] -= 1;
            self.empties[winner as usize] += 1;
            if c.is_fool() {
                self.fool_owed = Some((to, winner));
            }
        }
    }
}
