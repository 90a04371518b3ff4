//! The OpenAPI schema of an event (feature `openapi`): a union of the nine kinds with its
//! discriminator, each kind a schema of its own, as generated clients read unions best.

// The kinds' fields are read by their schema derives only: they describe `Event`'s variants.
#![allow(dead_code)]

use serde::Deserialize;
use utoipa::openapi::schema::{Discriminator, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use std::collections::BTreeMap;

use super::{Event, Packet};
use crate::openapi::{Card, Cards, PlayerName};

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
    #[schema(value_type = BTreeMap<PlayerName, Cards>)]
    hands: BTreeMap<String, Vec<Card>>,
    #[serde(default)]
    #[schema(value_type = Cards)]
    dog: Vec<Card>,
    #[serde(default)]
    cut: Option<Card>,
    /// Piles on the table before each player, each from its bottom card to its top card.
    #[serde(default)]
    #[schema(value_type = BTreeMap<PlayerName, Vec<Cards>>)]
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
    #[schema(value_type = PlayerName)]
    player: String,
    #[schema(pattern = "[^\\s\\u0085\\uFEFF]", example = "garde")]
    bid: String,
}

/// The taker's called card (`"type": "call"`), where the ruleset has a partner called by card.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CallEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: CallType,
    #[schema(value_type = PlayerName)]
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
    #[schema(value_type = PlayerName)]
    player: String,
    #[schema(value_type = Cards)]
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
    #[schema(value_type = PlayerName)]
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
    #[schema(value_type = PlayerName)]
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
    #[schema(value_type = PlayerName)]
    player: String,
    #[schema(value_type = Cards)]
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
    #[schema(value_type = PlayerName)]
    player: String,
    #[schema(pattern = "[^\\s\\u0085\\uFEFF]", example = "poignee")]
    declaration: String,
    #[serde(default)]
    #[schema(value_type = Cards)]
    cards: Vec<Card>,
}

/// A card played to the current trick (`"type": "play"`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayEvent {
    #[serde(rename = "type")]
    #[schema(inline)]
    kind: PlayType,
    #[schema(value_type = PlayerName)]
    player: String,
    card: Card,
}
