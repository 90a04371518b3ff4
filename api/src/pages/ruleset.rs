//! A ruleset in words, for historians: every clause with its source and where it is written, its
//! options (the value in force, the choices), the rulesets it extends, its sources; the JSON one
//! click away.

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use maud::html;
use tarot_engine::describe_for_people as describe;

use crate::pages::page;
use crate::problem::Problem;
use crate::state::AppState;

/// The page, or what went wrong as a page.
pub async fn ruleset(state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    crate::pages::or_problem_page(ruleset_page(state, id).await)
}

async fn ruleset_page(state: web::Data<AppState>, id: web::Path<String>) -> Result<HttpResponse, Problem> {
    let r = state.registry.get(&id).ok_or_else(|| Problem::not_found(format!("no ruleset `{id}`; the index lists them")))?;
    let d = describe(r, &BTreeMap::new());
    let children: Vec<&str> = state.registry.all().filter(|c| c.chain.get(1) == Some(&r.id)).map(|c| c.id.as_str()).collect();
    let mut aspects: Vec<&str> = vec![];
    for l in &d.rules {
        if !aspects.contains(&l.aspect) {
            aspects.push(l.aspect);
        }
    }
    let example = crate::pages::example::worked_example(&state, r).await;
    let body = html! {
        p { code { (d.id) } ", " (d.players) " players, version " code { (d.version) } ". "
            a href={ "/rulesets/" (d.id) } { "The ruleset as JSON" } ", with its rule files." }
        @if d.chain.len() > 1 {
            p { "Extends " @for (i, p) in d.chain[1..].iter().enumerate() { @if i > 0 { ", which extends " } a href={ "/pages/rulesets/" (p) } { code { (p) } } }
                "; " a href={ "/pages/rulesets/compare?ids=" (d.chain[1]) "," (d.id) } { "beside " (d.chain[1]) } "." }
        }
        @if !children.is_empty() {
            p { "Extended by " @for (i, c) in children.iter().enumerate() { @if i > 0 { ", " } a href={ "/pages/rulesets/" (c) } { code { (c) } } } "." }
        }
        (crate::pages::overview::overview(r, &d, example))
        @if !d.options.is_empty() {
            h2 { "Options" }
            table {
                tr { th { "option" } th { "what it chooses" } th { "default" } th { "choices" } th { "source" } }
                @for o in &d.options {
                    tr {
                        td { code { (o.name) } }
                        td { (o.doc) }
                        td { (plain(&o.default)) }
                        td { @for (i, c) in o.choices.iter().enumerate() { @if i > 0 { ", " } (plain(c)) } }
                        td { (o.source.as_deref().unwrap_or("—")) }
                    }
                }
            }
        }
        @for aspect in &aspects {
            h2 { (aspect) }
            table {
                tr { th { "clause" } th { "source" } th { "rule" } }
                @for l in d.rules.iter().filter(|l| l.aspect == *aspect) {
                    tr { td { (l.text) } td { (cited(&d.sources, l.source.as_deref())) } td class="src" { code { (l.rule) } br; (l.at) } }
                }
            }
        }
        h2 { "Sources" }
        ul { @for s in &d.sources { li { strong { (s.id) } ": " a href=(crate::pages::source::href(s)) { (s.title) } " " span class="src" { "(" (s.file) ")" } } } }
    };
    Ok(page(&format!("{}: {}", d.id, d.title), body))
}

/// A clause's citation, its source's key linked to the source's page.
fn cited(sources: &[tarot_engine::ir::Source], text: Option<&str>) -> maud::Markup {
    let Some(text) = text else { return html! { "—" } };
    let (key, _) = crate::pages::source::citation(text);
    match sources.iter().find(|s| s.id == key) {
        Some(s) => html! { a href=(crate::pages::source::href(s)) title=(s.title) { (text) } },
        None => html! { (text) },
    }
}

/// An option's value as people read it: strings without their quotes.
pub(crate) fn plain(v: &serde_json::Value) -> String {
    v.as_str().map(String::from).unwrap_or_else(|| v.to_string())
}
