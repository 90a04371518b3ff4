//! The rules of several rulesets side by side, one row per aspect: in a row where they differ, the
//! clauses that not every ruleset has are highlighted, not the whole row.

use actix_web::{web, HttpResponse};
use maud::html;
use serde::Deserialize;
use tarot_engine::compare_for_people as compare;

use crate::pages::page;
use crate::problem::Problem;
use crate::routes::rulesets_to_compare;
use crate::state::AppState;

#[derive(Deserialize)]
pub struct Ids {
    pub(crate) ids: String,
}

/// The page, or what went wrong as a page.
pub async fn compare_rules(state: web::Data<AppState>, query: Result<web::Query<Ids>, actix_web::Error>) -> HttpResponse {
    match query {
        Ok(query) => crate::pages::or_problem_page(compare_rules_page(state, query).await),
        Err(e) => crate::pages::bad_query(e),
    }
}

async fn compare_rules_page(state: web::Data<AppState>, query: web::Query<Ids>) -> Result<HttpResponse, Problem> {
    let rules = rulesets_to_compare(&state, "ids", query.ids.split(','))?;
    let c = compare(&rules);
    let body = html! {
        p { "Each ruleset with its options at their defaults. In the rows marked ≠ the rulesets differ, and the clauses "
            "that are not the same in all of them are highlighted. Each clause gives its source." }
        table {
            tr {
                th { "aspect" }
                @for id in &c.rulesets { th { a href={ "/pages/rulesets/" (id) } { code { (id) } } } }
            }
            @for row in &c.rows {
                tr class=(if row.differs { "differs" } else { "same" }) {
                    th { (row.aspect) @if row.differs { " ≠" } }
                    @for (i, cell) in row.cells.iter().enumerate() {
                        td {
                            @if cell.is_empty() { span class="src" { "(nothing)" } }
                            @for line in cell {
                                // A clause differs when some other ruleset has no clause with its words.
                                @let differs = row.differs && row.cells.iter().enumerate().any(|(j, other)| j != i && !other.iter().any(|o| o.text == line.text));
                                div class=[differs.then_some("differs")] {
                                    (line.text)
                                    @if let Some(s) = &line.source { " " span class="src" { "[" (s) "]" } }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(page(&format!("Rules side by side: {}", c.rulesets.join(", ")), body))
}
