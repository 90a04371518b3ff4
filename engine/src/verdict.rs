//! What replay says about a recorded game, on the wire and as text for people.

use std::fmt::Write;

use std::sync::Arc;

use serde::Serialize;

use crate::cards::Card;
use crate::ir::MAX_PLAYERS;
use crate::num::Q;

mod json;
#[cfg(feature = "openapi")]
mod schema;
pub use json::json_string;
#[cfg(feature = "openapi")]
pub use schema::NamedFigure;

/// Where the game stands: `valid` (finished and scored), `invalid` (a rule broken), `in_progress`,
/// `annulled` (the deal is void).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Valid,
    Invalid,
    InProgress,
    Annulled,
}

/// The first rule a game breaks.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Violation {
    /// The offending event's index in the record, from 0.
    pub event: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub player: Option<Arc<str>>,
    /// The rule's id, e.g. `play.must.overtrump`.
    #[cfg_attr(feature = "openapi", schema(example = "play.must.overtrump"))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub rule: Arc<str>,
    #[cfg_attr(feature = "openapi", schema(example = "Cid must overtrump: holds T18, which beats T15 on the table"))]
    pub message: String,
    /// The source the rule follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub source: Option<Arc<str>>,
    /// Where the rule is written: `rulesets/<id>.tarot:57`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub at: Arc<str>,
}

/// Why a deal is void.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Annulled {
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub rule: Arc<str>,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub player: Option<Arc<str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub source: Option<Arc<str>>,
}

/// What a game in progress waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The deal: the record has no deal yet.
    Deal,
    Bid,
    /// The taker calls a partner's card.
    Call,
    /// The taker takes a packet of the talon.
    Take,
    Discard,
    /// The taker buys a card, or passes.
    Buy,
    Play,
}

impl Phase {
    /// The phase's name, as the wire writes it (`take`).
    pub fn word(self) -> &'static str {
        match self {
            Phase::Deal => "deal",
            Phase::Bid => "bid",
            Phase::Call => "call",
            Phase::Take => "take",
            Phase::Discard => "discard",
            Phase::Buy => "buy",
            Phase::Play => "play",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// Whose turn it is in a game in progress, and what they may do.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Next {
    /// The player to move (the dealer, for a deal).
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub player: Arc<str>,
    pub phase: Phase,
    /// The legal moves: bids (with `pass`), or the cards that may be called, discarded or played, or
    /// the cards that may be bought (with `pass`); nothing at `take`, whose choices are `packets`. No
    /// card is legal while a declaration the rules make compulsory (or the contract requires) is
    /// still owed before it: `declarations` lists what may be declared.
    pub legal: Vec<String>,
    /// At `take`, what may be taken, each choice the list of its cards (a `take` event's `cards`):
    /// the talon's packets, or the runs of the dog a stealer may steal. Absent at every other phase.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Vec<crate::openapi::Card>>))]
    pub packets: Vec<Vec<String>>,
    /// How many cards to discard, or in a packet of the talon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// The cards already on the table in the trick being played, in order.
    #[serde(skip_serializing_if = "TrickCards::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::openapi::Card>))]
    pub table: TrickCards,
    /// The declarations open at this moment, each with the cards it may show.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub declarations: Vec<OpenDeclaration>,
    /// The players who may sit the deal out by choice now (a `sit-out` event, where the ruleset has
    /// `sit-out-by-choice`), beside the moves of the player to move: after the deal, before the first
    /// declaration or card.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub sit_out: Vec<Arc<str>>,
}

/// A declaration a player may make now.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct OpenDeclaration {
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub player: Arc<str>,
    /// The declaration's name, as a `declare` event gives it.
    #[cfg_attr(feature = "openapi", schema(example = "poignee"))]
    pub declaration: String,
    /// The cards the player may show for it; none where the declaration shows no cards.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::openapi::Card>))]
    pub cards: Vec<String>,
    /// How many of them to show, where the ruleset fixes it (a poignée's sizes).
    // Largest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<usize>,
}

/// A term of the hand score (no payer or payee) or a payment (both).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct LedgerEntry {
    #[cfg_attr(feature = "openapi", schema(example = "score.term.contract"))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub rule: Arc<str>,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub label: Arc<str>,
    /// The payer: a player, or a pot (`pot.NAME`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub from: Option<Arc<str>>,
    /// The payee: a player, or a pot (`pot.NAME`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub to: Option<Arc<str>>,
    pub amount: Q,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub source: Option<Arc<str>>,
    /// The event that caused it, for a payment made during the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<usize>,
}

