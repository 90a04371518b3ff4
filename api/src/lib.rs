//! The archive over HTTP: actix-web handlers over the engine (verdicts) and the store (event
//! streams), documented with utoipa. Only this crate knows HTTP, DTOs and OpenAPI.

pub mod body;
pub mod docs;
mod pages;
pub mod problem;
mod routes;
mod sheet;
pub mod startup;

pub use startup::{run, AppState};
