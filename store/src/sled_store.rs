//! The store and its event streams: one per game, a header and the events in order. Each event is
//! numbered twice: its version in the stream (1, 2, 3...) and its position in the whole archive,
//! given out with no gaps across all streams.
//!
//! Primary trees (key → value; integers are big-endian, so that sled's order is numeric order):
//! - `headers`: game → `Header` (JSON); for a game stored by an import, the byte `IMPORTED`, the
//!   number of events it was imported with, and the value its first segment would have in
//!   `events`, before the JSON (see `imported_header`): an import writes three values a game
//!   (header, creation, summary) rather than six, and sled's cost is per value
//! - `versions`: game → the number of events in the stream; none for an imported game until an
//!   append (its header has it)
//! - `events`: game, version → the events of the append that began at that version, one value per
//!   append (see `segment`; a single `StoredEvent` in stores written before), or a pointer to that
//!   value in a bulk file (see `bulk`; so are imported games' verdicts). An imported game's first
//!   segment is in its header, not here (stores written before kept it here)
//! - `event_ids`: game, event id → version, so that a retried append to the game is recognised (ids
//!   are scoped to their game, as event stores scope them to a stream: the same id in another game
//!   is another event)
//! - `creations`: header (JSON), 0xFF, the first event's id → what the creation returned (`Appended`),
//!   so that a retried creation is recognised; and `sha256:` and a digest of an imported game's
//!   header and events → the same, so that a retried import stores nothing new
//! - `meta`: `position`, `games`, `sessions` → the last number given out of each
//! - `sessions`: session → `Session` (JSON)
//!
//! A game is known inside by its number and outside by its `GameId` ("g" and the number in base 36).
//!
//! Writers of primary data take one mutex, check what they must (the expected version, the event
//! ids), and apply all their changes as one sled transaction. Because only one writer at a time
//! reads and moves the counters, positions are gapless and sled never retries a transaction. The
//! mutex is held only while the transaction is applied in memory: waiting for the disk happens
//! after it is released, in the group commit (`commit`), so concurrent writers share flushes.
//! Readers take no lock of ours: sled applies a transaction under a lock that each of its reads
//! takes too, and events are only ever added after the last one, so a reader sees each append whole
//! or not at all.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sled::transaction::{ConflictableTransactionError, Transactional};
use sled::{Batch, Tree};
use tarot_engine::{Event, GameRecord};

use crate::bulk::{self, OpenBulk};
use crate::commit::GroupCommit;
use crate::{EventStore, Filter, Import, Projection, Session, StoreError, Summary};

/// The longest event id accepted, in bytes. Ids are keys; this keeps them reasonable.
const MAX_EVENT_ID: usize = 128;

