//! The wire format as OpenAPI schemas: the recorded game and its events, the verdict, comparisons,
//! statistics, listings and score sheets, typed so that a generated client is typed end to end.
//!
//! The engine's types stay free of utoipa: these types mirror them for the document only. Each derives
//! `Deserialize` with `deny_unknown_fields`, and the tests below read every fixture, every verdict,
//! comparison and statistic the engine writes into them, so a field added, renamed or removed on
//! either side fails a test instead of leaving the document wrong.

#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::Deserialize;
use utoipa::openapi::schema::{AllOfBuilder, ArrayBuilder, Discriminator, KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, SchemaType, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

/// A card code: trumps `T1` to `T21`, the Excuse `EX`, suited cards rank then suit (ranks `K Q C J
/// 10 9 ... 1`, suits `S H D C`), in any case.
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

/// An exact amount: a whole number or a half as a JSON number, other fractions (Marolles counts in
/// thirds) as a string `"n/d"`.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum Amount {
    Number(f64),
    Fraction(String),
}

impl PartialSchema for Amount {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .item(ObjectBuilder::new().schema_type(Type::String).pattern(Some("^-?[0-9]+/[0-9]+$")))
            .description(Some("An exact amount: a whole number or a half as a number, another fraction as \"n/d\""))
            .into()
    }
}
impl ToSchema for Amount {}

/// A named value of the score: a number, yes or no, a text (a player, a card, `"trick 18"`), or a
/// list of these.
#[derive(Deserialize)]
pub struct Figure(serde_json::Value);

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

/// A pair `[name, value]`, e.g. `["oudlers", 2]`.
#[derive(Deserialize)]
pub struct NamedFigure(String, Figure);

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
#[derive(Deserialize)]
pub struct PlayerAmount(String, Amount);

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
        schemas.push(("Amount".into(), Amount::schema()));
    }
}

/// A ruleset id: one of the rulesets the server knows, the built-in ones (given as examples) or, for a
/// server started with `--rules-dir`, those of its folder. A string, not an enumeration of the
/// built-in ids: a client generated from the document would refuse the others.
pub struct RulesetId;

impl PartialSchema for RulesetId {
    fn schema() -> RefOr<Schema> {
        // The built-in files' ids, without compiling them: utoipa asks for this schema once per use.
        let ids: Vec<serde_json::Value> = tarot_engine::Registry::builtin_files().into_keys().map(serde_json::Value::String).collect();
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

/// Any JSON value (an option's value).
fn any_value() -> Schema {
    Schema::Object(ObjectBuilder::new().schema_type(SchemaType::AnyValue).build())
}

// ---------------------------------------------------------------------------------------------------
// The recorded game.

/// A recorded game: the ruleset (and options), the players round the table, the dealer, and the
/// events in order. Whether the events make a game (a deal of the right cards, moves in turn) is
/// replay's to say: a record of the right shape that is not a game is answered 422, with the event.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!(crate::docs::example("worked/seed000-hand1.json")))]
pub struct GameRecord {
    #[schema(value_type = RulesetId)]
    ruleset: String,
    /// Options of the ruleset and the values chosen (see GET /rulesets/{id}); the others keep their
    /// default.
    #[serde(default)]
    #[schema(value_type = Object, additional_properties)]
    options: BTreeMap<String, serde_json::Value>,
    /// The players round the table: each is followed by the one to his right, who plays after him
    /// unless the ruleset plays clockwise.
    #[schema(value_type = Players)]
    players: Vec<String>,
    /// The dealer, one of `players`.
    dealer: String,
    /// What each pot of the ruleset (`pot NAME` in its rule file, e.g. Grosstarock's `king` and
    /// `pagat`) holds at the start of this deal: what the deal before it left in it (its verdict's
    /// `outcome.pots[].closing`). A pot not named holds nothing, as in a session's first deal.
    #[serde(default)]
    #[schema(example = json!({"king": 75, "pagat": 70}))]
    pots: BTreeMap<String, i64>,
    /// Each player's running total in the match before this deal (the scores of the session's deals
    /// before it), for a ruleset whose rules read it (`carried(p)` in its rule file: Troccas, whose
    /// side owing nine or more may ask for the cards nine and ten). A player not named carries 0, as in
    /// a session's first deal.
    #[serde(default)]
    #[schema(example = json!({"Ann": -12, "Bob": 12, "Cid": -12, "Dan": 12}))]
    standing: BTreeMap<String, i64>,
    /// Where the game comes from, in words.
    #[serde(default)]
    description: Option<String>,
    events: Vec<Event>,
}

/// One event of a recorded game, by its `type`: a union of the nine kinds, each a schema of its own
/// with its `type`, told apart by it (a discriminator), as generated clients read unions best.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum Event {
    Deal(DealEvent),
    Bid(BidEvent),
    Call(CallEvent),
    Discard(DiscardEvent),
    Take(TakeEvent),
    Buy(BuyEvent),
    Declare(DeclareEvent),
    Play(PlayEvent),
    SitOut(SitOutEvent),
}

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

/// Cards dealt together, to a player or, with no `to`, to the dog.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Packet {
    #[serde(default)]
    to: Option<String>,
    cards: Vec<Card>,
}

