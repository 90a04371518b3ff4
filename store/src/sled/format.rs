//! The version of the sled store's format on disk, brought up to date once when the store is
//! opened, so that the readers know one layout only.
//!
//! `meta` holds `format` → the version the store is written in (big-endian). A store without it,
//! and not empty, was written before versions (format 0), possibly by programs of several ages, so
//! each of its values may be in any layout written before:
//! - `events`: one `StoredEvent` per value (JSON, first byte `{`), in stores written before
//!   segments; or the events of one append as a JSON array of `StoredEvent`s (first byte `[`), in
//!   stores written before segments held `[NewEvent]` after the first position. A segment starts
//!   with the top byte of a position (0), a bulk pointer with `POINTER` or `AROUND`.
//! - `event_ids`: event id → game and version (16 bytes), in stores written before ids were scoped
//!   to their game; now game and event id → version (8 bytes).
//! - An imported game's first segment in `events`, with its version in `versions`, rather than in
//!   its header: that is how a created game is stored, read the same way, and is left as it is.
//!
//! Opening a store of format 0 rewrites every value of an older layout to the current one, in
//! batches each atomic in its tree. A value rewritten is recognised as current, so a migration cut
//! short (a crash) is taken up again at the next open, and `format` is written only once every value
//! is rewritten and on disk: a store is never read, or written by the program, before it is
//! migrated. A store of a format newer than this program's is refused.

use sled::Batch;

use super::streams::segment;
use super::{read_u64, SledStore};
use crate::stream::{decode, encode};
use crate::{GameId, NewEvent, StoreError, StoredEvent};

/// The format this program writes and reads.
pub(crate) const FORMAT: u64 = 1;

/// The key of the format's version in `meta`.
const FORMAT_KEY: &str = "format";

/// How many values a migration rewrites in one batch.
const BATCH: usize = 1_000;

impl SledStore {
    /// Brings the store's format up to date (see the module's doc), or refuses a newer one.
    pub(super) fn bring_format_up_to_date(&self) -> Result<(), StoreError> {
        let stored = self.meta.get(FORMAT_KEY)?.map(|bytes| read_u64(&bytes)).transpose()?;
        let format = match stored {
            Some(format) => format,
            None if self.is_empty() => FORMAT,
            None => 0,
        };
        if format > FORMAT {
            return Err(StoreError::Io(format!(
                "the store in {} is written in format {format}, but this program knows formats up to {FORMAT}: open it with the newer program that wrote it",
                self.dir.display()
            )));
        }
        if stored == Some(FORMAT) {
            return Ok(());
        }
        if format == 0 {
            self.events_as_segments()?;
            self.event_ids_in_their_game()?;
            self.meta.flush()?;
        }
        self.meta.insert(FORMAT_KEY, &FORMAT.to_be_bytes()[..])?;
        self.meta.flush()?;
        Ok(())
    }

    /// Whether nothing was ever written to the store.
    fn is_empty(&self) -> bool {
        [&self.meta, &self.headers, &self.events, &self.event_ids, &self.sessions].iter().all(|tree| tree.is_empty())
    }

    /// Rewrites every value of `events` written as one `StoredEvent` or as an array of them into a
    /// segment, under the same key (the first event's game and version).
    fn events_as_segments(&self) -> Result<(), StoreError> {
        let mut batch = (Batch::default(), 0);
        for entry in self.events.iter() {
            let (key, value) = entry?;
            let stored: Vec<StoredEvent> = match value.first() {
                Some(b'{') => vec![decode("an event", &value)?],
                Some(b'[') => decode("events", &value)?,
                _ => continue,
            };
            let (game, first_version) = (read_u64(&key[..8])?, read_u64(&key[8..])?);
            let unreadable =
                |why: &str| StoreError::Io(format!("the events of game {} from version {first_version} {why}: the store cannot be migrated", GameId::from_number(game)));
            let first = stored.first().ok_or_else(|| unreadable("are an empty list"))?;
            if !(0..).zip(&stored).all(|(i, e)| e.version == first_version + i && e.position == first.position + i) {
                return Err(unreadable("do not follow one another"));
            }
            let new: Vec<NewEvent> = stored.iter().map(|e| NewEvent { id: e.id.clone(), event: e.event.clone() }).collect();
            batch.0.insert(key, segment(first.position, &encode(&new)));
            self.apply_when_full(&self.events, &mut batch, false)?;
        }
        self.apply_when_full(&self.events, &mut batch, true)
    }

    /// Rewrites every entry of `event_ids` keyed by the id alone (its value the game and the
    /// version) as the game and the id → the version.
    fn event_ids_in_their_game(&self) -> Result<(), StoreError> {
        let mut batch = (Batch::default(), 0);
        for entry in self.event_ids.iter() {
            let (key, value) = entry?;
            if value.len() != 16 {
                continue;
            }
            let mut scoped = value[..8].to_vec();
            scoped.extend_from_slice(&key);
            batch.0.insert(scoped, &value[8..]);
            batch.0.remove(key);
            self.apply_when_full(&self.event_ids, &mut batch, false)?;
        }
        self.apply_when_full(&self.event_ids, &mut batch, true)
    }

    /// Counts a value added to `batch`, and applies the batch to `tree` once it holds `BATCH`
    /// values, or when `last`.
    fn apply_when_full(&self, tree: &sled::Tree, batch: &mut (Batch, usize), last: bool) -> Result<(), StoreError> {
        if !last {
            batch.1 += 1;
        }
        if batch.1 >= BATCH || (last && batch.1 > 0) {
            tree.apply_batch(std::mem::take(&mut batch.0))?;
            batch.1 = 0;
        }
        Ok(())
    }
}
