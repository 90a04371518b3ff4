//! Evaluation: a formula walked with the game state the interpreter supplies (`Env`), the arithmetic
//! on exact numbers, and the conversions of a value to a number, a yes or no, cards or a list.

use std::sync::Arc;

use crate::cards::CardSet;
use crate::num::Q;

use super::functions::call;
use super::{BinOp, CompFunc, Expr, Fact, Func, UnOp, Value};

/// What the interpreter provides to evaluate an expression.
pub trait Env {
    fn option(&self, i: usize) -> Value;
    fn let_value(&self, i: usize) -> Result<Value, String>;
    fn fact(&self, f: Fact) -> Result<Value, String>;
    fn attr(&self, name: &str) -> Result<Value, String>;
    /// Functions that look at the game: points, piles, tricks, declarations.
    fn game_func(&self, f: Func, args: &[Value]) -> Result<Value, String>;
}

pub fn eval(e: &Expr, env: &dyn Env) -> Result<Value, String> {
    // The stacks are kept from one evaluation to the next, so a formula allocates nothing once warm.
    // An evaluation started from inside another (a contract's attribute) gets stacks of its own.
    thread_local! {
        static STACKS: std::cell::RefCell<Stacks> = std::cell::RefCell::new(Stacks::default());
    }
    STACKS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut stacks) => {
            stacks.vars.clear();
            stacks.args.clear();
            eval_in(e, env, &mut stacks)
        }
        Err(_) => eval_in(e, env, &mut Stacks::default()),
    })
}

/// Comprehension variables (innermost last) and function arguments being gathered, kept on two
/// stacks so evaluating a formula allocates little.
#[derive(Default)]
struct Stacks {
    vars: Vec<Value>,
    args: Vec<Value>,
}

/// `+ - * /` on exact numbers, refusing a result too large to stay exact (past `num::LIMIT`: never
/// a wrapped or panicking overflow), and a division by zero: no number stands for it, and a 0 given
/// in its place would hide a rule's mistake in a score or a setting (the compiler refuses a divisor
/// that is 0 whatever the game; this catches the others, in the game that makes them 0).
pub fn arith(op: BinOp, p: Q, q: Q) -> Result<Q, String> {
    if op == BinOp::Div && q == Q::ZERO {
        return Err(format!("division by zero ({p} / {q})"));
    }
    let (r, sign) = match op {
        BinOp::Add => (p.checked_add(q), "+"),
        BinOp::Sub => (p.checked_sub(q), "-"),
        BinOp::Mul => (p.checked_mul(q), "*"),
        _ => (p.checked_div(q), "/"),
    };
    r.ok_or_else(|| too_large(&format!("{p} {sign} {q}")))
}

/// What is said when a figure would be beyond `num::LIMIT`: `what` is the sum or product in words.
pub(crate) fn too_large(what: &str) -> String {
    format!("{what} is too large a number to keep exact")
}

pub(super) fn num(v: Value) -> Result<Q, String> {
    match v {
        Value::Num(q) => Ok(q),
        Value::Bool(b) => Ok(Q::int(b as i64)),
        other => Err(format!("expected a number, found {}", other.type_name())),
    }
}

pub fn truthy(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Num(q) => Ok(*q != Q::ZERO),
        other => Err(format!("expected yes or no, found {}", other.type_name())),
    }
}

pub(super) fn cards(v: &Value, env: &dyn Env) -> Result<CardSet, String> {
    match v {
        Value::Cards(c) => Ok(*c),
        Value::Trick(_) | Value::Player(_) | Value::Players(_) => match env.game_func(Func::Pile, std::slice::from_ref(v))? {
            Value::Cards(c) => Ok(c),
            _ => Err("expected cards".into()),
        },
        other => Err(format!("expected a set of cards, found {}", other.type_name())),
    }
}

/// The items of a list, borrowed when it is one (no copy), gathered otherwise.
pub(super) fn items(v: &Value) -> Result<std::borrow::Cow<'_, [Value]>, String> {
    use std::borrow::Cow;
    Ok(match v {
        Value::List(l) => Cow::Borrowed(l.as_slice()),
        Value::Players(m) => Cow::Owned((0..16).filter(|i| m >> i & 1 == 1).map(|i| Value::Player(i as u8)).collect()),
        Value::Cards(c) => Cow::Owned(c.iter().map(|c| Value::Cards(CardSet::single(c))).collect()),
        other => return Err(format!("cannot go through {}", other.type_name())),
    })
}