// ---------------------------------------------------------------------------------------------------
// The verdict.

/// Where the game stands: `valid` (finished and scored), `invalid` (a rule broken), `in_progress`,
/// `annulled` (the deal is void).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Valid,
    Invalid,
    InProgress,
    Annulled,
}

/// A recorded game judged by its ruleset: how far it got, where and why it stopped, and what it scores.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!(crate::docs::verdict_example()))]
pub struct Verdict {
    ruleset: String,
    /// The version (a hash of the rule files) the verdict was computed with.
    ruleset_version: String,
    status: Status,
    /// The first rule broken, when `invalid`.
    violation: Option<Violation>,
    /// Why the deal is void, when `annulled`.
    annulled: Option<Annulled>,
    /// Whose turn it is and what they may do, when `in_progress`.
    next: Option<Next>,
    /// The taker, contract, the score's named values and each player's result, when `valid`.
    outcome: Option<Outcome>,
    /// Every term of the score and every payment, with the rule it comes from.
    #[serde(default)]
    ledger: Vec<LedgerEntry>,
    /// The tricks played, in order.
    tricks: Vec<Trick>,
    /// Things the sources leave open that this game ran into.
    #[serde(default)]
    notes: Vec<String>,
}

/// The first rule a game breaks.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Violation {
    /// The offending event's index in the record, from 0.
    event: usize,
    player: Option<String>,
    /// The rule's id, e.g. `play.must.overtrump`.
    #[schema(example = "play.must.overtrump")]
    rule: String,
    #[schema(example = "Cid must overtrump: holds T18, which beats T15 on the table")]
    message: String,
    /// The source the rule follows.
    source: Option<String>,
    /// Where the rule is written: `rulesets/<id>.tarot:57`.
    at: String,
}

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
    expected: Amount,
    /// What the deal carries.
    given: Amount,
}

/// Why a deal is void.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Annulled {
    rule: String,
    reason: String,
    player: Option<String>,
    source: Option<String>,
}

/// What a game in progress waits for.
#[derive(Deserialize, ToSchema)]
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

/// Whose turn it is in a game in progress, and what they may do.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Next {
    /// The player to move (the dealer, for a deal).
    player: String,
    phase: Phase,
    /// The legal moves: bids (with `pass`), or the cards that may be called, discarded or played, or
    /// the talon's packets that may be taken (each its cards joined by spaces), or the cards that may
    /// be bought (with `pass`).
    legal: Vec<String>,
    /// How many cards to discard, or in a packet of the talon.
    count: Option<usize>,
    /// The cards already on the table in the trick being played, in order.
    #[serde(default)]
    table: Vec<Card>,
    /// The declarations open at this moment, each with the cards it may show.
    #[serde(default)]
    declarations: Vec<OpenDeclaration>,
    /// The players who may sit the deal out by choice now (a `sit-out` event, where the ruleset has
    /// `sit-out-by-choice`), beside the moves of the player to move: after the deal, before the first
    /// declaration or card.
    #[serde(default)]
    sit_out: Vec<String>,
}

/// A declaration a player may make now.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenDeclaration {
    player: String,
    /// The declaration's name, as a `declare` event gives it.
    #[schema(example = "poignee")]
    declaration: String,
    /// The cards the player may show for it (all of them, where it shows none).
    cards: Vec<Card>,
    /// How many of them to show, where the ruleset fixes it (a poignée's sizes).
    #[serde(default)]
    counts: Vec<usize>,
}

/// A term of the hand score (no payer or payee) or a payment (both).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LedgerEntry {
    #[schema(example = "score.term.contract")]
    rule: String,
    label: String,
    /// The payer: a player, or a pot (`pot.NAME`).
    from: Option<String>,
    /// The payee: a player, or a pot (`pot.NAME`).
    to: Option<String>,
    amount: Amount,
    source: Option<String>,
    /// The event that caused it, for a payment made during the game.
    event: Option<usize>,
}

/// One player's result in a finished game.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerResult {
    player: String,
    card_points: Amount,
    tricks: usize,
    score: Amount,
    /// Present (true) for the winners, where the ruleset names winners.
    #[serde(default)]
    winner: bool,
}

