//! The OpenAPI document (utoipa) and the examples it shows, taken from `fixtures/`.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::routes;

/// A fixture as JSON, for the document's examples. The fixtures are built into the binary.
pub fn example(path: &str) -> serde_json::Value {
    let text = match path {
        "worked/seed000-hand1.json" => include_str!("../../fixtures/worked/seed000-hand1.json"),
        "worked/fft-deal5.json" => include_str!("../../fixtures/worked/fft-deal5.json"),
        _ => "null",
    };
    serde_json::from_str(text).unwrap_or_default()
}

/// An append: the first bid of a fixture's game, after its deal.
pub fn append_example() -> serde_json::Value {
    let game = example("worked/seed000-hand1.json");
    serde_json::json!({ "expected_version": 1, "events": [game["events"][1]], "ids": ["first-bid"] })
}

/// A game compared under two rulesets: TarotClub's `tarotmag_17`, legal under fft-4p, where the first
/// hand leads, and not under the Queen of Tarot's rules, where the declarer leads.
pub fn compare_example() -> serde_json::Value {
    let game: serde_json::Value = serde_json::from_str(include_str!("../../fixtures/fft-4p/tarotclub/tarotmag_17.json")).unwrap_or_default();
    serde_json::json!({ "game": game, "rulesets": ["fft-4p", "queen-of-tarot"] })
}

/// The verdict of seed 000's Hand #1, as `/validate` returns it.
pub fn verdict_example() -> serde_json::Value {
    let registry = tarot_engine::Registry::builtin().ok();
    let record: Option<tarot_engine::GameRecord> = serde_json::from_value(example("worked/seed000-hand1.json")).ok();
    match (registry, record) {
        (Some(reg), Some(rec)) => reg.get(&rec.ruleset).and_then(|r| tarot_engine::replay(r, &rec).ok()).and_then(|v| serde_json::to_value(v).ok()).unwrap_or_default(),
        _ => serde_json::Value::Null,
    }
}

struct WriteToken;

impl Modify for WriteToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "write_token",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some("Needed for writes when the server runs with --write-token")).build()),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Tarot rules archive", description = "Recorded tarot games replayed against the rules of every variant the sources describe, from Marolles 1637 to today's French Tarot: verdicts (legal or not, where and why, with the rule and its source) and scores. Errors are application/problem+json (RFC 9457)."),
    paths(
        routes::health,
        routes::rulesets,
        routes::ruleset,
        routes::compare,
        routes::compare_game,
        routes::stats,
        routes::validate,
        routes::create_game,
        crate::import::import_games,
        routes::list_games,
        routes::game,
        routes::events,
        routes::append,
        routes::create_session,
        routes::add_to_session,
        routes::session,
    ),
    components(schemas(crate::problem::Problem)),
    modifiers(&WriteToken),
    tags((name = "games", description = "Validate, store and continue recorded games"), (name = "rulesets", description = "The rules"), (name = "sessions", description = "Score sheets of a table's deals"), (name = "meta"))
)]
pub struct ApiDoc;

/// The OpenAPI document as the server serves it, pretty-printed (the committed `openapi/openapi.json`).
pub fn openapi_json() -> String {
    ApiDoc::openapi().to_pretty_json().unwrap_or_default() + "\n"
}
