//! Sessions: the games one table played, in order. Only the membership is stored; the score sheet
//! is the caller's sum of the games' scores. A session cannot be rebuilt from the games, so it is
//! primary data, written like events: under the write lock, in one transaction, on disk before the
//! call returns.

use serde::{Deserialize, Serialize};

use crate::stream::check_players;
use crate::{GameId, Header, StoreError};

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

/// A new session's name and players, checked.
pub(crate) fn check_new(name: &str, players: &[String]) -> Result<(), StoreError> {
    if tarot_engine::blank(name) {
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
