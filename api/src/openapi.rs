//! The OpenAPI document (utoipa): the operations of `crate::routes`, the schemas of
//! `crate::schema`, the examples of `crate::docs`.

use tarot_store::openapi::Closed;
use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::RefOr;
use utoipa::{Modify, OpenApi};

use crate::routes::{games, import, meta, rulesets, sessions, stats};

/// OpenAPI links between operations: a client (or a stateful test) follows a created game to its
/// page, its events and an append, and a session to its score sheet and a deal added to it.
struct Links;

impl Modify for Links {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let game_links = [("GetGame", "game", "The stored game"), ("GetEvents", "events", "Its events"), ("AppendEvents", "append", "Add moves to it")];
        let session_links = [("GetSession", "session", "The session's score sheet"), ("AddGame", "add_to_session", "Add a stored game to it")];
        for (path, method, status, links) in
            [("/games", "post", "201", &game_links[..]), ("/games/{id}/events", "post", "200", &game_links[..]), ("/sessions", "post", "201", &session_links[..])]
        {
            let Some(item) = openapi.paths.paths.get_mut(path) else { continue };
            let operation = if method == "post" { item.post.as_mut() } else { item.get.as_mut() };
            let Some(RefOr::T(response)) = operation.and_then(|o| o.responses.responses.get_mut(status)) else { continue };
            for (name, operation_id, description) in links {
                let link = LinkBuilder::new().operation_id(*operation_id).parameter("id", "$response.body#/id").description(*description).build();
                response.links.insert(name.to_string(), RefOr::T(link));
            }
        }
    }
}

/// The examples of the wire types that come from the fixtures: the engine, which derives their
/// schemas, does not read the fixtures.
struct Examples;

impl Modify for Examples {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else { return };
        for (name, example) in [("GameRecord", crate::docs::example("worked/seed000-hand1.json")), ("Verdict", crate::docs::verdict_example())] {
            if let Some(RefOr::T(utoipa::openapi::schema::Schema::Object(schema))) = components.schemas.get_mut(name) {
                schema.example = Some(example);
            }
        }
    }
}

/// The write token, a bearer token the writes need where the server has one (`--write-token`).
///
/// The writes name it in their `#[utoipa::path]`, optional: `security((), ("write_token" = []))`.
/// In the document that requirement is the document's own `security`, which the writes inherit, and
/// each read says `security: []` (none). Where an operation carries a requirement of its own, even one
/// that allows no token, openapi-python-client makes its functions demand an authenticated client,
/// which a server without a token has no use for.
struct WriteToken;

impl Modify for WriteToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "write_token",
            SecurityScheme::Http(
                HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some("Needed for writes when the server runs with --write-token; reads need none")).build(),
            ),
        );
        let optional = vec![SecurityRequirement::default(), SecurityRequirement::new("write_token", Vec::<String>::new())];
        for item in openapi.paths.paths.values_mut() {
            let operations = [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.options, &mut item.head, &mut item.patch, &mut item.trace];
            for operation in operations.into_iter().flatten() {
                operation.security = match operation.security.take() {
                    Some(security) if security == optional => None,
                    Some(security) => Some(security),
                    None => Some(vec![]),
                };
            }
        }
        openapi.security = Some(optional);
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Tarot rules archive", description = "Recorded tarot games replayed against the rules of every variant the sources describe, from Marolles 1637 to today's French Tarot: verdicts (legal or not, where and why, with the rule and its source) and scores. Errors are application/problem+json (RFC 9457)."),
    paths(
        meta::health,
        rulesets::rulesets,
        rulesets::ruleset,
        rulesets::compare,
        rulesets::compare_game,
        stats::stats,
        games::validate,
        games::create_game,
        import::import_games,
        games::list_games,
        games::game,
        games::events,
        games::append,
        sessions::create_session,
        sessions::add_to_session,
        sessions::session,
    ),
    components(schemas(crate::problem::Problem, crate::schema::StatusFilter, crate::schema::OffsetParam, crate::schema::LimitParam, crate::schema::ImportLine)),
    modifiers(&WriteToken, &Links, &Examples, &Closed),
    tags((name = "games", description = "Validate, store and continue recorded games"), (name = "rulesets", description = "The rules"), (name = "sessions", description = "Score sheets of a table's deals"), (name = "meta"))
)]
pub struct ApiDoc;

/// Removes `items: {}` beside `prefixItems`, which utoipa 5.5 writes for every array: it allows any
/// further item, as no `items` does, but a generated client reads it as a further item of any type and
/// types the tuple's items as anything (the tuple's `maxItems` allows no further item anyway).
fn drop_empty_items(schema: &mut serde_json::Value) {
    match schema {
        serde_json::Value::Object(map) => {
            if map.contains_key("prefixItems") && map.get("items").is_some_and(|i| i.as_object().is_some_and(|o| o.is_empty())) {
                map.remove("items");
            }
            map.values_mut().for_each(drop_empty_items);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_empty_items),
        _ => {}
    }
}

/// The OpenAPI document as the server serves it. utoipa 5.5 writes a link's `operationId` and
/// `requestBody` in snake case, which no client reads: they are renamed here. A tuple has no `items`
/// ([`drop_empty_items`]).
pub fn document() -> serde_json::Value {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
    if let Some(schemas) = doc.pointer_mut("/components/schemas") {
        drop_empty_items(schemas);
    }
    if let Some(paths) = doc["paths"].as_object_mut() {
        let responses = paths.values_mut().flat_map(|item| item.as_object_mut().into_iter().flat_map(|ops| ops.values_mut())).filter_map(|op| op["responses"].as_object_mut());
        for links in responses.flat_map(|r| r.values_mut()).filter_map(|r| r.get_mut("links").and_then(|l| l.as_object_mut())) {
            for link in links.values_mut().filter_map(|l| l.as_object_mut()) {
                for (snake, camel) in [("operation_id", "operationId"), ("request_body", "requestBody"), ("operation_ref", "operationRef")] {
                    if let Some(v) = link.remove(snake) {
                        link.insert(camel.to_string(), v);
                    }
                }
            }
        }
    }
    doc
}

/// The OpenAPI document pretty-printed (the committed `openapi/openapi.json`).
pub fn openapi_json() -> String {
    serde_json::to_string_pretty(&document()).unwrap_or_default() + "\n"
}
