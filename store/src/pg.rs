//! The archive on PostgreSQL, for several servers sharing one database. The tables
//! (`migrations/`) hold what sled's trees hold: `games` (header and version per stream), `events`,
//! `creations` (what recognises a retried creation or import), `counters`, `sessions`, and the
//! derived `projections`.
//!
//! A writer works in one transaction, in READ COMMITTED. An append first locks its game's row
//! (`SELECT ... FOR UPDATE`): appends to one game queue there, and each sees the version and event
//! ids the one before it committed, so exactly one append wins each version. Every writer that adds
//! events then moves the `position` counter, whose row it holds until it commits: positions are
//! given out in commit order and a transaction that rolls back gives its numbers back, so they stay
//! gapless across servers. Rows are always locked in the same order (a game, then the `games`
//! counter, then `position`), so writers never deadlock. A commit returns once PostgreSQL has
//! flushed its write-ahead log (`synchronous_commit` is on by default): what is acknowledged
//! survives a crash of the server or of PostgreSQL.
//!
//! Connections come from an r2d2 pool and are checked before use, so after PostgreSQL restarts the
//! next request gets a fresh connection; while it is down, calls fail with
//! `StoreError::Unavailable` after at most `CONNECT_TIMEOUT`.

use std::collections::HashMap;
use std::time::Duration;

use r2d2_postgres::postgres::error::SqlState;
use r2d2_postgres::postgres::{Config, NoTls, Transaction};
use r2d2_postgres::PostgresConnectionManager;

use crate::stream::{check_ids, creation_key, decode, digest, encode, id_number, retry_of, short_id, GameId, Header, NewEvent, StoredEvent};
use crate::{session, Appended, EventStore, Filter, Import, Projection, Session, StoreError, Summary};

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

/// How long a call waits for a connection before answering `Unavailable`.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The schema's migrations, in order; `schema_migrations` records those applied.
const MIGRATIONS: &[(i32, &str)] = &[(1, include_str!("../migrations/0001_streams.sql"))];

/// How many times a write is tried when a concurrent writer made it fail (two creations of the same
/// retried game racing on two servers: the second finds the first's on its next try).
const TRIES: usize = 3;

pub struct PgStore {
    pool: Pool,
}

impl From<r2d2_postgres::postgres::Error> for StoreError {
    fn from(e: r2d2_postgres::postgres::Error) -> Self {
        // An error from the database itself is a failed statement, unless it says the server is
        // shutting down or starting (class 57P: an administrator's shutdown, a crash, a server not
        // yet accepting connections) or the connection failed (class 08): then, as for any other
        // error (a refused or closed connection, a timeout), the database cannot be reached now and
        // the same request may succeed later.
        match e.as_db_error() {
            // Class 53100: the database server's disk is full.
            Some(db) if db.code().code() == "53100" => StoreError::Full(format!("PostgreSQL: {}", db.message())),
            Some(db) if !unavailable(db.code()) => StoreError::Io(format!("PostgreSQL: {}", db.message())),
            _ => StoreError::Unavailable(e.to_string()),
        }
    }
}

/// Whether a database error says that the server cannot serve now, rather than that the statement
/// failed.
fn unavailable(code: &SqlState) -> bool {
    let code = code.code();
    code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03")
}

impl From<r2d2::Error> for StoreError {
    fn from(e: r2d2::Error) -> Self {
        StoreError::Unavailable(e.to_string())
    }
}

fn int(n: u64) -> i64 {
    n as i64
}

