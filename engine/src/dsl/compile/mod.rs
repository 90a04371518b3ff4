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

mod deal;
mod declaration;
mod fold;
mod formula;
mod functions;
mod header;
mod names;
mod pack;
mod play;
mod raise;
mod reads;
mod resolve;
mod rounds;
mod score;
mod table;
mod unread;
mod value;
mod words;

use fold::*;
use formula::*;
use names::*;
use reads::*;

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
    /// The errors found in a formula's body that no call has a part in (a part of it that fails
    /// whatever the game and reads none of its parameters), counted so a call adds no note for them.
    call_independent: usize,
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
    /// The pack's cards, once the `pack` section is read: a code naming another card is refused.
    pack_cards: Option<CardSet>,
    /// The suit whose cards are the trumps (`trump-suit`): `rank(K)` reads the other suits.
    trump_suit: Option<u8>,
    /// Compiling the other pack of `fool "name" trump = condition`: whether the Fool is a trump.
    fool_trump_fixed: Option<bool>,
    /// The condition of `fool "name" trump = condition`, its clause, and whether some choice of the
    /// options makes it differ from the default's.
    fool_trump_when: Option<(Expr, Clause, bool)>,
    /// The first choice of the options (those that differ from their defaults) under which the Fool
    /// goes the other way.
    fool_other_way: BTreeMap<String, OptionValue>,
    /// The contracts of the bidding block, in order, which `bid_before(p, CONTRACT)` and
    /// `passed_over(p, CONTRACT)` may name (empty without `bidding`, where they are refused).
    contract_names: Vec<String>,
}

