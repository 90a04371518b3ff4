//! Errors as `application/problem+json` (RFC 9457): a type, a title, the status, and a `detail` that
//! says what is wrong and where (JSON line and column, event index and rule), with extension members
//! for what a client acts on (`current_version` on a conflict, the `violation` of a refused move).

use actix_web::http::header::{ALLOW, RETRY_AFTER, WWW_AUTHENTICATE};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use tarot_store::StoreError;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Problem {
    /// A URI naming the kind of problem, e.g. `urn:tarot-archive:problem:conflict`.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// The stream's version now, on a 409 conflict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
    /// The rule a refused move breaks, on a 422 for an append.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::schema::Violation>)]
    pub violation: Option<serde_json::Value>,
    /// The pot or player a deal added to a session does not carry on, on a 409 for
    /// `POST /sessions/{id}/games`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::schema::DoesNotFollow>)]
    pub does_not_follow: Option<serde_json::Value>,
    /// Where in the request body the problem is (JSON line and column, or event index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<usize>,
    /// The methods a path answers, sent as `Allow` with a 405.
    #[serde(skip)]
    pub allow: Option<String>,
    /// Seconds to wait before asking again, sent as `Retry-After` with a 503.
    #[serde(skip)]
    pub retry_after: Option<u64>,
}

impl Problem {
    pub fn new(status: StatusCode, kind: &str, detail: impl Into<String>) -> Problem {
        Problem {
            kind: format!("urn:tarot-archive:problem:{kind}"),
            title: status.canonical_reason().unwrap_or("Error").to_string(),
            status: status.as_u16(),
            detail: detail.into(),
            current_version: None,
            violation: None,
            does_not_follow: None,
            line: None,
            column: None,
            event: None,
            allow: None,
            retry_after: None,
        }
    }

    pub fn not_found(what: impl Into<String>) -> Problem {
        Problem::new(StatusCode::NOT_FOUND, "not-found", what)
    }

    pub fn unprocessable(kind: &str, detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::UNPROCESSABLE_ENTITY, kind, detail)
    }

    /// 503: the server is doing as much of this work as it takes at once; ask again after
    /// `retry_after` seconds.
    pub fn busy(detail: impl Into<String>, retry_after: u64) -> Problem {
        let mut p = Problem::new(StatusCode::SERVICE_UNAVAILABLE, "busy", detail);
        p.retry_after = Some(retry_after);
        p
    }

    pub fn internal(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", detail)
    }

    /// The problem for a JSON body that cannot be read: syntax errors are 400, a body of the wrong
    /// shape is 422, both with the line and column (said once) and, when known, the field (`path`,
    /// as `events[3].card`).
    pub fn from_json(e: &serde_json::Error, path: Option<&str>) -> Problem {
        let (status, kind) = match e.classify() {
            serde_json::error::Category::Data => (StatusCode::UNPROCESSABLE_ENTITY, "invalid-body"),
            _ => (StatusCode::BAD_REQUEST, "malformed-json"),
        };
        let field = match path {
            Some(p) if p != "." && !p.is_empty() => format!(", at `{p}`"),
            _ => String::new(),
        };
        let mut p = Problem::new(status, kind, format!("request body, line {}, column {}{field}: {}", e.line(), e.column(), plain_words(e)));
        p.line = Some(e.line());
        p.column = Some(e.column());
        p
    }
}

/// serde_json's message in a client's words: without the place (said beside it), and with JSON's
/// names for what was expected rather than Rust's (`struct GameRecord with 6 elements`, `u64`); the
/// engine says it so too, for the command line and the check page.
fn plain_words(e: &serde_json::Error) -> String {
    tarot_engine::json_error_in_words(e)
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.title, self.detail)
    }
}

impl ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let mut answer = HttpResponse::build(self.status_code());
        answer.content_type("application/problem+json");
        if let Some(allow) = &self.allow {
            answer.insert_header((ALLOW, allow.as_str()));
        }
        if let Some(seconds) = self.retry_after {
            answer.insert_header((RETRY_AFTER, seconds.to_string()));
        }
        if self.status == 401 {
            // RFC 9110: a 401 says how to authenticate.
            answer.insert_header((WWW_AUTHENTICATE, "Bearer realm=\"tarot-archive\""));
        }
        answer.json(self)
    }
}

/// The problem for a store's error: what a client reads of it, with the status HTTP gives it.
pub(crate) fn store_problem(e: StoreError) -> Problem {
    match e {
        StoreError::NotFound(what) => Problem::not_found(what),
        StoreError::Conflict { expected, current } => {
            let mut p =
                Problem::new(StatusCode::CONFLICT, "conflict", format!("expected version {expected}, but the game is at version {current}: reload its events and try again"));
            p.current_version = Some(current);
            p
        }
        StoreError::Invalid(why) => Problem::unprocessable("invalid", why),
        StoreError::Io(why) => Problem::internal(format!("the store failed: {why}")),
        StoreError::Unavailable(why) => Problem::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", format!("the database cannot be reached ({why}); retry in a moment")),
        StoreError::Full(why) => {
            Problem::new(StatusCode::INSUFFICIENT_STORAGE, "storage-full", format!("the archive's disk is full ({why}): nothing was stored, and what was stored before is kept"))
        }
    }
}

/// The problem for a game that gets no verdict: the client's (422) when the record is not a game of
/// its ruleset, the archive's (500, naming the ruleset and the rule) when a rule of the ruleset
/// cannot be worked out on it: nothing the client changes in a legal game would help.
pub(crate) fn replay_problem(e: tarot_engine::ReplayError) -> Problem {
    let mut p = match &e.ruleset_fault {
        None => Problem::unprocessable("unreadable-game", e.to_string()),
        Some(_) => Problem::new(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR, "broken-ruleset", e.to_string()),
    };
    p.event = e.event;
    p
}

/// The problem for a use case's refusal: its detail is the refusal's words.
impl From<crate::usecases::Refusal> for Problem {
    fn from(refusal: crate::usecases::Refusal) -> Problem {
        use crate::usecases::Refusal;
        let detail = refusal.to_string();
        match refusal {
            Refusal::UnknownRuleset { .. } => Problem::unprocessable("unknown-ruleset", detail),
            Refusal::Replay(e) => replay_problem(e),
            Refusal::Store(e) => store_problem(e),
            Refusal::IdsPerEvent { .. } | Refusal::Players(_) => Problem::unprocessable("invalid-body", detail),
            Refusal::GameOver { verdict, .. } => {
                let mut p = Problem::unprocessable("game-over", detail);
                p.event = verdict.violation.as_ref().map(|v| v.event);
                p.violation = verdict.violation.as_ref().and_then(|v| serde_json::to_value(v).ok());
                p
            }
            Refusal::IllegalMove(after) => {
                let mut p = Problem::unprocessable("illegal-move", detail);
                p.event = after.violation.as_ref().map(|v| v.event);
                p.violation = serde_json::to_value(&after.violation).ok();
                p
            }
            Refusal::UnknownGame(_) => Problem::unprocessable("unknown-game", detail),
            Refusal::WrongPlayers { .. } => Problem::unprocessable("wrong-players", detail),
            Refusal::SessionMoved { .. } => Problem::new(StatusCode::CONFLICT, "conflict", detail),
        }
    }
}
