//! The archive's storage: recorded games as event streams, the verdicts computed from them, and
//! sessions, on sled (embedded, the default) or PostgreSQL (several servers on one database). Only
//! this crate knows either database.
//!
//! The archive is event-sourced. A game is a stream: a header (ruleset, options, players, dealer)
//! and its events in order, each numbered by its version in the stream and by its position in the
//! whole archive. Streams are the only truth. Verdicts, summaries and the indexes used for listing
//! are projections: replay's answer for a stream, stored with the checkpoint and the ruleset version
//! they were computed at, which `rebuild_projections` can throw away and recompute at any time.
//!
//! `EventStore` is the contract both stores keep (one test suite, `tests/it/contract.rs`, runs against
//! each); `Store` is the one the program opened, either of them.
//!
//! Every write of primary data (streams, sessions) is on disk before it returns. Methods block
//! meanwhile, so async callers should run them on a blocking thread pool.

mod error;
mod events_json;
#[cfg(feature = "openapi")]
pub mod openapi;
mod pg;
mod projection;
mod session;
mod sled;
mod stream;

use std::any::Any;
use std::ops::Deref;
use std::path::Path;
use std::sync::{mpsc, Arc, OnceLock};
use std::thread::JoinHandle;

pub use error::StoreError;
/// For the benchmark that measures it against serde_json (`benches/events.rs`).
#[doc(hidden)]
pub use events_json::encode_events;
pub use pg::PgStore;
pub use projection::{compute, prepare, project, project_created, project_verdict, rebuild_projections, split_batch, Filter, Projection, Summary};
pub use session::Session;
pub use sled::SledStore;
pub use stream::{check_players, Appended, GameId, Header, NewEvent, StoredEvent};

/// What every store does. Writes of primary data are atomic and durable when they return.
pub trait EventStore: Send + Sync {
    /// Starts a stream with `header` and `events`. A creation whose events all carry ids, with the
    /// same header and the same first id as one already stored, is a retry: nothing is written and
    /// the original result is returned.
    fn create_game(&self, header: &Header, events: Vec<NewEvent>) -> Result<Appended, StoreError>;

    /// Adds `events` at the end of the stream if it has exactly `expected_version` events, and
    /// otherwise refuses with the version it has (`Conflict`). When every event carries an id and
    /// those ids are already stored in this stream, this is a retry: nothing is written and the
    /// original result is returned. Ids are scoped to their game.
    fn append(&self, game: &GameId, expected_version: u64, events: Vec<NewEvent>) -> Result<Appended, StoreError>;

    /// Stores whole games with their projections, all or none, on disk when it returns. A game
    /// whose header and events are those of a game stored before (by an earlier import or earlier
    /// in the batch) is not stored again: its entry is the earlier game's result, with `false`.
    fn import(&self, games: Vec<Import>) -> Result<Vec<(Appended, bool)>, StoreError>;

    /// `import` in three steps, so that a caller can overlap the steps of successive batches:
    /// `stage_import` does what does not depend on the numbers the games will get (checks, JSON,
    /// digests, and what a store can write ahead, such as which games were imported before and the
    /// others' events and verdicts on disk), `import_staged` numbers and stores the games as `import` does (all
    /// or none), and they are on disk once `flush` returns.
    fn stage_import(&self, games: Vec<Import>) -> Result<Staged, StoreError> {
        let games = games.into_iter().map(|game| self.stage_game(game)).collect::<Result<_, _>>()?;
        self.stage_finish(games)
    }

    /// `stage_import` in two steps, so that a caller can stage each game on the core that has
    /// just refereed it: `stage_game` for each game, on any thread, touches nothing stored (no
    /// lock, no read); then `stage_finish` with the staged games in the batch's order gives what
    /// `stage_import` would have given.
    fn stage_game(&self, game: Import) -> Result<StagedGame, StoreError> {
        Ok(StagedGame::new(game))
    }

    /// See `stage_game`.
    fn stage_finish(&self, games: Vec<StagedGame>) -> Result<Staged, StoreError> {
        let plain = games.into_iter().map(|game| game.take::<Import>().map_err(|_| StagedGame::foreign()));
        Ok(Staged::new(plain.collect::<Result<Vec<_>, _>>()?))
    }

    /// See `stage_import`.
    fn import_staged(&self, staged: Staged) -> Result<Vec<(Appended, bool)>, StoreError> {
        self.import(staged.take::<Vec<Import>>().map_err(|_| StagedGame::foreign())?)
    }

