//! The API's own types as OpenAPI schemas, and the engine's wire types under the names the document
//! gives them. The recorded game, its events and the verdict derive their schemas in the engine
//! (feature `openapi`, `tarot_engine::openapi`); the types below that still mirror an engine or store
//! type derive `Deserialize` with `deny_unknown_fields` for the document only. The tests
//! (`schema/tests.rs`) read what the engine writes against the served document.

#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::Deserialize;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, SchemaType, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

pub use tarot_engine::num::Q as Amount;
pub use tarot_engine::openapi::{Card, NamedFigure, Phase, PlayerAmount, Players, RulesetId, CARD_PATTERN};
pub use tarot_engine::record::{Event, GameRecord, Packet};
pub use tarot_engine::verdict::{Annulled, Figure, LedgerEntry, Next, OpenDeclaration, Outcome, PlayerResult, PotResult, Status, TrickView as Trick, Verdict, Violation};

/// Any JSON value (an option's value).
fn any_value() -> Schema {
    Schema::Object(ObjectBuilder::new().schema_type(SchemaType::AnyValue).build())
}

// ---------------------------------------------------------------------------------------------------
// The verdict.

/// A deal refused as a session's next (409): the pot or player whose amount it carries is not what
/// the session's deals before it left.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DoesNotFollow {
    /// The deal's number in the session, from 1.
    deal: usize,
    /// The pot (`pot NAME` of the ruleset) the deal's `pots` do not carry on.
    pot: Option<String>,
    /// The player whose `standing` is not their total of the deals before.
    player: Option<String>,
    /// What the deals before it left: the pot's closing amount, or the player's total.
    #[schema(value_type = Amount)]
    expected: serde_json::Value,
    /// What the deal carries.
    #[schema(value_type = Amount)]
    given: serde_json::Value,
}

// ---------------------------------------------------------------------------------------------------
// Rulesets, comparisons, statistics.

/// One clause of a ruleset in words, with its rule id, where it is written and its source.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Clause {
    /// The aspect of the game it belongs to (`pack and ranks`, `trick obligations`, ...).
    aspect: String,
    rule: String,
    text: String,
    source: Option<String>,
    at: String,
}

/// An option of a ruleset: its value in force, its default and its choices.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetOption {
    name: String,
    doc: String,
    #[schema(schema_with = any_value)]
    value: serde_json::Value,
    #[schema(schema_with = any_value)]
    default: serde_json::Value,
    #[schema(value_type = Vec<Value>)]
    choices: Vec<serde_json::Value>,
    source: Option<String>,
}

/// A source a ruleset follows.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// e.g. `seed 000`, `FFT`.
    id: String,
    /// The file of the source, under `../shared`.
    file: String,
    title: String,
}

/// A ruleset in words: every clause with its source, its options, its sources.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetDescription {
    id: String,
    title: String,
    version: String,
    /// This ruleset, then its parents.
    chain: Vec<String>,
    /// e.g. `4` or `2-6`.
    players: String,
    options: Vec<RulesetOption>,
    sources: Vec<Source>,
    rules: Vec<Clause>,
}

/// Rulesets side by side: one row per aspect, one cell per ruleset.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Comparison {
    rulesets: Vec<String>,
    rows: Vec<ComparisonRow>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ComparisonRow {
    aspect: String,
    /// The rulesets do not all say the same here.
    differs: bool,
    /// One cell per ruleset, in the order asked for: its clauses for this aspect.
    cells: Vec<Vec<Clause>>,
}

/// One game replayed under several rulesets.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameComparison {
    rulesets: Vec<String>,
    replays: Vec<Replayed>,
    /// Where legality first diverges; absent when every ruleset agrees.
    divergence: Option<Divergence>,
}

/// The game under one ruleset: its verdict, or why it cannot be replayed there.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Replayed {
    ruleset: String,
    #[schema(value_type = Option<Verdict>)]
    verdict: Option<serde_json::Value>,
    /// Why the game cannot be replayed under this ruleset (another pack, another number of players).
    cannot_replay: Option<String>,
    /// Options of the record this ruleset does not have, left out.
    #[serde(default)]
    options_dropped: Vec<String>,
}

/// The first event where the rulesets disagree: legal (or played) under some, illegal (or the deal
/// annulled) under others.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Divergence {
    event: usize,
    legal_under: Vec<String>,
    illegal_under: Vec<String>,
    /// Rulesets under which the deal was annulled at or before this event.
    #[serde(default)]
    annulled_under: Vec<String>,
    explanation: String,
}

