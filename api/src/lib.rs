//! The archive over HTTP: actix-web handlers over the engine (verdicts) and the store (event
//! streams), documented with utoipa. Only this crate knows HTTP, DTOs and OpenAPI.

// `Problem` (176 bytes) is the error of every handler and of the helpers they call; it is made once
// per failed request, where boxing it would only add a step to every signature.
#![allow(clippy::result_large_err)]

pub mod body;
pub mod docs;
#[cfg(test)]
mod layering;
pub mod limits;
pub mod openapi;
mod pages;
pub mod problem;
mod routes;
pub mod schema;
#[cfg(test)]
mod schema_bounds;
mod sheet;
pub mod startup;
pub mod state;
pub mod usecases;

pub use startup::run;
pub use state::AppState;
