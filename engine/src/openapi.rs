//! The wire types' OpenAPI schemas (feature `openapi`), for what a derive cannot say: a card code's
//! pattern, an exact amount (a number or `"n/d"`), a figure of the score, the event union with its
//! discriminator, and a few strings whose values are known. Every record, event and verdict type
//! derives its own schema beside its serde derives, so the document and the wire are one definition.

#![allow(dead_code)]

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;

use utoipa::openapi::schema::{AllOfBuilder, ArrayBuilder, Discriminator, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::num::Q;
use crate::record::{Event, Packet};
use crate::verdict::Figure;

/// Any JSON value (an option's value).
pub fn any_value() -> Schema {
    Schema::Object(ObjectBuilder::new().schema_type(SchemaType::AnyValue).build())
}

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

/// The players round a table: two to eight, each named (not blank), each once.
pub struct Players;

impl PartialSchema for Players {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(ObjectBuilder::new().schema_type(Type::String).pattern(Some("\\S")).description(Some("A player's name, not blank")))
            .min_items(Some(2))
            .max_items(Some(8))
            .unique_items(true)
            .description(Some("The players round the table, each named once"))
            .examples([serde_json::json!(["Ann", "Bob", "Cid", "Dan"])])
            .into()
    }
}
impl ToSchema for Players {}

/// The kinds of event: (`type` value, schema name).
const EVENT_KINDS: [(&str, &str); 9] = [
    ("deal", "DealEvent"),
    ("bid", "BidEvent"),
    ("call", "CallEvent"),
    ("take", "TakeEvent"),
    ("discard", "DiscardEvent"),
    ("buy", "BuyEvent"),
    ("declare", "DeclareEvent"),
    ("play", "PlayEvent"),
    ("sit-out", "SitOutEvent"),
];

/// An event of a recorded game, by its `type`: a union of the nine kinds, each a schema of its own
/// (below) with its `type`, told apart by it (a discriminator), as generated clients read unions
/// best. A derive would write the kinds inline, unnamed; the kinds' schemas are the `Event` variants'
/// fields, field for field, which the API's tests check on every fixture's events.
impl PartialSchema for Event {
    fn schema() -> RefOr<Schema> {
        let mut discriminator = Discriminator::new("type");
        let mut union = OneOfBuilder::new().description(Some("One event of a recorded game, by its `type`"));
        for (kind, name) in EVENT_KINDS {
            discriminator.mapping.insert(kind.to_string(), format!("#/components/schemas/{name}"));
            union = union.item(Ref::from_schema_name(name));
        }
        union.discriminator(Some(discriminator)).into()
    }
}

impl ToSchema for Event {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.extend([
            ("DealEvent".to_string(), DealEvent::schema()),
            ("BidEvent".to_string(), BidEvent::schema()),
            ("CallEvent".to_string(), CallEvent::schema()),
            ("TakeEvent".to_string(), TakeEvent::schema()),
            ("BuyEvent".to_string(), BuyEvent::schema()),
            ("DiscardEvent".to_string(), DiscardEvent::schema()),
            ("DeclareEvent".to_string(), DeclareEvent::schema()),
            ("PlayEvent".to_string(), PlayEvent::schema()),
            ("SitOutEvent".to_string(), SitOutEvent::schema()),
        ]);
        <DealEvent as ToSchema>::schemas(schemas);
        <BidEvent as ToSchema>::schemas(schemas);
        <CallEvent as ToSchema>::schemas(schemas);
        <TakeEvent as ToSchema>::schemas(schemas);
        <BuyEvent as ToSchema>::schemas(schemas);
        <DiscardEvent as ToSchema>::schemas(schemas);
        <DeclareEvent as ToSchema>::schemas(schemas);
        <PlayEvent as ToSchema>::schemas(schemas);
        <SitOutEvent as ToSchema>::schemas(schemas);
    }
}

/// A kind of event, as its `type` says: a string of one value.
macro_rules! event_type {
    ($name:ident, $value:literal) => {
        #[derive(Deserialize)]
        pub enum $name {
            #[serde(rename = $value)]
            Is,
        }

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                ObjectBuilder::new().schema_type(Type::String).enum_values(Some([$value])).into()
            }
        }
        impl ToSchema for $name {}
    };
}
event_type!(DealType, "deal");
event_type!(BidType, "bid");
event_type!(CallType, "call");
event_type!(TakeType, "take");
event_type!(BuyType, "buy");
event_type!(DiscardType, "discard");
event_type!(DeclareType, "declare");
event_type!(PlayType, "play");
event_type!(SitOutType, "sit-out");

/// The deal (`"type": "deal"`): every player's hand, the dog, the cut card where it is shown, the
/// piles on the table (two players), and, optionally, the order of the deal.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DealEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: DealType,
    /// Each player's hand.
    hands: BTreeMap<String, Vec<Card>>,
    #[serde(default)]
    dog: Vec<Card>,
    #[serde(default)]
    cut: Option<Card>,
    /// Piles on the table before each player, each from its bottom card to its top card.
    #[serde(default)]
    piles: BTreeMap<String, Vec<Vec<Card>>>,
    /// The order of the deal, packet by packet, when it was recorded.
    #[serde(default)]
    packets: Vec<Packet>,
}

/// A bid (`"type": "bid"`): a contract of the ruleset (`prise`, `garde`, ...) or `pass`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BidEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: BidType,
    player: String,
    #[schema(example = "garde")]
    bid: String,
}

/// The taker's called card (`"type": "call"`), where the ruleset has a partner called by card.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CallEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: CallType,
    player: String,
    card: Card,
}

/// The taker takes one packet of the talon (`"type": "take"`), where the rules show it in packets
/// (`talon { packets = N }`): the packet's cards, in any order.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TakeEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: TakeType,
    player: String,
    cards: Vec<Card>,
}

/// A player sits the deal out by choice (`"type": "sit-out"`), where the rules let him
/// (`sit-out-by-choice { ... }`, Minchiate's table of four): after the deal and the steals, before the
/// first declaration or card; the players before him in turn are taken to have chosen to play. His hand
/// is out of play and he pays the fee of his place in turn to the taker of the last trick.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SitOutEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: SitOutType,
    player: String,
}

/// The taker buys a card (`"type": "buy"`), where the rules let him (`buy { cards = N }`): he calls
/// `card`, which another player holds, and gives that player `gives` from his hand; with neither, he
/// buys nothing.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BuyEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: BuyType,
    player: String,
    #[serde(default)]
    card: Option<Card>,
    #[serde(default)]
    gives: Option<Card>,
}

/// A discard (`"type": "discard"`): the taker's after taking the dog, or each player's where all
/// discard.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DiscardEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: DiscardType,
    player: String,
    cards: Vec<Card>,
}

/// A declaration and the cards shown (`"type": "declare"`): `poignee`, `chelem`, Marolles' `tarots`,
/// `imperials`...
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclareEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: DeclareType,
    player: String,
    #[schema(example = "poignee")]
    declaration: String,
    #[serde(default)]
    cards: Vec<Card>,
}

/// A card played to the current trick (`"type": "play"`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: PlayType,
    player: String,
    card: Card,
}