    /// Creates games with the projections of the verdicts the caller computed: each as
    /// `create_game` then `put_projection` would, with its own result (a retry is recognised as
    /// `create_game` recognises it, and a game that is never a duplicate of another, unlike
    /// `import`). A store may apply them together and make them share one wait for the disk; each
    /// is on disk when this returns.
    fn create_games(&self, games: Vec<Import>) -> Vec<Result<Appended, StoreError>> {
        games.into_iter().map(|game| create_one(self, game)).collect()
    }

    fn header(&self, game: &GameId) -> Result<Header, StoreError>;

    /// The stream's events in order.
    fn events(&self, game: &GameId) -> Result<Vec<StoredEvent>, StoreError>;

    /// The number of events in the stream.
    fn version(&self, game: &GameId) -> Result<u64, StoreError>;

    /// The position of the last event stored in the archive (0 when there is none).
    fn last_position(&self) -> Result<u64, StoreError>;

    /// Every game, in the order they were created.
    fn games(&self) -> Result<Vec<GameId>, StoreError>;

    /// Waits until everything written so far, projections included, is on disk.
    fn flush(&self) -> Result<(), StoreError>;

    /// How many flushes the store has made since it was opened, where it decides them (0 where the
    /// database does).
    fn flushes(&self) -> u64 {
        0
    }

    /// Stores a game's projection in place of the one before, unless the one before was computed
    /// at a later checkpoint: when projections of one game race, the newest stays.
    fn put_projection(&self, game: &GameId, projection: &Projection) -> Result<(), StoreError>;

    /// The game's stored projection, if one was computed.
    fn projection(&self, game: &GameId) -> Result<Option<Projection>, StoreError>;

    /// One page of the projected games matching `filter`, in creation order, and how many match in
    /// all. Games without a projection are not listed.
    fn list(&self, filter: &Filter, offset: usize, limit: usize) -> Result<(Vec<Summary>, usize), StoreError>;

    /// Deletes every projection; the streams are untouched.
    fn clear_projections(&self) -> Result<(), StoreError>;

    /// Opens a session for a table; returns its id.
    fn create_session(&self, name: &str, players: &[String]) -> Result<String, StoreError>;

    /// Adds a game at the end of a session. The game must exist, not be in the session already, and
    /// be played by players of the table; when `deals` is given, the session must hold that many deals
    /// (those the caller checked the game against), else `Conflict { expected, current }` in deals.
    fn add_to_session(&self, session: &str, game: &GameId, deals: Option<usize>) -> Result<(), StoreError>;

    fn session(&self, session: &str) -> Result<Session, StoreError>;

    /// The game as a record, ready for replay.
    fn record(&self, game: &GameId) -> Result<tarot_engine::GameRecord, StoreError> {
        let events = self.events(game)?;
        Ok(self.header(game)?.into_record(events.into_iter().map(|e| e.event).collect()))
    }
}

/// A whole game to import: its header, its events, and its verdict as replay computed it
/// (`prepare` makes one from a record).
#[derive(Clone, Debug)]
pub struct Import {
    pub header: Header,
    pub events: Vec<NewEvent>,
    pub verdict: Refereed,
}

/// One game staged by `EventStore::stage_game`: what the store that staged it made of it, which
/// only that store reads (a store given another store's staging refuses it as `Invalid`).
pub struct StagedGame(Box<dyn Any + Send>);

/// A batch of games made ready to import by `EventStore::stage_import`, for the store that
/// staged it alone, as `StagedGame`.
pub struct Staged(Box<dyn Any + Send>);

impl StagedGame {
    /// A staged game holding what the store made of it (`Import` itself, for a store that does
    /// nothing before the numbers).
    pub(crate) fn new<T: Any + Send>(payload: T) -> StagedGame {
        StagedGame(Box::new(payload))
    }

    /// What the store made of the game, if it is a `T`; else the staged game as it was.
    pub(crate) fn take<T: Any>(self) -> Result<T, StagedGame> {
        self.0.downcast::<T>().map(|payload| *payload).map_err(StagedGame)
    }

    /// The error of a store given games another store staged.
    pub(crate) fn foreign() -> StoreError {
        StoreError::Invalid("games staged for another store".into())
    }
}

impl Staged {
    /// A staged batch holding what the store made of it.
    pub(crate) fn new<T: Any + Send>(payload: T) -> Staged {
        Staged(Box::new(payload))
    }

    /// What the store made of the batch, if it is a `T`; else the batch as it was.
    pub(crate) fn take<T: Any>(self) -> Result<T, Staged> {
        self.0.downcast::<T>().map(|payload| *payload).map_err(Staged)
    }
}

