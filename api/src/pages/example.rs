//! The worked example that ends a ruleset's overview: one game of it, its contract and its score in
//! words, and a link to see it trick by trick. A stored valid game of the ruleset where the archive
//! holds one (its step-through), else an example game of the ruleset's fixtures, replayed and drawn
//! on a page of its own (`/pages/rulesets/{id}/example`).

use actix_web::{web, HttpResponse};
use maud::{html, Markup};
use tarot_engine::ir::Ruleset;
use tarot_engine::{GameRecord, Verdict};
use tarot_store::Filter;

use crate::pages::game_view::{contract_label, view};
use crate::pages::page;
use crate::pages::score_sheet::amount;
use crate::problem::Problem;
use crate::state::AppState;

/// A valid example game of each ruleset, from its fixtures: (ruleset, fixture, record); `build.rs`
/// lists them.
const EXAMPLES: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// The ruleset's example from the fixtures, read and replayed.
fn fixture(r: &Ruleset) -> Option<(&'static str, GameRecord, Verdict)> {
    let (_, path, text) = EXAMPLES.iter().find(|(id, _, _)| *id == r.id)?;
    let record = tarot_engine::parse_record(text).ok()?;
    let verdict = tarot_engine::replay(r, &record).ok()?;
    Some((path, record, verdict))
}

/// The game's contract and score in words: who took, what, with whom, and each player's score.
fn in_words(r: &Ruleset, record: &GameRecord, verdict: &Verdict) -> Markup {
    let Some(o) = verdict.outcome.as_ref() else { return html! { (record.players.join(", ")) " play a deal; it is not scored." } };
    html! {
        (record.players.join(", ")) " play a deal"
        @if let Some(t) = o.taker.as_deref() {
            "; " strong { (t) } " takes"
            @if let Some(c) = o.contract.as_deref() { " with " strong { (contract_label(Some(r), c)) } }
            @if let Some(p) = o.partner.as_deref() { @if p != t { ", partnered by " (p) } @else { ", alone" } }
        } @else if let Some(c) = o.contract.as_deref() { ", played as " strong { (contract_label(Some(r), c)) } }
        @if let Some(h) = o.hand_score { "; the hand is worth " (amount(h)) }
        ". The deal scores: "
        @for (i, p) in o.players.iter().enumerate() { @if i > 0 { ", " } (p.player) " " strong class="example-score" { (amount(p.score)) } }
        "."
    }
}

/// The example, for the end of the overview.
pub(crate) async fn worked_example(state: &web::Data<AppState>, r: &Ruleset) -> Markup {
    let st = state.clone();
    let id = r.id.clone();
    // A stored game is a convenience: a store that cannot list them leaves the fixture's.
    let stored = crate::routes::blocking(move || {
        let filter = Filter { ruleset: Some(id), status: Some("valid".into()), player: None };
        let (games, _) = st.store.list(&filter, 0, 1).map_err(crate::routes::store_problem)?;
        let Some(g) = games.into_iter().next() else { return Ok(None) };
        let record = st.store.record(&g.game).map_err(crate::routes::store_problem)?;
        Ok(Some((g.game.0, record)))
    })
    .await
    .ok()
    .flatten();
    if let Some((game, record)) = stored {
        if let Ok(verdict) = tarot_engine::replay(r, &record) {
            return html! {
                dt { "A worked example" } dd class="worked-example" {
                    (in_words(r, &record, &verdict)) " "
                    a href={ "/pages/games/" (game) "?trick=1#step" } { "Game " (game) ", trick by trick" } "."
                }
            };
        }
    }
    match fixture(r) {
        Some((path, record, verdict)) => html! {
            dt { "A worked example" } dd class="worked-example" {
                (in_words(r, &record, &verdict)) " "
                a href={ "/pages/rulesets/" (r.id) "/example" } { "The example game, drawn" } " "
                span class="src" { "(" code { "fixtures/" (path) } ")" } "."
            }
        },
        None => html! { dt { "A worked example" } dd { "No example game of it is stored or among the fixtures yet." } },
    }
}

/// The ruleset's example game from its fixtures, drawn as a game's page draws it.
pub async fn example(state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    let Some(r) = state.registry.get(&id) else {
        return crate::pages::problem_page(Problem::not_found(format!("no ruleset `{id}`; the index lists them")));
    };
    let Some((path, record, verdict)) = fixture(r) else {
        return crate::pages::problem_page(Problem::not_found(format!("no example game of `{id}` among the fixtures")));
    };
    let body = html! {
        p { "An example game of " a href={ "/pages/rulesets/" (r.id) } { code { (r.id) } } ", from the fixtures (" code { "fixtures/" (path) } "): " (in_words(r, &record, &verdict)) }
        (view(Some(r), &record, Ok(&verdict)))
    };
    page(&format!("An example of {}: {}", r.id, record.players.join(", ")), body)
}
