//! What a read replica says of itself (docs/deploy.md, "Read replicas").

use diesel::prelude::*;
use diesel::sql_types::{Bool, Double};

use crate::db::DbConnection;

/// A replica's state: whether it is a standby streaming from its primary,
/// and how far behind it is.
#[derive(Debug, Clone, Copy, PartialEq, QueryableByName)]
pub struct Standing {
    /// In recovery (a standby), not a primary or a promoted former standby.
    #[diesel(sql_type = Bool)]
    pub standby: bool,
    /// Its WAL receiver is streaming from the primary now.
    #[diesel(sql_type = Bool)]
    pub streaming: bool,
    /// Seconds behind: 0 when it has replayed all it received, else the
    /// age of the last transaction it replayed.
    #[diesel(sql_type = Double)]
    pub lag_seconds: f64,
}

/// One statement, on the replica. `None` on SQLite (no replicas there).
pub fn standing(conn: &mut DbConnection) -> QueryResult<Option<Standing>> {
    let DbConnection::Postgresql(pg) = conn else {
        return Ok(None);
    };
    diesel::sql_query(
        "SELECT pg_is_in_recovery() AS standby, \
                EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') AS streaming, \
                CASE WHEN NOT pg_is_in_recovery() THEN 0 \
                     WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 \
                     ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) \
                END::float8 AS lag_seconds",
    )
    .get_result(pg)
    .map(Some)
}
