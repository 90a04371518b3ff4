//! Syntax tree to IR. The compiler resolves `extends` by merging statements, checks every statement
//! against what its section allows, resolves every name in every formula, and collects all mistakes
//! before giving up, each with its file, line and column.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::ast::*;
use super::check;
use super::parse::parse_file;
use super::{Diagnostic, Diagnostics};
use crate::cards::{Card, CardSet, FOOL, MAX_TRUMPS, PACK_SIZE, RANK_CODES, SUITS};
use crate::expr::{eval, CompFunc, Env, Expr, Fact, Func, Value};
use crate::ir::*;
use crate::num::Q;

/// A rule file's text and the path it is shown under.
#[derive(Clone, Debug)]
pub struct RuleFile {
    pub path: String,
    pub text: String,
}

/// Compiles the ruleset `id`, fetching it and its parents with `load`.
pub fn compile(id: &str, load: &dyn Fn(&str) -> Option<RuleFile>) -> Result<Ruleset, Diagnostics> {
    let mut c = Compiler::default();
    let merged = c.load_chain(id, load, &mut vec![]);
    let Some((header, stmts)) = merged else {
        return Err(Diagnostics(c.errors));
    };
    let mut ruleset = c.ruleset(header, stmts);
    if let (Some((when, clause, true)), true) = (c.fool_trump_when.take(), c.errors.is_empty()) {
        // The pack follows an option: the ruleset again with the Fool the other way, checked as well.
        let trump = !ruleset.pack.cards.contains(FOOL);
        let mut other = Compiler { fool_trump_fixed: Some(!trump), ..Compiler::default() };
        if let Some((header, stmts)) = other.load_chain(id, load, &mut vec![]) {
            let rules = other.ruleset(header, stmts);
            let way = if trump { "the Excuse" } else { "a trump" };
            c.errors.extend(other.errors.into_iter().map(|mut d| {
                d.message = format!("with the Fool as {way} ({}): {}", clause.rule, d.message);
                d
            }));
            ruleset.fool_variant = Some(FoolVariant { when, rules: Box::new(rules), clause, other_way: std::mem::take(&mut c.fool_other_way) });
        }
    }
    if c.errors.is_empty() {
        Ok(ruleset)
    } else {
        c.errors.sort_by(|a, b| (&a.file, a.pos.line, a.pos.col).cmp(&(&b.file, b.pos.line, b.pos.col)));
        c.errors.dedup();
        Err(Diagnostics(c.errors))
    }
}

struct Header {
    id: String,
    title: String,
    chain: Vec<String>,
    texts: Vec<(String, String)>,
    file: Arc<str>,
}

/// The contexts a formula can be written in; each sees different facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// Fixed for a game: options, players, constants (deal sizes, settings).
    Setup,
    /// Cards only, folded at compile time.
    Class,
    Hand,
    Declaration,
    PaidBy,
    Discard,
    Lead,
    Trigger,
    Score,
    Pay,
    PerPlayer,
    /// Once the taker has called a card.
    Called,
    /// A setting that applies after the auction (the discard's sizes, `callable-levels`, `must ... =
    /// condition`, the fool's settings): a setup formula that may also read the contract.
    AfterAuction,
    /// A declaration's `allowed`: after the auction, so the contract is known.
    Allowed,
    /// The deal's `require`: once the cards are dealt (dealer, first_hand, players, options, `carried`).
    Dealt,
}

fn fact_allowed(f: Fact, ctx: Ctx) -> bool {
    use Fact::*;
    match f {
        Players => ctx != Ctx::Class,
        DogSize => !matches!(ctx, Ctx::Class),
        Dealer | FirstHand => !matches!(ctx, Ctx::Class | Ctx::Setup | Ctx::AfterAuction),
        Hand | FirstPacket => matches!(ctx, Ctx::Hand | Ctx::Declaration | Ctx::Allowed) || f == Hand && ctx == Ctx::Discard,
        Shown | DeclValue | BestValue => ctx == Ctx::Declaration,
        Payer => matches!(ctx, Ctx::PaidBy | Ctx::Pay),
        Discarded | Dog => ctx == Ctx::Discard,
        Card | Last | WonByPlayer => ctx == Ctx::Trigger,
        Player => matches!(ctx, Ctx::Trigger | Ctx::PerPlayer | Ctx::Declaration | Ctx::Discard | Ctx::Allowed | Ctx::Hand),
        Payee => ctx == Ctx::Pay,
        Total => ctx == Ctx::Pay,
        Taker | Partner | Attack | Defence => matches!(ctx, Ctx::Lead | Ctx::Score | Ctx::Pay | Ctx::PerPlayer | Ctx::Allowed),
        Called => matches!(ctx, Ctx::Called | Ctx::Score | Ctx::Pay | Ctx::PerPlayer),
        Tricks | LastTrick => matches!(ctx, Ctx::Score | Ctx::Pay | Ctx::PerPlayer),
    }
}

const FACTS: &[(&str, Fact)] = &[
    ("players", Fact::Players),
    ("dealer", Fact::Dealer),
    ("first_hand", Fact::FirstHand),
    ("taker", Fact::Taker),
    ("partner", Fact::Partner),
    ("called", Fact::Called),
    ("attack", Fact::Attack),
    ("defence", Fact::Defence),
    ("tricks", Fact::Tricks),
    ("last_trick", Fact::LastTrick),
    ("deal.dog", Fact::DogSize),
    ("hand", Fact::Hand),
    ("first_packet", Fact::FirstPacket),
    ("shown", Fact::Shown),
    ("value", Fact::DeclValue),
    ("best_value", Fact::BestValue),
    ("discarded", Fact::Discarded),
    ("dog", Fact::Dog),
    ("card", Fact::Card),
    ("last", Fact::Last),
    ("won_by_player", Fact::WonByPlayer),
    ("player", Fact::Player),
    ("payer", Fact::Payer),
    ("payee", Fact::Payee),
    ("total", Fact::Total),
];

/// Functions: name, the game function, argument count range, whether it needs the game (not foldable).
const FUNCS: &[(&str, Func, usize, usize)] = &[
    ("count", Func::Count, 1, 2),
    ("has", Func::Has, 2, 2),
    ("abs", Func::Abs, 1, 1),
    ("floor", Func::Floor, 1, 1),
    ("ceil", Func::Ceil, 1, 1),
    ("round", Func::Round, 1, 1),
    ("min", Func::Min, 1, 9),
    ("max", Func::Max, 1, 9),
    ("contains", Func::Contains, 2, 2),
    ("index", Func::Index, 2, 2),
    ("complete", Func::Complete, 2, 16),
    ("run", Func::Run, 2, 4),
    ("runs", Func::Runs, 3, 3),
    ("in_runs", Func::InRuns, 3, 3),
    ("suit_of", Func::SuitOf, 1, 1),
    ("points", Func::Points, 1, 1),
    ("points_of", Func::PointsOf, 1, 1),
    ("pile", Func::Pile, 1, 1),
    ("hand_of", Func::HandOf, 1, 1),
    ("played", Func::Played, 1, 1),
    ("winner_side", Func::WinnerSide, 1, 1),
    ("winner", Func::Winner, 1, 1),
    ("sat_out", Func::SatOut, 1, 1),
    ("side", Func::Side, 1, 1),
    ("won", Func::Won, 1, 1),
    ("winning_card", Func::WinningCard, 1, 1),
    ("declared", Func::Declared, 1, 2),
    ("announced", Func::Announced, 1, 2),
    ("declarer", Func::Declarer, 1, 1),
    ("carried", Func::Standing, 1, 1),
    ("dealt", Func::Dealt, 2, 2),
    ("bid_before", Func::BidBefore, 2, 2),
];

const GAME_FUNCS: &[Func] = &[
    Func::Points,
    Func::PointsOf,
    Func::Pile,
    Func::HandOf,
    Func::Played,
    Func::WinnerSide,
    Func::Winner,
    Func::SatOut,
    Func::Side,
    Func::Won,
    Func::WinningCard,
    Func::Declared,
    Func::Announced,
    Func::Declarer,
    Func::Pot,
    Func::Carried,
    Func::Standing,
    Func::Dealt,
    Func::BidBefore,
];

/// `let NAME PARAM... = formula`: a formula with parameters, kept as written and compiled at each call.
#[derive(Clone)]
struct Formula {
    name: String,
    params: Vec<String>,
    body: Ast,
    file: Arc<str>,
    read: bool,
    /// Which parameters its body reads (at a call): one it never reads would drop its argument.
    params_read: Vec<bool>,
}

/// `e`, compiled outside `by` comprehensions, moved inside them: its comprehension variables (by
/// depth) are `by` deeper. Variables bound inside `e` itself (below `cutoff`) stay as they are.
fn shift_vars(e: &Expr, by: usize, cutoff: usize) -> Expr {
    let b = |x: &Expr, c: usize| Box::new(shift_vars(x, by, c));
    match e {
        Expr::Var(d) if *d >= cutoff => Expr::Var(d + by),
        Expr::Un(op, x) => Expr::Un(*op, b(x, cutoff)),
        Expr::Bin(op, x, y) => Expr::Bin(*op, b(x, cutoff), b(y, cutoff)),
        Expr::If(c, t, f) => Expr::If(b(c, cutoff), b(t, cutoff), b(f, cutoff)),
        Expr::List(xs) => Expr::List(xs.iter().map(|x| shift_vars(x, by, cutoff)).collect()),
        Expr::Index(l, i) => Expr::Index(b(l, cutoff), b(i, cutoff)),
        Expr::Call(f, xs) => Expr::Call(*f, xs.iter().map(|x| shift_vars(x, by, cutoff)).collect()),
        Expr::Comp { func, var, set, cond, body } => {
            Expr::Comp { func: *func, var: var.clone(), set: b(set, cutoff), cond: cond.as_ref().map(|c| b(c, cutoff + 1)), body: body.as_ref().map(|x| b(x, cutoff + 1)) }
        }
        // Leaves, named one by one: a new kind of expression holding others must say how it shifts.
        Expr::Var(_) | Expr::Const(_) | Expr::Opt(_) | Expr::Let(_) | Expr::Fact(_) | Expr::Attr(_) | Expr::Decl(_) => e.clone(),
    }
}

#[derive(Default)]
struct Compiler {
    errors: Vec<Diagnostic>,
    file: Arc<str>,
    ruleset_id: String,
    classes: Vec<Class>,
    options: Vec<OptionDef>,
    lets: Vec<String>,
    /// The setup `let`s' formulas, beside their names (`lets`): what `gives-back LET` checks.
    let_exprs: Vec<Expr>,
    score_lets: Vec<String>,
    /// For each score `let`, whether it reads `player` (itself or through another): it then has a
    /// value per player, worked out where `player` is known.
    score_lets_per_player: Vec<bool>,
    /// A score `let` is being compiled: it may read `player`, and is then per player.
    in_score_let: bool,
    /// The score `let` being compiled has read `player`.
    score_let_reads_player: bool,
    decl_names: Vec<String>,
    /// The pots (`pot NAME "label"`), by name, and those some payment goes into (`pots_paid_in`).
    pot_names: Vec<String>,
    pots_paid_in: BTreeSet<usize>,
    contract_attrs: BTreeSet<String>,
    sources: Vec<Source>,
    vars: Vec<String>,
    /// The top-level `let NAME PARAM... = formula`s: formulas with parameters, compiled where they
    /// are called, in the caller's context (so one may read `shown` in a declaration).
    formulas: Vec<Formula>,
    /// The parameters of the formula being compiled at a call, bound to the call's arguments
    /// (compiled in the caller's scope), and the formulas being expanded (a call to itself is refused).
    params: Vec<(String, Expr)>,
    expanding: Vec<String>,
    settings: BTreeMap<String, Clause>,
    /// Names whose definition failed (its error already reported): their uses are not errors again.
    failed: BTreeSet<String>,
    /// The contract attributes some formula reads as `contract.ATTR`.
    attrs_read: BTreeSet<String>,
    /// A setting that applies after the auction reads the contract (`Ruleset::reads_contract`).
    reads_contract: bool,
    /// Some formula reads `carried(p)` (`Ruleset::reads_standing`).
    reads_standing: bool,
    /// The options and top-level `let`s some formula reads.
    opts_read: BTreeSet<usize>,
    lets_read: BTreeSet<usize>,
    /// The pack's trumps, once the `pack` section is read (`trumps` in formulas).
    pack_trumps: Option<CardSet>,
    /// The pack's own card codes (`code`, the Fool as a trump's `EX`), for rule text too.
    pack_aliases: Vec<(String, Card)>,
    /// Compiling the other pack of `fool "name" trump = condition`: whether the Fool is a trump.
    fool_trump_fixed: Option<bool>,
    /// The condition of `fool "name" trump = condition`, its clause, and whether some choice of the
    /// options makes it differ from the default's.
    fool_trump_when: Option<(Expr, Clause, bool)>,
    /// The first choice of the options (those that differ from their defaults) under which the Fool
    /// goes the other way.
    fool_other_way: BTreeMap<String, serde_json::Value>,
    /// Compiling a contract's `by` condition: the contracts of the bidding block, which
    /// `bid_before(p, CONTRACT)` may name (`None` elsewhere, where it is refused).
    by_contracts: Option<Vec<String>>,
}

/// Statements that are identified by all their words (several per section), not only the first.
const KEYED_BY_ALL_ARGS: &[&str] = &["on", "require", "pay", "must"];

/// Statements that a section has once, whatever their words: a child's replaces its parent's.
const SINGLE: &[&str] = &[
    "family",
    "dated",
    "players",
    "trump-order",
    "sit-out",
    "untouchable",
    "sides",
    "turns",
    "group",
    "surplus",
    "short-packet",
    "when",
    "by",
    "from",
    "fool",
    "penalize",
    "unless-unavoidable",
    "ranks",
    "trumps",
];

/// How `extends` matches a child's statement with its parent's: by keyword and first word (so each
/// `contract`, `class`, `let`, `suit` is its own), by all words for the few repeated statements, by
/// keyword alone for statements a section has once.
fn stmt_key(s: &Stmt) -> String {
    if KEYED_BY_ALL_ARGS.contains(&s.key.as_str()) {
        let words: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
        format!("{} {}", s.key, words.join(" "))
    } else if SINGLE.contains(&s.key.as_str()) {
        s.key.clone()
    } else {
        match s.args.first() {
            Some(w) => format!("{} {}", s.key, w.text),
            None => s.key.clone(),
        }
    }
}

/// A child's statements override its parent's with the same key; blocks merge statement by statement;
/// `without KEY...` removes a parent's statement.
/// `outer` holds the keys of the enclosing levels of the parent, innermost last, with the key of the
/// block each level is (for a `without` written one level too deep).
fn merge(parent: Vec<Stmt>, child: Vec<Stmt>, errors: &mut Vec<Diagnostic>, outer: &[(String, Vec<String>)]) -> Vec<Stmt> {
    let mut out = parent;
    for s in child {
        if s.key == "without" {
            if s.cite.is_some() {
                errors.push(Diagnostic { file: s.file.to_string(), pos: s.pos, message: "a `without` removes a statement, so a citation on it would go nowhere".into() });
            }
            let key: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
            let key = key.join(" ");
            let before = out.len();
            out.retain(|p| stmt_key(p) != key);
            if key == "dated" && outer.is_empty() {
                errors.push(Diagnostic {
                    file: s.file.to_string(),
                    pos: s.pos,
                    message: "`without dated` removes nothing: a child never inherits its parent's `dated` (give it its own where its source dates it)".into(),
                });
            } else if out.len() == before {
                errors.push(Diagnostic { file: s.file.to_string(), pos: s.pos, message: without_nothing(&key, &out, outer) });
            }
            continue;
        }
        let key = stmt_key(&s);
        let level: Vec<String> = if s.block.is_some() { out.iter().map(stmt_key).collect() } else { vec![] };
        match out.iter_mut().find(|p| stmt_key(p) == key) {
            Some(p) => match (p.block.take(), s.block.clone()) {
                (Some(pb), Some(cb)) => {
                    let mut inner = outer.to_vec();
                    inner.push((key.clone(), level));
                    let merged = merge(pb, cb, errors, &inner);
                    // A child block without a citation keeps its parent's.
                    let cite = s.cite.clone().or(p.cite.take());
                    *p = Stmt { block: Some(merged), cite, ..s };
                }
                _ => *p = s,
            },
            None => out.push(s),
        }
    }
    out
}

/// Why `without KEY` removed nothing from `level` (the parent's statements where it was written),
/// and what it could have meant: the key one level down, or the nearest key here.
fn without_nothing(key: &str, level: &[Stmt], outer: &[(String, Vec<String>)]) -> String {
    if key.is_empty() {
        return "`without` needs the key of the parent's statement to remove: `without players`, `without class kings`, `without must overtrump`".into();
    }
    let head = format!("`without {key}` removes nothing: the parent has no statement with the key `{key}` at this level");
    // Written inside a block, for a statement of an enclosing level.
    for (i, (_, keys)) in outer.iter().enumerate().rev() {
        if keys.iter().any(|k| k == key) {
            let place = if i == 0 { "at the top level".to_string() } else { format!("in `{} {{ ... }}`", outer[i - 1].0) };
            return format!("{head}; it is {place}, outside this block, so write `without {key}` there");
        }
    }
    for p in level {
        if p.block.as_ref().is_some_and(|b| b.iter().any(|s| stmt_key(s) == key)) {
            let block = stmt_key(p);
            return format!("{head}; it is inside `{block} {{ ... }}`, so write `{block} {{ without {key} }}`");
        }
    }
    let mut keys: Vec<String> = level.iter().map(stmt_key).collect();
    keys.sort();
    keys.dedup();
    let near = keys.iter().map(|k| (check::distance(k, key), k)).min();
    match near {
        Some((d, k)) if d <= 2.max(key.len() / 3) => format!("{head}; did you mean `without {k}`?"),
        _ => {
            let nested = level.iter().flat_map(|p| p.block.iter().flatten().map(move |s| (check::distance(&stmt_key(s), key), stmt_key(p), stmt_key(s)))).min();
            match nested {
                Some((d, block, k)) if d <= 2.max(key.len() / 3) => format!("{head}; did you mean `{block} {{ without {k} }}`?"),
                _ => format!("{head}; the keys here are: {}", keys.join(", ")),
            }
        }
    }
}

/// Removes and reports the `without`s that a merge did not consume: in a file that extends nothing,
/// or in a block the parent does not have.
fn leftover_withouts(stmts: &mut Vec<Stmt>, has_parent: bool, errors: &mut Vec<Diagnostic>) {
    stmts.retain(|s| {
        if s.key != "without" {
            return true;
        }
        let key: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
        let message = if has_parent {
            format!("`without {}` removes nothing: the parent has no block here for it to remove from", key.join(" "))
        } else {
            format!("`without {}` removes nothing: `without` removes a parent's statement, so it only works in a ruleset that `extends` another", key.join(" "))
        };
        errors.push(Diagnostic { file: s.file.to_string(), pos: s.pos, message });
        false
    });
    for s in stmts.iter_mut() {
        if let Some(b) = &mut s.block {
            leftover_withouts(b, has_parent, errors);
        }
    }
}

/// The ruleset's version: an FNV-1a hash of the text of every file in its chain, stable across
/// machines, folders and Rust versions, so a stored verdict can tell which rules it was computed with.
fn version_of(texts: &[(String, String)]) -> String {
    let mut hash: u64 = 0xcbf29ce484222325;
    for (_, text) in texts {
        for b in text.bytes().chain([0u8]) {
            hash ^= b as u64;
            hash = hash.wrapping_mul(0x100000001b3);
        }
    }
    format!("{hash:016x}")
}

