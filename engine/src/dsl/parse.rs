//! Rule text to syntax tree, with pest. Syntax errors come back with line, column and what was
//! expected, in words a rules author reads.

use std::sync::Arc as Rc;
use std::sync::OnceLock;

use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;

use super::ast::*;
use super::Diagnostic;
use crate::num::Q;

#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/tarot.pest"]
struct RuleParser;

pub fn parse_file(file: &str, text: &str) -> Result<Vec<Stmt>, Diagnostic> {
    let file: Rc<str> = file.into();
    let mut pairs = RuleParser::parse(Rule::file, text).map_err(|e| syntax_error(&file, e))?;
    let root = pairs.next().expect("the file rule always yields one pair");
    Ok(root.into_inner().filter(|p| p.as_rule() == Rule::stmt).map(|p| stmt(&file, p)).collect())
}

fn syntax_error(file: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let (line, col) = match e.line_col {
        pest::error::LineColLocation::Pos(p) => p,
        pest::error::LineColLocation::Span(p, _) => p,
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().filter_map(|r| describe(*r)).collect();
            names.sort();
            names.dedup();
            if names.is_empty() {
                "this is not a statement, an expression or a block".to_string()
            } else {
                format!("syntax error: expected {}", names.join(", "))
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    Diagnostic { file: file.into(), pos: Pos { line: line as u32, col: col as u32 }, message }
}

/// Grammar rules named as an author thinks of them; the rest are left out of messages.
fn describe(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::stmt | Rule::keyword => "a statement",
        Rule::expr | Rule::primary | Rule::name | Rule::number | Rule::card => "an expression",
        Rule::block => "a block `{ ... }`",
        Rule::assign => "`=`",
        Rule::cite => "a citation `@SOURCE \"section\"`",
        Rule::string => "a quoted string",
        Rule::word => "a word",
        Rule::EOI => "end of file",
        Rule::sep => "a line break or `;`",
        Rule::or | Rule::and | Rule::eq | Rule::ne | Rule::le | Rule::ge | Rule::lt | Rule::gt => "an operator",
        Rule::add | Rule::sub | Rule::mul | Rule::div => "an operator",
        Rule::index => "`[`",
        _ => return None,
    })
}

fn pos(p: &Pair<Rule>) -> Pos {
    let (line, col) = p.line_col();
    Pos { line: line as u32, col: col as u32 }
}

fn unquote(p: Pair<Rule>) -> String {
    let inner = p.into_inner().next().map(|i| i.as_str()).unwrap_or("");
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn stmt(file: &Rc<str>, p: Pair<Rule>) -> Stmt {
    let at = pos(&p);
    let mut s = Stmt { key: String::new(), pos: at, args: vec![], value: None, block: None, cite: None, file: file.clone() };
    for part in p.into_inner() {
        match part.as_rule() {
            Rule::keyword => s.key = part.as_str().to_string(),
            Rule::word => s.args.push(Word { text: part.as_str().to_string(), pos: pos(&part), quoted: false }),
            Rule::string => {
                let at = pos(&part);
                s.args.push(Word { text: unquote(part), pos: at, quoted: true })
            }
            Rule::assign => s.value = part.into_inner().next().map(expr),
            Rule::block => s.block = Some(part.into_inner().filter(|p| p.as_rule() == Rule::stmt).map(|p| stmt(file, p)).collect()),
            Rule::cite => {
                let at = pos(&part);
                let mut it = part.into_inner();
                let source = it.next().map(|w| w.as_str().to_string()).unwrap_or_default();
                let section = it.next().map(unquote);
                s.cite = Some(Cite { source, section, pos: at });
            }
            _ => {}
        }
    }
    s
}

fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::prefix(Rule::not))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::postfix(Rule::index))
    })
}

fn expr(p: Pair<Rule>) -> Ast {
    pratt_expr(p.into_inner())
}

fn pratt_expr(pairs: Pairs<Rule>) -> Ast {
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let u = if op.as_rule() == Rule::neg { UnOp::Neg } else { UnOp::Not };
            Ast { pos: pos(&op), kind: AstKind::Unary(u, Box::new(rhs)) }
        })
        .map_postfix(|lhs, op| {
            let at = pos(&op);
            let idx = op.into_inner().next().map(expr).expect("index holds an expression");
            Ast { pos: at, kind: AstKind::Index(Box::new(lhs), Box::new(idx)) }
        })
        .map_infix(|lhs, op, rhs| {
            let b = match op.as_rule() {
                Rule::or => BinOp::Or,
                Rule::and => BinOp::And,
                Rule::eq => BinOp::Eq,
                Rule::ne => BinOp::Ne,
                Rule::le => BinOp::Le,
                Rule::ge => BinOp::Ge,
                Rule::lt => BinOp::Lt,
                Rule::gt => BinOp::Gt,
                Rule::add => BinOp::Add,
                Rule::sub => BinOp::Sub,
                Rule::mul => BinOp::Mul,
                _ => BinOp::Div,
            };
            Ast { pos: lhs.pos, kind: AstKind::Binary(b, Box::new(lhs), Box::new(rhs)) }
        })
        .parse(pairs)
}

fn primary(p: Pair<Rule>) -> Ast {
    let at = pos(&p);
    let kind = match p.as_rule() {
        Rule::number => AstKind::Num(Q::parse(p.as_str()).unwrap_or(Q::ZERO)),
        Rule::string => AstKind::Str(unquote(p)),
        Rule::card | Rule::name => AstKind::Name(p.as_str().to_string()),
        Rule::expr => return expr(p),
        Rule::list => AstKind::List(p.into_inner().map(expr).collect()),
        Rule::if_expr => {
            let mut it = p.into_inner().filter(|x| x.as_rule() == Rule::expr).map(expr);
            let (c, t, e) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
            AstKind::If(Box::new(c), Box::new(t), Box::new(e))
        }
        Rule::call => {
            let mut it = p.into_inner();
            let func = it.next().map(|f| f.as_str().to_string()).unwrap_or_default();
            match it.peek().map(|n| n.as_rule()) {
                Some(Rule::comp) => {
                    let mut c = it.next().unwrap().into_inner().filter(|x| x.as_rule() != Rule::kw_in);
                    let var = c.next().map(|v| v.as_str().to_string()).unwrap_or_default();
                    let set = Box::new(expr(c.next().unwrap()));
                    let (mut cond, mut body) = (None, None);
                    for part in c {
                        let e = part.as_rule();
                        let value = part.into_inner().find(|x| x.as_rule() == Rule::expr).map(|x| Box::new(expr(x)));
                        if e == Rule::comp_where {
                            cond = value;
                        } else {
                            body = value;
                        }
                    }
                    AstKind::Comp { func, var, set, cond, body }
                }
                _ => AstKind::Call(func, it.map(expr).collect()),
            }
        }
        r => unreachable!("primary {r:?}"),
    };
    Ast { pos: at, kind }
}
