//! `GET /games/{id}/stream`: one game as the caller may see it, as
//! Server-Sent Events (the stream machinery is shared with
//! `/events/stream`, in `routes::events`).

use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};
use uuid::Uuid;

use crate::error::ApiError;
use crate::events::notifier::Wake;
use crate::events::streams::StreamPermit;
use crate::events::GameSubscription;
use crate::routes::events::{
    last_event_id, open_stream, restart_hint, sse_response, SAFETY_RECHECK, SSE_RETRY_MS,
};
use crate::routes::AuthUser;
use crate::state::AppState;

/// One game as the caller may see it, as Server-Sent Events.
///
/// Not for Swagger UI's "Try it out", which waits for the end of the answer
/// and a stream has none: watch it with `curl -N -H "Authorization: Bearer
/// <token>" http://127.0.0.1:8080/api/v1/games/<id>/stream`.
///
/// Sends the caller's current view of the game at once (`event: game`,
/// `id: <version>`, `data: <exactly what GET /games/{id} answers>`), then
/// the caller's new view after every change of the game, from whichever
/// server process made it. Views are computed for the caller, so they
/// never hold a rank the caller may not know. A client reconnecting with
/// `Last-Event-ID: <version>` gets the view only if the game has changed
/// since. Keep-alive comments, the per-user cap (429 `too_many_streams`) and
/// the clean end at shutdown are as for `/events/stream`.
#[utoipa::path(
    tag = "events",
    operation_id = "stream_game",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Last-Event-ID" = Option<i64>, Header, description = "The version the client already has"),
    ),
    responses(
        (status = 200, description = "An endless stream of the caller's views of the game",
         content_type = "text/event-stream", body = String,
         example = json!("retry: 3000\n\nid: 17\nevent: game\ndata: {\"id\":\"0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10\",\"version\":17,\"status\":\"playing\",\"...\":\"...\"}\n\n: keep-alive\n\n")),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 429, response = crate::openapi::TooManyStreams),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/games/{id}/stream")]
pub async fn stream_game(
    user: AuthUser,
    state: web::Data<AppState>,
    request: HttpRequest,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let game_id = id.into_inner();
    let known_version = last_event_id(request.headers())?;
    let permit = open_stream(&state, user.id)?;
    let subscription = state.notifier.subscribe_game(game_id);
    // The first read also answers 404 for an unknown game, before the
    // stream starts.
    let (view, version) = crate::games::view::view(&state.games, game_id, Some(user.id)).await?;
    let first = match known_version {
        Some(known) if known >= version => None,
        _ => Some(encode_view(version, &view)),
    };
    let game = GameStream {
        state: state.clone(),
        game_id,
        user: user.id,
        version,
        first,
        subscription,
        _permit: permit,
        keepalive: Duration::from_secs(state.config.sse_keepalive_seconds),
        last_read: Instant::now(),
        started: false,
        ended: false,
    };
    Ok(sse_response(futures_util::stream::unfold(
        game,
        GameStream::next,
    )))
}

/// The state of one game stream: the version last sent, and at most one
/// view (the next chunk) in memory.
struct GameStream {
    state: web::Data<AppState>,
    game_id: Uuid,
    user: Uuid,
    version: i64,
    first: Option<Bytes>,
    subscription: GameSubscription,
    _permit: StreamPermit,
    keepalive: Duration,
    last_read: Instant,
    started: bool,
    /// The stop's [`restart_hint`] was sent.
    ended: bool,
}

impl GameStream {
    async fn next(mut self) -> Option<(Result<Bytes, actix_web::Error>, Self)> {
        if !self.started {
            self.started = true;
            return Some((Ok(Bytes::from(format!("retry: {SSE_RETRY_MS}\n\n"))), self));
        }
        if let Some(first) = self.first.take() {
            return Some((Ok(first), self));
        }
        loop {
            if self.state.notifier.is_shutting_down() {
                return self.end();
            }
            let wait = self
                .keepalive
                .min(SAFETY_RECHECK.saturating_sub(self.last_read.elapsed()));
            let wake = self.subscription.wait_past(self.version, wait).await;
            match wake {
                Wake::ShuttingDown => return self.end(),
                Wake::TimedOut if self.last_read.elapsed() < SAFETY_RECHECK => {
                    return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), self));
                }
                // Notified, or time for the safety re-check.
                _ => {}
            }
            self.last_read = Instant::now();
            match crate::games::view::view(&self.state.games, self.game_id, Some(self.user)).await {
                Ok((view, version)) if version > self.version => {
                    self.version = version;
                    return Some((Ok(encode_view(version, &view)), self));
                }
                Ok(_) => {}
                // The game cannot disappear; a failed read (database down)
                // is retried on the next wake or re-check.
                Err(e) => tracing::warn!(error = %e, "game stream: reading the game failed"),
            }
            if wake == Wake::TimedOut {
                return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), self));
            }
        }
    }

    /// At a stop: the restart hint, then the end.
    fn end(mut self) -> Option<(Result<Bytes, actix_web::Error>, Self)> {
        (!std::mem::replace(&mut self.ended, true)).then(|| (Ok(restart_hint()), self))
    }
}

/// One `game` frame: the view as one line of JSON, its version as the id.
fn encode_view(version: i64, view: &crate::games::GameView) -> Bytes {
    let json = serde_json::to_string(view).unwrap_or_default();
    Bytes::from(format!("id: {version}\nevent: game\ndata: {json}\n\n"))
}