fn cite_text(c: &Cite) -> String {
    match &c.section {
        Some(s) => format!("{} \"{}\"", c.source, s),
        None => c.source.clone(),
    }
}

impl Compiler {
    fn err(&mut self, file: &str, pos: Pos, message: impl Into<String>) {
        self.errors.push(Diagnostic { file: file.to_string(), pos, message: message.into() });
    }

    fn err_at(&mut self, s: &Stmt, message: impl Into<String>) {
        let f = s.file.clone();
        self.err(&f, s.pos, message)
    }

    fn load_chain(&mut self, id: &str, load: &dyn Fn(&str) -> Option<RuleFile>, seen: &mut Vec<String>) -> Option<(Header, Vec<Stmt>)> {
        self.load_from(id, load, seen, None)
    }

    /// Loads `id`; `from` is the `extends` statement that asked for it, for error positions.
    fn load_from(&mut self, id: &str, load: &dyn Fn(&str) -> Option<RuleFile>, seen: &mut Vec<String>, from: Option<&Stmt>) -> Option<(Header, Vec<Stmt>)> {
        let Some(file) = load(id) else {
            match from {
                Some(ext) => self.err_at(ext, format!("`extends {id}`: there is no ruleset `{id}`")),
                None => self.err(id, Pos::default(), format!("unknown ruleset `{id}`")),
            }
            return None;
        };
        if seen.contains(&id.to_string()) {
            self.err(&file.path, Pos { line: 1, col: 1 }, format!("`extends` goes round in a circle: {} -> {id}", seen.join(" -> ")));
            return None;
        }
        seen.push(id.to_string());
        let stmts = match parse_file(&file.path, &file.text) {
            Ok(s) => s,
            Err(d) => {
                self.errors.push(d);
                return None;
            }
        };
        let mut rest = stmts.into_iter();
        let Some(head) = rest.next().filter(|s| s.key == "ruleset") else {
            self.err(&file.path, Pos { line: 1, col: 1 }, "a rule file starts with `ruleset ID \"title\"`");
            return None;
        };
        if head.args.len() > 2 || head.value.is_some() || head.block.is_some() {
            self.err_at(&head, "a rule file starts with `ruleset ID \"title\"`, and nothing more on that line");
        }
        let name = head.args.first().map(|w| w.text.clone()).unwrap_or_default();
        if name != id {
            self.err(&file.path, head.pos, format!("this file declares ruleset `{name}`, but it is loaded as `{id}`; the file name and the declared id must agree"));
        }
        let title = head.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| id.to_string());
        let body: Vec<Stmt> = rest.collect();
        check::duplicates(&body, &stmt_key, &mut self.errors);
        let (parent, own): (Vec<Stmt>, Vec<Stmt>) = body.into_iter().partition(|s| s.key == "extends");
        // `extends` never reaches `ruleset()`, which checks the other statements' forms.
        check::shapes(&parent, "", &mut self.errors);
        for ext in parent.iter().skip(1) {
            self.err_at(ext, format!("a ruleset extends one parent, and this file already says `extends {}`", parent[0].args.first().map_or("", |w| w.text.as_str())));
        }
        let mut header = Header { id: id.to_string(), title, chain: vec![id.to_string()], texts: vec![(file.path.clone(), file.text.clone())], file: file.path.as_str().into() };
        let stmts = match parent.first() {
            Some(ext) => {
                let Some(parent_id) = ext.args.first().map(|w| w.text.clone()) else {
                    self.err_at(ext, "`extends` needs the id of the parent ruleset");
                    return None;
                };
                let (ph, mut pstmts) = self.load_from(&parent_id, load, seen, Some(ext))?;
                // The year the parent's source dates its rules from is not the child's: a child
                // is dated by its own `dated`, citing the source that dates it, or not at all.
                pstmts.retain(|s| s.key != "dated");
                header.chain.extend(ph.chain);
                header.texts.extend(ph.texts);
                let mut merged = merge(pstmts, own, &mut self.errors, &[]);
                leftover_withouts(&mut merged, true, &mut self.errors);
                merged
            }
            None => {
                let mut own = own;
                leftover_withouts(&mut own, false, &mut self.errors);
                own
            }
        };
        Some((header, stmts))
    }

    /// Remembers where each statement of a block is written (`Ruleset::settings`).
    fn settings(&mut self, block: &Stmt) {
        for st in block.block.iter().flatten() {
            let clause = self.clause(st, format!("{}.{}", block.key, st.key));
            self.settings.insert(clause.rule.to_string(), clause);
        }
    }

    fn clause(&self, s: &Stmt, rule: impl Into<String>) -> Clause {
        let rule: String = rule.into();
        let source_file = s.cite.as_ref().and_then(|c| self.sources.iter().find(|x| x.id == c.source)).map(|x| x.file.clone());
        Clause {
            rule: rule.into(),
            at: format!("{}:{}", s.file, s.pos.line).into(),
            source: s.cite.as_ref().map(|c| cite_text(c).into()),
            source_file: source_file.map(Into::into),
        }
    }

    fn ruleset(&mut self, h: Header, stmts: Vec<Stmt>) -> Ruleset {
        self.file = h.file.clone();
        self.ruleset_id = h.id.clone();
        let version = version_of(&h.texts);

        check::shapes(&stmts, "", &mut self.errors);
        // Sources, options, classes and names come first, so any formula may use them.
        for s in stmts.iter().filter(|s| s.key == "source") {
            let (Some(id), Some(file)) = (s.args.first(), s.args.get(1)) else {
                self.err_at(s, "a source is written `source ID \"file\" \"title\"`");
                continue;
            };
            let title = s.args.get(2).map(|w| w.text.clone()).unwrap_or_default();
            self.sources.push(Source { id: id.text.clone(), file: file.text.clone(), title });
        }
        self.check_citations(&stmts);
        for s in stmts.iter().filter(|s| s.key == "option") {
            self.option(s);
        }
        let pack = self.pack(stmts.iter().find(|s| s.key == "pack"));
        for s in stmts.iter().filter(|s| s.key == "class") {
            self.class(s, &pack);
        }
        for s in stmts.iter().filter(|s| s.key == "declaration") {
            self.decl_names.push(s.args.first().map(|w| w.text.clone()).unwrap_or_default());
        }
        let pots = self.pots(&stmts);
        for s in stmts.iter().filter(|s| s.key == "bidding").flat_map(|s| s.block.iter().flatten()) {
            // `by` says who may bid the contract: it is no attribute a formula reads.
            for a in s.block.iter().flatten().filter(|a| a.key != "by" && a.key != "settle") {
                self.contract_attrs.insert(a.key.clone());
            }
        }
        let mut constants = vec![];
        for s in stmts.iter().filter(|s| s.key == "let" && s.args.len() > 1) {
            self.formula(s);
        }
        for s in stmts.iter().filter(|s| s.key == "let" && s.args.len() <= 1) {
            if let Some(l) = self.let_stmt(s, Ctx::Setup, "let") {
                self.lets.push(l.name.to_string());
                self.let_exprs.push(l.expr.clone());
                constants.push(l);
            }
        }

        let known = [
            "ruleset",
            "source",
            "family",
            "dated",
            "option",
            "pack",
            "class",
            "declaration",
            "let",
            "counting",
            "players",
            "sit-out",
            "sides",
            "deal",
            "annul",
            "bidding",
            "call",
            "discard",
            "talon",
            "buy",
            "steal",
            "sit-out-by-choice",
            "play",
            "fool",
            "untouchable",
            "on",
            "score",
            "match",
            "extends",
            "pot",
        ];
        for s in &stmts {
            if !known.contains(&s.key.as_str()) {
                self.err_at(s, format!("unknown statement `{}`; a rule file has: {}", s.key, known.join(", ")));
            }
        }

        let family = stmts.iter().find(|s| s.key == "family").and_then(|s| {
            let name = s.args.first()?.text.clone();
            if !FAMILIES.contains(&name.as_str()) {
                self.err_at(s, format!("`family {name}`: a family is one of {}", FAMILIES.map(|f| format!("\"{f}\"")).join(", ")));
                return None;
            }
            Some((name, self.clause(s, "family")))
        });
        let dated = stmts.iter().find(|s| s.key == "dated").and_then(|s| {
            let word = &s.args.first()?.text;
            match word.parse::<u16>() {
                Ok(year) if (1400..=2100).contains(&year) => Some((year, self.clause(s, "dated"))),
                _ => {
                    self.err_at(s, format!("`dated {word}`: the year the source dates the rules from is written out, e.g. `dated 1637`"));
                    None
                }
            }
        });
        let counting = self.counting(stmts.iter().find(|s| s.key == "counting"), &pack);
        let (players, players_clause) = self.players(stmts.iter().find(|s| s.key == "players"));
        let mut sit_out_from = 0;
        let mut sit_out_opposite = false;
        let sit_out = stmts.iter().find(|s| s.key == "sit-out").and_then(|s| {
            let mut words: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
            // `sit-out opposite from N`: the player opposite the dealer, at a table of N (Danish
            // Tarok: three play, a fourth sits opposite the dealer). Only where "opposite" is one seat.
            if words.first() == Some(&"opposite") {
                if !matches!(words[..], ["opposite", "from", n] if n.parse::<usize>().ok() == Some(players.1) && players.1 % 2 == 0 && players.1 >= 4) {
                    self.err_at(
                        s,
                        format!(
                            "`sit-out opposite from N`: the player opposite the dealer sits out at a table of N, which must be the largest table and even (`players` allows up to {}), so that one seat is opposite",
                            players.1
                        ),
                    );
                    return None;
                }
                sit_out_opposite = true;
                words[0] = "dealer";
            }
            // `sit-out dealer from N`: only at a table of N or more (Droggn: three play, a fourth deals).
            let from = match words[..] {
                ["dealer", "from", n] => match n.parse::<usize>() {
                    Ok(n) if n >= 3 && n <= players.1 => Some(n),
                    _ => {
                        self.err_at(
                            s,
                            format!(
                                "`sit-out dealer from N`: N is the smallest table at which the dealer sits out, a whole number from 3 to the largest table ({}), not `{n}`",
                                players.1
                            ),
                        );
                        return None;
                    }
                },
                _ => None,
            };
            sit_out_from = from.unwrap_or(0);
            if words != ["dealer"] && from.is_none() {
                self.err_at(s, "`sit-out dealer` is the only form, or `sit-out dealer from N` (the dealer deals to the others and sits the deal out), or `sit-out opposite from N` (the player opposite the dealer sits out)");
                None
            } else if players.0.max(sit_out_from) < 3 {
                self.err_at(s, format!("`sit-out dealer` needs a table of 3 or more, so that two play; `players` allows {}", players.0));
                None
            } else {
                Some(self.clause(s, "sit-out"))
            }
        });
        let sides = match stmts.iter().find(|s| s.key == "sides") {
            Some(s) => match s.args.first().map(|w| w.text.as_str()) {
                Some("taker") => Sides::Taker,
                Some("each") => Sides::Each,
                Some("partners") => Sides::Partners,
                _ => {
                    self.err_at(s, "`sides` is `taker` (a taker against the defence), `each` (each player for himself) or `partners` (partners sitting opposite)");
                    Sides::Each
                }
            },
            None => Sides::Each,
        };
        let deal = self.deal(stmts.iter().find(|s| s.key == "deal"));
        let annulments = stmts.iter().filter(|s| s.key == "annul").filter_map(|s| self.annulment(s)).collect();
        let bidding = stmts.iter().find(|s| s.key == "bidding").map(|s| self.bidding(s));
        if bidding.is_some() && sides != Sides::Taker {
            if let Some(s) = stmts.iter().find(|s| s.key == "bidding") {
                self.err_at(s, "bidding chooses a taker, so it needs `sides taker`");
            }
        }
        let call = stmts.iter().find(|s| s.key == "call").map(|s| self.partner_call(s));
        if call.is_some() && bidding.is_none() {
            if let Some(s) = stmts.iter().find(|s| s.key == "call") {
                self.err_at(s, "the taker calls a partner, so the ruleset needs `bidding`");
            }
        }
        let discard = stmts.iter().find(|s| s.key == "discard").map(|s| self.discard(s));
        let talon = stmts.iter().find(|s| s.key == "talon").map(|s| self.talon(s));
        if talon.is_some() && bidding.is_none() {
            if let Some(s) = stmts.iter().find(|s| s.key == "talon") {
                self.err_at(s, "the talon's packets are taken by the taker, so the ruleset needs `bidding`");
            }
        }
        let buy = stmts.iter().find(|s| s.key == "buy").map(|s| self.buy(s));
        if buy.is_some() && bidding.is_none() {
            if let Some(s) = stmts.iter().find(|s| s.key == "buy") {
                self.err_at(s, "cards are bought by the taker, so the ruleset needs `bidding`");
            }
        }
        let steal = stmts.iter().find(|s| s.key == "steal").and_then(|s| self.steal(s));
        if steal.is_some() && bidding.is_some() {
            if let Some(s) = stmts.iter().find(|s| s.key == "steal") {
                self.err_at(s, "stealing from the stock comes right after the deal, in a game without `bidding`");
            }
        }
        let sit_out_choice = stmts.iter().find(|s| s.key == "sit-out-by-choice").and_then(|s| self.sit_out_choice(s));
        if let Some(s) = stmts.iter().find(|s| s.key == "sit-out-by-choice").filter(|_| sit_out_choice.is_some()) {
            if bidding.is_some() {
                self.err_at(s, "sitting out by choice comes right after the deal, in a game without `bidding`");
            }
            if stmts.iter().any(|s| s.key == "sit-out") {
                self.err_at(s, "a table has `sit-out dealer` (decided before the deal) or `sit-out-by-choice` (after it), not both");
            }
        }
        let declarations = stmts.iter().filter(|s| s.key == "declaration").filter_map(|s| self.declaration(s)).collect();
        if bidding.is_none() {
            // The attack and the defence are the taker's side and the others: without a taker,
            // nobody could make such a declaration.
            for st in stmts.iter().filter(|s| s.key == "declaration").flat_map(|s| s.block.iter().flatten()) {
                if let Some(w) = st.args.first().filter(|w| st.key == "by" && matches!(w.text.as_str(), "attack" | "defence")) {
                    self.err_at(st, format!("`by {}` needs a taker, so the ruleset needs `bidding`", w.text));
                }
            }
        }
        let play = self.play(stmts.iter().find(|s| s.key == "play"));
        let fool = self.fool(stmts.iter().find(|s| s.key == "fool"));
        self.fool_section_applies(stmts.iter().find(|s| s.key == "fool"), &pack);
        let untouchable = stmts.iter().find(|s| s.key == "untouchable").and_then(|s| {
            let Some(card) = s.args.first().and_then(|w| Card::parse(&w.text)) else {
                let what = s.args.first().map_or("no card".to_string(), |w| format!("`{}` is not a card", w.text));
                self.err_at(s, format!("{what}: an untouchable card is written `untouchable CARD \"label\" = condition on the hand`, e.g. `untouchable T1 ...`"));
                return None;
            };
            let label = s.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| card.to_string());
            let when = self.value(s, Ctx::Hand)?;
            Some(Untouchable { card, label, when, clause: self.clause(s, "untouchable") })
        });
        let triggers = stmts.iter().filter(|s| s.key == "on").filter_map(|s| self.trigger(s)).collect();
        let score = self.score(stmts.iter().find(|s| s.key == "score"));
        let game_match = stmts.iter().find(|s| s.key == "match").and_then(|s| self.game_match(s));
        // A declaration that ends the match needs a match to end.
        if game_match.is_none() {
            for s in stmts.iter().filter(|s| s.key == "declaration") {
                if let Some(st) = s.block.iter().flatten().find(|st| st.key == "ends-match") {
                    self.err_at(st, "`ends-match` ends the match, but the ruleset has no `match { ... }`: say how a match ends (`deals`, `target`) first");
                }
            }
        }
        // Cards laid away can only be shown where someone lays cards away.
        if !stmts.iter().any(|s| s.key == "discard") {
            for s in stmts.iter().filter(|s| s.key == "declaration") {
                if let Some(st) = s.block.iter().flatten().find(|st| st.key == "from" && st.args.first().is_some_and(|w| w.text == "hand-and-discard")) {
                    self.err_at(st, "`from hand-and-discard` shows cards the declarer laid away, but the ruleset has no `discard { ... }`: nobody lays cards away");
                }
            }
        }
        // A pot that no payment goes into only ever holds what records say it carries.
        for (i, p) in pots.iter().enumerate() {
            if !self.pots_paid_in.contains(&i) {
                if let Some(st) = stmts.iter().find(|s| s.key == "pot" && s.args.first().is_some_and(|w| *w.text == *p.name)) {
                    self.err_at(
                        st,
                        format!(
                            "nothing is paid into pot `{}`; a pot is paid into by `pay PAYERS to pot.{} = amount` or `on play CLASS \"label\" to pot.{} = marques`",
                            p.name, p.name, p.name
                        ),
                    );
                }
            }
        }
        // An option or a constant that no formula reads changes nothing. Only the ruleset's own are
        // reported: a parent's may be read by the parent's rules that a child removed.
        for (i, o) in self.options.clone().iter().enumerate() {
            if !self.opts_read.contains(&i) {
                if let Some(st) = stmts.iter().find(|s| s.key == "option" && s.file == h.file && s.args.first().is_some_and(|w| w.text == o.name)) {
                    self.err_at(
                        st,
                        format!(
                            "no formula reads `option.{}`, so choosing it would change nothing; use it in a rule, or remove it (`without option {}` in a child)",
                            o.name, o.name
                        ),
                    );
                }
            }
        }
        for f in self.formulas.clone().iter().filter(|f| !f.read && *f.file == *h.file) {
            if let Some(st) = stmts.iter().find(|s| s.key == "let" && s.file == h.file && s.args.first().is_some_and(|w| *w.text == f.name)) {
                self.err_at(st, format!("no formula calls `{}`, so it would change nothing; call it (`{}(...)`) in a rule, or remove it", f.name, f.name));
            }
        }
        // A parameter its formula never reads: the argument given for it would be ignored.
        for f in self.formulas.clone().iter().filter(|f| f.read && *f.file == *h.file) {
            let Some(st) = stmts.iter().find(|s| s.key == "let" && s.file == h.file && s.args.first().is_some_and(|w| *w.text == f.name)) else { continue };
            for (k, w) in st.args[1..].iter().enumerate() {
                if !f.params_read.get(k).copied().unwrap_or(true) {
                    self.err(
                        &st.file,
                        w.pos,
                        format!(
                            "`{}` is a parameter of `{}` that its formula never reads, so the argument given for it would change nothing; use it in the formula, or remove it",
                            w.text, f.name
                        ),
                    );
                }
            }
        }
        for (i, l) in constants.iter().enumerate() {
            if !self.lets_read.contains(&i) {
                if let Some(st) = stmts.iter().find(|s| s.key == "let" && s.file == h.file && s.args.first().is_some_and(|w| *w.text == *l.name)) {
                    self.err_at(st, format!("no formula reads `{}`, so it would change nothing; use it in a rule, or remove it (`without let {}` in a child)", l.name, l.name));
                }
            }
        }
        // A contract's attribute takes effect through the formulas that read it; one that none reads
        // (a misspelt `multipler`) would change nothing.
        for b in stmts.iter().filter(|s| s.key == "bidding") {
            for a in b.block.iter().flatten().filter(|c| c.key == "contract").flat_map(|c| c.block.iter().flatten()) {
                if !["dog", "by", "settle"].contains(&a.key.as_str()) && !self.attrs_read.contains(&a.key) {
                    let read: Vec<&str> = self.attrs_read.iter().map(|x| x.as_str()).collect();
                    self.err_at(
                        a,
                        format!(
                            "no formula reads this contract's `{}` (as `contract.{}`), so it would change nothing; attributes read: {}",
                            a.key,
                            a.key,
                            if read.is_empty() { "none".to_string() } else { read.join(", ") }
                        ),
                    );
                }
            }
        }

        Ruleset {
            id: h.id,
            title: h.title,
            family,
            dated,
            chain: h.chain,
            texts: h.texts,
            version,
            sources: self.sources.clone(),
            options: self.options.clone(),
            constants,
            pack,
            classes: self.classes.clone(),
            counting,
            players,
            players_clause,
            sit_out,
            sit_out_from,
            sit_out_opposite,
            sides,
            deal,
            annulments,
            bidding,
            call,
            discard,
            talon,
            buy,
            fool_variant: None,
            steal,
            sit_out_choice,
            declarations,
            play,
            fool,
            untouchable,
            triggers,
            score,
            pots,
            game_match,
            settings: std::mem::take(&mut self.settings),
            defaults: Default::default(),
            reads_contract: self.reads_contract,
            reads_standing: self.reads_standing,
        }
    }

    /// The pots: `pot NAME "label"`, each name once.
    fn pots(&mut self, stmts: &[Stmt]) -> Vec<PotDef> {
        let mut out: Vec<PotDef> = vec![];
        for s in stmts.iter().filter(|s| s.key == "pot") {
            let Some(name) = s.args.first().filter(|w| !w.quoted) else {
                self.err_at(s, "a pot is written `pot NAME \"label\"`");
                continue;
            };
            if !name.text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || !name.text.starts_with(|c: char| c.is_ascii_alphabetic()) {
                self.err(&s.file, name.pos, format!("a pot's name is a word of letters, digits and `_` (it is read as `pot.NAME`), not `{}`", name.text));
                continue;
            }
            if out.iter().any(|p| *p.name == *name.text) {
                self.err(&s.file, name.pos, format!("pot `{}` is declared twice", name.text));
                continue;
            }
            let label = s.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| format!("the {} pot", name.text));
            self.pot_names.push(name.text.clone());
            out.push(PotDef { name: name.text.as_str().into(), label: label.into(), clause: self.clause(s, format!("pot.{}", name.text)) });
        }
        out
    }

    /// A payment's side written `pot.NAME`: `Some(Some(pot))`; `Some(None)` for a word that is not a
    /// pot's; `None` (reported) for an unknown pot.
    fn pot_word(&mut self, file: &Arc<str>, w: &Word) -> Option<Option<usize>> {
        let Some(name) = w.text.strip_prefix("pot.") else { return Some(None) };
        match self.pot_names.iter().position(|p| p == name) {
            Some(i) => Some(Some(i)),
            None => {
                self.err(file, w.pos, self.unknown_pot(name));
                None
            }
        }
    }

    fn unknown_pot(&self, name: &str) -> String {
        if self.pot_names.is_empty() {
            format!("unknown pot `{name}`: the ruleset has no pots; declare one with `pot {name} \"label\"`")
        } else {
            format!("unknown pot `{name}`; pots are: {}", self.pot_names.join(", "))
        }
    }

    /// Every citation, in blocks too, names a declared source.
    fn check_citations(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if let Some(c) = &s.cite {
                if !self.sources.iter().any(|x| x.id == c.source) {
                    let known: Vec<String> = self.sources.iter().map(|x| x.id.clone()).collect();
                    let f = s.file.clone();
                    self.err(&f, c.pos, format!("unknown source `{}` in citation; sources declared: {}", c.source, known.join(", ")));
                }
            }
            if let Some(b) = &s.block {
                self.check_citations(b);
            }
        }
    }

    fn option(&mut self, s: &Stmt) {
        let name = s.args.first().map(|w| w.text.clone()).unwrap_or_default();
        let doc = s.args.get(1).map(|w| w.text.clone()).unwrap_or_default();
        let errors_before = self.errors.len();
        let choices: Vec<serde_json::Value> = match &s.value {
            Some(Ast { kind: AstKind::List(items), .. }) => items
                .iter()
                .filter_map(|i| match &i.kind {
                    AstKind::Str(t) => Some(t.as_str().into()),
                    AstKind::Num(q) => serde_json::to_value(q).ok(),
                    AstKind::Invalid(m) => {
                        self.err(&s.file, i.pos, m.clone());
                        None
                    }
                    _ => {
                        self.err(&s.file, i.pos, format!("option `{name}`: each choice is a string or a number written out (`\"yes\"`, `6`), not a formula"));
                        None
                    }
                })
                .collect(),
            _ => vec![],
        };
        if name.is_empty() || choices.len() < 2 {
            self.failed.insert(format!("option.{name}"));
            if self.errors.len() > errors_before {
                return;
            }
            self.err_at(s, "an option is written `option NAME \"what it decides\" = [default, other, ...]` with at least two choices");
            return;
        }
        if self.options.iter().any(|o| o.name == name) {
            self.err_at(s, format!("option `{name}` is defined twice"));
        }
        let clause = self.clause(s, format!("option.{name}"));
        self.options.push(OptionDef { name, default: choices[0].clone(), choices, doc, clause });
    }

    fn pack(&mut self, s: Option<&Stmt>) -> Pack {
        let mut pack = Pack {
            cards: CardSet::EMPTY,
            suit_names: ["spades", "hearts", "diamonds", "clubs"].map(String::from),
            rank_names: std::array::from_fn(|r| match r {
                0 => String::new(),
                1 => "ace".into(),
                11 => "jack".into(),
                12 => "cavalier".into(),
                13 => "queen".into(),
                14 => "king".into(),
                n => n.to_string(),
            }),
            fool_name: "the Fool".into(),
            trump_names: vec![],
            aliases: vec![],
            later_wins: CardSet::EMPTY,
            strength: [0; PACK_SIZE],
            reversible: None,
            clause: Clause { rule: "pack".into(), at: "".into(), source: None, source_file: None },
        };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `pack { ... }` section");
            return pack;
        };
        pack.clause = self.clause(s, "pack");
        let mut default_ranks: Option<Vec<u8>> = None;
        let mut suits: Vec<(u8, Option<Vec<u8>>)> = vec![];
        let mut trump_count = 0u8;
        let (mut fool_trump, mut order, mut names, mut ties, mut codes) = (None, None, vec![], vec![], vec![]);
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "suit" => {
                    let Some(code) = st.args.first().and_then(|w| SUITS.iter().position(|c| c.to_string() == w.text)) else {
                        self.err_at(st, "a suit is written `suit S \"name\" [ranks high to low]`, with S one of S H D C");
                        continue;
                    };
                    if let Some(n) = st.args.get(1) {
                        pack.suit_names[code] = n.text.clone();
                    }
                    let ranks = if st.args.len() > 2 { Some(self.ranks(st, &st.args[2..])) } else { None };
                    suits.push((code as u8, ranks));
                }
                "ranks" => default_ranks = Some(self.ranks(st, &st.args)),
                "rank-name" => {
                    let mut named = vec![];
                    for pair in st.args.chunks(2) {
                        match (RANK_CODES.iter().position(|r| *r == pair[0].text), pair.get(1)) {
                            (Some(r), Some(_)) if named.contains(&r) => self.err(&st.file, pair[0].pos, format!("rank `{}` is named twice", pair[0].text)),
                            (Some(r), Some(name)) => {
                                named.push(r);
                                pack.rank_names[r + 1] = name.text.clone()
                            }
                            _ => self.err_at(st, format!("`rank-name` takes pairs of a rank code and its name; `{}` is not a rank code", pair[0].text)),
                        }
                    }
                }
                "reversed" => {
                    let mut lanes: Vec<u8> = vec![];
                    for w in &st.args {
                        match SUITS.iter().position(|c| c.to_string() == w.text) {
                            Some(i) => lanes.push(i as u8),
                            None => self.err(&st.file, w.pos, format!("`{}` is not a suit: `reversed` names suits among S H D C, e.g. `reversed H D = yes`", w.text)),
                        }
                    }
                    let cond = self.value(st, Ctx::Setup);
                    if lanes.is_empty() {
                        self.err_at(st, "`reversed` names the suits whose numerals rank in reverse, e.g. `reversed H D = yes`");
                    } else if let Some(c) = cond {
                        pack.reversible = Some((lanes, c, self.clause(st, "pack.reversed")));
                    }
                }
                "trumps" => match st.args.first().and_then(|w| w.text.parse::<u8>().ok()) {
                    Some(n) if (1..=MAX_TRUMPS).contains(&n) => trump_count = n,
                    _ => self.err_at(st, format!("`trumps N` gives the pack trumps T1 to TN, N a number from 1 to {MAX_TRUMPS}: `trumps 21`")),
                },
                "fool" => {
                    let mut named = false;
                    for w in &st.args {
                        match (w.quoted, w.text.as_str()) {
                            (true, _) if named => self.err(&st.file, w.pos, "the Fool has one name: `fool \"the Excuse\"`"),
                            (true, name) => {
                                named = true;
                                pack.fool_name = name.to_string()
                            }
                            (false, "trump") => fool_trump = Some(st),
                            (false, other) => self.err(&st.file, w.pos, format!("`fool` takes the Fool's name in quotes and `trump`, not `{other}`: `fool \"the Sküs\" trump`")),
                        }
                    }
                    if st.value.is_some() {
                        if fool_trump.is_none() {
                            self.err_at(st, "`fool \"name\" trump = condition` says when the Fool is a trump: the word `trump` is missing");
                        } else if !self.fool_trump_following(st) {
                            fool_trump = None;
                        }
                    }
                    if fool_trump.is_none() {
                        pack.cards.insert(FOOL);
                    }
                }
                "trump-order" => order = Some(st),
                "trump-name" => names.push(st),
                "tie" => ties.push(st),
                "code" => codes.push(st),
                other => {
                    self.err_at(st, format!("unknown pack statement `{other}`; expected suit, ranks, rank-name, reversed, trumps, fool, trump-order, trump-name, tie or code"))
                }
            }
        }
        self.trumps_of_pack(&mut pack, trump_count, fool_trump, order, &names, &ties, &codes);
        for (suit, ranks) in suits {
            let Some(order) = ranks.or_else(|| default_ranks.clone()) else {
                self.err_at(s, format!("suit {} has no ranks: give them on its line or in a `ranks` statement", SUITS[suit as usize]));
                continue;
            };
            for (i, r) in order.iter().enumerate() {
                let c = Card::suited(suit, *r);
                pack.cards.insert(c);
                pack.strength[c.0 as usize] = (order.len() - i) as u8;
            }
        }
        pack
    }

    /// `fool "name" trump = condition`: whether the Fool is a trump in this compile (the condition with
    /// the options' defaults, or the other way when compiling the variant), the condition checked to be
    /// yes or no for every choice of the options it reads (and to read some).
    fn fool_trump_following(&mut self, st: &Stmt) -> bool {
        let (e, read) = self.setting_and_options_read(st);
        let Some(e) = e else { return true };
        if read.is_empty() {
            self.err_at(st, "the condition of `fool \"name\" trump = condition` reads no option: write `fool \"name\" trump`, or `fool \"name\"` for the Excuse");
            return true;
        }
        let defaults: Vec<Value> = self.options.iter().map(|o| Value::from_json(&o.default).unwrap_or(Value::Bool(false))).collect();
        let at_default = match eval(&e, &Chosen(&defaults)) {
            Ok(Value::Bool(b)) => b,
            _ => {
                self.err_at(st, "the condition of `fool \"name\" trump = condition` must be yes or no, reading options only");
                return true;
            }
        };
        let mut differs = false;
        let choices: Vec<Vec<Value>> = read.iter().map(|&i| self.options[i].choices.iter().filter_map(Value::from_json).collect()).collect();
        let as_json: Vec<Vec<serde_json::Value>> = read.iter().map(|&i| self.options[i].choices.iter().filter(|c| Value::from_json(c).is_some()).cloned().collect()).collect();
        let combinations: usize = choices.iter().map(|c| c.len().max(1)).product();
        for k in 0..combinations.min(4096) {
            let (mut options, mut rest, mut chosen) = (defaults.clone(), k, BTreeMap::new());
            for (j, &i) in read.iter().enumerate() {
                let n = choices[j].len().max(1);
                if let Some(v) = choices[j].get(rest % n) {
                    options[i] = v.clone();
                    if as_json[j][rest % n] != self.options[i].default {
                        chosen.insert(self.options[i].name.clone(), as_json[j][rest % n].clone());
                    }
                }
                rest /= n;
            }
            match eval(&e, &Chosen(&options)) {
                Ok(Value::Bool(b)) => {
                    // The first choice of the options that makes the pack the other one, for the
                    // descriptions to name.
                    if b != at_default && !differs {
                        self.fool_other_way = chosen;
                    }
                    differs |= b != at_default
                }
                _ => {
                    self.err_at(st, "the condition of `fool \"name\" trump = condition` must be yes or no for every choice of the options it reads");
                    return true;
                }
            }
        }
        self.fool_trump_when = Some((e, self.clause(st, "pack.fool"), differs));
        self.fool_trump_fixed.unwrap_or(at_default)
    }

    /// The pack's trumps: how many (`trumps N`), the Fool as the top one (`fool "name" trump`: the
    /// card T(N+1), which records may write `EX`), their order of strength (`trump-order`, high to
    /// low; by number without it), their names (`trump-name`), tied trumps (`tie`) and the other codes
    /// records may use (`code`).
    #[allow(clippy::too_many_arguments)]
    fn trumps_of_pack(&mut self, pack: &mut Pack, count: u8, fool_trump: Option<&Stmt>, order: Option<&Stmt>, names: &[&Stmt], ties: &[&Stmt], codes: &[&Stmt]) {
        let mut top = count;
        if let Some(st) = fool_trump {
            if count == 0 || count >= MAX_TRUMPS {
                self.err_at(st, format!("the Fool as a trump ranks above the pack's trumps, so it needs `trumps N` with N from 1 to {}", MAX_TRUMPS - 1));
            } else {
                top = count + 1;
                let top_card = Card::trump(top);
                pack.trump_names.resize(top as usize + 1, String::new());
                pack.trump_names[top as usize] = pack.fool_name.clone();
                pack.aliases.push(("EX".into(), top_card));
            }
        }
        let trumps: Vec<Card> = (1..=top).map(Card::trump).collect();
        pack.cards = pack.cards.or(trumps.iter().copied().collect());
        self.pack_trumps = Some(pack.trumps());
        for st in codes {
            for pair in st.args.chunks(2) {
                let [alias, card] = pair else {
                    self.err_at(st, "`code` takes pairs of a code records may write and the card it is: `code SKUS T22`");
                    continue;
                };
                if let Some(c) = Card::parse(&alias.text).or_else(|| pack.aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(&alias.text)).map(|(_, c)| *c)) {
                    self.err(&st.file, alias.pos, format!("`{}` is already the code of {c}: a pack's own code must not read as another card", alias.text));
                    continue;
                }
                match pack.parse_card(&card.text).filter(|c| pack.cards.contains(*c)) {
                    Some(c) => pack.aliases.push((alias.text.clone(), c)),
                    None => self.err(&st.file, card.pos, format!("`{}` is not a card of this pack", card.text)),
                }
            }
        }
        self.pack_aliases = pack.aliases.clone();
        let mut named = CardSet::EMPTY;
        for st in names {
            for pair in st.args.chunks(2) {
                match (pack.parse_card(&pair[0].text).filter(|c| c.is_trump() && pack.cards.contains(*c)), pair.get(1)) {
                    (Some(c), Some(_)) if named.contains(c) => self.err(&st.file, pair[0].pos, format!("trump `{}` is named twice", pair[0].text)),
                    (Some(c), Some(name)) => {
                        named.insert(c);
                        let crate::cards::Kind::Trump(n) = c.kind() else { continue };
                        if pack.trump_names.len() <= n as usize {
                            pack.trump_names.resize(n as usize + 1, String::new());
                        }
                        pack.trump_names[n as usize] = name.text.clone();
                    }
                    _ => self
                        .err_at(st, format!("`trump-name` takes pairs of a trump of the pack and its name: `trump-name T20 \"the Angel\"`; `{}` is not such a pair", pair[0].text)),
                }
            }
        }
        // High to low.
        let mut ranked: Vec<Card> = trumps.iter().rev().copied().collect();
        if let Some(st) = order {
            let mut listed: Vec<Card> = vec![];
            for w in &st.args {
                match pack.parse_card(&w.text).filter(|c| trumps.contains(c)) {
                    Some(c) if listed.contains(&c) => self.err(&st.file, w.pos, format!("`{}` is listed twice", w.text)),
                    Some(c) => listed.push(c),
                    None => self.err(&st.file, w.pos, format!("`{}` is not a trump of this pack", w.text)),
                }
            }
            let missing: Vec<String> = trumps.iter().filter(|c| !listed.contains(c)).map(|c| pack.trump_name(*c)).collect();
            if !missing.is_empty() {
                self.err_at(st, format!("`trump-order` lists every trump of the pack, high to low; it leaves out {}", missing.join(", ")));
            }
            ranked = listed;
        }
        for (i, c) in ranked.iter().enumerate() {
            pack.strength[c.0 as usize] = (ranked.len() - i) as u8;
        }
        let mut already_tied = CardSet::EMPTY;
        for st in ties {
            let (cards, how) = match st.args.split_last() {
                Some((how, cards)) if how.quoted => (cards, how.text.as_str()),
                _ => (&st.args[..], ""),
            };
            let later = match how {
                "later-wins" => true,
                "first-wins" => false,
                _ => {
                    self.err_at(st, "`tie` names trumps of equal strength and which of them wins a trick: `tie T17 T18 T19 T20 \"later-wins\"` or `\"first-wins\"`");
                    continue;
                }
            };
            let tied: Vec<Card> = cards
                .iter()
                .filter_map(|w| {
                    pack.parse_card(&w.text).filter(|c| trumps.contains(c)).or_else(|| {
                        self.err(&st.file, w.pos, format!("`{}` is not a trump of this pack", w.text));
                        None
                    })
                })
                .collect();
            let mut places: Vec<usize> = tied.iter().filter_map(|c| ranked.iter().position(|r| r == c)).collect();
            places.sort_unstable();
            places.dedup();
            if places.len() < 2 || places.len() != tied.len() || places[places.len() - 1] - places[0] + 1 != places.len() {
                self.err_at(st, "tied trumps are two or more different trumps next to each other in the order of strength");
                continue;
            }
            let top_strength = pack.strength[ranked[places[0]].0 as usize];
            for c in &tied {
                if already_tied.contains(*c) {
                    self.err_at(st, format!("{} is already tied", pack.trump_name(*c)));
                }
                already_tied.insert(*c);
                pack.strength[c.0 as usize] = top_strength;
                if later {
                    pack.later_wins.insert(*c);
                }
            }
        }
    }

    fn ranks(&mut self, st: &Stmt, words: &[Word]) -> Vec<u8> {
        let mut out = vec![];
        for w in words {
            match RANK_CODES.iter().position(|r| *r == w.text) {
                Some(r) if !out.contains(&(r as u8 + 1)) => out.push(r as u8 + 1),
                Some(_) => self.err(&st.file, w.pos, format!("rank `{}` is listed twice", w.text)),
                None => self.err(&st.file, w.pos, format!("unknown rank `{}`; ranks are K Q C J 10 9 8 7 6 5 4 3 2 1", w.text)),
            }
        }
        out
    }

    fn class(&mut self, s: &Stmt, pack: &Pack) {
        let Some(name) = s.args.first().map(|w| w.text.clone()) else {
            self.err_at(s, "a class is written `class NAME [\"label\"] = cards`");
            return;
        };
        if self.classes.iter().any(|c| c.name == name) {
            self.err_at(s, format!("class `{name}` is defined twice"));
        }
        let label = s.args.get(1).map(|w| w.text.clone());
        if Card::parse(&name).is_some() || ["trumps", "none", "yes", "no", "true", "false"].contains(&name.as_str()) {
            self.err_at(s, format!("`{name}` reads as a card or a built-in name; give the class another name"));
        }
        match self.class_value(s, pack) {
            Some(cards) => {
                let clause = self.clause(s, format!("class.{name}"));
                self.classes.push(Class { name, label, cards, clause });
            }
            None => {
                self.failed.insert(name);
            }
        }
    }

    fn class_value(&mut self, s: &Stmt, pack: &Pack) -> Option<CardSet> {
        let e = self.value(s, Ctx::Class)?;
        match e {
            Expr::Const(Value::Cards(c)) => {
                let outside = c.minus(pack.cards);
                if !outside.is_empty() {
                    let names: Vec<String> = outside.iter().map(|c| c.to_string()).collect();
                    self.err_at(s, format!("cards not in this ruleset's pack: {}", names.join(" ")));
                }
                Some(c.and(pack.cards))
            }
            _ => {
                self.err_at(s, "this must be a set of cards (card codes, classes, rank(K), suit(D), trumps, joined with + and -)");
                None
            }
        }
    }

    fn value(&mut self, s: &Stmt, ctx: Ctx) -> Option<Expr> {
        match &s.value {
            Some(a) => self.expr(&s.file.clone(), a, ctx),
            None => {
                self.err_at(s, format!("`{}` needs a value: the statement ends with `= ...`", s.key));
                None
            }
        }
    }

    /// A statement's value that must be yes or no; a constant of another kind is refused here rather
    /// than when a game is set up.
    fn condition(&mut self, s: &Stmt, ctx: Ctx) -> Option<Expr> {
        let e = self.value(s, ctx)?;
        if let Expr::Const(v) = &e {
            if !matches!(v, Value::Bool(_)) {
                self.err_at(s, format!("`{}` takes a condition, yes or no (`= option.NAME == \"yes\"`), not {}", s.key, v.type_name()));
                return None;
            }
        }
        Some(e)
    }

    /// A setting that must give one of `texts`: checked here when it is a text or an option (each of
    /// the option's choices), rather than when a game is set up.
    fn setting(&mut self, s: &Stmt, texts: &[&str]) -> Option<Expr> {
        self.setting_in(s, texts, Ctx::Setup)
    }

    /// `setting` in the given context (`Ctx::AfterAuction` for the fool's settings).
    fn setting_in(&mut self, s: &Stmt, texts: &[&str], ctx: Ctx) -> Option<Expr> {
        let e = self.value(s, ctx)?;
        let given: Vec<serde_json::Value> = match &e {
            Expr::Const(Value::Str(t)) => vec![t.to_string().into()],
            Expr::Const(v) => vec![serde_json::Value::String(format!("({})", v.type_name()))],
            Expr::Opt(i) => self.options[*i].choices.clone(),
            _ => vec![],
        };
        for g in given {
            if !g.as_str().is_some_and(|t| texts.contains(&t)) {
                let list: Vec<String> = texts.iter().map(|t| format!("\"{t}\"")).collect();
                self.err_at(s, format!("`{}` is one of {}, not {g}", s.key, list.join(", ")));
                return None;
            }
        }
        Some(e)
    }

    /// A statement's value with its clause, the rule named `block.key`.
    fn stated(&mut self, st: &Stmt, ctx: Ctx, block: &str) -> Option<(Expr, Clause)> {
        let e = self.value(st, ctx)?;
        Some((e, self.clause(st, format!("{block}.{}", st.key))))
    }

    fn let_stmt(&mut self, s: &Stmt, ctx: Ctx, what: &str) -> Option<Let> {
        let name = s.args.first().map(|w| w.text.clone());
        let expr = self.value(s, ctx);
        if let Some(n) = &name {
            let taken = if Card::parse(n).is_some() {
                Some("a card code")
            } else if self.classes.iter().any(|c| &c.name == n) {
                Some("a card class")
            } else if self.lets.contains(n) || self.score_lets.contains(n) {
                Some("another `let`")
            } else if FACTS.iter().any(|(f, _)| f == n) {
                Some("a name the engine provides")
            } else {
                None
            };
            if let Some(what) = taken {
                self.err_at(s, format!("`{n}` is already the name of {what}; give this value another name"));
            }
        }
        match (name, expr) {
            (Some(name), Some(expr)) => {
                let clause = self.clause(s, format!("{what}.{name}"));
                Some(Let { name: name.into(), expr, clause, per_player: false })
            }
            (None, _) => {
                self.err_at(s, format!("`{what}` needs a name: `{what} NAME = ...`"));
                None
            }
            (Some(name), None) => {
                self.failed.insert(name);
                None
            }
        }
    }

    /// `match { deals = N; target = N }`: setup formulas, each a positive number where it is a
    /// constant; at least one of the two, since a match with neither would never end.
    fn game_match(&mut self, s: &Stmt) -> Option<Match> {
        let mut m = Match { deals: None, target: None, clause: self.clause(s, "match") };
        for st in s.block.iter().flatten() {
            let slot = match st.key.as_str() {
                "deals" => &mut m.deals,
                "target" => &mut m.target,
                other => {
                    self.err_at(st, format!("unknown match statement `{other}`; expected deals or target"));
                    continue;
                }
            };
            let Some(e) = self.value(st, Ctx::Setup) else { continue };
            if let Expr::Const(v) = &e {
                let whole = matches!(v, Value::Num(q) if q.is_integer() && *q > Q::ZERO);
                let positive = matches!(v, Value::Num(q) if *q > Q::ZERO);
                if (st.key == "deals" && !whole) || !positive {
                    let what = if st.key == "deals" { "a whole number of deals, 1 or more" } else { "a number of points above 0" };
                    self.err_at(st, format!("`{}` is {what}, not {v:?}", st.key));
                    continue;
                }
            }
            *slot = Some((e, self.clause(st, format!("match.{}", st.key))));
        }
        // A `deals` or `target` that failed is reported where it is written, not again here.
        let written = s.block.iter().flatten().any(|st| matches!(st.key.as_str(), "deals" | "target"));
        if !written {
            self.err_at(s, "a match ends after a number of deals or when a player's total reaches a target: give `deals = N`, `target = N`, or both");
        }
        (m.deals.is_some() || m.target.is_some()).then_some(m)
    }

    /// Counters whose cards follow options: tried here with every choice of the options they read, so
    /// that every game has a table of values (cards of the pack, one value each), and kept in
    /// `Counting::by_option` for each game to add.
    fn counters_by_option(&mut self, c: &mut Counting, counters: Vec<(u8, Expr, Vec<usize>, &Stmt)>, pack: &Pack) {
        if counters.is_empty() {
            return;
        }
        let read: Vec<usize> = counters.iter().flat_map(|(_, _, r, _)| r.iter().copied()).collect::<BTreeSet<usize>>().into_iter().collect();
        let Some(combinations) = self.each_choice(&read) else {
            let (_, _, _, st) = &counters[0];
            self.err_at(st, "the counters follow options with more than 4096 choices together, which cannot all be checked");
            return;
        };
        for (options, with) in combinations {
            let mut values = c.values;
            for (v, e, _, st) in &counters {
                match eval(e, &Chosen(&options)) {
                    Ok(Value::Cards(set)) => {
                        let outside = set.minus(pack.cards);
                        if !outside.is_empty() {
                            let names: Vec<String> = outside.iter().map(|c| c.to_string()).collect();
                            self.err_at(st, format!("with {with}: cards not in this ruleset's pack: {}", names.join(" ")));
                            return;
                        }
                        for card in set.iter() {
                            if values[card.0 as usize] != 0 {
                                self.err_at(st, format!("with {with}: {card} already has a value"));
                                return;
                            }
                            values[card.0 as usize] = *v;
                        }
                    }
                    Ok(other) => {
                        self.err_at(st, format!("with {with}: this must be a set of cards, not {}", other.type_name()));
                        return;
                    }
                    Err(_) => {
                        self.err_at(st, "a counter's cards may follow options, and nothing else of the game (players, `let`s, the deal)");
                        return;
                    }
                }
            }
        }
        c.by_option = counters.into_iter().map(|(v, e, _, st)| (v, e, self.clause(st, "counting"))).collect();
    }

    /// A setting's formula (`Ctx::Setup`: options, constants, the table) compiled, with the options
    /// it reads, which also count as read by the file.
    fn setting_and_options_read(&mut self, st: &Stmt) -> (Option<Expr>, Vec<usize>) {
        let before = std::mem::take(&mut self.opts_read);
        let e = self.value(st, Ctx::Setup);
        let read: Vec<usize> = std::mem::replace(&mut self.opts_read, before).into_iter().collect();
        self.opts_read.extend(read.iter().copied());
        (e, read)
    }

    /// Every choice of the options `read` (the others at their defaults), the defaults first, each with
    /// the words that name it ("option.x = \"y\""); `None` past 4096 choices together.
    fn each_choice(&self, read: &[usize]) -> Option<Vec<(Vec<Value>, String)>> {
        let defaults: Vec<Value> = self.options.iter().map(|o| Value::from_json(&o.default).unwrap_or(Value::Bool(false))).collect();
        let choices: Vec<Vec<Value>> = read.iter().map(|&i| self.options[i].choices.iter().filter_map(Value::from_json).collect()).collect();
        let combinations: usize = choices.iter().map(|c| c.len().max(1)).product();
        if combinations > 4096 {
            return None;
        }
        let mut out = Vec::with_capacity(combinations);
        for k in 0..combinations {
            let (mut options, mut rest, mut said) = (defaults.clone(), k, vec![]);
            for (j, &i) in read.iter().enumerate() {
                let n = choices[j].len().max(1);
                if let Some(v) = choices[j].get(rest % n) {
                    options[i] = v.clone();
                    said.push(format!("option.{} = {}", self.options[i].name, self.options[i].choices[rest % n]));
                }
                rest /= n;
            }
            out.push((options, said.join(", ")));
        }
        Some(out)
    }

    /// `forbid "label" = formula of options`: cards that may never be discarded, following options
    /// (the Danish game forbids the honours, the Leipzig rules of 1754 only the kings). The formula
    /// must give a set of cards for every choice of the options it reads and read nothing else of the
    /// game; the class holds the default options' cards, and each game sets its own
    /// (`Settings::forbid`).
    fn forbid_following(&mut self, st: &Stmt, d: &mut Discard) {
        let (e, read) = self.setting_and_options_read(st);
        let Some(e) = e else { return };
        let Some(combinations) = self.each_choice(&read) else {
            self.err_at(st, "the forbidden cards follow options with more than 4096 choices together, which cannot all be checked");
            return;
        };
        let mut at_default = CardSet::EMPTY;
        for (k, (options, with)) in combinations.into_iter().enumerate() {
            match eval(&e, &Chosen(&options)) {
                Ok(Value::Cards(set)) if k == 0 => at_default = set,
                Ok(Value::Cards(_)) => {}
                Ok(other) => {
                    self.err_at(st, format!("with {with}: the forbidden cards must be a set of cards, not {}", other.type_name()));
                    return;
                }
                Err(_) => {
                    self.err_at(st, "the forbidden cards may follow options, and nothing else of the game (players, `let`s, the deal)");
                    return;
                }
            }
        }
        let label = st.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "these cards".into());
        d.forbid_by_option.push((d.forbid.len(), e));
        d.forbid.push(CardClass { cards: at_default, label, clause: self.clause(st, "discard.forbid") });
    }

    /// `hold = formula of options`: the hold's kind following options, "forehand" or "seniority" for
    /// every choice of the options it reads (and it must read one).
    fn hold_following(&mut self, st: &Stmt) -> Option<Expr> {
        let (e, read) = self.setting_and_options_read(st);
        let e = e?;
        if read.is_empty() {
            self.err_at(st, "`hold = formula` is for a hold that follows options, and this formula reads none: write `hold forehand` or `hold seniority`");
            return None;
        }
        let Some(combinations) = self.each_choice(&read) else {
            self.err_at(st, "the hold follows options with more than 4096 choices together, which cannot all be checked");
            return None;
        };
        for (options, with) in combinations {
            match eval(&e, &Chosen(&options)) {
                Ok(Value::Str(w)) if &*w == "forehand" || &*w == "seniority" => {}
                Ok(other) => {
                    let not = if let Value::Str(w) = &other { format!("\"{w}\"") } else { other.type_name().to_string() };
                    self.err_at(st, format!("with {with}: `hold = formula` must give \"forehand\" or \"seniority\", not {not}"));
                    return None;
                }
                Err(_) => {
                    self.err_at(st, "the hold may follow options, and nothing else of the game (players, `let`s, the deal)");
                    return None;
                }
            }
        }
        Some(e)
    }

    /// `form` (`compulsory = condition`, `in-turn from dealer = condition`): a condition that may read
    /// the options and nothing else of the game, tried under every choice of the options it reads,
    /// each giving true or false. `none` is said when it reads no option (write the plain form).
    fn condition_of_options(&mut self, st: &Stmt, form: &str, none: &str) -> Option<Expr> {
        let (e, read) = self.setting_and_options_read(st);
        let Some(e) = e.filter(|_| !read.is_empty()) else {
            self.err_at(st, format!("`{form}` is for a rule that follows options, and this condition reads none: {none}"));
            return None;
        };
        let Some(combinations) = self.each_choice(&read) else {
            self.err_at(st, format!("`{form}` follows options with more than 4096 choices together, which cannot all be checked"));
            return None;
        };
        for (options, with) in combinations {
            match eval(&e, &Chosen(&options)) {
                Ok(Value::Bool(_)) => {}
                Ok(other) => {
                    self.err_at(st, format!("with {with}: `{form}` must be true or false, not {}", other.type_name()));
                    return None;
                }
                Err(_) => {
                    self.err_at(st, format!("`{form}` may follow options, and nothing else of the game (players, hands, `let`s, the deal)"));
                    return None;
                }
            }
        }
        Some(e)
    }

    /// `group = formula`: the group size following options (counted singly or in threes). The
    /// formula must read an option and give a whole number from 1 to 6 for every choice of the options
    /// it reads (1 under all of them with `empty 0`); `group` holds the size of the default options.
    fn group_following(&mut self, c: &mut Counting, st: &Stmt, empty_zero: bool) {
        let (e, read) = self.setting_and_options_read(st);
        let Some(e) = e else { return };
        if read.is_empty() {
            self.err_at(st, "`group = formula` is for a group size that follows options, and this formula reads none: write `group N`");
            return;
        }
        let Some(combinations) = self.each_choice(&read) else {
            self.err_at(st, "the group follows options with more than 4096 choices together, which cannot all be checked");
            return;
        };
        for (k, (options, with)) in combinations.into_iter().enumerate() {
            let g = match eval(&e, &Chosen(&options)) {
                Ok(Value::Num(n)) if n.is_integer() && (1..=6).contains(&n.numer()) => n.numer() as u32,
                Ok(other) => {
                    self.err_at(st, format!("with {with}: `group = formula` must give a whole number of cards from 1 to 6, not {}", other.type_name()));
                    return;
                }
                Err(_) => {
                    self.err_at(st, "the group size may follow options, and nothing else of the game (players, `let`s, the deal)");
                    return;
                }
            };
            if g != 1 && empty_zero {
                self.err_at(st, format!("with {with}: groups of {g}, but `empty 0` counts cards one by one and needs groups of one under every choice"));
                return;
            }
            if k == 0 {
                // The first combination is every read option at its default.
                c.group = g;
            }
        }
        c.group_by_option = Some((e, self.clause(st, "counting.group")));
    }

    fn counting(&mut self, s: Option<&Stmt>, pack: &Pack) -> Counting {
        let mut c = Counting {
            group: 1,
            values: [0; PACK_SIZE],
            counters: vec![],
            empty_zero: false,
            by_option: vec![],
            group_by_option: None,
            surplus: Surplus::Exact,
            short_packet: ShortPacket::OverHalf,
            clause: Clause { rule: "counting".into(), at: "".into(), source: None, source_file: None },
        };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `counting { ... }` section: how are card points counted?");
            return c;
        };
        c.clause = self.clause(s, "counting");
        let mut short_packet = None;
        let mut empty_at = None;
        let mut by_option: Vec<(u8, Expr, Vec<usize>, &Stmt)> = vec![];
        let mut group_formula = None;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "group" if st.value.is_some() => {
                    if !st.args.is_empty() {
                        self.err_at(st, "`group` is written `group N` or `group = formula of options`, not both");
                    } else {
                        group_formula = Some(st);
                    }
                }
                "group" => match st.args.first().and_then(|w| w.text.parse::<u32>().ok()) {
                    Some(g) if (1..=6).contains(&g) => c.group = g,
                    _ => self.err_at(st, "`group N`: cards are counted in groups of N (1 to 6)"),
                },
                "counter" => {
                    let Some(v) = st.args.first().and_then(|w| w.text.parse::<u8>().ok()).filter(|v| *v > 0) else {
                        let w = st.args.first().map_or("", |w| w.text.as_str());
                        let why = if w == "0" {
                            "cards that no counter lists are already empty".to_string()
                        } else {
                            format!("`{w}` is not a whole number of points; V is written as a number from 1 to 255, fixed when the rules are compiled (it cannot be a formula or follow an option: write one `counter` per value, and an option on the cards with a class)")
                        };
                        self.err_at(st, format!("`counter V = cards` gives the cards worth V points in a group: {why}"));
                        continue;
                    };
                    // Options the formula reads make it a counter that follows them.
                    let (e, read) = self.setting_and_options_read(st);
                    let fixed = match &e {
                        Some(e) if read.is_empty() => match eval(e, &NO_GAME) {
                            Ok(Value::Cards(set)) => Some(set),
                            _ => {
                                self.err_at(st, "this must be a set of cards (card codes, classes, rank(K), suit(D), trumps, joined with + and -), fixed or following options");
                                continue;
                            }
                        },
                        _ => None,
                    };
                    if let Some(set) = fixed {
                        let outside = set.minus(pack.cards);
                        if !outside.is_empty() {
                            let names: Vec<String> = outside.iter().map(|c| c.to_string()).collect();
                            self.err_at(st, format!("cards not in this ruleset's pack: {}", names.join(" ")));
                        }
                        for card in set.and(pack.cards).iter() {
                            if c.values[card.0 as usize] != 0 {
                                self.err_at(st, format!("{card} already has a value"));
                            }
                            c.values[card.0 as usize] = v;
                        }
                    } else if let Some(e) = e {
                        by_option.push((v, e, read, st));
                    }
                }
                "surplus" => {
                    c.surplus = match st.args.first().map(|w| w.text.as_str()) {
                        Some("exact") => Surplus::Exact,
                        Some("nearest") => Surplus::Nearest,
                        Some("packets") => Surplus::Packets,
                        _ => {
                            self.err_at(st, "`surplus` is `exact` (keep fractions), `nearest` (round each pile) or `packets` (the packet rules)");
                            continue;
                        }
                    }
                }
                "short-packet" => {
                    c.short_packet = match st.args.first().map(|w| w.text.as_str()) {
                        Some("over-half") => ShortPacket::OverHalf,
                        Some("sum-less-one") => ShortPacket::SumLessOne,
                        _ => {
                            self.err_at(st, "`short-packet` is `over-half` (the Marolles rule) or `sum-less-one` (a short packet counts as a full one)");
                            continue;
                        }
                    };
                    short_packet = Some(st);
                }
                "empty" => match st.args.first().map(|w| w.text.as_str()) {
                    Some("0") => {
                        c.empty_zero = true;
                        empty_at = Some(st);
                    }
                    _ => self.err_at(st, "`empty 0` makes the cards no counter lists worth nothing; without it they are worth 1 in groups of one (1/N in groups of N)"),
                },
                other => self.err_at(st, format!("unknown counting statement `{other}`; expected group, counter, empty, surplus or short-packet")),
            }
        }
        if let Some(st) = group_formula {
            self.group_following(&mut c, st, empty_at.is_some());
        }
        if let Some(st) = short_packet.filter(|_| c.surplus != Surplus::Packets) {
            self.err_at(st, "`short-packet` says how `surplus packets` counts a short last packet; without `surplus packets` there are no packets, so it would be ignored");
        }
        if let Some(st) = empty_at.filter(|_| c.group != 1 || c.surplus == Surplus::Packets) {
            self.err_at(st, "`empty 0` counts cards one by one, each at its counter's value: it needs `group 1` (the default) and no `surplus packets`");
        }
        c.counters = crate::replay::counters_of(&c.values);
        self.counters_by_option(&mut c, by_option, pack);
        c
    }

    fn players(&mut self, s: Option<&Stmt>) -> ((usize, usize), Clause) {
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset does not say how many play: `players 4` or `players 2..6`");
            return ((0, 0), Clause { rule: "players".into(), at: "".into(), source: None, source_file: None });
        };
        let text = s.args.first().map(|w| w.text.clone()).unwrap_or_default();
        let range = match text.split_once("..") {
            Some((a, b)) => a.parse().ok().zip(b.parse().ok()),
            None => text.parse().ok().map(|n| (n, n)),
        };
        let clause = self.clause(s, "players");
        match range {
            Some((a, b)) if (2..=8).contains(&a) && a <= b && b <= 8 => ((a, b), clause),
            _ => {
                self.err_at(s, format!("`players {text}`: give a number of players (2 to 8) or a range like 2..6"));
                ((0, 0), clause)
            }
        }
    }

    fn deal(&mut self, s: Option<&Stmt>) -> Deal {
        let blank = |clause| Deal {
            hand: Expr::Const(Value::Num(Q::ZERO)),
            dealer: None,
            dog: None,
            cut: None,
            piles: None,
            packets: None,
            dealer_packets: None,
            dog_packets: None,
            dog_apart: None,
            dog_after: None,
            requires: vec![],
            clause,
        };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `deal { ... }` section");
            return blank(Clause { rule: "deal".into(), at: "".into(), source: None, source_file: None });
        };
        let mut d = blank(self.clause(s, "deal"));
        self.settings(s);
        let (mut piles, mut pile_size) = (None, None);
        let mut dog_after = None;
        let mut has_hand = false;
        let mut dealer_packets = None;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "hand" => {
                    has_hand = true;
                    d.hand = self.value(st, Ctx::Setup).unwrap_or(Expr::Const(Value::Num(Q::ZERO)));
                }
                "dealer" => d.dealer = self.value(st, Ctx::Setup),
                "dog" => d.dog = self.value(st, Ctx::Setup),
                "cut" => d.cut = Some(self.clause(st, "deal.cut")),
                "piles" => piles = self.value(st, Ctx::Setup),
                "pile_size" => pile_size = self.value(st, Ctx::Setup),
                "packets" => d.packets = self.stated(st, Ctx::Setup, "deal"),
                "dealer_packets" => {
                    dealer_packets = Some(st);
                    d.dealer_packets = self.stated(st, Ctx::Setup, "deal");
                }
                "dog_packets" => d.dog_packets = self.stated(st, Ctx::Setup, "deal"),
                "dog_apart" => d.dog_apart = self.stated(st, Ctx::Setup, "deal"),
                "dog_after" => dog_after = Some(st),
                "require" => {
                    let label = st.args.first().map(|w| w.text.clone()).unwrap_or_default();
                    if let Some(e) = self.condition(st, Ctx::Dealt) {
                        let rule = format!("deal.require.{}", d.requires.len() + 1);
                        d.requires.push((label, e, self.clause(st, rule)));
                    }
                }
                other => self.err_at(
                    st,
                    format!("unknown deal statement `{other}`; expected hand, dealer, dog, cut, piles, pile_size, packets, dealer_packets, dog_packets, dog_apart, dog_after or require"),
                ),
            }
        }
        match (piles, pile_size) {
            (Some(a), Some(b)) => d.piles = Some((a, b)),
            (None, None) => {}
            _ => self.err_at(s, "`piles` (how many before each player) and `pile_size` (cards in each) go together"),
        }
        if !has_hand {
            self.err_at(s, "the deal needs `hand = N`, the number of cards each player receives");
        }
        if let (Some(st), None) = (dealer_packets, &d.packets) {
            self.err_at(st, "`dealer_packets` (the dealer's packets, when they differ from the others') needs `packets`");
        }
        if let Some(st) = dog_after {
            match &d.packets {
                Some(_) => d.dog_after = self.stated(st, Ctx::Setup, "deal"),
                None => self.err_at(st, "`dog_after` (after how many rounds of packets the dog is dealt) needs `packets`"),
            }
        }
        d
    }

    fn annulment(&mut self, s: &Stmt) -> Option<Annulment> {
        let Some(name) = s.args.first().map(|w| w.text.clone()) else {
            self.err_at(s, "an annulment is written `annul NAME \"what happened\" = condition`");
            return None;
        };
        let label = s.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
        let when = self.value(s, Ctx::Hand)?;
        Some(Annulment { clause: self.clause(s, format!("annul.{name}")), name, label, when })
    }

    fn bidding(&mut self, s: &Stmt) -> Bidding {
        let mut b = Bidding {
            turns: Turns::Once,
            turns_clause: self.clause(s, "bidding"),
            contracts: vec![],
            all_pass: None,
            all_pass_play: None,
            reserve: None,
            hold: None,
            hold_by: None,
            no_reraise: None,
            must_bid: vec![],
            first_turn: None,
            step: None,
            instead: vec![],
        };
        let mut must_bids = vec![];
        let mut insteads = vec![];
        let mut listed = vec![];
        let mut all_pass_play = None;
        // The contracts of the block, in order, which a `by` condition's `bid_before` may name.
        let contract_names: Vec<String> = s.block.iter().flatten().filter(|st| st.key == "contract").filter_map(|st| st.args.first().map(|w| w.text.clone())).collect();
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "turns" => {
                    b.turns = match st.args.first().map(|w| w.text.as_str()) {
                        Some("once") => Turns::Once,
                        Some("until-one-left") => Turns::UntilOneLeft,
                        Some("rounds") => Turns::Rounds,
                        _ => {
                            self.err_at(
                                st,
                                "`turns once` (each player speaks once), `turns until-one-left` (bidding with immediate hold: the player outbid answers at once or leaves) \
                                 or `turns rounds` (round and round until one is left; a pass is final)",
                            );
                            Turns::Once
                        }
                    };
                    b.turns_clause = self.clause(st, "bidding.turns");
                }
                "reserve" => {
                    let (Some(name), Some(contracts)) = (st.args.first().map(|w| w.text.clone()), self.value(st, Ctx::Setup)) else {
                        self.err_at(st, "a reserving bid is written `reserve NAME \"label\" = [contract names allowed in the second round]`");
                        continue;
                    };
                    let label = st.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
                    b.reserve = Some(Reserve { clause: self.clause(st, format!("bidding.reserve.{name}")), name, label, contracts });
                }
                "contract" => {
                    let Some(name) = st.args.first().map(|w| w.text.clone()) else {
                        self.err_at(st, "a contract is written `contract NAME \"label\" { attribute = value ... }`");
                        continue;
                    };
                    let label = st.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
                    let mut attrs = vec![];
                    let mut by = None;
                    let mut settle = None;
                    for a in st.block.iter().flatten() {
                        if a.key == "settle" {
                            if let Some(e) = self.value(a, Ctx::AfterAuction) {
                                if let Expr::Const(v) = &e {
                                    if !matches!(v, Value::Num(_)) {
                                        self.err_at(a, format!("`settle` is the amount each opponent pays the taker, a number, not {}", v.type_name()));
                                    }
                                }
                                settle = Some((e, self.clause(a, format!("bidding.contract.{name}.settle"))));
                            }
                            continue;
                        }
                        if a.key == "by" {
                            if by.is_some() {
                                self.err_at(a, format!("contract `{name}` says `by` twice: join the conditions with `and`"));
                            }
                            let who = a.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "a player who meets its condition".into());
                            self.by_contracts = Some(contract_names.clone());
                            let when = self.condition(a, Ctx::Hand);
                            self.by_contracts = None;
                            if let Some(when) = when {
                                by = Some(By { label: who, when, clause: self.clause(a, format!("bidding.contract.{name}.by")) });
                            }
                            continue;
                        }
                        if let Some(e) = self.value(a, Ctx::Setup) {
                            if a.key == "dog" && !matches!(&e, Expr::Const(Value::Str(d)) if ["taker", "taker-unseen", "defence"].contains(&d.as_ref())) {
                                self.err_at(a, "a contract's `dog` is \"taker\" (shown, taken, discarded), \"taker-unseen\" or \"defence\"");
                            }
                            attrs.push((a.key.clone(), e));
                        }
                    }
                    if !attrs.iter().any(|(k, _)| k == "dog") {
                        self.err_at(st, format!("contract `{name}` does not say what becomes of the dog: `dog = \"taker\"`"));
                    }
                    b.contracts.push(Contract { clause: self.clause(st, format!("bidding.contract.{name}")), name, label, attrs, by, settle });
                }
                "all-pass" => {
                    b.all_pass = Some(self.clause(st, "bidding.all-pass"));
                    if let (Some("play"), Some(name)) = (st.args.first().map(|w| w.text.as_str()), st.args.get(1)) {
                        all_pass_play = Some((st, name.text.clone()));
                    }
                }
                "hold" if st.value.is_some() => {
                    if !st.args.is_empty() {
                        self.err_at(st, "`hold` is written `hold forehand`, `hold seniority` or `hold = formula of options`, not a word and a formula");
                    } else if let Some(e) = self.hold_following(st) {
                        b.hold = Some(self.clause(st, "bidding.hold"));
                        b.hold_by = Some(e);
                    }
                }
                "hold" => match st.args.first().map(|w| w.text.as_str()) {
                    Some("forehand") => b.hold = Some(self.clause(st, "bidding.hold")),
                    Some("seniority") => {
                        b.hold = Some(self.clause(st, "bidding.hold"));
                        b.hold_by = Some(Expr::Const(Value::Str("seniority".into())));
                    }
                    _ => self.err_at(
                        st,
                        "`hold forehand` is the only form in which forehand alone may bid the contract another player holds; `hold seniority` lets each player bid the contract of a player after him in turn",
                    ),
                },
                "no-reraise" => b.no_reraise = Some(self.clause(st, "bidding.no-reraise")),
                "first-turn" | "step" => listed.push(st),
                "must-bid" => {
                    let Some(name) = st.args.first().map(|w| w.text.clone()) else { continue };
                    let label = st.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| format!("a hand that must bid {name}"));
                    if let Some(when) = self.value(st, Ctx::Hand) {
                        must_bids.push((st, name, label, when));
                    }
                }
                "instead" => {
                    let (Some(won), Some(chosen)) = (st.args.first().map(|w| w.text.clone()), st.args.get(1).map(|w| w.text.clone())) else { continue };
                    let label = st.args.get(2).map(|w| w.text.clone()).unwrap_or_else(|| format!("the winner with {won}"));
                    if let Some(when) = self.value(st, Ctx::Hand) {
                        insteads.push((st, won, chosen, label, when));
                    }
                }
                other => self.err_at(
                    st,
                    format!("unknown bidding statement `{other}`; expected turns, contract, reserve, all-pass, hold, no-reraise, must-bid, first-turn, step or instead"),
                ),
            }
        }
        // A forced bid names a contract of the block, wherever it is written in it.
        for (st, name, label, when) in must_bids {
            match b.contracts.iter().position(|c| c.name == name) {
                Some(contract) => b.must_bid.push(MustBid { contract, label, when, clause: self.clause(st, format!("bidding.must-bid.{name}")) }),
                None => {
                    let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
                    self.err_at(st, format!("`must-bid {name}`: there is no contract `{name}`; the contracts are {}", known.join(", ")));
                }
            }
        }
        // `first-turn` and `step` name contracts of the block, each once; a step's, lowest first.
        for st in listed {
            let mut cs = vec![];
            for w in &st.args {
                match b.contracts.iter().position(|c| c.name == w.text) {
                    Some(c) if cs.contains(&c) => self.err_at(st, format!("`{}` names contract `{}` twice", st.key, w.text)),
                    Some(c) if st.key == "step" && cs.last().is_some_and(|&l| l > c) => {
                        self.err_at(st, format!("`step` lists its contracts lowest first, as the block does: `{}` comes before `{}`", w.text, b.contracts[cs[cs.len() - 1]].name))
                    }
                    Some(c) => cs.push(c),
                    None => {
                        let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
                        self.err_at(st, format!("`{} {}`: there is no contract `{}`; the contracts are {}", st.key, w.text, w.text, known.join(", ")));
                    }
                }
            }
            let rule = format!("bidding.{}", st.key);
            if st.key == "step" {
                b.step = Some((cs, self.clause(st, rule)));
            } else {
                b.first_turn = Some((cs, self.clause(st, rule)));
            }
        }
        // The contract played when everyone passes has no taker: every player defends, so its dog
        // counts for nobody, and nobody may bid it.
        if let Some((st, name)) = all_pass_play {
            match b.contracts.iter().position(|c| c.name == name) {
                Some(c) => {
                    let dog = b.contracts[c].attrs.iter().find(|(k, _)| k == "dog").map(|(_, e)| e);
                    if !matches!(dog, Some(Expr::Const(Value::Str(d))) if d.as_ref() == "defence") {
                        self.err_at(st, format!("contract `{name}` is played with no taker, every player for himself: its dog must be `dog = \"defence\"` (it counts for nobody)"));
                    }
                    if b.must_bid.iter().any(|m| m.contract == c) {
                        self.err_at(st, format!("contract `{name}` is played when everyone passes, so no hand can be forced to bid it"));
                    }
                    if b.contracts[c].settle.is_some() {
                        self.err_at(st, format!("contract `{name}` is played when everyone passes, with no taker: it cannot be settled unplayed (`settle` pays the taker)"));
                    }
                    b.all_pass_play = Some(c);
                }
                None => {
                    let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
                    self.err_at(st, format!("`all-pass play {name}`: there is no contract `{name}`; the contracts are {}", known.join(", ")));
                }
            }
        }
        // A contract chosen in place of the one won (`instead`) is played with no taker, as the
        // all-pass contract is: its dog counts for nobody, and nobody bids it or is forced to.
        for (st, won, chosen, label, when) in insteads {
            let find = |name: &str| b.contracts.iter().position(|c| c.name == name);
            let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
            let (Some(w), Some(c)) = (find(&won), find(&chosen)) else {
                let missing = if find(&won).is_none() { &won } else { &chosen };
                self.err_at(st, format!("`instead {won} {chosen}`: there is no contract `{missing}`; the contracts are {}", known.join(", ")));
                continue;
            };
            let dog = b.contracts[c].attrs.iter().find(|(k, _)| k == "dog").map(|(_, e)| e);
            if w == c {
                self.err_at(st, format!("`instead {won} {chosen}` names the same contract twice: the winner chooses another contract in place of the one won"));
            } else if !matches!(dog, Some(Expr::Const(Value::Str(d))) if d.as_ref() == "defence") {
                self.err_at(st, format!("contract `{chosen}` is played with no taker, every player for himself: its dog must be `dog = \"defence\"` (it counts for nobody)"));
            } else if b.must_bid.iter().any(|m| m.contract == c) || b.all_pass_play == Some(c) || b.instead.iter().any(|i| i.won == c) {
                self.err_at(
                    st,
                    format!("contract `{chosen}` is chosen after the auction, not bid: no hand is forced to bid it, it is not played when all pass, and it is not won"),
                );
            } else if b.contracts[c].settle.is_some() {
                self.err_at(st, format!("contract `{chosen}` is played with no taker: it cannot be settled unplayed (`settle` pays the taker)"));
            } else if b.instead.iter().any(|i| i.won == w && i.chosen == c) {
                self.err_at(st, format!("`instead {won} {chosen}` is written twice"));
            } else {
                b.instead.push(Instead { won: w, chosen: c, label, when, clause: self.clause(st, format!("bidding.instead.{chosen}")) });
            }
        }
        if b.turns == Turns::Once {
            // Forehand speaks first and nobody speaks twice: nothing would ever be held or re-raised.
            for st in s.block.iter().flatten().filter(|st| st.key == "hold" || st.key == "no-reraise" || st.key == "first-turn") {
                self.err_at(
                    st,
                    format!("`{}` needs a bidding in which players speak again (`turns until-one-left` or `turns rounds`); with `turns once` it would never apply", st.key),
                );
            }
        }
        if b.contracts.is_empty() {
            self.err_at(s, "bidding needs at least one `contract`");
        }
        if b.reserve.is_some() && b.turns != Turns::Once {
            self.err_at(s, "a reserving bid needs `turns once`: its second round follows the first");
        }
        b
    }

    fn card_class(&mut self, st: &Stmt, rule: &str) -> Option<CardClass> {
        let pack_all = Pack { cards: CardSet::full(), ..self.dummy_pack() };
        let cards = self.class_value(st, &pack_all)?;
        let label = st.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "these cards".into());
        Some(CardClass { cards, label, clause: self.clause(st, rule) })
    }

    fn dummy_pack(&self) -> Pack {
        Pack {
            cards: CardSet::full(),
            suit_names: Default::default(),
            rank_names: Default::default(),
            fool_name: String::new(),
            trump_names: vec![],
            aliases: vec![],
            later_wins: CardSet::EMPTY,
            strength: [0; PACK_SIZE],
            reversible: None,
            clause: Clause { rule: "".into(), at: "".into(), source: None, source_file: None },
        }
    }

    fn partner_call(&mut self, s: &Stmt) -> Call {
        let mut c = Call { levels: vec![], clause: self.clause(s, "call"), opening_lead_excludes: None, callable_levels: None };
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "levels" => match self.value(st, Ctx::Class) {
                    Some(Expr::Const(Value::List(items))) => {
                        for item in items.iter() {
                            match item {
                                Value::Cards(set) => c.levels.push(*set),
                                _ => self.err_at(st, "`levels` is a list of card sets: `[rank(K), rank(Q), rank(C), rank(J)]`"),
                            }
                        }
                        c.clause = self.clause(st, "call.levels");
                    }
                    Some(_) => self.err_at(st, "`levels` is a list of card sets: `[rank(K), rank(Q), rank(C), rank(J)]`"),
                    None => {}
                },
                "opening-lead-excludes" => c.opening_lead_excludes = self.stated(st, Ctx::Called, "call"),
                "callable-levels" => c.callable_levels = self.stated(st, Ctx::AfterAuction, "call"),
                other => self.err_at(st, format!("unknown call statement `{other}`; expected levels, opening-lead-excludes or callable-levels")),
            }
        }
        if c.levels.is_empty() {
            self.err_at(s, "the call needs `levels = [...]`: which cards the taker may call");
        }
        c
    }

    fn discard(&mut self, s: &Stmt) -> Discard {
        let mut d = Discard {
            taker: None,
            dealer: None,
            others: None,
            clause: self.clause(s, "discard"),
            forbid: vec![],
            unless_unavoidable: None,
            penalize: None,
            requires: vec![],
            goes_to: None,
            forbid_by_option: vec![],
        };
        self.settings(s);
        let mut penalty = None;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "taker" => d.taker = self.value(st, Ctx::AfterAuction),
                "dealer" => d.dealer = self.value(st, Ctx::AfterAuction),
                "others" => d.others = self.value(st, Ctx::AfterAuction),
                "forbid" if st.value.as_ref().is_some_and(reads_option) => self.forbid_following(st, &mut d),
                "forbid" => d.forbid.extend(self.card_class(st, "discard.forbid")),
                "unless-unavoidable" => d.unless_unavoidable = self.card_class(st, "discard.unless-unavoidable"),
                "penalize" => d.penalize = self.card_class(st, "discard.penalize").map(|c| (c.clone(), Expr::Const(Value::Num(Q::ZERO)), c.clause)),
                "penalty" => penalty = self.stated(st, Ctx::Discard, "discard"),
                "require" => {
                    let label = st.args.first().map(|w| w.text.clone()).unwrap_or_default();
                    if let Some(e) = self.condition(st, Ctx::Discard) {
                        let rule = format!("discard.require.{}", d.requires.len() + 1);
                        d.requires.push((label, e, self.clause(st, rule)));
                    }
                }
                "goes-to" => {
                    // Evaluated at scoring, once the tricks are known, for each discarder (`player`).
                    if let Some(e) = self.value(st, Ctx::PerPlayer) {
                        let given = match &e {
                            Expr::Const(Value::Str(t)) => vec![t.to_string()],
                            Expr::Const(v) => vec![format!("({})", v.type_name())],
                            Expr::Opt(i) => self.options[*i].choices.iter().map(|c| c.as_str().map_or(format!("({c})"), str::to_string)).collect(),
                            _ => vec![],
                        };
                        match given.iter().find(|g| !["discarder", "opponents"].contains(&g.as_str())) {
                            Some(g) => self.err_at(st, format!("`goes-to` is \"discarder\" or \"opponents\", not {g}")),
                            None => d.goes_to = Some((e, self.clause(st, "discard.goes-to"))),
                        }
                    }
                }
                other => self
                    .err_at(st, format!("unknown discard statement `{other}`; expected taker, dealer, others, forbid, unless-unavoidable, penalize, penalty, require or goes-to")),
            }
        }
        match (&mut d.penalize, penalty) {
            (Some(p), Some((e, c))) => {
                p.1 = e;
                p.2 = c;
            }
            (None, Some(_)) | (Some(_), None) => self.err_at(s, "`penalize` (the cards) and `penalty` (what each opponent is paid) go together"),
            _ => {}
        }
        d
    }

    fn talon(&mut self, s: &Stmt) -> Talon {
        let mut t = Talon { packets: Expr::Const(Value::Num(Q::ONE)), rest: None, discard: None, given: None, unseen: None, clause: self.clause(s, "talon") };
        self.settings(s);
        let mut packets = false;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "packets" => {
                    packets = true;
                    t.packets = self.value(st, Ctx::AfterAuction).unwrap_or(t.packets);
                }
                "rest" => t.rest = self.setting_in(st, &["defence", "taker"], Ctx::AfterAuction),
                "discard" => t.discard = self.setting_in(st, &["after", "before"], Ctx::AfterAuction),
                "given" => {
                    // A packet's number: a constant is checked here, a formula when a game is set up.
                    match self.value(st, Ctx::AfterAuction) {
                        Some(Expr::Const(Value::Num(q))) if !q.is_integer() || q < Q::ZERO => {
                            self.err_at(st, format!("`given` is the number of a packet of the talon (1, 2, ...), not {q}"))
                        }
                        Some(Expr::Const(Value::Num(q))) if q == Q::ZERO => self.err_at(
                            st,
                            "`given = 0` leaves the taker his choice, as without it, so it would change nothing; remove it (0 is for a formula that gives no packet in some games)",
                        ),
                        Some(Expr::Const(v)) if !matches!(v, Value::Num(_)) => {
                            self.err_at(st, format!("`given` is the number of a packet of the talon (1, 2, ...), not {}", v.type_name()))
                        }
                        Some(e) => t.given = Some((e, self.clause(st, "talon.given"))),
                        None => {}
                    }
                }
                "unseen" => t.unseen = Some(self.clause(st, "talon.unseen")),
                other => self.err_at(st, format!("unknown talon statement `{other}`; expected packets, rest, discard, given or unseen")),
            }
        }
        if !packets {
            self.err_at(s, "the talon needs `packets = N`: in how many packets the taker sees it");
        }
        t
    }

    /// `buy { cards = N }`: how many cards the taker may buy after his discard (Droggn's Simple).
    fn buy(&mut self, s: &Stmt) -> Buy {
        let mut b = Buy { cards: Expr::Const(Value::Num(Q::ONE)), clause: self.clause(s, "buy") };
        self.settings(s);
        let mut cards = false;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "cards" => {
                    cards = true;
                    b.cards = self.value(st, Ctx::AfterAuction).unwrap_or(b.cards);
                }
                other => self.err_at(st, format!("unknown buy statement `{other}`; expected cards")),
            }
        }
        if !cards {
            self.err_at(s, "buying needs `cards = N`: how many cards the taker may buy (a formula that may read the contract)");
        }
        b
    }

    /// `sit-out-by-choice { allowed = condition; fee = [30, 40, 50, 60] }` (Minchiate's four-player
    /// table: one may sit the deal out for a fee by his place in turn).
    fn sit_out_choice(&mut self, s: &Stmt) -> Option<SitOutChoice> {
        let (mut allowed, mut fee) = (None, None);
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "allowed" => allowed = self.value(st, Ctx::Setup).map(|e| (e, self.clause(st, "sit-out-by-choice.allowed"))),
                "fee" => {
                    let list = matches!(st.value.as_ref().map(|a| &a.kind), Some(AstKind::List(_)));
                    if !list {
                        self.err_at(st, "the fee is a list, by place in turn from first hand: `fee = [30, 40, 50, 60]`");
                    }
                    fee = self.value(st, Ctx::Setup).filter(|_| list).map(|e| (e, self.clause(st, "sit-out-by-choice.fee")));
                }
                other => self.err_at(st, format!("unknown sit-out-by-choice statement `{other}`; expected allowed or fee")),
            }
        }
        let Some((fee, fee_clause)) = fee else {
            self.err_at(s, "sitting out by choice needs `fee = [...]`: what each pays to sit out, by place in turn from first hand");
            return None;
        };
        Some(SitOutChoice { allowed, fee, fee_clause, clause: self.clause(s, "sit-out-by-choice") })
    }

    /// `steal { cards "label" = cards; cutter = "some"; dealer = "all" }` (Minchiate's *rubare*).
    fn steal(&mut self, s: &Stmt) -> Option<Steal> {
        let (mut cards, mut cutter, mut dealer) = (None, None, None);
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "cards" => cards = self.card_class(st, "steal.cards"),
                "cutter" | "dealer" => {
                    let how = match self.setting_in(st, &["some", "all"], Ctx::Setup) {
                        Some(Expr::Const(Value::Str(t))) => Some((if &*t == "all" { StealHow::All } else { StealHow::Some }, self.clause(st, &format!("steal.{}", st.key)))),
                        Some(_) => {
                            self.err_at(st, format!("`{}` is written out, \"some\" or \"all\": an option cannot choose it", st.key));
                            None
                        }
                        None => None,
                    };
                    if st.key == "cutter" {
                        cutter = how;
                    } else {
                        dealer = how;
                    }
                }
                other => self.err_at(st, format!("unknown steal statement `{other}`; expected cards, cutter or dealer")),
            }
        }
        let Some(cards) = cards else {
            self.err_at(s, "stealing needs `cards \"label\" = cards`: the cards that may be stolen");
            return None;
        };
        if cutter.is_none() && dealer.is_none() {
            self.err_at(s, "stealing needs a stealer: `cutter = \"some\"` or `dealer = \"all\"` (or both)");
            return None;
        }
        Some(Steal { cards, cutter, dealer, clause: self.clause(s, "steal") })
    }

    fn declaration(&mut self, s: &Stmt) -> Option<DeclarationKind> {
        let Some(name) = s.args.first().map(|w| w.text.clone()) else {
            self.err_at(s, "a declaration is written `declaration NAME \"label\" { ... }`");
            return None;
        };
        let label = s.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
        let mut d = DeclarationKind {
            name: name.clone(),
            label: label.into(),
            when: When::BeforePlay,
            by: DeclaredBy::Any,
            allowed: None,
            keeps: None,
            compulsory: None,
            compulsory_if: None,
            in_turn: None,
            in_turn_from_dealer: None,
            ends_match: None,
            every_card_counts: None,
            from_discard: None,
            shows: CardSet::EMPTY,
            requires: vec![],
            value: None,
            paid_by: None,
            paid_by_everyone: false,
            clause: self.clause(s, format!("declaration.{name}")),
        };
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "when" => {
                    d.when = match st.args.first().map(|w| w.text.as_str()) {
                        Some("before-play") => When::BeforePlay,
                        Some("after-discard") => When::AfterDiscard,
                        Some("first-play") => When::FirstPlay,
                        Some("after-deal") => When::AfterDeal,
                        Some("after-play") => When::AfterPlay,
                        _ => {
                            self.err_at(st, "`when` is before-play, after-discard or first-play (or after-deal: right after the deal, before any other move; or after-play: once the last trick is played)");
                            continue;
                        }
                    };
                    d.clause = self.clause(st, format!("declaration.{name}"));
                }
                "by" => match st.args.first().map(|w| w.text.as_str()) {
                    Some("taker") => d.by = DeclaredBy::Taker,
                    Some("attack") => d.by = DeclaredBy::Attack,
                    Some("defence") => d.by = DeclaredBy::Defence,
                    Some("any") => d.by = DeclaredBy::Any,
                    Some("any-side") => d.by = DeclaredBy::AnySide,
                    _ => self.err_at(st, "`by` is `taker`, `attack`, `defence`, `any` or `any-side`"),
                },
                "allowed" => {
                    if let Some(e) = self.condition(st, Ctx::Allowed) {
                        d.allowed = Some((e, self.clause(st, format!("declaration.{name}.allowed"))));
                    }
                }
                "keeps" => {
                    let pack = self.dummy_pack();
                    if let Some(cards) = self.class_value(st, &pack) {
                        if cards.is_empty() {
                            self.err_at(st, "`keeps` names the cards the declarer must keep; this set has none");
                        } else {
                            d.keeps = Some((cards, self.clause(st, format!("declaration.{name}.keeps"))));
                        }
                    }
                }
                "compulsory" => {
                    if st.value.is_some() {
                        d.compulsory_if = self.condition_of_options(st, "compulsory = condition", "`compulsory` is a switch and takes no value, unless it follows options: `compulsory = condition of options`");
                    }
                    d.compulsory = Some(self.clause(st, format!("declaration.{name}.compulsory")));
                }
                "in-turn" => match st.args.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().as_slice() {
                    [] if st.value.is_some() => self.err_at(st, "`in-turn` is a switch and takes no value: writing it turns it on (from first hand); to start the turn at the dealer write `in-turn from dealer`, or `in-turn from dealer = condition of options`"),
                    [] => d.in_turn = Some(self.clause(st, format!("declaration.{name}.in-turn"))),
                    ["from", "dealer"] => {
                        let cond = match st.value {
                            None => Some(Expr::Const(Value::Bool(true))),
                            Some(_) => self.condition_of_options(st, "in-turn from dealer = condition", "write `in-turn from dealer` for a turn that always starts at the dealer"),
                        };
                        if let Some(e) = cond {
                            d.in_turn_from_dealer = Some((e, self.clause(st, format!("declaration.{name}.in-turn"))));
                        }
                    }
                    _ => self.err_at(st, "`in-turn` is written `in-turn` (from first hand), `in-turn from dealer`, or `in-turn from dealer = condition of options` (from the dealer where it holds)"),
                },
                "ends-match" => d.ends_match = Some(self.clause(st, format!("declaration.{name}.ends-match"))),
                "every-card-counts" => d.every_card_counts = Some(self.clause(st, format!("declaration.{name}.every-card-counts"))),
                "from" => match st.args.first().map(|w| w.text.as_str()) {
                    Some("hand") => d.from_discard = None,
                    Some("hand-and-discard") => d.from_discard = Some(self.clause(st, format!("declaration.{name}"))),
                    _ => self.err_at(
                        st,
                        "`from` is `from hand` (the default: shown cards are in the declarer's hand) or `from hand-and-discard` (in his hand or among the cards he laid away)",
                    ),
                },
                "shows" => {
                    let pack = self.dummy_pack();
                    d.shows = self.class_value(st, &pack).unwrap_or_default();
                }
                "require" => {
                    let msg = st.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "a requirement".into());
                    let n = d.requires.len() + 1;
                    if let Some(e) = self.value(st, Ctx::Declaration) {
                        d.requires.push((msg, e, self.clause(st, format!("declaration.{name}.require.{n}"))));
                    }
                }
                "value" => d.value = self.value(st, Ctx::Declaration),
                "paid-by" | "paid" if d.paid_by.is_some() => {
                    self.err_at(st, "a declaration says who pays it once: `paid` (each opponent), `paid by-everyone`, or `paid-by = condition`, not two of them")
                }
                "paid-by" => d.paid_by = self.value(st, Ctx::PaidBy),
                "paid" => {
                    d.paid_by = Some(Expr::Const(Value::Bool(true)));
                    match st.args.first().map(|w| w.text.as_str()) {
                        None | Some("by-opponents") => {}
                        Some("by-everyone") => d.paid_by_everyone = true,
                        Some(other) => self.err_at(st, format!("`paid {other}`: a declaration is `paid` (by each opponent) or `paid by-everyone` (by every other player)")),
                    }
                }
                other => self.err_at(
                    st,
                    format!("unknown declaration statement `{other}`; expected when, by, allowed, compulsory, in-turn, ends-match, every-card-counts, from, shows, keeps, require, value, paid or paid-by"),
                ),
            }
        }
        self.after_deal_checks(s, &d);
        self.every_card_counts_checks(s, &d);
        Some(d)
    }

    /// A declaration made after the deal (`when after-deal`) is a choice: nothing closes it as a
    /// compulsory one is closed (the first card), so `compulsory` with it is refused, not ignored.
    /// So is one claimed after the last trick (`when after-play`), and a `keeps` there binds nothing.
    fn after_deal_checks(&mut self, s: &Stmt, d: &DeclarationKind) {
        if d.when == When::AfterPlay {
            if let Some(st) = s.block.iter().flatten().find(|st| st.key == "compulsory" || st.key == "keeps") {
                self.err_at(
                    st,
                    format!("a declaration `when after-play` cannot have `{}`: it is claimed once the last trick is played, when no card is left to close or bind it", st.key),
                );
            }
            // Claimed at the hand's end, it reads the cards held before the discard, those laid away
            // included: a `from` would change nothing.
            if let Some(st) = s.block.iter().flatten().find(|st| st.key == "from") {
                self.err_at(st, "a declaration `when after-play` cannot have `from`: claimed at the hand's end, it already reads every card its player held before his discard, those laid away included");
            }
            return;
        }
        if d.when != When::AfterDeal || d.compulsory.is_none() {
            return;
        }
        if let Some(st) = s.block.iter().flatten().find(|st| st.key == "compulsory") {
            self.err_at(st, "a declaration `when after-deal` cannot be `compulsory`: it is a choice made before any other move, which no card closes");
        }
    }

    /// `every-card-counts` weighs each shown card by the value: a declaration without cards shown or
    /// without a value has nothing to weigh, and the switch is refused, not ignored.
    fn every_card_counts_checks(&mut self, s: &Stmt, d: &DeclarationKind) {
        if d.every_card_counts.is_none() || (!d.shows.is_empty() && d.value.is_some()) {
            return;
        }
        if let Some(st) = s.block.iter().flatten().find(|st| st.key == "every-card-counts") {
            self.err_at(st, "`every-card-counts` needs `shows` and a `value`: a card counts when the value drops without it");
        }
    }

    fn play(&mut self, s: Option<&Stmt>) -> Play {
        // The section's clauses, one per rule it holds, or placeholders where the section is missing.
        let blank = |clause: &dyn Fn(&str) -> Clause| Play {
            lead: Expr::Fact(Fact::FirstHand),
            lead_clause: clause("play.lead"),
            order_clause: clause("play.order"),
            hold_clause: clause("play.hold"),
            ladder: vec![],
            ladder_when: vec![],
            direction: None,
            last_trump: None,
            trumps_win: None,
            faults: vec![],
        };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `play { ... }` section");
            return blank(&|rule| Clause { rule: rule.into(), at: "".into(), source: None, source_file: None });
        };
        let mut p = blank(&|rule| self.clause(s, rule));
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "lead" => {
                    p.lead = self.value(st, Ctx::Lead).unwrap_or(Expr::Fact(Fact::FirstHand));
                    p.lead_clause = self.clause(st, "play.lead");
                }
                "must" => {
                    let o = match st.args.first().map(|w| w.text.as_str()) {
                        Some("follow") => Obligation::Follow,
                        Some("trump") => Obligation::Trump,
                        Some("overtrump") => Obligation::Overtrump,
                        _ => {
                            self.err_at(st, "`must` is followed by follow, trump or overtrump");
                            continue;
                        }
                    };
                    let rule = format!("play.must.{}", st.args[0].text);
                    // `must trump = option.x == "yes"`: the obligation holds in the games where the
                    // condition does (a setup formula); without `=`, always.
                    let when = match &st.value {
                        Some(_) => match self.condition(st, Ctx::AfterAuction) {
                            Some(e) => Some(e),
                            None => continue,
                        },
                        None => None,
                    };
                    p.ladder.push((o, self.clause(st, rule)));
                    p.ladder_when.push(when);
                }
                "direction" => {
                    p.direction = self.setting(st, &["anticlockwise", "clockwise"]).map(|e| (e, self.clause(st, "play.direction")));
                }
                // `last-trump = cards`: a card formula worked out once the contract is known.
                "last-trump" => {
                    if let Some(e) = self.value(st, Ctx::AfterAuction) {
                        if let Expr::Const(v) = &e {
                            if !matches!(v, Value::Cards(_)) {
                                self.err_at(st, format!("`last-trump` takes cards (`= T1`, or `= if contract.name == \"x\" then T1 else none`), not {}", v.type_name()));
                                continue;
                            }
                        }
                        p.last_trump = Some((e, self.clause(st, "play.last-trump")));
                    }
                }
                "trumps-win" => {
                    if let Some(e) = self.condition(st, Ctx::AfterAuction) {
                        p.trumps_win = Some((e, self.clause(st, "play.trumps-win")));
                    }
                }
                // `fault follow "revoke" = 60`: checked once the whole block is read (below).
                "fault" => {}
                other => self.err_at(st, format!("unknown play statement `{other}`; expected lead, must, direction, last-trump, trumps-win or fault")),
            }
        }
        for st in s.block.iter().flatten().filter(|st| st.key == "fault") {
            if let Some(f) = self.fault(st, &p.ladder) {
                p.faults.push(f);
            }
        }
        p
    }

    /// `fault OBLIGATION "label" [gives-back CLASS] = amount`: the obligation must be one the section
    /// makes (`must ...`), the class a known one, and the amount a number (a formula after the auction).
    fn fault(&mut self, st: &Stmt, ladder: &[(Obligation, Clause)]) -> Option<Fault> {
        let word = st.args.first().map(|w| w.text.as_str()).unwrap_or("");
        let o = match word {
            "follow" => Obligation::Follow,
            "trump" => Obligation::Trump,
            "overtrump" => Obligation::Overtrump,
            "lead" | "order" | "hold" | "last-trump" | "trumps-win" | "direction" => {
                self.err_at(
                    st,
                    format!("`fault {word}`: `{word}` is not a trick obligation, so breaking it cannot be a fault paid; a fault names an obligation of the section: follow, trump or overtrump"),
                );
                return None;
            }
            _ => {
                self.err_at(st, format!("`fault {word}`: unknown obligation; a fault names follow, trump or overtrump"));
                return None;
            }
        };
        if !ladder.iter().any(|(l, _)| *l == o) {
            self.err_at(st, format!("`fault {word}`: the play section has no `must {word}`, so there is no obligation to break"));
            return None;
        }
        let Some(label) = st.args.get(1).filter(|w| w.quoted) else {
            self.err_at(st, format!("`fault {word}` needs a label: `fault {word} \"revoke\" = 60`"));
            return None;
        };
        // `gives-back CLASS`: the cards of the class the offending card took go back to who played them;
        // or a setup `let` giving cards, so an option can choose them (`none`: nothing goes back).
        let gives_back = match &st.args[2..] {
            [] => None,
            [w, class] if w.text == "gives-back" && !w.quoted && !class.quoted => {
                let named_let = self.lets.iter().position(|l| *l == class.text);
                match (self.classes.iter().find(|c| c.name == class.text), Card::parse(&class.text), named_let) {
                    (Some(c), _, _) => Some(Expr::Const(Value::Cards(c.cards))),
                    (None, Some(card), _) => Some(Expr::Const(Value::Cards(CardSet::single(card)))),
                    (None, None, Some(i)) => {
                        self.lets_read.insert(i);
                        // A `let` that gives something other than cards in some game (a branch that
                        // is a number or a text) would fail at the fault: refused here.
                        if let Some(v) = self.let_exprs.get(i).and_then(not_cards) {
                            self.err(
                                &st.file,
                                class.pos,
                                format!(
                                    "`fault {word} ... gives-back {}`: `{}` gives {} in some games, not cards (a class, cards, or `none`)",
                                    class.text,
                                    class.text,
                                    v.type_name()
                                ),
                            );
                            return None;
                        }
                        Some(Expr::Let(i))
                    }
                    // The class's (or the let's) own definition failed, and says why.
                    _ if self.failed.contains(&class.text) => return None,
                    _ => {
                        self.err(&st.file, class.pos, format!("`fault {word} ... gives-back {}`: `{}`: unknown card class (or `let` giving cards)", class.text, class.text));
                        return None;
                    }
                }
            }
            _ => {
                self.err_at(
                    st,
                    format!("`fault {word}` is written `fault {word} \"label\" = amount`, or `fault {word} \"label\" gives-back CLASS = amount` for the cards of CLASS the offending card took to go back to who played them"),
                );
                return None;
            }
        };
        let amount = self.value(st, Ctx::AfterAuction)?;
        if let Expr::Const(v) = &amount {
            if !matches!(v, Value::Num(_)) {
                self.err_at(st, format!("`fault {word}` takes an amount, a number each other player receives, not {}", v.type_name()));
                return None;
            }
        }
        Some(Fault { obligation: o, label: label.text.as_str().into(), amount, gives_back, clause: self.clause(st, format!("play.fault.{word}")) })
    }

    fn fool(&mut self, s: Option<&Stmt>) -> FoolRules {
        let text = |t: &str| Expr::Const(Value::Str(t.into()));
        let mut f = FoolRules {
            excuse: None,
            led: text("next-card-sets-suit"),
            keep: text("keep"),
            last_trick: text("keep"),
            slam_wins: None,
            slam_wins_when: None,
            shut_out: None,
            deadline: None,
            clause: Clause { rule: "fool".into(), at: "".into(), source: None, source_file: None },
        };
        let Some(s) = s else { return f };
        f.clause = self.clause(s, "fool");
        self.settings(s);
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "excuse" => f.excuse = Some(self.clause(st, "fool.excuse")),
                "slam_wins" => {
                    f.slam_wins = Some(self.clause(st, "fool.slam_wins"));
                    f.slam_wins_when = if st.value.is_some() { self.setting_in(st, &["led", "played"], Ctx::AfterAuction) } else { None };
                }
                "led" => f.led = self.setting_in(st, &["next-card-sets-suit", "forbidden"], Ctx::AfterAuction).unwrap_or(f.led),
                "keep" => f.keep = self.setting_in(st, &["keep", "exchange"], Ctx::AfterAuction).unwrap_or(f.keep),
                "last_trick" => f.last_trick = self.setting_in(st, &["changes-side", "to-winner", "keep"], Ctx::AfterAuction).unwrap_or(f.last_trick),
                "shut_out" => f.shut_out = self.setting_in(st, &["keep", "to-winner"], Ctx::AfterAuction),
                "deadline" => {
                    // A number of tricks: a constant is checked here, a formula when a game is set up.
                    if let Some(e) = self.value(st, Ctx::Setup) {
                        match &e {
                            Expr::Const(Value::Num(q)) if !q.is_integer() || *q < Q::ZERO => self.err_at(st, format!("`deadline` is a number of tricks (0, 1, 2, ...), not {q}")),
                            Expr::Const(Value::Num(_)) | Expr::Opt(_) => f.deadline = Some((e, self.clause(st, "fool.deadline"))),
                            Expr::Const(v) => self.err_at(st, format!("`deadline` is a number of tricks (0, 1, 2, ...), not {}", v.type_name())),
                            _ => f.deadline = Some((e, self.clause(st, "fool.deadline"))),
                        }
                    }
                }
                other => self.err_at(st, format!("unknown fool statement `{other}`; expected excuse, led, keep, last_trick, slam_wins, shut_out or deadline")),
            }
        }
        f
    }

    /// The `fool { ... }` rules are the Excuse's: where the pack has no Fool, or its Fool is a trump
    /// whatever the options (`fool "name" trump`), they would never apply, and the compiler accepts no
    /// statement it then ignores. Where the Fool is a trump by an option (`fool "name" trump =
    /// condition`), they apply to the choices that make it the Excuse, and the description says so.
    fn fool_section_applies(&mut self, section: Option<&Stmt>, pack: &Pack) {
        let Some(s) = section else { return };
        let by_option = self.fool_trump_when.as_ref().is_some_and(|(_, _, differs)| *differs);
        if pack.cards.contains(FOOL) || by_option {
            return;
        }
        // The Fool made a trump is the top trump, which records may write `EX`.
        let why = if pack.aliases.iter().any(|(code, _)| code == "EX") {
            format!("{} is a trump (`fool \"name\" trump` in the pack) under every choice of the options", pack.fool_name)
        } else {
            "the pack has no Fool".to_string()
        };
        self.err_at(
            s,
            format!("the `fool {{ ... }}` rules are the Excuse's, and {why}: they would never apply; remove the section (in a ruleset that extends another, `without fool`)"),
        );
    }

    fn trigger(&mut self, s: &Stmt) -> Option<Trigger> {
        let on = match s.args.first().map(|w| w.text.as_str()) {
            Some("play") => TriggerEvent::Play,
            Some("cut") => TriggerEvent::Cut,
            _ => {
                self.err_at(s, "a payment is written `on play CLASS \"label\" = marques` or `on cut CLASS \"label\" = marques`");
                return None;
            }
        };
        let Some(class) = s.args.get(1) else {
            self.err_at(s, "a payment during play names the cards that trigger it: `on play CLASS \"label\" = marques`");
            return None;
        };
        let cards = match (self.classes.iter().find(|c| c.name == class.text), Card::parse(&class.text)) {
            (Some(c), _) => c.cards,
            (None, Some(card)) => CardSet::single(card),
            // The class's own definition failed, and says why.
            _ if self.failed.contains(&class.text) => return None,
            _ => {
                self.err(&s.file, class.pos, format!("unknown card class `{}`", class.text));
                return None;
            }
        };
        // `on play CLASS ["label"] to pot.NAME = marques`: between the player and a pot.
        let (mut words, mut pot) = (s.args[2..].to_vec(), None);
        if words.len() >= 2 && words[words.len() - 2].text == "to" && !words[words.len() - 2].quoted {
            let w = words.pop().expect("two words");
            words.pop();
            match self.pot_word(&s.file, &w) {
                Some(Some(i)) => pot = Some(i),
                Some(None) => {
                    self.err(&s.file, w.pos, format!("a payment during play goes to each opponent, or to a pot: `to pot.NAME`, not `to {}`", w.text));
                    return None;
                }
                None => return None,
            }
        }
        if words.len() > 1 || words.first().is_some_and(|w| !w.quoted) {
            self.err_at(s, "a payment is written `on play CLASS \"label\" = marques`, or `on play CLASS \"label\" to pot.NAME = marques` for one into or out of a pot");
            return None;
        }
        let label = words.first().map(|w| w.text.clone()).unwrap_or_else(|| class.text.clone());
        let value = self.value(s, Ctx::Trigger)?;
        let rule = format!("on.{}.{}", s.args[0].text, label.to_lowercase().replace(' ', "-"));
        if let Some(i) = pot {
            self.pots_paid_in.insert(i);
        }
        Some(Trigger { on, cards, pot, label: label.into(), value, clause: self.clause(s, rule) })
    }

    fn score(&mut self, s: Option<&Stmt>) -> Score {
        let mut sc = Score { lets: vec![], terms: vec![], pays: vec![], standing: None, winner: None, notes: vec![] };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `score { ... }` section");
            return sc;
        };
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "let" => {
                    self.in_score_let = true;
                    self.score_let_reads_player = false;
                    let l = self.let_stmt(st, Ctx::Score, "score");
                    self.in_score_let = false;
                    if let Some(mut l) = l {
                        l.per_player = self.score_let_reads_player;
                        self.score_lets.push(l.name.to_string());
                        self.score_lets_per_player.push(l.per_player);
                        sc.lets.push(l);
                    }
                }
                "term" => {
                    let Some(name) = st.args.first().map(|w| w.text.clone()) else {
                        self.err_at(st, "a term is written `term NAME \"label\" = formula`");
                        continue;
                    };
                    let label = st.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
                    if let Some(expr) = self.value(st, Ctx::Score) {
                        sc.terms.push(Term { clause: self.clause(st, format!("score.term.{name}")), name, label: label.into(), expr });
                    }
                }
                "pay" => {
                    let words: Vec<&Word> = st.args.iter().collect();
                    if !(words.len() == 3 || (words.len() == 4 && words[3].quoted)) || words[1].text != "to" {
                        self.err_at(st, "a payment is written `pay PAYERS to PAYEES [\"label\"] = amount`, e.g. `pay defence to attack = total`");
                        continue;
                    }
                    let label = words.get(3).map(|w| w.text.clone()).unwrap_or_else(|| "settlement".into());
                    let file = st.file.clone();
                    // Players (a formula), or a pot: `pot.NAME`.
                    let side = |c: &mut Compiler, w: &Word| match c.pot_word(&file, w)? {
                        Some(i) => Some(Account::Pot(i)),
                        None => c.expr(&file, &Ast { pos: w.pos, kind: AstKind::Name(w.text.clone()) }, Ctx::Score).map(Account::Players),
                    };
                    let (from, to) = (side(self, words[0]), side(self, words[2]));
                    if let (Some(Account::Pot(_)), Some(Account::Pot(_))) = (&from, &to) {
                        self.err_at(st, "a payment goes between players and a pot, or between players, not from one pot to another");
                        continue;
                    }
                    if let Some(Account::Pot(i)) = &to {
                        self.pots_paid_in.insert(*i);
                    }
                    let amount = self.value(st, Ctx::Pay);
                    if let (Some(from), Some(to), Some(amount)) = (from, to, amount) {
                        // A pot is no player: the side that is a pot has no `payer` or `payee`.
                        for (side, fact, name) in [(&from, Fact::Payer, "payer"), (&to, Fact::Payee, "payee")] {
                            if let (Account::Pot(i), true) = (side, amount.mentions(fact)) {
                                let pot = self.pot_names[*i].clone();
                                self.err_at(
                                    st,
                                    format!(
                                        "`{name}` is pot `{pot}` here, not a player, so the amount cannot read `{name}`; each player on the other side is paid or pays in turn"
                                    ),
                                );
                            }
                        }
                        // Named by its label's words up to the first sign ("Trischaken: the most ..." is
                        // `score.pay.trischaken`), else by its sides; a name another payment has is
                        // followed by the payment's number.
                        let named = words.get(3).map(|w| {
                            let head: String = w.text.chars().take_while(|c| c.is_alphanumeric() || *c == ' ' || *c == '-').collect();
                            head.split_whitespace().collect::<Vec<_>>().join("-").to_lowercase()
                        });
                        let rule = match named.filter(|n| !n.is_empty()) {
                            Some(n) => format!("score.pay.{n}"),
                            None => format!("score.pay.{}.{}", words[0].text, words[2].text),
                        };
                        let rule = if sc.pays.iter().any(|p| *p.clause.rule == *rule) { format!("{rule}.{}", sc.pays.len() + 1) } else { rule };
                        sc.pays.push(Pay { from, to, amount, label: label.into(), clause: self.clause(st, rule) });
                    }
                }
                "standing" => sc.standing = self.stated(st, Ctx::PerPlayer, "score"),
                "winner" => sc.winner = self.stated(st, Ctx::PerPlayer, "score"),
                "note" => {
                    let text = st.args.first().map(|w| w.text.clone()).unwrap_or_default();
                    if let Some(e) = self.value(st, Ctx::Score) {
                        let n = sc.notes.len() + 1;
                        sc.notes.push((text, e, self.clause(st, format!("score.note.{n}"))));
                    }
                }
                other => self.err_at(st, format!("unknown score statement `{other}`; expected let, term, pay, standing, winner or note")),
            }
        }
        if !sc.pays.is_empty() && sc.standing.is_some() {
            self.err_at(s, "a score settles either by payments (`pay`) or by each player's standing (`standing`), not both");
        }
        if sc.pays.is_empty() && sc.standing.is_none() {
            self.err_at(s, "the score says neither who pays whom (`pay`) nor each player's standing (`standing = ...`)");
        }
        sc
    }

    /// Compiles a formula in a context, resolving every name; reports what it cannot resolve.
    fn expr(&mut self, file: &Arc<str>, a: &Ast, ctx: Ctx) -> Option<Expr> {
        let e = self.expr_inner(file, a, ctx)?;
        let mut failed = None;
        let e = fold(e, &mut failed);
        match failed {
            // A part that depends on nothing but constants fails in every game: a ruleset bug.
            Some(m) => {
                self.err(file, a.pos, format!("this formula cannot be evaluated, whatever the game: {m}"));
                None
            }
            None => Some(e),
        }
    }

    fn expr_inner(&mut self, file: &Arc<str>, a: &Ast, ctx: Ctx) -> Option<Expr> {
        let err = |c: &mut Compiler, m: String| {
            c.err(file, a.pos, m);
            None
        };
        Some(match &a.kind {
            AstKind::Num(q) => Expr::Const(Value::Num(*q)),
            AstKind::Str(s) => Expr::Const(Value::Str(s.as_str().into())),
            AstKind::Name(n) => return self.name(file, a.pos, n, ctx),
            // Every part is compiled, so that every mistake is reported and every name counts as read.
            AstKind::List(xs) => Expr::List(xs.iter().map(|x| self.expr_inner(file, x, ctx)).collect::<Vec<_>>().into_iter().collect::<Option<_>>()?),
            AstKind::Index(l, i) => {
                let (l, i) = (self.expr_inner(file, l, ctx), self.expr_inner(file, i, ctx));
                Expr::Index(Box::new(l?), Box::new(i?))
            }
            AstKind::Unary(op, x) => Expr::Un(*op, Box::new(self.expr_inner(file, x, ctx)?)),
            AstKind::Binary(op, x, y) => {
                let (x, y) = (self.expr_inner(file, x, ctx), self.expr_inner(file, y, ctx));
                Expr::Bin(*op, Box::new(x?), Box::new(y?))
            }
            AstKind::If(c, t, e) => {
                let (c, t, e) = (self.expr_inner(file, c, ctx), self.expr_inner(file, t, ctx), self.expr_inner(file, e, ctx));
                Expr::If(Box::new(c?), Box::new(t?), Box::new(e?))
            }
            AstKind::Comp { func, var, set, cond, body } => {
                let f = match func.as_str() {
                    "count" => CompFunc::Count,
                    "sum" => CompFunc::Sum,
                    "max" => CompFunc::Max,
                    "min" => CompFunc::Min,
                    "all" => CompFunc::All,
                    "any" => CompFunc::Any,
                    other => return err(self, format!("`{other}` cannot go through a set; use count, sum, max, min, all or any")),
                };
                let set = self.expr_inner(file, set, ctx);
                self.vars.push(var.clone());
                let cond = cond.as_ref().map(|c| self.expr_inner(file, c, ctx));
                let body = body.as_ref().map(|b| self.expr_inner(file, b, ctx));
                self.vars.pop();
                if matches!(f, CompFunc::Count | CompFunc::All | CompFunc::Any) && body.is_some() {
                    return err(self, format!("`{func}(x in set where condition)` takes a condition, not a value after `:`"));
                }
                if matches!(f, CompFunc::Sum | CompFunc::Max | CompFunc::Min) && body.is_none() {
                    return err(self, format!("`{func}(x in set : value)` needs the value after `:`"));
                }
                Expr::Comp {
                    func: f,
                    var: var.clone(),
                    set: Box::new(set?),
                    cond: match cond {
                        Some(c) => Some(Box::new(c?)),
                        None => None,
                    },
                    body: match body {
                        Some(b) => Some(Box::new(b?)),
                        None => None,
                    },
                }
            }
            AstKind::Call(name, args) => return self.call(file, a.pos, name, args, ctx),
            AstKind::Invalid(m) => return err(self, m.clone()),
        })
    }

    /// `let NAME PARAM... = formula`: kept as written, compiled at each call (`call_formula`).
    fn formula(&mut self, s: &Stmt) {
        let name = s.args[0].text.clone();
        let params: Vec<String> = s.args[1..].iter().map(|w| w.text.clone()).collect();
        if self.classes.iter().any(|c| c.name == name) || Card::parse(&name).is_some() || FACTS.iter().any(|(f, _)| *f == name) || FUNCS.iter().any(|(f, ..)| *f == name) {
            self.err_at(s, format!("`{name}` is already the name of a card, class, function or a name the engine provides; give this formula another name"));
            return;
        }
        if self.formulas.iter().any(|f| f.name == name) {
            self.err_at(s, format!("`{name}` is already the name of another `let`; give this formula another name"));
            return;
        }
        for (i, w) in s.args[1..].iter().enumerate() {
            if w.quoted || params[..i].contains(&w.text) {
                self.err(&s.file, w.pos, format!("`let {name} PARAM... = formula`: `{}` is not a parameter name (each is a bare name, given once)", w.text));
                return;
            }
        }
        let Some(body) = s.value.clone() else { return };
        let params_read = vec![false; params.len()];
        self.formulas.push(Formula { name, params, body, file: s.file.clone(), read: false, params_read });
    }

    /// A call of `let NAME PARAM... = formula`: the formula compiled here, in the caller's context,
    /// its parameters standing for the arguments (each compiled in the caller's scope). Its own free
    /// names are resolved as at the top level: it does not see the caller's comprehension variables.
    fn call_formula(&mut self, file: &Arc<str>, pos: Pos, i: usize, args: &[Ast], ctx: Ctx) -> Option<Expr> {
        let f = self.formulas[i].clone();
        self.formulas[i].read = true;
        if args.len() != f.params.len() {
            self.err(file, pos, format!("`{}` takes {} argument(s) ({}), not {}", f.name, f.params.len(), f.params.join(", "), args.len()));
            return None;
        }
        if self.expanding.contains(&f.name) {
            self.err(file, pos, format!("`{}` calls itself (through {}): a formula cannot", f.name, self.expanding.join(", ")));
            return None;
        }
        let compiled: Vec<Option<Expr>> = args.iter().map(|a| self.expr_inner(file, a, ctx)).collect();
        let compiled: Vec<Expr> = compiled.into_iter().collect::<Option<_>>()?;
        let vars = std::mem::take(&mut self.vars);
        let params = std::mem::replace(&mut self.params, f.params.iter().cloned().zip(compiled).collect());
        self.expanding.push(f.name.clone());
        let before = self.errors.len();
        let body = self.expr_inner(&f.file, &f.body, ctx);
        self.expanding.pop();
        self.params = params;
        self.vars = vars;
        if body.is_none() {
            // Its body failed, and says why: no second error for the parameters it did not reach.
            self.formulas[i].params_read.fill(true);
        }
        if body.is_none() && self.errors.len() > before {
            // The error is in the formula's own text: say where it was called, in what context.
            self.err(file, pos, format!("`{}` cannot be worked out where it is called here, {}: see the error in its formula", f.name, ctx_words(ctx)));
        }
        body
    }

    fn call(&mut self, file: &Arc<str>, pos: Pos, name: &str, args: &[Ast], ctx: Ctx) -> Option<Expr> {
        if let Some(i) = self.formulas.iter().position(|f| f.name == name) {
            return self.call_formula(file, pos, i, args, ctx);
        }
        // Card-set builders are resolved here, at compile time.
        match name {
            "rank" | "suit" => {
                let mut set = CardSet::EMPTY;
                for a in args {
                    let code = match &a.kind {
                        AstKind::Name(n) => n.clone(),
                        AstKind::Num(q) => q.to_string(),
                        _ => String::new(),
                    };
                    if name == "rank" {
                        match RANK_CODES.iter().position(|r| *r == code) {
                            Some(r) => (0..4).for_each(|s| set.insert(Card::suited(s, r as u8 + 1))),
                            None => self.err(file, a.pos, format!("`{code}` is not a rank; ranks are K Q C J 10 .. 1")),
                        }
                    } else {
                        match SUITS.iter().position(|s| s.to_string() == code) {
                            Some(s) => set = set.or(CardSet::of_lane(s as u8)),
                            None => self.err(file, a.pos, format!("`{code}` is not a suit; suits are S H D C")),
                        }
                    }
                }
                return Some(Expr::Const(Value::Cards(set)));
            }
            "both" => {
                let parts: Vec<Expr> = args.iter().map(|a| self.expr(file, a, Ctx::Class)).collect::<Option<_>>()?;
                let mut set = CardSet::full();
                for p in parts {
                    match p {
                        Expr::Const(Value::Cards(c)) => set = set.and(c),
                        _ => {
                            self.err(file, pos, "`both(a, b)` takes sets of cards");
                            return None;
                        }
                    }
                }
                return Some(Expr::Const(Value::Cards(set)));
            }
            _ => {}
        }
        let Some(&(_, f, lo, hi)) = FUNCS.iter().find(|(n, ..)| *n == name) else {
            let known: Vec<&str> = FUNCS.iter().map(|(n, ..)| *n).collect();
            self.err(file, pos, format!("unknown function `{name}`; functions are {}, rank, suit, both", known.join(", ")));
            return None;
        };
        if args.len() < lo || args.len() > hi {
            let want = if lo == hi { lo.to_string() } else { format!("{lo} to {hi}") };
            self.err(file, pos, format!("`{name}` takes {want} argument(s), not {}", args.len()));
            return None;
        }
        if GAME_FUNCS.contains(&f) && matches!(ctx, Ctx::Class | Ctx::Setup | Ctx::AfterAuction) {
            self.err(file, pos, format!("`{name}` looks at the game being played, which is not known here"));
            return None;
        }
        if f == Func::Standing {
            self.reads_standing = true;
        }
        let mut out = vec![];
        if f == Func::BidBefore {
            let Some(contracts) = self.by_contracts.clone() else {
                self.err(file, pos, "`bid_before` reads the auction so far: it is written only in a contract's `by` condition");
                return None;
            };
            let p = self.expr_inner(file, &args[0], ctx);
            // A contract's name, bare, or as a string when it has a `-` (read as a minus otherwise).
            let (AstKind::Name(n) | AstKind::Str(n)) = &args[1].kind else {
                self.err(
                    file,
                    args[1].pos,
                    "`bid_before` takes a player and the name of a contract: `bid_before(player, tapp)`, or `bid_before(player, \"garde-contre\")` for a name with `-`",
                );
                return None;
            };
            let Some(c) = contracts.iter().position(|k| k == n) else {
                self.err(file, args[1].pos, format!("unknown contract `{n}` in `bid_before`; the contracts are {}", contracts.join(", ")));
                return None;
            };
            return Some(Expr::Call(f, vec![p?, Expr::Const(Value::Num(Q::int(c as i64)))]));
        }
        for (i, a) in args.iter().enumerate() {
            // Declarations are named by their id in declared/announced/declarer.
            if matches!(f, Func::Declared | Func::Announced | Func::Declarer) && i == 0 {
                let AstKind::Name(n) = &a.kind else {
                    self.err(file, a.pos, format!("`{name}` takes the name of a declaration"));
                    return None;
                };
                match self.decl_names.iter().position(|d| d == n) {
                    Some(d) => out.push(Some(Expr::Decl(d))),
                    None => {
                        self.err(file, a.pos, format!("unknown declaration `{n}`; declarations are: {}", self.decl_names.join(", ")));
                        return None;
                    }
                }
                continue;
            }
            out.push(self.expr_inner(file, a, ctx));
        }
        let out: Vec<Expr> = out.into_iter().collect::<Option<_>>()?;
        if matches!(f, Func::Run | Func::Runs | Func::InRuns) {
            self.check_run_args(file, f, name, args, &out)?;
        }
        Some(Expr::Call(f, out))
    }

    /// The arguments of a combination (`run`, `runs`, `in_runs`) that are written out: the order is a
    /// list of sets of cards, the wild cards a set of cards, the shortest run a whole number from 1.
    /// What only the game knows (a `let`, an option) is checked when the formula is evaluated.
    fn check_run_args(&mut self, file: &Arc<str>, f: Func, name: &str, args: &[Ast], out: &[Expr]) -> Option<()> {
        let mut ok = true;
        match &out[1] {
            Expr::List(steps) => {
                for (step, a) in steps.iter().zip(match &args[1].kind {
                    AstKind::List(xs) => xs.as_slice(),
                    _ => &[],
                }) {
                    if let Expr::Const(v) = step {
                        if !matches!(v, Value::Cards(_)) {
                            self.err(file, a.pos, format!("each step of the order of `{name}` is a set of cards (a card, a class, `T4 + T3`), not {}", v.type_name()));
                            ok = false;
                        }
                    }
                }
            }
            Expr::Const(v) if !matches!(v, Value::Cards(_) | Value::List(_)) => {
                self.err(file, args[1].pos, format!("the order of `{name}` is a list of sets of cards, highest first (`[T21, T20, T19]`), not {}", v.type_name()));
                ok = false;
            }
            _ => {}
        }
        // What a written-out argument is when it is not a set of cards.
        let not_cards = |e: &Expr| match e {
            Expr::Const(Value::Cards(_)) => None,
            Expr::Const(v) => Some(v.type_name()),
            Expr::List(_) => Some("a list"),
            _ => None,
        };
        if let (Func::Run, Some(kind)) = (f, out.get(2).and_then(not_cards)) {
            self.err(file, args[2].pos, format!("the wild cards of `run` are a set of cards (`EX + T1`), not {kind}"));
            ok = false;
        }
        if let Some(kind) = out.get(3).and_then(not_cards) {
            self.err(file, args[3].pos, format!("the steps `run` may pass over are a set of cards (`T20 + T19`), not {kind}"));
            ok = false;
        }
        match (name, out.get(2)) {
            ("runs" | "in_runs", Some(Expr::Const(v))) if !matches!(v, Value::Num(q) if q.is_integer() && *q >= Q::ONE) => {
                self.err(
                    file,
                    args[2].pos,
                    format!(
                        "the shortest run `{name}` counts is a whole number from 1 (`3` for runs of three or more), not {}",
                        match v {
                            Value::Num(q) => q.to_string(),
                            other => other.type_name().to_string(),
                        }
                    ),
                );
                ok = false;
            }
            _ => {}
        }
        ok.then_some(())
    }

    fn name(&mut self, file: &Arc<str>, pos: Pos, n: &str, ctx: Ctx) -> Option<Expr> {
        if let Some(d) = self.vars.iter().rev().position(|v| v == n) {
            return Some(Expr::Var(d));
        }
        // A parameter of the formula being called: the argument, moved under the formula's own
        // comprehensions (compiled with the caller's variables, which the formula does not see).
        if let Some(k) = self.params.iter().position(|(p, _)| p == n) {
            if let Some(f) = self.expanding.last().and_then(|name| self.formulas.iter_mut().find(|f| f.name == *name)) {
                f.params_read[k] = true;
            }
            return Some(shift_vars(&self.params[k].1, self.vars.len(), 0));
        }
        if let Some((_, c)) = self.pack_aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(n)) {
            return Some(Expr::Const(Value::Cards(CardSet::single(*c))));
        }
        if let Some(c) = Card::parse(n).filter(|_| n.chars().any(|c| c.is_ascii_digit()) || n.eq_ignore_ascii_case("EX") || n.len() == 2) {
            return Some(Expr::Const(Value::Cards(CardSet::single(c))));
        }
        match n {
            "trumps" => return Some(Expr::Const(Value::Cards(self.pack_trumps.unwrap_or(CardSet((1u128 << 21) - 1))))),
            "none" => return Some(Expr::Const(Value::Cards(CardSet::EMPTY))),
            "true" | "yes" => return Some(Expr::Const(Value::Bool(true))),
            "false" | "no" => return Some(Expr::Const(Value::Bool(false))),
            _ => {}
        }
        if let Some(c) = self.classes.iter().find(|c| c.name == n) {
            return Some(Expr::Const(Value::Cards(c.cards)));
        }
        if self.failed.contains(n) {
            // Its own definition failed, and that error says why: no cascade of errors downstream.
            return None;
        }
        if ctx == Ctx::Class && n.starts_with("option.") {
            // Read, though wrongly: one error, not a second saying nothing reads it.
            if let Some(i) = self.options.iter().position(|o| n.strip_prefix("option.") == Some(o.name.as_str())) {
                self.opts_read.insert(i);
            }
            self.err(
                file,
                pos,
                format!(
                    "a card class is fixed when the rules are compiled, so it cannot depend on `{n}`; \
                     write the classes for each choice and choose between them where the class is used (`if {n} == ... then ... else ...`)"
                ),
            );
            return None;
        }
        if ctx == Ctx::Class && (self.lets.iter().any(|l| l == n) || FACTS.iter().any(|(f, _)| *f == n)) {
            self.err(file, pos, format!("a card class is fixed when the rules are compiled, so it can only use cards and other classes, not `{n}`"));
            return None;
        }
        if ctx == Ctx::Class {
            self.err(file, pos, format!("unknown card class `{n}`; classes defined so far: {}", self.classes.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")));
            return None;
        }
        // `pot.NAME`: what the pot holds at this point of the deal's payments; `pot.NAME.carried`: what
        // it held at the start of the deal (the record's `pots`).
        if let Some(rest) = n.strip_prefix("pot.") {
            let (name, f) = match rest.strip_suffix(".carried") {
                Some(name) => (name, Func::Carried),
                None => (rest, Func::Pot),
            };
            let Some(i) = self.pot_names.iter().position(|p| p == name) else {
                let m = self.unknown_pot(name);
                self.err(file, pos, m);
                return None;
            };
            if !matches!(ctx, Ctx::Trigger | Ctx::Score | Ctx::Pay | Ctx::PerPlayer) {
                self.err(file, pos, format!("`{n}` is not known {}: a pot is read by payments (the score's, and those made during play)", ctx_words(ctx)));
                return None;
            }
            return Some(Expr::Call(f, vec![Expr::Const(Value::Num(Q::int(i as i64)))]));
        }
        if let Some(opt) = n.strip_prefix("option.") {
            return match self.options.iter().position(|o| o.name == opt) {
                Some(i) => {
                    self.opts_read.insert(i);
                    Some(Expr::Opt(i))
                }
                None => {
                    self.err(file, pos, format!("unknown option `{opt}`; options: {}", self.options.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", ")));
                    None
                }
            };
        }
        if let Some(attr) = n.strip_prefix("contract.") {
            if !matches!(ctx, Ctx::Score | Ctx::Pay | Ctx::PerPlayer | Ctx::Lead | Ctx::Discard | Ctx::AfterAuction | Ctx::Allowed) {
                self.err(
                    file,
                    pos,
                    format!(
                        "`{n}` is not known {}: the contract is known once the auction is won, so it can be read by the discard (its sizes, \
                         `require`, `penalty`), `callable-levels`, `must ... = condition`, the fool's settings, the play's `lead`, a declaration's `allowed` and the score",
                        ctx_words(ctx)
                    ),
                );
                return None;
            }
            if ctx == Ctx::AfterAuction {
                self.reads_contract = true;
            }
            // The contract's own name, unless a contract has an attribute of that name.
            if attr == "name" && !self.contract_attrs.is_empty() && !self.contract_attrs.contains(attr) {
                return Some(Expr::Attr(attr.into()));
            }
            if !self.contract_attrs.contains(attr) {
                self.err(file, pos, format!("no contract has an attribute `{attr}`; attributes: {}", self.contract_attrs.iter().cloned().collect::<Vec<_>>().join(", ")));
                return None;
            }
            self.attrs_read.insert(attr.to_string());
            return Some(Expr::Attr(attr.into()));
        }
        if let Some(i) = self.lets.iter().position(|l| l == n) {
            self.lets_read.insert(i);
            return Some(Expr::Let(i));
        }
        if matches!(ctx, Ctx::Score | Ctx::Pay | Ctx::PerPlayer) {
            if let Some(i) = self.score_lets.iter().position(|l| l == n) {
                if self.score_lets_per_player[i] {
                    if ctx == Ctx::PerPlayer || self.in_score_let {
                        self.score_let_reads_player = true;
                    } else {
                        self.err(
                            file,
                            pos,
                            format!("`{n}` reads `player`, so it has a value for each player and none {}: read it in `standing`, `winner` or another score `let`", ctx_words(ctx)),
                        );
                        return None;
                    }
                }
                return Some(Expr::Let(self.lets.len() + i));
            }
        }
        if let Some((_, f)) = FACTS.iter().find(|(name, _)| *name == n) {
            if *f == Fact::Player && ctx == Ctx::Score && self.in_score_let {
                // A score `let` that reads `player` is worked out for each player where it is read.
                self.score_let_reads_player = true;
                return Some(Expr::Fact(*f));
            }
            if fact_allowed(*f, ctx) {
                return Some(Expr::Fact(*f));
            }
            self.err(file, pos, format!("`{n}` is not known {}", ctx_words(ctx)));
            return None;
        }
        self.err(file, pos, format!("`{n}` is not defined: not a card, class, option, `let`, or a name known {}", ctx_words(ctx)));
        None
    }
}

