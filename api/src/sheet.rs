//! A session's running score sheet, derived from its games' verdicts: per deal each player's score
//! and the running totals, as a table keeps it.

use serde::Serialize;
use tarot_engine::num::Q;
use tarot_store::GameId;
use utoipa::ToSchema;

use crate::problem::Problem;
use crate::startup::AppState;

#[derive(Serialize, ToSchema)]
pub struct ScoreSheet {
    id: String,
    name: String,
    players: Vec<String>,
    deals: Vec<Deal>,
    /// Each player's total after the last deal.
    #[schema(value_type = Vec<crate::schema::PlayerAmount>)]
    totals: Vec<(String, Q)>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SheetDeal)]
pub struct Deal {
    number: usize,
    game: String,
    ruleset: String,
    #[schema(value_type = crate::schema::Status)]
    status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    taker: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contract: Option<String>,
    /// Each player's score in this deal (0 for a deal that was annulled or not finished).
    #[schema(value_type = Vec<crate::schema::PlayerAmount>)]
    scores: Vec<(String, Q)>,
    /// Running totals after this deal.
    #[schema(value_type = Vec<crate::schema::PlayerAmount>)]
    totals: Vec<(String, Q)>,
    /// Whether the deal's scores sum to zero (where the ruleset settles by payments).
    #[serde(skip_serializing_if = "Option::is_none")]
    balanced: Option<bool>,
}

pub fn score_sheet(state: &AppState, session: &str) -> Result<ScoreSheet, Problem> {
    let s = state.store.session(session).map_err(crate::routes::store_problem)?;
    let mut totals: Vec<(String, Q)> = s.players.iter().map(|p| (p.clone(), Q::ZERO)).collect();
    let mut deals = vec![];
    for (i, game) in s.games.iter().enumerate() {
        let id = GameId(game.0.clone());
        let record = state.store.record(&id).map_err(crate::routes::store_problem)?;
        let rules = state.registry.get(&record.ruleset).ok_or_else(|| Problem::internal(format!("game {} uses an unknown ruleset", id.0)))?;
        let verdict = tarot_engine::replay(rules, &record).map_err(|e| Problem::internal(e.to_string()))?;
        let outcome = verdict.outcome.as_ref();
        let scores: Vec<(String, Q)> =
            s.players.iter().map(|p| (p.clone(), outcome.and_then(|o| o.players.iter().find(|r| &*r.player == p)).map(|r| r.score).unwrap_or(Q::ZERO))).collect();
        for ((_, t), (_, v)) in totals.iter_mut().zip(&scores) {
            *t = *t + *v;
        }
        let settles_by_payment = !rules.score.pays.is_empty();
        deals.push(Deal {
            number: i + 1,
            game: id.0,
            ruleset: record.ruleset.clone(),
            status: serde_json::to_value(verdict.status).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
            taker: outcome.and_then(|o| o.taker.as_deref().map(String::from)),
            contract: outcome.and_then(|o| o.contract.clone()),
            balanced: (settles_by_payment && outcome.is_some()).then(|| scores.iter().map(|(_, v)| *v).sum::<Q>() == Q::ZERO),
            scores,
            totals: totals.clone(),
        });
    }
    Ok(ScoreSheet { id: session.to_string(), name: s.name, players: s.players, deals, totals })
}
