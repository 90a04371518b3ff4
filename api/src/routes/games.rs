//! Games: validated without storing, stored, listed, read, and continued move by move.

use std::collections::BTreeMap;

use actix_web::http::header::ContentType;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use tarot_engine::Event;
use tarot_store::{Filter, GameId};
use utoipa::{IntoParams, ToSchema};

use super::{blocking, page_bound, Reply};
use crate::body;
use crate::docs::example;
use crate::problem::{store_problem, Problem};
use crate::state::AppState;
use crate::usecases;

/// Replay a game without storing it.
#[utoipa::path(post, path = "/validate", tag = "games",
    description = "Replays a complete or partial recorded game and returns its verdict: `valid` (with the outcome, scores and ledger), `invalid` (the first violation: event, player, rule, message, source), `in_progress` (whose turn and the legal moves) or `annulled`. The answer is 200 whatever the verdict; a body that is not JSON is 400, a game that cannot be read (unknown card, player or ruleset) is 422.",
    request_body(content = crate::schema::GameRecord, description = "A recorded game", content_type = "application/json", example = json!(example("worked/seed000-hand1.json"))),
    responses(
        (status = 200, description = "The verdict", body = crate::schema::Verdict, example = json!(crate::docs::verdict_example())),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within 10 seconds", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The body is not a game (a field missing or of the wrong type), or the game cannot be read (an unknown ruleset, card or player, a deal that is not a deal)", body = Problem, content_type = "application/problem+json"),
        (status = 500, description = "A rule of the game's ruleset cannot be worked out on it (a formula that divides by zero, say): the ruleset is broken, not the game; `type` is `urn:tarot-archive:problem:broken-ruleset` and `detail` names the ruleset and the rule", body = Problem, content_type = "application/problem+json")))]
pub async fn validate(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> Reply {
    let rec = body::record(&req, payload).await?;
    let verdict = usecases::referee(&state.registry, &rec)?;
    Ok(HttpResponse::Ok().content_type(ContentType::json()).body(verdict.to_json()))
}

/// A stored game after a write: its id, its version (the number of events) and its verdict.
#[derive(Serialize, ToSchema)]
pub struct StoredGame {
    /// The game's id: `g` and a number in base 36.
    #[schema(example = "g1")]
    id: String,
    version: u64,
    #[schema(value_type = crate::schema::Verdict)]
    verdict: serde_json::Value,
}

/// Store a game.
#[utoipa::path(post, path = "/games", tag = "games",
    description = "Stores a recorded game as a new event stream and returns its id, its version (number of events) and its verdict, with `Location: /games/{id}`. Games that break a rule are stored too (the archive records what was played); games that cannot be read are refused with 422.",
    request_body(content = crate::schema::GameRecord, content_type = "application/json", example = json!(example("worked/fft-deal5.json"))),
    responses(
        (status = 201, description = "Stored", body = StoredGame),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A write token is required", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Wrong write token", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within 10 seconds", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The body is not a game, or the game cannot be read", body = Problem, content_type = "application/problem+json"),
        (status = 500, description = "A rule of the game's ruleset cannot be worked out on it (a formula that divides by zero, say): the ruleset is broken, not the game; `type` is `urn:tarot-archive:problem:broken-ruleset` and `detail` names the ruleset and the rule", body = Problem, content_type = "application/problem+json"),
        (status = 507, description = "The disk is full: nothing was stored (what was stored before is kept); `type` is `urn:tarot-archive:problem:storage-full`", body = Problem, content_type = "application/problem+json")),
    security((), ("write_token" = [])))]
