//! The outbox (docs/notifications.md): the deliveries owed to players'
//! channels, and the fan-out cursors that turn their events into
//! deliveries.
//!
//! Several processes share the work. On PostgreSQL a claim takes rows
//! `FOR UPDATE SKIP LOCKED` inside its transaction, so two processes never
//! take the same cursor or delivery at once; on SQLite a delivery's claim
//! runs on the one writer, and the fan-out reads its cursors before its
//! turn and moves each only from where it read it
//! ([`advance_cursor_from`]). A claimed delivery is leased: its
//! `next_attempt_at` moves past the lease before it is sent, so one whose
//! process died mid-delivery is taken again when the lease runs out.

use std::collections::HashSet;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::schema::{deliveries, notification_cursors};

/// The values of `deliveries.state`.
pub mod delivery_state {
    pub const PENDING: &str = "pending";
    pub const DELIVERED: &str = "delivered";
    pub const FAILED: &str = "failed";
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = deliveries)]
pub struct DeliveryRow {
    pub id: String,
    pub user_id: String,
    pub push_subscription_id: Option<String>,
    pub webhook_id: Option<String>,
    pub event: String,
    pub game_id: Option<String>,
    /// The JSON body: `{"type", "timestamp", "data"}`.
    pub payload: String,
    pub state: String,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub last_status: Option<i32>,
    pub last_error: Option<String>,
    pub created_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
}

/// Claims up to `limit` players whose events after their cursor are not
/// yet turned into deliveries, the first after player `after` in the order
/// of their ids (`""`: from the first): `(user_id, cursor)`, in that
/// order. On PostgreSQL, call it inside the transaction that turns them
/// and moves the cursors (its rows stay locked until then); on SQLite it
/// only reads them.
pub fn claim_cursors_behind(
    conn: &mut DbConnection,
    after: &str,
    limit: i64,
) -> QueryResult<Vec<(String, i64)>> {
    use diesel::sql_types::{BigInt, Text};
    #[derive(QueryableByName)]
    struct Behind {
        #[diesel(sql_type = Text)]
        user_id: String,
        #[diesel(sql_type = BigInt)]
        seq: i64,
    }
    let rows: Vec<Behind> = match conn {
        // event_counters holds each player's newest event number.
        DbConnection::Postgresql(pg) => diesel::sql_query(
            "SELECT c.user_id, c.seq FROM notification_cursors c \
             JOIN event_counters e ON e.user_id = c.user_id \
             WHERE e.last_seq > c.seq AND c.user_id > $1 \
             ORDER BY c.user_id LIMIT $2 \
             FOR UPDATE OF c SKIP LOCKED",
        )
        .bind::<Text, _>(after)
        .bind::<BigInt, _>(limit)
        .load(pg)?,
        DbConnection::Sqlite(sqlite) => diesel::sql_query(
            "SELECT c.user_id, c.seq FROM notification_cursors c \
             WHERE EXISTS (SELECT 1 FROM events e \
                           WHERE e.user_id = c.user_id AND e.seq > c.seq) \
               AND c.user_id > ? \
             ORDER BY c.user_id LIMIT ?",
        )
        .bind::<Text, _>(after)
        .bind::<BigInt, _>(limit)
        .load(sqlite)?,
    };
    Ok(rows.into_iter().map(|r| (r.user_id, r.seq)).collect())
}

/// Moves `user_id`'s cursor from `from` to `seq`; `false` (nothing
/// changed) if it is no longer at `from`.
pub fn advance_cursor_from(
    conn: &mut DbConnection,
    user_id: &str,
    from: i64,
    seq: i64,
) -> QueryResult<bool> {
    diesel::update(
        notification_cursors::table
            .find(user_id)
            .filter(notification_cursors::seq.eq(from)),
    )
    .set(notification_cursors::seq.eq(seq))
    .execute(conn)
    .map(|changed| changed == 1)
}

