//! The write of one change to a game, the backend's way (docs/storage.md,
//! "One write pipeline"): the game's versioned update, its action, the
//! answer under the request's idempotency key and its events.
//!
//! - On PostgreSQL, outside any transaction ([`WriteTo::Connection`]), it
//!   is one statement, a transaction of its own
//!   ([`games::save_with_events`]), unless the change needs more (the
//!   ratings of a game it ends, an expired answer under its key to
//!   replace): then a transaction of its own.
//!   Sent from an HTTP worker, the one statement goes on that worker's own
//!   connection ([`write_here`]).
//! - On SQLite ([`WriteTo::Group`]) it is the same rows written one
//!   statement after the other inside the writer's transaction.
//!
//! Either way the rows are written in one order (the game, the ratings,
//! the key, the recipients' event counters: docs/storage.md, "Lock
//! order"), and all of them or none.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;

use super::events::{self, NewEventRow};
use super::games::{self, ActionRow, Expected, GameRow};
use super::idempotency::{self as keys, IdempotencyRow};
use crate::db::{self, DbConnection, DbPool, StoreError, WriteTo};

/// Everything one change writes, encoded.
pub struct ChangeRows<'a> {
    /// The game at its next version.
    pub row: &'a GameRow,
    /// What the stored game must still be.
    pub expected: Expected<'a>,
    pub action: Option<&'a ActionRow>,
    pub events: &'a [NewEventRow<'a>],
    /// The answer under the request's key (its game and version are the
    /// update's).
    pub key: Option<&'a IdempotencyRow>,
    /// An expired answer is stored under the same key: deleted first if
    /// it was stored at or before this time (a fresh one stored meanwhile
    /// is kept, and the write is lost).
    pub replaces_key: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
}

/// What a write found: done, or nothing written because the game is no
/// longer as expected or the key was taken meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Written,
    Lost,
}

impl Outcome {
    /// Written, or (`false`) lost.
    fn of(written: bool) -> Outcome {
        match written {
            true => Outcome::Written,
            false => Outcome::Lost,
        }
    }
}

/// Writes `rows`, and `more` in the same transaction (`None`: nothing
/// more). With [`WriteTo::Group`] a lost write may have written part of
/// the rows: the caller must then end its turn with an error, which rolls
/// its part back.
pub fn write<M>(
    to: WriteTo<'_>,
    rows: &ChangeRows<'_>,
    more: Option<M>,
) -> Result<Outcome, StoreError>
where
    M: FnOnce(&mut DbConnection) -> Result<(), StoreError>,
{
    match to {
        WriteTo::Connection(conn, deadline) if more.is_none() && rows.replaces_key.is_none() => {
            if deadline.passed() {
                // The caller was already told "unavailable": keep that true.
                return Err(StoreError::Unavailable(
                    "the request's deadline passed before the write".into(),
                ));
            }
            Ok(Outcome::of(games::save_with_events(conn, rows)?))
        }
        WriteTo::Connection(conn, deadline) => {
            match db::transaction_until(conn, deadline, |conn| in_order(conn, rows, more)) {
                Ok(()) => Ok(Outcome::Written),
                Err(Undone::Lost) => Ok(Outcome::Lost),
                Err(Undone::Failed(error)) => Err(error),
            }
        }
        WriteTo::Group(conn) => match in_order(conn, rows, more) {
            Ok(()) => Ok(Outcome::Written),
            Err(Undone::Lost) => Ok(Outcome::Lost),
            Err(Undone::Failed(error)) => Err(error),
        },
    }
}

/// [`write`] of a change that needs nothing more in its transaction, as
/// its one statement sent on the calling HTTP worker's own PostgreSQL
/// connection, without a blocking thread (docs/storage.md, "Writes without
/// a blocking thread"). `None`: nothing was sent (SQLite, no such
/// connection to be had now, or the change needs a transaction: an
/// expired answer under its key to replace); write with [`write`] instead.
pub async fn write_here(
    pool: &DbPool,
    rows: &ChangeRows<'_>,
) -> Option<Result<Outcome, StoreError>> {
    if rows.replaces_key.is_some() {
        return None;
    }
    let written = games::save_with_events_here(pool, rows).await?;
    Some(written.map(Outcome::of))
}

/// Stores `key`, the answer to a request that changed nothing (a
/// refusal), replacing an expired one stored at or before `replaces`:
/// one statement where that is a transaction of its own, else a
/// transaction. [`Outcome::Lost`]: a concurrent request with the same key
/// stored its answer first.
pub fn write_key(
    to: WriteTo<'_>,
    key: &IdempotencyRow,
    replaces: Option<NaiveDateTime>,
) -> Result<Outcome, StoreError> {
    let store = |conn: &mut DbConnection| -> Result<(), Undone> {
        if let Some(expired) = replaces {
            keys::delete_expired(conn, &key.user_id, &key.idempotency_key, expired)?;
        }
        if keys::insert(conn, key)? {
            Ok(())
        } else {
            Err(Undone::Lost)
        }
    };
    let stored = match to {
        WriteTo::Connection(conn, deadline) if replaces.is_some() => {
            db::transaction_until(conn, deadline, store)
        }
        WriteTo::Connection(_, deadline) if deadline.passed() => {
            return Err(StoreError::Unavailable(
                "the request's deadline passed before the write".into(),
            ));
        }
        WriteTo::Connection(conn, _) | WriteTo::Group(conn) => store(conn),
    };
    match stored {
        Ok(()) => Ok(Outcome::Written),
        Err(Undone::Lost) => Ok(Outcome::Lost),
        Err(Undone::Failed(error)) => Err(error),
    }
}

/// The rows one statement after the other, in the lock order.
fn in_order<M>(
    conn: &mut DbConnection,
    rows: &ChangeRows<'_>,
    more: Option<M>,
) -> Result<(), Undone>
where
    M: FnOnce(&mut DbConnection) -> Result<(), StoreError>,
{
    if !games::save(conn, rows.row, rows.expected, rows.action)? {
        return Err(Undone::Lost);
    }
    if let Some(more) = more {
        more(conn).map_err(Undone::Failed)?;
    }
    if let Some(key) = rows.key {
        if let Some(expired) = rows.replaces_key {
            keys::delete_expired(conn, &key.user_id, &key.idempotency_key, expired)?;
        }
        if !keys::insert(conn, key)? {
            return Err(Undone::Lost);
        }
    }
    events::record_all(conn, super::from_db_time(rows.created_at), rows.events)?;
    Ok(())
}

/// Why rows were not (all) written; an error rolls the transaction back.
enum Undone {
    Lost,
    Failed(StoreError),
}

impl From<DieselError> for Undone {
    fn from(error: DieselError) -> Self {
        Undone::Failed(error.into())
    }
}
