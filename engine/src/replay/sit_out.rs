//! The `sit-out-by-choice` section: after the deal (and the steals), before the first declaration or
//! card, one player may sit the deal out (a `sit-out` event), the players before him in turn from
//! first hand being taken to have chosen to play. His hand is out of play; tricks have one card fewer
//! and the turn passes him by; once the last trick is played he pays the fee of his place in turn to
//! its winner (Minchiate's four-player table, M4: 30, 40, 50, 60). What he is paid during play (the
//! marques of `on play`, "each opponent") still reaches him.

use crate::expr::{eval, Value};
use crate::num::Q;
use crate::verdict::LedgerEntry;

use super::{Game, Move, SetupEnv, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    /// `p` sits the deal out.
    pub(super) fn sit_out(&mut self, p: u8) -> Result<(), Stop> {
        let rules = self.rules();
        let Some(c) = &rules.sit_out_choice else {
            return Err(self.input(format!("{} has no sitting out by choice (`sit-out-by-choice`), so a record of it has no `sit-out` event", rules.id)));
        };
        if let Some(q) = self.sat_out {
            return Err(self.violation(&c.clause, p, format!("{} already sits this deal out: only one player may", self.name(q))));
        }
        if self.stage != Stage::Play || !self.tricks.is_empty() || self.trick_begun() || !self.declarations.is_empty() {
            return Err(self.violation(&c.clause, p, format!("{} may sit out only after the deal and before the first declaration or card", self.name(p))));
        }
        if let Some((e, clause)) = &c.allowed {
            match eval(e, &SetupEnv(self.setup)) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => return Err(self.violation(clause, p, format!("nobody may sit out at a table of {}", self.n()))),
                Ok(other) => return Err(self.rule_error(clause, format!("expected a condition, found {}", other.type_name()))),
                Err(m) => return Err(self.rule_error(clause, m)),
            }
        }
        let n = self.n() as u8;
        let place = ((p + n - self.first_hand()) % n) as usize;
        let fees = match eval(&c.fee, &SetupEnv(self.setup)) {
            Ok(Value::List(items)) => items,
            Ok(other) => return Err(self.rule_error(&c.fee_clause, format!("expected a list of fees, found {}", other.type_name()))),
            Err(m) => return Err(self.rule_error(&c.fee_clause, m)),
        };
        let fee = match fees.get(place) {
            Some(Value::Num(q)) => *q,
            Some(other) => return Err(self.rule_error(&c.fee_clause, format!("a fee must be a number, not {}", other.type_name()))),
            None => {
                let k = fees.len();
                return Err(self.violation(&c.fee_clause, p, format!("only the first {k} in turn from first hand may sit out; {} is number {}", self.name(p), place + 1)));
            }
        };
        self.sat_out = Some(p);
        self.sit_fee = fee;
        self.hands[p as usize] = crate::cards::CardSet::EMPTY;
        // The leader was worked out before anyone sat out: work it out again.
        if self.leader == Some(p) {
            self.leader = None;
        }
        self.notes.push(format!("{} sits the deal out, number {} in turn from first hand: pays {fee} to the taker of the last trick ({})", self.name(p), place + 1, c.clause.rule));
        Ok(())
    }

    /// The players who may sit the deal out now (`Game::next`): none once someone has, or a declaration
    /// or card is made, or where the table may not (`allowed`); else the first in turn from first hand,
    /// as many as there are fees. A rule that cannot be worked out offers nobody (the move says why).
    pub(crate) fn may_sit_out(&self) -> Vec<std::sync::Arc<str>> {
        let Some(c) = &self.rules().sit_out_choice else { return vec![] };
        if self.sat_out.is_some() || self.stage != Stage::Play || !self.tricks.is_empty() || self.trick_begun() || !self.declarations.is_empty() {
            return vec![];
        }
        if let Some((e, _)) = &c.allowed {
            if !matches!(eval(e, &SetupEnv(self.setup)), Ok(Value::Bool(true))) {
                return vec![];
            }
        }
        let Ok(Value::List(fees)) = eval(&c.fee, &SetupEnv(self.setup)) else { return vec![] };
        let n = self.n() as u8;
        (0..fees.len().min(self.n())).filter(|k| matches!(fees[*k], Value::Num(_))).map(|k| self.name((self.first_hand() + k as u8) % n)).collect()
    }

    /// A move by the player who sits out.
    pub(super) fn sat_out_moves(&self, m: &Move) -> Option<Stop> {
        let c = self.rules().sit_out_choice.as_ref()?;
        let p = m.player().filter(|&p| self.sat_out == Some(p))?;
        Some(self.violation(&c.clause, p, format!("{} sits this deal out: no cards and no moves", self.name(p))))
    }

    /// How many players play to each trick.
    pub(super) fn in_trick(&self) -> usize {
        self.n() - self.sat_out.is_some() as usize
    }

    /// The player `k` places after `l` in the order of play, passing over the one who sits out.
    pub(super) fn after(&self, l: u8, k: usize) -> u8 {
        let n = self.n() as u8;
        let mut p = l;
        let mut left = k;
        while left > 0 || self.sat_out == Some(p) {
            p = (p + 1) % n;
            if self.sat_out != Some(p) {
                left = left.saturating_sub(1);
            }
        }
        p
    }

    /// Once the last trick is played: the sitter pays his fee to its winner.
    pub(super) fn pay_sit_fee(&mut self, winner: u8) {
        let (Some(p), Some(c)) = (self.sat_out, &self.rules().sit_out_choice) else { return };
        if self.sit_fee == Q::ZERO {
            return;
        }
        self.ledger.push(LedgerEntry {
            rule: c.fee_clause.rule.clone(),
            label: "sitting out".into(),
            from: Some(self.name(p)),
            to: Some(self.name(winner)),
            amount: self.sit_fee,
            source: c.fee_clause.source.clone(),
            event: Some(self.event),
        });
    }
}