/// How long `Store::open` waits for a store just closed to release its directory.
const LOCK_WAIT: Duration = Duration::from_secs(2);

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
        if self.ruleset.trim().is_empty() {
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredEvent {
    /// Its place in the stream, from 1.
    pub version: u64,
    /// Its place in the whole archive, from 1.
    pub position: u64,
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

/// The archive's storage. Open it once per directory (sled locks it) and share it in an `Arc`.
pub struct SledStore {
    pub(crate) headers: Tree,
    pub(crate) versions: Tree,
    pub(crate) events: Tree,
    pub(crate) event_ids: Tree,
    pub(crate) creations: Tree,
    pub(crate) meta: Tree,
    pub(crate) sessions: Tree,
    pub(crate) projections: Tree,
    pub(crate) summaries: Tree,
    pub(crate) by_ruleset: Tree,
    pub(crate) by_player: Tree,
    pub(crate) by_status: Tree,
    /// Held by writers of primary data while they check and apply their transaction.
    pub(crate) write: Mutex<()>,
    pub(crate) commit: Arc<GroupCommit>,
    flusher: Option<JoinHandle<()>>,
    /// The store's directory, where imports keep their bulk files (`bulk`).
    pub(crate) dir: PathBuf,
    /// The bulk file that `create_games` adds to, once it has created one.
    writer_bulk: Mutex<Option<OpenBulk>>,
    /// The bulk file that `stage_import` adds to, once it has created one, and the name of the
    /// next one it creates.
    staged_bulk: Mutex<(Option<OpenBulk>, u64)>,
    /// The digests of the games the last batches of `import_staged` stored, so that a batch
    /// staged before them is checked against them rather than against `creations` again.
    recent: Mutex<Recent>,
}

/// How many batches of `import_staged` `Recent` remembers.
const RECENT_BATCHES: usize = 4;

/// The digests each of the last batches of `import_staged` stored, numbered from 1; a batch
/// staged when `batches` was n is checked against those after n, if they are all here.
#[derive(Default)]
struct Recent {
    batches: u64,
    digests: std::collections::VecDeque<HashSet<Vec<u8>, ByDigest>>,
}

/// Hashes an import's digest (`digest`: `sha256:` and 32 bytes) by its first 8 bytes after the
/// prefix, which are already as good as a hash; SipHash over the whole key was 1.2% of an
/// import's CPU (perf, 20,000 games), all on the storing thread.
type ByDigest = std::hash::BuildHasherDefault<DigestHasher>;

#[derive(Default)]
struct DigestHasher(u64);

impl std::hash::Hasher for DigestHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        match bytes.get(7..15) {
            Some(word) => self.0 ^= u64::from_le_bytes(word.try_into().expect("eight bytes")),
            // Not a digest (none is shorter): any hash will do.
            None => {
                for &b in bytes {
                    self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
                }
            }
        }
    }
    fn write_usize(&mut self, n: usize) {
        // The length `Hash` writes before a slice: every digest has the same.
        self.0 = self.0.rotate_left(5) ^ n as u64;
    }
}

/// Everything one change writes to the primary trees, applied as one sled transaction.
#[derive(Default)]
pub(crate) struct Writes {
    pub(crate) headers: Batch,
    pub(crate) versions: Batch,
    pub(crate) events: Batch,
    pub(crate) event_ids: Batch,
    pub(crate) creations: Batch,
    pub(crate) meta: Batch,
    pub(crate) sessions: Batch,
}

