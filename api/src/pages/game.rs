//! A stored game: its record replayed under its ruleset, drawn as `game_view` draws it.

use actix_web::{web, HttpResponse};
use maud::html;
use tarot_store::GameId;

use crate::pages::{game_view, page, step};
use crate::problem::Problem;
use crate::state::AppState;
use crate::usecases::Refusal;

/// `?trick=N`: the game after trick N (0: the deal), step by step; `?download=record`: the record.
#[derive(serde::Deserialize)]
pub struct Step {
    trick: Option<usize>,
    download: Option<String>,
}

/// The page, or what went wrong as a page.
pub async fn game(state: web::Data<AppState>, id: web::Path<String>, step: Result<web::Query<Step>, actix_web::Error>) -> HttpResponse {
    match step {
        Ok(step) => crate::pages::or_problem_page(game_page(state, id, step).await),
        Err(e) => crate::pages::bad_query(e),
    }
}

async fn game_page(state: web::Data<AppState>, id: web::Path<String>, step: web::Query<Step>) -> Result<HttpResponse, Problem> {
    let st = state.clone();
    let game = GameId(id.into_inner());
    let key = game.0.clone();
    let record = crate::routes::blocking(move || st.store.record(&game).map_err(crate::routes::store_problem)).await?;
    if step.download.as_deref() == Some("record") {
        let json = serde_json::to_string_pretty(&record).map_err(|e| Problem::internal(e.to_string()))?;
        return Ok(HttpResponse::Ok().content_type("application/json").insert_header(("Content-Disposition", format!("attachment; filename=\"{key}.json\""))).body(json));
    }
    let rules = state.registry.get(&record.ruleset);
    let verdict = crate::usecases::referee(&state.registry, &record).map_err(|refusal| match refusal {
        Refusal::UnknownRuleset { id, .. } => format!("the ruleset `{id}` is not in this archive"),
        refusal => refusal.to_string(),
    });
    // The other rulesets this game could be compared under: those for as many players.
    // Only those that can replay the deal (its pack and its table): one comparison says which.
    let candidates: Vec<&tarot_engine::ir::Ruleset> =
        state.registry.all().filter(|r| r.id != record.ruleset && (r.players.0..=r.players.1).contains(&record.players.len())).collect();
    let replayable = tarot_engine::compare_game(&candidates, &record);
    let peers: Vec<&str> = replayable.replays.iter().filter(|p| p.verdict.is_some()).map(|p| p.ruleset.as_str()).collect();
    let body = html! {
        p class="src" { "Game " code { (key) } ": " a href={ "/games/" (key) } { "as JSON" } ", " a href={ "/games/" (key) "/events" } { "its events" } "." }
        @if let Ok(v) = &verdict { (step::panel(rules.map(|r| r.with_pack_for(record.players.len(), &record.options).unwrap_or(r)), &record, v, &key, step.trick)) }
        (game_view::view(rules, &record, verdict.as_ref().map_err(Clone::clone)))
        @if !peers.is_empty() {
            h2 { "Under other rulesets" }
            p { "The same game replayed trick by trick beside: "
                @for (i, p) in peers.iter().enumerate() {
                    @if i > 0 { ", " }
                    a href={ "/pages/games/" (key) "/compare?ids=" (record.ruleset) "," (p) } { code { (p) } }
                } "." }
        }
    };
    Ok(page(&format!("Game {key}: {} under {}", record.players.join(", "), record.ruleset), body))
}