/// Moves each cursor `(user_id, from, to)` from `from` to `to`, where it
/// is still at `from` ([`advance_cursor_from`] for many). Returns the
/// players whose cursor moved. PostgreSQL: one statement.
pub fn advance_cursors_from(
    conn: &mut DbConnection,
    moves: &[(&str, i64, i64)],
) -> QueryResult<HashSet<String>> {
    use diesel::sql_types::{Array, BigInt, Text};
    #[derive(QueryableByName)]
    struct Moved {
        #[diesel(sql_type = Text)]
        user_id: String,
    }
    if moves.is_empty() {
        return Ok(HashSet::new());
    }
    match conn {
        DbConnection::Postgresql(pg) => {
            let users: Vec<&str> = moves.iter().map(|m| m.0).collect();
            let from: Vec<i64> = moves.iter().map(|m| m.1).collect();
            let to: Vec<i64> = moves.iter().map(|m| m.2).collect();
            let moved: Vec<Moved> = diesel::sql_query(
                "UPDATE notification_cursors AS c SET seq = m.to_seq \
                 FROM unnest($1::text[], $2::bigint[], $3::bigint[]) \
                     AS m(user_id, from_seq, to_seq) \
                 WHERE c.user_id = m.user_id AND c.seq = m.from_seq \
                 RETURNING c.user_id",
            )
            .bind::<Array<Text>, _>(users)
            .bind::<Array<BigInt>, _>(from)
            .bind::<Array<BigInt>, _>(to)
            .load(pg)?;
            Ok(moved.into_iter().map(|m| m.user_id).collect())
        }
        DbConnection::Sqlite(_) => {
            let mut moved = HashSet::new();
            for (user, from, to) in moves {
                if advance_cursor_from(conn, user, *from, *to)? {
                    moved.insert((*user).to_owned());
                }
            }
            Ok(moved)
        }
    }
}

/// Rows of one insert on PostgreSQL: 14 parameters each, well under its
/// 65,535 a statement.
const INSERT_CHUNK: usize = 2_000;

pub fn insert_deliveries(conn: &mut DbConnection, rows: &[DeliveryRow]) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    match conn {
        DbConnection::Postgresql(pg) => {
            for chunk in rows.chunks(INSERT_CHUNK) {
                diesel::insert_into(deliveries::table)
                    .values(chunk)
                    .execute(pg)?;
            }
            Ok(())
        }
        // SQLite's diesel takes a batch only as separate statements.
        DbConnection::Sqlite(sqlite) => {
            for row in rows {
                diesel::insert_into(deliveries::table)
                    .values(row)
                    .execute(sqlite)?;
            }
            Ok(())
        }
    }
}

/// Claims up to `limit` pending deliveries due at `now`, oldest due first:
/// each gets one more attempt and is leased until `lease_until`. Call it
/// in a transaction of its own; the rows come back as claimed.
pub fn claim_due(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    lease_until: NaiveDateTime,
    limit: i64,
    email: bool,
) -> QueryResult<Vec<DeliveryRow>> {
    use delivery_state::PENDING;
    use diesel::sql_types::Bool;
    // A process that sends no e-mail leaves e-mail to those that do.
    let channel = deliveries::push_subscription_id
        .is_not_null()
        .or(deliveries::webhook_id.is_not_null())
        .or(email.into_sql::<Bool>());
    macro_rules! due {
        () => {
            deliveries::table
                .filter(deliveries::state.eq(PENDING))
                .filter(deliveries::next_attempt_at.le(now))
                .filter(channel)
                .order((deliveries::next_attempt_at.asc(), deliveries::id.asc()))
                .limit(limit)
                .select(DeliveryRow::as_select())
        };
    }
    let mut rows: Vec<DeliveryRow> = match conn {
        DbConnection::Postgresql(pg) => due!().for_update().skip_locked().load(pg)?,
        DbConnection::Sqlite(sqlite) => due!().load(sqlite)?,
    };
    lease(conn, &mut rows, lease_until)?;
    Ok(rows)
}

/// Leases `rows` (just loaded, locked) until `lease_until` and counts
/// their attempt.
fn lease(
    conn: &mut DbConnection,
    rows: &mut [DeliveryRow],
    lease_until: NaiveDateTime,
) -> QueryResult<()> {
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    diesel::update(deliveries::table.filter(deliveries::id.eq_any(&ids)))
        .set((
            deliveries::attempts.eq(deliveries::attempts + 1),
            deliveries::next_attempt_at.eq(lease_until),
        ))
        .execute(conn)?;
    for row in rows {
        row.attempts += 1;
        row.next_attempt_at = lease_until;
    }
    Ok(())
}

/// Claims every pending e-mail delivery of `user_id` but its codes, due or
/// not: a digest being sent takes them along. Only the process holding the
/// player's digest lease calls it. Each is leased until `lease_until`, its
/// attempt counted.
pub fn claim_email_backlog(
    conn: &mut DbConnection,
    user_id: &str,
    lease_until: NaiveDateTime,
) -> QueryResult<Vec<DeliveryRow>> {
    macro_rules! backlog {
        () => {
            deliveries::table
                .filter(deliveries::user_id.eq(user_id))
                .filter(deliveries::state.eq(delivery_state::PENDING))
                .filter(deliveries::push_subscription_id.is_null())
                .filter(deliveries::webhook_id.is_null())
                .filter(deliveries::event.ne(EMAIL_CODE))
                .order(deliveries::id.asc())
                .select(DeliveryRow::as_select())
        };
    }
    let mut rows: Vec<DeliveryRow> = match conn {
        DbConnection::Postgresql(pg) => backlog!().for_update().load(pg)?,
        DbConnection::Sqlite(sqlite) => backlog!().load(sqlite)?,
    };
    lease(conn, &mut rows, lease_until)?;
    Ok(rows)
}

