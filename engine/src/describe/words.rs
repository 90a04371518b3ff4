//! Formulas in words: the rules' settings with the options in force (`InForce`), a formula read for
//! people, values and packs in words.

use std::collections::BTreeMap;

use crate::expr::{Expr, Value};
use crate::ir::*;
use crate::replay::{Game, Setup};

mod cards;
mod formula;
mod functions;

pub(super) use cards::*;

use super::formula_text;

/// The rules' settings as they stand with the options chosen, at each table size the ruleset allows:
/// a setting's formula is shown as its value in force ("hand 18", "26 with 3 players, 19 with 4"),
/// and a formula that needs a game (a hand, a trick) has each `option.NAME` replaced by its value.
pub(super) struct InForce<'r> {
    /// The names of the comprehension variables around the formula being put in words, innermost last.
    pub(super) vars: std::cell::RefCell<Vec<String>>,
    pub(super) rules: &'r Ruleset,
    pub(super) options: &'r BTreeMap<String, serde_json::Value>,
    pub(super) tables: Vec<(usize, Setup<'r>)>,
    /// Words for the pages people read, which may say more than the JSON description (whose text a
    /// client receives and which does not change): "the kings" for `rank(K)`, a formula the describer
    /// cannot read put in words rather than quoted.
    pub(super) people: bool,
}

impl<'r> InForce<'r> {
    pub(super) fn new(rules: &'r Ruleset, options: &'r BTreeMap<String, serde_json::Value>) -> InForce<'r> {
        let tables = (rules.players.0..=rules.players.1).filter_map(|n| Some((n, Setup::new(rules, n, options).ok()?))).collect();
        InForce { vars: Default::default(), rules, options, tables, people: false }
    }

    /// As `new`, with the words of the pages for people.
    pub(super) fn for_people(rules: &'r Ruleset, options: &'r BTreeMap<String, serde_json::Value>) -> InForce<'r> {
        InForce { people: true, ..InForce::new(rules, options) }
    }

    /// The value of a formula that needs no game, at each table size; `None` when it needs one.
    pub(super) fn values(&self, e: &Expr) -> Option<Vec<(usize, Value)>> {
        if self.tables.is_empty() {
            return None;
        }
        self.tables
            .iter()
            .map(|(n, setup)| {
                let names: Vec<String> = (0..*n).map(|i| format!("p{i}")).collect();
                Some((*n, Game::new(setup, &names, 0).constant(e)?))
            })
            .collect()
    }

    /// The one value of a formula at every table size, when it is the same at all.
    pub(super) fn value(&self, e: &Expr) -> Option<Value> {
        let all = self.values(e)?;
        all.iter().all(|(_, v)| *v == all[0].1).then(|| all[0].1.clone())
    }

    /// A setting in words: its value, or its values by table size, or (needing a game) its formula
    /// with the options' values in force.
    pub(super) fn text(&self, e: &Expr, words: impl Fn(&Value) -> String) -> String {
        match self.values(e) {
            Some(all) if all.iter().all(|(_, v)| *v == all[0].1) => words(&all[0].1),
            Some(all) => {
                let each: Vec<String> = all.iter().map(|(n, v)| format!("{} with {n} players", words(v))).collect();
                each.join(", ")
            }
            None => self.words(e),
        }
    }

    /// A requirement's label with the values in force (by table size where they differ).
    pub(super) fn label(&self, text: &str) -> String {
        crate::label::fill(text, |name| {
            let i = self.rules.constants.iter().position(|l| &*l.name == name)?;
            Some(self.text(&Expr::Let(i), crate::label::words))
        })
    }

    /// The formula of a clause, each `option.NAME` replaced by the value in force.
    pub(super) fn formula(&self, c: &Clause) -> String {
        self.substitute(&formula_text(self.rules, c))
    }

    pub(super) fn substitute(&self, text: &str) -> String {
        let mut out = text.to_string();
        // Longest names first, so that one name that begins another is not replaced inside it.
        let mut options: Vec<_> = self.rules.options.iter().collect();
        options.sort_by_key(|o| std::cmp::Reverse(o.name.len()));
        for o in options {
            let v = self.options.get(&o.name).map_or_else(|| o.default.to_string(), |v| v.to_string());
            out = out.replace(&format!("option.{}", o.name), &v);
        }
        fold(&out)
    }
}

/// Folds what an option's value settles: `"fft" == "seed-004"` is `false`, `(false or X)` is `(X)`,
/// `true and X` is `X`; so that a formula says only what still depends on the game.
pub fn fold(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    // `"a" == "b"` and `"a" != "b"`, between quoted texts.
    while let Some(start) = rest.find('"') {
        let Some(len) = rest[start + 1..].find('"') else { break };
        let left = &rest[start + 1..start + 1 + len];
        let after = &rest[start + len + 2..];
        let compared = [(" == ", true), (" != ", false)].into_iter().find_map(|(op, equal)| {
            let right = after.strip_prefix(op)?.strip_prefix('"')?;
            let end = right.find('"')?;
            Some(((left == &right[..end]) == equal, &right[end + 1..]))
        });
        match compared {
            Some((truth, tail)) => {
                out.push_str(&rest[..start]);
                out.push_str(if truth { "true" } else { "false" });
                rest = tail;
            }
            None => {
                out.push_str(&rest[..start + len + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    for (from, to) in [("(false or ", "("), ("(true and ", "("), (" or false)", ")"), (" and true)", ")")] {
        out = out.replace(from, to);
    }
    out.strip_prefix("true and ").map(String::from).unwrap_or(out)
}
