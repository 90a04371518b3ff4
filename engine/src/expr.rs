//! The expression language of rule formulas, compiled: names are resolved to slots, facts and
//! functions by the compiler, so evaluation is a plain walk over this tree. The game state behind the
//! facts (`points(attack)`, `hand`, `last_trick`) is supplied by the interpreter through `Env`.

use std::sync::Arc;

use crate::cards::CardSet;
use crate::combinations;
use crate::num::Q;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Num(Q),
    Bool(bool),
    Str(Arc<str>),
    Cards(CardSet),
    Player(u8),
    /// A set of players, as a bit mask of seats.
    Players(u16),
    /// A trick, by number from 0; the number after the tricks played is the trick in play (`trick`).
    Trick(u8),
    List(Arc<Vec<Value>>),
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Num(_) => "a number",
            Value::Bool(_) => "a yes/no value",
            Value::Str(_) => "a text",
            Value::Cards(_) => "a set of cards",
            Value::Player(_) => "a player",
            Value::Players(_) => "a set of players",
            Value::Trick(_) => "a trick",
            Value::List(_) => "a list",
        }
    }
}

/// A name whose value comes from the game being replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    Players,
    Dealer,
    FirstHand,
    Taker,
    Partner,
    /// The card the taker called.
    Called,
    Attack,
    Defence,
    Tricks,
    LastTrick,
    /// The trick in play, at a player's turn (`must lead|play` and `keep`): the cards played to it so
    /// far, none when he leads.
    Trick,
    DogSize,
    /// `table_size`: the players at the table, one who sits the deal out included (`players` counts those
    /// who play).
    Table,
    /// The dog's cards as dealt (the discard's `require`).
    Dog,
    /// The hand of the player in question (annulments, declarations).
    Hand,
    /// The first packet dealt to the player in question, when the record gives the order of the deal.
    FirstPacket,
    /// The cards a declaration shows.
    Shown,
    /// A declaration's own value, inside its `require`s.
    DeclValue,
    /// The most the declaring player's hand allows of that declaration (`best_value`).
    BestValue,
    Discarded,
    /// The cards of one packet of the talon, where the talon's `rest` decides where it goes.
    Packet,
    /// The card that triggered a payment.
    Card,
    /// The trick being played is the last one.
    Last,
    /// The trick was won by the player who played the triggering card.
    WonByPlayer,
    Player,
    Payer,
    Payee,
    /// The sum of the score's terms.
    Total,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Count,
    Has,
    Abs,
    Floor,
    Ceil,
    Round,
    /// `pow(x, n)`: x multiplied by itself n times, n a whole number from 0 to 62 (a stake doubled
    /// once per double: `pow(2, declared(retour))`).
    Pow,
    Min,
    Max,
    Contains,
    Index,
    Complete,
    /// `run(set, order[, wild[, passable]])`: the run from the order's first step (`combinations::run_from_head`).
    Run,
    /// `runs(set, order, min)`: the lengths of the runs anywhere along the order (`combinations::runs`).
    Runs,
    /// `in_runs(set, order, min)`: the cards of those runs (`combinations::in_runs`).
    InRuns,
    /// Every card of the suits of the given cards.
    SuitOf,
    Points,
    /// What cards are worth one by one, added up (`points_of(card)`).
    PointsOf,
    Pile,
    /// `taken(p)`: how many cards a player or side has taken, the empty cards the Fool's exchange
    /// moves counted where they go.
    Taken,
    HandOf,
    /// `played(p)`: the cards `p` played to tricks.
    Played,
    /// `withheld(p)`: the cards `p` withheld from a trump obligation (`play { withhold }`) so far.
    Withheld,
    WinnerSide,
    Winner,
    /// `sat_out(p)`: whether `p` sits this deal out by choice (`sit-out-by-choice`).
    SatOut,
    /// A player's side: himself, his partner, or his whole camp.
    Side,
    /// How many tricks a player or side won.
    Won,
    WinningCard,
    /// `leading_card(t)`: the first card played to trick `t` (none for the trick in play before its lead).
    LeadingCard,
    Declared,
    /// `showed(D[, who])`: the cards shown in declaration `a[0]` (by a player or side).
    Showed,
    Announced,
    Declarer,
    /// `pot.NAME`: what pot number `a[0]` holds at this point of the deal's payments.
    Pot,
    /// `pot.NAME.carried`: what it held at the start of the deal.
    Carried,
    /// `carried(p)`: a player's running total in the match before this deal (the record's `standing`);
    /// for several players (a side), the sum of theirs.
    Standing,
    /// `dealt(p, N)`: the first N cards dealt to `p`, in the order of the deal (the deal event's `packets`).
    Dealt,
    /// `bid_before(p, CONTRACT)`: whether `p` bid the contract (its index, `a[1]`) in this auction,
    /// before the bid being judged (in a contract's `by`) or at all (once the auction is over).
    BidBefore,
    /// `passed_over(p, CONTRACT)`: whether `p` passed at a turn where no bid as high as the contract
    /// (its index, `a[1]`) had yet been made, so that it was still open to him.
    PassedOver,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompFunc {
    Count,
    Sum,
    Max,
    Min,
    All,
    Any,
}

