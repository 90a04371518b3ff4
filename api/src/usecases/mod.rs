//! The archive's use cases, written once for every way in: referee a game, store one, append moves
//! to one, import a batch, rebuild the verdicts, and a session's deals. The HTTP handlers
//! (`crate::routes`), the pages and the command line call these; each turns a [`Refusal`] into its
//! own words (a problem+json, an exit status). This module knows the engine and the store only:
//! no HTTP, no actix, no JSON of its own.

use std::fmt;

use tarot_engine::GameRecord;
use tarot_engine::{Registry, ReplayError, Verdict};
use tarot_store::StoreError;

pub mod games;
pub mod import;
pub mod sessions;

pub use games::{append, create, rebuild, referee};

/// Why a use case refused, in the words a client acts on.
#[derive(Debug)]
pub enum Refusal {
    /// The record names a ruleset the archive does not know.
    UnknownRuleset { id: String, known: Vec<String> },
    /// The record is not a game of its ruleset, or a rule of the ruleset cannot be worked out on it
    /// (`ruleset_fault`).
    Replay(ReplayError),
    /// The store refused or failed.
    Store(StoreError),
    /// An append gives ids, but not one per event.
    IdsPerEvent { ids: usize, events: usize },
    /// An append to a game that has stopped (finished, broken or annulled), after its `events`.
    GameOver { verdict: Box<Verdict>, events: usize },
    /// An appended move breaks a rule: the verdict of the game with it.
    IllegalMove(Box<Verdict>),
    /// A session of this many players (two to eight).
    Players(usize),
    /// A deal added to a session names a game not stored.
    UnknownGame(String),
    /// A deal added to a session is played by others than the session's players.
    WrongPlayers { game: String, theirs: Vec<String>, ours: Vec<String> },
    /// A deal was added to the session after the game was checked against its deals.
    SessionMoved { session: String, game: String, expected: u64, current: u64 },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownRuleset { id, known } => write!(f, "unknown ruleset `{id}`; known: {}", known.join(", ")),
            Refusal::Replay(e) => write!(f, "{e}"),
            Refusal::Store(e) => write!(f, "{e}"),
            Refusal::IdsPerEvent { ids, events } => write!(f, "{ids} ids for {events} events: give one id per event, or none"),
            Refusal::GameOver { verdict, events } => {
                let why = match (&verdict.violation, &verdict.annulled) {
                    (Some(v), _) => format!("it stopped at event {} on a broken rule: {} (rule {})", v.event, v.message, v.rule),
                    (None, Some(a)) => format!("the deal was annulled: {} (rule {})", a.reason, a.rule),
                    _ => format!("it is finished after its {events} events, and scored"),
                };
                write!(f, "no move can be added to this game: {why}")
            }
            Refusal::IllegalMove(verdict) => write!(f, "{}", verdict.violation.as_ref().map(|v| v.message.as_str()).unwrap_or_default()),
            Refusal::Players(n) => write!(f, "a session has two to eight players, not {n}"),
            Refusal::UnknownGame(game) => write!(f, "there is no game `{game}` to add; store it first with POST /games"),
            Refusal::WrongPlayers { game, theirs, ours } => write!(f, "game {game} is played by {}, the session by {}", theirs.join(", "), ours.join(", ")),
            Refusal::SessionMoved { session, game, expected, current } => {
                write!(f, "session {session} held {expected} deal(s) when game {game} was checked against them, and now holds {current}: add it again")
            }
        }
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        Refusal::Store(e)
    }
}

/// The ruleset a record names, or the refusal that lists the known ones.
pub fn ruleset<'a>(registry: &'a Registry, id: &str) -> Result<&'a tarot_engine::ir::Ruleset, Refusal> {
    registry.get(id).ok_or_else(|| Refusal::UnknownRuleset { id: id.to_string(), known: registry.ids().map(str::to_string).collect() })
}

/// Replays a record under the ruleset it names.
fn replay(registry: &Registry, record: &GameRecord) -> Result<Verdict, Refusal> {
    tarot_engine::replay(ruleset(registry, &record.ruleset)?, record).map_err(Refusal::Replay)
}