/// Statements that are identified by all their words (several per section), not only the first.
const KEYED_BY_ALL_ARGS: &[&str] = &["on", "require", "pay", "must", "keep", "withhold", "excuse"];

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
    // A `trump-order` that follows an option (`= condition`) is one of several, each its own order.
    // (`keep` and `excuse` are also the fool's settings, which have no words: their key is their keyword.)
    // So is each `all-pass play CONTRACT by "who"`: one player named, tried before the next.
    let named = s.key == "all-pass" && s.args.get(2).is_some_and(|w| w.text == "by");
    if (KEYED_BY_ALL_ARGS.contains(&s.key.as_str()) && !s.args.is_empty()) || (s.key == "trump-order" && s.value.is_some()) || named {
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

/// Whether a formula of `stmts` (blocks included), other than `definition`'s own, writes `name`.
fn written_elsewhere(stmts: &[Stmt], name: &str, definition: &Stmt) -> bool {
    stmts.iter().any(|s| {
        !std::ptr::eq(s, definition) && (s.value.as_ref().is_some_and(|a| reads::mentions(a, name)) || s.block.as_ref().is_some_and(|b| written_elsewhere(b, name, definition)))
    })
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

    /// Whether a card a rule names by its code is in the ruleset's pack (a pack's own code, `code
    /// SKUS T22`, always is); refused at `pos` otherwise.
    /// The card a code names in this pack: one of the pack's own codes first (`EX` for a Fool made a
    /// trump is the card above the highest trump, `7H` in a suit made trumps is its trump), else the
    /// card the code writes; `None` when the word is no card's code.
    fn pack_card(&self, code: &str) -> Option<Card> {
        self.pack_aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(code)).map(|&(_, c)| c).or_else(|| Card::parse(code))
    }

    fn in_pack(&mut self, file: &str, pos: Pos, code: &str, card: Card) -> bool {
        match self.pack_cards {
            Some(cards) if !cards.contains(card) => {
                self.err(file, pos, format!("cards not in this ruleset's pack: {code} (a pack of {} cards)", cards.len()));
                false
            }
            _ => true,
        }
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
        check::withouts(&body, &mut self.errors);
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

    /// A requirement's label, whose `{name}`s must each be a top-level `let` (a value fixed before
    /// the deal), which the label then reads (`crate::label`).
    fn label(&mut self, s: &Stmt, text: String) -> String {
        match crate::label::names(&text) {
            Err(e) => self.err_at(s, e),
            Ok(names) => {
                for n in names {
                    match self.lets.iter().position(|l| l == n) {
                        Some(i) => {
                            self.lets_read.insert(i);
                        }
                        None => self.err_at(s, format!("the label names `{{{n}}}`, but there is no top-level `let {n}`: a label reads the values fixed before the deal")),
                    }
                }
            }
        }
        text
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
        // The contracts of the bidding block, which `bid_before` and `passed_over` may name in any formula of the game.
        self.contract_names = stmts
            .iter()
            .filter(|s| s.key == "bidding")
            .flat_map(|s| s.block.iter().flatten())
            .filter(|st| st.key == "contract")
            .filter_map(|st| st.args.first().map(|w| w.text.clone()))
            .collect();
        // Sources, options, classes and names come first, so any formula may use them.
        let (pack, pots, constants) = self.preamble(&stmts);

        self.known_statements(&stmts);

        let family = self.family(&stmts);
        let dated = self.dated(&stmts);
        let counting = self.counting(stmts.iter().find(|s| s.key == "counting"), &pack);
        let (players, players_clause) = self.players(stmts.iter().find(|s| s.key == "players"));
        let (sit_out, sit_out_from, sit_out_opposite, sit_out_scores) = self.sit_out(&stmts, players);
        let sides = self.sides(&stmts);
        if sit_out_scores && sides != Sides::Taker {
            if let Some(s) = stmts.iter().find(|s| s.key == "sit-out") {
                self.err_at(s, "`scores-as defence` makes the sitter a member of the defence, so the ruleset needs `sides taker`");
            }
        }
        let deal = self.deal(stmts.iter().find(|s| s.key == "deal"));
        let annulments: Vec<Annulment> = stmts.iter().filter(|s| s.key == "annul").filter_map(|s| self.annulment(s)).collect();
        let bidding = stmts.iter().find(|s| s.key == "bidding").map(|s| self.bidding(s));
        if bidding.is_some() && sides != Sides::Taker {
            if let Some(s) = stmts.iter().find(|s| s.key == "bidding") {
                self.err_at(s, "bidding chooses a taker, so it needs `sides taker`");
            }
        }
        // All passing annuls where `all-pass` (or `annul`) says so, and where the players it may name
        // (`all-pass play CONTRACT by`) are the only word on it: nobody named, the deal is void.
        let annuls = !annulments.is_empty() || bidding.as_ref().is_some_and(|b| (b.all_pass.is_some() || !b.all_pass_by.is_empty()) && b.all_pass_play.is_none());
        self.next_dealer_agrees(stmts.iter().find(|s| s.key == "deal"), &deal, bidding.is_some(), annuls);
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
        let declarations: Vec<DeclarationKind> = stmts.iter().filter(|s| s.key == "declaration").filter_map(|s| self.declaration(s)).collect();
        self.in_turn_checks(&stmts, &declarations);
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
        let untouchable = self.untouchable(&stmts);
        let triggers = stmts.iter().filter(|s| s.key == "on").filter_map(|s| self.trigger(s)).collect();
        let score = self.score(stmts.iter().find(|s| s.key == "score"));
        let game_match = stmts.iter().find(|s| s.key == "match").and_then(|s| self.game_match(s));
        self.sections_agree(&stmts, game_match.is_some(), &pots);
        self.nothing_unread(&h.file, &stmts, &constants);

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
            sit_out_scores,
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
        let choices: Vec<OptionValue> = match &s.value {
            Some(Ast { kind: AstKind::List(items), .. }) => items
                .iter()
                .filter_map(|i| match &i.kind {
                    AstKind::Str(t) => Some(OptionValue::Text(t.clone())),
                    AstKind::Num(q) => Some(OptionValue::from_q(*q)),
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
}
