//! A recorded game as it travels on the wire: the ruleset and its options, the players round the
//! table, the dealer, and the events. Cards stay as the text the recorder wrote until replay reads
//! them, so a bad code is reported with the event it is in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod quick;
/// The events' OpenAPI schemas, one per kind.
#[cfg(feature = "openapi")]
pub mod schema;
pub use quick::read as read_quick;

/// The text of a card code, a player's name or a bid: short, so kept inline (no allocation for up to
/// 24 bytes), which makes reading a recorded game several times faster.
pub type Text = compact_str::CompactString;

/// Whether a name is blank: every character of it white space (Unicode's, or U+FEFF, which
/// ECMAScript's `\s` holds), as the document's pattern `NOT_BLANK` reads it, so that a name the
/// document allows the server takes, and a name it refuses the server refuses.
pub fn blank(name: &str) -> bool {
    name.chars().all(|c| c.is_whitespace() || c == '\u{feff}')
}

/// A recorded game: the ruleset (and options), the players round the table, the dealer, and the
/// events in order. Whether the events make a game (a deal of the right cards, moves in turn) is
/// replay's to say: a record of the right shape that is not a game is answered 422, with the event.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::RulesetId))]
    pub ruleset: String,
    /// Options of the ruleset and the values chosen (see GET /rulesets/{id}); the others keep their
    /// default.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::OptionValues))]
    pub options: BTreeMap<String, serde_json::Value>,
    /// The players round the table: each is followed by the one to his right, who plays after him
    /// unless the ruleset plays clockwise.
    // See `replay::Seating`.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::Players))]
    pub players: Vec<String>,
    /// The dealer, one of `players`.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::PlayerName))]
    pub dealer: String,
    /// What each pot of the ruleset (`pot NAME` in its rule file, e.g. Grosstarock's `king` and
    /// `pagat`) holds at the start of this deal: what the deal before it left in it (its verdict's
    /// `outcome.pots[].closing`). A pot not named holds nothing, as in a session's first deal.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "amounts")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::Pots))]
    pub pots: BTreeMap<String, i64>,
    /// Each player's running total in the match before this deal (the scores of the session's deals
    /// before it), for a ruleset whose rules read it (`carried(p)` in its rule file: Troccas, whose
    /// side owing nine or more may ask for the cards nine and ten). A player not named carries 0, as in
    /// a session's first deal.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "amounts")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::Standing))]
    pub standing: BTreeMap<String, i64>,
    /// Where the game comes from, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub events: Vec<Event>,
}

pub use crate::num::AMOUNT_LIMIT;

/// Whether an amount of a record (`pots`, `standing`) is within `AMOUNT_LIMIT`; the message says
/// which field holds what, and the bound.
pub fn check_amount(field: &str, name: &str, amount: i64) -> Result<(), String> {
    if amount.unsigned_abs() <= AMOUNT_LIMIT as u64 {
        Ok(())
    } else {
        Err(format!("`{field}.{name}` is {amount}, beyond what a record may carry: amounts are whole numbers from -{AMOUNT_LIMIT} to {AMOUNT_LIMIT}"))
    }
}

/// Reads `pots` or `standing`: names with whole amounts within `AMOUNT_LIMIT`.
fn amounts<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, i64>, D::Error> {
    struct Amounts;
    impl<'de> serde::de::Visitor<'de> for Amounts {
        type Value = BTreeMap<String, i64>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "an object of names with whole amounts from -{AMOUNT_LIMIT} to {AMOUNT_LIMIT}")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(name) = map.next_key::<String>()? {
                let Amount(v) = map.next_value()?;
                out.insert(name, v);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Amounts)
}

/// One amount of `pots` or `standing`: a whole number within `AMOUNT_LIMIT`. A number past i64 (a
/// u64) is said to be past the bound too, rather than "not an i64".
struct Amount(i64);

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Amount, D::Error> {
        d.deserialize_i64(AmountVisitor)
    }
}

struct AmountVisitor;

