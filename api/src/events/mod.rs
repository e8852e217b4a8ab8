//! The durable per-user event feed (issue #5) and the wake-up machinery
//! behind long polling and Server-Sent Events.
//!
//! - [`record`] stores one event for one user, inside the transaction that
//!   makes the change it reports (so an event exists exactly when its change
//!   does).
//! - [`Notifier`] (in `AppState`) wakes waiting requests and open streams,
//!   in this process and, on PostgreSQL, in every other process through
//!   `LISTEN/NOTIFY` (see [`listener`]).
//! - [`reminder`] sends `deadline_soon` once per turn, and once per setup
//!   phase to each player who has not placed a setup yet.
//!
//! # Event ids
//!
//! An event's `id` is a per-user sequence number: 1, 2, 3, ... for each
//! recipient. [`record`] computes `MAX(seq) + 1` for the recipient inside
//! the writer's transaction and inserts under the primary key
//! `(user_id, seq)`. Writers for one user are serialised: on SQLite every
//! writer is (`BEGIN IMMEDIATE`); on PostgreSQL `record` first takes a
//! transaction-level advisory lock on the user, held until the writer
//! commits, so the next writer reads MAX after that commit. The key is the
//! backstop: should two writers ever pick the same number, the second fails
//! on it and retries from a savepoint with the next one. So number n + 1
//! can only be written once n is committed, and a client that has read
//! everything up to `after = n` can never miss an event that commits later
//! with a number <= n — which a global database sequence, whose numbers may
//! commit out of order, would not guarantee.
//!
//! Recording for two users in one transaction takes their locks in the
//! order of the calls; use [`record_all`], which orders recipients by id, so
//! that two transactions writing to the same two users cannot deadlock.

pub mod listener;
pub mod notifier;
pub mod reminder;
pub mod streams;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::db::DbConnection;
use crate::schema::events;
use crate::storage::{from_db_time, to_db_time};

pub use notifier::{GameSubscription, Notifier, UserSubscription, Wake};

/// The `LISTEN/NOTIFY` channel shared by every server process.
pub const NOTIFY_CHANNEL: &str = "stratego_events";

/// How many times [`record`] retries after losing the race for a number.
const RECORD_ATTEMPTS: usize = 16;

/// First key of the per-user advisory locks (the second is a hash of the
/// user id); two-key advisory locks never collide with one-key ones such as
/// the migration lock.
const EVENT_LOCK_SPACE: i32 = 0x4556_4e54; // "EVNT"

/// What happened, as its recipient may know it. Serialized with a `type`
/// tag (`"your_turn"`, ...) next to the event's `id` and `created_at`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventPayload {
    /// Someone challenged you (sent to the challenged user).
    ChallengeReceived {
        game_id: Uuid,
        /// The challenger's username
        from: String,
    },
    /// Your challenge was declined (sent to the challenger).
    ChallengeDeclined {
        game_id: Uuid,
        /// The declining user's username
        by: String,
    },
    /// Your game's open seat was taken, or your challenge was accepted: the
    /// setup phase, and its clock, has started (sent to the game's creator).
    OpponentJoined {
        game_id: Uuid,
        /// The username of the user who took the seat
        by: String,
    },
    /// The game ended before play started: a player aborted it (a challenge
    /// withdrawn by its creator included), or a setup did not come in time
    /// (sent to every seated or challenged user except the one who aborted;
    /// on a setup timeout, to both players).
    GameAborted {
        game_id: Uuid,
        reason: AbortReason,
        /// The username of the player who aborted; null on a setup timeout
        by: Option<String>,
    },
    /// Both setups are in: the game has begun (sent to both players).
    GameStarted { game_id: Uuid },
    /// It is your turn. `opponent_move` is the opponent's last move as you
    /// may see it (`null` when there is none, e.g. at the start).
    YourTurn {
        game_id: Uuid,
        /// Plies played so far
        ply: u32,
        /// The opponent's move as the recipient may see it (`piece` is null
        /// unless the recipient knows the rank)
        #[schema(value_type = Option<crate::games::docs::MoveViewDoc>)]
        opponent_move: Option<domain::MoveView>,
    },
    /// The opponent offers a draw (sent to the other player).
    DrawOffered {
        game_id: Uuid,
        /// The offering color
        #[schema(value_type = crate::games::docs::ColorDoc)]
        by: domain::Color,
    },
    /// The game is over (sent to both players).
    GameFinished {
        game_id: Uuid,
        #[schema(value_type = crate::games::docs::GameResultDoc)]
        result: domain::GameResult,
    },
    /// Less than the configured share of your move time (or, during setup,
    /// of your setup time, if your setup is not in yet) is left.
    DeadlineSoon {
        game_id: Uuid,
        /// When your move (or setup) time runs out
        deadline: DateTime<Utc>,
    },
}

