//! The `pack` section: the cards' order of strength in a trick (the pack's ranks, with the numerals of
//! a reversible suit reversed, worked out in `Settings::new`). The cards themselves, their codes and
//! names are read in `read.rs`.

use crate::cards::Card;

use super::Game;

impl<'s, 'r> Game<'s, 'r> {
    pub(super) fn strength(&self, c: Card) -> u8 {
        self.setup.strength[c.0 as usize]
    }
}