impl serde::de::Visitor<'_> for AmountVisitor {
    type Value = Amount;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a whole amount from -{AMOUNT_LIMIT} to {AMOUNT_LIMIT}")
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Amount, E> {
        match v.unsigned_abs() <= AMOUNT_LIMIT as u64 {
            true => Ok(Amount(v)),
            false => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
        }
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Amount, E> {
        match v <= AMOUNT_LIMIT as u64 {
            true => Ok(Amount(v as i64)),
            false => Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self)),
        }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Every player's hand, the dog (if the ruleset has one) and the cut card (if it is shown).
    Deal {
        hands: BTreeMap<Text, Vec<Text>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dog: Vec<Text>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cut: Option<Text>,
        /// Piles on the table before each player, each from its bottom card to its top (face-up) card.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        piles: BTreeMap<Text, Vec<Vec<Text>>>,
        /// The order of the deal, when it was recorded: each packet as dealt, to a player or (with no
        /// `to`) to the dog.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        packets: Vec<Packet>,
    },
    /// A contract's name, or `pass`.
    Bid {
        player: Text,
        bid: Text,
    },
    Call {
        player: Text,
        card: Text,
    },
    Discard {
        player: Text,
        cards: Vec<Text>,
    },
    /// The taker takes one packet of the talon (`talon { packets = N }`): its cards, in any order.
    Take {
        player: Text,
        cards: Vec<Text>,
    },
    /// The taker buys a card (`buy { cards = N }`): he calls `card`, which another player holds, and
    /// gives that player `gives` from his hand; with neither, he buys nothing.
    Buy {
        player: Text,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Text>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gives: Option<Text>,
    },
    Declare {
        player: Text,
        declaration: Text,
        #[serde(default)]
        cards: Vec<Text>,
    },
    Play {
        player: Text,
        card: Text,
    },
    /// The player sits the deal out by choice, after the deal and before play (`sit-out-by-choice`):
    /// his hand is out of play and he pays the fee.
    #[serde(rename = "sit-out")]
    SitOut {
        player: Text,
    },
}

/// Cards dealt together, to a player or, with no `to`, to the dog.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Packet {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::openapi::PlayerName>))]
    pub to: Option<Text>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::Cards))]
    pub cards: Vec<Text>,
}

/// An event is read field by field into one flat set of slots, then checked against its `type`: serde's
/// tagged enums would buffer every event before choosing its variant, which is several times slower.
impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Event, D::Error> {
        d.deserialize_map(EventVisitor)
    }
}

/// A field of an event.
#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(field_identifier, rename_all = "snake_case")]
pub(crate) enum Field {
    Type,
    Player,
    Hands,
    Dog,
    Cut,
    Piles,
    Packets,
    Bid,
    Card,
    Cards,
    Declaration,
    Gives,
}

impl Field {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Field::Type => "type",
            Field::Player => "player",
            Field::Hands => "hands",
            Field::Dog => "dog",
            Field::Cut => "cut",
            Field::Piles => "piles",
            Field::Packets => "packets",
            Field::Bid => "bid",
            Field::Card => "card",
            Field::Cards => "cards",
            Field::Declaration => "declaration",
            Field::Gives => "gives",
        }
    }

    /// The field's bit in a set of fields.
    pub(crate) fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The fields an event of type `kind` may have besides its type; `None` for an unknown type.
pub(crate) fn fields_of(kind: &str) -> Option<&'static [Field]> {
    Some(match kind {
        "deal" => &[Field::Hands, Field::Dog, Field::Cut, Field::Piles, Field::Packets],
        "bid" => &[Field::Player, Field::Bid],
        "call" => &[Field::Player, Field::Card],
        "discard" => &[Field::Player, Field::Cards],
        "take" => &[Field::Player, Field::Cards],
        "buy" => &[Field::Player, Field::Card, Field::Gives],
        "declare" => &[Field::Player, Field::Declaration, Field::Cards],
        "play" => &[Field::Player, Field::Card],
        "sit-out" => &[Field::Player],
        _ => return None,
    })
}

struct EventVisitor;

