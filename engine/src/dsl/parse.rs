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

/// How deeply a formula or a block may nest: brackets of every kind, `if`s and operators together
/// (see `nesting`). The rule files of the sources stay under 20; the limit keeps every later stage
/// (the syntax tree, the compiler, the evaluator) far from the end of the stack.
pub const MAX_NESTING: usize = 200;

/// Numbers written in a rule file are at most this large (and have at most 9 decimals), so that
/// exact arithmetic on them has room to work.
pub const MAX_LITERAL: i64 = 1_000_000_000_000_000;

pub fn parse_file(file: &str, text: &str) -> Result<Vec<Stmt>, Diagnostic> {
    let file: Rc<str> = file.into();
    if let Err((line, col, message)) = nesting(text) {
        return Err(Diagnostic { file: file.to_string(), pos: Pos { line, col }, message });
    }
    let mut pairs = RuleParser::parse(Rule::file, text).map_err(|e| syntax_error(&file, e))?;
    let root = pairs.next().expect("the file rule always yields one pair");
    Ok(root.into_inner().filter(|p| p.as_rule() == Rule::stmt).map(|p| stmt(&file, p)).collect())
}

/// A bound on how deep the syntax tree of the text can be, found before pest sees it, in one pass
/// with no recursion: every open bracket (`(`, `[`, `{`) is a level, and each level counts the
/// operators, `if`s and indexes (`]`) written in it since its last `,` or statement break (a chain
/// of `+`, of `else if` or of `[i]` nests as deeply as brackets do). The sum over the open levels bounds the depth; past
/// `MAX_NESTING` the file is refused with the position where it went too deep.
pub fn nesting(text: &str) -> Result<usize, (u32, u32, String)> {
    let b = text.as_bytes();
    // Per open level: its bracket and the operators counted in it.
    let mut levels: Vec<(u8, usize)> = vec![(b'{', 0)];
    let mut depth = 1usize;
    let mut deepest = 1usize;
    let (mut line, mut col) = (1u32, 1u32);
    let mut i = 0;
    // Whether the last token was an operator, so that a line break continues the formula.
    let mut continues = false;
    let too_deep = |line, col| {
        Err((
            line,
            col,
            format!(
                "this is nested too deeply: more than {MAX_NESTING} levels of brackets, operators and `if`s at once; \
                 split the formula with `let`, or the block into several statements"
            ),
        ))
    };
    while i < b.len() {
        let c = b[i];
        let start = (line, col);
        let mut step = 1;
        match c {
            b'#' => {
                while i + step < b.len() && b[i + step] != b'\n' {
                    step += 1;
                }
            }
            b'"' => {
                while i + step < b.len() && b[i + step] != b'"' {
                    step += if b[i + step] == b'\\' { 2 } else { 1 };
                }
                step = (step + 1).min(b.len() - i);
                continues = false;
            }
            b'\\' if b.get(i + 1) == Some(&b'\n') || (b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n')) => {
                step = if b[i + 1] == b'\r' { 3 } else { 2 };
                continues = true;
            }
            b'(' | b'[' | b'{' => {
                levels.push((c, 0));
                depth += 1;
                continues = false;
            }
            b')' | b']' | b'}' => {
                if levels.len() > 1 {
                    let (_, ops) = levels.pop().unwrap();
                    depth -= 1 + ops;
                }
                // `x[i][j]...`: each index nests the expression before it one level deeper.
                if c == b']' {
                    levels.last_mut().unwrap().1 += 1;
                    depth += 1;
                }
                continues = false;
            }
            b',' => {
                let top = levels.last_mut().unwrap();
                depth -= top.1;
                top.1 = 0;
                continues = false;
            }
            b'\n' | b';' => {
                let top = levels.last_mut().unwrap();
                if top.0 == b'{' && !(c == b'\n' && continues) {
                    depth -= top.1;
                    top.1 = 0;
                }
            }
            b'+' | b'-' | b'*' | b'/' | b'<' | b'>' | b'=' | b'!' | b':' => {
                levels.last_mut().unwrap().1 += 1;
                depth += 1;
                continues = true;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                while i + step < b.len() && (b[i + step].is_ascii_alphanumeric() || b[i + step] == b'_' || b[i + step] == b'.') {
                    step += 1;
                }
                let word = &b[i..i + step];
                continues = matches!(word, b"and" | b"or" | b"not" | b"if" | b"then" | b"else" | b"where" | b"in");
                if matches!(word, b"and" | b"or" | b"not" | b"if") {
                    levels.last_mut().unwrap().1 += 1;
                    depth += 1;
                }
            }
            b' ' | b'\t' | b'\r' => {}
            _ => continues = false,
        }
        if depth > MAX_NESTING {
            return too_deep(start.0, start.1);
        }
        deepest = deepest.max(depth);
        for &x in &b[i..i + step] {
            if x == b'\n' {
                line += 1;
                col = 1;
            } else if x & 0xC0 != 0x80 {
                col += 1;
            }
        }
        i += step;
    }
    Ok(deepest)
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

/// A number literal, or why it cannot be one (too large, too many decimals): never a silent 0.
fn number(text: &str) -> AstKind {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > 9 {
        return AstKind::Invalid(format!("`{text}` has more than 9 decimals; write it with fewer, or as a division (`1 / 3`)"));
    }
    let whole = whole.trim_start_matches('0');
    // Digits only (the grammar says so), so these parse unless they are too long.
    let value = match (whole.len() <= 18, whole.parse::<i64>().unwrap_or(0), frac.parse::<i64>().unwrap_or(0)) {
        (true, w, f) if w <= MAX_LITERAL => Some((w as i128 * 10i128.pow(frac.len() as u32) + f as i128, 10i64.pow(frac.len() as u32))),
        _ => None,
    };
    match value.map(|(n, d)| Q::checked_new(n, d as i128)) {
        Some(Some(q)) => AstKind::Num(q),
        // A whole part within the bound, with nine decimals, can still be past what a fraction keeps
        // exact (`num::LIMIT`).
        Some(None) => AstKind::Invalid(format!("`{text}` is too large a number to keep exact with its decimals; write it with fewer")),
        None => AstKind::Invalid(format!("`{text}` is too large: numbers in rules are at most {MAX_LITERAL}")),
    }
}

fn primary(p: Pair<Rule>) -> Ast {
    let at = pos(&p);
    let kind = match p.as_rule() {
        Rule::number => number(p.as_str()),
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
