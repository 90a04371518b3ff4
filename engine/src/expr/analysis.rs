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

/// What a part of a formula gives, for [`Expr::reads_as_sets`].
#[derive(Clone, Copy, PartialEq)]
enum Reading {
    /// It does not read the facts in question.
    Fixed,
    /// A set of cards built from them: swapping two cards in their cards swaps them in it.
    Set,
    /// A number or a yes/no that swapping two such cards leaves as it is.
    Same,
}

impl Expr {
    /// Whether the formula reads the facts `facts` (each a set of cards) only through `+` and `-` of
    /// sets, `count`, `has` and `==`/`!=` of sets, and the arithmetic, comparisons, `if`s and logic on
    /// what those give, against sets that do not depend on them: each of those sets, worked out by
    /// `fixed`, is added to `sets`. Then the formula's value stays the same when two cards that lie
    /// in the same sets of `sets` are swapped in the facts' cards (a swap that maps each of those sets
    /// onto itself maps each set built from the facts onto the one built from the facts swapped, and
    /// counts, `has` and equality do not see it). A part that does not read the facts and that
    /// `fixed` settles as `and`'s false or `or`'s true hides the other side, as evaluation does; an
    /// `if` whose condition it settles, the branch not taken. `false` for any other reading (another
    /// function of the facts' cards, a comprehension over them, a list...), or a set the formula
    /// counts against that `fixed` cannot work out.
    pub fn reads_as_sets(&self, facts: &[Fact], fixed: &dyn Fn(&Expr) -> Option<Value>, sets: &mut Vec<CardSet>) -> bool {
        self.reading(facts, fixed, sets).is_some()
    }

    fn reading(&self, facts: &[Fact], fixed: &dyn Fn(&Expr) -> Option<Value>, sets: &mut Vec<CardSet>) -> Option<Reading> {
        use Reading::*;
        let reads = |e: &Expr| facts.iter().any(|f| e.mentions(*f));
        if !reads(self) {
            return Some(Fixed);
        }
        // A part beside a set built from the facts: a set built from them too, or one that does not
        // read them, which the swaps must keep.
        let as_set = |e: &Expr, r: Reading, sets: &mut Vec<CardSet>| match r {
            Set => Some(()),
            Fixed => match fixed(e)? {
                Value::Cards(c) => {
                    sets.push(c);
                    Some(())
                }
                _ => None,
            },
            Same => None,
        };
        let same = |r: Reading| (r != Set).then_some(Same);
        // What a part that does not depend on the facts settles (where evaluation stops before reading
        // them).
        let settled = |e: &Expr, r: Reading| if r == Fixed { fixed(e).and_then(|v| super::truthy(&v).ok()) } else { None };
        match self {
            Expr::Fact(f) if facts.contains(f) => Some(Set),
            Expr::Un(_, x) => same(x.reading(facts, fixed, sets)?),
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
                let ra = a.reading(facts, fixed, sets)?;
                match settled(a, ra) {
                    Some(v) if v == (*op == BinOp::Or) => Some(Fixed),
                    _ => {
                        same(ra)?;
                        same(b.reading(facts, fixed, sets)?)
                    }
                }
            }
            Expr::Bin(op, a, b) => {
                let (ra, rb) = (a.reading(facts, fixed, sets)?, b.reading(facts, fixed, sets)?);
                match (op, ra == Set || rb == Set) {
                    (BinOp::Add | BinOp::Sub, true) => {
                        as_set(a, ra, sets)?;
                        as_set(b, rb, sets)?;
                        Some(Set)
                    }
                    (BinOp::Eq | BinOp::Ne, true) => {
                        as_set(a, ra, sets)?;
                        as_set(b, rb, sets)?;
                        Some(Same)
                    }
                    (_, true) => None,
                    (_, false) => Some(Same),
                }
            }
            Expr::If(c, t, f) => {
                let rc = c.reading(facts, fixed, sets)?;
                match settled(c, rc) {
                    Some(true) => t.reading(facts, fixed, sets),
                    Some(false) => f.reading(facts, fixed, sets),
                    None => {
                        same(rc)?;
                        let (rt, rf) = (t.reading(facts, fixed, sets)?, f.reading(facts, fixed, sets)?);
                        // Cards either way: a set that follows the facts (its branches kept by the swaps).
                        let cards = |e: &Expr, r: Reading| r == Set || (r == Fixed && matches!(fixed(e), Some(Value::Cards(_))));
                        if cards(t, rt) || cards(f, rf) {
                            as_set(t, rt, sets)?;
                            as_set(f, rf, sets)?;
                            Some(Set)
                        } else {
                            Some(Same)
                        }
                    }
                }
            }
            Expr::Call(Func::Count | Func::Has, args) if !args.is_empty() && args.len() <= 2 => {
                for a in args {
                    let r = a.reading(facts, fixed, sets)?;
                    as_set(a, r, sets)?;
                }
                Some(Same)
            }
            _ => None,
        }
    }
}
