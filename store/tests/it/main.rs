//! The store's integration tests, built as one test binary, `it`: each file of this folder is a
//! module of it, and `common/` holds what they share (`common/postgres.rs`, the test PostgreSQL
//! cluster, is also the cli tests' `pg`).
//!
//! One file's tests are run with its module as the filter: `cargo test -p tarot-store --test it contract::`.
//! A new test file `x.rs` goes in this folder with one line, `mod x;`, below; it reaches the shared
//! helpers with `use crate::common;`. All the tests run in one process, on parallel threads: each
//! names its scratch directory (`common::TempDir`) and its database (`common::postgres::database`)
//! after itself.

mod common;

mod contract;
mod format;
mod store;
