//! Group commit: a write returns only once it is on disk, and writers that finish at about the same
//! time share one flush.
//!
//! sled 0.34 keeps recent writes in memory until it flushes, and a process killed before that loses
//! them. Its background flusher is turned off (`flush_every_ms(None)`), so that when data reaches the
//! disk is decided here alone. A writer, once its transaction is applied, takes a ticket and waits.
//! One flusher thread loops: it notes the last ticket given out, flushes, and marks every ticket up to
//! that one durable. A flush that started after a ticket was taken covers that ticket's transaction.
//! While one flush runs, the writers that arrive queue up for the next one, so under load one flush
//! serves many writers.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};

use crate::StoreError;

pub(crate) struct GroupCommit {
    state: Mutex<State>,
    /// Wakes the flusher when a ticket is taken or the store closes.
    pending: Condvar,
    /// Wakes the writers when a flush ends.
    flushed: Condvar,
}

#[derive(Default)]
struct State {
    /// The last ticket given out.
    issued: u64,
    /// Every ticket up to this one is on disk.
    durable: u64,
    flushes: u64,
    /// Once a flush has failed, nothing more is known to reach the disk.
    failure: Option<StoreError>,
    closing: bool,
}

impl GroupCommit {
    /// Starts the flusher thread; it runs until `close`.
    pub(crate) fn start(db: sled::Db) -> Result<(Arc<GroupCommit>, JoinHandle<()>), StoreError> {
        let commit = Arc::new(GroupCommit { state: Mutex::default(), pending: Condvar::new(), flushed: Condvar::new() });
        let flusher = Arc::clone(&commit);
        let handle = thread::Builder::new()
            .name("tarot-store-flusher".into())
            .spawn(move || flusher.run(&db))
            .map_err(|e| StoreError::Io(format!("cannot start the flusher thread: {e}")))?;
        Ok((commit, handle))
    }

    /// Waits until everything written before the call is on disk.
    pub(crate) fn wait(&self) -> Result<(), StoreError> {
        let mut state = self.lock();
        state.issued += 1;
        let ticket = state.issued;
        self.pending.notify_one();
        while state.durable < ticket {
            if let Some(failure) = &state.failure {
                return Err(match failure {
                    StoreError::Full(why) => StoreError::Full(format!("flushing to disk failed: {why}")),
                    other => StoreError::Io(format!("flushing to disk failed: {other}")),
                });
            }
            state = self.flushed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        Ok(())
    }

    /// How many flushes have completed.
    pub(crate) fn flushes(&self) -> u64 {
        self.lock().flushes
    }

    /// Asks the flusher to stop once the tickets already taken are flushed.
    pub(crate) fn close(&self) {
        self.lock().closing = true;
        self.pending.notify_one();
    }

    fn run(&self, db: &sled::Db) {
        let mut state = self.lock();
        loop {
            if state.issued > state.durable && state.failure.is_none() {
                let target = state.issued;
                drop(state);
                let result = db.flush();
                state = self.lock();
                match result {
                    Ok(_) => {
                        state.durable = target;
                        state.flushes += 1;
                    }
                    Err(e) => state.failure = Some(e.into()),
                }
                self.flushed.notify_all();
            } else if state.closing {
                return;
            } else {
                state = self.pending.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
