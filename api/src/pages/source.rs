//! A page per source: its title, its address as a link, and every clause of every ruleset that
//! cites it (each ruleset's own clauses, those written in its own file, so a variant does not repeat
//! its parent's). A source is the same for every ruleset that gives its address, whatever key each
//! file calls it by; its page's address is a hash of that address, stable while the address is.

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use maud::{html, Markup};
use tarot_engine::describe_for_people as describe;
use tarot_engine::ir::{Ruleset, Source};

use crate::pages::page;
use crate::problem::Problem;
use crate::state::AppState;

/// What makes two rulesets' sources one: the address where it is one, else the text given and the
/// title together.
fn key(s: &Source) -> String {
    if s.file.starts_with("http://") || s.file.starts_with("https://") {
        s.file.clone()
    } else {
        format!("{}\n{}", s.file, s.title)
    }
}

/// The source's part of its page's address: FNV-1a of its key, in hex.
pub(crate) fn slug(s: &Source) -> String {
    let hash = key(s).bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

/// A source's page address.
pub(crate) fn href(s: &Source) -> String {
    format!("/pages/sources/{}", slug(s))
}

/// The key a clause's citation names (`M "Players and Cards"` → `M`), and its section (the rest).
pub(crate) fn citation(text: &str) -> (&str, &str) {
    match text.split_once(' ') {
        Some((k, section)) => (k, section.trim_matches('"')),
        None => (text, ""),
    }
}

/// The address, as a link where it is one.
fn address(s: &Source) -> Markup {
    if s.file.starts_with("http://") || s.file.starts_with("https://") {
        html! { a class="address" href=(s.file) rel="noreferrer" { (s.file) } }
    } else {
        html! { (s.file) }
    }
}

/// Every source, by its page's slug: the source as first met, and the rulesets that cite it, each
/// with the key its file gives it.
fn sources(state: &AppState) -> BTreeMap<String, (Source, Vec<(&Ruleset, String)>)> {
    let mut out: BTreeMap<String, (Source, Vec<(&Ruleset, String)>)> = BTreeMap::new();
    for r in state.registry.all() {
        for s in &r.sources {
            let entry = out.entry(slug(s)).or_insert_with(|| (s.clone(), vec![]));
            if !entry.1.iter().any(|(x, _)| x.id == r.id) {
                entry.1.push((r, s.id.clone()));
            }
        }
    }
    out
}

/// Every source the rulesets cite.
pub async fn list(state: web::Data<AppState>) -> HttpResponse {
    let mut all: Vec<(String, (Source, Vec<(&Ruleset, String)>))> = sources(&state).into_iter().collect();
    all.sort_by_key(|a| a.1 .0.title.to_lowercase());
    let body = html! {
        p { "Every source a ruleset cites, with the rulesets that cite it." }
        table {
            tr { th { "source" } th { "address" } th { "cited by" } }
            @for (slug, (s, by)) in &all {
                tr { td { a href={ "/pages/sources/" (slug) } { (s.title) } } td class="src" { (address(s)) }
                    td { @for (i, (r, _)) in by.iter().enumerate() { @if i > 0 { ", " } code { (r.id) } } } }
            }
        }
    };
    page("Sources", body)
}

/// One source's page, or what went wrong as a page.
pub async fn source(state: web::Data<AppState>, slug: web::Path<String>) -> HttpResponse {
    let all = sources(&state);
    let Some((s, by)) = all.get(slug.as_str()) else {
        return crate::pages::problem_page(Problem::not_found(format!("no source `{slug}`; the list of sources is at /pages/sources")));
    };
    let cited: Vec<(&Ruleset, &String, Vec<tarot_engine::Line>)> = by
        .iter()
        .map(|(r, k)| {
            let own = format!("rulesets/{}.tarot:", r.id);
            let lines = describe(r, &BTreeMap::new()).rules.into_iter().filter(|l| l.at.starts_with(&own) && l.source.as_deref().is_some_and(|c| citation(c).0 == k)).collect();
            (*r, k, lines)
        })
        .collect();
    let body = html! {
        p { "Address: " (address(s)) }
        p { "Cited by " (by.len()) " ruleset" @if by.len() != 1 { "s" } "; below, the clauses each writes in its own file citing it (a ruleset that extends another cites its parent's clauses through it). "
            a href="/pages/sources" { "Every source" } "." }
        @for (r, k, lines) in &cited {
            h2 { a href={ "/pages/rulesets/" (r.id) } { code { (r.id) } } ": " (r.title) }
            p class="src" { "As " strong { (k) } @if s.title != r.sources.iter().find(|x| x.id == **k).map_or(String::new(), |x| x.title.clone()) {
                ", titled “" (r.sources.iter().find(|x| x.id == **k).map_or(String::new(), |x| x.title.clone())) "”" } "." }
            @if lines.is_empty() {
                p { "No clause of its own file cites it." }
            } @else {
                table class="cited" {
                    tr { th { "clause" } th { "section" } th { "rule" } }
                    @for l in lines {
                        tr class="clause" data-ruleset=(r.id) { td { (l.text) } td { (l.source.as_deref().map(|c| citation(c).1).unwrap_or_default()) } td class="src" { code { (l.rule) } br; (l.at) } }
                    }
                }
            }
        }
    };
    page(&s.title, body)
}
