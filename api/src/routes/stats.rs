//! Deal statistics, computed on the blocking pool within a budget, and kept in a small cache.

use std::collections::BTreeMap;
use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::rulesets::known_rulesets;
use super::{blocking, whole, Params, Reply};
use crate::limits::CancelOnDrop;
use crate::problem::Problem;
use crate::state::AppState;

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
    /// `options` chooses them (a number written as text): each applies to every ruleset
    /// asked that has it, the others at their defaults. An option no ruleset asked has, or a value
    /// not among its choices, is refused (400).
    #[param(value_type = Option<Vec<String>>, style = Form, explode = false, example = json!(["petit_sec=seed-004"]))]
    pub(crate) options: Option<String>,
}

/// A paging or number parameter of the JSON API: unlike a filter, where empty means no filter, an empty
/// one is refused, as the document types it as a whole number (leave it out for the default).
fn paging<'a>(name: &str, value: Option<&'a str>) -> Result<Option<&'a str>, Problem> {
    match value {
        Some(v) if v.trim().is_empty() => Err(Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("`{name}` is empty: give a whole number, or leave it out"))),
        v => Ok(v),
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
            tarot_engine::check_deals(deals).map_err(|e| Problem::unprocessable("bad-deals", format!("`deals`: {e}")))?;
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
            let work = tarot_engine::deal_work(rules, self.players.unwrap_or(rules.players.0), options).map_err(|e| Problem::unprocessable("cannot-deal", e.to_string()))?;
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
            tarot_engine::read_options(r, &own).map_err(bad)
        })
        .collect()
}

/// Computes the statistics on the blocking pool (a million deals of a ruleset whose declarations
/// need the interpreter take seconds), or answers them from the cache. At most a few at once (503
/// past them), and given up when the client goes: actix then drops this future, and with it the
/// flag the deals read.
pub(crate) async fn deal_statistics(state: &web::Data<AppState>, ask: StatsAsk) -> Result<Arc<Vec<tarot_engine::DealStats>>, Problem> {
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
                tarot_engine::deal_stats_until(rules, n, options, deals, seed, &cancelled)
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