#[derive(Clone, Debug)]
pub enum Expr {
    Const(Value),
    /// An option of the ruleset, by index.
    Opt(usize),
    /// A `let` of the ruleset (index into the constants, then the score's lets).
    Let(usize),
    /// A comprehension variable, by depth (0 = innermost).
    Var(usize),
    Fact(Fact),
    /// An attribute of the contract being played (`contract.multiplier`).
    Attr(Arc<str>),
    /// A declaration kind, by index, as the argument of `declared`/`announced`/`declarer`.
    Decl(usize),
    Un(UnOp, Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    List(Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
    Comp {
        func: CompFunc,
        /// The variable's name as written, for the rules in words (formulas read it by depth, `Var`).
        var: String,
        set: Box<Expr>,
        cond: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
    },
}

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

fn num(v: Value) -> Result<Q, String> {
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

fn cards(v: &Value, env: &dyn Env) -> Result<CardSet, String> {
    match v {
        Value::Cards(c) => Ok(*c),
        Value::Trick(_) | Value::Player(_) | Value::Players(_) => match env.game_func(Func::Pile, std::slice::from_ref(v))? {
            Value::Cards(c) => Ok(c),
            _ => Err("expected cards".into()),
        },
        other => Err(format!("expected a set of cards, found {}", other.type_name())),
    }
}

/// The steps of a run's order: a list of sets of cards, highest first.
fn steps(v: &Value, env: &dyn Env) -> Result<Vec<CardSet>, String> {
    items(v)?.iter().map(|x| cards(x, env)).collect::<Result<_, _>>().map_err(|e| format!("the order of a run is a list of sets of cards: {e}"))
}

/// The items of a list, borrowed when it is one (no copy), gathered otherwise.
fn items(v: &Value) -> Result<std::borrow::Cow<'_, [Value]>, String> {
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

fn call(f: Func, a: &[Value], env: &dyn Env) -> Result<Value, String> {
    let n = |i: usize| num(a[i].clone());
    Ok(match f {
        Func::Count => match (a.first(), a.get(1)) {
            (Some(Value::List(l)), None) => Value::Num(Q::int(l.len() as i64)),
            (Some(Value::Players(m)), None) => Value::Num(Q::int(m.count_ones() as i64)),
            (Some(x), None) => Value::Num(Q::int(cards(x, env)?.len() as i64)),
            (Some(x), Some(y)) => Value::Num(Q::int(cards(x, env)?.and(cards(y, env)?).len() as i64)),
            _ => return Err("count needs one or two arguments".into()),
        },
        Func::Has => Value::Bool({
            let (set, want) = (cards(&a[0], env)?, cards(&a[1], env)?);
            !want.is_empty() && set.and(want) == want
        }),
        Func::Abs => {
            let x = n(0)?;
            Value::Num(x.checked_abs().ok_or_else(|| too_large(&format!("abs({x})")))?)
        }
        Func::Floor => Value::Num(n(0)?.floor()),
        Func::Ceil => Value::Num(n(0)?.ceil()),
        Func::Round => Value::Num(n(0)?.round()),
        Func::Pow => {
            let (x, e) = (n(0)?, n(1)?);
            if !e.is_integer() || e < Q::ZERO {
                return Err(format!("pow raises to a whole number from 0, not {e}"));
            }
            if e > Q::int(62) {
                return Err(too_large(&format!("pow({x}, {e})")));
            }
            let mut acc = Q::ONE;
            for _ in 0..e.numer() {
                acc = acc.checked_mul(x).ok_or_else(|| too_large(&format!("pow({x}, {e})")))?;
            }
            Value::Num(acc)
        }
        Func::Min | Func::Max => {
            let mut best = n(0)?;
            for i in 1..a.len() {
                let x = n(i)?;
                best = if f == Func::Min { best.min(x) } else { best.max(x) };
            }
            Value::Num(best)
        }
        Func::Contains => Value::Bool(items(&a[0])?.contains(&a[1])),
        Func::Index => {
            let pos = items(&a[0])?.iter().position(|x| x == &a[1]);
            Value::Num(Q::int(pos.map(|p| p as i64).unwrap_or(-1)))
        }
        Func::Complete => {
            let set = cards(&a[0], env)?;
            let full = a[1..].iter().map(|x| cards(x, env)).filter(|c| matches!(c, Ok(c) if set.and(*c) == *c)).count();
            Value::Num(Q::int(full as i64))
        }
        Func::Run => {
            let set = cards(&a[0], env)?;
            let optional = |i: usize| a.get(i).map(|x| cards(x, env)).unwrap_or(Ok(CardSet::EMPTY));
            Value::Num(Q::int(combinations::run_from_head(set, &steps(&a[1], env)?, optional(2)?, optional(3)?) as i64))
        }
        Func::Runs | Func::InRuns => {
            let (set, order) = (cards(&a[0], env)?, steps(&a[1], env)?);
            let min = n(2)?;
            if !min.is_integer() || min < Q::ONE {
                return Err(format!("the shortest run counted must be a whole number from 1, not {min}"));
            }
            let min = min.numer() as usize;
            if f == Func::Runs {
                Value::List(Arc::new(combinations::runs(set, &order, min).into_iter().map(|l| Value::Num(Q::int(l as i64))).collect()))
            } else {
                Value::Cards(combinations::in_runs(set, &order, min))
            }
        }
        Func::SuitOf => {
            let set = cards(&a[0], env)?;
            Value::Cards(set.iter().fold(CardSet::EMPTY, |acc, c| acc.or(CardSet::of_lane(c.lane()))))
        }
        _ => env.game_func(f, a)?,
    })
}

/// A binary operator of the rules language, as the parser reads it and a formula applies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Le,
    Ge,
    Lt,
    Gt,
    Add,
    Sub,
    Mul,
    Div,
}

/// A unary operator of the rules language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}
