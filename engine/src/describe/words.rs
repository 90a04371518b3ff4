//! Formulas in words: the rules' settings with the options in force (`InForce`), a formula read for
//! people, values and packs in words.

use std::collections::BTreeMap;

use crate::cards::{Card, CardSet};
use crate::expr::{BinOp, UnOp};
use crate::expr::{CompFunc, Expr, Fact, Func, Value};
use crate::ir::*;
use crate::replay::{Game, Setup};

use super::{formula_text, with_article};

/// The rules' settings as they stand with the options chosen, at each table size the ruleset allows:
/// a setting's formula is shown as its value in force ("hand 18", "26 with 3 players, 19 with 4"),
/// and a formula that needs a game (a hand, a trick) has each `option.NAME` replaced by its value.
pub(super) struct InForce<'r> {
    /// The names of the comprehension variables around the formula being put in words, innermost last.
    pub(super) vars: std::cell::RefCell<Vec<String>>,
    pub(super) rules: &'r Ruleset,
    pub(super) options: &'r BTreeMap<String, serde_json::Value>,
    pub(super) tables: Vec<(usize, Setup<'r>)>,
    /// Words for the pages people read, which may say more than the JSON description (whose text a
    /// client receives and which does not change): "the kings" for `rank(K)`, a formula the describer
    /// cannot read put in words rather than quoted.
    pub(super) people: bool,
}

