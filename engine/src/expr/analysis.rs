//! What a formula looks at, found without evaluating it: the facts it mentions, whether it reads the
//! game at all, and the counts of the hand it is a function of (`Features`, for the deal statistics).

use crate::cards::CardSet;

use super::{BinOp, Expr, Fact, Func, Value};

impl Expr {
    /// Whether the formula uses this fact anywhere.
    pub fn mentions(&self, f: Fact) -> bool {
        match self {
            Expr::Fact(g) => *g == f,
            Expr::Un(_, x) => x.mentions(f),
            Expr::Bin(_, a, b) | Expr::Index(a, b) => a.mentions(f) || b.mentions(f),
            Expr::If(a, b, c) => a.mentions(f) || b.mentions(f) || c.mentions(f),
            Expr::List(xs) | Expr::Call(_, xs) => xs.iter().any(|x| x.mentions(f)),
            Expr::Comp { set, cond, body, .. } => set.mentions(f) || cond.as_ref().is_some_and(|c| c.mentions(f)) || body.as_ref().is_some_and(|b| b.mentions(f)),
            _ => false,
        }
    }
}

/// How a formula looks at a hand (or at the cards a declaration shows): only by counting it against
/// constant sets of cards. `None` from [`Expr::hand_features`] means it looks some other way.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    /// `(fact, set)`: the formula needs `count(fact ∩ set)`, and nothing else of that fact.
    pub counts: Vec<(Fact, CardSet)>,
}

impl Expr {
    /// The constant card sets through which this formula looks at the hand and the cards shown, when
    /// it looks at them only as `count(x)`, `count(x, S)`, `has(x, S)`, `complete(x, S...)` or
    /// `run(x, [S...])` with constant `S`, and depends on nothing else that changes from one hand to
    /// the next (no player, no game state). Its value is then a function of those counts alone, which
    /// lets the deal statistics evaluate it once per distinct count rather than once per hand.
    /// `constant` evaluates a sub-formula that mentions no fact (options, constants, card classes).
    pub fn hand_features(&self, constant: &dyn Fn(&Expr) -> Option<Value>) -> Option<Features> {
        let mut out = Features::default();
        self.collect_features(constant, &mut out).then_some(out)
    }

    fn collect_features(&self, constant: &dyn Fn(&Expr) -> Option<Value>, out: &mut Features) -> bool {
        let all = |xs: &[Expr], out: &mut Features| xs.iter().all(|x| x.collect_features(constant, out));
        match self {
            Expr::Fact(Fact::DeclValue | Fact::Players | Fact::DogSize | Fact::Table) => true,
            Expr::Fact(_) | Expr::Attr(_) => false,
            Expr::Const(_) | Expr::Opt(_) | Expr::Let(_) | Expr::Var(_) | Expr::Decl(_) => true,
            Expr::Un(_, x) => x.collect_features(constant, out),
            // `option.x == "..." and ...`: a constant side that settles the answer hides the other.
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, _) if !a.mentions_any_fact() && constant(a) == Some(Value::Bool(*op == BinOp::Or)) => true,
            Expr::Bin(_, a, b) | Expr::Index(a, b) => a.collect_features(constant, out) && b.collect_features(constant, out),
            Expr::If(a, b, c) => a.collect_features(constant, out) && b.collect_features(constant, out) && c.collect_features(constant, out),
            Expr::List(xs) => all(xs, out),
            Expr::Comp { set, cond, body, .. } => {
                set.collect_features(constant, out)
                    && cond.as_ref().is_none_or(|c| c.collect_features(constant, out))
                    && body.as_ref().is_none_or(|b| b.collect_features(constant, out))
            }
            // A run with wild cards is not a function of the counts of its steps (a wild card may lie in a
            // step), so it is left to the general case, which evaluates it hand by hand.
            Expr::Call(f @ (Func::Count | Func::Has | Func::Complete | Func::Run), args)
                if matches!(args.first(), Some(Expr::Fact(Fact::Hand | Fact::Shown))) && !(*f == Func::Run && args.len() > 2) =>
            {
                let Some(Expr::Fact(fact)) = args.first() else { return false };
                if *f == Func::Count && args.len() == 1 {
                    out.counts.push((*fact, CardSet::full()));
                    return true;
                }
                for x in &args[1..] {
                    if x.mentions_any_fact() {
                        return false;
                    }
                    let sets = match constant(x) {
                        Some(Value::Cards(c)) => vec![c],
                        Some(Value::List(l)) => match l.iter().map(|v| if let Value::Cards(c) = v { Some(*c) } else { None }).collect::<Option<Vec<_>>>() {
                            Some(sets) => sets,
                            None => return false,
                        },
                        _ => return false,
                    };
                    out.counts.extend(sets.into_iter().map(|c| (*fact, c)));
                }
                true
            }
            Expr::Call(f, args) => f.is_pure() && all(args, out),
        }
    }

    /// Whether the formula reads anything of the game (a fact, the contract, a comprehension's
    /// variable, a function that looks at the game), rather than only options and constants.
    pub(crate) fn mentions_any_fact(&self) -> bool {
        match self {
            Expr::Fact(_) | Expr::Attr(_) | Expr::Var(_) => true,
            Expr::Un(_, x) => x.mentions_any_fact(),
            Expr::Bin(_, a, b) | Expr::Index(a, b) => a.mentions_any_fact() || b.mentions_any_fact(),
            Expr::If(a, b, c) => a.mentions_any_fact() || b.mentions_any_fact() || c.mentions_any_fact(),
            Expr::List(xs) => xs.iter().any(Expr::mentions_any_fact),
            Expr::Call(f, xs) => !f.is_pure() || xs.iter().any(Expr::mentions_any_fact),
            Expr::Comp { .. } => true,
            Expr::Const(_) | Expr::Opt(_) | Expr::Let(_) | Expr::Decl(_) => false,
        }
    }
}

impl Func {
    /// A function of its arguments alone, which does not look at the game.
    pub fn is_pure(self) -> bool {
        matches!(
            self,
            Func::Count
                | Func::Has
                | Func::Abs
                | Func::Floor
                | Func::Ceil
                | Func::Pow
                | Func::Round
                | Func::Min
                | Func::Max
                | Func::Contains
                | Func::Index
                | Func::Complete
                | Func::Run
                | Func::Runs
                | Func::InRuns
                | Func::SuitOf
        )
    }
}
