//! The `idempotency_keys` table: the first answer to each state-changing
//! request sent with an `Idempotency-Key`, per user (docs/api.md).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use crate::db::DbConnection;
use crate::schema::idempotency_keys;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotency_keys)]
pub struct IdempotencyRow {
    pub user_id: String,
    pub idempotency_key: String,
    pub fingerprint: String,
    /// The status the answer was sent with (chosen by the HTTP layer).
    pub response_status: i32,
    pub response_body: String,
    /// The game the answer is about and its version then (for its ETag).
    pub game_id: Option<String>,
    pub game_version: Option<i64>,
    pub created_at: NaiveDateTime,
}

pub fn find(
    conn: &mut DbConnection,
    user_id: &str,
    key: &str,
) -> QueryResult<Option<IdempotencyRow>> {
    idempotency_keys::table
        .find((user_id, key))
        .select(IdempotencyRow::as_select())
        .get_result(conn)
        .optional()
}

/// Stores an answer; `Ok(false)` if the key is already taken (a concurrent
/// request with the same key got there first).
pub fn insert(conn: &mut DbConnection, row: &IdempotencyRow) -> QueryResult<bool> {
    match diesel::insert_into(idempotency_keys::table)
        .values(row)
        .execute(conn)
    {
        Ok(_) => Ok(true),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(false),
        Err(other) => Err(other),
    }
}

/// Forgets one user's key if its answer was stored at or before
/// `expired` (an expired one, before the key is used again): a fresh
/// answer another request stored meanwhile is kept, and the insert that
/// follows then finds the key taken.
pub fn delete_expired(
    conn: &mut DbConnection,
    user_id: &str,
    key: &str,
    expired: NaiveDateTime,
) -> QueryResult<()> {
    diesel::delete(
        idempotency_keys::table
            .find((user_id, key))
            .filter(idempotency_keys::created_at.le(expired)),
    )
    .execute(conn)
    .map(|_| ())
}

/// Forgets every key stored before `before`; returns how many.
pub fn purge(conn: &mut DbConnection, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(idempotency_keys::table.filter(idempotency_keys::created_at.lt(before)))
        .execute(conn)
}
