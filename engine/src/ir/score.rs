//! The compiled `score { ... }` section: its terms, pots and payments.

use super::*;

#[derive(Clone, Debug)]
pub struct Term {
    pub name: String,
    pub label: Arc<str>,
    pub expr: Expr,
    pub clause: Clause,
}

/// A pot (`pot NAME "label"`): an account that is no player's, carried from deal to deal.
#[derive(Clone, Debug)]
pub struct PotDef {
    pub name: Arc<str>,
    pub label: Arc<str>,
    pub clause: Clause,
}

/// One side of a payment: players (a formula), or a pot, by index.
#[derive(Clone, Debug)]
pub enum Account {
    Players(Expr),
    Pot(usize),
}

#[derive(Clone, Debug)]
pub struct Pay {
    pub from: Account,
    pub to: Account,
    pub amount: Expr,
    /// How the ledger names the payment ("settlement" unless the rule file says).
    pub label: Arc<str>,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Score {
    pub lets: Vec<Let>,
    pub terms: Vec<Term>,
    pub pays: Vec<Pay>,
    pub standing: Option<(Expr, Clause)>,
    pub winner: Option<(Expr, Clause)>,
    /// Remarks the verdict makes when their condition holds: where the source is silent.
    pub notes: Vec<(String, Expr, Clause)>,
}
