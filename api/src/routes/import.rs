//! `POST /games:import`: many recorded games in one request, as newline-delimited JSON (one game per
//! line). The body is read as it arrives, a batch of lines at a time: each batch is refereed on
//! every core and stored, with each game's verdict, as one transaction that is on disk before the
//! next batch is read (`crate::usecases::import`, which the command line's import runs too). The answer reports every line, in order: the game's id, version, status and
//! whether it is new, or why the line was refused. A game already stored (by an earlier import of
//! the same record) is not stored again, so a retried import is harmless.

use actix_web::http::header::CONTENT_TYPE;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use serde_json::json;

use super::blocking;
use crate::docs::ndjson_example;
use crate::limits::{BATCH_BYTES, BODY_TIMEOUT};
use crate::problem::{store_problem, Problem};
use crate::state::AppState;
use crate::usecases;
use crate::usecases::import::{Line, Outcome};

/// Lines refereed and stored together, in one transaction (fewer when they pass [`BATCH_BYTES`]).
const BATCH: usize = 1000;

/// The longest line accepted: one recorded game, as `POST /games` bounds its body.
const LINE_LIMIT: usize = crate::body::BODY_LIMIT;

/// Store many games.
#[utoipa::path(post, path = "/games:import", tag = "games",
    description = "Stores many recorded games, one JSON record per line (`application/x-ndjson`). Each game is refereed and stored with its verdict, as `POST /games` stores one; the lines are stored a batch at a time, each batch atomically and on disk before the answer. The answer has one line per input line, in order: `{\"line\", \"id\", \"version\", \"status\", \"new\"}`, or `{\"line\", \"error\"}` for a line that is not a readable game (nothing is stored for it). A record already stored is not stored again (`new: false`, with the id it has), so an import can be retried safely. The answer is streamed, each batch's lines once the batch is on disk; a failure after the first batch ends it with a line `{\"error\", \"status\"}`, the batches before it being stored (retry the import: nothing is stored twice).",
    request_body(description = "One recorded game per line (`application/x-ndjson`)",
        content((inline(crate::schema::GameLines) = "application/x-ndjson", example = json!(ndjson_example())))),
    responses(
        (status = 200, description = "One line per input line, each an `ImportLine`", body = inline(crate::schema::ImportLines), content_type = "application/x-ndjson"),
        (status = 401, description = "A write token is required", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Wrong write token", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "No whole line of the body came within 10 seconds", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "A line is too long", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not newline-delimited JSON", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The database cannot be reached, or the server is storing as many imports as it takes at once (then with `Retry-After`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before sending the import again, when the server is busy"))),
        (status = 507, description = "The disk is full: nothing was stored (what was stored before is kept); `type` is `urn:tarot-archive:problem:storage-full`", body = Problem, content_type = "application/problem+json")),
    security((), ("write_token" = [])))]
pub async fn import_games(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> Result<HttpResponse, Problem> {
    state.authorize(&req)?;
    let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mime = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if !["application/x-ndjson", "application/jsonl", "application/json"].contains(&mime.as_str()) {
        return Err(Problem::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "the body must be one JSON game per line (`Content-Type: application/x-ndjson`)"));
    }
    // Held until the answer's last line is sent: the permit goes with the reader into the stream.
    let place = state.limits.import_place()?;
    let mut reader = Lines { payload, pending: Vec::new(), line: 0, ended: false, done: false, _place: place };
    // The first batch is stored before the answer starts, so that a body of one batch (or a
    // database that cannot be reached) gets a plain answer with its own status.
    let Some(first) = reader.next_batch().await? else { return Ok(HttpResponse::Ok().content_type("application/x-ndjson").finish()) };
    let first = store_batch(&state, first).await?;
    let Some(second) = reader.next_batch().await? else { return Ok(HttpResponse::Ok().content_type("application/x-ndjson").body(first)) };
    // More than one batch: the answer is streamed, each batch's lines sent once it is on disk. A
    // failure from here on ends the answer with a line `{"error", "status"}`.
    let rest = futures_util::stream::unfold((reader, state, Some(second)), |(mut reader, state, next)| async move {
        if reader.done {
            return None;
        }
        let batch = match next {
            Some(batch) => Ok(batch),
            None => reader.next_batch().await.and_then(|b| b.ok_or_else(|| Problem::new(StatusCode::OK, "end", ""))),
        };
        let lines = match batch {
            Ok(batch) => store_batch(&state, batch).await,
            Err(end) if end.status == 200 => return None,
            Err(problem) => Err(problem),
        };
        let bytes = lines.unwrap_or_else(|problem| {
            reader.done = true;
            let mut line = serde_json::to_vec(&json!({ "error": problem.detail, "status": problem.status })).expect("JSON values are written");
            line.push(b'\n');
            line
        });
        Some((Ok::<_, actix_web::Error>(web::Bytes::from(bytes)), (reader, state, None)))
    });
    let body = futures_util::stream::once(async move { Ok::<_, actix_web::Error>(web::Bytes::from(first)) }).chain(rest);
    Ok(HttpResponse::Ok().content_type("application/x-ndjson").streaming(body))
}

