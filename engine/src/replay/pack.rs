//! The `pack` section: the cards' order of strength in a trick (the pack's ranks, with the numerals of
//! a `reversible` suit reversed once per game, when the settings are worked out). The cards
//! themselves, their codes and names, are read in `read.rs`; their points are in `counting.rs`.

use crate::cards::Card;
use crate::expr::truthy;
use crate::ir::{Ruleset, Settings};

use super::Game;

impl<'s, 'r> Game<'s, 'r> {
    /// How strong `c` is in a trick (against cards of its suit, or trumps against trumps).
    pub(super) fn strength(&self, c: Card) -> u8 {
        self.setup.strength[c.0 as usize]
    }
}

impl Settings {
    /// With `reversed SUITS = condition` true, the numerals of those suits rank in reverse
    /// (`Settings::new` calls it once the deal's sizes are known).
    pub(super) fn reverse_numerals(&mut self, rules: &Ruleset) -> Result<(), String> {
        if let Some((lanes, cond, _)) = &rules.pack.reversible {
            if truthy(&self.eval_setup(cond)?)? {
                for &lane in lanes {
                    // Numerals (1..10) rank in reverse among themselves; courts keep their places.
                    let numerals: Vec<Card> = (1..=10).map(|r| Card::suited(lane, r)).filter(|c| rules.pack.cards.contains(*c)).collect();
                    let strengths: Vec<u8> = numerals.iter().map(|c| self.strength[c.0 as usize]).collect();
                    for (c, st) in numerals.iter().zip(strengths.iter().rev()) {
                        self.strength[c.0 as usize] = *st;
                    }
                }
            }
        }
        Ok(())
    }

    /// With `trump-order CARDS = condition` true (the first such line that is), the trumps rank in
    /// its order (`Settings::new` calls it once the deal's sizes are known).
    pub(super) fn order_trumps(&mut self, rules: &Ruleset) -> Result<(), String> {
        for (ranked, cond, _) in &rules.pack.trump_orders {
            if truthy(&self.eval_setup(cond)?)? {
                for (i, c) in ranked.iter().enumerate() {
                    self.strength[c.0 as usize] = (ranked.len() - i) as u8;
                }
                break;
            }
        }
        Ok(())
    }
}
