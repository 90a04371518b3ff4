//! The wire types' OpenAPI schemas (feature `openapi`), for what a derive cannot say: a card code's
//! pattern, an exact amount (a number or `"n/d"`), a figure of the score, the event union with its
//! discriminator, and a few strings whose values are known. Every record, event and verdict type
//! derives its own schema beside its serde derives, so the document and the wire are one definition.

use std::borrow::Cow;

use utoipa::openapi::schema::{AllOfBuilder, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::num::Q;
use crate::verdict::Figure;

/// A card code (the schema of a `Text` that holds one).
pub struct Card;

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

/// A value of the score as `Figure` writes it.
impl PartialSchema for Figure {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .item(ObjectBuilder::new().schema_type(Type::String))
            // A list of figures, written out one level deep: generated clients do not follow a union
            // that refers to itself.
            .item(
                ArrayBuilder::new().items(
                    OneOfBuilder::new()
                        .item(ObjectBuilder::new().schema_type(Type::Number))
                        .item(ObjectBuilder::new().schema_type(Type::Boolean))
                        .item(ObjectBuilder::new().schema_type(Type::String))
                        .item(ArrayBuilder::new()),
                ),
            )
            .description(Some("A value of the score: a number, true or false, a text (a player, a card, \"trick 18\"), or a list of these"))
            .into()
    }
}
impl ToSchema for Figure {}

/// A pair `[name, value]` of `Outcome::values`, e.g. `["oudlers", 2]`.
pub struct NamedFigure;

impl PartialSchema for NamedFigure {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(Ref::from_schema_name("Figure"))
            .min_items(Some(2))
            .max_items(Some(2))
            .description(Some("A named value of the score, as a pair [name, value]: [\"oudlers\", 2]"))
            .examples([serde_json::json!(["oudlers", 2])])
            .into()
    }
}
impl ToSchema for NamedFigure {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("Figure".into(), Figure::schema()));
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

// `Next::phase`, a string of these values.
/// What a game in progress waits for.
#[derive(ToSchema)]
#[schema(rename_all = "snake_case")]
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
