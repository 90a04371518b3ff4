//! The interpreter: replays a recorded game against compiled rules, event by event, and stops at the
//! first rule broken. The same `Game` serves replay, the live referee (what may be done next) and the
//! simulator, so the moves the simulator generates are by construction the moves replay accepts.
//!
//! Laid out as a rule file: each section (`pack`, `counting`, `deal`, `bidding`, `call`, `discard`,
//! `declaration`, `play`, `fool`, `score`) is interpreted in the module of the same name, as methods
//! of `Game`. The game's state is in `game`, its driver in `apply`: `apply` reads an event (`read`) and
//! hands it to its section, `next` asks the phase's section what it expects. `run` holds the entry
//! points: `replay` reads a record, `replay_moves` runs a game through and scores it. `sides` says who
//! plays with whom and who pays whom, `stop` why replay stops. The settings are evaluated once per
//! game in `setup`; `env` is what a formula sees.

pub(crate) use crate::ir::MAX_PLAYERS;

mod after_deal;
mod apply;
mod bidding;
mod buy;
mod call;
mod counting;
mod deal;
mod declarations;
mod discard;
mod discard_cards;
mod env;
mod fool;
mod game;
mod idle_cards;
mod last_word;
mod may_declare;
mod obligations;
mod pack;
mod play;
mod read;
mod run;
mod score;
mod seating;
mod settle;
mod setup;
mod shows;
mod sides;
mod sit_out;
mod spelling;
mod steal;
mod stop;
mod talon;
mod together;

pub use bidding::Bid;
pub use counting::{card_points, count_packets, count_points, counting_for};
pub use declarations::Declaration;
pub use discard_cards::{DiscardCards, DISCARD_SEARCH_BOUND};
pub use env::GameEnv;
pub use game::{Game, Plays, Stage, Trick};
pub use read::{name_key, read, Move};
pub use run::{replay, replay_moves, replay_with};
pub use seating::Seating;
pub use setup::Setup;
use setup::SetupEnv;
use stop::clause_violation;
pub use stop::Stop;
use stop::NO_DEAL_ORDER;