/// How a finished game came out.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    taker: Option<String>,
    partner: Option<String>,
    contract: Option<String>,
    /// The score's named values (`points`, `oudlers`, `target`, `made`, ...), in the ruleset's order.
    values: Vec<NamedFigure>,
    /// The sum of the hand score's terms, where the ruleset has terms.
    hand_score: Option<Amount>,
    players: Vec<PlayerResult>,
    /// Each pot of the ruleset over this deal, where it has pots: the players' scores add up to what
    /// the pots gave less what they took.
    #[serde(default)]
    pots: Vec<PotResult>,
    /// Where a declaration ended the deal and the match (`ends-match` in the rule file: Tarocchini's
    /// calling out at 800): the declarer's side, the declarer first, who win the match whatever the
    /// totals. Absent otherwise.
    #[serde(default)]
    #[schema(example = json!(["Ann", "Cid"]))]
    ends_match: Vec<String>,
}

/// A pot over one deal: what it held at the start (the record's `pots`) and at the end, which the
/// next deal carries.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PotResult {
    /// Its name (`pot NAME`), as the record's `pots` and the ledger (`pot.NAME`) write it.
    #[schema(example = "king")]
    pot: String,
    carried: Amount,
    closing: Amount,
}

/// A trick: who led, the cards in the order played, who won it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Trick {
    /// From 1.
    number: usize,
    leader: String,
    cards: Vec<Card>,
    winner: String,
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
    verdict: Option<Verdict>,
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
    status: Status,
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
    event: Event,
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
    status: Status,
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
mod tests {
    use std::path::Path;

    use serde::de::DeserializeOwned;
    use tarot_engine::{GameRecord as Record, Registry};

    use super::*;

    /// `value` reads as the schema type `T`: every field it has is documented, and every field the
    /// schema requires is there.
    fn conforms<T: DeserializeOwned>(what: &str, value: serde_json::Value) {
        if let Err(e) = serde_json::from_value::<T>(value) {
            panic!("{what} does not match its schema {}: {e}", std::any::type_name::<T>());
        }
    }

    fn fixtures() -> Vec<(String, String)> {
        let mut out = vec![];
        let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "json") {
                    out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        out.sort();
        out
    }

    /// The fields of an event as the engine writes it are those its kind's schema lists, with `type`.
    fn event_fields_are_documented(doc: &serde_json::Value, what: &str, event: &serde_json::Value) {
        let kind = event["type"].as_str().unwrap();
        let name = super::EVENT_KINDS.iter().find(|(k, _)| *k == kind).map(|(_, n)| n.to_string()).unwrap_or_else(|| panic!("{what}: no event kind {kind}"));
        let schema = &doc["components"]["schemas"][&name];
        let listed = schema["properties"].as_object().unwrap_or_else(|| panic!("no schema {name}"));
        for field in event.as_object().unwrap().keys().filter(|k| *k != "type") {
            assert!(listed.contains_key(field), "{what}: the {kind} event's `{field}` is not in {name}");
        }
        for field in schema["required"].as_array().into_iter().flatten() {
            assert!(event.get(field.as_str().unwrap()).is_some(), "{what}: the {kind} event has no `{field}`");
        }
    }

    #[test]
    fn every_fixture_record_and_verdict_matches_its_schema() {
        let registry = Registry::builtin().unwrap();
        let doc = crate::openapi::document();
        let mut verdicts = 0;
        for (path, text) in fixtures() {
            let Ok(record) = serde_json::from_str::<Record>(&text) else { continue };
            conforms::<GameRecord>(&path, serde_json::from_str(&text).unwrap());
            let Some(rules) = registry.get(&record.ruleset) else { continue };
            if let Ok(verdict) = tarot_engine::replay(rules, &record) {
                conforms::<Verdict>(&path, serde_json::to_value(&verdict).unwrap());
                for event in &record.events {
                    let stored = tarot_store::StoredEvent { version: 1, position: 1, id: Some("a".into()), event: event.clone() };
                    conforms::<StoredEvent>(&path, serde_json::to_value(&stored).unwrap());
                    event_fields_are_documented(&doc, &path, &serde_json::to_value(event).unwrap());
                }
                verdicts += 1;
            }
        }
        assert!(verdicts > 100, "only {verdicts} verdicts");
    }

    #[test]
    fn rulesets_comparisons_and_statistics_match_their_schemas() {
        let registry = Registry::builtin().unwrap();
        let all: Vec<_> = registry.all().collect();
        for r in &all {
            conforms::<RulesetDescription>(&r.id, serde_json::to_value(tarot_engine::describe::describe(r, &BTreeMap::new())).unwrap());
            let stats = tarot_engine::stats::deal_stats(r, r.players.0, 50, 1, &mut |_| {}).unwrap();
            conforms::<DealStats>(&r.id, serde_json::to_value(stats).unwrap());
        }
        conforms::<Comparison>("every ruleset", serde_json::to_value(tarot_engine::compare::compare(&all)).unwrap());
        let game: Record = serde_json::from_value(crate::docs::compare_example()["game"].clone()).unwrap();
        conforms::<GameComparison>("a game compared", serde_json::to_value(tarot_engine::compare::compare_game(&all, &game)).unwrap());
    }
}

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
