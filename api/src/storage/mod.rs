//! Queries, one module per table group. Functions take `&mut DbConnection`
//! and are called inside `db::run`, never on an HTTP worker.
//!
//! A lookup by a unique key reads its row with `get_result`, never
//! `first`: `first` sends `LIMIT ?`, and the bundled SQLite (built with
//! STAT4) prepares a statement again every time a parameter its plan looked
//! at is bound, so every such read would be parsed and planned anew (a
//! quarter of a view's instructions; BENCHMARKS.md, "Instructions per
//! request"). `api/tests/architecture.rs` keeps `first` out of here.

pub mod bots;
pub mod changes;
pub mod channels;
pub mod email;
pub mod events;
pub mod games;
pub mod idempotency;
pub mod outbox;
mod prepared;
pub mod rate_limits;
pub mod ratings;
pub mod refresh_tokens;
pub mod reminders;
pub mod replicas;
pub mod setups;
pub mod tournaments;
pub mod users;
pub mod vacations;

use chrono::{DateTime, NaiveDateTime, Timelike, Utc};

/// Timestamps are stored as UTC `TIMESTAMP` (no zone) on both backends, at
/// microsecond precision (PostgreSQL's), so a value reads back exactly as
/// written on either backend.
pub fn to_db_time(time: DateTime<Utc>) -> NaiveDateTime {
    let naive = time.naive_utc();
    let micros = naive.and_utc().timestamp_subsec_micros();
    naive.with_nanosecond(micros * 1000).unwrap_or(naive)
}

pub fn from_db_time(time: NaiveDateTime) -> DateTime<Utc> {
    time.and_utc()
}
