//! Pages for people, rendered on the server with no script and nothing fetched from elsewhere: the
//! index (the rulesets, the docs), the rules of several rulesets side by side with the rows that
//! differ highlighted, and a stored game replayed trick by trick under several rulesets with the
//! divergence marked.

use std::fmt::Write;

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use tarot_engine::compare::{compare, compare_game};
use tarot_store::GameId;

use crate::problem::Problem;
use crate::routes::rulesets_to_compare;
use crate::startup::AppState;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:Georgia,serif;margin:2em;max-width:110em;color:#222}\
table{border-collapse:collapse;width:100%}td,th{border:1px solid #bbb;padding:.4em;vertical-align:top;text-align:left}\
th{background:#eee}tr.differs td{background:#fff4d6}tr.same td{color:#555}.src{color:#777;font-size:.85em}\
.diverge{background:#ffd6d6}.valid{color:#176317}.invalid{color:#a11}code{font-size:.95em}";

fn page(title: &str, body: &str) -> HttpResponse {
    let html = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body><p><a href=\"/\">Tarot rules archive</a></p><h1>{}</h1>{body}</body></html>",
        esc(title),
        esc(title)
    );
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(html)
}

/// The index: every ruleset, and where to go from here.
pub async fn index(state: web::Data<AppState>) -> HttpResponse {
    let mut body = String::from("<p>Every variant of the tarot game the sources describe, written as data, and recorded games replayed against them. The <a href=\"/docs/\">API documentation</a> lists every operation.</p><table><tr><th>ruleset</th><th>players</th><th>title</th><th>extends</th></tr>");
    let ids: Vec<&str> = state.registry.ids().collect();
    for r in state.registry.all() {
        let players = if r.players.0 == r.players.1 { r.players.0.to_string() } else { format!("{}–{}", r.players.0, r.players.1) };
        let _ = write!(
            body,
            "<tr><td><a href=\"/rulesets/{id}\"><code>{id}</code></a></td><td>{players}</td><td>{}</td><td>{}</td></tr>",
            esc(&r.title),
            r.chain.get(1).map(|p| format!("<code>{}</code>", esc(p))).unwrap_or_default(),
            id = esc(&r.id)
        );
    }
    body.push_str("</table><h2>Compare</h2><ul>");
    for set in [["fft-4p", "marolles-1637", "basic"].as_slice(), &["fft-4p", "fft-3p", "fft-5p", "fft-2p"], &["fft-4p", "queen-of-tarot"]] {
        if set.iter().all(|id| ids.contains(id)) {
            let q = set.join(",");
            let _ = write!(body, "<li><a href=\"/pages/rulesets/compare?ids={q}\">{}</a></li>", esc(&set.join(" · ")));
        }
    }
    body.push_str("<li>A stored game under several rulesets: <code>/pages/games/{id}/compare?ids=a,b</code></li></ul>");
    page("Tarot rules archive", &body)
}

#[derive(Deserialize)]
pub struct Ids {
    ids: String,
}

/// The rules side by side, differing rows highlighted.
pub async fn compare_rules(state: web::Data<AppState>, query: web::Query<Ids>) -> Result<HttpResponse, Problem> {
    let rules = rulesets_to_compare(&state, query.ids.split(','))?;
    let c = compare(&rules);
    let mut body = String::from("<p>Rows where the rulesets differ are highlighted. Each clause gives its source.</p><table><tr><th>aspect</th>");
    for id in &c.rulesets {
        let _ = write!(body, "<th><code>{}</code></th>", esc(id));
    }
    body.push_str("</tr>");
    for row in &c.rows {
        let _ = write!(body, "<tr class=\"{}\"><th>{}{}</th>", if row.differs { "differs" } else { "same" }, esc(row.aspect), if row.differs { " ≠" } else { "" });
        for cell in &row.cells {
            body.push_str("<td>");
            for line in cell {
                let _ = write!(body, "<div>{}{}</div>", esc(&line.text), line.source.as_deref().map(|s| format!(" <span class=\"src\">[{}]</span>", esc(s))).unwrap_or_default());
            }
            body.push_str("</td>");
        }
        body.push_str("</tr>");
    }
    body.push_str("</table>");
    Ok(page(&format!("Rules side by side: {}", c.rulesets.join(", ")), &body))
}

/// A stored game replayed under several rulesets, trick by trick, the divergence marked.
pub async fn compare_game_page(state: web::Data<AppState>, id: web::Path<String>, query: web::Query<Ids>) -> Result<HttpResponse, Problem> {
    let st = state.clone();
    let game = GameId(id.into_inner());
    let record = web::block(move || st.store.record(&game)).await.map_err(|e| Problem::internal(e.to_string()))?.map_err(|e| Problem::not_found(e.to_string()))?;
    let rules = rulesets_to_compare(&state, query.ids.split(','))?;
    let c = compare_game(&rules, &record);
    let mut body = record.description.as_deref().map(|d| format!("<p>{}</p>", esc(d))).unwrap_or_default();
    if let Some(d) = &c.divergence {
        let _ = write!(body, "<p class=\"diverge\">{}</p>", esc(&d.explanation));
    } else {
        body.push_str("<p>The rulesets agree on the legality of every move.</p>");
    }
    body.push_str("<table><tr><th>trick</th>");
    for p in &c.replays {
        let status = match (&p.verdict, &p.cannot_replay) {
            (Some(v), _) => {
                let s = serde_json::to_value(v.status).ok().and_then(|s| s.as_str().map(String::from)).unwrap_or_default();
                let scores: Vec<String> = v.outcome.iter().flat_map(|o| &o.players).map(|r| format!("{} {}", r.player, r.score)).collect();
                format!("<br><span class=\"{s}\">{s}</span><br><span class=\"src\">{}</span>", esc(&scores.join(", ")))
            }
            (None, Some(why)) => format!("<br><span class=\"invalid\">cannot be replayed</span><br><span class=\"src\">{}</span>", esc(why)),
            _ => String::new(),
        };
        let _ = write!(body, "<th><code>{}</code>{status}</th>", esc(&p.ruleset));
    }
    body.push_str("</tr>");
    // The event index of each trick's first card, to mark the trick where legality diverges.
    let plays: Vec<usize> = record.events.iter().enumerate().filter(|(_, e)| matches!(e, tarot_engine::Event::Play { .. })).map(|(i, _)| i).collect();
    let per_trick = record.players.len();
    let tricks = c.replays.iter().filter_map(|p| p.verdict.as_ref()).map(|v| v.tricks.len() + usize::from(v.violation.is_some())).max().unwrap_or(0);
    for t in 0..tricks {
        let events = plays.get(t * per_trick).copied().unwrap_or(usize::MAX)..plays.get((t + 1) * per_trick).copied().unwrap_or(usize::MAX);
        let marked = c.divergence.as_ref().is_some_and(|d| events.contains(&d.event));
        let _ = write!(body, "<tr{}><th>{}</th>", if marked { " class=\"diverge\"" } else { "" }, t + 1);
        for p in &c.replays {
            let cell = match &p.verdict {
                Some(v) => match (v.tricks.get(t), &v.violation) {
                    (Some(tr), _) => {
                        let cards: Vec<String> = tr.cards.iter().map(|c| c.to_string()).collect();
                        format!("{} leads: {} → {}", esc(&tr.leader), cards.join(" "), esc(&tr.winner))
                    }
                    (None, Some(x)) if t == v.tricks.len() => format!("<span class=\"invalid\">event {}: {}</span> <span class=\"src\">[{}]</span>", x.event, esc(&x.message), esc(&x.rule)),
                    _ => String::new(),
                },
                None => String::new(),
            };
            let _ = write!(body, "<td>{cell}</td>");
        }
        body.push_str("</tr>");
    }
    body.push_str("</table>");
    Ok(page(&format!("A game of {} under {}", record.players.join(", "), c.rulesets.join(", ")), &body))
}
