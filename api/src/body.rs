//! Reading request bodies: the content type must be JSON (415 otherwise), the size is bounded (413
//! past the limit), and JSON errors come back with their line and column (400 for bad syntax, 422 for
//! a body of the wrong shape).

use actix_web::http::header::CONTENT_TYPE;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest};
use serde::de::DeserializeOwned;

use crate::problem::Problem;

/// The largest request body accepted: a complete recorded game is a few kilobytes.
pub const BODY_LIMIT: usize = 256 * 1024;

pub async fn json<T: DeserializeOwned>(req: &HttpRequest, payload: web::Payload) -> Result<T, Problem> {
    let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mime = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if mime != "application/json" && !(mime.starts_with("application/") && mime.ends_with("+json")) {
        let shown = if content_type.is_empty() { "no content type".to_string() } else { format!("content type `{content_type}`") };
        return Err(Problem::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", format!("the body must be JSON (`Content-Type: application/json`), not {shown}")));
    }
    let too_large = || Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large", format!("the body is larger than the limit of {BODY_LIMIT} bytes"));
    let bytes = match payload.to_bytes_limited(BODY_LIMIT).await {
        Ok(Ok(b)) => b,
        Ok(Err(e)) => return Err(Problem::new(StatusCode::BAD_REQUEST, "unreadable-body", format!("the body could not be read: {e}"))),
        Err(_) => return Err(too_large()),
    };
    serde_json::from_slice(&bytes).map_err(|e| Problem::from_json(&e))
}