/// One player's result in a finished game.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayerResult {
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub player: Arc<str>,
    pub card_points: Q,
    pub tricks: usize,
    pub score: Q,
    /// Present (true) for the winners, where the ruleset names winners.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub winner: bool,
}

/// How a finished game came out.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub taker: Option<Arc<str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub partner: Option<Arc<str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    /// The score's named values (`points`, `oudlers`, `target`, `made`, ...), in the order they are
    /// worked out: as the ruleset writes them, each after those it reads. A `let` whose formula fails
    /// in this game (one that nothing evaluated here reads) has no value and is not listed.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::verdict::NamedFigure>))]
    pub values: Vec<(Arc<str>, Figure)>,
    /// The sum of the hand score's terms, where the ruleset has terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand_score: Option<Q>,
    pub players: Vec<PlayerResult>,
    /// Each pot of the ruleset over this deal, where it has pots: the players' scores add up to what
    /// the pots gave less what they took.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pots: Vec<PotResult>,
    /// Where a declaration ended the deal and the match (`ends-match` in the rule file: Tarocchini's
    /// calling out at 800): the declarer's side, the declarer first, who win the match whatever the
    /// totals. Absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(example = json!(["Ann", "Cid"])))]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub ends_match: Vec<Arc<str>>,
    /// Where a declaration made in this deal names who deals the match's last deal (`ends-match
    /// after-deal-by` in the rule file: Cego's "Der Gstieß gibt ab", the holder of the Gstieß): that
    /// player. The match is over after the first later deal played to the end that he deals.
    /// Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = "Bob"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub last_dealer: Option<Arc<str>>,
}

/// A pot over one deal: what it held at the start (the record's `pots`) and at the end, which the
/// next deal carries.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PotResult {
    /// Its name (`pot NAME`), as the record's `pots` and the ledger (`pot.NAME`) write it.
    #[cfg_attr(feature = "openapi", schema(example = "king"))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub pot: Arc<str>,
    pub carried: Q,
    pub closing: Q,
}

impl Outcome {
    /// The score's value called `name`, as JSON.
    pub fn value(&self, name: &str) -> Option<serde_json::Value> {
        self.values.iter().find(|(k, _)| **k == *name).map(|(_, v)| serde_json::to_value(v).expect("figures are plain data"))
    }
}

/// A value of the score as people read it: players by name, tricks by number, cards by code.
/// Written as JSON a number, `true` or `false`, a string (`"trick 18"` for a trick) or a list.
#[derive(Clone, Debug, PartialEq)]
pub enum Figure {
    Num(Q),
    Bool(bool),
    Text(Arc<str>),
    /// A trick, by number from 0; written `"trick N"`, N from 1.
    Trick(u8),
    List(Vec<Figure>),
}

impl Serialize for Figure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Figure::Num(q) => q.serialize(s),
            Figure::Bool(b) => s.serialize_bool(*b),
            Figure::Text(t) => s.serialize_str(t),
            Figure::Trick(t) => s.collect_str(&format_args!("trick {}", t + 1)),
            Figure::List(l) => s.collect_seq(l),
        }
    }
}

/// As JSON, the way the score sheet shows it.
impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| std::fmt::Error)?)
    }
}

/// The codes a record wrote for cards in another way than the card's own code (the Fool made a
/// trump written `EX` for T22, a pack's `code` alias): the verdict of that record writes those cards
/// the same way. `None` for the usual record, which writes every card by its own code.
pub type Spellings = Option<Arc<[(Card, crate::record::Text)]>>;

/// A card's code as the record wrote it (`spellings`), or its own.
pub fn spelled(spellings: &Spellings, c: Card) -> &str {
    match spellings.as_deref().and_then(|s| s.iter().find(|(k, _)| *k == c)) {
        Some((_, code)) => code.as_str(),
        None => c.code_str(),
    }
}

/// The cards of one trick, at most one per player: kept inline, so a verdict's tricks take no
/// allocation each. Reads as a slice of cards; written as a list of codes, each as the record wrote
/// it (`spellings`).
#[derive(Clone, Default)]
pub struct TrickCards {
    len: u8,
    cards: [Card; MAX_PLAYERS],
    pub spellings: Spellings,
}

