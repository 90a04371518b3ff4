//! Builds the application: state, routes, the docs page, request logging. `run` takes a bound
//! listener, so tests (and `serve --addr 127.0.0.1:0`) can use any free port.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Instant;

use actix_web::dev::{Server, Service};
use actix_web::http::header::AUTHORIZATION;
use actix_web::http::StatusCode;
use actix_web::{web, App, HttpRequest, HttpServer};
use tarot_engine::Registry;
use tarot_store::Store;
use utoipa::OpenApi;
use utoipa_swagger_ui::{Config, SwaggerUi};

use crate::docs::ApiDoc;
use crate::problem::Problem;
use crate::{pages, routes};

pub struct AppState {
    pub store: Arc<Store>,
    pub registry: Arc<Registry>,
    /// When set, every write needs `Authorization: Bearer <token>`.
    pub write_token: Option<String>,
}

impl AppState {
    /// 401 without a token, 403 with a wrong one; reads never call this.
    pub fn authorize(&self, req: &HttpRequest) -> Result<(), Problem> {
        let Some(token) = &self.write_token else { return Ok(()) };
        let given = req.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).map(str::trim);
        match given {
            None => Err(Problem::new(StatusCode::UNAUTHORIZED, "unauthorized", "this server needs `Authorization: Bearer <token>` for writes")),
            Some(t) if t == token => Ok(()),
            Some(_) => Err(Problem::new(StatusCode::FORBIDDEN, "forbidden", "the write token is wrong")),
        }
    }
}

pub fn run(listener: TcpListener, state: AppState) -> std::io::Result<Server> {
    let state = web::Data::new(state);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            // A query string that cannot be read is a problem like any other, not plain text.
            .app_data(web::QueryConfig::default().error_handler(|e, _| Problem::new(StatusCode::BAD_REQUEST, "bad-query", format!("the query string cannot be read: {e}")).into()))
            .wrap_fn(|req, srv| {
                // One line per request: method, path, status and latency.
                let start = Instant::now();
                let (method, path) = (req.method().clone(), req.path().to_string());
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
            .route("/", web::get().to(pages::index))
            .route("/health", web::get().to(routes::health))
            .route("/validate", web::post().to(routes::validate))
            .route("/games", web::post().to(routes::create_game))
            .route("/games", web::get().to(routes::list_games))
            .route("/games:import", web::post().to(crate::import::import_games))
            .route("/rulesets", web::get().to(routes::rulesets))
            .route("/rulesets/compare", web::get().to(routes::compare))
            .route("/stats", web::get().to(routes::stats))
            .route("/compare", web::post().to(routes::compare_game))
            .route("/sessions", web::post().to(routes::create_session))
            .route("/pages/rulesets/compare", web::get().to(pages::compare_rules))
            .route("/pages/stats", web::get().to(pages::stats))
            .route("/docs", web::get().to(|| async { actix_web::HttpResponse::PermanentRedirect().insert_header(("Location", "/docs/")).finish() }))
            .route("/rulesets/{id}", web::get().to(routes::ruleset))
            .route("/games/{id}", web::get().to(routes::game))
            .route("/games/{id}/events", web::get().to(routes::events))
            .route("/games/{id}/events", web::post().to(routes::append))
            .route("/sessions/{id}", web::get().to(routes::session))
            .route("/sessions/{id}/games", web::post().to(routes::add_to_session))
            .route("/pages/games/{id}/compare", web::get().to(pages::compare_game_page))
            .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", ApiDoc::openapi()).config(Config::new(["/openapi.json"]).validator_url("none")))
            .default_service(web::to(
                |req: HttpRequest| async move { Err::<actix_web::HttpResponse, _>(Problem::not_found(format!("no route for {} {}", req.method(), req.path()))) },
            ))
    })
    .listen(listener)?
    .run();
    Ok(server)
}
