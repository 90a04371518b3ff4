//! A game: refereed, stored, continued move by move; and every stored verdict recomputed.

use tarot_engine::{Event, GameRecord};
use tarot_engine::{Registry, Status, Verdict};
use tarot_store::{GameId, Header, Import, NewEvent, Store, StoreError};

use super::{replay, Refusal};

/// Referee a game without storing it: its verdict under the ruleset it names. Its players are
/// checked as the store checks a game it stores (after the replay, as `POST /games` does), so that a
/// record the store would refuse (a blank name) is refused here too, with the same answer.
pub fn referee(registry: &Registry, record: &GameRecord) -> Result<Verdict, Refusal> {
    let verdict = replay(registry, record)?;
    tarot_store::check_players(&record.players)?;
    Ok(verdict)
}

/// A game to store as a new event stream, refereed once: what the store takes (its verdict is the
/// projection's, so the game is not replayed again), and the verdict's JSON as replay wrote it.
pub fn create(registry: &Registry, record: GameRecord) -> Result<(Import, Vec<u8>), Refusal> {
    let verdict = replay(registry, &record)?;
    let rules = registry.get(&record.ruleset).expect("a ruleset the game was replayed with");
    let verdict = tarot_store::Refereed::of(rules, &verdict)?;
    let json = verdict.json.clone();
    let header = Header::of(&record);
    let events = record.events.into_iter().map(|event| NewEvent { id: None, event }).collect();
    Ok((Import { header, events, verdict }, json))
}

/// Appends moves to a stored game, only if `expected_version` is its version, each move refereed
/// first (a move that breaks a rule is refused and nothing is stored); optional ids, one per event,
/// make a retried append harmless. The game's new version and its verdict's JSON.
pub fn append(store: &Store, registry: &Registry, id: &GameId, expected_version: u64, events: Vec<Event>, ids: Option<Vec<String>>) -> Result<(u64, serde_json::Value), Refusal> {
    if let Some(ids) = &ids {
        if ids.len() != events.len() {
            return Err(Refusal::IdsPerEvent { ids: ids.len(), events: events.len() });
        }
    }
    let mut record = store.record(id)?;
    let stored = record.events.len() as u64;
    // Every move stored must have been refereed after exactly the events it is stored after.
    // The moves are refereed against the `stored` events just read, and the store appends them
    // only if the game still has exactly those (it checks under its lock or in its
    // transaction). Any other expected version is never refereed, so it must never be stored:
    // one past the events read could become the game's version while this runs, so it is
    // refused here; one before them cannot (a stream only grows), so the store is asked only
    // whether it is the retry of an append it stored, and otherwise refuses it.
    if expected_version > stored {
        return Err(StoreError::Conflict { expected: expected_version, current: stored }.into());
    }
    if expected_version == stored {
        // Referee the moves before storing them: what is stored stays a legal game, and a game
        // that has stopped (finished, broken or annulled) takes no more moves.
        let before = replay(registry, &record)?;
        if before.status != Status::InProgress && !events.is_empty() {
            return Err(Refusal::GameOver { verdict: Box::new(before), events: stored as usize });
        }
        record.events.extend(events.iter().cloned());
        let after = replay(registry, &record)?;
        if after.status == Status::Invalid {
            return Err(Refusal::IllegalMove(Box::new(after)));
        }
    }
    let ids = ids.unwrap_or_default();
    let events = events.into_iter().enumerate().map(|(i, event)| NewEvent { id: ids.get(i).cloned(), event }).collect();
    let appended = store.append(id, expected_version, events)?;
    let projection = tarot_store::project(store, registry, id)?;
    Ok((appended.version, projection.verdict))
}

/// Recomputes every stored game's verdict from its events (on every core), and waits until they
/// are on disk: how many games.
pub fn rebuild(store: &Store, registry: &Registry) -> Result<usize, StoreError> {
    let n = tarot_store::rebuild_projections(store, registry)?;
    store.flush()?;
    Ok(n)
}