impl PgStore {
    /// Connects to `url` and applies the migrations not yet applied.
    pub fn connect(url: &str) -> Result<PgStore, StoreError> {
        let config: Config = url.parse().map_err(|e| StoreError::Invalid(format!("{url} is not a PostgreSQL URL: {e}")))?;
        let manager = PostgresConnectionManager::new(config, NoTls);
        let pool = r2d2::Pool::builder().max_size(16).min_idle(Some(1)).connection_timeout(CONNECT_TIMEOUT).build(manager)?;
        let store = PgStore { pool };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get()?;
        let mut tx = client.transaction()?;
        // Servers started together on a new database take turns.
        tx.execute("SELECT pg_advisory_xact_lock(7237626369)", &[])?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())")?;
        for (version, sql) in MIGRATIONS {
            if tx.query_opt("SELECT 1 FROM schema_migrations WHERE version = $1", &[version])?.is_none() {
                tx.batch_execute(sql)?;
                tx.execute("INSERT INTO schema_migrations (version) VALUES ($1)", &[version])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Runs `write` in a transaction and commits it, trying again when a concurrent writer made it
    /// fail on a unique key or a serialization failure.
    fn write<T>(&self, mut write: impl FnMut(&mut Transaction<'_>) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut client = self.pool.get()?;
        let mut tries = 0;
        loop {
            tries += 1;
            let mut tx = client.transaction()?;
            let outcome = write(&mut tx).map_err(Failure::Store).and_then(|value| tx.commit().map(|()| value).map_err(Failure::Pg));
            match outcome {
                Ok(value) => return Ok(value),
                Err(Failure::Pg(e)) if tries < TRIES && matches!(e.code(), Some(&SqlState::UNIQUE_VIOLATION | &SqlState::T_R_SERIALIZATION_FAILURE)) => continue,
                Err(Failure::Pg(e)) => return Err(e.into()),
                Err(Failure::Store(e)) => return Err(e),
            }
        }
    }

    fn read<T>(&self, read: impl FnOnce(&mut r2d2_postgres::postgres::Client) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut client = self.pool.get()?;
        read(&mut client)
    }
}

enum Failure {
    Store(StoreError),
    Pg(r2d2_postgres::postgres::Error),
}

fn number_of(game: &GameId) -> Result<u64, StoreError> {
    id_number('g', &game.0).ok_or_else(|| no_game(game))
}

fn no_game(game: &GameId) -> StoreError {
    StoreError::NotFound(format!("there is no game {game}"))
}

/// Moves a counter on by `by` and returns its new value, holding its row until the commit.
fn advance(tx: &mut Transaction<'_>, counter: &str, by: u64) -> Result<u64, StoreError> {
    Ok(tx.query_one("UPDATE counters SET value = value + $2 WHERE name = $1 RETURNING value", &[&counter, &int(by)])?.get::<_, i64>(0) as u64)
}

/// Appends of several streams to insert in one statement each.
#[derive(Default)]
struct Rows {
    games: Vec<i64>,
    versions: Vec<i64>,
    positions: Vec<i64>,
    counts: Vec<i32>,
    events: Vec<String>,
    id_games: Vec<i64>,
    ids: Vec<String>,
    id_versions: Vec<i64>,
}

impl Rows {
    /// Adds `events` as the versions after `version` of game `number`, at the positions after
    /// `last_position`.
    fn stage(&mut self, number: u64, version: u64, last_position: u64, events: &[NewEvent]) -> Appended {
        let count = events.len() as u64;
        for (i, new) in (1..).zip(events) {
            if let Some(id) = &new.id {
                self.id_games.push(int(number));
                self.ids.push(id.clone());
                self.id_versions.push(int(version + i));
            }
        }
        if count > 0 {
            self.push(number, version + 1, last_position + 1, count, text(encode(&events)));
        }
        Appended { game: GameId::from_number(number), version: version + count, first_position: last_position + 1, last_position: last_position + count }
    }

    fn push(&mut self, number: u64, first_version: u64, first_position: u64, count: u64, events_json: String) {
        self.games.push(int(number));
        self.versions.push(int(first_version));
        self.positions.push(int(first_position));
        self.counts.push(count as i32);
        self.events.push(events_json);
    }

    fn insert(self, tx: &mut Transaction<'_>) -> Result<(), StoreError> {
        if !self.games.is_empty() {
            tx.execute(
                "INSERT INTO appends (game, version, position, count, events) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::integer[], $5::text[])",
                &[&self.games, &self.versions, &self.positions, &self.counts, &self.events],
            )?;
        }
        if !self.ids.is_empty() {
            tx.execute("INSERT INTO event_ids (game, id, version) SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])", &[&self.id_games, &self.ids, &self.id_versions])?;
        }
        Ok(())
    }
}

/// One row of `projections`, as text and numbers.
struct ProjectionRow {
    game: i64,
    ruleset: String,
    status: String,
    /// JSON.
    players: String,
    checkpoint: i64,
    summary: String,
    projection: String,
}

/// Rows of `projections` as columns, for `unnest`.
#[derive(Default)]
struct ProjectionColumns {
    games: Vec<i64>,
    rulesets: Vec<String>,
    statuses: Vec<String>,
    players: Vec<String>,
    checkpoints: Vec<i64>,
    summaries: Vec<String>,
    projections: Vec<String>,
}

impl ProjectionColumns {
    fn push(&mut self, row: ProjectionRow) {
        self.games.push(row.game);
        self.rulesets.push(row.ruleset);
        self.statuses.push(row.status);
        self.players.push(row.players);
        self.checkpoints.push(row.checkpoint);
        self.summaries.push(row.summary);
        self.projections.push(row.projection);
    }
}

/// The events of one row of `appends`.
fn append_events(version: i64, position: i64, events_json: &str) -> Result<Vec<StoredEvent>, StoreError> {
    let events: Vec<NewEvent> = decode("events", events_json.as_bytes())?;
    Ok((0..).zip(events).map(|(i, new)| StoredEvent { version: version as u64 + i, position: position as u64 + i, id: new.id, event: new.event }).collect())
}

/// The stored events of game `number` whose ids are among those of `events`, as `retry_of` wants them.
fn earlier_append(tx: &mut Transaction<'_>, number: u64, events: &[NewEvent]) -> Result<Option<Appended>, StoreError> {
    let ids: Vec<&str> = events.iter().filter_map(|e| e.id.as_deref()).collect();
    if ids.is_empty() {
        return Ok(None);
    }
    let rows = tx.query("SELECT id, version FROM event_ids WHERE game = $1 AND id = ANY($2)", &[&int(number), &ids])?;
    if rows.is_empty() {
        return Ok(None);
    }
    let versions: HashMap<String, u64> = rows.iter().map(|row| (row.get(0), row.get::<_, i64>(1) as u64)).collect();
    let (low, high) = (versions.values().min().copied().unwrap_or(0), versions.values().max().copied().unwrap_or(0));
    let mut stored_events: HashMap<u64, StoredEvent> = HashMap::new();
    for row in tx.query("SELECT version, position, events FROM appends WHERE game = $1 AND version <= $3 AND version + count > $2", &[&int(number), &int(low), &int(high)])? {
        for event in append_events(row.get(0), row.get(1), row.get(2))? {
            stored_events.insert(event.version, event);
        }
    }
    let mut found = vec![];
    let mut stored = vec![];
    for id in ids {
        if let Some(version) = versions.get(id) {
            found.push((id, *version));
            stored.push(stored_events.remove(version).ok_or_else(|| StoreError::Io(format!("event id '{id}' points to no event")))?);
        }
    }
    retry_of(GameId::from_number(number), events, &found, &stored)
}

fn projection_row(tx: &mut Transaction<'_>, number: u64, projection: &Projection) -> Result<(), StoreError> {
    projection_row_json(tx, int(number), &projection.summary(&GameId::from_number(number)), &text(encode(projection)))
}

/// Stores a game's summary and projection (as JSON), unless the one stored was computed at a
/// later checkpoint.
fn projection_row_json(tx: &mut Transaction<'_>, number: i64, summary: &Summary, projection: &str) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO projections (game, ruleset, status, players, checkpoint, summary, projection) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (game) DO UPDATE SET ruleset = EXCLUDED.ruleset, status = EXCLUDED.status, players = EXCLUDED.players,
             checkpoint = EXCLUDED.checkpoint, summary = EXCLUDED.summary, projection = EXCLUDED.projection
         WHERE projections.checkpoint <= EXCLUDED.checkpoint",
        &[&number, &summary.ruleset, &summary.status, &summary.players, &int(summary.checkpoint), &text(encode(summary)), &projection],
    )?;
    Ok(())
}

/// JSON written by `encode`, as text.
fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// A game to create: its header as JSON and the key that recognises its retry.
struct Creation {
    header_json: String,
    key: Option<Vec<u8>>,
}

impl Creation {
    fn new(header: &Header, events: &[NewEvent]) -> Result<Creation, StoreError> {
        header.check()?;
        check_ids(events)?;
        Ok(Creation { header_json: text(encode(header)), key: creation_key(header, events) })
    }

    /// Stores the game in `tx`, or finds the one a retry of it stored: the result, and whether it
    /// was stored now.
    fn insert(&self, tx: &mut Transaction<'_>, events: &[NewEvent]) -> Result<(Appended, bool), StoreError> {
        if let Some(key) = &self.key {
            if let Some(row) = tx.query_opt("SELECT appended FROM creations WHERE key = $1", &[key])? {
                let earlier: Appended = decode("a creation", row.get::<_, &str>(0).as_bytes())?;
                if let Some(appended) = earlier_append(tx, number_of(&earlier.game)?, events)? {
                    return Ok((appended, false));
                }
            }
        }
        let number = advance(tx, "games", 1)?;
        tx.execute("INSERT INTO games (number, header, version) VALUES ($1, $2, $3)", &[&int(number), &self.header_json, &int(events.len() as u64)])?;
        let last_position = if events.is_empty() {
            tx.query_one("SELECT value FROM counters WHERE name = 'position'", &[])?.get::<_, i64>(0) as u64
        } else {
            advance(tx, "position", events.len() as u64)? - events.len() as u64
        };
        let mut rows = Rows::default();
        let appended = rows.stage(number, 0, last_position, events);
        rows.insert(tx)?;
        if let Some(key) = &self.key {
            tx.execute("INSERT INTO creations (key, appended) VALUES ($1, $2)", &[key, &text(encode(&appended))])?;
        }
        Ok((appended, true))
    }
}

impl EventStore for PgStore {
    fn create_game(&self, header: &Header, events: Vec<NewEvent>) -> Result<Appended, StoreError> {
        let creation = Creation::new(header, &events)?;
        self.write(|tx| Ok(creation.insert(tx, &events)?.0))
    }

    /// Each game with its projection in one transaction (one commit, which waits for the disk):
    /// a game is never stored without its projection, so a creation answered with an error was not
    /// stored, and an acknowledged game is listed even after a crash.
    fn create_games(&self, games: Vec<Import>) -> Vec<Result<Appended, StoreError>> {
        games
            .into_iter()
            .map(|game| {
                let creation = Creation::new(&game.header, &game.events)?;
                self.write(|tx| {
                    let (appended, fresh) = creation.insert(tx, &game.events)?;
                    if fresh {
                        let (summary, projection) = game.projection(&appended);
                        projection_row_json(tx, int(number_of(&appended.game)?), &summary, &text(projection))?;
                    }
                    Ok(appended)
                })
            })
            .collect()
    }

    fn append(&self, game: &GameId, expected_version: u64, events: Vec<NewEvent>) -> Result<Appended, StoreError> {
        if events.is_empty() {
            return Err(StoreError::Invalid("an append needs at least one event".into()));
        }
        check_ids(&events)?;
        let number = number_of(game)?;
        self.write(|tx| {
            let row = tx.query_opt("SELECT version FROM games WHERE number = $1 FOR UPDATE", &[&int(number)])?.ok_or_else(|| no_game(game))?;
            let current = row.get::<_, i64>(0) as u64;
            if let Some(appended) = earlier_append(tx, number, &events)? {
                return Ok(appended);
            }
            if current != expected_version {
                return Err(StoreError::Conflict { expected: expected_version, current });
            }
            let count = events.len() as u64;
            let last_position = advance(tx, "position", count)? - count;
            let mut rows = Rows::default();
            let appended = rows.stage(number, current, last_position, &events);
            rows.insert(tx)?;
            tx.execute("UPDATE games SET version = $2 WHERE number = $1", &[&int(number), &int(appended.version)])?;
            Ok(appended)
        })
    }

    fn import(&self, games: Vec<Import>) -> Result<Vec<(Appended, bool)>, StoreError> {
        use rayon::prelude::*;
        // The JSON and digests on every core first; the transaction then only numbers and inserts.
        let encoded: Vec<(Vec<u8>, String, String)> = games
            .par_iter()
            .map(|game| {
                game.header.check()?;
                check_ids(&game.events)?;
                let (header, events) = (encode(&game.header), encode(&game.events));
                Ok((digest(&header, &events), text(header), text(events)))
            })
            .collect::<Result<_, StoreError>>()?;
        let keys: Vec<&[u8]> = encoded.iter().map(|(key, _, _)| &key[..]).collect();
        self.write(|tx| {
            let mut known: HashMap<Vec<u8>, Appended> = HashMap::new();
            for row in tx.query("SELECT key, appended FROM creations WHERE key = ANY($1)", &[&keys])? {
                known.insert(row.get(0), decode("an import", row.get::<_, &str>(1).as_bytes())?);
            }
            let mut fresh: Vec<usize> = vec![];
            let mut seen = std::collections::HashSet::new();
            for (i, key) in keys.iter().enumerate() {
                if !known.contains_key(*key) && seen.insert(*key) {
                    fresh.push(i);
                }
            }
            let events: u64 = fresh.iter().map(|&i| games[i].events.len() as u64).sum();
            let mut number = if fresh.is_empty() { 0 } else { advance(tx, "games", fresh.len() as u64)? - fresh.len() as u64 };
            let mut position = if events == 0 { 0 } else { advance(tx, "position", events)? - events };
            let mut rows = Rows::default();
            let (mut numbers, mut headers, mut versions, mut creation_keys, mut creations) = (vec![], vec![], vec![], vec![], vec![]);
            let mut fresh_games = vec![];
            for &i in &fresh {
                number += 1;
                let count = games[i].events.len() as u64;
                let appended = Appended { game: GameId::from_number(number), version: count, first_position: position + 1, last_position: position + count };
                if count > 0 {
                    rows.push(number, 1, position + 1, count, encoded[i].2.clone());
                    position += count;
                }
                for (v, new) in (1..).zip(&games[i].events) {
                    if let Some(id) = &new.id {
                        rows.id_games.push(int(number));
                        rows.ids.push(id.clone());
                        rows.id_versions.push(v);
                    }
                }
                numbers.push(int(number));
                headers.push(encoded[i].1.clone());
                versions.push(int(count));
                creation_keys.push(keys[i]);
                creations.push(text(encode(&appended)));
                fresh_games.push((i, number, appended.clone()));
                known.insert(keys[i].to_vec(), appended);
            }
            if !numbers.is_empty() {
                tx.execute("INSERT INTO games (number, header, version) SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])", &[&numbers, &headers, &versions])?;
                std::mem::take(&mut rows).insert(tx)?;
                tx.execute("INSERT INTO creations (key, appended) SELECT * FROM unnest($1::bytea[], $2::text[])", &[&creation_keys, &creations])?;
                // The projections' JSON on every core.
                let projections: Vec<ProjectionRow> = fresh_games
                    .par_iter()
                    .map(|(i, number, appended)| {
                        let (summary, projection) = games[*i].projection(appended);
                        ProjectionRow {
                            game: int(*number),
                            players: text(encode(&summary.players)),
                            checkpoint: int(summary.checkpoint),
                            summary: text(encode(&summary)),
                            ruleset: summary.ruleset,
                            status: summary.status,
                            projection: text(projection),
                        }
                    })
                    .collect();
                let mut columns = ProjectionColumns::default();
                for row in projections {
                    columns.push(row);
                }
                let c = &columns;
                // Players come as one JSON list each, since unnest cannot take an array of arrays of
                // different lengths.
                tx.execute(
                    "INSERT INTO projections (game, ruleset, status, players, checkpoint, summary, projection)
                     SELECT g, r, s, ARRAY(SELECT jsonb_array_elements_text(p::jsonb)), c, su, pr
                     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[]) AS t(g, r, s, p, c, su, pr)",
                    &[&c.games, &c.rulesets, &c.statuses, &c.players, &c.checkpoints, &c.summaries, &c.projections],
                )?;
            }
            let fresh: std::collections::HashSet<usize> = fresh.into_iter().collect();
            Ok(keys.iter().enumerate().map(|(i, key)| (known[*key].clone(), fresh.contains(&i))).collect())
        })
    }

    fn header(&self, game: &GameId) -> Result<Header, StoreError> {
        let number = number_of(game)?;
        self.read(|c| {
            let row = c.query_opt("SELECT header FROM games WHERE number = $1", &[&int(number)])?.ok_or_else(|| no_game(game))?;
            decode("a game header", row.get::<_, &str>(0).as_bytes())
        })
    }

    fn events(&self, game: &GameId) -> Result<Vec<StoredEvent>, StoreError> {
        let number = number_of(game)?;
        self.read(|c| {
            // One statement, so one snapshot: every append is seen whole or not at all.
            let rows =
                c.query("SELECT a.version, a.position, a.events FROM games g LEFT JOIN appends a ON a.game = g.number WHERE g.number = $1 ORDER BY a.version", &[&int(number)])?;
            if rows.is_empty() {
                return Err(no_game(game));
            }
            let mut events = vec![];
            for row in rows.iter().filter(|row| row.get::<_, Option<i64>>(0).is_some()) {
                events.extend(append_events(row.get(0), row.get(1), row.get(2))?);
            }
            Ok(events)
        })
    }

    fn version(&self, game: &GameId) -> Result<u64, StoreError> {
        let number = number_of(game)?;
        self.read(|c| Ok(c.query_opt("SELECT version FROM games WHERE number = $1", &[&int(number)])?.ok_or_else(|| no_game(game))?.get::<_, i64>(0) as u64))
    }

    fn last_position(&self) -> Result<u64, StoreError> {
        self.read(|c| Ok(c.query_one("SELECT value FROM counters WHERE name = 'position'", &[])?.get::<_, i64>(0) as u64))
    }

    fn games(&self) -> Result<Vec<GameId>, StoreError> {
        self.read(|c| Ok(c.query("SELECT number FROM games ORDER BY number", &[])?.iter().map(|row| GameId::from_number(row.get::<_, i64>(0) as u64)).collect()))
    }

    /// Every commit is already durable.
    fn flush(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn put_projection(&self, game: &GameId, projection: &Projection) -> Result<(), StoreError> {
        let header = self.header(game)?;
        if projection.ruleset != header.ruleset || projection.players != header.players {
            return Err(StoreError::Invalid(format!(
                "the projection is of a {} game of {}, but {game} is a {} game of {}",
                projection.ruleset,
                projection.players.join(", "),
                header.ruleset,
                header.players.join(", ")
            )));
        }
        let number = number_of(game)?;
        self.write(|tx| {
            // A projection is derived data, which a rebuild restores: its commit need not wait for
            // the disk (a crash may lose it, never a stream), as sled does not flush projections.
            tx.batch_execute("SET LOCAL synchronous_commit TO OFF")?;
            projection_row(tx, number, projection)
        })
    }

    fn projection(&self, game: &GameId) -> Result<Option<Projection>, StoreError> {
        let number = number_of(game)?;
        self.read(|c| {
            let row = c.query_opt("SELECT p.projection FROM games g LEFT JOIN projections p ON p.game = g.number WHERE g.number = $1", &[&int(number)])?;
            let row = row.ok_or_else(|| no_game(game))?;
            row.get::<_, Option<&str>>(0).map(|json| decode("a projection", json.as_bytes())).transpose()
        })
    }

    fn list(&self, filter: &Filter, offset: usize, limit: usize) -> Result<(Vec<Summary>, usize), StoreError> {
        const WHERE: &str = "($1::text IS NULL OR ruleset = $1) AND ($2::text IS NULL OR players @> ARRAY[$2::text]) AND ($3::text IS NULL OR status = $3)";
        self.read(|c| {
            let params: [&(dyn r2d2_postgres::postgres::types::ToSql + Sync); 3] = [&filter.ruleset, &filter.player, &filter.status];
            let total = c.query_one(&format!("SELECT count(*) FROM projections WHERE {WHERE}"), &params)?.get::<_, i64>(0) as usize;
            let rows = c.query(
                &format!("SELECT summary FROM projections WHERE {WHERE} ORDER BY game OFFSET $4 LIMIT $5"),
                &[&filter.ruleset, &filter.player, &filter.status, &int(offset as u64), &int(limit as u64)],
            )?;
            let page = rows.iter().map(|row| decode("a summary", row.get::<_, &str>(0).as_bytes())).collect::<Result<_, _>>()?;
            Ok((page, total))
        })
    }

    fn clear_projections(&self) -> Result<(), StoreError> {
        self.write(|tx| Ok(tx.batch_execute("DELETE FROM projections")?))
    }

    fn create_session(&self, name: &str, players: &[String]) -> Result<String, StoreError> {
        session::check_new(name, players)?;
        self.write(|tx| {
            let number = advance(tx, "sessions", 1)?;
            let session = Session { id: short_id('s', number), name: name.to_string(), players: players.to_vec(), games: vec![] };
            tx.execute("INSERT INTO sessions (number, session) VALUES ($1, $2)", &[&int(number), &text(encode(&session))])?;
            Ok(session.id)
        })
    }

    fn add_to_session(&self, session: &str, game: &GameId, deals: Option<usize>) -> Result<(), StoreError> {
        let not_found = || StoreError::NotFound(format!("there is no session {session}"));
        let number = id_number('s', session).ok_or_else(not_found)?;
        self.write(|tx| {
            let row = tx.query_opt("SELECT session FROM sessions WHERE number = $1 FOR UPDATE", &[&int(number)])?.ok_or_else(not_found)?;
            let mut stored: Session = decode("a session", row.get::<_, &str>(0).as_bytes())?;
            let game_number = number_of(game)?;
            let header = tx.query_opt("SELECT header FROM games WHERE number = $1", &[&int(game_number)])?.ok_or_else(|| no_game(game))?;
            let header: Header = decode("a game header", header.get::<_, &str>(0).as_bytes())?;
            session::add_game(&mut stored, game, &header, deals)?;
            tx.execute("UPDATE sessions SET session = $2 WHERE number = $1", &[&int(number), &text(encode(&stored))])?;
            Ok(())
        })
    }

    fn session(&self, session: &str) -> Result<Session, StoreError> {
        let not_found = || StoreError::NotFound(format!("there is no session {session}"));
        let number = id_number('s', session).ok_or_else(not_found)?;
        self.read(|c| {
            let row = c.query_opt("SELECT session FROM sessions WHERE number = $1", &[&int(number)])?.ok_or_else(not_found)?;
            decode("a session", row.get::<_, &str>(0).as_bytes())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_shutting_down_or_a_lost_connection_is_unavailable_not_a_failed_statement() {
        for code in [SqlState::ADMIN_SHUTDOWN, SqlState::CRASH_SHUTDOWN, SqlState::CANNOT_CONNECT_NOW, SqlState::CONNECTION_FAILURE, SqlState::CONNECTION_EXCEPTION] {
            assert!(unavailable(&code), "{}", code.code());
        }
        for code in [SqlState::UNIQUE_VIOLATION, SqlState::T_R_SERIALIZATION_FAILURE, SqlState::QUERY_CANCELED, SqlState::SYNTAX_ERROR] {
            assert!(!unavailable(&code), "{}", code.code());
        }
    }
}
