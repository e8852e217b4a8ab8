//! Structured logs with `tracing`, and a request id for every request.
//!
//! What is logged per request: id, method, path (never the query string),
//! status and latency. Bodies and headers are never logged, so neither a
//! password nor a token can reach a log line.

use std::time::Instant;

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Metadata, Subscriber};
use tracing_subscriber::filter::{filter_fn, FilterExt};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

use crate::config::{defaults, LogFormat};

pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// Installs the global subscriber (stdout). Calling it twice is harmless.
///
/// actix-http logs at ERROR every connection it closes on a request it
/// cannot parse (no `Host`, too many headers, a malformed request line), so
/// anyone could fill the error log. Those lines are taken from the output
/// and written again by [`HttpErrors`]: a client's mistake at INFO, as
/// every request is, anything else still at ERROR (docs/api.md, "Slow and
/// idle clients").
pub fn init(level: &str, format: LogFormat) {
    let filter = EnvFilter::try_new(level).unwrap_or_else(|_| EnvFilter::new(defaults::LOG_LEVEL));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let output = tracing_subscriber::fmt::layer()
        .with_target(true)
        .with_ansi(ansi);
    let output = match format {
        LogFormat::Json => output.json().flatten_event(true).boxed(),
        LogFormat::Text => output.boxed(),
    };
    let not_dispatcher_errors = filter_fn(|meta| !is_dispatcher_error(meta));
    let _ = tracing_subscriber::registry()
        .with(output.with_filter(filter.and(not_dispatcher_errors)))
        .with(HttpErrors.with_filter(filter_fn(is_dispatcher_error)))
        .try_init();
}

/// Where actix-http logs the errors that end a connection.
const DISPATCHER: &str = "actix_http::h1::dispatcher";

fn is_dispatcher_error(meta: &Metadata<'_>) -> bool {
    meta.target() == DISPATCHER && *meta.level() == Level::ERROR
}

/// Whether a line of actix-http's dispatcher is about what the client did:
/// a request it could not parse, or a connection the client dropped.
fn is_client_mistake(message: &str) -> bool {
    [
        "stream error",
        "write zero",
        "Internal server error: unexpected eof",
    ]
    .iter()
    .any(|prefix| message.starts_with(prefix))
}

/// Writes the dispatcher's ERROR lines again as this server's own (target
/// `api::http`), at the level they deserve.
struct HttpErrors;

impl<S: Subscriber> Layer<S> for HttpErrors {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let mut message = MessageText::default();
        event.record(&mut message);
        let text = message.0;
        if is_client_mistake(&text) {
            tracing::info!(target: "api::http", error = %text, "connection closed: the client's request was not valid HTTP, or the client went away");
        } else {
            tracing::error!(target: "api::http", error = %text, "HTTP connection failed");
        }
    }
}

/// The `message` of an event, as text.
#[derive(Default)]
struct MessageText(String);

impl Visit for MessageText {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }
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
    let elapsed = started.elapsed().as_secs_f64();
    let latency_ms = elapsed * 1000.0;
    // By route template, never by path: ids would make a series each.
    let route = res
        .request()
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_owned());
    // Known methods only: a client may send any token as a method, and
    // each would make series of its own.
    let method = match res.request().method().as_str() {
        m @ ("GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS") => m,
        _ => "other",
    };
    let metrics = &crate::metrics::METRICS;
    metrics
        .requests
        .with_label_values(&[method, &route, crate::metrics::status_class(status)])
        .inc();
    metrics
        .latency
        .with_label_values(&[method, &route])
        .observe(elapsed);
    if status >= 500 {
        tracing::error!(status, latency_ms, "request failed");
    } else {
        tracing::info!(status, latency_ms, "request finished");
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_and_dropped_clients_are_the_clients_mistakes() {
        for line in [
            "stream error: request parse error: invalid Header provided",
            "stream error: request parse error: message head is too large",
            "write zero; closing",
            "Internal server error: unexpected eof",
        ] {
            assert!(is_client_mistake(line), "{line}");
        }
        assert!(!is_client_mistake("Response payload stream error: boom"));
        assert!(!is_client_mistake(
            "Internal server error: unexpected payload chunk"
        ));
    }
}
