//! The index: every ruleset (its page, its JSON), grouped by family and century, the comparisons, the deal statistics, the stored
//! games.

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use maud::html;
use tarot_engine::ir::{Ruleset, FAMILIES};
use tarot_store::Filter;

use crate::pages::page;
use crate::state::AppState;

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
            "The " a href="/docs/" { "API documentation" } " lists every operation; " a href="/pages/check" { "check a game" } " by pasting its record; " a href="/pages/sources" { "the sources" } " the rulesets cite, each with its clauses." }
        h2 { "The family at a glance" }
        (crate::pages::family::picture(&state.registry.all().collect::<Vec<_>>()))
        @for (family, centuries) in by_family(&state) {
            h2 { (family) }
            @for (century, rulesets) in centuries {
                h3 { (century) }
                table {
                    tr { th { "ruleset" } th { "players" } th { "title" } th { "extends" } th { "dated" } th { "as data" } }
                    @for r in rulesets {
                        tr {
                            td { a href={ "/pages/rulesets/" (r.id) } { code { (r.id) } } }
                            td { (players(r.players)) }
                            td { (r.title) }
                            td { @if let Some(p) = r.chain.get(1) { a href={ "/pages/rulesets/" (p) } { code { (p) } } } }
                            td { @if let Some((year, _)) = &r.dated { (year) } }
                            td { a href={ "/rulesets/" (r.id) } { "JSON" } }
                        }
                    }
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
        // The default number of deals, which the budget of a request allows for every root together.
        p { a href={ "/pages/stats?rulesets=" (roots.join(",")) } { "The rulesets no other extends, side by side" }
            ": annulments, possible declarations, oudlers per hand over seeded random deals (the form there asks for others)." }
        h2 { "Sessions" }
        p { "A session is the deals one table plays, in order (" code { "POST /sessions" } " opens one). Its running score sheet: "
            form class="inline" method="get" action="/pages/sessions" { label { "session " input name="id" size="8" placeholder="s1"; } " " button { "open" } } }
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

/// The rulesets by family (in the order of `FAMILIES`, then those that name none), and within a
/// family by century, oldest first, then those their sources do not date (issue 15).
fn by_family(state: &AppState) -> Vec<(String, Vec<(String, Vec<&Ruleset>)>)> {
    let family_of = |r: &Ruleset| r.family.as_ref().map_or(FAMILIES.len(), |(f, _)| FAMILIES.iter().position(|x| x == f).unwrap_or(FAMILIES.len()));
    let mut groups: BTreeMap<(usize, u16), Vec<&Ruleset>> = BTreeMap::new();
    for r in state.registry.all() {
        groups.entry((family_of(r), r.century().unwrap_or(u16::MAX))).or_default().push(r);
    }
    let mut out: Vec<(String, Vec<(String, Vec<&Ruleset>)>)> = vec![];
    for ((family, century), rulesets) in groups {
        let family = FAMILIES.get(family).map_or("Family not given".to_string(), |f| format!("{f} family"));
        let century = if century == u16::MAX { "Not dated by its sources".to_string() } else { format!("{} century", ordinal(century)) };
        match out.last_mut() {
            Some((f, centuries)) if *f == family => centuries.push((century, rulesets)),
            _ => out.push((family, vec![(century, rulesets)])),
        }
    }
    out
}

/// 17 → "17th", 21 → "21st".
pub(crate) fn ordinal(n: u16) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
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
