//! The handlers. Each reads its request into engine or store types, makes one call (on the blocking
//! pool when it touches the store, which waits for the disk), and turns the result back into JSON.

use std::collections::BTreeMap;
use std::sync::Arc;

use actix_web::http::header::ContentType;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use tarot_engine::record::{Event, GameRecord};
use tarot_engine::{describe, Status};
use tarot_store::{Filter, GameId, Header, NewEvent, StoreError};
use utoipa::{IntoParams, ToSchema};

use crate::body;
use crate::docs::example;
use crate::limits::{CancelOnDrop, MAX_COMPARED};
use crate::problem::Problem;
use crate::startup::AppState;

type Reply = Result<HttpResponse, Problem>;

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

/// Runs store work on the blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, Problem> + Send + 'static) -> Result<T, Problem> {
    web::block(f).await.map_err(|e| Problem::internal(format!("the worker failed: {e}")))?
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    status: &'static str,
}

/// Liveness.
#[utoipa::path(get, path = "/health", tag = "meta",
    description = "Answers 200 while the server runs; the baseline of the load script.",
    responses((status = 200, description = "The server is up", body = Health)))]
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

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
    rules: describe::Description,
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
    Ok(HttpResponse::Ok().json(RulesetDetail { rules: describe::describe(r, &BTreeMap::new()), files }))
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
    Ok(HttpResponse::Ok().json(tarot_engine::compare::compare(&rules)))
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
    replay(&state, &body.game).map_err(|mut p| {
        p.detail = format!("`game`: {}", p.detail);
        p
    })?;
    let rules = rulesets_to_compare(&state, "rulesets", body.rulesets.iter().map(String::as_str))?;
    Ok(HttpResponse::Ok().json(tarot_engine::compare::compare_game(&rules, &body.game)))
}

/// A query string as its pairs. A list (`ids`, `rulesets`) may be given comma-separated, as the
/// document says (`style: form, explode: false`), or as the parameter repeated, as many generated
/// clients send a list whatever the document says.
struct Params(Vec<(String, String)>);

impl Params {
    fn of(req: &HttpRequest) -> Result<Params, Problem> {
        web::Query::<Vec<(String, String)>>::from_query(req.query_string())
            .map(|q| Params(q.into_inner()))
            .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("the query string cannot be read: {e}")))
    }

    /// Every value of `name`, comma-separated; `None` when it is absent.
    fn list(&self, name: &str) -> Option<String> {
        let values: Vec<&str> = self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect();
        (!values.is_empty()).then(|| values.join(","))
    }

    /// The value of `name` (the last, if given more than once).
    fn one(&self, name: &str) -> Option<String> {
        self.0.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    fn missing(name: &str) -> Problem {
        Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("the query string cannot be read: the parameter `{name}` is required"))
    }
}

/// The rulesets a list of ids names, each known (422 otherwise), each once, in the order first named:
/// a ruleset named again adds no column and no work.
fn known_rulesets<'a, 'i>(state: &'a AppState, ids: impl Iterator<Item = &'i str>) -> Result<Vec<&'a tarot_engine::ir::Ruleset>, Problem> {
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

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatsQuery {
    /// Ruleset ids, comma-separated: `fft-4p,marolles-1637`.
    #[param(value_type = Vec<crate::schema::RulesetId>, style = Form, explode = false, min_items = 1, example = json!(["fft-4p", "marolles-1637"]))]
    pub(crate) rulesets: String,
    /// How many random deals, 1 to 1,000,000, within the budget of a request (about 5 s of the
    /// server's time, estimated from each ruleset's deal: past it, 422). Left out, 100,000, or as many
    /// as the budget allows where that is fewer.
    #[param(value_type = Option<u64>, minimum = 1, maximum = 1000000)]
    pub(crate) deals: Option<String>,
    /// The seed of the random deals (default 1): the same seed gives the same figures.
    #[param(value_type = Option<u64>)]
    pub(crate) seed: Option<String>,
    /// The number of players, for every ruleset (default: each ruleset's smallest table).
    #[param(value_type = Option<u64>, minimum = 2, maximum = 8)]
    pub(crate) players: Option<String>,
    /// Options chosen, comma-separated `NAME=VALUE` (`petit_sec=seed-004`), as a game record's
    /// `options` chooses them (a number or true/false written as text): each applies to every ruleset
    /// asked that has it, the others at their defaults. An option no ruleset asked has, or a value
    /// not among its choices, is refused (400).
    #[param(value_type = Option<Vec<String>>, style = Form, explode = false, example = json!(["petit_sec=seed-004"]))]
    pub(crate) options: Option<String>,
}

