//! A stored game replayed under several rulesets, trick by trick, the divergence marked.

use actix_web::{web, HttpResponse};
use maud::html;
use tarot_engine::compare::compare_game;
use tarot_engine::Event;
use tarot_store::GameId;

use crate::pages::compare_rules::Ids;
use crate::pages::{card, page, status_word};
use crate::problem::Problem;
use crate::routes::rulesets_to_compare;
use crate::state::AppState;

pub async fn compare_game_page(state: web::Data<AppState>, id: web::Path<String>, query: web::Query<Ids>) -> Result<HttpResponse, Problem> {
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
    let body = html! {
        p { "Game " a href={ "/pages/games/" (key) } { code { (key) } } ", recorded under " a href={ "/pages/rulesets/" (record.ruleset) } { code { (record.ruleset) } } "."
            @if let Some(d) = &record.description { " " (d) } }
        @if let Some(d) = &c.divergence {
            p class="diverge" { (d.explanation) }
        } @else {
            p { "The rulesets agree on the legality of every move." }
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
                                span class="src" { @for (i, r) in v.outcome.iter().flat_map(|o| &o.players).enumerate() { @if i > 0 { ", " } (r.player) " " (r.score) } }
                            }
                            (None, Some(why)) => { span class="invalid" { "cannot be replayed" } br; span class="src" { (why) } }
                            _ => {}
                        }
                    }
                }
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
                                        span class="invalid" { "event " (x.event) ": " (x.message) } " " span class="src" { "[" (x.rule) "]" }
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