impl SledStore {
    /// Opens the store in `dir`, creating the directory if it is missing.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        let at = |e: &dyn fmt::Display| StoreError::Io(format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(dir).map_err(|e| at(&e))?;
        let db = open_db(dir).map_err(|e| at(&e))?;
        let tree = |name: &str| db.open_tree(name).map_err(|e| at(&e));
        let (commit, flusher) = GroupCommit::start(db.clone())?;
        Ok(SledStore {
            headers: tree("headers")?,
            versions: tree("versions")?,
            events: tree("events")?,
            event_ids: tree("event_ids")?,
            creations: tree("creations")?,
            meta: tree("meta")?,
            sessions: tree("sessions")?,
            projections: tree("projections")?,
            summaries: tree("summaries")?,
            by_ruleset: tree("by_ruleset")?,
            by_player: tree("by_player")?,
            by_status: tree("by_status")?,
            write: Mutex::new(()),
            commit,
            flusher: Some(flusher),
            dir: dir.to_path_buf(),
            writer_bulk: Mutex::new(None),
            staged_bulk: Mutex::new((None, bulk::next_staged_file(dir))),
            recent: Mutex::new(Recent::default()),
        })
    }

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

    /// Stores whole games with their projections, all or none; see `EventStore::import`.
    pub fn import(&self, games: Vec<Import>) -> Result<Vec<(Appended, bool)>, StoreError> {
        let staged = self.stage_import(games)?;
        let results = self.import_staged(staged)?;
        self.commit.wait()?;
        Ok(results)
    }

    /// The work of an import that does not need the games' numbers, done before the write lock is
    /// taken (see `EventStore::stage_import`): on every core, the checks, the headers' and events'
    /// JSON and the digests; then which games were imported before, and the events and verdicts of
    /// the others written to a bulk file and on disk (see `bulk`). The games' events are dropped
    /// here, on every core, rather than by the thread that stores them.
    pub fn stage_import(&self, games: Vec<Import>) -> Result<crate::Staged, StoreError> {
        use rayon::prelude::*;
        let staged = games.into_par_iter().map(|game| self.stage_game(game)).collect::<Result<_, StoreError>>()?;
        self.stage_finish(staged)
    }

    /// One game's part of `stage_import`: its checks, its header's and events' JSON and its
    /// digest; its events are dropped here. It reads nothing stored and takes no lock, so that
    /// the cores refereeing an import never wait for the thread storing it: sled makes every
    /// read wait while a batch or transaction is applied, and the storing thread applies one
    /// most of the time.
    pub fn stage_game(&self, mut game: Import) -> Result<crate::StagedGame, StoreError> {
        game.header.check()?;
        check_ids(&game.events)?;
        let events = std::mem::take(&mut game.events);
        let (header, events_json) = (encode(&game.header), crate::events_json::encode_events(&events));
        let key = digest(&header, &events_json);
        let count = events.len() as u64;
        drop(events);
        Ok(crate::StagedGame::new(StagedGame { key, header, count, known: None, events_json, places: None, game }))
    }

    /// Ends staging a batch (see `EventStore::stage_game`): which games were imported before
    /// (`creations`), then the events and verdicts of the others written to a bulk file and on
    /// disk.
    pub fn stage_finish(&self, games: Vec<crate::StagedGame>) -> Result<crate::Staged, StoreError> {
        // Read before `creations` is: a batch stored after this one may or may not be seen there.
        let seen = self.recent.lock().unwrap_or_else(PoisonError::into_inner).batches;
        let mut staged = Vec::with_capacity(games.len());
        for game in games {
            // Staged by this store, or given as it was (by a store that stages nothing).
            let mut game = match game.take::<StagedGame>() {
                Ok(game) => game,
                Err(other) => self.stage_game(other.take::<Import>().map_err(|_| crate::StagedGame::foreign())?)?.take::<StagedGame>().map_err(|_| crate::StagedGame::foreign())?,
            };
            game.known = self.creations.get(&game.key)?.map(|bytes| decode("an import", &bytes)).transpose()?;
            staged.push(game);
        }
        if staged.iter().any(|g| g.known.is_none()) {
            let mut open = self.staged_bulk.lock().unwrap_or_else(PoisonError::into_inner);
            let result = self.write_staged(&mut open, &mut staged);
            if result.is_err() {
                // Whatever this batch wrote to the file is pointed to by nothing; see `bulk`.
                open.0 = None;
            }
            result?;
        }
        Ok(crate::Staged::new(SledStaged { games: staged, seen }))
    }

    /// Writes the events and verdicts of the games not imported before at the end of the staged
    /// imports' bulk file, and waits until they are on disk.
    fn write_staged(&self, open: &mut (Option<OpenBulk>, u64), staged: &mut [StagedGame]) -> Result<(), StoreError> {
        if open.0.as_ref().is_none_or(|file| file.len() >= bulk::STAGED_FILE_SIZE) {
            open.0 = Some(OpenBulk::create_direct(&self.dir, open.1)?);
            open.1 += 1;
        }
        let file = open.0.as_mut().expect("a bulk file just opened");
        let mut batch = file.batch(staged.iter().filter(|g| g.known.is_none()).map(|g| g.events_json.len() + g.game.verdict.json.len()).sum());
        for game in staged.iter_mut().filter(|g| g.known.is_none()) {
            let events = std::mem::take(&mut game.events_json);
            let verdict = std::mem::take(&mut game.game.verdict.json);
            game.places = Some((batch.place(&events), batch.place(&verdict)));
        }
        file.add(&mut batch)
    }

    /// Numbers and stores games staged by `stage_import`, all or none; on disk once `flush`
    /// returns. Under the write lock: whether each game was stored meanwhile (by an earlier batch
    /// or earlier in this one), the numbers, and one transaction.
    pub fn import_staged(&self, staged: crate::Staged) -> Result<Vec<(Appended, bool)>, StoreError> {
        let SledStaged { games, seen } = match staged.take::<SledStaged>() {
            Ok(staged) => staged,
            Err(other) => return self.import_staged(self.stage_import(other.take::<Vec<Import>>().map_err(|_| crate::StagedGame::foreign())?)?),
        };
        let guard = self.write.lock().unwrap_or_else(PoisonError::into_inner);
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        // The batches stored since this one was staged, when they are all remembered: a game
        // stored meanwhile is in one of them. Otherwise `creations` is read again.
        let since = (recent.batches - seen) as usize;
        let stored_since = (since <= recent.digests.len()).then(|| recent.digests.range(recent.digests.len() - since..).collect::<Vec<_>>());
        let (mut number, mut position) = (self.counter("games")?, self.counter("position")?);
        let mut results: Vec<(Appended, bool)> = Vec::with_capacity(games.len());
        let mut batch: HashMap<&[u8], Appended, ByDigest> = HashMap::with_capacity_and_hasher(games.len(), ByDigest::default());
        let mut writes = Writes::default();
        let mut projections = Vec::with_capacity(games.len());
        for game in &games {
            if let Some(appended) = &game.known {
                results.push((appended.clone(), false));
                continue;
            }
            if let Some(appended) = batch.get(&game.key[..]) {
                results.push((appended.clone(), false));
                continue;
            }
            let maybe_stored = stored_since.as_ref().is_none_or(|batches| batches.iter().any(|digests| digests.contains(&game.key)));
            if maybe_stored {
                if let Some(bytes) = self.creations.get(&game.key)? {
                    results.push((decode("an import", &bytes)?, false));
                    continue;
                }
            }
            let (events_place, verdict_place) = game.places.expect("a game not stored before has its values in a bulk file");
            number += 1;
            let count = game.count;
            let appended = Appended { game: GameId::from_number(number), version: count, first_position: position + 1, last_position: position + count };
            let key = number.to_be_bytes();
            let segment = if count > 0 { events_place.around(&(position + 1).to_be_bytes(), b"") } else { vec![] };
            writes.headers.insert(&key[..], imported_header(count, &segment, &game.header));
            writes.creations.insert(&game.key[..], encode(&appended));
            let summary = game.game.summary(&appended);
            projections.push((number, summary, crate::projection::NewProjection::InSummary(verdict_place.around(b"", b""))));
            position += count;
            batch.insert(&game.key, appended.clone());
            results.push((appended, true));
        }
        writes.meta.insert("games", &number.to_be_bytes()[..]);
        writes.meta.insert("position", &position.to_be_bytes()[..]);
        let digests: HashSet<Vec<u8>, ByDigest> = batch.into_keys().map(<[u8]>::to_vec).collect();
        drop(stored_since);
        let applied = self.apply(&writes);
        // Whether or not the transaction was applied, the batch is counted: one staged before it
        // then reads `creations`, or this batch's digests if it is remembered.
        recent.batches += 1;
        recent.digests.push_back(digests);
        if recent.digests.len() > RECENT_BATCHES {
            recent.digests.pop_front();
        }
        drop(recent);
        applied?;
        self.put_new_projections(&projections)?;
        drop(guard);
        Ok(results)
    }
}

