//! The server itself.

use actix_web::HttpResponse;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct Health {
    status: &'static str,
}

/// Liveness.
#[utoipa::path(get, path = "/health", tag = "meta",
    description = "Answers 200 while the server runs; the baseline of the load script.",
    responses((status = 200, description = "The server is up", body = Health)))]
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}
