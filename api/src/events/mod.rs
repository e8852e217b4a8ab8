//! The durable per-user event feed and the wake-up machinery behind long
//! polling and Server-Sent Events (docs/api.md).
//!
//! - [`record_all`] stores events inside the transaction that makes the
//!   change they report (so an event exists exactly when its change
//!   does); the SQL is in `storage::events`.
//! - [`Notifier`], told after the commit, wakes waiting requests and open
//!   streams, in this process and, on PostgreSQL, in every other process
//!   through `LISTEN/NOTIFY` (see [`listener`]).
//!
//! What goes into an event is the game service's business (its payloads
//! are `games::notices::EventPayload`); this module only stores, numbers,
//! lists and announces them.

pub mod listener;
pub mod notifier;
pub mod streams;

use chrono::{DateTime, Utc};
use diesel::result::Error as DieselError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::db::{DbConnection, StoreError};
use crate::storage::events as store;
use crate::storage::from_db_time;

pub use notifier::{GameSubscription, Notifier, UserSubscription, Wake};

/// The `LISTEN/NOTIFY` channel shared by every server process.
pub const NOTIFY_CHANNEL: &str = "stratego_events";

/// One event of a user's feed, as sent to that user.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({"id": 7, "created_at": "2026-12-01T10:00:00Z", "type": "your_turn",
    "game_id": "0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10", "ply": 16,
    "opponent_move": {"ply": 16, "color": "blue", "from": "e8", "to": "e7", "piece": null,
                      "battle": null, "rescue": null}}))]
pub struct Event {
    /// Increasing per recipient (1, 2, 3, ...); pass the last one seen as
    /// `after` (or `Last-Event-ID`) to resume.
    pub id: i64,
    pub created_at: DateTime<Utc>,
    #[serde(flatten)]
    pub payload: StoredPayload,
}

/// An event's payload as it was stored: the JSON of a
/// `games::notices::EventPayload` (its `type` tag and fields), written
/// from the typed value and sent back as it is. It is not read back into
/// the typed value: the views inside it (`opponent_move`) are the domain's,
/// which only the domain can build. (Its OpenAPI schema is the typed
/// payload's, declared beside that type.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StoredPayload(pub serde_json::Map<String, serde_json::Value>);

impl StoredPayload {
    /// The `type` tag.
    pub fn kind(&self) -> &str {
        self.0
            .get("type")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("event")
    }
}

/// One event to record: its recipient, its `type`, the game it is about,
/// and its payload's JSON (with the `type` tag).
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub to: Uuid,
    pub kind: &'static str,
    /// None: a tournament's event.
    pub game_id: Option<Uuid>,
    pub payload: String,
}

/// Records `events` (inside the caller's transaction), numbered per
/// recipient. Returns the ids in the order given. After the commit, wake
/// this process's waiters and tell the other processes with
/// [`Notifier::user_event`].
pub fn record_all(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    events: &[NewEvent],
) -> Result<Vec<i64>, DieselError> {
    let rows: Vec<store::NewEventRow<'_>> = events.iter().map(NewEvent::row).collect();
    store::record_all(conn, now, &rows)
}

impl NewEvent {
    /// The row this event is stored as (its number is given when it is).
    pub fn row(&self) -> store::NewEventRow<'_> {
        store::NewEventRow {
            user_id: self.to,
            kind: self.kind,
            game_id: self.game_id,
            payload: &self.payload,
        }
    }
}

/// Tells every other process, when the current transaction commits, that
/// `session` ended (docs/accounts.md). This process records it itself.
pub fn announce_session_ended(conn: &mut DbConnection, session: Uuid) -> Result<(), StoreError> {
    let message = notifier::Message::SessionEnded(session).encode();
    Ok(store::notify(conn, NOTIFY_CHANNEL, &message)?)
}

/// The events of `user_id` after `after`, oldest first, at most `limit`.
pub fn list_after(
    conn: &mut DbConnection,
    user_id: Uuid,
    after: i64,
    limit: i64,
) -> Result<Vec<Event>, StoreError> {
    store::list_after(conn, user_id, after, limit)?
        .into_iter()
        .map(|row| {
            let payload: StoredPayload = serde_json::from_str(&row.payload).map_err(|_| {
                StoreError::Corrupt(format!(
                    "event {} of {}: unreadable payload",
                    row.seq, row.user_id
                ))
            })?;
            Ok(Event {
                id: row.seq,
                created_at: from_db_time(row.created_at),
                payload,
            })
        })
        .collect()
}

/// The id of the user's newest event (0 when there is none).
pub fn last_id(conn: &mut DbConnection, user_id: Uuid) -> Result<i64, StoreError> {
    Ok(store::last_id(conn, user_id)?)
}

/// Deletes the events older than `retention_days` (keeping each user's
/// newest, so numbering never restarts); returns how many.
pub fn prune(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    retention_days: u32,
) -> Result<usize, StoreError> {
    Ok(store::prune(conn, now, retention_days)?)
}

/// Ends every long poll and stream when SIGTERM/SIGINT arrives (so that
/// the HTTP server's graceful shutdown is not held up by open streams).
/// Returns when `notifier` shuts down otherwise.
pub async fn end_streams_on_signal(notifier: Notifier) {
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
        // Already shutting down (or the server stopped): nothing to watch.
        () = notifier.shutdown_signal() => return,
    }
    tracing::info!("shutting down: closing event streams and long polls");
    notifier.begin_shutdown();
}