/// Ends every pending e-mail delivery of `user_id` as failed with `why`:
/// the address changed or went, or e-mail was turned off.
pub fn drop_pending_email(
    conn: &mut DbConnection,
    user_id: &str,
    why: &str,
    at: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        deliveries::table
            .filter(deliveries::user_id.eq(user_id))
            .filter(deliveries::state.eq(delivery_state::PENDING))
            .filter(deliveries::push_subscription_id.is_null())
            .filter(deliveries::webhook_id.is_null()),
    )
    .set((
        deliveries::state.eq(delivery_state::FAILED),
        deliveries::last_error.eq(Some(why)),
        deliveries::finished_at.eq(Some(at)),
    ))
    .execute(conn)
}

/// Puts delivery `id` back, untried, until `at` (a digest that may not go
/// out yet).
pub fn postpone(conn: &mut DbConnection, id: &str, at: NaiveDateTime) -> QueryResult<()> {
    diesel::update(deliveries::table.find(id))
        .set((
            deliveries::attempts.eq(deliveries::attempts - 1),
            deliveries::next_attempt_at.eq(at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Gives deliveries back untried, due at `now`: each `(id, lease)` that is
/// still pending under that lease (this process's claim, at a stop; docs/
/// notifications.md, "The outbox"). Returns how many were given back.
pub fn hand_back(
    conn: &mut DbConnection,
    held: &[(String, NaiveDateTime)],
    now: NaiveDateTime,
) -> QueryResult<usize> {
    let mut leases: Vec<NaiveDateTime> = held.iter().map(|(_, lease)| *lease).collect();
    leases.sort_unstable();
    leases.dedup();
    let mut given = 0;
    for lease in leases {
        let ids: Vec<&str> = held
            .iter()
            .filter(|(_, l)| *l == lease)
            .map(|(id, _)| id.as_str())
            .collect();
        given += diesel::update(
            deliveries::table
                .filter(deliveries::id.eq_any(&ids))
                .filter(deliveries::state.eq(delivery_state::PENDING))
                .filter(deliveries::next_attempt_at.eq(lease)),
        )
        .set((
            deliveries::attempts.eq(deliveries::attempts - 1),
            deliveries::next_attempt_at.eq(now),
        ))
        .execute(conn)?;
    }
    Ok(given)
}

/// The event of an e-mail delivery that carries a verification code.
pub const EMAIL_CODE: &str = "email_code";

/// The end of one attempt of delivery `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempted<'a> {
    pub state: &'static str,
    pub next_attempt_at: NaiveDateTime,
    pub status: Option<i32>,
    pub error: Option<&'a str>,
    pub finished_at: Option<NaiveDateTime>,
}

/// Records the attempts of many deliveries: those that ended alike (most
/// often, all delivered at the same instant with the same status) in one
/// statement.
pub fn record_attempts(
    conn: &mut DbConnection,
    attempts: &[(&str, Attempted<'_>)],
) -> QueryResult<()> {
    let mut alike: Vec<(&Attempted<'_>, Vec<&str>)> = Vec::new();
    for (id, attempt) in attempts {
        match alike.iter_mut().find(|(other, _)| *other == attempt) {
            Some((_, ids)) => ids.push(id),
            None => alike.push((attempt, vec![id])),
        }
    }
    for (attempt, ids) in alike {
        diesel::update(deliveries::table.filter(deliveries::id.eq_any(&ids)))
            .set((
                deliveries::state.eq(attempt.state),
                deliveries::next_attempt_at.eq(attempt.next_attempt_at),
                deliveries::last_status.eq(attempt.status),
                deliveries::last_error.eq(attempt.error),
                deliveries::finished_at.eq(attempt.finished_at),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Records an attempt of delivery `id`.
pub fn record_attempt(
    conn: &mut DbConnection,
    id: &str,
    attempt: &Attempted<'_>,
) -> QueryResult<()> {
    record_attempts(conn, &[(id, attempt.clone())])
}

/// The newest `limit` deliveries to webhook `webhook_id`.
pub fn of_webhook(
    conn: &mut DbConnection,
    webhook_id: &str,
    limit: i64,
) -> QueryResult<Vec<DeliveryRow>> {
    deliveries::table
        .filter(deliveries::webhook_id.eq(webhook_id))
        .order((deliveries::created_at.desc(), deliveries::id.desc()))
        .limit(limit)
        .select(DeliveryRow::as_select())
        .load(conn)
}

/// When the next pending delivery is due, if any.
pub fn next_due(conn: &mut DbConnection) -> QueryResult<Option<NaiveDateTime>> {
    deliveries::table
        .filter(deliveries::state.eq(delivery_state::PENDING))
        .select(diesel::dsl::min(deliveries::next_attempt_at))
        .get_result(conn)
}

/// Deletes the deliveries that finished before `cutoff`; returns how many
/// went.
pub fn prune(conn: &mut DbConnection, cutoff: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(
        deliveries::table
            .filter(deliveries::state.ne(delivery_state::PENDING))
            .filter(deliveries::finished_at.lt(cutoff)),
    )
    .execute(conn)
}

/// What a notification says of its game, read when its event is fanned
/// out: the players' names, whose turn, the deadline and the version.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = crate::schema::games)]
pub struct GameBrief {
    pub version: i64,
    pub creator_id: String,
    pub red_user_id: Option<String>,
    pub blue_user_id: Option<String>,
    pub creator_name: Option<String>,
    pub red_name: Option<String>,
    pub blue_name: Option<String>,
    pub turn: Option<String>,
    pub deadline: Option<NaiveDateTime>,
}

/// The headers of games `ids` that exist, `(id, brief)`, in one statement.
pub fn game_briefs(conn: &mut DbConnection, ids: &[&str]) -> QueryResult<Vec<(String, GameBrief)>> {
    use crate::schema::games;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    games::table
        .filter(games::id.eq_any(ids))
        .select((games::id, GameBrief::as_select()))
        .load(conn)
}

pub fn game_brief(conn: &mut DbConnection, game_id: &str) -> QueryResult<Option<GameBrief>> {
    crate::schema::games::table
        .find(game_id)
        .select(GameBrief::as_select())
        .get_result(conn)
        .optional()
}

/// How many deliveries wait to be sent or tried again (the outbox's depth,
/// docs/metrics.md).
pub fn depth(conn: &mut DbConnection) -> QueryResult<i64> {
    crate::schema::deliveries::table
        .filter(crate::schema::deliveries::state.eq(delivery_state::PENDING))
        .count()
        .get_result(conn)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use diesel::prelude::*;
    use diesel::sql_types::Text;

    use crate::db::DbConnection;

    #[derive(QueryableByName)]
    struct Step {
        #[diesel(sql_type = Text)]
        detail: String,
    }

    /// What SQLite plans for `statement` (with `?` bound to a text),
    /// one line a step.
    fn plan(conn: &mut DbConnection, statement: &str) -> String {
        let DbConnection::Sqlite(sqlite) = conn else {
            panic!("a scratch database is SQLite");
        };
        diesel::sql_query(format!("EXPLAIN QUERY PLAN {statement}"))
            .bind::<Text, _>("x")
            .load::<Step>(sqlite)
            .unwrap()
            .into_iter()
            .map(|step| step.detail)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The indexes of a channel's deliveries hold only that channel's, and
    /// still serve what reads a channel's deliveries: a webhook's list and
    /// the cascade when a webhook or a subscription is deleted.
    #[test]
    fn a_channels_deliveries_are_found_by_its_own_index() {
        let scratch = crate::db::scratch::ScratchSqlite::migrated("channel-indexes");
        let mut conn = scratch.conn();
        let listed = plan(
            &mut conn,
            "SELECT id FROM deliveries WHERE webhook_id = ? \
             ORDER BY created_at DESC, id DESC LIMIT 20",
        );
        assert!(
            listed.contains("INDEX deliveries_webhook (webhook_id=?)"),
            "{listed}"
        );
        for (column, index) in [
            ("webhook_id", "deliveries_webhook"),
            ("push_subscription_id", "deliveries_push"),
        ] {
            let cascade = plan(
                &mut conn,
                &format!("DELETE FROM deliveries WHERE {column} = ?"),
            );
            assert!(
                cascade.contains(&format!("INDEX {index} ({column}=?)")),
                "{cascade}"
            );
        }
        // Both partial: a delivery of another channel has no entry there.
        let DbConnection::Sqlite(sqlite) = &mut *conn else {
            unreachable!()
        };
        let partial: Vec<String> = diesel::sql_query(
            "SELECT name AS detail FROM pragma_index_list('deliveries') \
             WHERE partial = 1 ORDER BY name",
        )
        .load::<Step>(sqlite)
        .unwrap()
        .into_iter()
        .map(|step| step.detail)
        .collect();
        for index in ["deliveries_push", "deliveries_webhook"] {
            assert!(partial.iter().any(|name| name == index), "{partial:?}");
        }
    }
}
