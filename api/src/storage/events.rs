//! The `events` table: the durable per-user feed (docs/api.md).
//!
//! An event's `id`
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
//! order of the calls; use `events::record_all`, which orders recipients by id, so
//! that two transactions writing to the same two users cannot deadlock.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use uuid::Uuid;

use crate::db::DbConnection;
use crate::schema::events;
use crate::storage::to_db_time;

/// How many times [`record`] retries after losing the race for a number.
const RECORD_ATTEMPTS: usize = 16;

/// First key of the per-user advisory locks (the second is a hash of the
/// user id); two-key advisory locks never collide with one-key ones such as
/// the migration lock.
const EVENT_LOCK_SPACE: i32 = 0x4556_4e54; // "EVNT"

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = events)]
pub struct EventRow {
    pub user_id: String,
    pub seq: i64,
    pub kind: String,
    pub game_id: Option<String>,
    /// The JSON of the payload, as written.
    pub payload: String,
    pub created_at: chrono::NaiveDateTime,
}

/// Stores `payload` (the JSON of an event of type `kind` about `game_id`)
/// as the next event of `user_id` and returns its id. Call it inside the
/// transaction of the change it reports (`db::write_transaction`).
pub fn record(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    user_id: Uuid,
    kind: &str,
    game_id: Uuid,
    payload: &str,
) -> Result<i64, DieselError> {
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
                    kind: kind.to_owned(),
                    game_id: Some(game_id.to_string()),
                    payload: payload.to_owned(),
                    created_at,
                })
                .execute(conn)?;
            Ok::<_, DieselError>(seq)
        });
        match attempt {
            Ok(seq) => return Ok(seq),
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
pub fn prune(
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

/// The events of `user_id` after `after`, oldest first, at most `limit`.
pub fn list_after(
    conn: &mut DbConnection,
    user_id: Uuid,
    after: i64,
    limit: i64,
) -> Result<Vec<EventRow>, DieselError> {
    events::table
        .filter(events::user_id.eq(user_id.to_string()))
        .filter(events::seq.gt(after))
        .order(events::seq.asc())
        .limit(limit)
        .select(EventRow::as_select())
        .load(conn)
}

/// The id of the user's newest event (0 when there is none).
pub fn last_id(conn: &mut DbConnection, user_id: Uuid) -> Result<i64, DieselError> {
    let last: Option<i64> = events::table
        .filter(events::user_id.eq(user_id.to_string()))
        .select(diesel::dsl::max(events::seq))
        .first(conn)?;
    Ok(last.unwrap_or(0))
}

/// On PostgreSQL, queues `message` on `channel`, delivered to every
/// listening process when the current transaction commits (immediately
/// outside one). Nothing on SQLite, where every waiter is in one process.
pub fn notify(conn: &mut DbConnection, channel: &str, message: &str) -> Result<(), DieselError> {
    if let DbConnection::Postgresql(pg) = conn {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<diesel::sql_types::Text, _>(channel)
            .bind::<diesel::sql_types::Text, _>(message)
            .execute(pg)?;
    }
    Ok(())
}