fn eval_in(e: &Expr, env: &dyn Env, vars: &mut Stacks) -> Result<Value, String> {
    Ok(match e {
        Expr::Const(v) => v.clone(),
        Expr::Opt(i) => env.option(*i),
        Expr::Let(i) => env.let_value(*i)?,
        Expr::Var(d) => vars.vars[vars.vars.len() - 1 - d].clone(),
        Expr::Fact(f) => env.fact(*f)?,
        Expr::Attr(a) => env.attr(a)?,
        Expr::Decl(i) => Value::Num(Q::int(*i as i64)),
        Expr::Un(UnOp::Neg, x) => Value::Num(arith(BinOp::Sub, Q::ZERO, num(eval_in(x, env, vars)?)?)?),
        Expr::Un(UnOp::Not, x) => Value::Bool(!truthy(&eval_in(x, env, vars)?)?),
        Expr::Bin(op, a, b) => {
            // `and`/`or` look at the right side only when needed, so guards work.
            match op {
                BinOp::And => {
                    return Ok(Value::Bool(truthy(&eval_in(a, env, vars)?)? && truthy(&eval_in(b, env, vars)?)?));
                }
                BinOp::Or => {
                    return Ok(Value::Bool(truthy(&eval_in(a, env, vars)?)? || truthy(&eval_in(b, env, vars)?)?));
                }
                _ => {}
            }
            let (x, y) = (eval_in(a, env, vars)?, eval_in(b, env, vars)?);
            match op {
                BinOp::Eq => Value::Bool(x == y),
                BinOp::Ne => Value::Bool(x != y),
                BinOp::Add | BinOp::Sub if matches!(x, Value::Cards(_)) => {
                    let (p, q) = (cards(&x, env)?, cards(&y, env)?);
                    Value::Cards(if *op == BinOp::Add { p.or(q) } else { p.minus(q) })
                }
                _ => {
                    let (p, q) = (num(x)?, num(y)?);
                    match op {
                        BinOp::Le => Value::Bool(p <= q),
                        BinOp::Ge => Value::Bool(p >= q),
                        BinOp::Lt => Value::Bool(p < q),
                        BinOp::Gt => Value::Bool(p > q),
                        _ => Value::Num(arith(*op, p, q)?),
                    }
                }
            }
        }
        Expr::If(c, t, f) => {
            if truthy(&eval_in(c, env, vars)?)? {
                eval_in(t, env, vars)?
            } else {
                eval_in(f, env, vars)?
            }
        }
        Expr::List(xs) => Value::List(Arc::new(xs.iter().map(|x| eval_in(x, env, vars)).collect::<Result<_, _>>()?)),
        Expr::Index(l, i) => {
            let list = eval_in(l, env, vars)?;
            let list = items(&list)?;
            let i = num(eval_in(i, env, vars)?)?;
            let n = if i.is_integer() && i >= Q::ZERO { i.numer() as usize } else { usize::MAX };
            list.get(n).cloned().ok_or_else(|| format!("index {i} is outside a list of {}", list.len()))?
        }
        Expr::Call(f, args) => {
            let base = vars.args.len();
            for x in args {
                match eval_in(x, env, vars) {
                    Ok(v) => vars.args.push(v),
                    Err(e) => {
                        vars.args.truncate(base);
                        return Err(e);
                    }
                }
            }
            let result = call(*f, &vars.args[base..], env);
            vars.args.truncate(base);
            result?
        }
        Expr::Comp { func, set, cond, body, .. } => {
            let set = eval_in(set, env, vars)?;
            let all: Box<dyn Iterator<Item = Value>> = match &set {
                Value::List(l) => Box::new(l.iter().cloned()),
                Value::Players(m) => {
                    let m = *m;
                    Box::new((0..16u8).filter(move |i| m >> i & 1 == 1).map(Value::Player))
                }
                other => Box::new(items(other)?.into_owned().into_iter()),
            };
            let mut acc: Option<Q> = None;
            let mut count = 0i64;
            for item in all {
                vars.vars.push(item);
                let keep = match cond {
                    Some(c) => truthy(&eval_in(c, env, vars)?),
                    None => Ok(true),
                };
                let keep = match keep {
                    Ok(k) => k,
                    Err(e) => {
                        vars.vars.pop();
                        return Err(e);
                    }
                };
                let val = if keep { body.as_ref().map(|b| eval_in(b, env, vars).and_then(num)) } else { None };
                vars.vars.pop();
                if !keep {
                    if *func == CompFunc::All {
                        return Ok(Value::Bool(false));
                    }
                    continue;
                }
                count += 1;
                if let Some(v) = val {
                    let v = v?;
                    acc = Some(match (func, acc) {
                        (_, None) => v,
                        (CompFunc::Sum, Some(a)) => arith(BinOp::Add, a, v)?,
                        (CompFunc::Max, Some(a)) => a.max(v),
                        (CompFunc::Min, Some(a)) => a.min(v),
                        (_, Some(a)) => a,
                    });
                }
            }
            match func {
                CompFunc::Count => Value::Num(Q::int(count)),
                CompFunc::All => Value::Bool(true),
                CompFunc::Any => Value::Bool(count > 0),
                _ => Value::Num(acc.unwrap_or(Q::ZERO)),
            }
        }
    })
}
