//! Why replay stops (`Stop`): a rule broken, the deal annulled, a record that cannot be read, or a
//! rule that cannot be worked out; and the helpers that say so, naming the rule.

use std::sync::Arc;

use crate::expr::{eval, Expr, Value};
use crate::ir::*;
use crate::num::Q;
use crate::verdict::*;

use super::{Game, GameEnv};

/// What a rule that reads the order of the deal says when the record leaves it out: the record's
/// lack, not the rule's mistake (a rule may read what only some records give).
pub(super) const NO_DEAL_ORDER: &str = "the record does not give the order of the deal (`packets` in the deal event)";

/// Why replay stopped before the end of the record.
pub enum Stop {
    Violation(Violation),
    Annulled(Annulled),
    /// The record cannot be read as a game.
    Input(InputError),
    /// A rule cannot be worked out on the game: the ruleset's mistake (`ruleset_fault` is set).
    Ruleset(ReplayError),
}

pub(super) fn clause_violation(c: &Clause, event: usize, player: Option<Arc<str>>, message: String) -> Stop {
    Stop::Violation(Violation { event, player, rule: c.rule.clone(), message, source: c.source.clone(), at: c.at.clone() })
}

impl Game<'_, '_> {
    pub(super) fn violation(&self, c: &Clause, player: u8, message: String) -> Stop {
        clause_violation(c, self.event, Some(self.name(player)), message)
    }

    pub(super) fn input(&self, message: String) -> Stop {
        Stop::Input(InputError { event: Some(self.event), message })
    }

    /// A formula that fails on a move the rules accept: the ruleset's fault, not the player's.
    pub(super) fn rule_bug(&self, c: &Clause, e: String) -> Stop {
        self.rule_error(c, e)
    }

    /// A rule's formula that fails on this game: the ruleset's fault, unless what it lacks is the
    /// record's (the order of the deal, which a record may leave out).
    pub(super) fn rule_error(&self, c: &Clause, e: String) -> Stop {
        if e.contains(NO_DEAL_ORDER) {
            return self.input(format!("the rule {} ({}) cannot be evaluated: {e}", c.rule, c.at));
        }
        Stop::Ruleset(ReplayError::ruleset(&self.rules().id, Some((&*c.rule, &*c.at)), Some(self.event), e))
    }

    /// A formula evaluated where its rule is not known (`eval_rule` names it).
    pub(super) fn eval(&self, e: &Expr, env: &GameEnv) -> Result<Value, Stop> {
        eval(e, env).map_err(|m| {
            if m.contains(NO_DEAL_ORDER) {
                return self.input(format!("a rule cannot be evaluated: {m}"));
            }
            Stop::Ruleset(ReplayError::ruleset(&self.rules().id, None, Some(self.event), format!("a rule cannot be evaluated: {m}")))
        })
    }

    /// A formula of the rule `c` evaluated; its failure names the rule.
    pub(super) fn eval_rule(&self, e: &Expr, env: &GameEnv, c: &Clause) -> Result<Value, Stop> {
        eval(e, env).map_err(|m| self.rule_error(c, m))
    }

    pub(super) fn number(&self, e: &Expr, env: &GameEnv, c: &Clause) -> Result<Q, Stop> {
        match eval(e, env) {
            Ok(Value::Num(q)) => Ok(q),
            Ok(Value::Bool(b)) => Ok(Q::int(b as i64)),
            Ok(other) => Err(self.rule_error(c, format!("expected a number, found {}", other.type_name()))),
            Err(m) => Err(self.rule_error(c, m)),
        }
    }
}

/// What stopped the scoring of a finished game: only a rule that cannot be evaluated does.
pub(super) fn replay_error(s: Stop) -> ReplayError {
    match s {
        Stop::Input(e) => e.into(),
        Stop::Ruleset(e) => e,
        _ => InputError { event: None, message: "scoring stopped".into() }.into(),
    }
}
