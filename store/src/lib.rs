//! The archive's storage: recorded games as event streams, the verdicts computed from them, and
//! sessions, on sled. Only this crate knows sled.
//!
//! The archive is event-sourced. A game is a stream: a header (ruleset, options, players, dealer)
//! and its events in order, each numbered by its version in the stream and by its position in the
//! whole archive. Streams are the only truth. Verdicts, summaries and the indexes used for listing
//! are projections: replay's answer for a stream, stored with the checkpoint and the ruleset version
//! they were computed at, which `rebuild_projections` can throw away and recompute at any time.
//!
//! Every write of primary data (streams, sessions) is on disk before it returns; see `commit` for
//! how concurrent writers share flushes. Methods block meanwhile, so async callers should run them
//! on a blocking thread pool.

mod commit;
mod error;
mod projection;
mod session;
mod stream;

pub use error::StoreError;
pub use projection::{project, project_created, rebuild_projections, Filter, Projection, Summary};
pub use session::Session;
pub use stream::{Appended, GameId, Header, NewEvent, Store, StoredEvent};
