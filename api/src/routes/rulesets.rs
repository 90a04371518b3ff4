//! The rulesets: listed, one in full, side by side, and one game under several.

use std::collections::BTreeMap;

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use tarot_engine::GameRecord;
use tarot_engine::{describe, Description};
use utoipa::{IntoParams, ToSchema};

use super::{Params, Reply};
use crate::body;
use crate::limits::MAX_COMPARED;
use crate::problem::Problem;
use crate::state::AppState;
use crate::usecases;

#[derive(Serialize, ToSchema)]
pub struct RulesetSummary {
    id: String,
    title: String,
    /// e.g. `4` or `2-6`
    players: String,
    /// This ruleset, then the ones it extends.
    chain: Vec<String>,
    version: String,
    /// The family of games (`French`, `Italian`, `Swiss`, `Austrian`, `German`), where the rule file
    /// says it.
    family: Option<String>,
    /// The year its source dates the rules from, where the source dates them.
    dated: Option<u16>,
    /// The century of `dated` (1637 is in the 17th).
    century: Option<u16>,
}

/// List the rulesets.
#[utoipa::path(get, path = "/rulesets", tag = "rulesets",
    description = "Every ruleset the archive knows, with its players, its chain of parents, its version (a hash of its rule files), and its family and date where the rule file gives them.",
    responses((status = 200, description = "The rulesets", body = Vec<RulesetSummary>)))]
pub async fn rulesets(state: web::Data<AppState>) -> HttpResponse {
    let list: Vec<RulesetSummary> = state
        .registry
        .all()
        .map(|r| RulesetSummary {
            id: r.id.clone(),
            title: r.title.clone(),
            players: if r.players.0 == r.players.1 { r.players.0.to_string() } else { format!("{}-{}", r.players.0, r.players.1) },
            chain: r.chain.clone(),
            version: r.version.clone(),
            family: r.family.as_ref().map(|(f, _)| f.clone()),
            dated: r.dated.as_ref().map(|(y, _)| *y),
            century: r.century(),
        })
        .collect();
    HttpResponse::Ok().json(list)
}

#[derive(Serialize, ToSchema)]
pub struct RulesetDetail {
    /// The resolved rules clause by clause, with options in force and sources.
    #[schema(value_type = crate::schema::RulesetDescription)]
    rules: Description,
    /// The text of every rule file of the chain, this ruleset's first.
    files: Vec<RuleFileText>,
}

#[derive(Serialize, ToSchema)]
pub struct RuleFileText {
    path: String,
    text: String,
}

/// One ruleset in full.
#[utoipa::path(get, path = "/rulesets/{id}", tag = "rulesets",
    description = "The resolved rules of a ruleset (each clause with its rule id, where it is written and its source), its options and their defaults, its sources, and the text of its rule files.",
    params(("id" = String, Path, description = "A ruleset id, e.g. `fft-4p`")),
    responses((status = 200, description = "The ruleset", body = RulesetDetail), (status = 404, description = "No such ruleset", body = Problem, content_type = "application/problem+json")))]
pub async fn ruleset(state: web::Data<AppState>, id: web::Path<String>) -> Reply {
    let r = state.registry.get(&id).ok_or_else(|| Problem::not_found(format!("no ruleset `{id}`; see GET /rulesets")))?;
    let files = r.texts.iter().map(|(path, text)| RuleFileText { path: path.clone(), text: text.clone() }).collect();
    Ok(HttpResponse::Ok().json(RulesetDetail { rules: describe(r, &BTreeMap::new()), files }))
}

/// The query of `GET /rulesets/compare`, for the document (`Params` reads it).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct CompareQuery {
    /// At least two ruleset ids, comma-separated: `fft-4p,marolles-1637,basic`.
    #[param(value_type = Vec<crate::schema::RulesetId>, style = Form, explode = false, min_items = 2, example = json!(["fft-4p", "marolles-1637"]))]
    ids: String,
}