/// A batch staged by `stage_import`: its games, and how many batches `import_staged` had stored
/// before it looked for them in `creations`.
struct SledStaged {
    games: Vec<StagedGame>,
    seen: u64,
}

/// A game of an import once staged: what storing it needs, without its events.
pub(crate) struct StagedGame {
    /// Its digest: the key in `creations` that recognises it.
    key: Vec<u8>,
    /// Its header's JSON.
    header: Vec<u8>,
    /// How many events it has.
    count: u64,
    /// What it was stored as, when it was imported before the batch was staged.
    known: Option<Appended>,
    /// Its events' JSON, until written to the bulk file.
    events_json: Vec<u8>,
    /// Where its events' and verdict's JSON are in a bulk file, once written.
    places: Option<(bulk::Place, bulk::Place)>,
    /// Its header and verdict (its events taken; the verdict's JSON too once in a bulk file).
    game: Import,
}

impl SledStore {
    /// Creates games with their projections; see `EventStore::create_games`. The games whose
    /// creation can be recognised when retried (every event with an id) are created one by one;
    /// the others are applied as one transaction, their projections as another, and share one
    /// wait for the disk.
    pub fn create_games(&self, games: Vec<Import>) -> Vec<Result<Appended, StoreError>> {
        let mut results = Vec::with_capacity(games.len());
        // The games waiting to be created together, and where their results go; created before a
        // game created alone, so that games are numbered in the order given.
        let mut together: Vec<(usize, Import)> = vec![];
        let create_together = |together: &mut Vec<(usize, Import)>, results: &mut Vec<Result<Appended, StoreError>>| {
            if together.is_empty() {
                return;
            }
            let (places, games): (Vec<usize>, Vec<Import>) = std::mem::take(together).into_iter().unzip();
            let stored = self.create_together(games).map_or_else(|e| vec![Err(e); places.len()], |all| all.into_iter().map(Ok).collect());
            for (place, result) in places.into_iter().zip(stored) {
                results[place] = result;
            }
        };
        for game in games {
            let checked = game.header.check().and_then(|()| check_ids(&game.events));
            match checked {
                Err(e) => results.push(Err(e)),
                Ok(()) if creation_key(&game.header, &game.events).is_some() => {
                    create_together(&mut together, &mut results);
                    results.push(crate::create_one(self, game));
                }
                Ok(()) => {
                    together.push((results.len(), game));
                    results.push(Err(StoreError::Io("not created".into())));
                }
            }
        }
        create_together(&mut together, &mut results);
        results
    }

