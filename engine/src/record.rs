//! A recorded game as it travels on the wire: the ruleset and its options, the players in order of
//! play, the dealer, and the events. Cards stay as the text the recorder wrote until replay reads
//! them, so a bad code is reported with the event it is in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// Every player's hand, the dog (if the ruleset has one) and the cut card (if it is shown).
    Deal {
        hands: BTreeMap<String, Vec<String>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dog: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cut: Option<String>,
    },
    /// A contract's name, or `pass`.
    Bid { player: String, bid: String },
    Call { player: String, card: String },
    Discard { player: String, cards: Vec<String> },
    Declare {
        player: String,
        declaration: String,
        #[serde(default)]
        cards: Vec<String>,
    },
    Play { player: String, card: String },
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
