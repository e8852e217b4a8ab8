//! Structured logs with `tracing`, and a request id for every request.
//!
//! What is logged per request: id, method, path (never the query string),
//! status and latency. Bodies and headers are never logged, so neither a
//! password nor a token can reach a log line.

use std::time::Instant;

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use tracing_subscriber::EnvFilter;

use crate::config::{defaults, LogFormat};

pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// Installs the global subscriber (stdout). Calling it twice is harmless.
pub fn init(level: &str, format: LogFormat) {
    let filter = EnvFilter::try_new(level).unwrap_or_else(|_| EnvFilter::new(defaults::LOG_LEVEL));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(true)
        .with_ansi(ansi);
    let _ = match format {
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// The request id: the caller's `X-Request-Id` when it is short and plain
/// (so a proxy's id carries through), otherwise a fresh UUID.
pub fn request_id(req: &ServiceRequest) -> String {
    req.headers()
        .get(REQUEST_ID_HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|v| {
            !v.is_empty()
                && v.len() <= 64
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        })
        .map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned)
}

/// The span every log line of a request is recorded in.
pub fn request_span(req: &ServiceRequest, request_id: &str) -> tracing::Span {
    tracing::info_span!(
        "request",
        request_id = %request_id,
        method = %req.method(),
        path = %req.path(),
    )
}

/// Logs the outcome and echoes the request id in the response.
pub fn finish<B>(
    mut res: ServiceResponse<B>,
    request_id: &str,
    started: Instant,
) -> ServiceResponse<B> {
    if let Ok(value) = HeaderValue::from_str(request_id) {
        res.headers_mut()
            .insert(HeaderName::from_static(REQUEST_ID_HEADER), value);
    }
    let status = res.status().as_u16();
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    if status >= 500 {
        tracing::error!(status, latency_ms, "request failed");
    } else {
        tracing::info!(status, latency_ms, "request finished");
    }
    res
}