/// Rulesets side by side.
#[utoipa::path(get, path = "/rulesets/compare", tag = "rulesets",
    description = "One row per aspect of the game (pack and ranks, card classes, counting, players and deal, annulments, bidding and contracts, dog and discard, declarations and bonuses, trick obligations, the Excuse, payments during play, scoring), one column per ruleset with its clauses and their sources, and `differs` on the rows where the rulesets do not say the same. Derived from the compiled rules.",
    params(CompareQuery),
    responses((status = 200, description = "The comparison", body = crate::schema::Comparison),
        (status = 400, description = "No `ids` in the query", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown ruleset, or fewer than two rulesets or more than 16 (each counted once)", body = Problem, content_type = "application/problem+json")))]
pub async fn compare(state: web::Data<AppState>, req: HttpRequest) -> Reply {
    let query = Params::of(&req)?;
    let ids = query.list("ids").ok_or_else(|| Params::missing("ids"))?;
    let rules = rulesets_to_compare(&state, "ids", ids.split(','))?;
    Ok(HttpResponse::Ok().json(tarot_engine::compare(&rules)))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareGame {
    /// A recorded game; its own `ruleset` is replaced by each of `rulesets` in turn.
    #[schema(value_type = crate::schema::GameRecord)]
    game: GameRecord,
    /// At least two ruleset ids.
    #[schema(value_type = Vec<crate::schema::RulesetId>, min_items = 2, example = json!(["fft-4p", "queen-of-tarot"]))]
    rulesets: Vec<String>,
}

/// One game under several rulesets.
#[utoipa::path(post, path = "/compare", tag = "rulesets",
    description = "Replays one recorded game under each of the given rulesets: each verdict and its scores side by side, and where legality first diverges (\"event 18: legal under X, which has no play.must.overtrump; illegal under fft-4p (...)\"). A ruleset under which the game cannot be replayed at all (another pack, another number of players) says why instead.",
    request_body(content = CompareGame, content_type = "application/json", example = json!(crate::docs::compare_example())),
    responses((status = 200, description = "The verdicts side by side", body = crate::schema::GameComparison),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within 10 seconds", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A body that is not a comparison, an unknown ruleset, or fewer than two rulesets or more than 16 (each counted once)", body = Problem, content_type = "application/problem+json")))]
pub async fn compare_game(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> Reply {
    let body: CompareGame = body::json(&req, payload).await?;
    // The game is a game of its own ruleset (which each of `rulesets` then replaces): one that cannot
    // be read under it (an unknown card, a table of the wrong size) is refused, as /validate does.
    usecases::referee(&state.registry, &body.game).map_err(Problem::from).map_err(|mut p| {
        p.detail = format!("`game`: {}", p.detail);
        p
    })?;
    let rules = rulesets_to_compare(&state, "rulesets", body.rulesets.iter().map(String::as_str))?;
    Ok(HttpResponse::Ok().json(tarot_engine::compare_game(&rules, &body.game)))
}

/// The rulesets a list of ids names, each known (422 otherwise), each once, in the order first named:
/// a ruleset named again adds no column and no work.
pub(crate) fn known_rulesets<'a, 'i>(state: &'a AppState, ids: impl Iterator<Item = &'i str>) -> Result<Vec<&'a tarot_engine::ir::Ruleset>, Problem> {
    let mut out: Vec<&tarot_engine::ir::Ruleset> = vec![];
    for id in ids.map(str::trim).filter(|s| !s.is_empty()) {
        let rules = state.registry.get(id).ok_or_else(|| Problem::unprocessable("unknown-ruleset", format!("unknown ruleset `{id}`; see GET /rulesets")))?;
        if !out.iter().any(|r| r.id == rules.id) {
            out.push(rules);
        }
    }
    Ok(out)
}

/// The rulesets a comparison names in `field`: two to [`MAX_COMPARED`], each known (422 otherwise).
pub(crate) fn rulesets_to_compare<'a, 'i>(state: &'a AppState, field: &str, ids: impl Iterator<Item = &'i str>) -> Result<Vec<&'a tarot_engine::ir::Ruleset>, Problem> {
    let out = known_rulesets(state, ids)?;
    if out.len() > MAX_COMPARED {
        return Err(Problem::unprocessable(
            "too-many-rulesets",
            format!("`{field}` names {} rulesets; a comparison takes at most {MAX_COMPARED}: compare fewer at a time", out.len()),
        ));
    }
    if out.len() < 2 {
        let named = out.first().map_or("none".to_string(), |r| format!("only {}", r.id));
        return Err(Problem::unprocessable("too-few-rulesets", format!("`{field}` names {named}; give at least two rulesets, e.g. fft-4p,marolles-1637")));
    }
    Ok(out)
}
