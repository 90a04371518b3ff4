//! The sled store (embedded, the default): the trees and their format, and opening them. Each event
//! is numbered twice: its version in the stream (1, 2, 3...) and its position in the whole archive,
//! given out with no gaps across all streams.
//!
//! Files: `streams` (create, append, read back), `import` (games stored together: imports, staged
//! or not, and the writer thread's batches), `projections` (verdicts, summaries and the listing
//! indexes), `sessions`, `bulk` (the files beside sled that hold large values), `commit` (the group
//! commit: when writes reach the disk), `format` (the format's version, and the migration of stores
//! written before it).
//!
//! Primary trees, in format 1 (see `format`; key → value; integers are big-endian, so that sled's
//! order is numeric order):
//! - `headers`: game → `Header` (JSON); for a game stored by an import, the byte `IMPORTED`, the
//!   number of events it was imported with, and the value its first segment would have in
//!   `events`, before the JSON (see `imported_header`): an import writes three values a game
//!   (header, creation, summary) rather than six, and sled's cost is per value
//! - `versions`: game → the number of events in the stream; none for an imported game until an
//!   append (its header has it)
//! - `events`: game, version → the events of the append that began at that version, one value per
//!   append (see `segment`), or a pointer to that value in a bulk file (see `bulk`; so are imported
//!   games' verdicts). An imported game's first segment is in its header, not here
//! - `event_ids`: game, event id → version, so that a retried append to the game is recognised (ids
//!   are scoped to their game, as event stores scope them to a stream: the same id in another game
//!   is another event)
//! - `creations`: header (JSON), 0xFF, the first event's id → what the creation returned (`Appended`),
//!   so that a retried creation is recognised; and `sha256:` and a digest of an imported game's
//!   header and events → the same, so that a retried import stores nothing new
//! - `meta`: `position`, `games`, `sessions` → the last number given out of each; `format` → the
//!   format's version
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

mod bulk;
mod commit;
mod format;
mod import;
mod projections;
mod sessions;
mod streams;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use sled::transaction::{ConflictableTransactionError, Transactional};
use sled::{Batch, Tree};

use crate::{Appended, EventStore, Filter, GameId, Header, Import, NewEvent, Projection, Session, StoreError, StoredEvent, Summary};
use bulk::OpenBulk;
use commit::GroupCommit;
use import::Recent;

/// How long `Store::open` waits for a store just closed to release its directory.
const LOCK_WAIT: Duration = Duration::from_secs(2);

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
        let store = SledStore {
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
        };
        store.bring_format_up_to_date()?;
        Ok(store)
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

pub(crate) fn read_u64(bytes: &[u8]) -> Result<u64, StoreError> {
    let bytes = bytes.try_into().map_err(|_| StoreError::Io(format!("a stored number has {} bytes instead of 8", bytes.len())))?;
    Ok(u64::from_be_bytes(bytes))
}