impl TrickCards {
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The cards' codes, as the record wrote them.
    pub fn codes(&self) -> impl Iterator<Item = &str> {
        self.iter().map(|&c| spelled(&self.spellings, c))
    }
}

impl std::ops::Deref for TrickCards {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl FromIterator<Card> for TrickCards {
    /// Panics past one card per seat: a trick never has more.
    fn from_iter<I: IntoIterator<Item = Card>>(cards: I) -> TrickCards {
        let mut out = TrickCards::default();
        for c in cards {
            out.cards[out.len as usize] = c;
            out.len += 1;
        }
        out
    }
}

impl PartialEq for TrickCards {
    fn eq(&self, other: &TrickCards) -> bool {
        **self == **other && self.codes().eq(other.codes())
    }
}

impl std::fmt::Debug for TrickCards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for TrickCards {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.codes())
    }
}

/// A trick: who led, the cards in the order played, who won it, and the cards of it he does not keep.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = Trick))]
#[serde(deny_unknown_fields)]
pub struct TrickView {
    /// From 1.
    pub number: usize,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub leader: Arc<str>,
    // The cards in the order played, from the leader round the table.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::openapi::Card>))]
    pub cards: TrickCards,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub winner: Arc<str>,
    /// The cards of the trick that do not go to its winner's pile: the Excuse, or a card played like
    /// it, back to its player's side; a card a fault gives back. Absent when he keeps them all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_taken: Vec<NotTaken>,
}

/// A card of a trick its winner does not keep, and where it goes.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NotTaken {
    #[serde(skip)]
    pub card: Card,
    /// The card, as the record writes it.
    #[serde(rename = "card")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::Card))]
    pub code: String,
    /// The player whose pile it goes to.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub to: Arc<str>,
    /// Whether he gives the trick's winner an empty card for it.
    pub for_empty_card: bool,
}

/// A recorded game judged by its ruleset: how far it got, where and why it stopped, and what it scores.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Verdict {
    pub ruleset: String,
    /// The version (a hash of the rule files) the verdict was computed with.
    pub ruleset_version: String,
    pub status: Status,
    /// The first rule broken, when `invalid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violation: Option<Violation>,
    /// Why the deal is void, when `annulled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annulled: Option<Annulled>,
    /// Whose turn it is and what they may do, when `in_progress`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<Next>,
    /// The taker, contract, the score's named values and each player's result, when `valid`; and each
    /// player's balance of the payments for a deal thrown in that the rules pay for (`annulled`,
    /// `all-pass pay`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Every term of the score and every payment, with the rule it comes from.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ledger: Vec<LedgerEntry>,
    /// The tricks played, in order.
    pub tricks: Vec<TrickView>,
    /// Things the sources leave open that this game ran into.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A record that cannot be replayed at all: bad JSON shapes, unknown cards or players, a deal that
/// is not a deal. Not a rule violation: the game cannot even be read.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct InputError {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.event {
            Some(e) => write!(f, "event {e}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

/// Why a record gets no verdict: the record cannot be read as a game of the ruleset (an `InputError`:
/// the client's mistake), or the ruleset cannot referee it (`ruleset_fault`: the rules' author's).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReplayError {
    /// The event at which replay stopped; none for what is wrong before the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<usize>,
    pub message: String,
    /// Set when the rules are at fault, not the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruleset_fault: Option<RulesetFault>,
}

/// A ruleset that cannot referee a game it has accepted so far: a rule whose formula fails on it (a
/// division by zero, an index outside a list, a value of the wrong kind), or a setting that cannot
/// be worked out for the table and options the record chose.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RulesetFault {
    pub ruleset: String,
    /// The rule that fails (`discard.taker`), when it is known apart from the message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Where that rule is written (`rulesets/NAME.tarot:79`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

impl ReplayError {
    /// The ruleset `ruleset` is at fault: its rule `rule` (written at `at`), when known.
    pub fn ruleset(ruleset: &str, rule: Option<(&str, &str)>, event: Option<usize>, message: String) -> ReplayError {
        let (rule, at) = match rule {
            Some((r, a)) => (Some(r.to_string()), Some(a.to_string())),
            None => (None, None),
        };
        ReplayError { event, message, ruleset_fault: Some(RulesetFault { ruleset: ruleset.to_string(), rule, at }) }
    }
}

