//! The sled store's sessions: each one value in `sessions`, written under the write lock in one
//! transaction with the counter, on disk before the call returns.

use std::sync::PoisonError;

use super::{SledStore, Writes};
use crate::session::{add_game, check_new};
use crate::stream::{decode, encode, id_number, short_id};
use crate::{GameId, Session, StoreError};

impl SledStore {
    /// Opens a session for a table; returns its id.
    pub fn create_session(&self, name: &str, players: &[String]) -> Result<String, StoreError> {
        check_new(name, players)?;
        let guard = self.write.lock().unwrap_or_else(PoisonError::into_inner);
        let number = self.counter("sessions")? + 1;
        let session = Session { id: short_id('s', number), name: name.to_string(), players: players.to_vec(), games: vec![] };
        let mut writes = Writes::default();
        writes.meta.insert("sessions", &number.to_be_bytes()[..]);
        writes.sessions.insert(&number.to_be_bytes()[..], encode(&session));
        self.apply(&writes)?;
        drop(guard);
        self.commit.wait()?;
        Ok(session.id)
    }

    /// Adds a game at the end of a session. The game must exist, not be in the session already, and
    /// be played by players of the table.
    pub fn add_to_session(&self, session: &str, game: &GameId, deals: Option<usize>) -> Result<(), StoreError> {
        let guard = self.write.lock().unwrap_or_else(PoisonError::into_inner);
        let (number, mut stored) = self.read_session(session)?;
        add_game(&mut stored, game, &self.header(game)?, deals)?;
        let mut writes = Writes::default();
        writes.sessions.insert(&number.to_be_bytes()[..], encode(&stored));
        self.apply(&writes)?;
        drop(guard);
        self.commit.wait()
    }

    pub fn session(&self, session: &str) -> Result<Session, StoreError> {
        Ok(self.read_session(session)?.1)
    }

    fn read_session(&self, session: &str) -> Result<(u64, Session), StoreError> {
        let not_found = || StoreError::NotFound(format!("there is no session {session}"));
        let number = id_number('s', session).ok_or_else(not_found)?;
        let bytes = self.sessions.get(number.to_be_bytes())?.ok_or_else(not_found)?;
        Ok((number, decode("a session", &bytes)?))
    }
}
