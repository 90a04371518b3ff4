//! Deal statistics side by side, with a form to ask for others. Rows are labelled in words, with
//! each ruleset's own names for its annulments, declarations and card classes.

use actix_web::{web, HttpResponse};
use maud::html;
use serde::Deserialize;
use tarot_engine::DealStats;

use crate::pages::index::roots;
use crate::pages::page;
use crate::problem::Problem;
use crate::routes::{deal_statistics, StatsQuery};
use crate::state::AppState;

/// The form's query: the API's, every field optional.
#[derive(Deserialize)]
pub struct StatsPage {
    rulesets: Option<String>,
    deals: Option<String>,
    seed: Option<String>,
    players: Option<String>,
    options: Option<String>,
}

/// The page, or what went wrong as a page.
pub async fn stats(state: web::Data<AppState>, query: Result<web::Query<StatsPage>, actix_web::Error>) -> HttpResponse {
    match query {
        Ok(query) => crate::pages::or_problem_page(stats_page(state, query).await),
        Err(e) => crate::pages::bad_query(e),
    }
}

async fn stats_page(state: web::Data<AppState>, query: web::Query<StatsPage>) -> Result<HttpResponse, Problem> {
    let q = StatsQuery {
        rulesets: query.rulesets.clone().unwrap_or_else(|| roots(&state).join(",")),
        deals: query.deals.clone(),
        seed: query.seed.clone(),
        players: query.players.clone(),
        options: query.options.clone(),
    };
    let ask = q.ask(&state)?;
    let (rulesets, deals, seed, players, options) = (q.rulesets, ask.deals, ask.seed, ask.players, q.options.unwrap_or_default());
    let all = deal_statistics(&state, ask).await?;
    let all: &[DealStats] = &all;
    let hands = |t: &DealStats| t.deals * t.players as u64;
    // One row per annulment, declaration and class count any of the rulesets has, labelled in words
    // by the first ruleset that has it; for each ruleset its count and what it counts among, or
    // nothing where the ruleset has no such thing.
    let mut rows: Vec<(usize, String, Vec<Option<(u64, u64)>>)> = vec![];
    let mut row = |section: usize, label: String, cells: Vec<Option<(u64, u64)>>| {
        if !rows.iter().any(|(_, l, _)| *l == label) {
            rows.push((section, label, cells));
        }
    };
    for s in all {
        let r = state.registry.get(&s.ruleset);
        for name in s.annulments.keys() {
            let label = r.and_then(|r| r.annulments.iter().find(|a| a.name == *name)).map_or(name.replace('_', " "), |a| a.label.clone());
            row(0, format!("deals annulled: {label}"), all.iter().map(|t| t.annulments.get(name).map(|n| (*n, t.deals))).collect());
        }
    }
    for s in all {
        let r = state.registry.get(&s.ruleset);
        for name in s.declarations.keys() {
            let label = r.and_then(|r| r.declarations.iter().find(|d| d.name == *name)).map_or(name.replace('_', " "), |d| d.label.to_string());
            row(1, format!("hands that could declare: {label}"), all.iter().map(|t| t.declarations.get(name).map(|n| (*n, hands(t)))).collect());
        }
    }
    for s in all {
        let r = state.registry.get(&s.ruleset);
        for (name, counts) in &s.classes {
            let one = r.and_then(|r| r.classes.iter().find(|k| k.name == *name)).and_then(|k| k.label.clone()).unwrap_or_else(|| name.clone());
            for k in 0..counts.len() {
                // A class of one card is had or not: "hands with the Petit", "hands without".
                let label = match (counts.len(), k) {
                    (2, 0) => format!("hands without {one}"),
                    (2, _) => format!("hands with {one}"),
                    // The plural as the label writes it ("Tarots"), where the name is that plural.
                    _ => format!("hands with {}", how_many(k, &one, if name.eq_ignore_ascii_case(&format!("{one}s")) { format!("{one}s") } else { name.clone() }.as_str())),
                };
                row(2, label, all.iter().map(|t| t.classes.get(name).and_then(|c| c.get(k)).map(|n| (*n, hands(t)))).collect());
            }
        }
    }
    // A count no ruleset met in these deals is left out (a hand of twenty trumps), said below.
    let dropped = rows.iter().filter(|(_, _, cells)| cells.iter().all(|c| c.is_none_or(|(n, _)| n == 0))).count();
    rows.retain(|(_, _, cells)| cells.iter().any(|c| c.is_some_and(|(n, _)| n > 0)));
    let body = html! {
        form method="get" action="/pages/stats" {
            label { "rulesets " input name="rulesets" value=(rulesets) size="40"; } " "
            label { "deals " input name="deals" value=(deals) size="8"; } " "
            label { "seed " input name="seed" value=(seed) size="6"; } " "
            label { "players " input name="players" value=(players.map(|n| n.to_string()).unwrap_or_default()) size="3"; } " "
            label { "options " input name="options" value=(options) size="24" placeholder="NAME=VALUE,..."; } " "
            button { "deal" }
        }
        p { strong { "Note:" } " " (tarot_engine::STATS_NOTE) ". Annulments count deals (a deal once, for the first that strikes); declarations and card classes count hands." }
        p { @for (i, s) in all.iter().enumerate() {
                @if i > 0 { " · " }
                span class={ "swatch c" (i % COLOURS) } {} " " a href={ "/pages/rulesets/" (s.ruleset) } { code { (s.ruleset) } } " " span class="src" { (s.players) " players, " (s.deals) " deals"
                    @for (k, v) in &s.options { ", " code { (k) " = " (v.as_str().map_or_else(|| v.to_string(), str::to_string)) } }
                    @if let Some(pack) = &s.pack { "; " (pack) } }
            } }
        @for (section, title) in SECTIONS.iter().enumerate() {
            @let mine: Vec<&(usize, String, Vec<Option<(u64, u64)>>)> = rows.iter().filter(|r| r.0 == section).collect();
            @if !mine.is_empty() {
                @let top = mine.iter().flat_map(|r| r.2.iter().flatten()).map(|&(n, of)| share(n, of)).fold(0.0, f64::max);
                h2 { (title) }
                p class="src" { "Each bar is the share of " (if section == 0 { "deals" } else { "hands" }) ", drawn against the largest in this part ("
                    (format!("{:.3}", top)) "%); a ruleset that has no such thing has no bar." }
                table class="bars" {
                    @for (_, label, cells) in &mine {
                        @let had: Vec<(usize, (u64, u64))> = cells.iter().enumerate().filter_map(|(i, c)| c.map(|c| (i, c))).collect();
                        @for (j, (i, (n, of))) in had.iter().enumerate() {
                            tr class="bar-row" {
                                @if j == 0 { th rowspan=(had.len()) { (label) } }
                                td class="ruleset" { code { (all[*i].ruleset) } }
                                td class="track" {
                                    div class={ "bar c" (i % COLOURS) } style={ "width:" (format!("{:.2}", if top > 0.0 { share(*n, *of) / top * 100.0 } else { 0.0 })) "%" } data-share=(format!("{:.3}", share(*n, *of))) {}
                                }
                                td class="figure" { (format!("{:.3}", share(*n, *of))) "% " span class="src" { "(" (n) " of " (of) ")" } }
                            }
                        }
                    }
                }
            }
        }
        @if dropped > 0 { p class="src" { (dropped) " counts that no hand or deal met here are left out." } }
    };
    let ids: Vec<&str> = all.iter().map(|s| s.ruleset.as_str()).collect();
    Ok(page(&format!("Deal statistics: {}", ids.join(", ")), body))
}

/// The three parts of the page: what annuls deals, what hands could declare, how many of a class's
/// cards hands hold.
const SECTIONS: [&str; 3] = ["Deals annulled", "Hands that could declare", "Cards of a class in a hand"];

/// How many colours the bars take in turn, one per ruleset (`.bar.c0` ... in the page's style).
const COLOURS: usize = 6;

/// `n` of `of`, in percent.
fn share(n: u64, of: u64) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

/// "no oudler", "one oudler", "three oudlers": a count of a class's cards in words, from its label
/// (one card) and its name (several).
fn how_many(k: usize, one: &str, many: &str) -> String {
    const WORDS: [&str; 13] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    let n = WORDS.get(k).map_or(k.to_string(), |w| w.to_string());
    if k == 1 || k == 0 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_in_words() {
        assert_eq!(super::how_many(0, "oudler", "oudlers"), "no oudler");
        assert_eq!(super::how_many(1, "oudler", "oudlers"), "one oudler");
        assert_eq!(super::how_many(3, "oudler", "oudlers"), "three oudlers");
        assert_eq!(super::how_many(14, "trump", "trumps"), "14 trumps");
    }
}
