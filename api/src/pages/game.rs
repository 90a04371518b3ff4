//! A stored game: its record replayed under its ruleset, drawn as `game_view` draws it.

use actix_web::{web, HttpResponse};
use maud::html;
use tarot_store::GameId;

use crate::pages::{game_view, page};
use crate::problem::Problem;
use crate::state::AppState;
use crate::usecases::Refusal;

pub async fn game(state: web::Data<AppState>, id: web::Path<String>) -> Result<HttpResponse, Problem> {
    let st = state.clone();
    let game = GameId(id.into_inner());
    let key = game.0.clone();
    let record = crate::routes::blocking(move || st.store.record(&game).map_err(crate::routes::store_problem)).await?;
    let rules = state.registry.get(&record.ruleset);
    let verdict = crate::usecases::referee(&state.registry, &record).map_err(|refusal| match refusal {
        Refusal::UnknownRuleset { id, .. } => format!("the ruleset `{id}` is not in this archive"),
        refusal => refusal.to_string(),
    });
    // The other rulesets this game could be compared under: those for as many players.
    let peers: Vec<&str> = state.registry.all().filter(|r| r.id != record.ruleset && (r.players.0..=r.players.1).contains(&record.players.len())).map(|r| r.id.as_str()).collect();
    let body = html! {
        p class="src" { "Game " code { (key) } ": " a href={ "/games/" (key) } { "as JSON" } ", " a href={ "/games/" (key) "/events" } { "its events" } "." }
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
