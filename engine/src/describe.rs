//! The compiled rules in words: one line per rule clause, grouped by aspect, each with the rule id,
//! where it is written and its source. `rulesets show` prints it; comparisons line rulesets up by it.
//! Everything here is derived from the IR, so a new rule file describes itself.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::cards::{Card, CardSet};
use crate::dsl::ast::{BinOp, UnOp};
use crate::expr::{CompFunc, Expr, Fact, Func, Value};
use crate::ir::*;
use crate::replay::{Game, Setup};

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Line {
    pub aspect: &'static str,
    pub rule: Arc<str>,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Arc<str>>,
    pub at: Arc<str>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Description {
    pub id: String,
    pub title: String,
    pub version: String,
    /// This ruleset, then its parents.
    pub chain: Vec<String>,
    pub players: String,
    pub options: Vec<OptionView>,
    pub sources: Vec<Source>,
    pub rules: Vec<Line>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OptionView {
    pub name: String,
    pub doc: String,
    pub value: serde_json::Value,
    pub default: serde_json::Value,
    pub choices: Vec<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The formula of a statement, after its `=`, as written.
fn formula_text(r: &Ruleset, c: &Clause) -> String {
    statement_text(r, c).split_once(" = ").map(|x| x.1.to_string()).unwrap_or_default()
}

/// The text of the statement a clause points at (`file:line`), trimmed, continuation lines joined.
fn statement_text(r: &Ruleset, c: &Clause) -> String {
    let Some((file, line)) = c.at.rsplit_once(':') else { return String::new() };
    let Ok(line) = line.parse::<usize>() else { return String::new() };
    let Some((_, text)) = r.texts.iter().find(|(f, _)| f == file) else { return String::new() };
    let mut out = String::new();
    for l in text.lines().skip(line.saturating_sub(1)) {
        let l = l.split(" @").next().unwrap_or(l).trim_end();
        match l.strip_suffix('\\') {
            Some(cont) => out.push_str(cont.trim()),
            None => {
                out.push_str(l.trim());
                break;
            }
        }
        out.push(' ');
    }
    out
}

/// The rules' settings as they stand with the options chosen, at each table size the ruleset allows:
/// a setting's formula is shown as its value in force ("hand 18", "26 with 3 players, 19 with 4"),
/// and a formula that needs a game (a hand, a trick) has each `option.NAME` replaced by its value.
struct InForce<'r> {
    /// The names of the comprehension variables around the formula being put in words, innermost last.
    vars: std::cell::RefCell<Vec<String>>,
    rules: &'r Ruleset,
    options: &'r BTreeMap<String, serde_json::Value>,
    tables: Vec<(usize, Setup<'r>)>,
}

impl<'r> InForce<'r> {
    fn new(rules: &'r Ruleset, options: &'r BTreeMap<String, serde_json::Value>) -> InForce<'r> {
        let tables = (rules.players.0..=rules.players.1).filter_map(|n| Some((n, Setup::new(rules, n, options).ok()?))).collect();
        InForce { vars: Default::default(), rules, options, tables }
    }

    /// The value of a formula that needs no game, at each table size; `None` when it needs one.
    fn values(&self, e: &Expr) -> Option<Vec<(usize, Value)>> {
        if self.tables.is_empty() {
            return None;
        }
        self.tables
            .iter()
            .map(|(n, setup)| {
                let names: Vec<String> = (0..*n).map(|i| format!("p{i}")).collect();
                Some((*n, Game::new(setup, &names, 0).constant(e)?))
            })
            .collect()
    }

    /// The one value of a formula at every table size, when it is the same at all.
    fn value(&self, e: &Expr) -> Option<Value> {
        let all = self.values(e)?;
        all.iter().all(|(_, v)| *v == all[0].1).then(|| all[0].1.clone())
    }

    /// A setting in words: its value, or its values by table size, or (needing a game) its formula
    /// with the options' values in force.
    fn text(&self, e: &Expr, words: impl Fn(&Value) -> String) -> String {
        match self.values(e) {
            Some(all) if all.iter().all(|(_, v)| *v == all[0].1) => words(&all[0].1),
            Some(all) => {
                let each: Vec<String> = all.iter().map(|(n, v)| format!("{} with {n} players", words(v))).collect();
                each.join(", ")
            }
            None => self.words(e),
        }
    }

    /// A requirement's label with the values in force (by table size where they differ).
    fn label(&self, text: &str) -> String {
        crate::label::fill(text, |name| {
            let i = self.rules.constants.iter().position(|l| &*l.name == name)?;
            Some(self.text(&Expr::Let(i), crate::label::words))
        })
    }

    /// The formula of a clause, each `option.NAME` replaced by the value in force.
    fn formula(&self, c: &Clause) -> String {
        self.substitute(&formula_text(self.rules, c))
    }

    fn substitute(&self, text: &str) -> String {
        let mut out = text.to_string();
        // Longest names first, so that one name that begins another is not replaced inside it.
        let mut options: Vec<_> = self.rules.options.iter().collect();
        options.sort_by_key(|o| std::cmp::Reverse(o.name.len()));
        for o in options {
            let v = self.options.get(&o.name).unwrap_or(&o.default);
            out = out.replace(&format!("option.{}", o.name), &v.to_string());
        }
        fold(&out)
    }
}

/// Folds what an option's value settles: `"fft" == "seed-004"` is `false`, `(false or X)` is `(X)`,
/// `true and X` is `X`; so that a formula says only what still depends on the game.
fn fold(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    // `"a" == "b"` and `"a" != "b"`, between quoted texts.
    while let Some(start) = rest.find('"') {
        let Some(len) = rest[start + 1..].find('"') else { break };
        let left = &rest[start + 1..start + 1 + len];
        let after = &rest[start + len + 2..];
        let compared = [(" == ", true), (" != ", false)].into_iter().find_map(|(op, equal)| {
            let right = after.strip_prefix(op)?.strip_prefix('"')?;
            let end = right.find('"')?;
            Some(((left == &right[..end]) == equal, &right[end + 1..]))
        });
        match compared {
            Some((truth, tail)) => {
                out.push_str(&rest[..start]);
                out.push_str(if truth { "true" } else { "false" });
                rest = tail;
            }
            None => {
                out.push_str(&rest[..start + len + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    for (from, to) in [("(false or ", "("), ("(true and ", "("), (" or false)", ")"), (" and true)", ")")] {
        out = out.replace(from, to);
    }
    out.strip_prefix("true and ").map(String::from).unwrap_or(out)
}

/// A formula in words, for people: facts and functions by what they mean ("the attack's card
/// points", "the number of oudlers in the attack's pile"), the options' values in force, a branch an
/// option settles left out. Arithmetic keeps its signs.
impl InForce<'_> {
    fn words(&self, e: &Expr) -> String {
        self.words_in(e, 0)
    }

    /// Whether a formula's value is settled by the rules and options alone, without a game.
    fn settled(&self, e: &Expr) -> bool {
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
    fn known(&self, e: &Expr) -> Option<bool> {
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
    fn known_value(&self, e: &Expr) -> Option<Value> {
        match e {
            Expr::If(c, a, b) => match self.known(c)? {
                true => self.known_value(a),
                false => self.known_value(b),
            },
            _ => self.settled_value(e),
        }
    }

    /// The value of a settled formula, the same at every table size.
    fn settled_value(&self, e: &Expr) -> Option<Value> {
        if self.settled(e) {
            self.value(e)
        } else {
            None
        }
    }

    fn value_words(&self, v: &Value) -> String {
        match v {
            Value::Cards(c) if c.len() == 1 => {
                let card = c.iter().next().expect("one card");
                match self.rules.classes.iter().find(|k| k.cards == *c).and_then(|k| k.label.clone()) {
                    Some(label) => label,
                    None => self.rules.card_name(card),
                }
            }
            Value::Cards(c) if c.is_empty() => "no card".into(),
            Value::Cards(c) if *c == self.rules.pack.trumps() && !c.is_empty() => "trumps".into(),
            Value::Cards(c) => match self.rules.classes.iter().find(|k| k.cards == *c) {
                Some(k) => k.name.replace('_', " "),
                None => self.as_classes(*c).or_else(|| self.as_difference(*c)).unwrap_or_else(|| cards_short(*c)),
            },
            Value::Num(q) if *q < crate::num::Q::ZERO => format!("−{}", plain(&Value::Num(-*q))),
            Value::List(l) => format!("[{}]", l.iter().map(|v| self.value_words(v)).collect::<Vec<_>>().join(", ")),
            v => plain(v),
        }
    }

    /// A set of cards as the trumps and classes it is made of ("trumps and tarots"), the largest
    /// first, when two or three of them make it up exactly.
    fn as_classes(&self, set: CardSet) -> Option<String> {
        let mut parts: Vec<(String, CardSet)> = vec![("trumps".into(), self.rules.pack.trumps())];
        parts.extend(self.rules.classes.iter().map(|k| (k.name.replace('_', " "), k.cards)));
        parts.retain(|(_, p)| !p.is_empty() && p.minus(set).is_empty());
        parts.sort_by_key(|(_, p)| std::cmp::Reverse(p.len()));
        let mut covered = CardSet::EMPTY;
        let mut names = vec![];
        for (name, p) in parts {
            if !p.minus(covered).is_empty() {
                covered = covered.or(p);
                names.push(name);
            }
        }
        (covered == set && (2..=3).contains(&names.len())).then(|| names.join(" and "))
    }

    /// A set of cards as the smallest of the trumps and classes that holds it, except what it lacks
    /// ("trumps except trull"), when what it lacks is a class, two or three of them, or a few cards:
    /// `trumps - trull`, folded to its cards by the compiler, read "19 cards".
    /// Only for sets too large to list (more than 12 cards): a few cards read better by their codes.
    fn as_difference(&self, set: CardSet) -> Option<String> {
        if set.len() <= 12 {
            return None;
        }
        let mut parts: Vec<(String, CardSet)> = vec![("trumps".into(), self.rules.pack.trumps())];
        parts.extend(self.rules.classes.iter().map(|k| (k.name.replace('_', " "), k.cards)));
        parts.retain(|(_, p)| p.len() > set.len() && set.minus(*p).is_empty());
        parts.sort_by_key(|(_, p)| p.len());
        parts.into_iter().find_map(|(name, whole)| {
            let rest = whole.minus(set);
            // A class taken away, though it may hold cards the whole has not (`trumps - trull`, the
            // trull holding the Excuse).
            let lacks = match self.rules.classes.iter().find(|k| !k.cards.and(whole).is_empty() && whole.minus(k.cards) == set) {
                Some(k) => k.name.replace('_', " "),
                None => self.as_classes(rest).or_else(|| (rest.len() <= 3).then(|| rest.iter().map(|c| self.rules.card_name(c)).collect::<Vec<_>>().join(" and ")))?,
            };
            Some(format!("{name} except {lacks}"))
        })
    }

    /// `prec`: how tightly the place the words go binds (0 anywhere, 1 in an operand of `and`/`or`,
    /// 2 of a comparison, 3 of `+`/`−`, 4 of `×`/`÷`); looser words are put in brackets.
    fn words_in(&self, e: &Expr, prec: u8) -> String {
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
            Expr::Opt(i) => self.rules.options.get(*i).map_or_else(|| "an option".into(), |o| plain_json(self.options.get(&o.name).unwrap_or(&o.default))),
            Expr::Let(i) => {
                let n = self.rules.constants.len();
                let name = if *i < n { self.rules.constants.get(*i).map(|l| l.name.clone()) } else { self.rules.score.lets.get(i - n).map(|l| l.name.clone()) };
                name.map_or_else(|| "a value".into(), |n| n.replace('_', " "))
            }
            Expr::Var(d) => {
                let vars = self.vars.borrow();
                vars.len().checked_sub(1 + d).and_then(|i| vars.get(i)).map_or_else(|| "that one".into(), |v| v.replace('_', " "))
            }
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
                wrap(1, format!("{} {} {}", w(a, 1), if and { "and" } else { "or" }, w(b, 1)))
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

    fn call_words(&self, f: Func, args: &[Expr]) -> String {
        let w = |i: usize| args.get(i).map(|x| self.words_in(x, 5)).unwrap_or_default();
        let rest = || args.iter().skip(1).map(|x| self.words_in(x, 5)).collect::<Vec<_>>().join(", ");
        match (f, args.len()) {
            (Func::Count, 1) if matches!(args[0], Expr::Fact(Fact::Tricks)) => "the number of tricks".into(),
            (Func::Count, 1) if matches!(args[0], Expr::Fact(Fact::Attack | Fact::Defence | Fact::Players)) => format!("the number of players in {}", w(0)),
            (Func::Count, 1) => format!("the number of {}", w(0)),
            (Func::Count, _) => format!("the number of {} in {}", w(1), w(0)),
            (Func::Has, _) => format!("{} holds {}", w(0), w(1)),
            (Func::Abs, _) => match &args[0] {
                Expr::Bin(BinOp::Sub, a, b) => format!("the gap between {} and {}", self.words_in(a, 3), self.words_in(b, 3)),
                _ => format!("the size of {}", w(0)),
            },
            (Func::Floor, _) => format!("{}, rounded down", self.words_in(&args[0], 0)),
            (Func::Ceil, _) => format!("{}, rounded up", self.words_in(&args[0], 0)),
            (Func::Round, _) => format!("{}, rounded", self.words_in(&args[0], 0)),
            (Func::Min, _) => format!("the least of {}", args.iter().map(|x| self.words_in(x, 1)).collect::<Vec<_>>().join(" and ")),
            (Func::Max, _) => format!("the most of {}", args.iter().map(|x| self.words_in(x, 1)).collect::<Vec<_>>().join(" and ")),
            (Func::Contains, _) => format!("{} includes {}", w(0), w(1)),
            (Func::Index, _) => format!("the place of {} in {}", w(1), w(0)),
            (Func::Complete, _) => format!("{} holds all of {}", w(0), rest()),
            (Func::Run, 4) => format!("{} holds a run of {}, with {} standing in for missing cards and one of {} passed over", w(0), w(1), w(2), w(3)),
            (Func::Run, 3) => format!("{} holds a run of {}, with {} standing in for missing cards", w(0), w(1), w(2)),
            (Func::Run, _) => format!("{} holds a run of {}", w(0), rest()),
            (Func::Runs, _) => format!("the runs of at least {} of {} in {}", w(2), w(1), w(0)),
            (Func::InRuns, _) => format!("the cards of {} in runs of at least {} of {}", w(0), w(2), w(1)),
            (Func::SuitOf, _) => format!("the suits of {}", w(0)),
            (Func::Points, _) => format!("{} card points", possessive(&w(0))),
            (Func::PointsOf, _) => format!("what {} count{} card by card", w(0), if matches!(&args[0], Expr::Fact(_)) { "s" } else { "" }),
            (Func::Pile, _) => format!("{} pile", possessive(&w(0))),
            (Func::Taken, _) => format!("the number of cards {} took", w(0)),
            (Func::HandOf, _) => format!("{} hand", possessive(&w(0))),
            (Func::Played, _) => format!("the cards {} played", w(0)),
            (Func::WinnerSide, _) => format!("the side that won {}", w(0)),
            (Func::Winner, _) => format!("the winner of {}", w(0)),
            (Func::SatOut, _) => format!("{} sits the deal out", w(0)),
            (Func::Side, _) => format!("{} side", possessive(&w(0))),
            (Func::Won, _) => format!("the tricks {} won", w(0)),
            (Func::WinningCard, _) => format!("the card that won {}", w(0)),
            (Func::Declared, 1) => format!("the {} declared", w(0)),
            (Func::Declared, _) => format!("the {} {} declared", w(0), w(1)),
            (Func::Showed, 1) => format!("the cards shown in the {}", w(0)),
            (Func::Showed, _) => format!("the cards {} showed in the {}", w(1), w(0)),
            (Func::Announced, _) => format!("{} was announced", with_article(&w(0))),
            (Func::Declarer, _) => format!("whoever declared the {}", w(0)),
            (Func::Pot | Func::Carried, _) => {
                let pot = match args.first() {
                    Some(Expr::Const(crate::expr::Value::Num(i))) => self.rules.pots.get(i.numer() as usize).map_or_else(|| "the pot".to_string(), |p| p.label.to_string()),
                    _ => "the pot".to_string(),
                };
                if f == Func::Pot {
                    format!("what {pot} holds")
                } else {
                    format!("what {pot} held at the start of the deal")
                }
            }
            (Func::Standing, _) => format!("what {} carried into this deal from the match", w(0)),
            (Func::Dealt, _) => format!("the first {} cards dealt to {}", w(1), w(0)),
            (Func::BidBefore, _) => {
                let contract = match args.get(1) {
                    Some(Expr::Const(crate::expr::Value::Num(i))) => {
                        self.rules.bidding.as_ref().and_then(|b| b.contracts.get(i.numer() as usize)).map_or_else(|| "the contract".to_string(), |c| c.label.to_string())
                    }
                    _ => "the contract".to_string(),
                };
                format!("{} bid {contract} earlier in the auction", w(0))
            }
        }
    }
}

/// "56, 51, 41 or 36".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// "the attack's", "the players'".
fn possessive(x: &str) -> String {
    if x.ends_with('s') {
        format!("{x}'")
    } else {
        format!("{x}'s")
    }
}

fn plain_json(v: &serde_json::Value) -> String {
    v.as_str().map(String::from).unwrap_or_else(|| v.to_string())
}

fn fact_words(f: Fact) -> &'static str {
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
        Fact::DogSize => "the size of the dog",
        Fact::Hand => "the hand",
        Fact::FirstPacket => "the first packet dealt",
        Fact::Shown => "the cards shown",
        Fact::DeclValue => "its value",
        Fact::BestValue => "the most the hand allows",
        Fact::Discarded => "the discard",
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

/// A value for people: numbers as they are, texts without quotes, lists with commas.
fn plain(v: &Value) -> String {
    match v {
        Value::Num(q) => q.to_string(),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::Str(s) => s.to_string(),
        Value::Cards(c) => cards_short(*c),
        Value::List(l) => l.iter().map(plain).collect::<Vec<_>>().join(", "),
        other => format!("{other:?}"),
    }
}

/// "1 card", "3 cards".
fn cards(v: &Value) -> String {
    match v {
        Value::Num(q) if q.to_string() == "1" => "1 card".into(),
        v => format!("{} cards", plain(v)),
    }
}

/// The pack's trumps when they are not the usual 21 by number (`None` then, and the description says
/// "21 trumps" as it always has): how many, and their order high to low with names, ties and the
/// pack's own codes.
fn trumps_words(p: &crate::ir::Pack) -> Option<(String, String)> {
    let trumps: Vec<Card> = p.trumps().iter().collect();
    let by_number = trumps.iter().all(|c| matches!(c.kind(), crate::cards::Kind::Trump(n) if p.strength[c.0 as usize] == n));
    if (trumps.is_empty() || trumps.len() == 21) && by_number && p.trump_names.iter().all(|n| n.is_empty()) && p.aliases.is_empty() && p.later_wins.is_empty() {
        return None;
    }
    let mut ranked = trumps.clone();
    // High to low, and tied trumps by number, high to low.
    ranked.sort_by_key(|c| {
        std::cmp::Reverse((
            p.strength[c.0 as usize],
            match c.kind() {
                crate::cards::Kind::Trump(n) => n,
                _ => 0,
            },
        ))
    });
    let mut words: Vec<String> = vec![];
    for (i, c) in ranked.iter().enumerate() {
        let name = match p.trump_name(*c) {
            n if n == c.to_string() => n,
            n => format!("{c} ({n})"),
        };
        let tied_with_previous = i > 0 && p.strength[ranked[i - 1].0 as usize] == p.strength[c.0 as usize];
        words.push(if tied_with_previous { format!("= {name}") } else { name });
    }
    let mut order = format!("trumps high to low: {}", words.join(" "));
    if !p.later_wins.is_empty() {
        order.push_str(&format!("; of the tied trumps {}, the later played wins", cards_short(p.later_wins)));
    }
    let equal_not_later = ranked.windows(2).any(|w| p.strength[w[0].0 as usize] == p.strength[w[1].0 as usize] && !p.later_wins.contains(w[0]));
    if equal_not_later {
        order.push_str("; of other tied trumps, the first played wins");
    }
    for (code, c) in &p.aliases {
        order.push_str(&format!("; records may write {code} for {c}"));
    }
    Some((format!("{} trumps", trumps.len()), order))
}

/// The pack in words: how many cards, the suits, the trumps and the Fool; the trumps' order where it
/// is not the usual one.
fn pack_texts(p: &crate::ir::Pack) -> Vec<String> {
    let suits: Vec<String> = (0..4).map(|s| p.suit_names[s].clone()).collect();
    match trumps_words(p) {
        None => vec![format!("{} cards: suits {}, 21 trumps, {}", p.cards.len(), suits.join(", "), p.fool_name)],
        Some((count, order)) => {
            let fool = if p.cards.contains(crate::cards::FOOL) { format!(", {}", p.fool_name) } else { String::new() };
            vec![format!("{} cards: suits {}, {count}{fool}", p.cards.len(), suits.join(", ")), order]
        }
    }
}

/// A label with its indefinite article: "an accuso", "a Trull"; a label that already begins with
/// "the" (or "a", "an") takes none.
pub fn with_article(label: &str) -> String {
    let first = label.split_whitespace().next().unwrap_or("").to_lowercase();
    if matches!(first.as_str(), "the" | "a" | "an") {
        return label.to_string();
    }
    match first.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {label}"),
        _ => format!("a {label}"),
    }
}

fn cards_short(set: CardSet) -> String {
    let v: Vec<String> = set.iter().map(|c: Card| c.to_string()).collect();
    if v.len() > 12 {
        format!("{} cards", v.len())
    } else {
        v.join(" ")
    }
}

pub fn describe(r: &Ruleset, options: &BTreeMap<String, serde_json::Value>) -> Description {
    let mut lines = vec![];
    // Where the pack follows an option (`fool "name" trump = condition`), the pack these options
    // choose, and a line that says so.
    let original = r;
    let (r, fool_follows) = match &r.fool_variant {
        Some(v) => {
            let force = InForce::new(r, options);
            let base_trump = !r.pack.cards.contains(crate::cards::FOOL);
            let now = match force.value(&v.when) {
                Some(Value::Bool(true)) => "a trump",
                Some(Value::Bool(false)) => "the Excuse",
                _ => "as the game's options say",
            };
            let stated = statement_text(r, &v.clause);
            let when = stated.split_once('=').map_or(stated.as_str(), |(_, w)| w).trim().to_string();
            let text = format!("{} is a trump above the others where {when}, else the Excuse (an option); with these options, {now}", r.pack.fool_name);
            match force.value(&v.when) {
                Some(Value::Bool(t)) if t != base_trump => (&*v.rules, Some((text, v.clause.clone()))),
                _ => (r, Some((text, v.clause.clone()))),
            }
        }
        None => (r, None),
    };
    if let Some((text, c)) = &fool_follows {
        lines.push(line("pack and ranks", c, text.clone()));
    }
    // The pack the other choice makes, named by that choice: a comparison with another game sees
    // both packs, not only the one these options choose.
    let other_pack = original.fool_variant.as_ref().map(|v| {
        let (other, choice) = if std::ptr::eq(r, original) {
            (&*v.rules, v.other_way.clone())
        } else {
            let defaults = v.other_way.keys().filter_map(|k| original.options.iter().find(|o| &o.name == k)).map(|o| (o.name.clone(), o.default.clone())).collect();
            (original, defaults)
        };
        let choice: Vec<String> = choice.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        (other, choice.join(", "), v.clause.clone())
    });
    let force = InForce::new(r, options);
    let p = &r.pack;
    let mut ranks = vec![];
    for s in 0..4u8 {
        let mut in_suit: Vec<Card> = CardSet::of_lane(s).and(p.cards).iter().collect();
        in_suit.sort_by_key(|c| std::cmp::Reverse(p.strength[c.0 as usize]));
        let codes: Vec<String> = in_suit
            .iter()
            .map(|c| {
                let code = c.to_string();
                code[..code.len() - 1].to_string()
            })
            .collect();
        ranks.push(format!("{}: {}", p.suit_names[s as usize], codes.join(" ")));
    }
    for text in pack_texts(p) {
        lines.push(line("pack and ranks", &p.clause, text));
    }
    lines.push(line("pack and ranks", &p.clause, format!("ranks high to low: {}", ranks.join("; "))));
    if let Some((other, choice, c)) = &other_pack {
        for text in pack_texts(&other.pack) {
            lines.push(line("pack and ranks", c, format!("with {choice}: {text}")));
        }
    }
    if let Some((lanes, _, c)) = &p.reversible {
        let names: Vec<&str> = lanes.iter().map(|l| p.suit_names[*l as usize].as_str()).collect();
        let reversed = r.pack.reversible.as_ref().and_then(|(_, e, _)| force.value(e));
        let text = match reversed {
            Some(Value::Bool(true)) => format!("the numerals of {} rank in reverse, 1 above 10", names.join(" and ")),
            Some(Value::Bool(false)) => format!("the numerals of {} rank as in the other suits (they may rank in reverse; not with these options)", names.join(" and ")),
            _ => format!("the numerals of {} rank in reverse when: {}", names.join(" and "), force.substitute(&statement_text(r, c))),
        };
        lines.push(line("pack and ranks", c, text));
    }
    for k in &r.classes {
        lines.push(line("card classes", &k.clause, format!("{}{}: {}", k.name, k.label.as_ref().map(|l| format!(" (\"{l}\")")).unwrap_or_default(), cards_short(k.cards))));
    }
    // Counters that follow options, with the options in force.
    let in_force = crate::replay::counting_for(&r.counting, &|e| force.value(e).ok_or_else(|| "not known before the game".to_string()));
    let c = in_force.as_ref().unwrap_or(&r.counting);
    let mut by_value: Vec<(u8, CardSet)> = vec![];
    for card in p.cards.iter() {
        let v = c.values[card.0 as usize];
        if v == 0 {
            continue;
        }
        match by_value.iter_mut().find(|(x, _)| *x == v) {
            Some((_, s)) => s.insert(card),
            None => by_value.push((v, CardSet::single(card))),
        }
    }
    by_value.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    let values: Vec<String> = by_value.iter().map(|(v, s)| format!("{v} for {}", cards_short(*s))).collect();
    let total = crate::replay::count_points(c, p.cards, 0);
    lines.push(line(
        "counting",
        &c.clause,
        format!(
            "in groups of {}{}: {}; {}; surplus: {}{}; pack total {total}",
            c.group,
            r.counting.group_by_option.as_ref().map(|(_, clause)| format!(" (with these options; `{}`)", statement_text(r, clause))).unwrap_or_default(),
            values.join(", "),
            if c.empty_zero { "other cards nothing" } else { "a group of empty cards 1" },
            serde_json::to_value(c.surplus).unwrap_or_default().as_str().unwrap_or_default(),
            if c.short_packet == ShortPacket::SumLessOne { ", a short packet counted as a full one" } else { "" }
        ),
    ));
    let players = if r.players.0 == r.players.1 { r.players.0.to_string() } else { format!("{} to {}", r.players.0, r.players.1) };
    lines.push(line(
        "players and deal",
        &r.players_clause,
        format!(
            "{players} players, {}",
            match r.sides {
                Sides::Taker => "a taker against the defence",
                Sides::Each => "each for himself",
                Sides::Partners => "partners sitting opposite",
            }
        ),
    ));
    if let Some(c) = &r.sit_out {
        let at = if r.sit_out_from > 0 { format!(" at a table of {} or more", r.sit_out_from) } else { String::new() };
        let who = if r.sit_out_opposite { "the player opposite the dealer sits the deal out" } else { "the dealer deals to the others and sits the deal out" };
        lines.push(line("players and deal", c, format!("{who}{at}: one fewer play, and he scores nothing")));
    }
    let setting = |e: &Expr, rule: &str| r.settings.get(rule).map_or_else(|| "-".into(), |_| force.text(e, plain));
    let deal_line = format!(
        "hand {}{}{}",
        setting(&r.deal.hand, "deal.hand"),
        r.deal.dealer.as_ref().map(|e| format!(", dealer {}", setting(e, "deal.dealer"))).unwrap_or_default(),
        r.deal.dog.as_ref().map(|e| format!(", dog {}", setting(e, "deal.dog"))).unwrap_or_default(),
    );
    lines.push(line("players and deal", &r.deal.clause, deal_line));
    if let Some(c) = &r.deal.cut {
        lines.push(line("players and deal", c, "the cut card, the bottom of the pack, is shown and dealt last, to the dealer".into()));
    }
    // Each from its own statement, which may be in the file a ruleset extends.
    if let Some((e, c)) = &r.deal.packets {
        let dealer = r.deal.dealer_packets.as_ref().map(|(e, _)| format!(", the dealer's {}", force.text(e, plain))).unwrap_or_default();
        lines.push(line("players and deal", c, format!("in packets of {} round the table from first hand{dealer}", force.text(e, plain))));
    }
    if let Some((e, c)) = &r.deal.dog_packets {
        lines.push(line("players and deal", c, format!("the dog {} at a time, between the players' packets", force.text(e, cards))));
    }
    if let Some((e, c)) = &r.deal.dog_after {
        lines.push(line("players and deal", c, format!("the dog's packets together, after {} round(s) of the players' packets", force.text(e, plain))));
    }
    if let Some((e, c)) = &r.deal.dog_apart {
        let text = match force.value(e) {
            Some(Value::Num(q)) if q.to_string() == "1" => "never the first or the last card of the pack to the dog".to_string(),
            Some(v) => format!("never the first {} or the last {} of the pack to the dog", cards(&v), plain(&v)),
            None => format!("not the first or last cards of the pack to the dog: {}", force.words(e)),
        };
        lines.push(line("players and deal", c, text));
    }
    for (label, e, c) in &r.deal.requires {
        let label = force.label(label);
        let text = match force.value(e) {
            Some(Value::Bool(true)) => format!("a deal must meet \"{label}\": met whatever the match, with these options"),
            _ => format!("a deal must meet \"{label}\": {}", force.words(e)),
        };
        lines.push(line("players and deal", c, text));
    }
    for a in &r.annulments {
        lines.push(Line {
            aspect: "annulments",
            rule: a.clause.rule.clone(),
            text: match force.value(&a.when) {
                Some(Value::Bool(false)) => format!("{}: not with these options", a.label),
                _ => format!("{}: when {}", a.label, force.words(&a.when)),
            },
            source: a.clause.source.clone(),
            at: a.clause.at.clone(),
        });
    }
    if let Some(b) = &r.bidding {
        let turns = match b.turns {
            Turns::Once => "each player speaks once, outbidding or passing",
            Turns::UntilOneLeft => "bidding with immediate hold: a player outbid answers at once, outbidding in turn or leaving; who passes is out",
            Turns::Rounds => "round and round from first hand, each outbidding or passing; who passes is out, and the bidding ends when nobody is left to outbid the best bid",
        };
        lines.push(line("bidding and contracts", &b.turns_clause, turns.into()));
        if let Some(c) = &b.hold {
            // The hold of the options in force: forehand's (no `hold_by`, or it gives "forehand"), or
            // by seniority.
            let kind = b.hold_by.as_ref().map(|e| force.value(e));
            let text = match kind {
                None => "forehand may hold: bid the contract another player holds, and take it over; every other bid must be higher".to_string(),
                Some(Some(Value::Str(w))) if &*w == "forehand" => "forehand may hold: bid the contract another player holds, and take it over; every other bid must be higher".to_string(),
                Some(Some(Value::Str(_))) => "each player may hold the bid of a player after him in turn from first hand (seniority): bid the contract he holds, and take it over; every other bid must be higher".to_string(),
                Some(_) => "forehand may hold, or each player the bid of a player after him (seniority), as the options choose".to_string(),
            };
            let text = if b.hold_by.as_ref().is_some_and(|e| !matches!(e, Expr::Const(_))) { format!("{text} (with these options)") } else { text };
            lines.push(line("bidding and contracts", c, text));
        }
        if let Some(c) = &b.no_reraise {
            lines.push(line("bidding and contracts", c, "a player outbid may not bid again, only pass".into()));
        }
        if let Some((cs, c)) = &b.first_turn {
            let names: Vec<&str> = cs.iter().map(|&i| b.contracts[i].label.as_str()).collect();
            lines.push(line("bidding and contracts", c, format!("{} may be bid only at a player's first turn", names.join(", "))));
        }
        if let Some((cs, c)) = &b.step {
            let names: Vec<&str> = cs.iter().map(|&i| b.contracts[i].label.as_str()).collect();
            lines.push(line("bidding and contracts", c, format!("of {}, one held may be outbid only by the next", names.join(", "))));
        }
        for m in &b.must_bid {
            lines.push(line(
                "bidding and contracts",
                &m.clause,
                format!("{}: must bid at least {} while it is open to him ({})", m.label, b.contracts[m.contract].label, force.words(&m.when)),
            ));
        }
        if let Some(res) = &b.reserve {
            lines.push(line(
                "bidding and contracts",
                &res.clause,
                format!("a player may say {} (no contract yet) and choose in a second round among: {}", res.label, force.text(&res.contracts, plain)),
            ));
        }
        for (i, k) in b.contracts.iter().enumerate() {
            // A contract chosen after the auction (`instead`) has no taker: its dog counts for nobody.
            let chosen = b.instead.iter().any(|x| x.chosen == i);
            let attrs: Vec<String> = k
                .attrs
                .iter()
                .map(|(name, e)| {
                    let v = force.value(e).map(|v| plain(&v)).unwrap_or_else(|| "a value worked out in play".into());
                    match name.as_str() {
                        "multiplier" => format!("scores {v} times the base"),
                        "dog" if chosen => "no taker: the dog counts for nobody".into(),
                        "dog" => format!("the dog {}", dog_words(&v)),
                        "value" | "amount" => format!("worth {v}"),
                        _ => format!("{} {v}", name.replace('_', " ")),
                    }
                })
                .collect();
            lines.push(Line {
                aspect: "bidding and contracts",
                rule: k.clause.rule.clone(),
                text: format!("{}: {}", k.label, attrs.join("; ")),
                source: k.clause.source.clone(),
                at: k.clause.at.clone(),
            });
            // Who may bid it (`by`) and its settlement unplayed (`settle`): rules of their own.
            if let Some(by) = &k.by {
                lines.push(line("bidding and contracts", &by.clause, format!("{} may be bid only by {}", k.label, by.label)));
            }
            if let Some((e, c)) = &k.settle {
                lines.push(line(
                    "bidding and contracts",
                    c,
                    format!("{} is not played: once it wins the auction the deal ends, and each opponent pays the taker {}", k.label, force.text(e, plain)),
                ));
            }
        }
        for i in &b.instead {
            lines.push(line(
                "bidding and contracts",
                &i.clause,
                format!(
                    "{}: may choose {} in place of {} once the auction is won (when {}), each then playing for himself, the dog counting for nobody; nobody bids it",
                    i.label,
                    b.contracts[i.chosen].label,
                    b.contracts[i.won].label,
                    force.words(&i.when)
                ),
            ));
        }
        match (&b.all_pass, b.all_pass_play) {
            (Some(c), Some(k)) => lines.push(line(
                "bidding and contracts",
                c,
                format!("all players pass: {} is played, each for himself, with no taker; the dog counts for nobody", b.contracts[k].label),
            )),
            (Some(c), None) => {
                lines.push(Line { aspect: "annulments", rule: c.rule.clone(), text: "all players pass: the deal is void".into(), source: c.source.clone(), at: c.at.clone() });
            }
            (None, _) => {}
        }
    }
    if let Some(c) = &r.call {
        let levels: Vec<String> = c.levels.iter().map(|l| cards_short(*l)).collect();
        lines.push(line(
            "bidding and contracts",
            &c.clause,
            format!(
                "the taker calls a partner's card: {}, each level only when he holds all of the one before; the card in the dog or his own hand leaves him alone",
                levels.join(", then ")
            ),
        ));
        if let Some((e, clause)) = &c.opening_lead_excludes {
            lines.push(line("trick obligations", clause, format!("the first lead may not be: {}", force.words(e))));
        }
        if let Some((e, clause)) = &c.callable_levels {
            lines.push(line(
                "bidding and contracts",
                clause,
                format!("levels that may be called: {}; a taker holding every card of them calls nothing and plays alone", force.words(e)),
            ));
        }
    }
    if let Some(d) = &r.discard {
        let who: Vec<String> = [("taker", &d.taker), ("dealer", &d.dealer), ("others", &d.others)]
            .iter()
            .filter(|(_, e)| e.is_some())
            .map(|(k, e)| format!("{k} {}", e.as_ref().map(|e| setting(e, &format!("discard.{k}"))).unwrap_or_default()))
            .collect();
        lines.push(line("dog and discard", &d.clause, format!("cards discarded: {}", who.join(", "))));
        for (i, f) in d.forbid.iter().enumerate() {
            // A class that follows options: the cards it forbids with the options in force.
            let in_force = d.forbid_by_option.iter().find(|(j, _)| *j == i).and_then(|(_, e)| force.value(e));
            let cards = match in_force {
                Some(Value::Cards(set)) if set.is_empty() => " (with these options: no card)".to_string(),
                Some(Value::Cards(set)) => format!(" (with these options: {})", cards_short(set)),
                _ => String::new(),
            };
            lines.push(Line {
                aspect: "dog and discard",
                rule: f.clause.rule.clone(),
                text: format!("may never discard {}{cards}", f.label),
                source: f.clause.source.clone(),
                at: f.clause.at.clone(),
            });
        }
        if let Some(u) = &d.unless_unavoidable {
            lines.push(Line {
                aspect: "dog and discard",
                rule: u.clause.rule.clone(),
                text: format!("may discard {} only when unavoidable, and only as many as must go, shown", u.label),
                source: u.clause.source.clone(),
                at: u.clause.at.clone(),
            });
        }
        if let Some((k, e, penalty)) = &d.penalize {
            lines.push(line("dog and discard", penalty, format!("discarding {} is paid for, to each opponent: {}", k.label, force.words(e))));
        }
        for (label, e, c) in &d.requires {
            lines.push(line("dog and discard", c, format!("a discard must meet \"{}\": {}", force.label(label), force.words(e))));
        }
        if let Some((e, c)) = &d.goes_to {
            lines.push(line("dog and discard", c, format!("at the end of play, each discard goes to: {}", force.words(e))));
        }
    }
    if let Some(t) = &r.talon {
        let rest = t.rest.as_ref().map_or("the defence".to_string(), |e| force.words(e));
        lines.push(line(
            "dog and discard",
            &t.clause,
            format!("the dog is {} in packets: {}; the taker takes one, the rest goes to {rest}", if t.unseen.is_some() { "cut" } else { "shown" }, force.words(&t.packets)),
        ));
        if let Some((e, c)) = &t.given {
            lines.push(line("dog and discard", c, format!("the taker gets, with no choice, the packet numbered (in the order dealt): {}", force.words(e))));
        }
        if let Some(c) = &t.unseen {
            lines.push(line(
                "dog and discard",
                c,
                "the talon is not turned up: the taker takes his packet unseen, the rest stays unseen, and he shows none of the cards he took before the hand's end".into(),
            ));
        }
    }
    if let Some(b) = &r.buy {
        lines.push(line(
            "dog and discard",
            &b.clause,
            format!(
                "after his discard the taker may buy cards, as many as: {}; for each he calls a card of another hand, whose holder gives it to him and takes back a card of his hand",
                force.words(&b.cards)
            ),
        ));
    }
    if let Some(st) = &r.steal {
        let how = |h: crate::ir::StealHow| if h == crate::ir::StealHow::All { "every one while they come" } else { "as many as he likes" };
        lines.push(line("dog and discard", &st.clause, "after the deal, players steal from the head of the stock, in turn, and each lays away as many cards, to the stock".into()));
        lines.push(line("dog and discard", &st.cards.clause, format!("only {} may be stolen", st.cards.label)));
        if let Some((h, c)) = &st.cutter {
            lines.push(line("dog and discard", c, format!("the cutter (the player before the dealer) steals first: {}", how(*h))));
        }
        if let Some((h, c)) = &st.dealer {
            lines.push(line("dog and discard", c, format!("the dealer steals from where the cutter stopped: {}", how(*h))));
        }
    }
    if let Some(so) = &r.sit_out_choice {
        lines.push(line(
            "players and deal",
            &so.clause,
            "after the deal (and the steals), before the first card, one player may sit the deal out, in turn from first hand; his hand is out of play and the others play on"
                .into(),
        ));
        if let Some((e, c)) = &so.allowed {
            lines.push(line("players and deal", c, format!("anyone may sit out only where {}", force.words(e))));
        }
        lines.push(line("players and deal", &so.fee_clause, format!("who sits out pays the taker of the last trick, by his place in turn: {}", force.words(&so.fee))));
    }
    for d in &r.declarations {
        let when = match d.when {
            When::BeforePlay => "before play",
            When::AfterDiscard => "after the discard",
            When::FirstPlay => "at the declarer's turn to play his first card",
            When::AfterDeal => "right after the deal, before any other move",
            When::AfterPlay => "claimed after the last trick, from the cards held before the discard",
        };
        lines.push(Line {
            aspect: "declarations and bonuses",
            rule: d.clause.rule.clone(),
            text: format!(
                "{} ({when}{}){}",
                d.label,
                match d.by {
                    DeclaredBy::Any => "",
                    DeclaredBy::Taker => ", by the taker",
                    DeclaredBy::Attack => ", by the taker or his partner",
                    DeclaredBy::Defence => ", by the defence",
                    DeclaredBy::AnySide => ", by either side, each once",
                },
                if d.shows.is_empty() { String::new() } else { format!(", shows {}", cards_short(d.shows)) }
            ),
            source: d.clause.source.clone(),
            at: d.clause.at.clone(),
        });
        if let Some((e, c)) = &d.allowed {
            lines.push(line("declarations and bonuses", c, format!("{} is allowed only when {}", with_article(&d.label), force.words(e))));
        }
        if let Some(c) = &d.compulsory {
            let by = if d.when == When::FirstPlay { "at his turn to play his first card" } else { "before the first card" };
            // `compulsory = condition`: read on the options chosen (it reads nothing else).
            let text = match d.compulsory_if.as_ref().map(|e| force.value(e)) {
                Some(Some(Value::Bool(false))) => format!("{} is not compulsory with these options: one not declared is simply not made, nor paid", with_article(&d.label)),
                Some(Some(Value::Bool(true))) | None => format!("{} is compulsory: a player who holds one must declare it {by}", with_article(&d.label)),
                Some(_) => format!("{} is compulsory when {}: a player who holds one must declare it {by}", with_article(&d.label), force.words(d.compulsory_if.as_ref().unwrap())),
            };
            lines.push(line("declarations and bonuses", c, text));
        }
        // `in-turn from dealer = condition`, read on the options chosen, rules over plain `in-turn`.
        let from_dealer = d.in_turn_from_dealer.as_ref().filter(|(e, _)| force.value(e) == Some(Value::Bool(true)));
        if let Some((_, c)) = from_dealer {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!(
                    "{} is declared in turn from the dealer: the dealer first, then the others in the order of play; no player declares after one later in turn has declared",
                    with_article(&d.label)
                ),
            ));
        } else if let Some(c) = &d.in_turn {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!("{} is declared in turn from first hand: no player declares after one later in turn has declared", with_article(&d.label)),
            ));
        }
        if let Some(c) = &d.from_discard {
            lines.push(line("declarations and bonuses", c, format!("{} may show cards its declarer laid away as well as those in his hand", with_article(&d.label))));
        }
        if let Some(c) = &d.ends_match {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!("{} ends the deal where it is made, scored on what has been played, and the match: the declarer's side wins it", with_article(&d.label)),
            ));
        }
        if let Some(c) = &d.every_card_counts {
            lines.push(line("declarations and bonuses", c, format!("every card shown in {} must count: its value drops without it", with_article(&d.label))));
        }
        if let Some((k, c)) = &d.keeps {
            lines.push(line("declarations and bonuses", c, format!("its declarer keeps {} until the last trick, unless he has no other card to play", r.cards_named(*k))));
        }
        for (msg, _, c) in &d.requires {
            lines.push(Line { aspect: "declarations and bonuses", rule: c.rule.clone(), text: force.label(msg), source: c.source.clone(), at: c.at.clone() });
        }
    }
    let pl = &r.play;
    if let Some((e, c)) = &pl.direction {
        let way = force.text(e, |v| match plain(v).as_str() {
            "anticlockwise" => "anticlockwise, each player's turn passing to his right".into(),
            "clockwise" => "clockwise, each player's turn passing to his left".into(),
            other => other.into(),
        });
        lines.push(line("trick obligations", c, format!("play goes {way} (the record lists each player before the one to his right)")));
    }
    lines.push(line("trick obligations", &pl.order_clause, "each plays in turn, once bidding and discards are done".into()));
    lines.push(line("trick obligations", &pl.hold_clause, "a player plays only cards he holds".into()));
    lines.push(Line {
        aspect: "trick obligations",
        rule: pl.lead_clause.rule.clone(),
        text: lead_words(&force.formula(&pl.lead_clause), || force.words(&pl.lead)),
        source: pl.lead_clause.source.clone(),
        at: pl.lead_clause.at.clone(),
    });
    let ladder: Vec<String> = pl.ladder.iter().map(|(o, _)| format!("{o:?}").to_lowercase()).collect();
    for (i, (o, c)) in pl.ladder.iter().enumerate() {
        let text = match o {
            Obligation::Follow => "must follow suit (trumps led: play a trump)",
            Obligation::Trump => "unable to follow: must trump",
            Obligation::Overtrump => "a trump played must beat the highest trump in the trick if possible",
            Obligation::Beat => "must win the trick if possible: a higher card of the suit led, or a higher trump",
        };
        let text = match pl.ladder_when.get(i) {
            Some(Some(_)) => format!("{text}, when {}", formula_text(r, c)),
            _ => text.to_string(),
        };
        lines.push(Line { aspect: "trick obligations", rule: c.rule.clone(), text, source: c.source.clone(), at: c.at.clone() });
    }
    for k in &pl.keeps {
        let c = &k.clause;
        let when = |w: &Option<crate::expr::Expr>| if w.is_some() { format!(", when {}", formula_text(r, c)) } else { String::new() };
        let text = match (&k.cards, k.last_trump) {
            (_, true) => format!("these cards may be played only as a player's last trump: {}", formula_text(r, c)),
            (crate::expr::Expr::Const(crate::expr::Value::Cards(set)), false) => {
                format!("{}: {} may not be led or played while other cards are held{}", k.label, r.cards_named(*set), when(&k.when))
            }
            (_, false) => format!("{}: cards kept back while others are held{}", k.label, when(&k.when)),
        };
        lines.push(line("trick obligations", c, text));
    }
    for f in &pl.forced {
        let word = if f.lead { "led" } else { "played" };
        let when = if f.when.is_some() { format!(", when {}", formula_text(r, &f.clause)) } else { String::new() };
        lines.push(line("trick obligations", &f.clause, format!("{}: {} must be {word} when held{when}", f.label, r.cards_named(f.cards))));
    }
    if let Some((_, c)) = &pl.trumps_win {
        lines.push(line("trick obligations", c, format!("trumps beat the cards of a suit led only when {} (otherwise the highest card of the suit led wins)", formula_text(r, c))));
    }
    for f in &pl.faults {
        let word = format!("{:?}", f.obligation).to_lowercase();
        let mut text = format!(
            "breaking `must {word}` is a fault, \"{}\", not a refused card: the card stands and the offender pays {} to each other player",
            f.label,
            formula_text(r, &f.clause)
        );
        if formula_text(r, &f.clause).split(|ch: char| !ch.is_alphanumeric() && ch != '_').any(|w| w == "none") {
            text.push_str(" (where it is `none`, breaking the obligation is no fault: the card is refused)");
        }
        if let Some(e) = &f.gives_back {
            let name = match e {
                Expr::Const(Value::Cards(class)) => r.classes.iter().find(|k| k.cards == *class).map(|k| k.name.clone()).unwrap_or_else(|| cards_short(*class)),
                Expr::Let(i) => r.constants.get(*i).map(|l| format!("`{}` ({})", l.name, formula_text(r, &l.clause))).unwrap_or_default(),
                _ => "a formula".into(),
            };
            text.push_str(&format!("; the cards of {name} its card takes go back to the players who played them"));
        }
        lines.push(line("trick obligations", &f.clause, text));
    }
    if ladder.is_empty() {
        lines.push(Line { aspect: "trick obligations", rule: "play".into(), text: "no obligation".into(), source: None, at: pl.lead_clause.at.clone() });
    }
    let f = &r.fool;
    // A pack whose Fool is a trump (or that has none) has no Excuse for these rules to describe.
    let excuse_in_pack = r.pack.cards.contains(crate::cards::FOOL);
    let fool_lines: Vec<(&Clause, String)> = if !excuse_in_pack {
        vec![]
    } else {
        [
            f.excuse.as_ref().map(|c| (c, "may be played to any trick instead of obeying".to_string())),
            Some((
                &f.clause,
                format!(
                    "led, {}; played, {}; played to the last trick, {}",
                    force.text(&f.led, |v| fool_words(&plain(v))),
                    force.text(&f.keep, |v| fool_words(&plain(v))),
                    force.text(&f.last_trick, |v| fool_words(&plain(v)))
                ),
            )),
            f.slam_wins.as_ref().map(|c| match &f.slam_wins_when {
                None => (c, "led to the last trick by a side that won every other trick, it wins".to_string()),
                Some(e) => (c, format!("{} to the last trick by a side that won every other trick, it wins", force.text(e, plain))),
            }),
            f.deadline.as_ref().map(|(e, c)| (c, format!("must be played before the last {} tricks, by a holder who may play it", force.words(e)))),
        ]
        .into_iter()
        .flatten()
        .collect()
    };
    for (c, t) in fool_lines {
        lines.push(Line { aspect: "the excuse", rule: c.rule.clone(), text: t, source: c.source.clone(), at: c.at.clone() });
    }
    // Where the Fool is a trump by an option, the Excuse's rules hold only while it is not: said
    // under the choice that keeps them, and under the one that voids them.
    if let (Some((_, choice, _)), Some(section)) = (&other_pack, Some(&original.fool.clause).filter(|c| !c.at.is_empty())) {
        let name = &original.pack.fool_name;
        let text = if excuse_in_pack {
            format!("these rules hold while {name} is the Excuse: with {choice} it is a trump, and they do not apply")
        } else {
            format!("{name} is a trump with these options: the rules of the Excuse (the fool section) do not apply; with {choice} they do")
        };
        lines.push(line("the excuse", section, text));
    }
    if let Some(u) = &r.untouchable {
        let when = force.words(&u.when);
        lines.push(line(
            "the excuse",
            &u.clause,
            format!(
                "{}: {} in a hand where {when} is played like the Excuse but keeps its rank; when it does not take its trick, it goes back to its owner for an empty card",
                u.label,
                r.card_name(u.card)
            ),
        ));
    }
    for p in &r.pots {
        lines.push(line(
            "pots",
            &p.clause,
            format!("{}: money kept on the table from deal to deal; a record says what it holds at the start of its deal (`pots`), the verdict what it holds at the end", p.label),
        ));
    }
    for t in &r.triggers {
        lines.push(Line {
            aspect: "payments during play",
            rule: t.clause.rule.clone(),
            text: format!(
                "{}, {}: {} {}",
                t.label,
                match t.on {
                    TriggerEvent::Cut => "when the cut card is shown",
                    TriggerEvent::Play => "when one of its cards is played",
                },
                match t.pot {
                    Some(i) => format!("{} pays the player", r.pots[i].label),
                    None => "each opponent pays the player".to_string(),
                },
                force.words(&t.value)
            ),
            source: t.clause.source.clone(),
            at: t.clause.at.clone(),
        });
    }
    for l in &r.score.lets {
        lines.push(Line {
            aspect: "scoring",
            rule: l.clause.rule.clone(),
            text: format!("{}: {}", l.name.replace('_', " "), force.words(&l.expr)),
            source: l.clause.source.clone(),
            at: l.clause.at.clone(),
        });
    }
    for t in &r.score.terms {
        lines.push(Line {
            aspect: "scoring",
            rule: t.clause.rule.clone(),
            text: format!("the hand score's term “{}”: {}", t.label, force.words(&t.expr)),
            source: t.clause.source.clone(),
            at: t.clause.at.clone(),
        });
    }
    for p in &r.score.pays {
        lines.push(Line {
            aspect: "scoring",
            rule: p.clause.rule.clone(),
            text: {
                // `pay defence to attack = total`: who pays whom, then how much.
                let head = statement_text(r, &p.clause);
                let who = head.split(" = ").next().unwrap_or_default().strip_prefix("pay ").unwrap_or_default().split('"').next().unwrap_or_default().trim().to_string();
                let (from, to) = who.split_once(" to ").unwrap_or((&who, ""));
                let side = |s: &str, other: bool| match s {
                    "players" if other => "each other player".to_string(),
                    "players" => "each player".to_string(),
                    s if s.starts_with("pot.") => r.pots.iter().find(|p| s[4..] == *p.name).map_or_else(|| s.to_string(), |p| p.label.to_string()),
                    s if s.contains(' ') || s.contains('(') => s.to_string(),
                    s => format!("the {s}"),
                };
                // Between a pot and players, each player pays or is paid: no "other" player.
                let other = !from.starts_with("pot.");
                format!("{} pays {}: {}", side(from, false), side(to, other), force.words(&p.amount))
            },
            source: p.clause.source.clone(),
            at: p.clause.at.clone(),
        });
    }
    for (what, (e, c)) in [("each player's standing", &r.score.standing), ("a winner", &r.score.winner)].into_iter().filter_map(|(w, x)| Some((w, x.as_ref()?))) {
        lines.push(Line { aspect: "scoring", rule: c.rule.clone(), text: format!("{what}: {}", force.words(e)), source: c.source.clone(), at: c.at.clone() });
    }
    if let Some(m) = &r.game_match {
        for (what, slot) in
            [("the match is over after this many deals played to the end", &m.deals), ("the match is over after the deal in which a player's total reaches", &m.target)]
        {
            if let Some((e, c)) = slot {
                lines.push(line("the match", c, format!("{what}: {}", force.words(e))));
            }
        }
        lines.push(line("the match", &m.clause, "its winners: the players with the highest total when it is over".into()));
    }
    // The values the rules name (`let`), as they are with these options: a ruleset that changes one
    // (the poignées' sizes at three players, their values at 20/40/60) differs here.
    for (i, l) in r.constants.iter().enumerate() {
        let value = force.text(&Expr::Let(i), |v| force.value_words(v));
        lines.push(line("values the rules name", &l.clause, format!("{}: {value}", l.name.replace('_', " "))));
    }
    Description {
        id: r.id.clone(),
        title: r.title.clone(),
        version: r.version.clone(),
        chain: r.chain.clone(),
        players,
        options: r
            .options
            .iter()
            .map(|o| OptionView {
                name: o.name.clone(),
                doc: o.doc.clone(),
                value: options.get(&o.name).cloned().unwrap_or_else(|| o.default.clone()),
                default: o.default.clone(),
                choices: o.choices.clone(),
                source: o.clause.source.as_deref().map(String::from),
            })
            .collect(),
        sources: r.sources.clone(),
        rules: lines,
    }
}

fn line(aspect: &'static str, c: &Clause, text: String) -> Line {
    Line { aspect, rule: c.rule.clone(), text, source: c.source.clone(), at: c.at.clone() }
}

/// Who leads the first trick, in words, for the forms the rule files use; any other formula as it is.
fn lead_words(formula: &str, words: impl Fn() -> String) -> String {
    const FIRST_HAND: &str = "first hand (the player after the dealer) leads the first trick";
    if formula == "first_hand" {
        return FIRST_HAND.into();
    }
    // `if announced(chelem) then declarer(chelem) else first_hand`
    let announced =
        formula.strip_prefix("if announced(").and_then(|rest| rest.split_once(") then declarer(")).and_then(|(a, rest)| (rest == format!("{a}) else first_hand")).then_some(a));
    match announced {
        Some(a) => format!("whoever announced a {a} leads the first trick; otherwise {FIRST_HAND}"),
        None => format!("the first trick is led by {}", words()),
    }
}

/// What a contract does with the dog, in words.
fn dog_words(v: &str) -> String {
    match v {
        "taker" => "goes to the taker, who discards as many cards".into(),
        "taker-unseen" => "counts for the taker, unseen".into(),
        "defence" => "counts for the defence, unseen".into(),
        "none" | "" => "is not used".into(),
        other => other.replace('-', " "),
    }
}

/// What becomes of the Excuse, in words, from the rules' keywords.
fn fool_words(v: &str) -> String {
    match v {
        "next-card-sets-suit" => "the next card sets the suit".into(),
        "forbidden" => "never while its holder has another card".into(),
        "exchange" => "its side keeps it and gives the trick's winner an empty card in exchange".into(),
        "keep" => "its side keeps it".into(),
        "changes-side" => "it goes to the other side".into(),
        "to-winner" => "it goes to the trick's winner".into(),
        other => other.replace('-', " "),
    }
}

impl Description {
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "{} — {}", self.id, self.title);
        let _ = writeln!(out, "version {}; {} players; chain: {}", self.version, self.players, self.chain.join(" <- "));
        if !self.options.is_empty() {
            let _ = writeln!(out, "options:");
            for o in &self.options {
                let choices: Vec<String> = o.choices.iter().map(|c| c.to_string()).collect();
                let _ = writeln!(out, "  {} = {} (choices {}; default {}) — {}", o.name, o.value, choices.join(", "), o.default, o.doc);
            }
        }
        let mut aspect = "";
        for l in &self.rules {
            if l.aspect != aspect {
                aspect = l.aspect;
                let _ = writeln!(out, "{aspect}:");
            }
            let _ = writeln!(out, "  {}  [{}{}; {}]", l.text, l.rule, l.source.as_ref().map(|s| format!(", {s}")).unwrap_or_default(), l.at);
        }
        let _ = writeln!(out, "sources:");
        for s in &self.sources {
            let _ = writeln!(out, "  {}: {} ({})", s.id, s.title, s.file);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn an_options_value_settles_its_comparisons() {
        assert_eq!(fold(r#"has(hand, T1) and ("fft" == "seed-004" or not has(hand, EX))"#), "has(hand, T1) and (not has(hand, EX))");
        assert_eq!(fold(r#""plays" == "cancels" and has(first_packet, T1)"#), "false and has(first_packet, T1)");
        assert_eq!(fold(r#""yes" == "yes" and x"#), "x");
        assert_eq!(fold(r#"if "a" != "b" then "keep" else "x""#), r#"if true then "keep" else "x""#);
    }
}
