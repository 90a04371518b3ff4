//! The index: every ruleset (its page, its JSON), the comparisons, the deal statistics, the stored
//! games.

use actix_web::{web, HttpResponse};
use maud::html;
use tarot_store::Filter;

use crate::pages::page;
use crate::startup::AppState;

/// How many stored games the index lists, newest first.
const GAMES_LISTED: usize = 50;

pub async fn index(state: web::Data<AppState>) -> HttpResponse {
    let roots = roots(&state);
    let st = state.clone();
    // The games are a convenience here: a store that cannot list them leaves the list out.
    let games = crate::routes::blocking(move || {
        let (_, total) = st.store.list(&Filter::default(), 0, 1).map_err(crate::routes::store_problem)?;
        let offset = total.saturating_sub(GAMES_LISTED);
        let (mut games, total) = st.store.list(&Filter::default(), offset, GAMES_LISTED).map_err(crate::routes::store_problem)?;
        games.reverse();
        Ok((games, total))
    })
    .await
    .unwrap_or_default();
    let body = html! {
        p { "Every variant of the tarot game the sources describe, written as data, and recorded games replayed against them. "
            "The " a href="/docs/" { "API documentation" } " lists every operation; " a href="/pages/check" { "check a game" } " by pasting its record." }
        table {
            tr { th { "ruleset" } th { "players" } th { "title" } th { "extends" } th { "as data" } }
            @for r in state.registry.all() {
                tr {
                    td { a href={ "/pages/rulesets/" (r.id) } { code { (r.id) } } }
                    td { (players(r.players)) }
                    td { (r.title) }
                    td { @if let Some(p) = r.chain.get(1) { a href={ "/pages/rulesets/" (p) } { code { (p) } } } }
                    td { a href={ "/rulesets/" (r.id) } { "JSON" } }
                }
            }
        }
        h2 { "Compare" }
        ul {
            li { a href={ "/pages/rulesets/compare?ids=" (roots.join(",")) } { "The families side by side: " (roots.join(" · ")) } }
            @for r in state.registry.all() {
                @if let Some(parent) = r.chain.get(1) {
                    li { a href={ "/pages/rulesets/compare?ids=" (parent) "," (r.id) } { (r.id) " beside " (parent) } }
                }
            }
            li { "A stored game under several rulesets: from its page, or " code { "/pages/games/{id}/compare?ids=a,b" } }
        }
        h2 { "Deal statistics" }
        p { a href={ "/pages/stats?rulesets=" (roots.join(",")) "&deals=20000" } { "The rulesets no other extends, side by side" }
            ": annulments, possible declarations, oudlers per hand over seeded random deals (the form there asks for others)." }
        h2 { "Stored games" }
        @if games.0.is_empty() {
            p { "No game is stored yet: " code { "POST /games" } " stores one." }
        } @else {
            p { (games.1) " stored" @if games.1 > games.0.len() { ", the latest " (games.0.len()) " here (" code { "GET /games" } " lists them all)" } "." }
            table {
                tr { th { "game" } th { "ruleset" } th { "players" } th { "verdict" } th { "moves" } }
                @for g in &games.0 {
                    tr {
                        td { a href={ "/pages/games/" (g.game.0) } { code { (g.game.0) } } }
                        td { a href={ "/pages/rulesets/" (g.ruleset) } { code { (g.ruleset) } } }
                        td { (g.players.join(", ")) }
                        td { span class=(g.status) { (g.status.replace('_', " ")) } }
                        td { (g.version) }
                    }
                }
            }
        }
    };
    page("Tarot rules archive", body)
}

pub(crate) fn players((low, high): (usize, usize)) -> String {
    if low == high {
        low.to_string()
    } else {
        format!("{low}–{high}")
    }
}

/// The rulesets that extend no other: one of each family.
pub(crate) fn roots(state: &AppState) -> Vec<String> {
    state.registry.all().filter(|r| r.chain.len() == 1).map(|r| r.id.clone()).collect()
}
