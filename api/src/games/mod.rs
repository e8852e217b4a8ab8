//! Games (issue #4): creating and joining games, secret setups, moves,
//! resignation and draws, the per-caller view, the move history, and the
//! correspondence clock.
//!
//! Data flows one way: a handler in `routes/games.rs` parses the request
//! and calls [`service`]; the service loads the game, lets `domain` decide,
//! writes the new state and the action row in one transaction with a
//! versioned UPDATE ([`write`]), records the events for the feed
//! ([`events`]), and turns the domain's per-viewer view into JSON
//! ([`view`]).

pub mod docs;
pub mod events;
pub mod model;
pub mod requests;
pub mod service;
pub mod view;
pub mod write;

use std::time::Duration;

use actix_web::web;
use uuid::Uuid;

use crate::error::ApiError;
use crate::state::AppState;

pub use model::{GameRecord, Status};
pub use view::GameView;

/// The view of `game_id` for `viewer` (a user id, or `None` for an
/// anonymous spectator) as JSON, with the game's version: exactly what
/// `GET /games/{id}` answers. For the event streams.
pub async fn view_json_for(
    state: &AppState,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<(serde_json::Value, i64), ApiError> {
    let (view, version) = service::view_for(state, game_id, viewer).await?;
    let json = serde_json::to_value(view).map_err(ApiError::internal)?;
    Ok((json, version))
}

/// Starts the deadline sweep: every `config.deadline_sweep_seconds`, end
/// the games whose deadline passed and forget expired idempotency keys.
pub fn spawn_deadline_sweep(state: web::Data<AppState>) {
    let every = Duration::from_secs(state.config.deadline_sweep_seconds.max(1));
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if state.notifier.is_closed() {
                return;
            }
            let now = state.clock.now();
            match service::sweep_overdue(&state.pool, now, Some(&state.notifier)).await {
                Ok(0) => {}
                Ok(ended) => tracing::info!(ended, "overdue games ended"),
                Err(error) => tracing::warn!(%error, "deadline sweep failed"),
            }
            if let Err(error) = service::purge_idempotency_keys(&state.pool, now).await {
                tracing::warn!(%error, "purging idempotency keys failed");
            }
        }
    });
}