/// A whole number from a query parameter (read as text, so a bad one is named); empty is absent, as
/// a form sends a box left empty.
/// A paging or number parameter of the JSON API: unlike a filter, where empty means no filter, an empty
/// one is refused, as the document types it as a whole number (leave it out for the default).
fn paging<'a>(name: &str, value: Option<&'a str>) -> Result<Option<&'a str>, Problem> {
    match value {
        Some(v) if v.trim().is_empty() => Err(Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("`{name}` is empty: give a whole number, or leave it out"))),
        v => Ok(v),
    }
}

pub(crate) fn whole(name: &str, value: Option<&str>) -> Result<Option<u64>, Problem> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        // Whole numbers up to i64's largest, as the document says (`int64`).
        Some(v) => match v.parse::<u64>() {
            Ok(n) if n <= i64::MAX as u64 => Ok(Some(n)),
            Ok(_) => Err(Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("`{name}` is at most {}, not `{v}`", i64::MAX))),
            Err(_) => Err(Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("`{name}` is a whole number, not `{v}`"))),
        },
    }
}

/// A request for deal statistics, read and checked: the rulesets by id, each known.
pub(crate) struct StatsAsk {
    pub ids: Vec<String>,
    pub deals: u64,
    pub seed: u64,
    pub players: Option<usize>,
    /// For each ruleset, in the order of `ids`, the options chosen that it has.
    pub options: Vec<BTreeMap<String, serde_json::Value>>,
}

impl StatsQuery {
    pub(crate) fn ask(&self, state: &AppState) -> Result<StatsAsk, Problem> {
        let asked = whole("deals", self.deals.as_deref())?;
        if let Some(deals) = asked {
            tarot_engine::stats::check_deals(deals).map_err(|e| Problem::unprocessable("bad-deals", format!("`deals`: {e}")))?;
        }
        let ids: Vec<String> = known_rulesets(state, self.rulesets.split(','))?.iter().map(|r| r.id.clone()).collect();
        if ids.is_empty() {
            return Err(Problem::unprocessable("too-few-rulesets", "`rulesets` names no ruleset; name at least one, e.g. rulesets=fft-4p,marolles-1637"));
        }
        let players = whole("players", self.players.as_deref())?.map(|n| n as usize);
        let options = stats_options(state, &ids, self.options.as_deref().unwrap_or(""))?;
        let mut ask = StatsAsk { ids, deals: 0, seed: whole("seed", self.seed.as_deref())?.unwrap_or(1), players, options };
        let per_deal = ask.cost_per_deal(state)?;
        let budget = crate::limits::STATS_BUDGET_NS;
        // Left out, the deals are as many as the budget allows, up to the default: the home page's
        // link, which names no number, is answered within the budget whatever the rulesets.
        ask.deals = asked.unwrap_or((budget / per_deal.max(1)).clamp(1, DEFAULT_DEALS));
        if per_deal.saturating_mul(ask.deals) > budget {
            let seconds = |ns: u64| format!("{:.1}", ns as f64 / 1e9);
            let fit = budget / per_deal.max(1);
            let how = if fit == 0 { "ask for fewer rulesets at a time".to_string() } else { format!("ask for at most {fit} deals, or for fewer rulesets at a time") };
            return Err(Problem::unprocessable(
                "over-budget",
                format!(
                    "{} deals of {} would take about {} s of the server's time, and a request may take {} s: {how}",
                    ask.deals,
                    ask.ids.join(", "),
                    seconds(per_deal.saturating_mul(ask.deals)),
                    seconds(budget)
                ),
            ));
        }
        Ok(ask)
    }
}

/// The deals of a request of statistics that does not say how many, where the budget allows them.
pub(crate) const DEFAULT_DEALS: u64 = 100_000;

impl StatsAsk {
    /// The estimated time of one deal of every ruleset asked, in nanoseconds (see
    /// [`crate::limits::deal_cost_ns`]); 422 for a table a ruleset cannot deal.
    fn cost_per_deal(&self, state: &AppState) -> Result<u64, Problem> {
        let mut per_deal = 0u64;
        for (id, options) in self.ids.iter().zip(&self.options) {
            let rules = state.registry.get(id).expect("a known ruleset");
            let work = tarot_engine::stats::deal_work(rules, self.players.unwrap_or(rules.players.0), options).map_err(|e| Problem::unprocessable("cannot-deal", e.to_string()))?;
            per_deal = per_deal.saturating_add(crate::limits::deal_cost_ns(work));
        }
        Ok(per_deal)
    }

