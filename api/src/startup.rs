//! Builds the application: routes, the docs page, request logging. `run` takes a bound
//! listener, so tests (and `serve --addr 127.0.0.1:0`) can use any free port.

use std::net::TcpListener;
use std::time::Instant;

use actix_web::dev::{Server, Service};
use actix_web::http::header::ContentType;
use actix_web::http::header::X_CONTENT_TYPE_OPTIONS;
use actix_web::http::Method;
use actix_web::http::StatusCode;
use actix_web::middleware::DefaultHeaders;
use actix_web::{web, App, HttpRequest, HttpServer, Resource};
use utoipa_swagger_ui::{Config, SwaggerUi};

use crate::problem::Problem;
use crate::routes::{games, import, meta, rulesets, sessions, stats};
use crate::state::AppState;
use crate::{openapi, pages};

/// A query string that cannot be read, in a client's words: a missing parameter is named.
fn query_problem(e: &actix_web::error::QueryPayloadError) -> Problem {
    let why = match e {
        actix_web::error::QueryPayloadError::Deserialize(e) => e.to_string(),
        e => e.to_string(),
    };
    let why = match why.strip_prefix("missing field `") {
        Some(rest) => format!("the parameter `{}` is required", rest.trim_end_matches('`')),
        None => why,
    };
    Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("the query string cannot be read: {why}"))
}

/// A path whose routes allow `methods` (GET implying HEAD): any other method is a 405 problem with
/// `Allow`, rather than the 404 of an unknown path.
fn resource(path: &str, methods: &'static [&'static str]) -> Resource {
    web::resource(path).default_service(web::to(move |req: HttpRequest| async move {
        let allow: Vec<&str> = methods.iter().flat_map(|&m| if m == "GET" { vec!["GET", "HEAD"] } else { vec![m] }).collect();
        let mut p = Problem::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            format!("{} {} is not allowed: {} answers {}", req.method(), req.path(), req.path(), allow.join(", ")),
        );
        p.allow = Some(allow.join(", "));
        Err::<actix_web::HttpResponse, _>(p)
    }))
}

pub fn run(listener: TcpListener, state: AppState) -> std::io::Result<Server> {
    let state = web::Data::new(state);
    let document = web::Bytes::from(openapi::openapi_json());
    let server = HttpServer::new(move || {
        let document = document.clone();
        App::new()
            .app_data(state.clone())
            // A browser must not read an answer as another type than it says (a problem's JSON as a
            // page, say): every answer, pages and API alike.
            .wrap(DefaultHeaders::new().add((X_CONTENT_TYPE_OPTIONS, "nosniff")))
            // A query string that cannot be read is a problem like any other, not plain text.
            .app_data(web::QueryConfig::default().error_handler(|e, _| query_problem(&e).into()))
            .wrap_fn(|mut req, srv| {
                // One line per request: method, path, status and latency.
                let start = Instant::now();
                let (method, path) = (req.method().clone(), req.path().to_string());
                // HEAD is GET without the body: routed as GET, and actix sends no body to a HEAD.
                if req.method() == Method::HEAD {
                    req.head_mut().method = Method::GET;
                }
                let fut = srv.call(req);
                async move {
                    let res = fut.await;
                    let status = res.as_ref().map(|r| r.status().as_u16()).unwrap_or(500);
                    tracing::info!(target: "http", "{method} {path} {status} {}µs", start.elapsed().as_micros());
                    res
                }
            })
            // Paths without a parameter first: actix tries the routes in order, and each path with a
            // `{parameter}` is a regular expression to run, so a request to a fixed path runs none.
            // Another method on a known path is 405 with `Allow`.
            .service(resource("/", &["GET"]).route(web::get().to(pages::index)))
            .service(resource("/health", &["GET"]).route(web::get().to(meta::health)))
            .service(resource("/validate", &["POST"]).route(web::post().to(games::validate)))
            .service(resource("/games", &["GET", "POST"]).route(web::get().to(games::list_games)).route(web::post().to(games::create_game)))
            .service(resource("/games:import", &["POST"]).route(web::post().to(import::import_games)))
            .service(resource("/rulesets", &["GET"]).route(web::get().to(rulesets::rulesets)))
            .service(resource("/rulesets/compare", &["GET"]).route(web::get().to(rulesets::compare)))
            .service(resource("/stats", &["GET"]).route(web::get().to(stats::stats)))
            .service(resource("/compare", &["POST"]).route(web::post().to(rulesets::compare_game)))
            .service(resource("/sessions", &["POST"]).route(web::post().to(sessions::create_session)))
            .service(resource("/pages/rulesets/compare", &["GET"]).route(web::get().to(pages::compare_rules)))
            .service(resource("/pages/stats", &["GET"]).route(web::get().to(pages::stats)))
            .service(resource("/pages/sources", &["GET"]).route(web::get().to(pages::sources)))
            .service(resource("/pages/sessions", &["GET"]).route(web::get().to(pages::open_session)))
            .service(resource("/pages/check", &["GET", "POST"]).route(web::get().to(pages::check_form)).route(web::post().to(pages::check)))
            .service(resource("/docs", &["GET"]).route(web::get().to(|| async { actix_web::HttpResponse::PermanentRedirect().insert_header(("Location", "/docs/")).finish() })))
            .service(resource("/rulesets/{id}", &["GET"]).route(web::get().to(rulesets::ruleset)))
            .service(resource("/games/{id}", &["GET"]).route(web::get().to(games::game)))
            .service(resource("/games/{id}/events", &["GET", "POST"]).route(web::get().to(games::events)).route(web::post().to(games::append)))
            .service(resource("/sessions/{id}", &["GET"]).route(web::get().to(sessions::session)))
            .service(resource("/sessions/{id}/games", &["POST"]).route(web::post().to(sessions::add_to_session)))
            .service(resource("/pages/games/{id}/compare", &["GET"]).route(web::get().to(pages::compare_game_page)))
            .service(resource("/pages/games/{id}", &["GET"]).route(web::get().to(pages::game)))
            .service(resource("/pages/sources/{id}", &["GET"]).route(web::get().to(pages::source)))
            .service(resource("/pages/sessions/{id}", &["GET"]).route(web::get().to(pages::session)))
            .service(resource("/pages/rulesets/{id}/example", &["GET"]).route(web::get().to(pages::example)))
            .service(resource("/pages/rulesets/{id}", &["GET"]).route(web::get().to(pages::ruleset)))
            .service(resource("/openapi.json", &["GET"]).route(web::get().to(move || {
                let doc = document.clone();
                async move { actix_web::HttpResponse::Ok().content_type(ContentType::json()).body(doc) }
            })))
            .service(SwaggerUi::new("/docs/{_:.*}").config(Config::new(["/openapi.json"]).validator_url("none")))
            .default_service(web::to(
                |req: HttpRequest| async move { Err::<actix_web::HttpResponse, _>(Problem::not_found(format!("no route for {} {}", req.method(), req.path()))) },
            ))
    })
    // A client that closes its side of the connection has gone: the connection is dropped at once,
    // and with it the handler's future, which stops the work it waits for (the deal statistics read
    // a flag set then). Without this, a client that asked for statistics and hung up left them to
    // run to the end. A client that half-closes after its request (`shutdown(SHUT_WR)`) gets no
    // answer; common HTTP clients (curl, browsers) keep both sides open.
    .h1_allow_half_closed(false)
    .listen(listener)?
    .run();
    Ok(server)
}
