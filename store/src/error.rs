//! The one error type of the store. Each message says what is wrong in words a caller can pass on.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// No game or session has this id; the message names it.
    NotFound(String),
    /// An append expected the stream at `expected` events, but it has `current`.
    Conflict { expected: u64, current: u64 },
    /// The input cannot be stored as it is; nothing was written.
    Invalid(String),
    /// sled or the disk failed, or stored data cannot be read back.
    Io(String),
    /// The database cannot be reached (PostgreSQL down or restarting); the same request may succeed
    /// later. Nothing was written.
    Unavailable(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound(message) | StoreError::Invalid(message) => f.write_str(message),
            StoreError::Conflict { expected, current } => {
                write!(f, "the append expected the game at version {expected}, but it is at version {current}: read it again and retry")
            }
            StoreError::Io(message) => write!(f, "storage failed: {message}"),
            StoreError::Unavailable(message) => write!(f, "the database is unavailable: {message}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> Self {
        StoreError::Io(e.to_string())
    }
}

impl From<sled::transaction::TransactionError<StoreError>> for StoreError {
    fn from(e: sled::transaction::TransactionError<StoreError>) -> Self {
        match e {
            sled::transaction::TransactionError::Abort(e) => e,
            sled::transaction::TransactionError::Storage(e) => e.into(),
        }
    }
}