fn ctx_words(ctx: Ctx) -> &'static str {
    match ctx {
        Ctx::Setup => "before the deal (only options, players and constants are)",
        Ctx::Class => "in a card class",
        Ctx::Hand => {
            "in an annulment, the untouchable card's, a must-bid's or a contract's `by` condition (hand, first_packet, player, dealer, first_hand, players and constants are)"
        }
        Ctx::Declaration => "in a declaration (hand, shown, value and player are)",
        Ctx::PaidBy => "in `paid-by` (payer is)",
        Ctx::Discard => "in the discard's `require` and `penalty` (discarded, hand, dog, player and the contract are)",
        Ctx::Lead => "when choosing the leader (taker, first_hand, dealer and declarations are)",
        Ctx::Trigger => "in a payment during play (card, last, won_by_player and player are)",
        Ctx::Score => "in the score (attack, defence, taker, partner, tricks, last_trick and the game's functions are)",
        Ctx::Pay => "in a payment (payer, payee and total are)",
        Ctx::PerPlayer => "per player (player is)",
        Ctx::Called => "after the call (called is)",
        Ctx::AfterAuction => "in a setting that applies after the auction (options, players, constants and the contract are)",
        Ctx::Allowed => "in a declaration's `allowed` (hand, player, taker, partner, attack, defence and contract.ATTR are)",
        Ctx::Dealt => "in the deal's `require` (dealer, first_hand, players, options and carried(p) are)",
    }
}

