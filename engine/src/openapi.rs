//! The wire types' OpenAPI schemas (feature `openapi`), for what a derive cannot say: a card code's
//! pattern, an exact amount (a number or `"n/d"`), and the bounds of a few strings and maps (a
//! ruleset id, the players, a record's pots; the figures' schemas are in `verdict`, the events' in
//! `record`). Every record, event and verdict type
//! derives its own schema beside its serde derives, so the document and the wire are one definition.

#![allow(dead_code)]

use std::borrow::Cow;

use serde::Deserialize;

use utoipa::openapi::schema::{AllOfBuilder, ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::num::Q;

/// A card code (the schema of a `Text` that holds one).
#[derive(Deserialize)]
pub struct Card(String);

/// The pattern of a card code, in any case.
pub const CARD_PATTERN: &str = "^([Tt]([1-9]|[1-3][0-9]|40)|[Ee][Xx]|([KkQqCcJj]|10|[1-9])[SsHhDdCc])$";

impl PartialSchema for Card {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(CARD_PATTERN))
            .description(Some("A card code: trumps T1 to T40 (those of the ruleset's pack: most have T1 to T21), the Excuse EX, suited cards rank (K Q C J 10 9 ... 1) then suit (S H D C), in any case"))
            .examples([serde_json::json!("T21"), serde_json::json!("EX"), serde_json::json!("10H")])
            .into()
    }
}
impl ToSchema for Card {}

/// An exact amount as `Q` writes it: a whole number or a half as a JSON number, other fractions
/// (Marolles counts in thirds) as a string `"n/d"`.
impl PartialSchema for Q {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .item(ObjectBuilder::new().schema_type(Type::String).pattern(Some("^-?[0-9]+/[0-9]+$")))
            .description(Some("An exact amount: a whole number or a half as a number, another fraction as \"n/d\""))
            .into()
    }
}
impl ToSchema for Q {
    fn name() -> Cow<'static, str> {
        "Amount".into()
    }
}

/// A pair `[player, amount]`, e.g. `["DUPONT", 1346]`.
pub struct PlayerAmount;

impl PartialSchema for PlayerAmount {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            // A tuple: the first item a player's name, the second an amount. As `items: oneOf [string,
            // Amount]` a name such as "41/0", which is also an amount's text, matched both. No third
            // item: `maxItems` says so (`items: false` would say it again, and generated clients
            // refuse a schema that is `false`).
            .prefix_items([
                Schema::from(ObjectBuilder::new().schema_type(Type::String).description(Some("the player"))),
                AllOfBuilder::new().item(Ref::from_schema_name("Amount")).into(),
            ])
            .min_items(Some(2))
            .max_items(Some(2))
            .description(Some("A player and an amount, as a pair [player, amount]"))
            .examples([serde_json::json!(["DUPONT", 1346])])
            .into()
    }
}
impl ToSchema for PlayerAmount {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("Amount".into(), Q::schema()));
    }
}

/// A ruleset id: one of the rulesets the server knows, the built-in ones (given as examples) or, for a
/// server started with `--rules-dir`, those of its folder. A string, not an enumeration of the
/// built-in ids: a client generated from the document would refuse the others.
pub struct RulesetId;

impl PartialSchema for RulesetId {
    fn schema() -> RefOr<Schema> {
        // The built-in files' ids, without compiling them: utoipa asks for this schema once per use.
        let ids: Vec<serde_json::Value> = crate::Registry::builtin_files().into_keys().map(serde_json::Value::String).collect();
        ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(1))
            .description(Some("A ruleset id (see GET /rulesets): a built-in one, as in the examples, or one of the rule files of a server started with --rules-dir"))
            .examples(ids)
            .into()
    }
}
impl ToSchema for RulesetId {}

/// One value of an option: a word or a number, as the rule file writes its choices.
pub struct OptionValue;

impl PartialSchema for OptionValue {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::String))
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .description(Some("A value of an option: a word or a number, as the rule file writes its choices"))
            .into()
    }
}
impl ToSchema for OptionValue {}