    /// New games without event ids, checked, stored together, on disk when it returns.
    ///
    /// The games' events and verdicts go to the writer's bulk file (see `bulk`), as an import's
    /// do: stored inline, each game's kilobytes made sled copy a leaf of them per insert, and made
    /// its cache grow by as much.
    fn create_together(&self, games: Vec<Import>) -> Result<Vec<Appended>, StoreError> {
        let guard = self.write.lock().unwrap_or_else(PoisonError::into_inner);
        let mut open = self.writer_bulk.lock().unwrap_or_else(PoisonError::into_inner);
        let result = self.create_in(&mut open, games);
        if result.is_err() {
            // Whatever this batch wrote to the file is pointed to by nothing; see `OpenBulk`.
            *open = None;
        }
        drop(open);
        drop(guard);
        let results = result?;
        // The caller (the store's writer thread) flushes here rather than waiting for the flusher
        // thread: two thread switches fewer per batch. A flush covers every write applied before it.
        self.meta.flush()?;
        Ok(results)
    }

    /// `create_together`'s work under the write lock, but the flush.
    fn create_in(&self, open: &mut Option<OpenBulk>, games: Vec<Import>) -> Result<Vec<Appended>, StoreError> {
        let (mut number, mut position) = (self.counter("games")?, self.counter("position")?);
        if open.is_none() {
            *open = Some(OpenBulk::create(&self.dir, number + 1)?);
        }
        let bulk = open.as_mut().expect("a bulk file just opened");
        let mut file = bulk.batch(games.iter().map(|g| 8 * 1024 + 700 * g.events.len()).sum());
        let mut writes = Writes::default();
        let mut projections = Vec::with_capacity(games.len());
        let mut results = Vec::with_capacity(games.len());
        for mut game in games {
            number += 1;
            writes.headers.insert(&number.to_be_bytes()[..], encode(&game.header));
            let events = std::mem::take(&mut game.events);
            let appended = stage_with(&mut writes, number, 0, position, events, |segment| file.push(&segment));
            position = appended.last_position;
            let (summary, projection) = game.projection(&appended);
            projections.push((number, summary, crate::projection::NewProjection::Value(file.push(&projection))));
            results.push(appended);
        }
        writes.meta.insert("games", &number.to_be_bytes()[..]);
        bulk.add(&mut file)?;
        self.apply(&writes)?;
        self.put_new_projections(&projections)?;
        Ok(results)
    }
}

