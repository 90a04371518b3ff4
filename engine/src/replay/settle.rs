//! A contract settled without play (`contract NAME { settle = amount }`, rule
//! `bidding.contract.NAME.settle`): when the auction is won with it, the deal ends there. No talon,
//! discard, declaration or card follows; each opponent pays the taker the amount, and the score
//! section, which works on tricks, is not run (the 1821 Tapper: forehand's bid, unplayed when nobody
//! bids higher, credited half a Three's consolation). A declaration that ends the deal unplayed
//! (`ends-deal`, rule `declaration.NAME.ends-deal`) ends it the same way, its own payments the score.

use crate::label::with_article;
use crate::num::Q;
use crate::verdict::{Outcome, PlayerResult, PotResult};

use super::{clause_violation, Game, Move, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    /// The contract `c` just won by `t` is settled unplayed, if it says so: the payments made and the
    /// deal over. `Ok(false)` when it is played.
    pub(super) fn settle(&mut self, t: u8, c: usize) -> Result<bool, Stop> {
        let Some(k) = self.rules().bidding.as_ref().map(|b| &b.contracts[c]) else { return Ok(false) };
        let Some((amount, clause)) = &k.settle else { return Ok(false) };
        let v = match self.setup.eval_setup(amount) {
            Ok(crate::expr::Value::Num(q)) => q,
            Ok(other) => return Err(self.rule_error(clause, format!("`settle` is an amount, not {}", other.type_name()))),
            Err(e) => return Err(self.rule_error(clause, e)),
        };
        self.notes.push(format!("{} won with {}: the deal is settled unplayed, each opponent paying {} ({})", self.name(t), k.label, v, clause.rule));
        let label = k.label.as_str().into();
        self.pay_each_opponent(t, v, &label, clause);
        self.settled = Some(c);
        self.stage = Stage::Done;
        Ok(true)
    }

    /// A move after a settled deal breaks the contract's `settle`: nothing is played. After a
    /// declaration that ended the deal unplayed, it breaks the declaration's `ends-deal`.
    pub(super) fn after_settled(&self, m: &Move) -> Option<Stop> {
        let player = m.player().map(|p| self.name(p));
        if let Some((p, label, clause)) = &self.fault_ended {
            return Some(clause_violation(clause, self.event, player, format!("the deal ended with {}'s fault, {label}: no {} follows", self.name(*p), m.kind())));
        }
        if let Some((p, k)) = self.ended_deal {
            let d = &self.rules().declarations[k];
            let clause = d.ends_deal.as_ref()?;
            return Some(clause_violation(
                clause,
                self.event,
                player,
                format!("the deal ended unplayed when {} declared {}: no {} follows", self.name(p), with_article(&d.label), m.kind()),
            ));
        }
        let c = self.settled?;
        let k = &self.rules().bidding.as_ref()?.contracts[c];
        let (_, clause) = k.settle.as_ref()?;
        Some(clause_violation(clause, self.event, player, format!("the deal was settled unplayed when {} won the auction: no {} follows", k.label, m.kind())))
    }

    /// The outcome of a settled deal, or of one ended unplayed by a declaration or at a fault: the
    /// taker, partner (where known) and contract, no values, the tricks each took before it ended,
    /// each player's balance of the payments, and the pots as carried.
    pub(super) fn settled_outcome(&self) -> Result<Outcome, Stop> {
        let seat = |name: &Option<std::sync::Arc<str>>| name.as_ref().and_then(|n| self.names.iter().position(|m| m == n));
        let balance = self.balances(self.ledger.iter(), seat)?;
        let rules = self.rules();
        Ok(Outcome {
            taker: self.taker.map(|t| self.name(t)),
            partner: if self.settled.is_some() { None } else { self.partner.map(|p| self.name(p)) },
            contract: self.settled.or(self.contract).and_then(|c| rules.bidding.as_ref().map(|b| b.contracts[c].name.clone())),
            values: vec![],
            hand_score: None,
            players: (0..self.names.len() as u8)
                .map(|p| PlayerResult {
                    player: self.name(p),
                    card_points: Q::ZERO,
                    tricks: self.tricks.iter().filter(|t| t.winner == p).count(),
                    score: balance[p as usize],
                    winner: balance[p as usize] > Q::ZERO,
                })
                .collect(),
            pots: rules.pots.iter().enumerate().map(|(i, p)| PotResult { pot: p.name.clone(), carried: self.carried[i], closing: self.pots[i] }).collect(),
            ends_match: vec![],
            last_dealer: self.last_dealer.map(|p| self.name(p)),
        })
    }
}
