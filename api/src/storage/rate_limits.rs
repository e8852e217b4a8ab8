//! The `rate_limits` table: attempts counted in windows shared by every
//! server process (`rate_limit`, SECURITY.md "Rate limits").

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{Integer, Text, Timestamp};

use crate::db::DbConnection;
use crate::schema::rate_limits;

/// A window after one more attempt: when it started, and the attempts in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, QueryableByName)]
pub struct Counted {
    #[diesel(sql_type = Timestamp)]
    pub started: NaiveDateTime,
    #[diesel(sql_type = Integer)]
    pub count: i32,
}

/// Counts one attempt under `key` at `now`, in one statement: the window
/// stored goes on, or, if it started at `expired_before` or earlier, a new
/// one starts now. Concurrent attempts on any process are each counted
/// (the row is locked by the upsert).
pub fn hit(
    conn: &mut DbConnection,
    key: &str,
    now: NaiveDateTime,
    expired_before: NaiveDateTime,
) -> QueryResult<Counted> {
    // The same statement on both backends but for the placeholders; every
    // expression of the update reads the row as it was.
    const HIT: &str = "INSERT INTO rate_limits (key, started, count) VALUES ({1}, {2}, 1) \
        ON CONFLICT (key) DO UPDATE SET \
        started = CASE WHEN rate_limits.started <= {3} THEN excluded.started \
                  ELSE rate_limits.started END, \
        count = CASE WHEN rate_limits.started <= {3} THEN 1 \
                ELSE rate_limits.count + 1 END \
        RETURNING started, count";
    let sql = |mark: &str| {
        HIT.replace("{1}", &format!("{mark}1"))
            .replace("{2}", &format!("{mark}2"))
            .replace("{3}", &format!("{mark}3"))
    };
    match conn {
        DbConnection::Postgresql(pg) => diesel::sql_query(sql("$"))
            .bind::<Text, _>(key)
            .bind::<Timestamp, _>(now)
            .bind::<Timestamp, _>(expired_before)
            .get_result(pg),
        DbConnection::Sqlite(sqlite) => diesel::sql_query(sql("?"))
            .bind::<Text, _>(key)
            .bind::<Timestamp, _>(now)
            .bind::<Timestamp, _>(expired_before)
            .get_result(sqlite),
    }
}

/// Deletes the windows that started before `cutoff`; returns how many.
pub fn prune(conn: &mut DbConnection, cutoff: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(rate_limits::table.filter(rate_limits::started.lt(cutoff))).execute(conn)
}
