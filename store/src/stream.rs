//! The streams' types, which both stores keep alike: a game's id, its header, the events appended
//! and stored, what an append did; and the rules both stores apply to them (the players, the
//! event ids, a retry recognised, the keys of a creation and of an imported game).

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tarot_engine::{Event, GameRecord};

use crate::StoreError;

/// The longest event id accepted, in bytes. Ids are keys; this keeps them reasonable.
const MAX_EVENT_ID: usize = 128;

/// A game's id as the outside world sees it: "g" and its number in base 36 ("g1", "g2s").
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameId(pub String);

impl GameId {
    pub(crate) fn from_number(number: u64) -> GameId {
        GameId(short_id('g', number))
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a game is before any event: a `GameRecord` without its events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub ruleset: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, serde_json::Value>,
    /// Round the table, as the record lists them.
    pub players: Vec<String>,
    pub dealer: String,
    /// What the ruleset's pots hold at the start of the deal.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pots: BTreeMap<String, i64>,
    /// Each player's running total in the match before the deal.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub standing: BTreeMap<String, i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl Header {
    /// The header of a recorded game.
    pub fn of(record: &GameRecord) -> Header {
        Header {
            ruleset: record.ruleset.clone(),
            options: record.options.clone(),
            players: record.players.clone(),
            dealer: record.dealer.clone(),
            pots: record.pots.clone(),
            standing: record.standing.clone(),
            description: record.description.clone(),
        }
    }

    /// The recorded game this header and these events make.
    pub fn into_record(self, events: Vec<Event>) -> GameRecord {
        GameRecord {
            ruleset: self.ruleset,
            options: self.options,
            players: self.players,
            dealer: self.dealer,
            pots: self.pots,
            standing: self.standing,
            description: self.description,
            events,
        }
    }

    /// Only what the store itself relies on: a ruleset, named players, a dealer among them. Whether
    /// the game is playable is for replay to say.
    pub fn check(&self) -> Result<(), StoreError> {
        if tarot_engine::blank(&self.ruleset) {
            return Err(StoreError::Invalid("the game names no ruleset".into()));
        }
        check_players(&self.players)?;
        if !self.players.contains(&self.dealer) {
            return Err(StoreError::Invalid(format!("the dealer '{}' is not one of the players", self.dealer)));
        }
        Ok(())
    }
}

/// An event to append, with the id its sender gave it, if any. Sending the same ids again makes a
/// retried append harmless.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewEvent {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub event: Event,
}

// Read back leniently, as `Summary` is (stores written before segments hold these).
/// A stored event: its place in the game's stream and in the archive, its id if one was given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StoredEvent {
    /// Its place in the game's stream, from 1.
    pub version: u64,
    /// Its place in the whole archive, from 1.
    pub position: u64,
    /// The id the client gave it, scoped to its game: the same id in another game is another event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub event: Event,
}

/// What an append did: the stream's version after it and the positions its events were given.
/// When it stored no events (a game created empty), `first_position` is `last_position + 1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appended {
    pub game: GameId,
    pub version: u64,
    pub first_position: u64,
    pub last_position: u64,
}

/// Players must be named (not blank: the document's pattern `NOT_BLANK`), each once: they are keys of the
/// indexes and of the score sheets.
pub fn check_players(players: &[String]) -> Result<(), StoreError> {
    if players.is_empty() {
        return Err(StoreError::Invalid("no players are named".into()));
    }
    for (i, player) in players.iter().enumerate() {
        if tarot_engine::blank(player) {
            return Err(StoreError::Invalid(format!("player {} has no name", i + 1)));
        }
        if players[..i].contains(player) {
            return Err(StoreError::Invalid(format!("player '{player}' is named twice")));
        }
    }
    Ok(())
}

pub(crate) fn check_ids(events: &[NewEvent]) -> Result<(), StoreError> {
    let mut seen = HashSet::new();
    for id in events.iter().filter_map(|e| e.id.as_ref()) {
        if id.is_empty() || id.len() > MAX_EVENT_ID {
            return Err(StoreError::Invalid(format!("event id '{id}' must have 1 to {MAX_EVENT_ID} bytes")));
        }
        if !seen.insert(id) {
            return Err(StoreError::Invalid(format!("event id '{id}' is given twice in one append")));
        }
    }
    Ok(())
}

/// Whether an append whose ids `found` were already stored, with `stored` the events they name, is
/// a retry of the append that stored them (`Some` with its result), a new append (`None`: no id
/// found), or neither (refused). Both stores decide it here.
pub(crate) fn retry_of(game: GameId, events: &[NewEvent], found: &[(&str, u64)], stored: &[StoredEvent]) -> Result<Option<Appended>, StoreError> {
    let Some((first_id, _)) = found.first() else { return Ok(None) };
    if found.len() < events.len() {
        return Err(StoreError::Invalid(format!(
            "event id '{first_id}' is already stored but other events of this append are new: a retry must repeat the original append exactly"
        )));
    }
    for ((id, _), (event, new)) in found.iter().zip(stored.iter().zip(events)) {
        if event.event != new.event {
            return Err(StoreError::Invalid(format!("event id '{id}' is already stored with a different event")));
        }
    }
    let first = &stored[0];
    for (i, ((id, _), event)) in found.iter().zip(stored).enumerate() {
        if event.version != first.version + i as u64 {
            return Err(StoreError::Invalid(format!("event id '{id}' was stored by another append than '{first_id}': a retry must repeat the original append exactly")));
        }
    }
    let last = &stored[stored.len() - 1];
    Ok(Some(Appended { game, version: last.version, first_position: first.position, last_position: last.position }))
}

/// The key that recognises a retried creation: the header and the first event's id, when every
/// event has an id (a creation without ids cannot be recognised, and is never a retry).
pub(crate) fn creation_key(header: &Header, events: &[NewEvent]) -> Option<Vec<u8>> {
    let first = events.first()?.id.as_ref()?;
    if events.iter().any(|e| e.id.is_none()) {
        return None;
    }
    let mut key = encode(header);
    key.push(0xFF);
    key.extend_from_slice(first.as_bytes());
    Some(key)
}

/// The key that recognises an imported game: a digest of its header's and events' JSON, so that
/// importing the same records again stores nothing new.
pub(crate) fn digest(header_json: &[u8], events_json: &[u8]) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(header_json);
    hasher.update([0xFF]);
    hasher.update(events_json);
    let mut key = b"sha256:".to_vec();
    key.extend_from_slice(&hasher.finalize());
    key
}

/// A short, URL-safe id: a letter saying what it names, then a number in base 36.
pub(crate) fn short_id(prefix: char, mut number: u64) -> String {
    let mut digits = vec![];
    loop {
        digits.push(char::from_digit((number % 36) as u32, 36).expect("a digit below 36"));
        number /= 36;
        if number == 0 {
            break;
        }
    }
    std::iter::once(prefix).chain(digits.into_iter().rev()).collect()
}

/// The number of a short id, if it is written exactly as `short_id` writes it.
pub(crate) fn id_number(prefix: char, id: &str) -> Option<u64> {
    let number = u64::from_str_radix(id.strip_prefix(prefix)?, 36).ok()?;
    (short_id(prefix, number) == id).then_some(number)
}

pub(crate) fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("the store's types are plain data, always written as JSON")
}

pub(crate) fn decode<T: DeserializeOwned>(what: &str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Io(format!("{what} stored in the database cannot be read: {e}")))
}
