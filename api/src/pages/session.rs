//! A session's running score sheet, as a table keeps it on paper: one row per deal, each player's
//! score in the deal and the running total under it, the deal linked to its game's page; the totals
//! drawn as lines deal by deal; where the ruleset plays a match, where it stands. The figures are
//! the API's (`GET /sessions/{id}`), read as it sends them.

use actix_web::{web, HttpResponse};
use maud::{html, Markup};
use serde_json::Value;
use tarot_engine::Q;

use crate::pages::page;
use crate::pages::score_sheet::amount;
use crate::problem::Problem;
use crate::state::AppState;

pub async fn session(state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    let st = state.clone();
    let session = id.into_inner();
    let sheet = crate::routes::blocking(move || {
        let sheet = crate::sheet::score_sheet(&st, &session)?;
        serde_json::to_value(sheet).map_err(|e| Problem::internal(e.to_string()))
    })
    .await;
    crate::pages::or_problem_page(sheet.map(|s| sheet_page(&s)))
}

/// The index's form: the session asked for, at its own address.
#[derive(serde::Deserialize)]
pub struct Ask {
    id: String,
}

pub async fn open(ask: Result<web::Query<Ask>, actix_web::Error>) -> HttpResponse {
    match ask {
        Ok(ask) => {
            let id: String = ask.id.trim().chars().filter(char::is_ascii_alphanumeric).collect();
            HttpResponse::SeeOther().insert_header(("Location", format!("/pages/sessions/{id}"))).finish()
        }
        Err(e) => crate::pages::bad_query(e),
    }
}

/// An amount as the API sends it (a number, or "n/d"), as people write it.
fn figure(v: &Value) -> String {
    let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
    Q::parse(&text).map_or(text, amount)
}

fn number(v: &Value) -> f64 {
    v.as_f64().or_else(|| v.as_str().and_then(|s| s.split_once('/')).and_then(|(n, d)| Some(n.parse::<f64>().ok()? / d.parse::<f64>().ok()?))).unwrap_or(0.0)
}

/// The options a deal was played with, as `name = value` (a word as written, without quotes), where
/// its record chose any.
fn options(chosen: &Value) -> Option<String> {
    let chosen = chosen.as_object().filter(|o| !o.is_empty())?;
    Some(chosen.iter().map(|(k, v)| format!("{k} = {}", v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect::<Vec<_>>().join(", "))
}

/// A player's figure in a list of `[player, amount]`.
fn of<'a>(list: &'a Value, player: &str) -> Option<&'a Value> {
    list.as_array()?.iter().find(|p| p[0] == player).map(|p| &p[1])
}

