//! The command line's and the server's integration tests, built as one test binary, `it`: each file
//! of this folder is a module of it, `common/` holds what they share, and `pg` is the tests'
//! PostgreSQL cluster (`tarot_testkit::postgres`), started once for the binary.
//!
//! One file's tests are run with its module as the filter: `cargo test -p tarot-archive --test it api::`.
//! A file grown long is split by subject into a folder of its name (`api.rs` and `api/`,
//! `pages_browser.rs` and `pages_browser/`): its tests keep the prefix (`api::` runs them all,
//! `api::limits::` one part).
//! A new test file `x.rs` goes in this folder with one line, `mod x;`, below; it reaches the shared
//! helpers with `use crate::common;` and the cluster with `use crate::pg;`. All the tests run in one
//! process, on parallel threads: each starts its servers on port 0, in a directory of its own
//! (`common::temp_dir`), on a database of its own (`pg::database`).

mod common;
use tarot_testkit::postgres as pg;

mod api;
mod cli;
mod docs_browser;
mod durability;
mod hostile;
mod import;
mod pages_browser;
mod postgres;
mod session_match;
