//! Games stored together: an import (whole games with their verdicts, staged in steps so that a
//! caller can overlap successive batches) and the writer thread's batches of new games. Both write
//! the games' large values to a bulk file (`bulk`) and number and store the games in one
//! transaction.

use std::collections::{HashMap, HashSet};
use std::sync::PoisonError;

use super::bulk::{self, OpenBulk};
use super::projections::NewProjection;
use super::streams::{imported_header, stage_with};
use super::{SledStore, Writes};
use crate::stream::{check_ids, creation_key, decode, digest, encode};
use crate::{Appended, GameId, Import, StoreError};

/// How many batches of `import_staged` `Recent` remembers.
const RECENT_BATCHES: usize = 4;

/// The digests each of the last batches of `import_staged` stored, numbered from 1; a batch
/// staged when `batches` was n is checked against those after n, if they are all here.
#[derive(Default)]
pub(super) struct Recent {
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

impl SledStore {
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
            projections.push((number, summary, NewProjection::InSummary(verdict_place.around(b"", b""))));
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
            projections.push((number, summary, NewProjection::Value(file.push(&projection))));
            results.push(appended);
        }
        writes.meta.insert("games", &number.to_be_bytes()[..]);
        bulk.add(&mut file)?;
        self.apply(&writes)?;
        self.put_new_projections(&projections)?;
        Ok(results)
    }
}