    /// The request as the cache knows it: rulesets once each in order, the numbers, and each
    /// ruleset's options as read.
    fn key(&self) -> String {
        format!("{:?}|{}|{}|{:?}|{}", self.ids, self.deals, self.seed, self.players, serde_json::to_string(&self.options).unwrap_or_default())
    }
}

/// The options of a statistics query (`NAME=VALUE,...`) for each ruleset asked: an option applies to
/// every ruleset that has it; one that none has, a value not among its choices, or a pair without `=`
/// is a 422 (the query's shape is the document's, a string: what it names is what is wrong).
fn stats_options(state: &AppState, ids: &[String], text: &str) -> Result<Vec<BTreeMap<String, serde_json::Value>>, Problem> {
    let bad = |detail: String| Problem::unprocessable("bad-option", detail);
    let mut given: Vec<(String, String)> = vec![];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').ok_or_else(|| bad(format!("`options` takes NAME=VALUE, comma-separated, not `{part}`")))?;
        given.push((name.trim().to_string(), value.trim().to_string()));
    }
    let rules: Vec<&tarot_engine::ir::Ruleset> = ids.iter().map(|id| state.registry.get(id).expect("a known ruleset")).collect();
    for (name, _) in &given {
        if !rules.iter().any(|r| r.options.iter().any(|o| &o.name == name)) {
            let known: std::collections::BTreeSet<&str> = rules.iter().flat_map(|r| r.options.iter().map(|o| o.name.as_str())).collect();
            let known = if known.is_empty() { "none".to_string() } else { known.into_iter().collect::<Vec<_>>().join(", ") };
            return Err(bad(format!("no ruleset asked has an option `{name}`; their options are: {known}")));
        }
    }
    rules
        .iter()
        .map(|r| {
            let own: Vec<(String, String)> = given.iter().filter(|(n, _)| r.options.iter().any(|o| &o.name == n)).cloned().collect();
            tarot_engine::stats::read_options(r, &own).map_err(bad)
        })
        .collect()
}

/// Computes the statistics on the blocking pool (a million deals of a ruleset whose declarations
/// need the interpreter take seconds), or answers them from the cache. At most a few at once (503
/// past them), and given up when the client goes: actix then drops this future, and with it the
/// flag the deals read.
pub(crate) async fn deal_statistics(state: &web::Data<AppState>, ask: StatsAsk) -> Result<Arc<Vec<tarot_engine::stats::DealStats>>, Problem> {
    let key = ask.key();
    if let Some(known) = state.limits.cached_stats(&key) {
        return Ok(known);
    }
    let place = state.limits.stats_place().await?;
    let gone = CancelOnDrop::new();
    let cancelled = gone.flag();
    let (registry, StatsAsk { ids, deals, seed, players, options }) = (state.registry.clone(), ask);
    let all = blocking(move || {
        // The place is given back when the deals stop, not when the answer goes.
        let _place = place;
        ids.iter()
            .zip(&options)
            .map(|(id, options)| {
                let rules = registry.get(id).expect("a known ruleset");
                let n = players.unwrap_or(rules.players.0);
                tarot_engine::stats::deal_stats_until(rules, n, options, deals, seed, &cancelled)
                    .map_err(|e| Problem::unprocessable("cannot-deal", e.to_string()))?
                    .ok_or_else(|| Problem::new(StatusCode::SERVICE_UNAVAILABLE, "gone", "the client went away"))
            })
            .collect::<Result<Vec<_>, Problem>>()
    })
    .await?;
    drop(gone);
    let all = Arc::new(all);
    state.limits.remember_stats(key, all.clone());
    Ok(all)
}

