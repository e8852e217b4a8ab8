//! Probes for orchestrators and load balancers.

use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::db;
use crate::error::ApiError;
use crate::state::AppState;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_health).service(get_readiness);
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProbeStatus {
    /// `ok` (process up) or `ready` (database reachable)
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// Liveness: the process is up and answering.
#[utoipa::path(
    tag = "operations",
    operation_id = "get_health",
    responses((status = 200, description = "The process is up", body = ProbeStatus,
               example = json!({"status": "ok"})))
)]
#[get("/healthz")]
pub async fn get_health() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(ProbeStatus { status: "ok" })
}

/// Readiness: the database answers a query.
#[utoipa::path(
    tag = "operations",
    operation_id = "get_readiness",
    responses(
        (status = 200, description = "The database is reachable", body = ProbeStatus,
         example = json!({"status": "ready"})),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/readyz")]
pub async fn get_readiness(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    db::ping(&state.pool).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(ProbeStatus { status: "ready" }))
}