impl<'de> serde::de::Visitor<'de> for EventVisitor {
    type Value = Event;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an event: an object with a `type` (deal, bid, call, take, discard, buy, declare, sit-out or play)")
    }

    /// A field set to `null` counts as absent.
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Event, A::Error> {
        use serde::de::Error;
        let (mut kind, mut player, mut hands, mut dog, mut cut, mut piles, mut packets, mut bid, mut card, mut cards, mut declaration) =
            (None::<Text>, None::<Text>, None, None, None, None, None, None::<Text>, None::<Text>, None, None::<Text>);
        let mut gives = None::<Text>;
        let mut seen = 0u16;
        while let Some(field) = map.next_key::<Field>()? {
            if seen & field.bit() != 0 {
                return Err(A::Error::duplicate_field(field.name()));
            }
            match field {
                Field::Type => kind = map.next_value()?,
                Field::Player => player = map.next_value()?,
                Field::Hands => hands = map.next_value::<Option<BTreeMap<Text, Vec<Text>>>>()?,
                Field::Dog => dog = map.next_value::<Option<Vec<Text>>>()?,
                Field::Cut => cut = map.next_value()?,
                Field::Piles => piles = map.next_value::<Option<BTreeMap<Text, Vec<Vec<Text>>>>>()?,
                Field::Packets => packets = map.next_value::<Option<Vec<Packet>>>()?,
                Field::Bid => bid = map.next_value()?,
                Field::Card => card = map.next_value()?,
                Field::Cards => cards = map.next_value::<Option<Vec<Text>>>()?,
                Field::Declaration => declaration = map.next_value()?,
                Field::Gives => gives = map.next_value()?,
            }
            seen |= field.bit();
        }
        let kind = kind.ok_or_else(|| A::Error::missing_field("type"))?;
        let Some(allowed) = fields_of(&kind) else {
            return Err(A::Error::custom(format!("unknown event type `{kind}`; events are deal, bid, call, take, discard, buy, declare, sit-out and play")));
        };
        let given = [
            (Field::Player, player.is_some()),
            (Field::Hands, hands.is_some()),
            (Field::Dog, dog.is_some()),
            (Field::Cut, cut.is_some()),
            (Field::Piles, piles.is_some()),
            (Field::Packets, packets.is_some()),
            (Field::Bid, bid.is_some()),
            (Field::Card, card.is_some()),
            (Field::Cards, cards.is_some()),
            (Field::Declaration, declaration.is_some()),
            (Field::Gives, gives.is_some()),
        ];
        if let Some((f, _)) = given.iter().find(|(f, given)| *given && !allowed.contains(f)) {
            let names: Vec<&str> = allowed.iter().map(|a| a.name()).collect();
            return Err(A::Error::custom(format!("a `{kind}` event has no field `{}`; it has {}", f.name(), names.join(", "))));
        }
        let need = |field: Option<Text>, name: &str| field.ok_or_else(|| A::Error::custom(format!("a `{kind}` event needs `{name}`")));
        Ok(match kind.as_str() {
            "deal" => Event::Deal {
                hands: hands.ok_or_else(|| A::Error::custom("a `deal` event needs `hands`"))?,
                dog: dog.unwrap_or_default(),
                cut,
                piles: piles.unwrap_or_default(),
                packets: packets.unwrap_or_default(),
            },
            "bid" => Event::Bid { player: need(player, "player")?, bid: need(bid, "bid")? },
            "call" => Event::Call { player: need(player, "player")?, card: need(card, "card")? },
            "discard" => Event::Discard { player: need(player, "player")?, cards: cards.ok_or_else(|| A::Error::custom("a `discard` event needs `cards`"))? },
            "take" => Event::Take { player: need(player, "player")?, cards: cards.ok_or_else(|| A::Error::custom("a `take` event needs `cards`"))? },
            "buy" => Event::Buy { player: need(player, "player")?, card, gives },
            "declare" => Event::Declare { player: need(player, "player")?, declaration: need(declaration, "declaration")?, cards: cards.unwrap_or_default() },
            "sit-out" => Event::SitOut { player: need(player, "player")? },
            _ => Event::Play { player: need(player, "player")?, card: need(card, "card")? },
        })
    }
}

impl Event {
    pub fn player(&self) -> Option<&str> {
        match self {
            Event::Deal { .. } => None,
            Event::Bid { player, .. }
            | Event::Call { player, .. }
            | Event::Discard { player, .. }
            | Event::Take { player, .. }
            | Event::Buy { player, .. }
            | Event::Declare { player, .. }
            | Event::Play { player, .. }
            | Event::SitOut { player } => Some(player),
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Deal { .. } => "deal",
            Event::Bid { .. } => "bid",
            Event::Call { .. } => "call",
            Event::Discard { .. } => "discard",
            Event::Take { .. } => "take",
            Event::Buy { .. } => "buy",
            Event::Declare { .. } => "declare",
            Event::Play { .. } => "play",
            Event::SitOut { .. } => "sit-out",
        }
    }
}

/// Reads a recorded game from JSON: by the quick reader, or by serde_json where it gives up, so an
/// error keeps its line and column.
pub fn read_record(bytes: &[u8]) -> Result<GameRecord, serde_json::Error> {
    read_quick(bytes).map(Ok).unwrap_or_else(|| serde_json::from_slice(bytes))
}

