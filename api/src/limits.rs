//! What one request may cost the server, so that no anonymous request buys minutes of CPU or hundreds
//! of megabytes: a deadline for reading a body, a cap on the rulesets compared, a budget of deals per
//! request of statistics, and a few of the dear requests (statistics, imports) at once, the others
//! told to come back (503 with `Retry-After`). Statistics already computed are answered from a
//! small cache, and statistics whose client has gone stop dealing.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lru::LruCache;
use tarot_engine::{DealStats, DealWork};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::problem::Problem;

/// How long a request body may take to arrive, from its first byte to its last (`POST /games:import`:
/// between two chunks). A recorded game is a few kilobytes: at the 256 KiB limit, 10 seconds still
/// let a client on 26 KB/s send it. Past it, 408. Without it, a body sent a byte a second held its
/// connection open for ever.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The most rulesets one comparison names, once each (`GET /rulesets/compare`, `POST /compare`,
/// their pages). Every ruleset the archive ships extends one of a dozen roots, and a page of more
/// than sixteen columns is not read; 2,000 ids made an 18 MB answer before the ids were counted once.
pub const MAX_COMPARED: usize = 16;

/// The server time one request of statistics may cost, estimated before any deal (see
/// [`deal_cost_ns`]): 5 seconds of one core on a release build (the estimates being high for most
/// rulesets, most requests at the budget take far less). `GET /stats?rulesets=tarocchini`
/// took 81 s when its 100,000 deals were not bounded.
pub const STATS_BUDGET_NS: u64 = 5_000_000_000;

/// Statistics computed at once: one per core of a small server. A request past them waits for
/// [`STATS_WAIT`], then is answered 503.
const STATS_AT_ONCE: usize = 2;
const STATS_WAIT: Duration = Duration::from_secs(2);

/// Answers of statistics kept, keyed by the query as read (rulesets once each, in order; deals, seed,
/// players and options): a few kilobytes each. The home page's link is answered from here after its
/// first click.
const STATS_CACHED: usize = 64;

/// Imports at once. Each holds a batch of up to [`BATCH_BYTES`] and the work of refereeing it.
const IMPORTS_AT_ONCE: usize = 2;

/// The bytes of one batch of an import: a batch is cut when its lines pass this, before its 1,000th
/// line. 1,000 lines of 256 KiB each (the longest line accepted) held half a gigabyte in one batch.
pub const BATCH_BYTES: usize = 16 * 1024 * 1024;

/// Seconds a client told 503 is asked to wait.
const RETRY_AFTER: u64 = 5;

/// The estimated time of one deal of the statistics, in nanoseconds of a release build, from the
/// work the engine says it does ([`tarot_engine::deal_work`]). Measured (release build, one
/// core): FFT's 4-player deal, whose rules are all remembered by counts, takes about 0.6 µs (78 cards,
/// 4 hands); Tarocchini's, whose two sequence declarations are asked of each of 4 hands, 810 µs, so
/// about 100 µs for each rule asked of a hand. That is the dearest of the rulesets shipped: the
/// others' rules asked hand by hand take from 2 to 35 µs (a debug build's times, a twentieth of
/// which a release build takes), so their estimates are high, never low.
pub fn deal_cost_ns(work: DealWork) -> u64 {
    const PER_CARD: u64 = 5;
    const PER_HAND: u64 = 50;
    const PER_RULE_ASKED: u64 = 100_000;
    let hands = work.hands as u64;
    work.cards as u64 * PER_CARD + hands * PER_HAND + hands * work.unremembered as u64 * PER_RULE_ASKED
}

/// The shared state of the limits: one per server.
pub struct Limits {
    stats: Arc<Semaphore>,
    imports: Arc<Semaphore>,
    cache: Mutex<LruCache<String, Arc<Vec<DealStats>>>>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            stats: Arc::new(Semaphore::new(STATS_AT_ONCE)),
            imports: Arc::new(Semaphore::new(IMPORTS_AT_ONCE)),
            cache: Mutex::new(LruCache::new(NonZeroUsize::new(STATS_CACHED).expect("a cache holds something"))),
        }
    }
}

impl Limits {
    /// A place among the statistics computed at once, waiting a little for one; 503 past that. The
    /// place is held until the work is over (it goes with the work to the blocking pool), not until
    /// the answer: work given up when its client went frees its place once it has stopped.
    pub async fn stats_place(&self) -> Result<OwnedSemaphorePermit, Problem> {
        match actix_web::rt::time::timeout(STATS_WAIT, self.stats.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(Problem::busy(format!("the server is computing {STATS_AT_ONCE} requests of statistics already; ask again in a few seconds"), RETRY_AFTER)),
        }
    }

    /// A place among the imports at once; 503 at once past them (an import is a long request: a
    /// client waiting in line would only hold its connection).
    pub fn import_place(&self) -> Result<OwnedSemaphorePermit, Problem> {
        self.imports
            .clone()
            .try_acquire_owned()
            .map_err(|_| Problem::busy(format!("the server is storing {IMPORTS_AT_ONCE} imports already; send this one in a few seconds"), RETRY_AFTER))
    }

    pub fn cached_stats(&self, key: &str) -> Option<Arc<Vec<DealStats>>> {
        self.cache.lock().ok()?.get(key).cloned()
    }

    pub fn remember_stats(&self, key: String, stats: Arc<Vec<DealStats>>) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.put(key, stats);
        }
    }
}

/// A flag set when this is dropped: held by a handler across the work it waits for, it tells the work
/// that nobody waits any more once actix drops the handler's future (its client has gone).
pub struct CancelOnDrop(Arc<AtomicBool>);

impl Default for CancelOnDrop {
    fn default() -> Self {
        Self::new()
    }
}

impl CancelOnDrop {
    pub fn new() -> CancelOnDrop {
        CancelOnDrop(Arc::new(AtomicBool::new(false)))
    }

    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
