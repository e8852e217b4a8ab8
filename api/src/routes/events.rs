//! The caller's event feed: `GET /events` (long polling) and
//! `GET /events/stream` (Server-Sent Events); and one game's live view,
//! `GET /games/{id}/stream` (Server-Sent Events).

use std::time::{Duration, Instant};

use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;
use uuid::Uuid;

use crate::db;
use crate::error::ApiError;
use crate::events::notifier::Wake;
use crate::events::streams::StreamPermit;
use crate::events::{self, Event, UserSubscription};
use crate::routes::extract::{self, WaitParam};
use crate::routes::AuthUser;
use crate::state::AppState;

/// Default wait of `GET /events`: answer at once.
const DEFAULT_WAIT_SECONDS: u64 = 0;
/// Most events in one answer (and one stream chunk).
pub const MAX_EVENTS: i64 = 100;
/// While waiting, the database is read again at least this often, in case
/// a notification was lost (a dropped LISTEN connection, a full queue).
pub const SAFETY_RECHECK: Duration = Duration::from_secs(20);
/// `retry:` sent to SSE clients (milliseconds before reconnecting).
pub const SSE_RETRY_MS: u64 = 3000;
/// At a stop, a stream's last chunk asks its client to come back after
/// a delay drawn from this range (milliseconds), so that the clients of a
/// stopping process spread over the others instead of arriving at once.
pub const RESTART_RETRY_MS: std::ops::RangeInclusive<u64> = 500..=2500;

/// The last chunk of a stream ended by a stop (SIGTERM): a comment that
/// says why and a `retry:` hint (docs/deploy.md, "Restarts").
pub fn restart_hint() -> Bytes {
    let retry = rand::random_range(RESTART_RETRY_MS);
    Bytes::from(format!(": the server is restarting\nretry: {retry}\n\n"))
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list_events).service(stream_events);
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// Return the events with an id greater than this (default 0: from the
    /// start). Pass the last id you have seen.
    #[param(minimum = 0, example = 0)]
    pub after: Option<i64>,
    /// Documented by [`WaitParam`].
    #[param(ignore)]
    pub wait: Option<u64>,
    /// Most events to return (1..=100, default 100); fetch again with the
    /// new `last_id` for more.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// A page of the caller's events.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventPage {
    /// Oldest first.
    pub events: Vec<Event>,
    /// The id to pass as `after` next time: the last event's id, or `after`
    /// itself when there is none.
    pub last_id: i64,
}

/// The caller's events after `after`, long-polling when there are none.
///
/// Answers at once when events are pending; otherwise holds the request
/// for up to `wait` seconds and answers as soon as one arrives (from any
/// server process), or with an empty list when the time is up or the
/// server shuts down. Event ids increase by one per event of the caller,
/// and an event never appears after a larger id was delivered, so
/// `after` = the last id seen never misses one.
#[utoipa::path(
    tag = "events",
    operation_id = "list_events",
    security(("bearer" = [])),
    params(EventsQuery, WaitParam<DEFAULT_WAIT_SECONDS>),
    responses(
        (status = 200, description = "The events after `after` (possibly none)", body = EventPage),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/events")]
pub async fn list_events(
    user: AuthUser,
    state: web::Data<AppState>,
    query: web::Query<EventsQuery>,
) -> Result<web::Json<EventPage>, ApiError> {
    let after = query.after.unwrap_or(0);
    if after < 0 {
        return Err(ApiError::bad_request("after must be 0 or more"));
    }
    let limit = query.limit.unwrap_or(MAX_EVENTS);
    if !(1..=MAX_EVENTS).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit must be between 1 and {MAX_EVENTS}"
        )));
    }
    let wait = extract::wait(query.wait, DEFAULT_WAIT_SECONDS)?;
    let deadline = Instant::now() + wait;

    // Subscribe before the first read, so an event committed in between
    // still wakes this request.
    let mut subscription = state.notifier.subscribe_user(user.id);
    let _waiting =
        (!wait.is_zero()).then(|| crate::metrics::Open::new(&crate::metrics::METRICS.long_polls));
    loop {
        let events = read_events(&state, user.id, after, limit).await?;
        let left = deadline.saturating_duration_since(Instant::now());
        if !events.is_empty() || left.is_zero() || state.notifier.is_shutting_down() {
            let last_id = events.last().map_or(after, |event| event.id);
            return Ok(web::Json(EventPage { events, last_id }));
        }
        if subscription.wait(left.min(SAFETY_RECHECK)).await == Wake::ShuttingDown {
            return Ok(web::Json(EventPage {
                events: Vec::new(),
                last_id: after,
            }));
        }
    }
}