/// Adds `events` to `writes` as the versions after `version` of game `number`, at the positions
/// after `last_position`.
fn stage(writes: &mut Writes, number: u64, version: u64, last_position: u64, events: Vec<NewEvent>) -> Appended {
    stage_with(writes, number, version, last_position, events, |segment| segment)
}

/// `stage`, with the events' value (a segment) stored as `value` makes it.
fn stage_with(writes: &mut Writes, number: u64, version: u64, last_position: u64, events: Vec<NewEvent>, value: impl FnOnce(Vec<u8>) -> Vec<u8>) -> Appended {
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

/// The first byte of an imported game's header and summary (see the module's doc, and
/// `projection`'s): JSON starts with `{`, never with this.
pub(crate) const IMPORTED: u8 = 0xFC;

/// An imported game's header: `IMPORTED`, its number of events (8 bytes), the length of its first
/// segment's value (4 bytes), that value (empty when it has no events), then its JSON.
fn imported_header(count: u64, segment: &[u8], json: &[u8]) -> Vec<u8> {
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
fn segment(first_position: u64, events_json: &[u8]) -> Vec<u8> {
    let mut value = Vec::with_capacity(8 + events_json.len());
    value.extend_from_slice(&first_position.to_be_bytes());
    value.extend_from_slice(events_json);
    value
}

/// The events of the segment stored under `key` (game, first version). Stores written before
/// segments keep one event per value, as a JSON `StoredEvent`, whose first byte is `{`; a segment's
/// first byte is the top byte of a position, 0.
fn decode_segment(key: &[u8], bytes: &[u8]) -> Result<Vec<StoredEvent>, StoreError> {
    if bytes.first() == Some(&b'{') {
        return Ok(vec![decode("an event", bytes)?]);
    }
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

    /// Applies `writes` as one transaction: all of them or none.
    pub(crate) fn apply(&self, writes: &Writes) -> Result<(), StoreError> {
        let trees = (&self.headers, &self.versions, &self.events, &self.event_ids, &self.creations, &self.meta, &self.sessions);
        trees.transaction(|(headers, versions, events, event_ids, creations, meta, sessions)| {
            headers.apply_batch(&writes.headers)?;
            versions.apply_batch(&writes.versions)?;
            events.apply_batch(&writes.events)?;
            event_ids.apply_batch(&writes.event_ids)?;
            creations.apply_batch(&writes.creations)?;
            meta.apply_batch(&writes.meta)?;
            sessions.apply_batch(&writes.sessions)?;
            Ok::<_, ConflictableTransactionError<StoreError>>(())
        })?;
        Ok(())
    }
}

impl EventStore for SledStore {
    fn create_game(&self, header: &Header, events: Vec<NewEvent>) -> Result<Appended, StoreError> {
        SledStore::create_game(self, header, events)
    }
    fn append(&self, game: &GameId, expected_version: u64, events: Vec<NewEvent>) -> Result<Appended, StoreError> {
        SledStore::append(self, game, expected_version, events)
    }
    fn import(&self, games: Vec<Import>) -> Result<Vec<(Appended, bool)>, StoreError> {
        SledStore::import(self, games)
    }
    fn stage_import(&self, games: Vec<Import>) -> Result<crate::Staged, StoreError> {
        SledStore::stage_import(self, games)
    }
    fn import_staged(&self, staged: crate::Staged) -> Result<Vec<(Appended, bool)>, StoreError> {
        SledStore::import_staged(self, staged)
    }
    fn stage_game(&self, game: Import) -> Result<crate::StagedGame, StoreError> {
        SledStore::stage_game(self, game)
    }
    fn stage_finish(&self, games: Vec<crate::StagedGame>) -> Result<crate::Staged, StoreError> {
        SledStore::stage_finish(self, games)
    }
    fn create_games(&self, games: Vec<Import>) -> Vec<Result<Appended, StoreError>> {
        SledStore::create_games(self, games)
    }
    fn header(&self, game: &GameId) -> Result<Header, StoreError> {
        SledStore::header(self, game)
    }
    fn events(&self, game: &GameId) -> Result<Vec<StoredEvent>, StoreError> {
        SledStore::events(self, game)
    }
    fn version(&self, game: &GameId) -> Result<u64, StoreError> {
        SledStore::version(self, game)
    }
    fn last_position(&self) -> Result<u64, StoreError> {
        SledStore::last_position(self)
    }
    fn games(&self) -> Result<Vec<GameId>, StoreError> {
        SledStore::games(self)
    }
    fn flush(&self) -> Result<(), StoreError> {
        SledStore::flush(self)
    }
    fn flushes(&self) -> u64 {
        SledStore::flushes(self)
    }
    fn put_projection(&self, game: &GameId, projection: &Projection) -> Result<(), StoreError> {
        SledStore::put_projection(self, game, projection)
    }
    fn projection(&self, game: &GameId) -> Result<Option<Projection>, StoreError> {
        SledStore::projection(self, game)
    }
    fn list(&self, filter: &Filter, offset: usize, limit: usize) -> Result<(Vec<Summary>, usize), StoreError> {
        SledStore::list(self, filter, offset, limit)
    }
    fn clear_projections(&self) -> Result<(), StoreError> {
        SledStore::clear_projections(self)
    }
    fn create_session(&self, name: &str, players: &[String]) -> Result<String, StoreError> {
        SledStore::create_session(self, name, players)
    }
    fn add_to_session(&self, session: &str, game: &GameId, deals: Option<usize>) -> Result<(), StoreError> {
        SledStore::add_to_session(self, session, game, deals)
    }
    fn session(&self, session: &str) -> Result<Session, StoreError> {
        SledStore::session(self, session)
    }
}

impl Drop for SledStore {
    /// Stops the flusher. sled flushes once more when its last handle is dropped.
    fn drop(&mut self) {
        self.commit.close();
        if let Some(flusher) = self.flusher.take() {
            // A panic in the flusher has already been reported on stderr; there is nothing to add.
            let _ = flusher.join();
        }
    }
}

/// Opens sled without its background flusher: the group commit decides when to flush.
///
/// sled releases its lock on the directory from a background thread moments after its last handle
/// is dropped (sled issue #1234), so reopening a store just closed may find the directory still
/// locked. This waits a little for the lock before giving up.
///
/// sled writes a snapshot to `snap.LSN.generating`, syncs it, and only then renames it to
/// `snap.LSN`; but it reads the last snapshot file by name, the unfinished one included, so one left
/// half-written (by a server started on a full disk) makes every later open fail as corrupted.
/// Such a file was never a snapshot sled relied on: the snapshot before it and the log are intact.
/// So when sled finds corruption and an unfinished snapshot is there, it is removed and the open
/// tried again. Only then: while another process has the store open, sled refuses the lock first,
/// and its snapshot in progress is left alone.
fn open_db(dir: &Path) -> sled::Result<sled::Db> {
    let config = sled::Config::new().path(dir).flush_every_ms(None);
    let deadline = Instant::now() + LOCK_WAIT;
    let mut unfinished_removed = false;
    loop {
        match config.open() {
            Err(sled::Error::Io(e)) if e.to_string().contains("could not acquire lock") && Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            Err(sled::Error::Corruption { .. }) if !unfinished_removed => {
                unfinished_removed = true;
                if remove_unfinished_snapshots(dir)? == 0 {
                    return config.open();
                }
            }
            result => return result,
        }
    }
}

/// Removes the snapshots sled began and did not finish (`snap.*.generating`); how many there were.
fn remove_unfinished_snapshots(dir: &Path) -> std::io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("snap.") && name.ends_with(".generating") {
            std::fs::remove_file(&path)?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Players must be named, each once: they are keys of the indexes and of the score sheets.
pub(crate) fn check_players(players: &[String]) -> Result<(), StoreError> {
    if players.is_empty() {
        return Err(StoreError::Invalid("no players are named".into()));
    }
    for (i, player) in players.iter().enumerate() {
        if player.trim().is_empty() {
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

pub(crate) fn read_u64(bytes: &[u8]) -> Result<u64, StoreError> {
    let bytes = bytes.try_into().map_err(|_| StoreError::Io(format!("a stored number has {} bytes instead of 8", bytes.len())))?;
    Ok(u64::from_be_bytes(bytes))
}

pub(crate) fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("the store's types are plain data, always written as JSON")
}

pub(crate) fn decode<T: DeserializeOwned>(what: &str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Io(format!("{what} stored in the database cannot be read: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store written before segments holds one `StoredEvent` per value; it is read as before, and
    /// appends after it are stored as segments.
    #[test]
    fn events_stored_one_per_value_are_still_read() {
        let dir = std::env::temp_dir().join(format!("tarot-store-legacy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = SledStore::open(&dir).unwrap();
        let header = Header {
            ruleset: "basic".into(),
            options: BTreeMap::new(),
            players: vec!["Ann".into(), "Bob".into(), "Cid".into()],
            dealer: "Ann".into(),
            pots: BTreeMap::new(),
            standing: BTreeMap::new(),
            description: None,
        };
        let game = store.create_game(&header, vec![]).unwrap().game;
        let pass = |player: &str| Event::Bid { player: player.into(), bid: "pass".into() };
        let old = [StoredEvent { version: 1, position: 1, id: Some("a".into()), event: pass("Bob") }, StoredEvent { version: 2, position: 2, id: None, event: pass("Cid") }];
        for event in &old {
            store.events.insert(event_key(1, event.version), encode(event)).unwrap();
        }
        store.event_ids.insert(id_key(1, "a"), &1u64.to_be_bytes()[..]).unwrap();
        store.versions.insert(1u64.to_be_bytes(), &2u64.to_be_bytes()[..]).unwrap();
        store.meta.insert("position", &2u64.to_be_bytes()[..]).unwrap();

        assert_eq!(store.events(&game).unwrap(), old);
        let retry = store.append(&game, 0, vec![NewEvent { id: Some("a".into()), event: pass("Bob") }]).unwrap();
        assert_eq!((retry.version, retry.first_position), (1, 1));
        let appended = store.append(&game, 2, vec![NewEvent { id: Some("b".into()), event: pass("Ann") }, NewEvent { id: None, event: pass("Bob") }]).unwrap();
        assert_eq!((appended.version, appended.first_position, appended.last_position), (4, 3, 4));
        let events = store.events(&game).unwrap();
        assert_eq!(
            events.iter().map(|e| (e.version, e.position, e.id.clone())).collect::<Vec<_>>(),
            [(1, 1, Some("a".into())), (2, 2, None), (3, 3, Some("b".into())), (4, 4, None)]
        );
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

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