/// Deal statistics of one ruleset over seeded random deals.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DealStats {
    ruleset: String,
    /// The players dealt cards.
    players: usize,
    deals: u64,
    seed: u64,
    note: String,
    /// Deals annulled, by annulment.
    annulments: BTreeMap<String, u64>,
    /// Hands that could make each declaration.
    declarations: BTreeMap<String, u64>,
    /// For each card class: how many hands were dealt 0, 1, 2... of its cards.
    classes: BTreeMap<String, Vec<u64>>,
    /// Where an option changes the pack (the Fool a trump or the Excuse): which pack was dealt (the
    /// default options') and what the other choice makes of it; absent for other rulesets.
    #[serde(default)]
    pack: Option<String>,
    /// The options the deals were made with, where any was chosen (the others at their defaults);
    /// absent when none was.
    #[serde(default)]
    options: BTreeMap<String, serde_json::Value>,
}

// ---------------------------------------------------------------------------------------------------
// The store.

/// A verdict's status, as a filter; empty means any.
pub struct StatusFilter;

impl PartialSchema for StatusFilter {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(["valid", "invalid", "in_progress", "annulled", ""]))
            .description(Some("A verdict's status, as a filter; empty means any"))
            .into()
    }
}
impl ToSchema for StatusFilter {}

/// One stored game in a listing.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// The game's id: `g` and a number in base 36.
    #[schema(example = "g1")]
    game: String,
    ruleset: String,
    ruleset_version: String,
    players: Vec<String>,
    #[schema(value_type = Status)]
    status: serde_json::Value,
    /// The stream's version (its number of events) the verdict was computed at.
    version: u64,
    /// The archive's global position the verdict was computed at.
    checkpoint: u64,
}

/// A stored event: its place in the game's stream and in the archive, its id if one was given.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StoredEvent {
    /// Its place in the game's stream, from 1.
    version: u64,
    /// Its place in the whole archive, from 1.
    position: u64,
    /// The id the client gave it, scoped to its game: the same id in another game is another event.
    id: Option<String>,
    #[schema(value_type = Event)]
    event: serde_json::Value,
}

// ---------------------------------------------------------------------------------------------------
// The import.

/// The body of an import: recorded games, one JSON record (a `GameRecord`) per line, as bytes.
pub struct GameLines;

impl PartialSchema for GameLines {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .description(Some("Recorded games, one JSON record (a GameRecord) per line"))
            .into()
    }
}
impl ToSchema for GameLines {}

/// The answer of an import: one JSON object per line, each an `ImportLine`, as bytes.
pub struct ImportLines;

impl PartialSchema for ImportLines {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .description(Some("One JSON object per line, each an ImportLine (#/components/schemas/ImportLine)"))
            .into()
    }
}
impl ToSchema for ImportLines {}

/// One line of an import's answer: a game stored (or found stored already), a line refused, or the
/// failure that ended the answer.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum ImportLine {
    Imported(ImportedLine),
    Refused(RefusedLine),
    Failed(ImportFailure),
}

impl PartialSchema for ImportLine {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(Ref::from_schema_name("ImportedLine"))
            .item(Ref::from_schema_name("RefusedLine"))
            .item(Ref::from_schema_name("ImportFailure"))
            .description(Some("One line of an import's answer: a game stored (or stored already), a line refused, or the failure that ended the answer"))
            .into()
    }
}

impl ToSchema for ImportLine {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.extend([
            ("ImportedLine".to_string(), ImportedLine::schema()),
            ("RefusedLine".to_string(), RefusedLine::schema()),
            ("ImportFailure".to_string(), ImportFailure::schema()),
        ]);
        <ImportedLine as ToSchema>::schemas(schemas);
    }
}

/// A line of the body stored as a game, or found stored already by an earlier import.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportedLine {
    /// The line's number in the body, from 1.
    line: u64,
    /// The game's id.
    #[schema(example = "g1")]
    id: String,
    /// The game's version (its number of events).
    version: u64,
    #[schema(value_type = Status)]
    status: serde_json::Value,
    /// Stored now (true), or stored already by an earlier import of the same record (false).
    new: bool,
}

/// A line of the body that is not a readable game: nothing was stored for it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefusedLine {
    /// The line's number in the body, from 1.
    line: u64,
    /// Why it was refused.
    error: String,
}

/// The last line of an answer that a failure ended after its first batch: the batches before it are
/// stored (a retry stores nothing twice).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportFailure {
    /// What failed.
    error: String,
    /// The HTTP status the failure would have had as an answer of its own.
    #[schema(example = 507)]
    status: u16,
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod player_amount_tests {
    /// Schemathesis found `["41/0", 0]` refused: as `items: oneOf [string, Amount]`, the name "41/0"
    /// is both a string and an amount's text. The pair is a tuple: a name first, an amount second.
    #[test]
    fn a_player_amount_is_a_name_then_an_amount() {
        let s = crate::docs::document()["components"]["schemas"]["PlayerAmount"].clone();
        assert_eq!(s["prefixItems"][0]["type"], "string", "{s}");
        assert_eq!(s["prefixItems"][1]["allOf"][0]["$ref"], "#/components/schemas/Amount", "{s}");
        assert_eq!(s["maxItems"], 2, "no third item: {s}");
        assert!(s.get("items").is_none(), "no item schema a name could match twice, and no `items: false`, which generated clients refuse: {s}");
    }
}
