//! What every handler shares: the store, the rulesets, the write token and the limits.

use std::sync::Arc;

use actix_web::http::header::AUTHORIZATION;
use actix_web::http::StatusCode;
use actix_web::HttpRequest;
use subtle::ConstantTimeEq;
use tarot_engine::Registry;
use tarot_store::Store;

use crate::limits::Limits;
use crate::problem::Problem;

pub struct AppState {
    pub store: Arc<Store>,
    pub registry: Arc<Registry>,
    /// When set, every write needs `Authorization: Bearer <token>`.
    pub write_token: Option<String>,
    /// What the dear requests may cost, and how many run at once.
    pub limits: Limits,
}

impl AppState {
    pub fn new(store: Arc<Store>, registry: Arc<Registry>, write_token: Option<String>) -> AppState {
        AppState { store, registry, write_token, limits: Limits::default() }
    }

    /// 401 without a token, 403 with a wrong one; reads never call this.
    pub fn authorize(&self, req: &HttpRequest) -> Result<(), Problem> {
        let Some(token) = &self.write_token else { return Ok(()) };
        let given = req.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bearer);
        match given {
            None => Err(Problem::new(StatusCode::UNAUTHORIZED, "unauthorized", "this server needs `Authorization: Bearer <token>` for writes")),
            // Constant time for tokens of the same length: how long the comparison takes says
            // nothing of how many of the first bytes were right.
            Some(t) if bool::from(t.as_bytes().ct_eq(token.as_bytes())) => Ok(()),
            Some(_) => Err(Problem::new(StatusCode::FORBIDDEN, "forbidden", "the write token is wrong")),
        }
    }
}

/// The token of an `Authorization: Bearer <token>` header. The scheme's name is read in any case
/// (RFC 9110, section 11.1: `bearer` and `BEARER` are `Bearer`).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim_start().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}