/// The request body, a line at a time.
struct Lines {
    payload: web::Payload,
    /// What has been read of the line being read.
    pending: Vec<u8>,
    /// The number of the last line taken.
    line: usize,
    /// The body has been read to its end.
    ended: bool,
    /// The answer has ended (after a failure).
    done: bool,
    /// This import's place among those at once, given back when the answer is over.
    _place: tokio::sync::OwnedSemaphorePermit,
}

impl Lines {
    /// The next lines that are not blank, with their numbers, up to a batch (1,000 lines, or fewer
    /// once they pass [`BATCH_BYTES`], or the lines that came within [`BODY_TIMEOUT`]); `None` at
    /// the end. A body that brings no whole line within the deadline is 408: a client sending a
    /// byte a second holds no import open.
    async fn next_batch(&mut self) -> Result<Option<Vec<(usize, Vec<u8>)>>, Problem> {
        let mut batch = Vec::with_capacity(BATCH);
        let mut bytes = 0;
        let deadline = actix_web::rt::time::Instant::now() + BODY_TIMEOUT;
        loop {
            let mut start = 0;
            while batch.len() < BATCH && bytes < BATCH_BYTES {
                let Some(end) = self.pending[start..].iter().position(|&b| b == b'\n') else { break };
                self.line += 1;
                let text = &self.pending[start..start + end];
                if !text.iter().all(u8::is_ascii_whitespace) {
                    batch.push((self.line, text.to_vec()));
                    bytes += end;
                }
                start += end + 1;
            }
            self.pending.drain(..start);
            if batch.len() == BATCH || bytes >= BATCH_BYTES {
                return Ok(Some(batch));
            }
            if self.pending.len() > LINE_LIMIT {
                return Err(Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large", format!("line {} is longer than the limit of {LINE_LIMIT} bytes", self.line + 1)));
            }
            if self.ended {
                if !self.pending.iter().all(u8::is_ascii_whitespace) {
                    self.line += 1;
                    batch.push((self.line, std::mem::take(&mut self.pending)));
                }
                self.pending.clear();
                return Ok((!batch.is_empty()).then_some(batch));
            }
            let Ok(next) = actix_web::rt::time::timeout(deadline.saturating_duration_since(actix_web::rt::time::Instant::now()), self.payload.next()).await else {
                if !batch.is_empty() {
                    return Ok(Some(batch));
                }
                let mut p = crate::body::too_slow();
                p.detail = format!("no whole line of the body came within {} seconds after line {}: send it at once", BODY_TIMEOUT.as_secs(), self.line);
                return Err(p);
            };
            match next {
                Some(chunk) => {
                    let chunk = chunk.map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "unreadable-body", format!("the body could not be read after line {}: {e}", self.line)))?;
                    self.pending.extend_from_slice(&chunk);
                }
                None => self.ended = true,
            }
        }
    }
}

/// Referees and stores one batch (the import use case, given one batch); its lines of the answer.
async fn store_batch(state: &web::Data<AppState>, batch: Vec<(usize, Vec<u8>)>) -> Result<Vec<u8>, Problem> {
    let st = state.clone();
    let first = batch.first().map_or(0, |(line, _)| *line);
    blocking(move || {
        let lines: Vec<Line<usize>> = batch.into_iter().map(|(line, text)| Line { source: line, first_line: line, text }).collect();
        let mut out = Vec::new();
        let answer = &mut out;
        let report = |games: Vec<(usize, Outcome)>, _bytes, _counts| {
            for (line, outcome) in games {
                let reported = match outcome {
                    Outcome::Stored { appended, new, status } => json!({ "line": line, "id": appended.game, "version": appended.version, "status": status, "new": new }),
                    Outcome::Refused(error) => json!({ "line": line, "error": error }),
                };
                serde_json::to_writer(&mut *answer, &reported).expect("JSON values are written");
                answer.push(b'\n');
            }
            Ok(())
        };
        let read = |send: &mut dyn FnMut(Vec<Line<usize>>) -> bool| {
            send(lines);
            Ok(())
        };
        usecases::import::import(&st.store, &st.registry, read, report).map_err(|failure| match failure.store_error() {
            Ok(e) => {
                let mut p = store_problem(e);
                p.detail = format!("{} (the lines before line {first} are stored; a retry stores nothing twice)", p.detail);
                p
            }
            Err(e) => Problem::internal(e),
        })?;
        Ok(out)
    })
    .await
}