/// A constant that `e` may give and that is not cards: a constant, or a branch of an `if` that is
/// (what `gives-back LET` refuses); none where every branch is cards or a formula.
fn not_cards(e: &Expr) -> Option<&Value> {
    match e {
        Expr::Const(Value::Cards(_)) => None,
        Expr::Const(v) => Some(v),
        Expr::If(_, t, f) => not_cards(t).or_else(|| not_cards(f)),
        _ => None,
    }
}

/// Folds sub-expressions that depend on nothing but constants, bottom up, so a formula evaluated for
/// every game does not rebuild its tables and card sets each time.
/// A constant part that cannot be evaluated (`[1, 2][5]`, `"a" + 1`) leaves its error in `failed`.
fn fold(e: Expr, failed: &mut Option<String>) -> Expr {
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
const NO_GAME: Chosen<'static> = Chosen(&[]);

/// The options of a game, and nothing else of it: a counter that follows options, tried with each
/// choice.
struct Chosen<'a>(&'a [Value]);

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
fn constant(e: &Expr) -> bool {
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

/// Whether a formula names an option (`option.NAME`): a statement whose value is otherwise fixed when
/// the rules are compiled (`forbid`) then follows the options instead.
fn reads_option(a: &Ast) -> bool {
    match &a.kind {
        AstKind::Name(n) => n.starts_with("option."),
        AstKind::Call(_, args) | AstKind::List(args) => args.iter().any(reads_option),
        AstKind::Comp { set, cond, body, .. } => reads_option(set) || cond.as_deref().is_some_and(reads_option) || body.as_deref().is_some_and(reads_option),
        AstKind::Index(a, b) | AstKind::Binary(_, a, b) => reads_option(a) || reads_option(b),
        AstKind::Unary(_, a) => reads_option(a),
        AstKind::If(a, b, c) => reads_option(a) || reads_option(b) || reads_option(c),
        AstKind::Num(_) | AstKind::Str(_) | AstKind::Invalid(_) => false,
    }
}
