//! The front end of the rules language: text → syntax tree (`parse`) → merged with its parents
//! (`extends`) → checked and compiled to the IR (`compile`). Only this module knows pest.

pub mod ast;
mod check;
mod compile;
mod parse;

use std::fmt;

pub use ast::Pos;
pub use compile::{compile, RuleFile};
pub use parse::{nesting, MAX_NESTING};

/// One mistake in a rule file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub pos: Pos,
    pub message: String,
}

impl serde::Serialize for Pos {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{}:{}", self.line, self.col))
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.pos.line, self.pos.col, self.message)
    }
}

/// Every mistake found in a ruleset, all reported at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
