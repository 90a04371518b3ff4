//! A formula in words, for people: what the options settle left out, facts by what they mean,
//! operators by their words, a chain of `else if`s as cases, a comprehension as a sum, a count or a test.

use crate::expr::{BinOp, UnOp};
use crate::expr::{CompFunc, Expr, Fact, Func, Value};

use super::cards::plain_json;
use super::InForce;

/// A formula in words, for people: facts and functions by what they mean ("the attack's card
/// points", "the number of oudlers in the attack's pile"), the options' values in force, a branch an
/// option settles left out. Arithmetic keeps its signs.
impl InForce<'_> {
    pub(in crate::describe) fn words(&self, e: &Expr) -> String {
        self.words_in(e, 0)
    }

    /// Whether a formula's value is settled by the rules and options alone, without a game.
    pub(in crate::describe) fn settled(&self, e: &Expr) -> bool {
        match e {
            Expr::Const(_) | Expr::Opt(_) => true,
            Expr::Let(i) => *i < self.rules.constants.len(),
            Expr::Fact(_) | Expr::Attr(_) | Expr::Var(_) | Expr::Comp { .. } | Expr::Decl(_) => false,
            Expr::Un(_, x) => self.settled(x),
            Expr::Bin(_, a, b) | Expr::Index(a, b) => self.settled(a) && self.settled(b),
            Expr::If(a, b, c) => self.settled(a) && self.settled(b) && self.settled(c),
            Expr::List(xs) => xs.iter().all(|x| self.settled(x)),
            Expr::Call(f, xs) => f.is_pure() && xs.iter().all(|x| self.settled(x)),
        }
    }

    /// Whether a condition is settled true or false by the options, though it may mention the game:
    /// `false and x` is false whatever `x`.
    pub(in crate::describe) fn known(&self, e: &Expr) -> Option<bool> {
        match e {
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
                let and = *op == BinOp::And;
                let (x, y) = (self.known(a), self.known(b));
                if x == Some(!and) || y == Some(!and) {
                    Some(!and)
                } else if x == Some(and) && y == Some(and) {
                    Some(and)
                } else {
                    None
                }
            }
            Expr::Un(UnOp::Not, x) => self.known(x).map(|v| !v),
            _ => match self.settled_value(e) {
                Some(Value::Bool(v)) => Some(v),
                _ => None,
            },
        }
    }

    /// The value of a formula the options settle, though a branch not taken may mention the game.
    pub(in crate::describe) fn known_value(&self, e: &Expr) -> Option<Value> {
        match e {
            Expr::If(c, a, b) => match self.known(c)? {
                true => self.known_value(a),
                false => self.known_value(b),
            },
            _ => self.settled_value(e),
        }
    }

    /// The value of a settled formula, the same at every table size.
    pub(in crate::describe) fn settled_value(&self, e: &Expr) -> Option<Value> {
        if self.settled(e) {
            self.value(e)
        } else {
            None
        }
    }

    /// `prec`: how tightly the place the words go binds (0 anywhere, 1 in an operand of `and`/`or`,
    /// 2 of a comparison, 3 of `+`/`−`, 4 of `×`/`÷`); looser words are put in brackets.
    pub(in crate::describe) fn words_in(&self, e: &Expr, prec: u8) -> String {
        match (e, self.known_value(e)) {
            // A union or difference of card sets reads better by its parts.
            (Expr::Bin(BinOp::Add | BinOp::Sub, _, _), Some(Value::Cards(_))) => {}
            (_, Some(v)) => return self.value_words(&v),
            _ => {}
        }
        let wrap = |own: u8, text: String| if own < prec { format!("({text})") } else { text };
        let w = |x: &Expr, p: u8| self.words_in(x, p);
        match e {
            Expr::Const(v) => self.value_words(v),
            Expr::Opt(i) => self.rules.options.get(*i).map_or_else(|| "an option".into(), |o| self.options.get(&o.name).map_or_else(|| o.default.plain(), plain_json)),
            Expr::Let(i) => {
                let n = self.rules.constants.len();
                let name = if *i < n { self.rules.constants.get(*i).map(|l| l.name.clone()) } else { self.rules.score.lets.get(i - n).map(|l| l.name.clone()) };
                name.map_or_else(|| "a value".into(), |n| n.replace('_', " "))
            }
            Expr::Var(d) => {
                let vars = self.vars.borrow();
                vars.len().checked_sub(1 + d).and_then(|i| vars.get(i)).map_or_else(|| "that one".into(), |v| v.replace('_', " "))
            }
            Expr::Fact(Fact::Dog) => self.rules.the_dog(),
            Expr::Fact(Fact::DogSize) => format!("the size of {}", self.rules.the_dog()),
            Expr::Fact(f) => fact_words(*f).into(),
            Expr::Attr(a) => format!("the contract's {}", a.replace('_', " ")),
            Expr::Decl(i) => self.rules.declarations.get(*i).map_or_else(|| "a declaration".into(), |d| d.label.to_string()),
            Expr::Un(UnOp::Not, x) => match &**x {
                Expr::Call(Func::Has, args) if args.len() == 2 => format!("{} does not hold {}", w(&args[0], 5), w(&args[1], 5)),
                Expr::Fact(Fact::Last) => "it is not the last trick".into(),
                Expr::Fact(Fact::WonByPlayer) => "the player did not win the trick".into(),
                x => format!("not ({})", w(x, 0)),
            },
            Expr::Un(UnOp::Neg, x) => format!("−{}", w(x, 5)),
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
                // A side an option settles: `false and x` is false, `true and x` is x.
                let and = *op == BinOp::And;
                if let Some(v) = self.known(e) {
                    return (if v { "always" } else { "never" }).into();
                }
                for (settled, other) in [(a, b), (b, a)] {
                    if self.known(settled) == Some(and) {
                        return w(other, prec);
                    }
                }
                // `and` and `or` read alike in words: a side of the other kind is bracketed
                // (`A and (B or C)`), one of the same kind is not (`A and B and C`).
                let side = |x: &Expr| w(x, if matches!(x, Expr::Bin(o @ (BinOp::And | BinOp::Or), ..) if o != op) { 2 } else { 1 });
                wrap(1, format!("{} {} {}", side(a), if and { "and" } else { "or" }, side(b)))
            }
            // Times one, plus nothing: what an option settles that way says nothing.
            Expr::Bin(BinOp::Mul | BinOp::Div, a, b) if self.known_value(b) == Some(Value::Num(crate::num::Q::ONE)) => w(a, prec),
            Expr::Bin(BinOp::Add | BinOp::Sub, a, b) if self.known_value(b) == Some(Value::Num(crate::num::Q::ZERO)) => w(a, prec),
            // Card sets: `trumps + tarots`, `suit_of(called) - called`.
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) if matches!(self.settled_value(a), Some(Value::Cards(_))) || matches!(&**a, Expr::Call(Func::SuitOf, _)) => {
                format!("{} {} {}", w(a, 5), if *op == BinOp::Add { "and" } else { "except" }, w(b, 5))
            }
            Expr::Bin(op, a, b) => {
                let (own, word) = match op {
                    BinOp::Eq => (2, "is"),
                    BinOp::Ne => (2, "is not"),
                    BinOp::Lt => (2, "is less than"),
                    BinOp::Le => (2, "is at most"),
                    BinOp::Gt => (2, "is more than"),
                    BinOp::Ge => (2, "is at least"),
                    BinOp::Add => (3, "+"),
                    BinOp::Sub => (3, "−"),
                    BinOp::Mul => (4, "×"),
                    BinOp::Div => (4, "÷"),
                    BinOp::And | BinOp::Or => unreachable!("handled above"),
                };
                wrap(own, format!("{} {word} {}", w(a, own + 1), w(b, own + 1)))
            }
            Expr::If(..) => {
                // An `else if` chain reads as cases: "a if c; b if d; otherwise e".
                let mut cases = vec![];
                let mut at = e;
                while let Expr::If(c, a, b) = at {
                    match self.known(c) {
                        Some(true) => {
                            at = a;
                            break;
                        }
                        Some(false) => at = b,
                        None => {
                            cases.push(format!("{} if {}", w(a, 1), w(c, 1)));
                            at = b;
                        }
                    }
                }
                if cases.is_empty() {
                    return w(at, prec);
                }
                cases.push(format!("otherwise {}", w(at, 1)));
                wrap(0, cases.join("; "))
            }
            Expr::List(xs) => format!("[{}]", xs.iter().map(|x| w(x, 0)).collect::<Vec<_>>().join(", ")),
            Expr::Index(list, i) => match (&**list, self.settled_value(list)) {
                (_, Some(Value::List(xs))) => {
                    let items: Vec<String> = xs.iter().map(|x| self.value_words(x)).collect();
                    let places: Vec<String> = (0..xs.len()).map(|k| k.to_string()).collect();
                    wrap(0, format!("{} as {} is {}", or_list(&items), w(i, 5), or_list(&places)))
                }
                (Expr::Fact(Fact::Tricks), _) => format!("trick {} (from 0)", w(i, 0)),
                _ => format!("item {} (from 0) of {}", w(i, 0), w(list, 5)),
            },
            Expr::Call(f, args) => self.call_words(*f, args),
            Expr::Comp { func, var, set, cond, body } => {
                let set = w(set, 5);
                self.vars.borrow_mut().push(var.clone());
                let cond = cond.as_ref().map(|c| format!(" where {}", w(c, 1))).unwrap_or_default();
                let body = body.as_ref().map(|b| w(b, 1));
                self.vars.borrow_mut().pop();
                let (set, cond) = (format!("{} in {set}", var.replace('_', " ")), cond);
                match (func, body) {
                    (CompFunc::Count, _) => format!("the number of {set}{cond}"),
                    (CompFunc::Sum, Some(b)) => format!("the sum of {b} over {set}{cond}"),
                    (CompFunc::Max, Some(b)) => format!("the highest {b} among {set}{cond}"),
                    (CompFunc::Min, Some(b)) => format!("the lowest {b} among {set}{cond}"),
                    (CompFunc::All, Some(b)) => format!("{b}, for all {set}{cond}"),
                    (CompFunc::Any, Some(b)) => format!("{b}, for one of {set}{cond}"),
                    (CompFunc::All, None) => format!("all of {set}{cond}"),
                    (CompFunc::Any, None) => format!("any of {set}{cond}"),
                    (f, None) => format!("{f:?} of {set}{cond}").to_lowercase(),
                }
            }
        }
    }
}

