//! Who plays with whom (the sides, the sitter who scores with the defence) and the payments between
//! players and into and out of the pots.

use std::sync::Arc;

use crate::expr::too_large;
use crate::ir::*;
use crate::num::Q;
use crate::verdict::LedgerEntry;

use super::{Game, Stop, MAX_PLAYERS};

impl Game<'_, '_> {
    /// `name` sits the deal out but pays and receives as a member of the defence (`sit-out ...
    /// scores-as defence`): he takes the seat after those who play, in the payments and the score only.
    pub fn seat_sitter(&mut self, name: &str) {
        self.sitter = Some(self.names.len() as u8);
        self.names.push(Arc::from(name));
    }

    /// The sitter who scores, as a mask (none: 0).
    pub(super) fn sitter_bit(&self) -> u16 {
        self.sitter.map_or(0, |s| 1 << s)
    }

    /// Everyone who pays and receives: the players and the sitter who scores.
    pub(super) fn paying(&self) -> u16 {
        self.all() | self.sitter_bit()
    }

    /// `p`'s side in the payments and the score: his side, where the sitter who scores is one more
    /// member of the defence; with no taker, each for himself (the sitter too).
    pub(super) fn paying_side(&self, p: u8) -> u16 {
        let s = self.sitter_bit();
        if s == 0 {
            return self.side_of(p);
        }
        let attack = self.attack();
        match self.taker {
            Some(_) if attack >> p & 1 == 1 => attack,
            Some(_) => (self.all() & !attack) | s,
            None => 1 << p,
        }
    }

    /// The players on `p`'s side, as a mask.
    pub fn side_of(&self, p: u8) -> u16 {
        match (self.rules().sides, self.taker) {
            (Sides::Taker, Some(_)) => {
                let attack = self.attack();
                if attack >> p & 1 == 1 {
                    attack
                } else {
                    self.all() & !attack
                }
            }
            // Partners sit opposite: with n players, p and p + n/2.
            (Sides::Partners, _) => {
                let half = (self.n() / 2) as u8;
                (1 << p) | (1 << ((p + half) % self.n() as u8))
            }
            _ => 1 << p,
        }
    }

    pub(super) fn all(&self) -> u16 {
        (1u16 << self.n()) - 1
    }

    pub(super) fn attack(&self) -> u16 {
        match self.taker {
            Some(t) => (1 << t) | self.partner.map(|p| 1u16 << p).unwrap_or(0),
            None => 0,
        }
    }

    /// The name of pot `i` as the ledger gives it: `pot.NAME`.
    pub(super) fn pot_account(&self, i: usize) -> Arc<str> {
        format!("pot.{}", self.rules().pots[i].name).into()
    }

    /// A payment between player `p` and pot `i`: `v` from the pot to him (negative: from him into it).
    /// A pot that would hold more than arithmetic keeps exact is the rule's error, not a wrapped sum.
    pub(super) fn pay_pot(&mut self, p: u8, i: usize, v: Q, label: &Arc<str>, c: &Clause) -> Result<(), Stop> {
        if v == Q::ZERO {
            return Ok(());
        }
        self.pots[i] = self.pots[i].checked_sub(v).ok_or_else(|| self.rule_error(c, too_large(&format!("{} holding {} less {v}", self.pot_account(i), self.pots[i]))))?;
        let (from, to, amount) = if v > Q::ZERO { (self.pot_account(i), self.name(p), v) } else { (self.name(p), self.pot_account(i), -v) };
        self.ledger.push(LedgerEntry { rule: c.rule.clone(), label: label.clone(), from: Some(from), to: Some(to), amount, source: c.source.clone(), event: Some(self.event) });
        Ok(())
    }

    /// Each opponent of `p` pays him `v` (or he pays each of them, when `v` is negative); the sitter
    /// who scores is an opponent of the attack's players, and of each player where nobody took.
    pub(super) fn pay_each_opponent(&mut self, p: u8, v: Q, label: &Arc<str>, c: &Clause) {
        if v == Q::ZERO {
            return;
        }
        let opponents = self.paying() & !self.paying_side(p);
        for o in 0..MAX_PLAYERS as u8 {
            if opponents >> o & 1 == 0 {
                continue;
            }
            let (from, to, amount) = if v > Q::ZERO { (o, p, v) } else { (p, o, -v) };
            self.ledger.push(LedgerEntry {
                rule: c.rule.clone(),
                label: label.clone(),
                from: Some(self.name(from)),
                to: Some(self.name(to)),
                amount,
                source: c.source.clone(),
                event: Some(self.event),
            });
        }
    }
}
