//! The sled store's streams: a game created, appended to, read back; an append's events stored as
//! one value (a segment), and an imported game's header holding its first segment.

use std::sync::PoisonError;

use tarot_engine::GameRecord;

use super::{bulk, read_u64, SledStore, Writes};
use crate::stream::{check_ids, creation_key, decode, encode, id_number, retry_of};
use crate::{Appended, GameId, Header, NewEvent, StoreError, StoredEvent};

impl SledStore {
    /// Starts a stream with `header` and `events`. A creation whose events all carry ids, with the
    /// same header and the same first id as one already stored, is a retry: nothing is written and the
    /// original result is returned.
    pub fn create_game(&self, header: &Header, events: Vec<NewEvent>) -> Result<Appended, StoreError> {
        header.check()?;
        check_ids(&events)?;
        let creation = creation_key(header, &events);
        let guard = self.write.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(key) = &creation {
            if let Some(bytes) = self.creations.get(key)? {
                let earlier: Appended = decode("a creation", &bytes)?;
                let number = id_number('g', &earlier.game.0).ok_or_else(|| StoreError::Io(format!("a creation names game '{}'", earlier.game)))?;
                if let Some(appended) = self.earlier_append(number, &events)? {
                    drop(guard);
                    self.commit.wait()?;
                    return Ok(appended);
                }
            }
        }
        let number = self.counter("games")? + 1;
        let mut writes = Writes::default();
        writes.meta.insert("games", &number.to_be_bytes()[..]);
        writes.headers.insert(&number.to_be_bytes()[..], encode(header));
        let appended = self.stage_events(&mut writes, number, 0, events)?;
        if let Some(key) = creation {
            writes.creations.insert(key, encode(&appended));
        }
        self.apply(&writes)?;
        drop(guard);
        self.commit.wait()?;
        Ok(appended)
    }

    /// Adds `events` at the end of the stream if it has exactly `expected_version` events, and
    /// otherwise refuses with the version it has. When every event carries an id and those ids are
    /// already stored in this stream, this is a retry: nothing is written and the original result is
    /// returned. Ids stored in other streams do not matter: ids are scoped to their game.
    pub fn append(&self, game: &GameId, expected_version: u64, events: Vec<NewEvent>) -> Result<Appended, StoreError> {
        if events.is_empty() {
            return Err(StoreError::Invalid("an append needs at least one event".into()));
        }
        check_ids(&events)?;
        let number = self.number(game)?;
        let guard = self.write.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(appended) = self.earlier_append(number, &events)? {
            drop(guard);
            self.commit.wait()?;
            return Ok(appended);
        }
        let current = self.version_of(number)?;
        if current != expected_version {
            return Err(StoreError::Conflict { expected: expected_version, current });
        }
        let mut writes = Writes::default();
        let appended = self.stage_events(&mut writes, number, current, events)?;
        self.apply(&writes)?;
        drop(guard);
        self.commit.wait()?;
        Ok(appended)
    }

    pub fn header(&self, game: &GameId) -> Result<Header, StoreError> {
        self.header_of(self.number(game)?)
    }

    /// The stream's events in order.
    pub fn events(&self, game: &GameId) -> Result<Vec<StoredEvent>, StoreError> {
        let number = self.number(game)?;
        let mut events = match self.imported_segment(number)? {
            Some(segment) => decode_segment(&event_key(number, 1), &bulk::resolve(&self.dir, &segment)?)?,
            None => vec![],
        };
        for entry in self.events.scan_prefix(number.to_be_bytes()) {
            let (key, segment) = entry?;
            events.extend(decode_segment(&key, &bulk::resolve(&self.dir, &segment)?)?);
        }
        Ok(events)
    }

    /// The game as a record, ready for replay.
    pub fn record(&self, game: &GameId) -> Result<GameRecord, StoreError> {
        let events = self.events(game)?;
        Ok(self.header(game)?.into_record(events.into_iter().map(|e| e.event).collect()))
    }

    /// The number of events in the stream.
    pub fn version(&self, game: &GameId) -> Result<u64, StoreError> {
        self.version_of(self.number(game)?)
    }

    /// The position of the last event stored in the archive (0 when there is none).
    pub fn last_position(&self) -> Result<u64, StoreError> {
        self.counter("position")
    }

    /// Every game, in the order they were created.
    pub fn games(&self) -> Result<Vec<GameId>, StoreError> {
        self.headers.iter().keys().map(|key| Ok(GameId::from_number(read_u64(&key?)?))).collect()
    }

