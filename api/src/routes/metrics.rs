//! `GET /metrics` (docs/metrics.md): the Prometheus text exposition
//! format, on the API's address or on `METRICS_BIND_ADDRESS` instead. Not
//! part of the API's OpenAPI document: it is for the operator's scraper.

use actix_web::{web, HttpResponse};

use crate::metrics::METRICS;
use crate::state::AppState;

/// The path it is served at.
pub const METRICS_PATH: &str = "/metrics";

/// Sets what is read when scraped (the pool, the streams, the outbox's
/// depth; the recent games count into their metrics as they go), then
/// renders every metric.
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    let (open, idle) = state.pool.connections();
    METRICS
        .pool
        .with_label_values(&["in_use"])
        .set(i64::from(open.saturating_sub(idle)));
    METRICS
        .pool
        .with_label_values(&["idle"])
        .set(i64::from(idle));
    METRICS
        .streams
        .set(i64::try_from(state.notifier.streams().open_total()).unwrap_or(i64::MAX));
    // A database that cannot answer leaves the last depth seen.
    if let Ok(depth) =
        crate::db::run(&state.pool, |conn| Ok(crate::storage::outbox::depth(conn)?)).await
    {
        METRICS.outbox_depth.set(depth);
    }
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(METRICS.render())
}
