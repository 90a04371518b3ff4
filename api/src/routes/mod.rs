//! The handlers, one module per resource. Each reads its request into engine or store types, makes
//! one call (to `crate::usecases` for the store's use cases, on the blocking pool when it touches
//! the store, which waits for the disk), and turns the result back into JSON.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::problem::Problem;

pub mod games;
pub mod import;
pub mod meta;
pub mod rulesets;
pub mod sessions;
pub mod stats;

pub(crate) use crate::problem::store_problem;
pub(crate) use rulesets::rulesets_to_compare;
pub(crate) use stats::{deal_statistics, StatsQuery};

type Reply = Result<HttpResponse, Problem>;

/// Runs store work on the blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, Problem> + Send + 'static) -> Result<T, Problem> {
    web::block(f).await.map_err(|e| Problem::internal(format!("the worker failed: {e}")))?
}

/// A query string as its pairs. A list (`ids`, `rulesets`) may be given comma-separated, as the
/// document says (`style: form, explode: false`), or as the parameter repeated, as many generated
/// clients send a list whatever the document says.
pub(crate) struct Params(Vec<(String, String)>);

impl Params {
    pub(crate) fn of(req: &HttpRequest) -> Result<Params, Problem> {
        web::Query::<Vec<(String, String)>>::from_query(req.query_string())
            .map(|q| Params(q.into_inner()))
            .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("the query string cannot be read: {e}")))
    }

    /// Every value of `name`, comma-separated; `None` when it is absent.
    pub(crate) fn list(&self, name: &str) -> Option<String> {
        let values: Vec<&str> = self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect();
        (!values.is_empty()).then(|| values.join(","))
    }

    /// The value of `name` (the last, if given more than once).
    pub(crate) fn one(&self, name: &str) -> Option<String> {
        self.0.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    pub(crate) fn missing(name: &str) -> Problem {
        Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("the query string cannot be read: the parameter `{name}` is required"))
    }
}

/// A listing's `offset` or `limit`: a whole number as `whole` reads it, but with no largest value, as
/// the document says: one larger than i64's largest (what PostgreSQL's OFFSET and LIMIT take) is read
/// as that largest, which skips or lists every game there can be (an offset past the last game gives
/// an empty page, not an error).
pub(crate) fn page_bound(name: &str, value: Option<&str>) -> Result<Option<u64>, Problem> {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(v.parse::<u64>().unwrap_or(u64::MAX).min(i64::MAX as u64))),
        other => whole(name, other),
    }
}

/// A whole number from a query parameter (read as text, so a bad one is named); empty is absent, as
/// a form sends a box left empty.
pub(crate) fn whole(name: &str, value: Option<&str>) -> Result<Option<u64>, Problem> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        // Whole numbers up to i64's largest, as the document says (`int64`).
        Some(v) => match v.parse::<u64>() {
            Ok(n) if n <= i64::MAX as u64 => Ok(Some(n)),
            Ok(_) => Err(Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("`{name}` is at most {}, not `{v}`", i64::MAX))),
            Err(_) => Err(Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("`{name}` is a whole number, not `{v}`"))),
        },
    }
}