impl<'r> InForce<'r> {
    pub(super) fn new(rules: &'r Ruleset, options: &'r BTreeMap<String, serde_json::Value>) -> InForce<'r> {
        let tables = (rules.players.0..=rules.players.1).filter_map(|n| Some((n, Setup::new(rules, n, options).ok()?))).collect();
        InForce { vars: Default::default(), rules, options, tables, people: false }
    }

    /// As `new`, with the words of the pages for people.
    pub(super) fn for_people(rules: &'r Ruleset, options: &'r BTreeMap<String, serde_json::Value>) -> InForce<'r> {
        InForce { people: true, ..InForce::new(rules, options) }
    }

    /// The value of a formula that needs no game, at each table size; `None` when it needs one.
    pub(super) fn values(&self, e: &Expr) -> Option<Vec<(usize, Value)>> {
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
    pub(super) fn value(&self, e: &Expr) -> Option<Value> {
        let all = self.values(e)?;
        all.iter().all(|(_, v)| *v == all[0].1).then(|| all[0].1.clone())
    }

    /// A setting in words: its value, or its values by table size, or (needing a game) its formula
    /// with the options' values in force.
    pub(super) fn text(&self, e: &Expr, words: impl Fn(&Value) -> String) -> String {
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
    pub(super) fn label(&self, text: &str) -> String {
        crate::label::fill(text, |name| {
            let i = self.rules.constants.iter().position(|l| &*l.name == name)?;
            Some(self.text(&Expr::Let(i), crate::label::words))
        })
    }

    /// The formula of a clause, each `option.NAME` replaced by the value in force.
    pub(super) fn formula(&self, c: &Clause) -> String {
        self.substitute(&formula_text(self.rules, c))
    }

    pub(super) fn substitute(&self, text: &str) -> String {
        let mut out = text.to_string();
        // Longest names first, so that one name that begins another is not replaced inside it.
        let mut options: Vec<_> = self.rules.options.iter().collect();
        options.sort_by_key(|o| std::cmp::Reverse(o.name.len()));
        for o in options {
            let v = self.options.get(&o.name).map_or_else(|| o.default.to_string(), |v| v.to_string());
            out = out.replace(&format!("option.{}", o.name), &v);
        }
        fold(&out)
    }
}

/// Folds what an option's value settles: `"fft" == "seed-004"` is `false`, `(false or X)` is `(X)`,
/// `true and X` is `X`; so that a formula says only what still depends on the game.
pub fn fold(text: &str) -> String {
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
    pub(super) fn words(&self, e: &Expr) -> String {
        self.words_in(e, 0)
    }

    /// Whether a formula's value is settled by the rules and options alone, without a game.
    pub(super) fn settled(&self, e: &Expr) -> bool {
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
    pub(super) fn known(&self, e: &Expr) -> Option<bool> {
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
    pub(super) fn known_value(&self, e: &Expr) -> Option<Value> {
        match e {
            Expr::If(c, a, b) => match self.known(c)? {
                true => self.known_value(a),
                false => self.known_value(b),
            },
            _ => self.settled_value(e),
        }
    }

    /// The value of a settled formula, the same at every table size.
    pub(super) fn settled_value(&self, e: &Expr) -> Option<Value> {
        if self.settled(e) {
            self.value(e)
        } else {
            None
        }
    }

    pub(super) fn value_words(&self, v: &Value) -> String {
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
                None => self.as_rank(*c).filter(|_| self.people).or_else(|| self.as_classes(*c)).or_else(|| self.as_difference(*c)).unwrap_or_else(|| cards_short(*c)),
            },
            Value::Num(q) if *q < crate::num::Q::ZERO => format!("−{}", plain(&Value::Num(-*q))),
            Value::List(l) => format!("[{}]", l.iter().map(|v| self.value_words(v)).collect::<Vec<_>>().join(", ")),
            v => plain(v),
        }
    }

    /// The cards of one rank in every suit of the pack, by the rank's name: "the kings".
    pub(super) fn as_rank(&self, set: CardSet) -> Option<String> {
        let first = set.iter().next()?;
        let crate::cards::Kind::Suited(_, rank) = first.kind() else { return None };
        let all: CardSet = (0..4u8).map(|s| Card::suited(s, rank)).filter(|c| self.rules.pack.cards.contains(*c)).collect();
        let name = &self.rules.pack.rank_names[rank as usize];
        (all == set && set.len() > 1 && !name.is_empty()).then(|| format!("the {name}s"))
    }

    /// A set of cards as the trumps and classes it is made of ("trumps and tarots"), the largest
    /// first, when two or three of them make it up exactly.
    pub(super) fn as_classes(&self, set: CardSet) -> Option<String> {
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
    pub(super) fn as_difference(&self, set: CardSet) -> Option<String> {
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
    pub(super) fn words_in(&self, e: &Expr, prec: u8) -> String {
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

    pub(super) fn call_words(&self, f: Func, args: &[Expr]) -> String {
        let w = |i: usize| args.get(i).map(|x| self.words_in(x, 5)).unwrap_or_default();
        let rest = || args.iter().skip(1).map(|x| self.words_in(x, 5)).collect::<Vec<_>>().join(", ");
        match (f, args.len()) {
            (Func::Count, 1) if matches!(args[0], Expr::Fact(Fact::Tricks)) => "the number of tricks".into(),
            (Func::Count, 1) if matches!(args[0], Expr::Fact(Fact::Trick)) => "the number of cards in the trick in play".into(),
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
            (Func::Pow, _) => format!("{} to the power {}", self.words_in(&args[0], 6), self.words_in(&args[1], 6)),
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
            (Func::Withheld, _) => format!("what {} withheld from the trump obligations", w(0)),
            (Func::WinnerSide, _) => format!("the side that won {}", w(0)),
            (Func::Winner, _) => format!("the winner of {}", w(0)),
            (Func::SatOut, _) => format!("{} sits the deal out", w(0)),
            (Func::Side, _) => format!("{} side", possessive(&w(0))),
            (Func::Won, _) => format!("the tricks {} won", w(0)),
            (Func::WinningCard, _) => format!("the card that won {}", w(0)),
            (Func::LeadingCard, _) => format!("the card that led {}", w(0)),
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
            (Func::PassedOver, _) => {
                let contract = match args.get(1) {
                    Some(Expr::Const(crate::expr::Value::Num(i))) => {
                        self.rules.bidding.as_ref().and_then(|b| b.contracts.get(i.numer() as usize)).map_or_else(|| "the contract".to_string(), |c| c.label.to_string())
                    }
                    _ => "the contract".to_string(),
                };
                format!("{} passed when {contract} was still open to him", w(0))
            }
        }
    }
}

/// "56, 51, 41 or 36".
pub(super) fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// "the attack's", "the players'".
pub(super) fn possessive(x: &str) -> String {
    if x.ends_with('s') {
        format!("{x}'")
    } else {
        format!("{x}'s")
    }
}

pub(super) fn plain_json(v: &serde_json::Value) -> String {
    v.as_str().map(String::from).unwrap_or_else(|| v.to_string())
}

pub(super) fn fact_words(f: Fact) -> &'static str {
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

/// A value for people: numbers as they are, texts without quotes, lists with commas.
pub(super) fn plain(v: &Value) -> String {
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
pub(super) fn cards(v: &Value) -> String {
    match v {
        Value::Num(q) if q.to_string() == "1" => "1 card".into(),
        v => format!("{} cards", plain(v)),
    }
}

/// The pack's trumps when they are not the usual 21 by number (`None` then, and the description says
/// "21 trumps" as it always has): how many, and their order high to low with names, ties and the
/// pack's own codes.
pub(super) fn trumps_words(p: &crate::ir::Pack) -> Option<(String, String)> {
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
pub(super) fn pack_texts(p: &crate::ir::Pack) -> Vec<String> {
    // A suit with no card in the pack (the trump suit of `trump-suit`) is not named.
    let suits: Vec<String> = (0..4).filter(|&s| !CardSet::of_lane(s).and(p.cards).is_empty()).map(|s| p.suit_names[s as usize].clone()).collect();
    match trumps_words(p) {
        None => vec![format!("{} cards: suits {}, 21 trumps, {}", p.cards.len(), suits.join(", "), p.fool_name)],
        Some((count, order)) => {
            let fool = if p.cards.contains(crate::cards::FOOL) { format!(", {}", p.fool_name) } else { String::new() };
            vec![format!("{} cards: suits {}, {count}{fool}", p.cards.len(), suits.join(", ")), order]
        }
    }
}

pub(super) fn cards_short(set: CardSet) -> String {
    let v: Vec<String> = set.iter().map(|c: Card| c.to_string()).collect();
    if v.len() > 12 {
        format!("{} cards", v.len())
    } else {
        v.join(" ")
    }
}