pub async fn create_game(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> Reply {
    state.authorize(&req)?;
    let rec = body::record(&req, payload).await?;
    // Refereed once: the verdict is the projection's, and the game is not replayed again.
    let (import, json) = usecases::create(&state.registry, rec)?;
    // The store's writer thread stores the games posted at about the same time together, with one
    // wait for the disk, and answers each here: no blocking thread per request.
    let (send, receive) = tokio::sync::oneshot::channel();
    state.store.create_later(import, move |result| {
        let _ = send.send(result);
    });
    let appended = receive.await.map_err(|_| Problem::internal("the store's writer thread stopped"))?.map_err(store_problem)?;
    // `StoredGame` as JSON, with the verdict as replay wrote it.
    let mut body = serde_json::to_vec(&serde_json::json!({ "id": appended.game.0, "version": appended.version })).expect("JSON values are written");
    body.pop();
    body.extend_from_slice(b",\"verdict\":");
    body.extend_from_slice(&json);
    body.push(b'}');
    Ok(HttpResponse::Created().insert_header(("Location", format!("/games/{}", appended.game))).content_type(ContentType::json()).body(body))
}

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// Only games of this ruleset (empty: any).
    ruleset: Option<String>,
    /// Only games this player took part in (empty: any).
    player: Option<String>,
    /// Only games with this verdict (empty: any).
    #[param(value_type = Option<crate::schema::StatusFilter>)]
    status: Option<String>,
    /// Skip this many games (default 0; empty: 0).
    #[param(value_type = Option<crate::schema::OffsetParam>)]
    offset: Option<String>,
    /// At most this many games, 1 to 500 (default 50, also when empty; more is read as 500).
    #[param(value_type = Option<crate::schema::LimitParam>)]
    limit: Option<String>,
}

/// A filter from the query string: empty is no filter, as a form sends a box left empty.
fn filter(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}

#[derive(Serialize, ToSchema)]
pub struct GamePage {
    total: usize,
    offset: usize,
    limit: usize,
    games: Vec<crate::schema::GameSummary>,
}

