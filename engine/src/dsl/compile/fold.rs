//! What depends on nothing of a game: folded into constants when compiled (`fold`), or evaluated with
//! the options alone (`Chosen`).

use super::*;

/// Folds sub-expressions that depend on nothing but constants, bottom up, so a formula evaluated for
/// every game does not rebuild its tables and card sets each time.
/// A constant part that cannot be evaluated (`[1, 2][5]`, `"a" + 1`) leaves its error in `failed`.
pub(super) fn fold(e: Expr, failed: &mut Option<String>) -> Expr {
    let mut b = |x: Box<Expr>| Box::new(fold(*x, failed));
    let e = match e {
        Expr::Un(op, x) => Expr::Un(op, b(x)),
        Expr::Bin(op, x, y) => {
            let x = b(x);
            Expr::Bin(op, x, b(y))
        }
        Expr::If(c, t, f) => {
            let c = b(c);
            let t = b(t);
            Expr::If(c, t, b(f))
        }
        Expr::List(xs) => Expr::List(xs.into_iter().map(|x| fold(x, failed)).collect()),
        Expr::Index(l, i) => {
            let l = b(l);
            Expr::Index(l, b(i))
        }
        Expr::Call(f, args) => Expr::Call(f, args.into_iter().map(|x| fold(x, failed)).collect()),
        Expr::Comp { func, var, set, cond, body } => {
            let set = b(set);
            let cond = cond.map(&mut b);
            Expr::Comp { func, var, set, cond, body: body.map(b) }
        }
        other => other,
    };
    if !matches!(e, Expr::Const(_)) && constant(&e) {
        match eval(&e, &NO_GAME) {
            Ok(v) => return Expr::Const(v),
            Err(m) => {
                failed.get_or_insert(m);
            }
        }
    }
    e
}

/// Nothing of a game at all: constant folding, and counters that follow no option.
pub(super) const NO_GAME: Chosen<'static> = Chosen(&[]);

/// The options of a game, and nothing else of it: a counter that follows options, tried with each
/// choice.
pub(super) struct Chosen<'a>(pub(super) &'a [Value]);

impl Env for Chosen<'_> {
    /// An option not given reads as false (`NO_GAME` evaluates only formulas that read no option).
    fn option(&self, i: usize) -> Value {
        self.0.get(i).cloned().unwrap_or(Value::Bool(false))
    }
    fn let_value(&self, _: usize) -> Result<Value, String> {
        Err(String::new())
    }
    fn fact(&self, _: Fact) -> Result<Value, String> {
        Err(String::new())
    }
    fn attr(&self, _: &str) -> Result<Value, String> {
        Err(String::new())
    }
    fn game_func(&self, _: Func, _: &[Value]) -> Result<Value, String> {
        Err(String::new())
    }
}

/// Whether an expression depends on nothing but constants (pure functions of constants included).
pub(super) fn constant(e: &Expr) -> bool {
    match e {
        Expr::Const(_) => true,
        Expr::Un(_, x) => constant(x),
        Expr::Bin(_, a, b) => constant(a) && constant(b),
        Expr::List(xs) => xs.iter().all(constant),
        Expr::Index(l, i) => constant(l) && constant(i),
        Expr::Call(f, args) => !GAME_FUNCS.contains(f) && args.iter().all(constant),
        _ => false,
    }
}
