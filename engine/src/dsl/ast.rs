//! The syntax tree of a rule file: statements with their positions. Only `parse.rs` knows pest; from
//! here on the compiler works on these types.

use crate::num::Q;
// The operators are the formulas' (`expr`); the syntax tree names them as the parser reads them.
pub use crate::expr::{BinOp, UnOp};

/// A position in a rule file, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub key: String,
    pub pos: Pos,
    pub args: Vec<Word>,
    pub value: Option<Ast>,
    pub block: Option<Vec<Stmt>>,
    pub cite: Option<Cite>,
    /// The file the statement was written in (differs from the ruleset's own file after `extends`).
    pub file: std::sync::Arc<str>,
}

#[derive(Clone, Debug)]
pub struct Word {
    pub text: String,
    pub pos: Pos,
    /// Written as a quoted string rather than a bare word.
    pub quoted: bool,
}

#[derive(Clone, Debug)]
pub struct Cite {
    pub source: String,
    pub section: Option<String>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct Ast {
    pub pos: Pos,
    pub kind: AstKind,
}

#[derive(Clone, Debug)]
pub enum AstKind {
    Num(Q),
    Str(String),
    /// A card code or any other bare name (`T21`, `oudlers`, `contract.multiplier`).
    Name(String),
    Call(String, Vec<Ast>),
    /// `f(x in set where cond : body)`.
    Comp {
        func: String,
        var: String,
        set: Box<Ast>,
        cond: Option<Box<Ast>>,
        body: Option<Box<Ast>>,
    },
    List(Vec<Ast>),
    Index(Box<Ast>, Box<Ast>),
    Unary(UnOp, Box<Ast>),
    Binary(BinOp, Box<Ast>, Box<Ast>),
    If(Box<Ast>, Box<Ast>, Box<Ast>),
    /// Something the parser read but cannot take (a number too large): the compiler reports the
    /// message at its position.
    Invalid(String),
}