/// Reads a recorded game from JSON, saying where the text is wrong (its line and column, once) and
/// what is wrong, in JSON's words rather than Rust's.
pub fn parse_record(json: &str) -> Result<GameRecord, String> {
    read_record(json.as_bytes()).map_err(|e| match not_an_object(json) {
        Some(kind) => format!("line 1, column 1: a recorded game is a JSON object, not {kind}"),
        None => {
            // Read again, only now, to name the field at fault (`events[3].card`).
            let mut de = serde_json::Deserializer::from_str(json);
            let (e, path) = match serde_path_to_error::deserialize::<_, GameRecord>(&mut de) {
                Err(p) => {
                    let path = p.path().to_string();
                    (p.into_inner(), path)
                }
                Ok(_) => (e, String::new()),
            };
            let field = if path.is_empty() || path == "." { String::new() } else { format!(", at `{path}`") };
            format!("line {}, column {}{field}: {}", e.line(), e.column(), json_error_in_words(&e))
        }
    })
}

/// What a text that is JSON, but not an object, is instead: serde would read a list as the fields
/// in order, and talk of lengths.
fn not_an_object(json: &str) -> Option<&'static str> {
    Some(match serde_json::from_str::<serde_json::Value>(json).ok()? {
        serde_json::Value::Object(_) => return None,
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::Bool(_) => "true or false",
        serde_json::Value::Null => "null",
    })
}

/// serde_json's message in the words of a person who wrote JSON: without the place (which the caller
/// says beside it, once), and with JSON's names for what was expected rather than Rust's (`struct
/// GameRecord with 6 elements`, `u64`).
pub fn json_error_in_words(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    let mut text = text.strip_suffix(&place).unwrap_or(&text).to_string();
    // `expected struct Name with N elements` and `expected struct Name`: every such value is an object.
    while let Some(at) = text.find("struct ") {
        let rest = &text[at + "struct ".len()..];
        let name_end = rest.find(|c: char| !c.is_alphanumeric() && c != '_').unwrap_or(rest.len());
        let mut end = at + "struct ".len() + name_end;
        if let Some(tail) = text[end..].strip_prefix(" with ") {
            if let Some(elements) = tail.find(" element") {
                end += " with ".len() + elements + " element".len();
                end += usize::from(text[end..].starts_with('s'));
            }
        }
        text.replace_range(at..end, "a JSON object");
    }
    for (rust, json) in [
        ("a sequence", "a list"),
        ("a map", "an object"),
        ("u64", "a whole number"),
        ("usize", "a whole number"),
        ("u32", "a whole number"),
        ("u16", "a whole number"),
        ("u8", "a whole number"),
        ("i64", "a number"),
    ] {
        text = text.replace(&format!("expected {rust}"), &format!("expected {json}"));
    }
    // And what was found instead: serde's `sequence` and `map` are JSON's list and object.
    for (rust, json) in [("invalid type: sequence", "invalid type: a list"), ("invalid type: map", "invalid type: an object")] {
        text = text.replace(rust, json);
    }
    text
}

/// A game's options as the wire gives them (JSON), read into the rules core's values here, at the
/// edge: the core knows no JSON (`ir::OptionValue`).
impl From<&serde_json::Value> for crate::ir::OptionValue {
    fn from(v: &serde_json::Value) -> Self {
        use crate::ir::OptionValue;
        match v {
            serde_json::Value::Bool(b) => OptionValue::Bool(*b),
            serde_json::Value::Number(n) => OptionValue::Number(n.to_string()),
            serde_json::Value::String(s) => OptionValue::Text(s.clone()),
            other => OptionValue::Other(other.to_string()),
        }
    }
}

impl crate::ir::OptionValue {
    /// The value as the wire writes it (descriptions, statistics' options).
    pub fn to_json(&self) -> serde_json::Value {
        use crate::ir::OptionValue;
        match self {
            OptionValue::Bool(b) => serde_json::Value::Bool(*b),
            OptionValue::Number(n) | OptionValue::Other(n) => serde_json::from_str(n).unwrap_or_else(|_| serde_json::Value::String(n.clone())),
            OptionValue::Text(t) => serde_json::Value::String(t.clone()),
        }
    }
}

impl crate::ir::ChosenOptions for std::collections::BTreeMap<String, serde_json::Value> {
    fn is_empty(&self) -> bool {
        std::collections::BTreeMap::is_empty(self)
    }
    fn names(&self) -> Vec<&str> {
        self.keys().map(String::as_str).collect()
    }
    fn chosen(&self, name: &str) -> Option<crate::ir::OptionValue> {
        self.get(name).map(crate::ir::OptionValue::from)
    }
}
