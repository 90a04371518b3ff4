//! Sessions: the games one table played, in order. Only the membership is stored; the score sheet
//! is the caller's sum of the games' scores. A session cannot be rebuilt from the games, so it is
//! primary data, written like events: under the write lock, in one transaction, on disk before the
//! call returns.

use std::sync::PoisonError;

use serde::{Deserialize, Serialize};

use crate::sled_store::{check_players, decode, encode, id_number, short_id, GameId, Header, SledStore, Writes};
use crate::StoreError;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// "s" and the session's number in base 36.
    pub id: String,
    pub name: String,
    /// Everyone at the table. A game's players must all be among them.
    pub players: Vec<String>,
    /// In the order they were added.
    pub games: Vec<GameId>,
}

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

/// A new session's name and players, checked.
pub(crate) fn check_new(name: &str, players: &[String]) -> Result<(), StoreError> {
    if name.trim().is_empty() {
        return Err(StoreError::Invalid("a session needs a name".into()));
    }
    check_players(players)
}

/// Adds `game`, whose header is `header`, at the end of `session`, if it may be added: and, when
/// `deals` is given, only if the session holds that many deals (those the caller checked the game
/// against), else `Conflict` with the number expected and the number it holds.
pub(crate) fn add_game(session: &mut Session, game: &GameId, header: &Header, deals: Option<usize>) -> Result<(), StoreError> {
    if let Some(expected) = deals.filter(|n| *n != session.games.len()) {
        return Err(StoreError::Conflict { expected: expected as u64, current: session.games.len() as u64 });
    }
    if session.games.contains(game) {
        return Err(StoreError::Invalid(format!("game {game} is already in session {}", session.id)));
    }
    if let Some(player) = header.players.iter().find(|p| !session.players.contains(p)) {
        return Err(StoreError::Invalid(format!("game {game} is played by {player}, who is not at the table of session {}", session.id)));
    }
    session.games.push(game.clone());
    Ok(())
}