    /// Waits until everything written so far, projections included, is on disk.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.commit.wait()
    }

    /// How many flushes the store has made since it was opened.
    pub fn flushes(&self) -> u64 {
        self.commit.flushes()
    }

    /// The number of a game that exists.
    pub(crate) fn number(&self, game: &GameId) -> Result<u64, StoreError> {
        match id_number('g', &game.0) {
            Some(number) if self.headers.contains_key(number.to_be_bytes())? => Ok(number),
            _ => Err(StoreError::NotFound(format!("there is no game {game}"))),
        }
    }

    pub(crate) fn header_of(&self, number: u64) -> Result<Header, StoreError> {
        self.stored_header(number, |h| decode("a game header", h.json))?.ok_or_else(|| StoreError::NotFound(format!("there is no game {}", GameId::from_number(number))))
    }

    fn version_of(&self, number: u64) -> Result<u64, StoreError> {
        if let Some(bytes) = self.versions.get(number.to_be_bytes())? {
            return read_u64(&bytes);
        }
        // An imported game never appended to: the version it was imported with.
        Ok(self.stored_header(number, |h| Ok(h.imported.map_or(0, |(count, _)| count)))?.unwrap_or(0))
    }

    /// The value of an imported game's first segment, kept in its header (none for a game not
    /// imported, or imported without events).
    fn imported_segment(&self, number: u64) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.stored_header(number, |h| Ok(h.imported.and_then(|(_, segment)| (!segment.is_empty()).then(|| segment.to_vec()))))?.flatten())
    }

    /// What `f` makes of game `number`'s header as stored (see `StoredHeader`); `None` when there
    /// is no such game.
    fn stored_header<T>(&self, number: u64, f: impl FnOnce(StoredHeader<'_>) -> Result<T, StoreError>) -> Result<Option<T>, StoreError> {
        let Some(bytes) = self.headers.get(number.to_be_bytes())? else { return Ok(None) };
        f(StoredHeader::read(number, &bytes)?).map(Some)
    }

    /// The last number given out of a counter of `meta`.
    pub(crate) fn counter(&self, name: &str) -> Result<u64, StoreError> {
        self.meta.get(name)?.map_or(Ok(0), |bytes| read_u64(&bytes))
    }

    /// Adds `events` to `writes` as the versions after `version` of game `number`, at the positions
    /// after the last one given out.
    fn stage_events(&self, writes: &mut Writes, number: u64, version: u64, events: Vec<NewEvent>) -> Result<Appended, StoreError> {
        Ok(stage(writes, number, version, self.counter("position")?, events))
    }
}

/// Adds `events` to `writes` as the versions after `version` of game `number`, at the positions
/// after `last_position`.
fn stage(writes: &mut Writes, number: u64, version: u64, last_position: u64, events: Vec<NewEvent>) -> Appended {
    stage_with(writes, number, version, last_position, events, |segment| segment)
}

/// `stage`, with the events' value (a segment) stored as `value` makes it.
pub(super) fn stage_with(writes: &mut Writes, number: u64, version: u64, last_position: u64, events: Vec<NewEvent>, value: impl FnOnce(Vec<u8>) -> Vec<u8>) -> Appended {
    let count = events.len() as u64;
    for (i, new) in (1..).zip(&events) {
        if let Some(id) = &new.id {
            writes.event_ids.insert(id_key(number, id), &(version + i).to_be_bytes()[..]);
        }
    }
    if count > 0 {
        writes.events.insert(&event_key(number, version + 1)[..], value(segment(last_position + 1, &encode(&events))));
    }
    writes.versions.insert(&number.to_be_bytes()[..], &(version + count).to_be_bytes()[..]);
    writes.meta.insert("position", &(last_position + count).to_be_bytes()[..]);
    Appended { game: GameId::from_number(number), version: version + count, first_position: last_position + 1, last_position: last_position + count }
}

/// The first byte of an imported game's header and summary (see `sled`'s doc, and
/// `projections`'): JSON starts with `{`, never with this.
pub(crate) const IMPORTED: u8 = 0xFC;

/// An imported game's header: `IMPORTED`, its number of events (8 bytes), the length of its first
/// segment's value (4 bytes), that value (empty when it has no events), then its JSON.
pub(super) fn imported_header(count: u64, segment: &[u8], json: &[u8]) -> Vec<u8> {
    let mut value = Vec::with_capacity(13 + segment.len() + json.len());
    value.push(IMPORTED);
    value.extend_from_slice(&count.to_be_bytes());
    value.extend_from_slice(&(segment.len() as u32).to_be_bytes());
    value.extend_from_slice(segment);
    value.extend_from_slice(json);
    value
}

/// A header as stored (see `imported_header`).
struct StoredHeader<'a> {
    json: &'a [u8],
    /// For an imported game: its number of events, and its first segment's value (empty when it
    /// has no events).
    imported: Option<(u64, &'a [u8])>,
}

