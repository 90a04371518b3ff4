//! A recorded game as it travels on the wire: the ruleset and its options, the players in order of
//! play, the dealer, and the events. Cards stay as the text the recorder wrote until replay reads
//! them, so a bad code is reported with the event it is in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The text of a card code, a player's name or a bid: short, so kept inline (no allocation for up to
/// 24 bytes), which makes reading a recorded game several times faster.
pub type Text = compact_str::CompactString;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub ruleset: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, serde_json::Value>,
    /// In order of play: each player's next is the one after him (to his right at the table).
    pub players: Vec<String>,
    pub dealer: String,
    /// Where the game comes from, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub events: Vec<Event>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", try_from = "RawEvent")]
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
    },
    /// A contract's name, or `pass`.
    Bid { player: Text, bid: Text },
    Call { player: Text, card: Text },
    Discard { player: Text, cards: Vec<Text> },
    Declare {
        player: Text,
        declaration: Text,
        #[serde(default)]
        cards: Vec<Text>,
    },
    Play { player: Text, card: Text },
}

/// An event as it is read: every field any event has, and the `type` that says which apply. Reading
/// this flat shape and then checking it is several times faster than serde's tagged enums, which
/// buffer every event before choosing its variant; the checks give the same messages.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    #[serde(rename = "type")]
    kind: Text,
    player: Option<Text>,
    hands: Option<BTreeMap<Text, Vec<Text>>>,
    dog: Option<Vec<Text>>,
    cut: Option<Text>,
    piles: Option<BTreeMap<Text, Vec<Vec<Text>>>>,
    bid: Option<Text>,
    card: Option<Text>,
    cards: Option<Vec<Text>>,
    declaration: Option<Text>,
}

impl TryFrom<RawEvent> for Event {
    type Error = String;

    fn try_from(r: RawEvent) -> Result<Event, String> {
        let kind = r.kind.clone();
        let allowed: &[&str] = match kind.as_str() {
            "deal" => &["hands", "dog", "cut", "piles"],
            "bid" => &["player", "bid"],
            "call" => &["player", "card"],
            "discard" => &["player", "cards"],
            "declare" => &["player", "declaration", "cards"],
            "play" => &["player", "card"],
            other => return Err(format!("unknown event type `{other}`; events are deal, bid, call, discard, declare and play")),
        };
        let present = [
            ("player", r.player.is_some()),
            ("hands", r.hands.is_some()),
            ("dog", r.dog.is_some()),
            ("cut", r.cut.is_some()),
            ("piles", r.piles.is_some()),
            ("bid", r.bid.is_some()),
            ("card", r.card.is_some()),
            ("cards", r.cards.is_some()),
            ("declaration", r.declaration.is_some()),
        ];
        if let Some((field, _)) = present.iter().find(|(f, p)| *p && !allowed.contains(f)) {
            return Err(format!("a `{kind}` event has no field `{field}`; it has {}", allowed.join(", ")));
        }
        let need = |field: Option<Text>, name: &str| field.ok_or_else(|| format!("a `{kind}` event needs `{name}`"));
        Ok(match kind.as_str() {
            "deal" => Event::Deal { hands: r.hands.ok_or("a `deal` event needs `hands`")?, dog: r.dog.unwrap_or_default(), cut: r.cut, piles: r.piles.unwrap_or_default() },
            "bid" => Event::Bid { player: need(r.player, "player")?, bid: need(r.bid, "bid")? },
            "call" => Event::Call { player: need(r.player, "player")?, card: need(r.card, "card")? },
            "discard" => Event::Discard { player: need(r.player, "player")?, cards: r.cards.ok_or("a `discard` event needs `cards`")? },
            "declare" => Event::Declare { player: need(r.player, "player")?, declaration: need(r.declaration, "declaration")?, cards: r.cards.unwrap_or_default() },
            _ => Event::Play { player: need(r.player, "player")?, card: need(r.card, "card")? },
        })
    }
}

impl Event {
    pub fn player(&self) -> Option<&str> {
        match self {
            Event::Deal { .. } => None,
            Event::Bid { player, .. } | Event::Call { player, .. } | Event::Discard { player, .. } | Event::Declare { player, .. } | Event::Play { player, .. } => {
                Some(player)
            }
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Deal { .. } => "deal",
            Event::Bid { .. } => "bid",
            Event::Call { .. } => "call",
            Event::Discard { .. } => "discard",
            Event::Declare { .. } => "declare",
            Event::Play { .. } => "play",
        }
    }
}

/// Reads a recorded game from JSON, saying where the text is wrong.
pub fn parse_record(json: &str) -> Result<GameRecord, String> {
    serde_json::from_str(json).map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column()))
}
