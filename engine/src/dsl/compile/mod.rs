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

mod after_auction;
mod bidding;
mod counting;
mod deal;
mod declaration;
mod extends;
mod fold;
mod fool;
mod formula;
mod functions;
mod header;
mod let_order;
mod names;
mod pack;
mod play;
mod play_cards;
mod raise;
mod reads;
mod resolve;
mod rounds;
mod score;
mod table;
mod triggers;
mod trumps;
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

    /// The suits (lanes 0..4) that have cards in the ruleset's pack.
    fn pack_lanes(&self) -> Vec<u8> {
        (0..4u8).filter(|&l| self.pack_cards.is_some_and(|cards| !cards.and(CardSet::of_lane(l)).is_empty())).collect()
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
        // A declaration that throws the deal in (`ends-deal annul`) annuls deals too.
        let annuls = annuls || declarations.iter().any(|d| d.annuls);
        self.next_dealer_agrees(stmts.iter().find(|s| s.key == "deal"), &deal, bidding.is_some(), annuls);
        // A declaration made once the opening round is over needs one.
        if bidding.as_ref().is_none_or(|b| b.opening_round.is_none()) {
            for d in declarations.iter().filter(|d| d.when == When::AfterOpeningRound) {
                let at = stmts.iter().filter(|s| s.key == "declaration").find(|s| s.args.first().is_some_and(|w| w.text == d.name));
                if let Some(st) = at.and_then(|s| s.block.iter().flatten().find(|st| st.key == "when")) {
                    self.err_at(st, "`when after-opening-round` needs an opening round (`opening-round` in `bidding`): without one, no round is ever over");
                }
            }
        }
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
        let ends_by_declaration = stmts.iter().filter(|s| s.key == "declaration").any(|s| s.block.iter().flatten().any(|st| st.key == "ends-match"));
        let game_match = stmts.iter().find(|s| s.key == "match").and_then(|s| self.game_match(s, ends_by_declaration));
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
}
