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
use crate::routes::{deal_statistics, rulesets_to_compare, StatsQuery};
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
    // Comparisons drawn from the registry: the families side by side, then each ruleset beside the
    // one it extends.
    body.push_str("</table><h2>Compare</h2><ul>");
    let roots = roots(&state);
    let _ = write!(body, "<li><a href=\"/pages/rulesets/compare?ids={q}\">The families side by side: {}</a></li>", esc(&roots.join(" · ")), q = esc(&roots.join(",")));
    for r in state.registry.all() {
        if let Some(parent) = r.chain.get(1) {
            let _ = write!(body, "<li><a href=\"/pages/rulesets/compare?ids={p},{id}\">{id} beside {p}</a></li>", p = esc(parent), id = esc(&r.id));
        }
    }
    body.push_str("<li>A stored game under several rulesets: <code>/pages/games/{id}/compare?ids=a,b</code></li></ul>");
    let _ = write!(
        body,
        "<h2>Deal statistics</h2><p><a href=\"/pages/stats?rulesets={}&amp;deals=20000\">The rulesets no other extends, side by side</a>: annulments, possible declarations, oudlers per hand over seeded random deals (the form there asks for others).</p>",
        esc(&roots.join(","))
    );
    page("Tarot rules archive", &body)
}

#[derive(Deserialize)]
pub struct Ids {
    ids: String,
}

/// The rules side by side, differing rows highlighted.
pub async fn compare_rules(state: web::Data<AppState>, query: web::Query<Ids>) -> Result<HttpResponse, Problem> {
    let rules = rulesets_to_compare(&state, "ids", query.ids.split(','))?;
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
    let record = crate::routes::blocking(move || st.store.record(&game).map_err(crate::routes::store_problem)).await?;
    let rules = rulesets_to_compare(&state, "ids", query.ids.split(','))?;
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
    // Cards in a trick: those who play, which is not the whole table where the dealer sits out.
    let per_trick = c.replays.iter().filter_map(|p| p.verdict.as_ref()?.tricks.first()).map(|t| t.cards.len()).next().unwrap_or(record.players.len());
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
                    (None, Some(x)) if t == v.tricks.len() => {
                        format!("<span class=\"invalid\">event {}: {}</span> <span class=\"src\">[{}]</span>", x.event, esc(&x.message), esc(&x.rule))
                    }
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

/// The rulesets that extend no other: one of each family.
fn roots(state: &AppState) -> Vec<String> {
    state.registry.all().filter(|r| r.chain.len() == 1).map(|r| r.id.clone()).collect()
}

/// The form's query: the API's, every field optional.
#[derive(Deserialize)]
pub struct StatsPage {
    rulesets: Option<String>,
    deals: Option<String>,
    seed: Option<String>,
    players: Option<String>,
}

/// Deal statistics side by side, with a form to ask for others.
pub async fn stats(state: web::Data<AppState>, query: web::Query<StatsPage>) -> Result<HttpResponse, Problem> {
    let q = StatsQuery {
        rulesets: query.rulesets.clone().unwrap_or_else(|| roots(&state).join(",")),
        deals: query.deals.clone(),
        seed: query.seed.clone(),
        players: query.players.clone(),
    };
    let ask = q.ask(&state)?;
    let (rulesets, deals, seed, players) = (q.rulesets, ask.deals, ask.seed, ask.players);
    let all = deal_statistics(&state, ask).await?;
    let mut body = format!(
        "<form method=\"get\" action=\"/pages/stats\"><label>rulesets <input name=\"rulesets\" value=\"{}\" size=\"40\"></label> \
         <label>deals <input name=\"deals\" value=\"{}\" size=\"8\"></label> <label>seed <input name=\"seed\" value=\"{}\" size=\"6\"></label> \
         <label>players <input name=\"players\" value=\"{}\" size=\"3\"></label> <button>deal</button></form>\
         <p><strong>Note:</strong> {}. Annulments count deals (a deal once, for the first that strikes); declarations and card classes count hands.</p><table><tr><th></th>",
        esc(&rulesets),
        deals,
        seed,
        players.map(|n| n.to_string()).unwrap_or_default(),
        tarot_engine::stats::NOTE
    );
    for s in &all {
        let _ = write!(body, "<th><code>{}</code><br><span class=\"src\">{} players, {} deals</span></th>", esc(&s.ruleset), s.players, s.deals);
    }
    body.push_str("</tr>");
    let pct = |n: u64, of: u64| format!("{n} <span class=\"src\">({:.3}%)</span>", 100.0 * n as f64 / of.max(1) as f64);
    // One row per annulment, declaration and class count any of the rulesets has; empty where a
    // ruleset has no such thing.
    let mut rows: Vec<(String, Vec<String>)> = vec![];
    let mut row = |label: String, cell: &dyn Fn(&tarot_engine::stats::DealStats) -> Option<String>| {
        let cells: Vec<String> = all.iter().map(|s| cell(s).unwrap_or_default()).collect();
        if !rows.iter().any(|(l, _)| *l == label) {
            rows.push((label, cells));
        }
    };
    for s in &all {
        for name in s.annulments.keys() {
            row(format!("deals annulled: {name}"), &|t| t.annulments.get(name).map(|n| pct(*n, t.deals)));
        }
    }
    for s in &all {
        for name in s.declarations.keys() {
            row(format!("hands that could declare: {name}"), &|t| t.declarations.get(name).map(|n| pct(*n, t.deals * t.players as u64)));
        }
    }
    for s in &all {
        for (name, counts) in &s.classes {
            for k in 0..counts.len() {
                row(format!("hands with {k} {name}"), &|t| t.classes.get(name).and_then(|c| c.get(k)).map(|n| pct(*n, t.deals * t.players as u64)));
            }
        }
    }
    for (label, cells) in rows {
        let _ = write!(body, "<tr><th>{}</th>", esc(&label));
        for c in cells {
            let _ = write!(body, "<td>{c}</td>");
        }
        body.push_str("</tr>");
    }
    body.push_str("</table>");
    let ids: Vec<&str> = all.iter().map(|s| s.ruleset.as_str()).collect();
    Ok(page(&format!("Deal statistics: {}", ids.join(", ")), &body))
}