/// "56, 51, 41 or 36".
pub(in crate::describe) fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

pub(in crate::describe) fn fact_words(f: Fact) -> &'static str {
    match f {
        Fact::Players => "the players",
        Fact::Dealer => "the dealer",
        Fact::FirstHand => "first hand",
        Fact::Taker => "the taker",
        Fact::Partner => "the taker's partner",
        Fact::Called => "the called card",
        Fact::Attack => "the attack",
        Fact::Defence => "the defence",
        Fact::Tricks => "the tricks",
        Fact::LastTrick => "the last trick",
        Fact::Trick => "the trick in play",
        Fact::DogSize => "the size of the dog",
        Fact::Table => "the number of players at the table",
        Fact::Hand => "the hand",
        Fact::FirstPacket => "the first packet dealt",
        Fact::Shown => "the cards shown",
        Fact::DeclValue => "its value",
        Fact::BestValue => "the most the hand allows",
        Fact::Discarded => "the discard",
        Fact::Packet => "the packet",
        Fact::Dog => "the dog",
        Fact::Card => "the card",
        Fact::Last => "it is the last trick",
        Fact::WonByPlayer => "the player won the trick",
        Fact::Player => "the player",
        Fact::Payer => "the payer",
        Fact::Payee => "the payee",
        Fact::Total => "the hand score",
    }
}