impl From<InputError> for ReplayError {
    fn from(e: InputError) -> ReplayError {
        ReplayError { event: e.event, message: e.message, ruleset_fault: None }
    }
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(e) = self.event {
            write!(f, "event {e}: ")?;
        }
        match &self.ruleset_fault {
            None => write!(f, "{}", self.message),
            Some(RulesetFault { ruleset, rule: Some(rule), at: Some(at) }) => {
                write!(f, "the ruleset {ruleset} is broken: the rule {rule} ({at}) cannot be evaluated: {}", self.message)
            }
            Some(RulesetFault { ruleset, .. }) => write!(f, "the ruleset {ruleset} is broken: {}", self.message),
        }
    }
}

impl std::error::Error for ReplayError {}

impl Verdict {
    /// A trick-by-trick timeline and a score sheet, for people and for snapshot tests.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let status = match self.status {
            Status::Valid => "valid",
            Status::Invalid => "INVALID",
            Status::InProgress => "in progress",
            Status::Annulled => "annulled",
        };
        let _ = writeln!(out, "{} ({status})", self.ruleset);
        for t in &self.tricks {
            let cards: Vec<&str> = t.cards.codes().collect();
            let kept: Vec<String> = t.not_taken.iter().map(|x| format!("{} to {}{}", x.code, x.to, if x.for_empty_card { ", for an empty card" } else { "" })).collect();
            let kept = if kept.is_empty() { String::new() } else { format!("  ({})", kept.join("; ")) };
            let _ = writeln!(out, "  trick {:>2}: {:<6} {:<40} -> {}{kept}", t.number, t.leader, cards.join(" "), t.winner);
        }
        if let Some(v) = &self.violation {
            let _ = writeln!(out, "violation at event {}: {}", v.event, v.message);
            let _ = writeln!(out, "  rule {} ({}){}", v.rule, v.at, v.source.as_ref().map(|s| format!(", source {s}")).unwrap_or_default());
        }
        if let Some(a) = &self.annulled {
            let _ = writeln!(out, "annulled: {} (rule {}{})", a.reason, a.rule, a.source.as_ref().map(|s| format!(", source {s}")).unwrap_or_default());
        }
        if let Some(n) = &self.next {
            let table: Vec<&str> = n.table.codes().collect();
            let on = if table.is_empty() { String::new() } else { format!(" on the table: {}", table.join(" ")) };
            // At a take, each choice is cards: the choices are told apart by " | ".
            let moves = match n.phase {
                Phase::Take => n.packets.iter().map(|k| k.join(" ")).collect::<Vec<_>>().join(" | "),
                _ => n.legal.join(" "),
            };
            let _ = writeln!(out, "next: {} to {} ({moves}){on}", n.player, n.phase);
            if !n.sit_out.is_empty() {
                let _ = writeln!(out, "  or sits out: {}", n.sit_out.join(", "));
            }
        }
        if let Some(o) = &self.outcome {
            if let Some(t) = &o.taker {
                let _ = writeln!(out, "taker {t}{}, contract {}", o.partner.as_ref().map(|p| format!(" with {p}")).unwrap_or_default(), o.contract.as_deref().unwrap_or("-"));
            }
            for (k, v) in &o.values {
                let _ = writeln!(out, "  {k} = {v}");
            }
            if let Some(h) = o.hand_score {
                let _ = writeln!(out, "  hand score = {h}");
            }
            let _ = writeln!(out, "score sheet:");
            for p in &o.players {
                let _ = writeln!(
                    out,
                    "  {:<8} card points {:>5}  tricks {:>2}  score {:>6}{}",
                    p.player,
                    p.card_points.to_string(),
                    p.tricks,
                    p.score.to_string(),
                    if p.winner { "  winner" } else { "" }
                );
            }
            for p in &o.pots {
                let _ = writeln!(out, "  pot {:<12} carried {:>6}  closing {:>6}", p.pot, p.carried.to_string(), p.closing.to_string());
            }
        }
        if !self.ledger.is_empty() {
            let _ = writeln!(out, "ledger:");
            for l in &self.ledger {
                let who = match (&l.from, &l.to) {
                    (Some(f), Some(t)) => format!("{f} pays {t}"),
                    _ => "term".to_string(),
                };
                let _ = writeln!(out, "  {:<22} {:<26} {:>6}  [{}{}]", l.label, who, l.amount.to_string(), l.rule, l.source.as_ref().map(|s| format!("; {s}")).unwrap_or_default());
            }
        }
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        out
    }
}
