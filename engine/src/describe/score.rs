//! The score's named values in words, for a score sheet: what each `let` of the score means, read
//! from its formula with the options in force, so that a sheet names each figure as the rules do.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::expr::Expr;
use crate::ir::Ruleset;

use super::words::InForce;

/// One named value of the score (`let NAME = formula` in `score { }`).
#[derive(Clone, Debug)]
pub struct ScoreValue {
    pub name: Arc<str>,
    /// The formula in words ("the attack's card points").
    pub words: String,
    /// Worked out for each player (it reads `player`): the verdict holds one value per player.
    pub per_player: bool,
    /// Where the formula is a list written out (`[count(won, tarocchi), ...]`), each item in words.
    pub items: Vec<String>,
    pub rule: Arc<str>,
    pub source: Option<Arc<str>>,
}

/// The score's values of `r` in words, in the rule file's order, with `options` in force.
pub fn score_values(r: &Ruleset, options: &BTreeMap<String, serde_json::Value>) -> Vec<ScoreValue> {
    let force = InForce::for_people(r, options);
    r.score
        .lets
        .iter()
        .map(|l| ScoreValue {
            name: l.name.clone(),
            words: force.words(&l.expr),
            per_player: l.per_player,
            items: match &l.expr {
                Expr::List(xs) => xs.iter().map(|x| force.words(x)).collect(),
                _ => vec![],
            },
            rule: l.clause.rule.clone(),
            source: l.clause.source.clone(),
        })
        .collect()
}