/// List stored games.
#[utoipa::path(get, path = "/games", tag = "games",
    description = "Stored games, oldest first, filtered by ruleset, player and verdict status, a page at a time.",
    params(ListQuery),
    responses((status = 200, description = "A page of games", body = GamePage),
        (status = 400, description = "`offset` or `limit` is not a whole number", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown status, or a limit of 0", body = Problem, content_type = "application/problem+json")))]
pub async fn list_games(state: web::Data<AppState>, query: web::Query<ListQuery>) -> Reply {
    let q = query.into_inner();
    let status = filter(q.status);
    if let Some(s) = &status {
        if !["valid", "invalid", "in_progress", "annulled"].contains(&s.as_str()) {
            return Err(Problem::unprocessable("bad-filter", format!("`status` is one of valid, invalid, in_progress, annulled (or empty, for any), not `{s}`")));
        }
    }
    // Empty is not given, as for the filters: a form (or the README's `offset=&limit=`) sends it.
    let offset = page_bound("offset", q.offset.as_deref())?.unwrap_or(0) as usize;
    let limit = match page_bound("limit", q.limit.as_deref())? {
        Some(0) => return Err(Problem::unprocessable("bad-filter", "`limit` is at least 1")),
        n => n.unwrap_or(50).min(500) as usize,
    };
    let filter = Filter { ruleset: filter(q.ruleset), player: filter(q.player), status };
    let st = state.clone();
    let (games, total) = blocking(move || st.store.list(&filter, offset, limit).map_err(store_problem)).await?;
    Ok(HttpResponse::Ok().json(GamePage { total, offset, limit, games }))
}

#[derive(Serialize, ToSchema)]
pub struct GameView {
    id: String,
    ruleset: String,
    #[schema(value_type = tarot_engine::OptionValues)]
    options: BTreeMap<String, serde_json::Value>,
    players: Vec<String>,
    dealer: String,
    /// What each pot held at the start of the deal, as the record gave it (absent where none).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(value_type = tarot_engine::Pots)]
    pots: BTreeMap<String, i64>,
    /// Each player's running total in the match before the deal, as the record gave it (absent
    /// where none).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(value_type = tarot_engine::Standing)]
    standing: BTreeMap<String, i64>,
    description: Option<String>,
    version: u64,
    /// The ruleset version the verdict was computed with.
    ruleset_version: String,
    /// The verdict, with the outcome, the scores and the ledger of a finished game.
    #[schema(value_type = crate::schema::Verdict)]
    verdict: serde_json::Value,
}

/// One stored game.
#[utoipa::path(get, path = "/games/{id}", tag = "games",
    description = "The game's header (its ruleset, options, players and dealer, and the pots and standing the deal began with) and its verdict: status, the outcome with each player's score, and the ledger of every term and payment with its rule and source.",
    params(("id" = String, Path, description = "A game id from POST /games")),
    responses((status = 200, description = "The game", body = GameView), (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json")))]
pub async fn game(state: web::Data<AppState>, id: web::Path<String>) -> Reply {
    let st = state.clone();
    let id = GameId(id.into_inner());
    let view = blocking(move || {
        let header = st.store.header(&id).map_err(store_problem)?;
        let version = st.store.version(&id).map_err(store_problem)?;
        let projection = match st.store.projection(&id).map_err(store_problem)? {
            Some(p) if p.version == version => p,
            _ => tarot_store::project(&st.store, &st.registry, &id).map_err(store_problem)?,
        };
        Ok(GameView {
            id: id.0,
            ruleset: header.ruleset,
            options: header.options,
            players: header.players,
            dealer: header.dealer,
            pots: header.pots,
            standing: header.standing,
            description: header.description,
            version,
            ruleset_version: projection.ruleset_version,
            verdict: projection.verdict,
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}

#[derive(Serialize, ToSchema)]
pub struct EventsView {
    id: String,
    version: u64,
    events: Vec<crate::schema::StoredEvent>,
}

/// A game's events.
#[utoipa::path(get, path = "/games/{id}/events", tag = "games",
    description = "The game's event stream in order, each with its version in the stream, its global position in the archive and its event id if one was given.",
    params(("id" = String, Path, description = "A game id")),
    responses((status = 200, description = "The events", body = EventsView), (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json")))]
pub async fn events(state: web::Data<AppState>, id: web::Path<String>) -> Reply {
    let st = state.clone();
    let id = GameId(id.into_inner());
    let view = blocking(move || {
        let events = st.store.events(&id).map_err(store_problem)?;
        let version = events.len() as u64;
        Ok(EventsView { id: id.0, version, events })
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Append {
    /// The version (number of events) the client last saw; the append is refused with 409 otherwise.
    expected_version: u64,
    /// The moves to add, in order.
    #[schema(value_type = Vec<crate::schema::Event>)]
    events: Vec<Event>,
    /// Optional ids, one per event, scoped to this game (as an event store scopes them to a stream):
    /// an append retried with the same ids is applied once; the same id in another game is another
    /// event.
    #[serde(default)]
    ids: Option<Vec<String>>,
}

/// Add moves to a game.
#[utoipa::path(post, path = "/games/{id}/events", tag = "games",
    description = "Appends moves to a stored game, atomically and only if `expected_version` is the game's version (409 with `current_version` otherwise). The moves are refereed first: a move that breaks a rule is refused with 422 and the violation, and nothing is stored. The answer is the new verdict: for a game in progress, whose turn it is and the legal moves, so a client can use the archive as a live referee.",
    params(("id" = String, Path, description = "A game id")),
    request_body(content = Append, content_type = "application/json", example = json!(crate::docs::append_example())),
    responses(
        (status = 200, description = "Appended; the new verdict", body = StoredGame),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A write token is required", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Wrong write token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game has moved on", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within 10 seconds", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A move breaks a rule or cannot be read, the game has stopped (finished, broken or annulled), or the body is not an append", body = Problem, content_type = "application/problem+json"),
        (status = 500, description = "A rule of the game's ruleset cannot be worked out on it (a formula that divides by zero, say): the ruleset is broken, not the game; `type` is `urn:tarot-archive:problem:broken-ruleset` and `detail` names the ruleset and the rule", body = Problem, content_type = "application/problem+json"),
        (status = 507, description = "The disk is full: nothing was stored (what was stored before is kept); `type` is `urn:tarot-archive:problem:storage-full`", body = Problem, content_type = "application/problem+json")),
    security((), ("write_token" = [])))]
pub async fn append(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>, payload: web::Payload) -> Reply {
    state.authorize(&req)?;
    let body: Append = body::json(&req, payload).await?;
    let st = state.clone();
    let id = GameId(id.into_inner());
    let game = id.0.clone();
    let (version, verdict) = blocking(move || Ok(usecases::append(&st.store, &st.registry, &id, body.expected_version, body.events, body.ids)?)).await?;
    Ok(HttpResponse::Ok().json(StoredGame { id: game, version, verdict }))
}
