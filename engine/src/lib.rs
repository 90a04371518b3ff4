//! The rules engine of the tarot archive: the rules language (`dsl`), its compiled form (`ir`), the
//! interpreter that replays recorded games (`replay`), the simulator, and the importer for TarotClub's
//! deal logs. No I/O happens here but reading the rule files the caller points at.

pub mod cards;
pub mod combinations;
pub mod compare;
pub mod describe;
pub mod dsl;
pub mod expr;
pub mod import;
pub mod ir;
pub mod label;
pub mod matches;
pub mod num;
#[cfg(feature = "openapi")]
pub mod openapi;
pub mod record;
pub mod registry;
pub mod replay;
pub mod simulate;
pub mod stats;
pub mod verdict;

pub use record::{parse_record, Event, GameRecord};
pub use registry::Registry;
pub use replay::replay;
pub use verdict::{InputError, ReplayError, RulesetFault, Status, Verdict};