/// Why a game was aborted before play started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AbortReason {
    /// A player aborted the game (or withdrew the challenge).
    Aborted,
    /// The setup phase ran out before both setups were in.
    SetupTimeout,
}

impl EventPayload {
    /// The `type` tag, as stored in the `kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::ChallengeReceived { .. } => "challenge_received",
            Self::ChallengeDeclined { .. } => "challenge_declined",
            Self::OpponentJoined { .. } => "opponent_joined",
            Self::GameAborted { .. } => "game_aborted",
            Self::GameStarted { .. } => "game_started",
            Self::YourTurn { .. } => "your_turn",
            Self::DrawOffered { .. } => "draw_offered",
            Self::GameFinished { .. } => "game_finished",
            Self::DeadlineSoon { .. } => "deadline_soon",
        }
    }

    pub fn game_id(&self) -> Uuid {
        match self {
            Self::ChallengeReceived { game_id, .. }
            | Self::ChallengeDeclined { game_id, .. }
            | Self::OpponentJoined { game_id, .. }
            | Self::GameAborted { game_id, .. }
            | Self::GameStarted { game_id }
            | Self::YourTurn { game_id, .. }
            | Self::DrawOffered { game_id, .. }
            | Self::GameFinished { game_id, .. }
            | Self::DeadlineSoon { game_id, .. } => *game_id,
        }
    }
}

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

/// An event's payload as it was stored: the JSON of an [`EventPayload`]
/// (its `type` tag and fields), written by [`record`] from the typed value
/// and sent back as it is. It is not read back into an `EventPayload`: the
/// views inside it (`opponent_move`) are the domain's, which only the
/// domain can build.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StoredPayload(pub serde_json::Map<String, serde_json::Value>);

impl StoredPayload {
    /// The JSON of `payload`, as [`record`] stores it.
    pub fn of(payload: &EventPayload) -> Result<StoredPayload, serde_json::Error> {
        match serde_json::to_value(payload)? {
            serde_json::Value::Object(map) => Ok(StoredPayload(map)),
            _ => Err(serde::ser::Error::custom(
                "an event payload is a JSON object",
            )),
        }
    }

    /// The `type` tag.
    pub fn kind(&self) -> &str {
        self.0
            .get("type")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("event")
    }
}

impl utoipa::PartialSchema for StoredPayload {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        EventPayload::schema()
    }
}

impl ToSchema for StoredPayload {
    fn name() -> std::borrow::Cow<'static, str> {
        <EventPayload as ToSchema>::name()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        // Documented as the payload it holds, with the schemas that one
        // refers to (AbortReason, ...).
        schemas.push((
            <EventPayload as ToSchema>::name().into_owned(),
            <EventPayload as utoipa::PartialSchema>::schema(),
        ));
        <EventPayload as ToSchema>::schemas(schemas);
    }
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = events)]
struct EventRow {
    user_id: String,
    seq: i64,
    kind: String,
    game_id: Option<String>,
    payload: String,
    created_at: chrono::NaiveDateTime,
}

