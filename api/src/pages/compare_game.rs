//! A stored game replayed under several rulesets, trick by trick, the divergence marked.

use actix_web::{web, HttpResponse};
use maud::html;
use tarot_engine::compare_game;
use tarot_engine::Event;
use tarot_store::GameId;

use crate::pages::compare_rules::Ids;
use crate::pages::score_sheet::amount;
use crate::pages::{card, page, status_word};
use crate::problem::Problem;
use crate::routes::rulesets_to_compare;
use crate::state::AppState;

/// The page, or what went wrong as a page.
pub async fn compare_game_page(state: web::Data<AppState>, id: web::Path<String>, query: Result<web::Query<Ids>, actix_web::Error>) -> HttpResponse {
    match query {
        Ok(query) => crate::pages::or_problem_page(compare_game_page_page(state, id, query).await),
        Err(e) => crate::pages::bad_query(e),
    }
}

async fn compare_game_page_page(state: web::Data<AppState>, id: web::Path<String>, query: web::Query<Ids>) -> Result<HttpResponse, Problem> {
    let st = state.clone();
    let game = GameId(id.into_inner());
    let key = game.0.clone();
    let record = crate::routes::blocking(move || st.store.record(&game).map_err(crate::routes::store_problem)).await?;
    let rules = rulesets_to_compare(&state, "ids", query.ids.split(','))?;
    let c = compare_game(&rules, &record);
    // The event index of each trick's first card, to mark the trick where legality diverges.
    let plays: Vec<usize> = record.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
    // Cards in a trick: those who play, which is not the whole table where the dealer sits out.
    let per_trick = c.replays.iter().filter_map(|p| p.verdict.as_ref()?.tricks.first()).map(|t| t.cards.len()).next().unwrap_or(record.players.len());
    let tricks = c.replays.iter().filter_map(|p| p.verdict.as_ref()).map(|v| v.tricks.len() + usize::from(v.violation.is_some())).max().unwrap_or(0);
    let replayed: Vec<&str> = c.replays.iter().filter(|p| p.verdict.is_some()).map(|p| p.ruleset.as_str()).collect();
    let cannot: Vec<&str> = c.replays.iter().filter(|p| p.verdict.is_none()).map(|p| p.ruleset.as_str()).collect();
    // Each ruleset's scores, in the players' order, to mark a row where they differ.
    let scores: Vec<Option<Vec<String>>> =
        c.replays.iter().map(|p| p.verdict.as_ref()?.outcome.as_ref().map(|o| o.players.iter().map(|r| format!("{} {}", r.player, amount(r.score))).collect())).collect();
    let scores_differ = scores.iter().any(|s| *s != scores[0]);
    let body = html! {
        p { "Game " a href={ "/pages/games/" (key) } { code { (key) } } ", recorded under " a href={ "/pages/rulesets/" (record.ruleset) } { code { (record.ruleset) } } "."
            @if let Some(d) = &record.description { " " (d) } }
        @if !cannot.is_empty() {
            p class="cannot-replay" { (cannot.len()) " of the " (c.replays.len()) " rulesets cannot replay this game (its pack, its table or its moves): " (cannot.join(", ")) "." }
        }
        @if let Some(d) = &c.divergence {
            p class="diverge" { (crate::pages::engine_line(state.registry.get(&record.ruleset), &d.explanation)) }
        } @else if replayed.len() >= 2 && cannot.is_empty() {
            p { "The rulesets agree on the legality of every move." }
        } @else if replayed.len() >= 2 {
            p { "The rulesets that can replay it (" (replayed.join(", ")) ") agree on the legality of every move." }
        } @else {
            p { "Only " (replayed.join(", ")) " can replay it: there is nothing to compare move by move." }
        }
        table {
            tr {
                th { "trick" }
                @for p in &c.replays {
                    th {
                        a href={ "/pages/rulesets/" (p.ruleset) } { code { (p.ruleset) } } br;
                        @match (&p.verdict, &p.cannot_replay) {
                            (Some(v), _) => {
                                @let (class, word) = status_word(v.status);
                                span class=(class) { (word) } br;
                            }
                            (None, Some(why)) => { span class="invalid" { "cannot be replayed" } br; span class="src" { (crate::pages::engine_line(state.registry.get(&p.ruleset), why)) } }
                            _ => {}
                        }
                    }
                }
            }
            tr class={ "scores " @if scores_differ { "differs" } } {
                th { "scores" @if scores_differ { br; span class="src" { "they differ" } } }
                @for s in &scores { td { @match s { Some(s) => { (s.join(", ")) }, None => { "—" } } } }
            }
            @for t in 0..tricks {
                @let events = plays.get(t * per_trick).copied().unwrap_or(usize::MAX)..plays.get((t + 1) * per_trick).copied().unwrap_or(usize::MAX);
                @let marked = c.divergence.as_ref().is_some_and(|d| events.contains(&d.event));
                tr class=[marked.then_some("diverge")] {
                    th { (t + 1) }
                    @for (p, r) in c.replays.iter().zip(&rules) {
                        td {
                            @if let Some(v) = &p.verdict {
                                @match (v.tricks.get(t), &v.violation) {
                                    (Some(tr), _) => {
                                        (tr.leader) " leads: " @for c in tr.cards.iter() { (card(Some(r), *c, "")) } " → " strong { (tr.winner) }
                                    }
                                    (None, Some(x)) if t == v.tricks.len() => {
                                        span class="invalid" { "event " (x.event) ": " (crate::pages::engine_line(state.registry.get(&p.ruleset), &x.message)) } " " span class="src" { "[" (x.rule) "]" }
                                    }
                                    _ => {}
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(page(&format!("A game of {} under {}", record.players.join(", "), c.rulesets.join(", ")), body))
}