/// Deal statistics.
#[utoipa::path(get, path = "/stats", tag = "rulesets",
    description = "For each ruleset, over N seeded random deals: how many deals each annulment strikes, how many hands could make each declaration (a poignée, a Marolles declaration), and how many hands hold 0, 1, 2... cards of each named card class (oudlers). These depend on the deal alone: no card is played, so nothing that depends on the play is counted. The same seed gives the same figures.",
    params(StatsQuery),
    responses((status = 200, description = "The statistics, one entry per ruleset, in the order asked for", body = Vec<crate::schema::DealStats>),
        (status = 400, description = "The query string cannot be read", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown ruleset, a number of deals out of range, a table size the ruleset cannot deal, `options` naming an option no ruleset asked has, a value not among an option's choices, or a pair without `=`; or statistics that would cost more than the budget of a request (the problem says the budget and how many deals fit in it)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The server is computing as many statistics as it takes at once: ask again after `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before asking again")))))]
pub async fn stats(state: web::Data<AppState>, req: HttpRequest) -> Reply {
    let query = Params::of(&req)?;
    // The document types these as whole numbers: here an empty one is refused (the statistics page's
    // form, which sends a box left empty, reads it as absent).
    let number = |name: &str| paging(name, query.one(name).as_deref()).map(|v| v.map(str::to_string));
    let query = StatsQuery {
        rulesets: query.list("rulesets").ok_or_else(|| Params::missing("rulesets"))?,
        deals: number("deals")?,
        seed: number("seed")?,
        players: number("players")?,
        options: query.list("options"),
    };
    let ask = query.ask(&state)?;
    Ok(HttpResponse::Ok().json(&*deal_statistics(&state, ask).await?))
}

/// Replays a record under its ruleset; a record that is not a game of it is a 422 problem.
fn replay(state: &AppState, rec: &GameRecord) -> Result<tarot_engine::Verdict, Problem> {
    let rules = state.registry.get(&rec.ruleset).ok_or_else(|| {
        let known: Vec<&str> = state.registry.ids().collect();
        Problem::unprocessable("unknown-ruleset", format!("unknown ruleset `{}`; known: {}", rec.ruleset, known.join(", ")))
    })?;
    tarot_engine::replay(rules, rec).map_err(replay_problem)
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
    let verdict = replay(&state, &rec)?;
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
    let verdict = replay(&state, &rec)?;
    // The verdict just computed is the projection's: the game is not replayed a second time.
    let rules = state.registry.get(&rec.ruleset).expect("a ruleset the game was replayed with");
    let verdict = tarot_store::Refereed::of(rules, &verdict).map_err(store_problem)?;
    let json = verdict.json.clone();
    let header = Header::of(&rec);
    let events = rec.events.into_iter().map(|event| NewEvent { id: None, event }).collect();
    // The store's writer thread stores the games posted at about the same time together, with one
    // wait for the disk, and answers each here: no blocking thread per request.
    let (send, receive) = tokio::sync::oneshot::channel();
    state.store.create_later(tarot_store::Import { header, events, verdict }, move |result| {
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
    #[param(value_type = Option<u64>)]
    offset: Option<String>,
    /// At most this many games, 1 to 500 (default 50, also when empty; more is read as 500).
    #[param(value_type = Option<u64>, minimum = 1)]
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
    #[schema(value_type = Vec<crate::schema::GameSummary>)]
    games: Vec<tarot_store::Summary>,
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
    let offset = whole("offset", q.offset.as_deref())?.unwrap_or(0) as usize;
    let limit = match whole("limit", q.limit.as_deref())? {
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
    #[schema(value_type = Object)]
    options: BTreeMap<String, serde_json::Value>,
    players: Vec<String>,
    dealer: String,
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
    description = "The game's header and its verdict: status, the outcome with each player's score, and the ledger of every term and payment with its rule and source.",
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
    #[schema(value_type = Vec<crate::schema::StoredEvent>)]
    events: Vec<tarot_store::StoredEvent>,
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
    if let Some(ids) = &body.ids {
        if ids.len() != body.events.len() {
            return Err(Problem::unprocessable("invalid-body", format!("{} ids for {} events: give one id per event, or none", ids.len(), body.events.len())));
        }
    }
    let st = state.clone();
    let id = GameId(id.into_inner());
    let game = id.0.clone();
    let (version, verdict) = blocking(move || {
        let mut record = st.store.record(&id).map_err(store_problem)?;
        let stored = record.events.len() as u64;
        // Every move stored must have been refereed after exactly the events it is stored after.
        // The moves are refereed against the `stored` events just read, and the store appends them
        // only if the game still has exactly those (it checks under its lock or in its
        // transaction). Any other expected version is never refereed, so it must never be stored:
        // one past the events read could become the game's version while this runs, so it is
        // refused here; one before them cannot (a stream only grows), so the store is asked only
        // whether it is the retry of an append it stored, and otherwise refuses it.
        if body.expected_version > stored {
            return Err(store_problem(StoreError::Conflict { expected: body.expected_version, current: stored }));
        }
        if body.expected_version == stored {
            // Referee the moves before storing them: what is stored stays a legal game, and a game
            // that has stopped (finished, broken or annulled) takes no more moves.
            let before = replay(&st, &record)?;
            if before.status != Status::InProgress && !body.events.is_empty() {
                return Err(game_over(&before, stored as usize));
            }
            record.events.extend(body.events.iter().cloned());
            let after = replay(&st, &record)?;
            if after.status == Status::Invalid {
                let mut p = Problem::unprocessable("illegal-move", after.violation.as_ref().map(|v| v.message.clone()).unwrap_or_default());
                p.event = after.violation.as_ref().map(|v| v.event);
                p.violation = serde_json::to_value(&after.violation).ok();
                return Err(p);
            }
        }
        let ids = body.ids.unwrap_or_default();
        let events = body.events.into_iter().enumerate().map(|(i, event)| NewEvent { id: ids.get(i).cloned(), event }).collect();
        let appended = st.store.append(&id, body.expected_version, events).map_err(store_problem)?;
        let projection = tarot_store::project(&st.store, &st.registry, &id).map_err(store_problem)?;
        Ok((appended.version, projection.verdict))
    })
    .await?;
    Ok(HttpResponse::Ok().json(StoredGame { id: game, version, verdict }))
}

/// The refusal of a move appended to a game that has stopped: where it stopped and why.
fn game_over(verdict: &tarot_engine::Verdict, events: usize) -> Problem {
    let why = match (&verdict.violation, &verdict.annulled) {
        (Some(v), _) => format!("it stopped at event {} on a broken rule: {} (rule {})", v.event, v.message, v.rule),
        (None, Some(a)) => format!("the deal was annulled: {} (rule {})", a.reason, a.rule),
        _ => format!("it is finished after its {events} events, and scored"),
    };
    let mut p = Problem::unprocessable("game-over", format!("no move can be added to this game: {why}"));
    p.event = verdict.violation.as_ref().map(|v| v.event);
    p.violation = verdict.violation.as_ref().and_then(|v| serde_json::to_value(v).ok());
    p
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSession {
    /// What the table calls itself (not blank).
    #[schema(pattern = "\\S")]
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
    if !(2..=8).contains(&body.players.len()) {
        return Err(Problem::unprocessable("invalid-body", format!("a session has two to eight players, not {}", body.players.len())));
    }
    let st = state.clone();
    let id = blocking(move || st.store.create_session(&body.name, &body.players).map_err(store_problem)).await?;
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
    description = "Adds a stored game to the session, as its next deal. Its players must be the session's players, and it must carry on the pots and the standing the deals before it left (a record's `pots` and `standing`).",
    params(("id" = String, Path, description = "A session id")),
    request_body(content = AddGame, content_type = "application/json", example = json!({"game": "g1"})),
    responses((status = 200, description = "The session's score sheet", body = crate::sheet::ScoreSheet),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A write token is required (the server runs with --write-token)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Wrong write token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game does not carry on from the session's deals: its `pots` are not what the last deal left in them, or (where the ruleset reads the match so far) its `standing` is not each player's total of the deals before; `does_not_follow` names the pot or player, the amount expected and the amount given. Or a deal was added meanwhile.", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within 10 seconds", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No such game, a game already in a session, or a game whose players are not the session's", body = Problem, content_type = "application/problem+json"),
        (status = 507, description = "The disk is full: nothing was stored (what was stored before is kept); `type` is `urn:tarot-archive:problem:storage-full`", body = Problem, content_type = "application/problem+json")),
    security((), ("write_token" = [])))]
pub async fn add_to_session(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>, payload: web::Payload) -> Reply {
    state.authorize(&req)?;
    let body: AddGame = body::json(&req, payload).await?;
    let st = state.clone();
    let session = id.into_inner();
    let sheet = blocking(move || {
        let s = st.store.session(&session).map_err(store_problem)?;
        let game = GameId(body.game);
        // The session is the resource of the path (404); the game is named in the body (422).
        let header = st.store.header(&game).map_err(|e| match e {
            StoreError::NotFound(_) => Problem::unprocessable("unknown-game", format!("there is no game `{}` to add; store it first with POST /games", game.0)),
            e => store_problem(e),
        })?;
        let mut theirs = header.players.clone();
        let mut ours = s.players.clone();
        theirs.sort();
        ours.sort();
        if theirs != ours {
            return Err(Problem::unprocessable("wrong-players", format!("game {} is played by {}, the session by {}", game.0, header.players.join(", "), s.players.join(", "))));
        }
        // The deal carries on the pots and the standing the session's deals left, or it is refused;
        // it is added only after the deals it was checked against (a deal added meanwhile: 409).
        crate::sheet::check_next(&st, &s, &game)?;
        st.store.add_to_session(&session, &game, Some(s.games.len())).map_err(|e| match e {
            StoreError::Conflict { expected, current } => Problem::new(
                StatusCode::CONFLICT,
                "conflict",
                format!("session {session} held {expected} deal(s) when game {} was checked against them, and now holds {current}: add it again", game.0),
            ),
            e => store_problem(e),
        })?;
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