fn sheet_page(s: &Value) -> HttpResponse {
    let name = s["name"].as_str().unwrap_or_default();
    let id = s["id"].as_str().unwrap_or_default();
    let players: Vec<&str> = s["players"].as_array().map(|p| p.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let deals = s["deals"].as_array().cloned().unwrap_or_default();
    let body = html! {
        p { "The running score sheet of the table " strong { (name) } " (" (players.join(", ")) "): each deal's score for each player, and the running total under it. "
            "As data: " a href={ "/sessions/" (id) } { code { "GET /sessions/" (id) } } "." }
        @if deals.is_empty() {
            p { "No deal has been added yet: " code { "POST /sessions/" (id) "/games" } " adds one." }
        } @else {
            table class="session-sheet" {
                tr { th { "deal" } th { "ruleset" } th { "verdict" } th { "taker and contract" }
                    @for p in &players { th { (p) } } }
                @for d in &deals {
                    @let game = d["game"].as_str().unwrap_or_default();
                    @let status = d["status"].as_str().unwrap_or_default();
                    tr class="deal" data-deal=(d["number"]) {
                        th { a href={ "/pages/games/" (game) } { "deal " (d["number"]) } br; span class="src" { (game) } }
                        td { a href={ "/pages/rulesets/" (d["ruleset"].as_str().unwrap_or_default()) } { code { (d["ruleset"].as_str().unwrap_or_default()) } }
                            @if let Some(chosen) = options(&d["options"]) { br; span class="deal-options" { (chosen) } } }
                        td { span class=(status) { (status.replace('_', " ")) }
                            @if d["balanced"] == false { br; span class="invalid" { "the scores do not balance" } } }
                        td {
                            @if let Some(t) = d["taker"].as_str() { (t) }
                            @if let Some(c) = d["contract"].as_str() { @if d["taker"].is_string() { ": " } (c) }
                        }
                        @for p in &players {
                            td class="cell" {
                                span class="deal-score" { (of(&d["scores"], p).map(figure).unwrap_or_default()) } br;
                                strong class="running" { (of(&d["totals"], p).map(figure).unwrap_or_default()) }
                            }
                        }
                    }
                }
                tr class="totals" { th colspan="4" { "totals after " (deals.len()) " deal" @if deals.len() != 1 { "s" } }
                    @for p in &players { td { strong { (of(&s["totals"], p).map(figure).unwrap_or_default()) } } } }
            }
            (chart(&players, &deals))
        }
        (match_part(&s["match"]))
        @if let Some(why) = s["not_a_match"].as_str() { h2 { "No match" } p class="not-a-match" { "No match is read: " (why) "." } }
        @for key in ["pots_error", "standing_error", "dealer_error", "totals_error"] {
            @if let Some(e) = s[key].as_str() { p class="stop" { (e) } }
        }
    };
    page(&format!("Score sheet: {name}"), body)
}

/// Where the match stands, where the ruleset plays one.
fn match_part(m: &Value) -> Markup {
    if m.is_null() {
        return html! {};
    }
    html! {
        h2 { "The match" }
        p { (m["deals_played"]) " deal" @if m["deals_played"] != 1 { "s" } " played"
            @if let Some(n) = m["deals"].as_u64() { " of " (n) }
            @if !m["target"].is_null() { "; the match ends at a total of " (figure(&m["target"])) @if m["target_reached"] == true { ", which was reached" } }
            "." }
        @if let Some(who) = m["last_dealer"]["player"].as_str() {
            p class="last-dealer" { "A declaration in deal " (m["last_dealer"]["named_in"]) " named " strong { (who) } " to deal the last deal: the match ends with the next deal he deals after it." }
        }
        @if m["over"] == true {
            p { strong { "The match is over" } @if let Some(n) = m["over_after"].as_u64() { " after deal " (n) } ": "
                @let w: Vec<&str> = m["winners"].as_array().map(|w| w.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
                (w.join(" and ")) " won." }
        } @else { p { "The match is under way." } }
    }
}

/// Each player's running total as a line, deal by deal, from 0 before the first.
fn chart(players: &[&str], deals: &[Value]) -> Markup {
    const COLOURS: [&str; 6] = ["#1d3470", "#c0131b", "#2f6b1f", "#b38600", "#8a4fb8", "#37474f"];
    let (w, h, left, top) = (960.0, 260.0, 70.0, 20.0);
    let series: Vec<Vec<f64>> = players.iter().map(|p| std::iter::once(0.0).chain(deals.iter().map(|d| of(&d["totals"], p).map_or(0.0, number))).collect()).collect();
    let (lo, hi) = series.iter().flatten().fold((0.0f64, 0.0f64), |(a, b), v| (a.min(*v), b.max(*v)));
    let range = if hi > lo { hi - lo } else { 1.0 };
    let x = |i: usize| left + i as f64 * (w - left - 80.0) / deals.len().max(1) as f64;
    let y = |v: f64| top + (hi - v) / range * (h - top - 30.0);
    let labels = label_rows(&series.iter().map(|v| y(*v.last().unwrap_or(&0.0))).collect::<Vec<_>>(), 14.0);
    html! {
        figure {
            svg xmlns="http://www.w3.org/2000/svg" class="running-totals" role="img" width=(w) height=(h) viewBox={ "0 0 " (w) " " (h) } font-family="Georgia,serif" font-size="12" {
                title { "Each player's running total, deal by deal" }
                line x1=(left) y1=(y(0.0)) x2=(x(deals.len())) y2=(y(0.0)) stroke="#999" {}
                text x=(left - 6.0) y=(y(0.0) + 4.0) text-anchor="end" { "0" }
                text x=(left - 6.0) y=(y(hi) + 4.0) text-anchor="end" { (format!("{hi:.0}")) }
                text x=(left - 6.0) y=(y(lo) + 4.0) text-anchor="end" { (format!("{lo:.0}")) }
                @for i in 0..=deals.len() {
                    text x=(x(i)) y=(h - 8.0) text-anchor="middle" fill="#555" { @if i == 0 { "start" } @else { "deal " (i) } }
                }
                @for (k, (p, values)) in players.iter().zip(&series).enumerate() {
                    polyline class="player-line" data-player=(p) fill="none" stroke=(COLOURS[k % COLOURS.len()]) stroke-width="2"
                        points=(values.iter().enumerate().map(|(i, v)| format!("{:.1},{:.1}", x(i), y(*v))).collect::<Vec<_>>().join(" ")) {}
                    text x=(x(deals.len()) + 4.0) y=(labels[k] + 4.0) fill=(COLOURS[k % COLOURS.len()]) { (p) }
                }
            }
            figcaption class="src" { "Each player's running total after each deal." }
        }
    }
}

/// Where each player's name goes beside the chart's last deal: at the height of his line's end, moved
/// down just enough that no two names (each `gap` high) overlap, in the order the lines end top to
/// bottom (players with equal totals keep their seat order).
fn label_rows(ends: &[f64], gap: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..ends.len()).collect();
    order.sort_by(|&a, &b| ends[a].total_cmp(&ends[b]).then(a.cmp(&b)));
    let mut rows = ends.to_vec();
    let mut below = f64::NEG_INFINITY;
    for k in order {
        rows[k] = rows[k].max(below);
        below = rows[k] + gap;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::label_rows;

    #[test]
    fn names_of_equal_totals_are_written_one_under_another() {
        // Three lines ending together and one far below: the three names a row apart, in seat order.
        assert_eq!(label_rows(&[20.0, 20.0, 200.0, 20.0], 14.0), vec![20.0, 34.0, 200.0, 48.0]);
        // Lines ending apart keep their names where they end.
        assert_eq!(label_rows(&[100.0, 20.0, 60.0], 14.0), vec![100.0, 20.0, 60.0]);
        // A name pushed down pushes the next one only if it would still overlap.
        assert_eq!(label_rows(&[20.0, 25.0, 50.0], 14.0), vec![20.0, 34.0, 50.0]);
    }
}