async fn read_events(
    state: &AppState,
    user: Uuid,
    after: i64,
    limit: i64,
) -> Result<Vec<Event>, ApiError> {
    db::run_as::<_, ApiError, _>(&state.pool, move |conn| {
        Ok(events::list_after(conn, user, after, limit)?)
    })
    .await
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct StreamQuery {
    /// Start after this event id (for clients that cannot set
    /// `Last-Event-ID`; the header wins when both are given). Without
    /// either, the stream carries only events newer than the connection.
    #[param(minimum = 0)]
    pub after: Option<i64>,
}

/// The caller's events as Server-Sent Events.
///
/// Not for Swagger UI's "Try it out", which waits for the end of the answer
/// and a stream has none: watch it with `curl -N -H "Authorization: Bearer
/// <token>" http://127.0.0.1:8080/api/v1/events/stream`.
///
/// Each event is sent as `id: <event id>`, `event: <type>` and `data:
/// <the event as JSON, as in GET /events>`. A reconnecting client sends
/// `Last-Event-ID` (browsers do so by themselves) and the stream resumes
/// right after it, with no gap and no duplicate. Idle streams get a
/// `: keep-alive` comment every 15 seconds (SSE_KEEPALIVE_SECONDS). At most
/// MAX_STREAMS_PER_USER (default 5) streams per user are open at once on
/// one server process; one more answers 429 `too_many_streams`. Streams end
/// cleanly when the server shuts down (clients reconnect with
/// `Last-Event-ID`).
#[utoipa::path(
    tag = "events",
    operation_id = "stream_events",
    security(("bearer" = [])),
    params(
        StreamQuery,
        ("Last-Event-ID" = Option<i64>, Header, description = "Resume after this event id"),
    ),
    responses(
        (status = 200, description = "An endless stream of the caller's events",
         content_type = "text/event-stream", body = String,
         example = json!("retry: 3000\n\nid: 8\nevent: your_turn\ndata: {\"id\":8,\"created_at\":\"2026-12-01T10:00:00Z\",\"type\":\"your_turn\",\"game_id\":\"0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10\",\"ply\":0,\"opponent_move\":null}\n\n: keep-alive\n\n")),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 429, response = crate::openapi::TooManyStreams),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/events/stream")]
pub async fn stream_events(
    user: AuthUser,
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let resume = match last_event_id(request.headers())? {
        Some(id) => Some(id),
        None => match query.after {
            Some(after) if after < 0 => {
                return Err(ApiError::bad_request("after must be 0 or more"))
            }
            other => other,
        },
    };
    let permit = open_stream(&state, user.id)?;
    let subscription = state.notifier.subscribe_user(user.id);
    let after = match resume {
        Some(after) => after,
        None => {
            let user = user.id;
            db::run_as::<_, ApiError, _>(&state.pool, move |conn| Ok(events::last_id(conn, user)?))
                .await?
        }
    };
    let feed = FeedStream {
        state: state.clone(),
        user: user.id,
        after,
        subscription,
        _permit: permit,
        keepalive: Duration::from_secs(state.config.sse_keepalive_seconds),
        last_read: Instant::now(),
        started: false,
        ended: false,
        read_first: true,
    };
    Ok(sse_response(futures_util::stream::unfold(
        feed,
        FeedStream::next,
    )))
}

/// The `Last-Event-ID` header as an event id, if present.
pub(crate) fn last_event_id(headers: &HeaderMap) -> Result<Option<i64>, ApiError> {
    let Some(value) = headers.get("last-event-id") else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<i64>() {
        Ok(id) if id >= 0 => Ok(Some(id)),
        _ => Err(ApiError::bad_request(
            "Last-Event-ID must be an event id (a whole number, 0 or more)",
        )),
    }
}

/// A permit for one more stream of `user`, or the problem to answer.
pub fn open_stream(state: &AppState, user: Uuid) -> Result<StreamPermit, ApiError> {
    if state.notifier.is_shutting_down() {
        return Err(ApiError::unavailable("the server is shutting down"));
    }
    state.notifier.streams().try_open(user).ok_or_else(|| {
        ApiError::too_many_streams(
            state.notifier.streams().max_per_user(),
            state.config.sse_keepalive_seconds,
        )
    })
}

/// A 200 `text/event-stream` answer that proxies must not buffer.
pub fn sse_response<S>(body: S) -> HttpResponse
where
    S: futures_util::Stream<Item = Result<Bytes, actix_web::Error>> + 'static,
{
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-cache")))
        .insert_header(("X-Accel-Buffering", HeaderValue::from_static("no")))
        .streaming(body)
}

/// The state of one event stream. It produces its next chunk only when the
/// previous one was written, so at most one batch (MAX_EVENTS events) is
/// held per connection.
struct FeedStream {
    state: web::Data<AppState>,
    user: Uuid,
    after: i64,
    subscription: UserSubscription,
    _permit: StreamPermit,
    keepalive: Duration,
    last_read: Instant,
    started: bool,
    /// The stop's [`restart_hint`] was sent.
    ended: bool,
    /// Read before waiting: at the start, and after a batch (there may be
    /// more); not after a keep-alive (then only on a wake or re-check).
    read_first: bool,
}

impl FeedStream {
    async fn next(mut self) -> Option<(Result<Bytes, actix_web::Error>, Self)> {
        if !self.started {
            self.started = true;
            return Some((Ok(Bytes::from(format!("retry: {SSE_RETRY_MS}\n\n"))), self));
        }
        let mut must_read = self.read_first;
        loop {
            if self.state.notifier.is_shutting_down() {
                return self.end();
            }
            if must_read || self.last_read.elapsed() >= SAFETY_RECHECK {
                self.last_read = Instant::now();
                match read_events(&self.state, self.user, self.after, MAX_EVENTS).await {
                    Ok(batch) if !batch.is_empty() => {
                        let chunk = encode_events(&batch);
                        if let Some(last) = batch.last() {
                            self.after = last.id;
                        }
                        self.read_first = true;
                        return Some((Ok(chunk), self));
                    }
                    Ok(_) => {}
                    // The client keeps its stream; the next wake or re-check
                    // tries again.
                    Err(e) => tracing::warn!(error = %e, "event stream: reading events failed"),
                }
            }
            match self.subscription.wait(self.keepalive).await {
                Wake::Notified => must_read = true,
                Wake::TimedOut => {
                    self.read_first = false;
                    return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), self));
                }
                Wake::ShuttingDown => return self.end(),
            }
        }
    }

    /// At a stop: the restart hint, then the end.
    fn end(mut self) -> Option<(Result<Bytes, actix_web::Error>, Self)> {
        (!std::mem::replace(&mut self.ended, true)).then(|| (Ok(restart_hint()), self))
    }
}

/// SSE frames for `events`: `id`, `event` (the type) and one `data` line
/// of JSON (serde_json never writes a raw newline).
fn encode_events(events: &[Event]) -> Bytes {
    let mut out = String::with_capacity(events.len() * 256);
    for event in events {
        match serde_json::to_string(event) {
            Ok(json) => {
                out.push_str(&format!(
                    "id: {}\nevent: {}\ndata: {json}\n\n",
                    event.id,
                    event.payload.kind()
                ));
            }
            Err(e) => tracing::error!(error = %e, id = event.id, "cannot encode an event"),
        }
    }
    Bytes::from(out)
}
