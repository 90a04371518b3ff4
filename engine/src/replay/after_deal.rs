//! The hand as it was dealt, and the moment right after the deal: `dealt(p, N)` (the first N cards
//! dealt to a player, in the order of the deal) and the declarations `when after-deal` (made once the
//! deal is done, before any bid, discard or card). Together they say Tarocchini's dealer calling
//! himself out on his first 15 cards, the last two still face down (MBO).

use crate::cards::{Card, CardSet};

use super::{Game, Move, NO_DEAL_ORDER};

impl<'s, 'r> Game<'s, 'r> {
    /// Keeps the cards each player was dealt, in the order the record's packets give them.
    pub(super) fn keep_deal_order(&mut self, packets: &[(Option<u8>, Vec<Card>)]) {
        let mut order: Vec<Vec<Card>> = vec![vec![]; self.n()];
        for (to, cards) in packets {
            if let Some(p) = *to {
                order[p as usize].extend(cards.iter().copied());
            }
        }
        self.deal_order = Some(order);
    }

    /// Any move but the deal and a declaration ends the time for declarations `when after-deal`.
    pub(super) fn close_after_deal(&mut self, m: &Move) {
        if !matches!(m, Move::Deal(_) | Move::Declare { .. }) {
            self.after_deal_closed = true;
        }
    }

    /// `dealt(p, n)`: the first `n` cards dealt to `p` (all of them when he was dealt fewer).
    pub(super) fn dealt_first(&self, p: u8, n: usize) -> Result<CardSet, String> {
        let order = self.deal_order.as_ref().ok_or_else(|| format!("{NO_DEAL_ORDER}, which `dealt` needs"))?;
        Ok(order.get(p as usize).map(|cards| cards.iter().take(n).copied().collect()).unwrap_or(CardSet::EMPTY))
    }
}
