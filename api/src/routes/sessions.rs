//! Sessions: a table's deals in order, and their running score sheet.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use tarot_store::GameId;
use utoipa::ToSchema;

use super::{blocking, Reply};
use crate::body;
use crate::problem::Problem;
use crate::state::AppState;
use crate::usecases;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSession {
    /// What the table calls itself (not blank).
    // The pattern is `tarot_engine::NOT_BLANK`, written out (an attribute takes no constant; the
    // document test compares them).
    #[schema(pattern = "[^\\s\\u0085\\uFEFF]")]
    name: String,
    /// The players of the table.
    #[schema(value_type = crate::schema::Players)]
    players: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct SessionCreated {
    id: String,
}

/// Open a session.
#[utoipa::path(post, path = "/sessions", tag = "sessions",
    description = "A session groups the deals one table plays, in order, and keeps their running score sheet.",
    request_body(content = NewSession, content_type = "application/json", example = json!({"name": "Table 3, 15 August 2008", "players": ["DURAND", "DESPRES", "DUPONT", "DUBOIS"]})),
    responses((status = 201, description = "Opened", body = SessionCreated),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A write token is required (the server runs with --write-token)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Wrong write token", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within 10 seconds", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Fewer than two players, or a body that is not a session", body = Problem, content_type = "application/problem+json"),
        (status = 507, description = "The disk is full: nothing was stored (what was stored before is kept); `type` is `urn:tarot-archive:problem:storage-full`", body = Problem, content_type = "application/problem+json")),
    security((), ("write_token" = [])))]
pub async fn create_session(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> Reply {
    state.authorize(&req)?;
    let body: NewSession = body::json(&req, payload).await?;
    let st = state.clone();
    let id = blocking(move || Ok(usecases::sessions::open(&st.store, &body.name, &body.players)?)).await?;
    Ok(HttpResponse::Created().insert_header(("Location", format!("/sessions/{id}"))).json(SessionCreated { id }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddGame {
    /// The id of a stored game, played by the session's players.
    game: String,
}

/// Add a deal to a session.
#[utoipa::path(post, path = "/sessions/{id}/games", tag = "sessions",
    description = "Adds a stored game to the session, as its next deal. Its players must be the session's players, and it must carry on the pots and the standing the deals before it left (a record's `pots` and `standing`), and be dealt by the player due to deal it where the ruleset says who deals next (`deal { next_dealer }`). A session may hold deals of different rulesets, or of one ruleset with different options: the pots and standing the game carries are asked under its own ruleset (a pot runs on across deals whose rules keep none), and who is due to deal it under the ruleset and options of the deal before it. The match (the sheet's `match`) is read under the first deal's ruleset, and only where every deal up to its end is of that ruleset and its options make the match the same count of deals and target; otherwise the sheet's `not_a_match` says why none is read.",
    params(("id" = String, Path, description = "A session id")),
    request_body(content = AddGame, content_type = "application/json", example = json!({"game": "g1"})),
    responses((status = 200, description = "The session's score sheet", body = crate::sheet::ScoreSheet),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A write token is required (the server runs with --write-token)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Wrong write token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game does not carry on from the session's deals: its `pots` are not what the last deal left in them, or (where the ruleset reads the match so far) its `standing` is not each player's total of the deals before; `does_not_follow` names the pot or player, the amount expected and the amount given. Or (where the ruleset says who deals next) another player dealt it than the one due: `does_not_follow` names the dealer and the player due. Or a deal was added meanwhile.", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within 10 seconds", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No such game, a game already in a session, a game whose players are not the session's, or one that would carry a player's running total past what the archive keeps exact (`type` `urn:tarot-archive:problem:total-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 507, description = "The disk is full: nothing was stored (what was stored before is kept); `type` is `urn:tarot-archive:problem:storage-full`", body = Problem, content_type = "application/problem+json")),
    security((), ("write_token" = [])))]
pub async fn add_to_session(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>, payload: web::Payload) -> Reply {
    state.authorize(&req)?;
    let body: AddGame = body::json(&req, payload).await?;
    let st = state.clone();
    let session = id.into_inner();
    let sheet = blocking(move || {
        // The deal carries on the pots and the standing the session's deals left, or it is refused.
        usecases::sessions::add(&st.store, &session, GameId(body.game), |s, game| crate::sheet::check_next(&st, s, game))?;
        crate::sheet::score_sheet(&st, &session)
    })
    .await?;
    Ok(HttpResponse::Ok().json(sheet))
}

/// A session's score sheet.
#[utoipa::path(get, path = "/sessions/{id}", tag = "sessions",
    description = "The running score sheet, as players keep it: per deal each player's score and the running totals, and whether each deal's scores balance (French Tarot's points and Marolles' marques sum to zero; Basic Tarot counts card points).",
    params(("id" = String, Path, description = "A session id")),
    responses((status = 200, description = "The score sheet", body = crate::sheet::ScoreSheet), (status = 404, description = "No such session", body = Problem, content_type = "application/problem+json")))]
pub async fn session(state: web::Data<AppState>, id: web::Path<String>) -> Reply {
    let st = state.clone();
    let session = id.into_inner();
    let sheet = blocking(move || crate::sheet::score_sheet(&st, &session)).await?;
    Ok(HttpResponse::Ok().json(sheet))
}
