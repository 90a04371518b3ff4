//! The rules engine of the tarot archive: the rules language, its compiled form, the interpreter that
//! replays recorded games, the simulator, and the importer for TarotClub's deal logs. No I/O happens
//! here but reading the rule files the caller points at.
//!
//! The modules are private; what the other crates use is re-exported below, grouped by what a caller
//! does. Two modules are public, each for a reason:
//!
//! - [`ir`], the compiled rules: a [`ir::Ruleset`] is read field by field by every crate that draws
//!   or checks rules (its sides, pack, contracts, clauses), so its types are the API as they stand.
//! - [`testing`] (hidden from the documentation), the interpreter's own stepping (`Game`, its stages,
//!   the move lists): for the engine's tests, its benchmarks and the generators of its fixtures and
//!   worked examples only, which drive a game move by move. No service crate uses it.
//!
//! The schemas of the wire types (feature `openapi`) are derived beside the types; the few a derive
//! cannot say are re-exported at the end.

mod cards;
mod combinations;
mod compare;
mod describe;
mod drawing;
mod dsl;
mod expr;
mod import;
pub mod ir;
mod label;
mod matches;
mod num;
#[cfg(feature = "openapi")]
mod openapi;
mod record;
mod registry;
mod replay;
mod simulate;
mod stats;
mod verdict;

// Compile rule files and look rulesets up.
pub use dsl::{compile, Diagnostic, Diagnostics, RuleFile};
pub use registry::Registry;

// Read a record: a game as JSON, its events, its cards and amounts.
pub use cards::{Card, CardSet, Kind, FOOL};
pub use num::Q;
pub use record::{blank, json_error_in_words, parse_record, read_quick, read_record, Event, GameRecord, Packet, Text, AMOUNT_LIMIT};

// Replay a record and judge it; the settings a game's options choose.
pub use replay::{replay, Setup};

// The verdict and its parts.
pub use verdict::{
    Annulled, Figure, InputError, LedgerEntry, Next, NotTaken, Outcome, Phase, PlayerResult, PotResult, ReplayError, RulesetFault, Status, TrickView, Verdict, Violation,
};

// What a page draws of a replayed game.
pub use drawing::{draw_game, DogCount, ExcuseInTrick, GameDrawing, GameSides, Play, TrickDrawing};

// Simulate games: random legal games, steered to rare cases, and a game broken on purpose.
pub use simulate::{illegal_variant, random_deal, random_game, random_game_from, random_game_with, ContractChoice, SimOptions};

// Describe rulesets in words and compare them; one game under several rulesets.
pub use compare::{compare, compare_for_people, compare_game, Comparison, Divergence, GameComparison, Replayed, Row};
pub use describe::{describe, describe_for_people, score_values, with_article, Description, Line, OptionView, ScoreValue};

// Deal statistics, and a match over a table's deals.
pub use matches::{dealer_follows, match_state, next_follows, pots_follow, standing_follows, table_match, Gap, MatchState, Mismatch, Played, TableMatch};
pub use stats::{
    check_deals, deal_stats, deal_stats_unremembered, deal_stats_until, deal_stats_with, deal_work, read_options, to_text as stats_to_text, DealStats, DealWork, MAX_DEALS,
    NOTE as STATS_NOTE,
};

// Import TarotClub's deal logs.
pub use import::tarotclub::{import as import_tarotclub, Imported};

// The schemas a derive cannot say, for the API's document.
#[cfg(feature = "openapi")]
pub use openapi::{OptionValues, PlayerAmount, Players, Pots, RulesetId, Standing, NOT_BLANK};

/// The interpreter's own stepping, for the engine's tests, benchmarks and fixture generators only:
/// not part of the engine's API (a service drives no game itself; it replays a record).
#[doc(hidden)]
pub mod testing {
    pub use crate::replay::{count_packets, count_points, read, replay_moves, replay_with, DiscardCards, Game, Move, Seating, Stage, Stop, DISCARD_SEARCH_BOUND};
    pub use crate::simulate::NAMES;
    // The helpers the engine's tests check on their own, against a count by hand.
    pub use crate::cards::{MAX_TRUMPS, PACK_SIZE};
    pub use crate::combinations::{in_runs, run_from_head, runs};
    pub use crate::describe::fold;
    pub use crate::dsl::{nesting, MAX_NESTING};
    pub use crate::expr::Value;
    pub use crate::label::{fill, names, words};
    pub use crate::num::LIMIT;
    pub use crate::replay::name_key;
    pub use crate::verdict::json_string;
}