/// A verdict computed before its game is stored: what the game's projection will hold.
#[derive(Clone, Debug)]
pub struct Refereed {
    /// `Ruleset::version` of the rules replayed.
    pub ruleset_version: String,
    /// The verdict's status (`valid`, `invalid`, `in_progress`, `annulled`).
    pub status: String,
    /// The verdict as JSON (`Verdict::to_json`).
    pub json: Vec<u8>,
}

/// `create_game` then `put_projection` of the verdict computed beforehand: what `create_games`
/// does for each game unless a store does better.
pub(crate) fn create_one<S: EventStore + ?Sized>(store: &S, game: Import) -> Result<Appended, StoreError> {
    let appended = store.create_game(&game.header, game.events)?;
    let verdict = serde_json::from_slice(&game.verdict.json).map_err(|e| StoreError::Invalid(format!("the verdict of {} is not JSON: {e}", appended.game)))?;
    let checkpoint = if appended.version == 0 { 0 } else { appended.last_position };
    let projection = Projection {
        ruleset: game.header.ruleset,
        ruleset_version: game.verdict.ruleset_version,
        players: game.header.players,
        status: game.verdict.status,
        version: appended.version,
        checkpoint,
        verdict,
    };
    store.put_projection(&appended.game, &projection)?;
    Ok(appended)
}

/// The store the program opened: sled in a directory, or a PostgreSQL database.
pub struct Store {
    store: Arc<dyn EventStore>,
    /// The writer thread of `create_later`, started by its first call.
    writer: OnceLock<Writer>,
}

/// What `create_later` was given: the game and what to do with its result.
type Creation = (Import, Box<dyn FnOnce(Result<Appended, StoreError>) + Send>);

struct Writer {
    creations: mpsc::Sender<Creation>,
    thread: JoinHandle<()>,
}

/// The most creations the writer thread stores together.
const WRITER_BATCH: usize = 256;

impl Store {
    fn of(store: Arc<dyn EventStore>) -> Store {
        Store { store, writer: OnceLock::new() }
    }

    /// The sled store in `dir`, created if missing.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Ok(Store::of(Arc::new(SledStore::open(dir)?)))
    }

    /// The PostgreSQL store at `url` (`postgres://user@host:port/database`), its schema brought up
    /// to date.
    pub fn connect(url: &str) -> Result<Store, StoreError> {
        Ok(Store::of(Arc::new(PgStore::connect(url)?)))
    }

    /// Creates a game with the projection of its verdict, as `create_games` does, on the store's
    /// writer thread, and calls `done` with the result once it is on disk. The creations that
    /// arrive while the writer is busy are stored together (up to `WRITER_BATCH`) and share one
    /// wait for the disk. An async caller waits on a channel that `done` sends to, and needs no
    /// blocking thread of its own; the writer is the only thread that waits for the disk.
    pub fn create_later(&self, game: Import, done: impl FnOnce(Result<Appended, StoreError>) + Send + 'static) {
        let writer = self.writer.get_or_init(|| {
            let (send, receive) = mpsc::channel::<Creation>();
            let store = Arc::clone(&self.store);
            let thread = std::thread::Builder::new()
                .name("tarot-store-writer".into())
                .spawn(move || {
                    while let Ok(first) = receive.recv() {
                        let mut batch = vec![first];
                        while batch.len() < WRITER_BATCH {
                            match receive.try_recv() {
                                Ok(next) => batch.push(next),
                                Err(_) => break,
                            }
                        }
                        let (games, callers): (Vec<Import>, Vec<_>) = batch.into_iter().unzip();
                        for (result, done) in store.create_games(games).into_iter().zip(callers) {
                            done(result);
                        }
                    }
                })
                .expect("a thread can be started");
            Writer { creations: send, thread }
        });
        if let Err(mpsc::SendError((_, done))) = writer.creations.send((game, Box::new(done))) {
            done(Err(StoreError::Io("the store's writer thread has stopped".into())));
        }
    }

    /// `connect(url)` when a URL is given, else `open(dir)`.
    pub fn open_either(url: Option<&str>, dir: &Path) -> Result<Store, StoreError> {
        match url {
            Some(url) => Store::connect(url),
            None => Store::open(dir),
        }
    }
}

impl Drop for Store {
    /// Stops the writer thread once it has stored what it was given.
    fn drop(&mut self) {
        if let Some(Writer { creations, thread }) = self.writer.take() {
            drop(creations);
            // A panic of the writer has already been reported on stderr; there is nothing to add.
            let _ = thread.join();
        }
    }
}

impl Deref for Store {
    type Target = dyn EventStore;
    fn deref(&self) -> &(dyn EventStore + 'static) {
        &*self.store
    }
}
