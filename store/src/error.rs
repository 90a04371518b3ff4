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
    /// The disk (or the database's) has no room left: nothing more can be written until an
    /// administrator frees some. What was acknowledged before is kept.
    Full(String),
}

impl StoreError {
    /// An I/O error, told apart as [`StoreError::Full`] when the disk has no room left (ENOSPC, or
    /// a quota reached).
    pub fn io(context: impl fmt::Display, e: &std::io::Error) -> Self {
        if is_full(e) {
            StoreError::Full(format!("{context}: {e}"))
        } else {
            StoreError::Io(format!("{context}: {e}"))
        }
    }
}

/// Whether an I/O error says the disk has no room left.
fn is_full(e: &std::io::Error) -> bool {
    // ENOSPC and EDQUOT on Linux; std's `StorageFull` and `QuotaExceeded` where it maps them.
    matches!(e.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded) || matches!(e.raw_os_error(), Some(28 | 122))
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
            StoreError::Full(message) => write!(f, "the disk is full: {message}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> Self {
        match &e {
            sled::Error::Io(io) if is_full(io) => StoreError::Full(e.to_string()),
            _ => StoreError::Io(e.to_string()),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disk_with_no_room_left_is_full_and_other_failures_are_not() {
        let enospc = || std::io::Error::from_raw_os_error(28);
        assert!(matches!(StoreError::from(sled::Error::Io(enospc())), StoreError::Full(_)));
        assert!(matches!(StoreError::io("bulk file", &enospc()), StoreError::Full(_)));
        assert!(matches!(StoreError::io("bulk file", &std::io::Error::from_raw_os_error(122)), StoreError::Full(_)));
        let denied = std::io::Error::from_raw_os_error(13);
        assert!(matches!(StoreError::from(sled::Error::Io(denied)), StoreError::Io(_)));
        assert!(matches!(StoreError::from(sled::Error::Unsupported("x".into())), StoreError::Io(_)));
    }
}
