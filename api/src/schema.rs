//! The API's own types as OpenAPI schemas, and the wire types of the engine and the store under the
//! names the document gives them. The recorded game, its events, the verdict, ruleset descriptions,
//! comparisons and statistics derive their schemas where they are defined, in the engine (feature
//! `openapi`; what a derive cannot say is in `tarot_engine::openapi`); so do the listing's line
//! (`GameSummary`) and the stored event (`StoredEvent`), in the store (feature `openapi`;
//! `tarot_store::openapi` closes them). The types below are the API's: a session's refusal, the
//! query's filters, the import's lines. They derive `Deserialize` with `deny_unknown_fields` for what
//! serde's attributes tell utoipa. The tests (`schema/tests.rs`) read what the engine and the store
//! write against the served document.

#![allow(dead_code)]

use serde::Deserialize;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

// The engine's wire types, under the names the document and the handlers give them.
pub use tarot_engine::DealStats;
pub use tarot_engine::Description as RulesetDescription;
pub use tarot_engine::Q as Amount;
pub use tarot_engine::{Comparison, GameComparison};
pub use tarot_engine::{Event, GameRecord};
pub use tarot_engine::{PlayerAmount, Players, RulesetId};
pub use tarot_engine::{PotResult, Status, Verdict, Violation};
// The store's, likewise.
pub use tarot_store::StoredEvent;
pub use tarot_store::Summary as GameSummary;

// ---------------------------------------------------------------------------------------------------
// Sessions.

/// A deal refused as a session's next (409): the pot or player whose amount it carries is not what
/// the session's deals before it left (`pot` or `player`, with `expected` and `given`), or another
/// player dealt it than the one the ruleset makes due (`dealer` and `due`).
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
    #[schema(value_type = Option<Amount>)]
    expected: Option<serde_json::Value>,
    /// What the deal carries.
    #[schema(value_type = Option<Amount>)]
    given: Option<serde_json::Value>,
    /// The player who dealt the deal, where another was due to deal it.
    dealer: Option<String>,
    /// The player due to deal it after the deal before (`deal { next_dealer }` of the ruleset).
    due: Option<String>,
}

// ---------------------------------------------------------------------------------------------------
// Rulesets, comparisons, statistics.

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

/// A whole number in a query, or empty (not given, as a form sends it): `offset=` and `limit=`.
fn whole_or_empty(minimum: f64, description: &str) -> RefOr<Schema> {
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(minimum)))
        .item(ObjectBuilder::new().schema_type(Type::String).enum_values(Some([""])))
        .description(Some(description))
        .into()
}

/// `offset`: how many games to skip, or empty (0).
pub struct OffsetParam;

impl PartialSchema for OffsetParam {
    fn schema() -> RefOr<Schema> {
        whole_or_empty(0.0, "How many games to skip; empty means 0")
    }
}
impl ToSchema for OffsetParam {}

/// `limit`: at most how many games, or empty (50).
pub struct LimitParam;

impl PartialSchema for LimitParam {
    fn schema() -> RefOr<Schema> {
        whole_or_empty(1.0, "At most this many games; empty means 50")
    }
}
impl ToSchema for LimitParam {}

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
pub(crate) mod tests;

#[cfg(test)]
mod player_amount_tests {
    /// Schemathesis found `["41/0", 0]` refused: as `items: oneOf [string, Amount]`, the name "41/0"
    /// is both a string and an amount's text. The pair is a tuple: a name first, an amount second.
    #[test]
    fn a_player_amount_is_a_name_then_an_amount() {
        let s = crate::openapi::document()["components"]["schemas"]["PlayerAmount"].clone();
        assert_eq!(s["prefixItems"][0]["type"], "string", "{s}");
        assert_eq!(s["prefixItems"][1]["allOf"][0]["$ref"], "#/components/schemas/Amount", "{s}");
        assert_eq!(s["maxItems"], 2, "no third item: {s}");
        assert!(s.get("items").is_none(), "no item schema a name could match twice, and no `items: false`, which generated clients refuse: {s}");
    }
}