/// A ruleset's options, each with the value chosen: a word or a number, one of the option's choices
/// (a record with any other is refused); the options not given keep their default.
pub struct OptionValues;

impl PartialSchema for OptionValues {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property_names(Some(ObjectBuilder::new().schema_type(Type::String)))
            .additional_properties(Some(Ref::from_schema_name("OptionValue")))
            .description(Some(
                "Options of the ruleset, each with the value chosen: a word or a number, one of the option's choices (see GET /rulesets/{id}); the others keep their default",
            ))
            .examples([serde_json::json!({"round": "pflicht-rauber"})])
            .into()
    }
}
impl ToSchema for OptionValues {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("OptionValue".into(), OptionValue::schema()));
    }
}

/// The pattern of a name that is not blank: it holds a character that is no white space. Written out
/// so that every reader of the document agrees with the server (`crate::blank`): JSON Schema's
/// `\s` (ECMAScript's) leaves out U+0085, which Rust and Unicode count as white space, and holds
/// U+FEFF, which they do not; both are named, so each reading refuses the same names.
pub const NOT_BLANK: &str = "[^\\s\\u0085\\uFEFF]";

/// The players round a table: two to eight, each named (not blank), each once.
pub struct Players;

impl PartialSchema for Players {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(ObjectBuilder::new().schema_type(Type::String).pattern(Some(NOT_BLANK)).description(Some("A player's name, not blank")))
            .min_items(Some(2))
            .max_items(Some(8))
            .unique_items(true)
            .description(Some("The players round the table, each named once"))
            .examples([serde_json::json!(["Ann", "Bob", "Cid", "Dan"])])
            .into()
    }
}
impl ToSchema for Players {}

/// A player's name where a record names one (the dealer, an event's player, a hand's owner): not
/// blank, as `Players` has it. A name that is not one of the players is refused (422) all the same.
pub struct PlayerName;

impl PartialSchema for PlayerName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new().schema_type(Type::String).pattern(Some(NOT_BLANK)).description(Some("A player's name, one of the record's `players` (not blank)")).into()
    }
}
impl ToSchema for PlayerName {}

/// Cards, each once: a card listed twice in a hand, the dog, a packet, a discard or a declaration is
/// refused (422).
pub struct Cards;

impl PartialSchema for Cards {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new().items(Ref::from_schema_name("Card")).unique_items(true).description(Some("Cards, each listed once")).into()
    }
}
impl ToSchema for Cards {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("Card".into(), Card::schema()));
    }
}

/// A record's `pots` or `standing`: names (not blank) with whole amounts within
/// `num::AMOUNT_LIMIT` either way (past it, the record is refused: 422 naming the field).
fn carried(what: &str, example: serde_json::Value) -> RefOr<Schema> {
    let limit = crate::num::AMOUNT_LIMIT as f64;
    let amount = ObjectBuilder::new().schema_type(Type::Integer).format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64))).minimum(Some(-limit)).maximum(Some(limit));
    ObjectBuilder::new()
        .property_names(Some(ObjectBuilder::new().schema_type(Type::String).pattern(Some(NOT_BLANK))))
        .additional_properties(Some(amount))
        .description(Some(format!("{what}, each named (not blank), with a whole amount from -{AMOUNT_LIMIT} to {AMOUNT_LIMIT}", AMOUNT_LIMIT = crate::num::AMOUNT_LIMIT)))
        .examples([example])
        .into()
}

/// A record's `pots`: what each pot holds at the start of the deal.
pub struct Pots;

impl PartialSchema for Pots {
    fn schema() -> RefOr<Schema> {
        carried("Pots", serde_json::json!({"king": 75, "pagat": 70}))
    }
}
impl ToSchema for Pots {}

/// A record's `standing`: each player's running total before the deal.
pub struct Standing;

impl PartialSchema for Standing {
    fn schema() -> RefOr<Schema> {
        carried("Players", serde_json::json!({"Ann": -12, "Bob": 12, "Cid": -12, "Dan": 12}))
    }
}
impl ToSchema for Standing {}
