//! Reading request bodies: the content type must be JSON (415 otherwise), the size is bounded (413
//! past the limit), so is the time it takes to arrive (408 past [`BODY_TIMEOUT`]), and JSON errors come back with their line and column (400 for bad syntax, 422 for
//! a body of the wrong shape).

use actix_web::http::header::CONTENT_TYPE;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest};
use serde::de::DeserializeOwned;
use tarot_engine::GameRecord;

use crate::limits::BODY_TIMEOUT;
use crate::problem::Problem;

/// The largest request body accepted: a complete recorded game is a few kilobytes.
pub const BODY_LIMIT: usize = 256 * 1024;

pub async fn json<T: DeserializeOwned>(req: &HttpRequest, payload: web::Payload) -> Result<T, Problem> {
    read(&bytes(req, payload).await?)
}

/// A recorded game: read by the engine's quick reader, or by serde_json where it gives up.
pub async fn record(req: &HttpRequest, payload: web::Payload) -> Result<GameRecord, Problem> {
    read_record(&bytes(req, payload).await?)
}

async fn bytes(req: &HttpRequest, payload: web::Payload) -> Result<web::Bytes, Problem> {
    let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mime = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if mime != "application/json" && !(mime.starts_with("application/") && mime.ends_with("+json")) {
        let shown = if content_type.is_empty() { "no content type".to_string() } else { format!("content type `{content_type}`") };
        return Err(Problem::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", format!("the body must be JSON (`Content-Type: application/json`), not {shown}")));
    }
    let too_large = || Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large", format!("the body is larger than the limit of {BODY_LIMIT} bytes"));
    let bytes = match actix_web::rt::time::timeout(BODY_TIMEOUT, payload.to_bytes_limited(BODY_LIMIT)).await {
        Ok(Ok(Ok(b))) => b,
        Ok(Ok(Err(e))) => return Err(Problem::new(StatusCode::BAD_REQUEST, "unreadable-body", format!("the body could not be read: {e}"))),
        Ok(Err(_)) => return Err(too_large()),
        Err(_) => return Err(too_slow()),
    };
    Ok(bytes)
}

/// 408: the body did not arrive in time (the connection is closed after the answer).
pub fn too_slow() -> Problem {
    Problem::new(StatusCode::REQUEST_TIMEOUT, "body-too-slow", format!("the body did not arrive within {} seconds: send it at once", BODY_TIMEOUT.as_secs()))
}

/// Reads JSON with serde_json, which says where a text is wrong (line and column), and which field.
pub fn read<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Problem> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| not_an_object(bytes).unwrap_or_else(|| Problem::from_json(e.inner(), Some(&e.path().to_string()))))?;
    de.end().map_err(|e| Problem::from_json(&e, None))?;
    Ok(value)
}

/// Every body is a JSON object: a body that is JSON but another kind of value is said to be so (serde
/// would read a list as the fields in order, and talk of lengths).
fn not_an_object(bytes: &[u8]) -> Option<Problem> {
    let kind = match serde_json::from_slice::<serde_json::Value>(bytes).ok()? {
        serde_json::Value::Object(_) => return None,
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::Bool(_) => "true or false",
        serde_json::Value::Null => "null",
    };
    let mut p = Problem::unprocessable("invalid-body", format!("request body, line 1, column 1: the body must be a JSON object, not {kind}"));
    (p.line, p.column) = (Some(1), Some(1));
    Some(p)
}

/// A recorded game, by `record::read_record` (the engine's quick reader, 7 times as fast as
/// serde_json on a complete game in `benches/validate.rs`, or serde_json where it gives up). A record
/// that cannot be read is read again, only then, to name the field at fault.
pub fn read_record(bytes: &[u8]) -> Result<GameRecord, Problem> {
    tarot_engine::read_record(bytes).map_err(|e| match read::<GameRecord>(bytes) {
        Err(p) => p,
        Ok(_) => Problem::from_json(&e, None),
    })
}

#[cfg(test)]
mod tests {
    use tarot_engine::GameRecord;

    use super::read_record;

    #[test]
    fn records_are_read_as_serde_json_reads_them_and_errors_keep_their_place() {
        for fixture in ["worked/fft-deal5.json", "worked/seed000-hand1.json"] {
            let text = crate::docs::example(fixture).to_string();
            assert!(tarot_engine::read_quick(text.as_bytes()).is_some(), "{fixture}: the quick reader gives up");
            assert_eq!(read_record(text.as_bytes()).unwrap(), serde_json::from_str::<GameRecord>(&text).unwrap());
        }
        let bad = "{\n  \"ruleset\": \"fft-4p\",\n  \"players\": [\"A\" \"B\"]\n}";
        let p = read_record(bad.as_bytes()).unwrap_err();
        assert!(p.detail.contains("line 3"), "{}", p.detail);
        let twice = r#"{"ruleset":"fft-4p","players":["A"],"dealer":"A","events":[{"type":"play","type":"bid"}]}"#;
        assert!(read_record(twice.as_bytes()).unwrap_err().detail.contains("duplicate field `type`"));
        let extra = r#"{"ruleset":"fft-4p","players":["A"],"dealer":"A","events":[{"type":"play","player":"A","card":"T1","bid":"garde"}]}"#;
        assert!(read_record(extra.as_bytes()).unwrap_err().detail.contains("a `play` event has no field `bid`"));
    }

    /// A pot or standing past what a record may carry is a 422 naming the field and the bound (a
    /// Grosstarock record carrying i64::MAX in its King pot was answered valid, the pot wrapped).
    #[test]
    fn amounts_past_the_bound_are_a_422_naming_the_field() {
        let record = |field: &str, amount: &str| format!(r#"{{"ruleset":"grosstarock","players":["A","B","C"],"dealer":"A","{field}":{{"king":{amount}}},"events":[]}}"#);
        for (field, amount) in [("pots", "9223372036854775807"), ("pots", "-1000000000001"), ("standing", "18446744073709551615")] {
            let p = read_record(record(field, amount).as_bytes()).unwrap_err();
            assert_eq!(p.status, 422, "{}", p.detail);
            assert!(p.detail.contains(&format!("at `{field}.king`")) && p.detail.contains(amount) && p.detail.contains("1000000000000"), "{}", p.detail);
        }
        assert_eq!(read_record(record("pots", "1000000000000").as_bytes()).unwrap().pots["king"], 1_000_000_000_000);
    }
}
