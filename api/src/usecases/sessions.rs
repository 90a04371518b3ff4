//! Sessions: a table's deals, in order.

use tarot_store::{GameId, Session, Store, StoreError};

use super::Refusal;

/// Opens a session of two to eight players: its id.
pub fn open(store: &Store, name: &str, players: &[String]) -> Result<String, Refusal> {
    if !(2..=8).contains(&players.len()) {
        return Err(Refusal::Players(players.len()));
    }
    Ok(store.create_session(name, players)?)
}

/// Adds a stored game to a session as its next deal: the game must exist and be played by the
/// session's players, and pass `follows` (it carries on what the session's deals left); it is added
/// only after the deals it was checked against (a deal added meanwhile is refused).
pub fn add<E: From<Refusal>>(store: &Store, session: &str, game: GameId, follows: impl FnOnce(&Session, &GameId) -> Result<(), E>) -> Result<(), E> {
    let s = store.session(session).map_err(Refusal::Store)?;
    // The session is the resource named (not found); the game is named in the request (refused).
    let header = store.header(&game).map_err(|e| match e {
        StoreError::NotFound(_) => Refusal::UnknownGame(game.0.clone()),
        e => Refusal::Store(e),
    })?;
    let mut theirs = header.players.clone();
    let mut ours = s.players.clone();
    theirs.sort();
    ours.sort();
    if theirs != ours {
        return Err(Refusal::WrongPlayers { game: game.0, theirs: header.players, ours: s.players }.into());
    }
    follows(&s, &game)?;
    store.add_to_session(session, &game, Some(s.games.len())).map_err(|e| match e {
        StoreError::Conflict { expected, current } => Refusal::SessionMoved { session: session.to_string(), game: game.0.clone(), expected, current },
        e => Refusal::Store(e),
    })?;
    Ok(())
}