impl StoredHeader<'_> {
    /// Game `number`'s header from its stored bytes.
    fn read(number: u64, bytes: &[u8]) -> Result<StoredHeader<'_>, StoreError> {
        if bytes.first() != Some(&IMPORTED) {
            return Ok(StoredHeader { json: bytes, imported: None });
        }
        let unreadable = || {
            StoreError::Io(format!(
                "the header of game {} (stored by an import: its version and first segment, then its JSON) is cut short in the database",
                GameId::from_number(number)
            ))
        };
        let count = read_u64(bytes.get(1..9).ok_or_else(unreadable)?)?;
        let len = bytes.get(9..13).and_then(|b| b.try_into().ok()).map(u32::from_be_bytes).ok_or_else(unreadable)? as usize;
        let segment = bytes.get(13..13 + len).ok_or_else(unreadable)?;
        Ok(StoredHeader { json: &bytes[13 + len..], imported: Some((count, segment)) })
    }
}

/// An append's events as one value, keyed by the first one's version: the first one's position (8
/// bytes, big-endian), then the events as the append gave them (`[NewEvent]`, JSON). Versions and
/// positions follow one another, so they are not written for each event.
pub(super) fn segment(first_position: u64, events_json: &[u8]) -> Vec<u8> {
    let mut value = Vec::with_capacity(8 + events_json.len());
    value.extend_from_slice(&first_position.to_be_bytes());
    value.extend_from_slice(events_json);
    value
}

/// The events of the segment stored under `key` (game, first version).
fn decode_segment(key: &[u8], bytes: &[u8]) -> Result<Vec<StoredEvent>, StoreError> {
    let (first_version, first_position) = (read_u64(&key[8..])?, read_u64(bytes.get(..8).unwrap_or_default())?);
    let events: Vec<NewEvent> = decode("events", &bytes[8..])?;
    Ok((0..).zip(events).map(|(i, new)| StoredEvent { version: first_version + i, position: first_position + i, id: new.id, event: new.event }).collect())
}

impl SledStore {
    /// When every event carries an id already stored in game `number`, the append repeats one that
    /// succeeded: returns what that append returned. An append that repeats some stored ids but not
    /// all cannot be a retry, and is refused rather than half applied.
    fn earlier_append(&self, number: u64, events: &[NewEvent]) -> Result<Option<Appended>, StoreError> {
        let mut found = vec![];
        for new in events {
            if let Some(id) = &new.id {
                if let Some(version) = self.event_ids.get(id_key(number, id))? {
                    found.push((id.as_str(), read_u64(&version)?));
                }
            }
        }
        let mut stored = vec![];
        for (id, version) in &found {
            let no_event = || StoreError::Io(format!("event id '{id}' points to no event"));
            // The segment that holds the version: the last one that starts at or before it.
            let (key, bytes) = match self.events.range(event_key(number, 0)..=event_key(number, *version)).next_back() {
                Some(entry) => entry?,
                // An imported game's first segment is in its header.
                None => (event_key(number, 1).to_vec().into(), self.imported_segment(number)?.ok_or_else(no_event)?.into()),
            };
            stored.push(decode_segment(&key, &bulk::resolve(&self.dir, &bytes)?)?.into_iter().find(|e| e.version == *version).ok_or_else(no_event)?);
        }
        retry_of(GameId::from_number(number), events, &found, &stored)
    }
}

fn id_key(number: u64, id: &str) -> Vec<u8> {
    let mut key = number.to_be_bytes().to_vec();
    key.extend_from_slice(id.as_bytes());
    key
}

fn event_key(number: u64, version: u64) -> [u8; 16] {
    let mut key = [0; 16];
    key[..8].copy_from_slice(&number.to_be_bytes());
    key[8..].copy_from_slice(&version.to_be_bytes());
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An imported game's header reads back as written; a plain header is its JSON; one cut short
    /// anywhere is an error, not a panic.
    #[test]
    fn an_imported_header_reads_back_and_one_cut_short_is_an_error() {
        let value = imported_header(78, b"segment", b"{\"ruleset\":\"fft-4p\"}");
        let read = StoredHeader::read(1, &value).unwrap();
        assert_eq!((read.json, read.imported), (&b"{\"ruleset\":\"fft-4p\"}"[..], Some((78, &b"segment"[..]))));
        let plain = StoredHeader::read(1, b"{}").unwrap();
        assert_eq!((plain.json, plain.imported), (&b"{}"[..], None));
        let empty = imported_header(0, b"", b"{}");
        assert_eq!(StoredHeader::read(1, &empty).unwrap().imported, Some((0, &b""[..])));
        for cut in 1..13 + 7 {
            let error = StoredHeader::read(37, &value[..cut]).err().unwrap_or_else(|| panic!("cut at {cut}: read"));
            assert!(error.to_string().contains("game g11") && error.to_string().contains("cut short"), "{error}");
        }
    }
}