/// Stores `payload` as the next event of `user_id` and returns its id.
/// Call it inside the transaction of the change it reports
/// (`db::write_transaction`); on PostgreSQL it also queues a `NOTIFY` that
/// fires when that transaction commits. After the commit, call
/// [`Notifier::user_event`] to wake this process's waiters at once.
pub fn record(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    user_id: Uuid,
    payload: &EventPayload,
) -> Result<i64, DieselError> {
    let body =
        serde_json::to_string(payload).map_err(|e| DieselError::SerializationError(Box::new(e)))?;
    let user = user_id.to_string();
    let created_at = to_db_time(now);
    if let DbConnection::Postgresql(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
            .bind::<diesel::sql_types::Integer, _>(EVENT_LOCK_SPACE)
            .bind::<diesel::sql_types::Text, _>(&user)
            .execute(pg)?;
    }
    for _ in 0..RECORD_ATTEMPTS {
        // A savepoint, so that losing the race (a unique violation) leaves
        // the caller's transaction usable on PostgreSQL.
        let attempt = conn.transaction(|conn| {
            let last: Option<i64> = events::table
                .filter(events::user_id.eq(&user))
                .select(diesel::dsl::max(events::seq))
                .first(conn)?;
            let seq = last.unwrap_or(0) + 1;
            diesel::insert_into(events::table)
                .values(EventRow {
                    user_id: user.clone(),
                    seq,
                    kind: payload.kind().to_owned(),
                    game_id: Some(payload.game_id().to_string()),
                    payload: body.clone(),
                    created_at,
                })
                .execute(conn)?;
            Ok::<_, DieselError>(seq)
        });
        match attempt {
            Ok(seq) => {
                notify_in_transaction(conn, &notifier::Message::User(user_id))?;
                return Ok(seq);
            }
            Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(DieselError::DatabaseError(
        DatabaseErrorKind::SerializationFailure,
        Box::new(format!(
            "could not number an event after {RECORD_ATTEMPTS} attempts"
        )),
    ))
}

/// Deletes the events older than `retention_days`, except each user's
/// newest one: the next event of a user is numbered from the largest
/// number stored, so keeping it keeps ids increasing after a prune.
/// Returns how many were deleted. A client resuming from an id older than
/// what is left simply gets what is left.
pub fn prune_events(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    retention_days: u32,
) -> Result<usize, DieselError> {
    use diesel::sql_types::Timestamp;
    let cutoff = to_db_time(now - chrono::Duration::days(i64::from(retention_days)));
    // The same statement for both backends but for the placeholder.
    const PRUNE: &str = "DELETE FROM events WHERE created_at < {} AND seq < \
                         (SELECT MAX(newest.seq) FROM events AS newest \
                          WHERE newest.user_id = events.user_id)";
    match conn {
        DbConnection::Postgresql(pg) => diesel::sql_query(PRUNE.replace("{}", "$1"))
            .bind::<Timestamp, _>(cutoff)
            .execute(pg),
        DbConnection::Sqlite(sqlite) => diesel::sql_query(PRUNE.replace("{}", "?"))
            .bind::<Timestamp, _>(cutoff)
            .execute(sqlite),
    }
}

/// [`record`] for several recipients, in the order of their ids (a fixed
/// lock order: see the module documentation). Returns the ids in the order
/// given.
pub fn record_all(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    events: &[(Uuid, EventPayload)],
) -> Result<Vec<i64>, DieselError> {
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by_key(|&i| events[i].0);
    let mut ids = vec![0; events.len()];
    for i in order {
        ids[i] = record(conn, now, events[i].0, &events[i].1)?;
    }
    Ok(ids)
}

/// Starts the notification side's background work: a watcher that ends
/// every long poll and stream when SIGTERM/SIGINT arrives (so that the HTTP
/// server's graceful shutdown is not held up by open streams), and the
/// `deadline_soon` reminder task. Both end when the notifier shuts down.
pub fn spawn_background_tasks(state: actix_web::web::Data<crate::state::AppState>) {
    tokio::spawn(end_streams_on_signal(state.notifier.clone()));
    tokio::spawn(reminder::run(state));
}

async fn end_streams_on_signal(notifier: Notifier) {
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

/// Announces that `game_id` reached `version`, to the other processes, when
/// the current transaction commits (see [`notify_in_transaction`]).
pub fn notify_game_in_transaction(
    conn: &mut DbConnection,
    game_id: Uuid,
    version: i64,
) -> Result<(), DieselError> {
    notify_in_transaction(conn, &notifier::Message::Game(game_id, version))
}

/// On PostgreSQL, queues a notification that is delivered to every
/// listening process when the current transaction commits (immediately
/// outside one). Nothing on SQLite, where every waiter is in this process.
pub(crate) fn notify_in_transaction(
    conn: &mut DbConnection,
    message: &notifier::Message,
) -> Result<(), DieselError> {
    if let DbConnection::Postgresql(pg) = conn {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<diesel::sql_types::Text, _>(NOTIFY_CHANNEL)
            .bind::<diesel::sql_types::Text, _>(message.encode())
            .execute(pg)?;
    }
    Ok(())
}

/// The events of `user_id` after `after`, oldest first, at most `limit`.
pub fn list_after(
    conn: &mut DbConnection,
    user_id: Uuid,
    after: i64,
    limit: i64,
) -> Result<Vec<Event>, DieselError> {
    let rows: Vec<EventRow> = events::table
        .filter(events::user_id.eq(user_id.to_string()))
        .filter(events::seq.gt(after))
        .order(events::seq.asc())
        .limit(limit)
        .select(EventRow::as_select())
        .load(conn)?;
    rows.into_iter()
        .map(|row| {
            let payload: StoredPayload = serde_json::from_str(&row.payload)
                .map_err(|e| DieselError::DeserializationError(Box::new(e)))?;
            Ok(Event {
                id: row.seq,
                created_at: from_db_time(row.created_at),
                payload,
            })
        })
        .collect()
}

/// The id of the user's newest event (0 when there is none).
pub fn last_id(conn: &mut DbConnection, user_id: Uuid) -> Result<i64, DieselError> {
    let last: Option<i64> = events::table
        .filter(events::user_id.eq(user_id.to_string()))
        .select(diesel::dsl::max(events::seq))
        .first(conn)?;
    Ok(last.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn events_serialize_with_a_type_tag_beside_id_and_time() {
        let game_id = Uuid::nil();
        let event = Event {
            id: 3,
            created_at: DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
            payload: StoredPayload::of(&EventPayload::GameStarted { game_id }).unwrap(),
        };
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            json!({"id": 3, "created_at": "2027-01-15T08:00:00Z", "type": "game_started",
                   "game_id": "00000000-0000-0000-0000-000000000000"})
        );
        // Stored as written, read back as stored.
        let stored: StoredPayload =
            serde_json::from_str(&serde_json::to_string(&event.payload).unwrap()).unwrap();
        assert_eq!(stored, event.payload);
        assert_eq!(stored.kind(), "game_started");
    }

    #[test]
    fn aborts_name_their_reason_and_who_aborted() {
        let game_id = Uuid::nil();
        let timeout = EventPayload::GameAborted {
            game_id,
            reason: AbortReason::SetupTimeout,
            by: None,
        };
        assert_eq!(
            serde_json::to_value(&timeout).unwrap(),
            json!({"type": "game_aborted", "game_id": "00000000-0000-0000-0000-000000000000",
                   "reason": "setup_timeout", "by": null})
        );
        let aborted = EventPayload::GameAborted {
            game_id,
            reason: AbortReason::Aborted,
            by: Some("ann".into()),
        };
        let value = serde_json::to_value(&aborted).unwrap();
        assert_eq!(value["reason"], "aborted");
        assert_eq!(value["by"], "ann");
        assert_eq!(
            StoredPayload::of(&aborted).unwrap().0,
            *value.as_object().unwrap()
        );
    }

    #[test]
    fn kind_matches_the_serde_tag() {
        let game_id = Uuid::nil();
        let all = [
            EventPayload::ChallengeReceived {
                game_id,
                from: "ann".into(),
            },
            EventPayload::ChallengeDeclined {
                game_id,
                by: "bo".into(),
            },
            EventPayload::OpponentJoined {
                game_id,
                by: "bo".into(),
            },
            EventPayload::GameAborted {
                game_id,
                reason: AbortReason::Aborted,
                by: Some("ann".into()),
            },
            EventPayload::GameAborted {
                game_id,
                reason: AbortReason::SetupTimeout,
                by: None,
            },
            EventPayload::GameStarted { game_id },
            EventPayload::YourTurn {
                game_id,
                ply: 0,
                opponent_move: None,
            },
            EventPayload::DrawOffered {
                game_id,
                by: domain::Color::Red,
            },
            EventPayload::GameFinished {
                game_id,
                result: domain::GameResult {
                    winner: None,
                    reason: domain::EndReason::DrawAgreed,
                },
            },
            EventPayload::DeadlineSoon {
                game_id,
                deadline: DateTime::from_timestamp(0, 0).unwrap(),
            },
        ];
        for payload in all {
            let value = serde_json::to_value(&payload).unwrap();
            assert_eq!(value["type"], payload.kind());
            assert_eq!(payload.game_id(), game_id);
        }
    }
}
