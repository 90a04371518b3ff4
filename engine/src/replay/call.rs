//! The `call` section: the card the taker may call (level by level), the call itself, who the
//! partner is, the opening lead it forbids, and the call missing when another move comes first.

use crate::cards::{Card, CardSet};
use crate::expr::{eval, Value};
use crate::verdict::{Next, Phase};

use super::{Game, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    /// The cards the taker may call: a card of the first level, or of a later level when he holds
    /// every card of the levels before (calling a card of his own hand, he plays alone).
    pub fn callable(&self) -> CardSet {
        let (Some(call), Some(t)) = (&self.rules().call, self.taker) else { return CardSet::EMPTY };
        let held = self.dealt[t as usize];
        let mut allowed = CardSet::EMPTY;
        for level in call.levels.iter().take(self.setup.call_levels) {
            let level = level.and(self.rules().pack.cards);
            allowed = allowed.or(level);
            if held.and(level) != level {
                break;
            }
        }
        allowed
    }

    pub(super) fn call(&mut self, p: u8, card: Card) -> Result<(), Stop> {
        let rules = self.rules();
        let Some(call) = &rules.call else {
            return Err(self.input(format!("{} has no call of a partner: a call event cannot be part of its games", rules.id)));
        };
        if self.stage != Stage::Call {
            // The auction won, the taker called nothing because no card was left for him to call.
            if let (Some(t), true) = (self.taker, matches!(self.stage, Stage::Discard | Stage::Play) && self.called.is_none()) {
                if self.callable().minus(self.dealt[t as usize]).is_empty() {
                    let c = call.callable_levels.as_ref().map_or(&call.clause, |(_, c)| c);
                    return Err(self.violation(c, p, format!("no call can be made: {}", self.nothing_to_call(t, c))));
                }
            }
            return Err(self.violation(&call.clause, p, format!("a partner is called once the bidding is won, before {} is shown", self.rules().the_dog())));
        }
        if let (Some(x), Some(t)) = (self.named_taker().filter(|_| self.taker != Some(p)), self.taker) {
            return Err(self.violation(
                &x.clause,
                p,
                format!(
                    "only the taker calls a partner: everyone passed, so {}, {}, plays {} as its taker, and {} is not he",
                    self.name(t),
                    x.label,
                    self.rules().bidding.as_ref().map_or("", |b| b.contracts[x.contract].label.as_str()),
                    self.name(p)
                ),
            ));
        }
        if self.taker != Some(p) {
            return Err(self.violation(&call.clause, p, format!("only the taker calls a partner, and {} is not the taker", self.name(p))));
        }
        let allowed = self.callable();
        if !allowed.contains(card) {
            return Err(self.violation(&call.clause, p, format!("{} may not call {}: the taker calls {}", self.name(p), rules.card_name(card), rules.cards_named(allowed))));
        }
        self.called = Some(card);
        // The holder is the partner; a card in the dog or the taker's own hand leaves him alone.
        self.partner = (0..self.n() as u8).find(|&q| Some(q) != self.taker && self.dealt[q as usize].contains(card));
        if let Some((e, clause)) = &call.opening_lead_excludes {
            let env = self.env(Some(p));
            self.lead_excluded = match eval(e, &env) {
                Ok(Value::Cards(c)) => c,
                Ok(other) => return Err(self.rule_error(clause, format!("expected cards, found {}", other.type_name()))),
                Err(m) => return Err(self.rule_error(clause, m)),
            };
        }
        self.sides_settled()?;
        self.stage = Stage::Discard;
        self.owe_discards();
        Ok(())
    }

    /// Why taker `t` calls nothing and plays alone: every card that may be called is his own, or no
    /// card may be called at all; `clause` is the rule that says which cards may be.
    pub(super) fn nothing_to_call(&self, t: u8, clause: &crate::ir::Clause) -> String {
        let (name, callable) = (self.name(t), self.callable());
        if callable.is_empty() {
            format!("no card may be called under these rules, and {name} plays alone ({})", clause.rule)
        } else {
            format!("{name} holds every card that may be called ({}), so he calls nothing and plays alone ({})", self.rules().cards_named(callable), clause.rule)
        }
    }

    /// While the taker has still to call a partner, any other move says that the call is missing
    /// (not that the move came at the wrong time), citing the call.
    pub(super) fn call_missing(&self, p: u8) -> Option<Stop> {
        let (Stage::Call, Some(call), Some(t)) = (self.stage, &self.rules().call, self.taker) else { return None };
        let t = self.name(t);
        if let Some(x) = self.named_taker() {
            return Some(self.violation(
                &x.clause,
                p,
                format!(
                    "the call is missing: everyone passed, so {t}, {}, plays {} as its taker, and must first call a card (the `call` event), before {}, the discards, the declarations and the play",
                    x.label,
                    self.rules().bidding.as_ref().map_or("", |b| b.contracts[x.contract].label.as_str()),
                    self.rules().the_dog()
                ),
            ));
        }
        Some(self.violation(
            &call.clause,
            p,
            format!(
                "the call is missing: {t} won the bidding and must first call a card (the `call` event), before {}, the discards, the declarations and the play",
                self.rules().the_dog()
            ),
        ))
    }

    /// The taker and the cards he may call (`Game::next` before the call).
    pub(super) fn next_call(&self) -> Option<Next> {
        let t = self.taker?;
        Some(Next {
            player: self.name(t),
            phase: Phase::Call,
            legal: self.callable().iter().map(|c| c.to_string()).collect(),
            count: None,
            packets: vec![],
            table: Default::default(),
            declarations: vec![],
            sit_out: vec![],
        })
    }
}
