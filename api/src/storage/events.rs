//! The `events` table: the durable per-user feed (docs/api.md).
//!
//! An event's `id` is a per-user sequence number: 1, 2, 3, ... for each
//! recipient, written under the primary key `(user_id, seq)`. Writers for
//! one user are serialised until they commit, so number n + 1 can only be
//! written once n is committed, and a client that has read everything up to
//! `after = n` can never miss an event that commits later with a number
//! <= n (which a global database sequence, whose numbers may commit out of
//! order, would not guarantee). On SQLite every writer holds the database's
//! write lock (`BEGIN IMMEDIATE`) and takes `MAX(seq) + 1`; on PostgreSQL
//! the upsert of the recipient's row in `event_counters` locks it until the
//! commit. The counters of one change are locked in the order of the user
//! ids, so two changes writing to the same two users cannot deadlock.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use uuid::Uuid;

use chrono::NaiveDateTime;
use diesel::pg::{Pg, PgConnection};
use diesel::query_builder::{AstPass, QueryFragment};

use super::prepared::prepared_statement;
use crate::db::DbConnection;
use crate::schema::events;
use crate::storage::to_db_time;

#[derive(Debug, Queryable, QueryableByName, Selectable, Insertable)]
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

/// One event to store: its recipient, `type`, game and payload JSON.
#[derive(Debug, Clone, Copy)]
pub struct NewEventRow<'a> {
    pub user_id: Uuid,
    pub kind: &'a str,
    /// The game it is about (none: a tournament's event).
    pub game_id: Option<Uuid>,
    pub payload: &'a str,
}

/// Stores `events` as the next events of their recipients, numbered per
/// recipient. Returns the ids in the order given. Call it inside the
/// transaction of the change the events report; the recipients are
/// announced after the commit (`events::Notifier::user_event`).
///
/// PostgreSQL: one statement. Each recipient's last id is in
/// `event_counters`; the upsert that bumps it locks that row until the
/// transaction ends, so writers for one user are serialised and id n + 1
/// can only be written once n is committed. SQLite: every writer holds the
/// database's write lock (`BEGIN IMMEDIATE`), so `MAX(seq) + 1` is safe.
pub fn record_all(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    events: &[NewEventRow<'_>],
) -> Result<Vec<i64>, DieselError> {
    if events.is_empty() {
        return Ok(Vec::new());
    }
    let created_at = to_db_time(now);
    match conn {
        DbConnection::Postgresql(pg) => {
            use diesel::sql_types::BigInt;
            #[derive(QueryableByName)]
            struct Numbered {
                #[diesel(sql_type = BigInt)]
                n: i64,
                #[diesel(sql_type = BigInt)]
                seq: i64,
            }
            let rows: Vec<Numbered> =
                RecordOnPostgres(PgEvents::of(events, created_at)).load(pg)?;
            let mut ids = vec![0; events.len()];
            for row in rows {
                let slot = usize::try_from(row.n - 1)
                    .ok()
                    .and_then(|i| ids.get_mut(i))
                    .ok_or(DieselError::NotFound)?;
                *slot = row.seq;
            }
            Ok(ids)
        }
        DbConnection::Sqlite(_) => {
            let mut ids = Vec::with_capacity(events.len());
            for event in events {
                let user = event.user_id.to_string();
                let last: Option<i64> = events::table
                    .filter(events::user_id.eq(&user))
                    .select(diesel::dsl::max(events::seq))
                    .get_result(conn)?;
                let seq = last.unwrap_or(0) + 1;
                diesel::insert_into(events::table)
                    .values(EventRow {
                        user_id: user,
                        seq,
                        kind: event.kind.to_owned(),
                        game_id: event.game_id.map(|g| g.to_string()),
                        payload: event.payload.to_owned(),
                        created_at,
                    })
                    .execute(conn)?;
                ids.push(seq);
            }
            Ok(ids)
        }
    }
}

/// The events of one change as PostgreSQL takes them: one array per
/// column, in the order given, and each recipient once with how many
/// events they get.
pub(super) struct PgEvents<'a> {
    users: Vec<String>,
    /// How far below its recipient's new counter each event is numbered:
    /// a recipient's last event takes the counter itself, the one before
    /// it one less, and so on.
    below: Vec<i64>,
    kinds: Vec<&'a str>,
    games: Vec<Option<String>>,
    payloads: Vec<&'a str>,
    /// The recipients, in the order of their ids (the order their
    /// counters are locked in), and how many events each gets.
    recipients: Vec<String>,
    counts: Vec<i64>,
    created_at: NaiveDateTime,
}

impl<'a> PgEvents<'a> {
    pub(super) fn of(events: &'a [NewEventRow<'a>], created_at: NaiveDateTime) -> Self {
        let users: Vec<String> = events.iter().map(|e| e.user_id.to_string()).collect();
        let mut recipients = users.clone();
        recipients.sort();
        recipients.dedup();
        let counts = recipients.iter().map(|r| count_in(&users, r)).collect();
        let below = users
            .iter()
            .enumerate()
            .map(|(i, user)| count_in(&users[i + 1..], user))
            .collect();
        PgEvents {
            below,
            kinds: events.iter().map(|e| e.kind).collect(),
            games: events
                .iter()
                .map(|e| e.game_id.map(|g| g.to_string()))
                .collect(),
            payloads: events.iter().map(|e| e.payload).collect(),
            users,
            recipients,
            counts,
            created_at,
        }
    }

    /// The common table expressions that number and store the events,
    /// `bumped` to `stored` (no `WITH`): the upsert `bumped` moves each
    /// recipient's counter past their events (and locks it until the
    /// commit, in the order of the user ids, so that two changes writing
    /// to the same two users cannot deadlock); each event then takes its
    /// place below the new counter (`numbered`, with its place in the
    /// order given, `n`). `only_if` is a condition (with its `WHERE`) on
    /// whether to store any, or empty.
    pub(super) fn walk_ctes<'b>(
        &'b self,
        mut out: AstPass<'_, 'b, Pg>,
        only_if: &'static str,
    ) -> QueryResult<()> {
        use diesel::sql_types::{Array, BigInt, Nullable, Text, Timestamp};
        out.push_sql(
            "bumped AS ( \
                 INSERT INTO event_counters (user_id, last_seq) \
                 SELECT c.user_id, c.k FROM unnest(",
        );
        out.push_bind_param::<Array<Text>, _>(&self.recipients)?;
        out.push_sql("::text[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.counts)?;
        out.push_sql("::bigint[]) AS c(user_id, k)");
        out.push_sql(only_if);
        out.push_sql(
            " ORDER BY c.user_id \
                 ON CONFLICT (user_id) DO UPDATE \
                 SET last_seq = event_counters.last_seq + EXCLUDED.last_seq \
                 RETURNING user_id, last_seq), \
             numbered AS ( \
                 SELECT e.n, e.user_id, bumped.last_seq - e.below AS seq, \
                     e.kind, e.game_id, e.payload \
                 FROM unnest(",
        );
        out.push_bind_param::<Array<Text>, _>(&self.users)?;
        out.push_sql("::text[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.below)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<Text>, _>(&self.kinds)?;
        out.push_sql("::text[], ");
        out.push_bind_param::<Array<Nullable<Text>>, _>(&self.games)?;
        out.push_sql("::text[], ");
        out.push_bind_param::<Array<Text>, _>(&self.payloads)?;
        out.push_sql(
            "::text[]) WITH ORDINALITY AS e(user_id, below, kind, game_id, payload, n) \
             JOIN bumped USING (user_id)), \
             stored AS ( \
                 INSERT INTO events (user_id, seq, kind, game_id, payload, created_at) \
                 SELECT user_id, seq, kind, game_id, payload, ",
        );
        out.push_bind_param::<Timestamp, _>(&self.created_at)?;
        out.push_sql(" FROM numbered RETURNING 1)");
        Ok(())
    }
}

/// How many of `users` are `user`.
fn count_in(users: &[String], user: &String) -> i64 {
    users.iter().filter(|u| *u == user).count() as i64
}

/// The events of one change, numbered and stored in one round trip,
/// prepared once per connection; each comes back with its place in the
/// order given (`n`) and its number (`seq`).
struct RecordOnPostgres<'a>(PgEvents<'a>);

prepared_statement!(RecordOnPostgres, by_name);

impl QueryFragment<Pg> for RecordOnPostgres<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH ");
        self.0.walk_ctes(out.reborrow(), "")?;
        out.push_sql(" SELECT n::BIGINT AS n, seq::BIGINT AS seq FROM numbered");
        Ok(())
    }
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

/// The events after each `(user_id, cursor)` of `after`, at most `limit`
/// a player, ordered by player and then oldest first (the fan-out's read
/// of a pass: docs/notifications.md, "The outbox"). PostgreSQL: one
/// statement for all the players; SQLite: one per player, in process.
pub fn list_after_each(
    conn: &mut DbConnection,
    after: &[(String, i64)],
    limit: i64,
) -> Result<Vec<EventRow>, DieselError> {
    use diesel::sql_types::{Array, BigInt, Text};
    match conn {
        DbConnection::Postgresql(pg) => {
            let (users, cursors): (Vec<&str>, Vec<i64>) = after
                .iter()
                .map(|(user, seq)| (user.as_str(), *seq))
                .unzip();
            diesel::sql_query(
                "SELECT e.user_id, e.seq, e.kind, e.game_id, e.payload, e.created_at \
                 FROM unnest($1::text[], $2::bigint[]) AS c(user_id, seq) \
                 CROSS JOIN LATERAL (SELECT * FROM events \
                     WHERE events.user_id = c.user_id AND events.seq > c.seq \
                     ORDER BY events.seq LIMIT $3) AS e \
                 ORDER BY e.user_id, e.seq",
            )
            .bind::<Array<Text>, _>(users)
            .bind::<Array<BigInt>, _>(cursors)
            .bind::<BigInt, _>(limit)
            .load(pg)
        }
        DbConnection::Sqlite(_) => {
            let mut sorted: Vec<&(String, i64)> = after.iter().collect();
            sorted.sort_unstable();
            let mut rows = Vec::new();
            for (user, seq) in sorted {
                rows.extend(
                    events::table
                        .filter(events::user_id.eq(user))
                        .filter(events::seq.gt(seq))
                        .order(events::seq.asc())
                        .limit(limit)
                        .select(EventRow::as_select())
                        .load(conn)?,
                );
            }
            Ok(rows)
        }
    }
}

/// The id of the user's newest event (0 when there is none).
pub fn last_id(conn: &mut DbConnection, user_id: Uuid) -> Result<i64, DieselError> {
    let last: Option<i64> = events::table
        .filter(events::user_id.eq(user_id.to_string()))
        .select(diesel::dsl::max(events::seq))
        .get_result(conn)?;
    Ok(last.unwrap_or(0))
}

/// Starts listening on `channel` (the dedicated connection of
/// `events::listener`).
pub fn listen(conn: &mut PgConnection, channel: &str) -> Result<(), DieselError> {
    use diesel::connection::SimpleConnection;
    // LISTEN takes an identifier, not a parameter: quoted here.
    conn.batch_execute(&format!("LISTEN \"{}\"", channel.replace('"', "\"\"")))
}

/// The server process behind this connection: the sender of whatever it
/// notifies, as listeners see it.
pub fn backend_pid(conn: &mut PgConnection) -> Result<i32, DieselError> {
    diesel::select(diesel::dsl::sql::<diesel::sql_types::Integer>(
        "pg_backend_pid()",
    ))
    .get_result(conn)
}

/// Sends every one of `messages` on `channel` in one statement, in a
/// transaction of its own that writes nothing durable: the commit holds
/// PostgreSQL's notification lock only for a moment, not through a flush
/// of the log as a `NOTIFY` inside a writing transaction does.
pub fn notify_all(
    conn: &mut PgConnection,
    channel: &str,
    messages: &[String],
) -> Result<(), DieselError> {
    NotifyAll { channel, messages }.execute(conn).map(|_| ())
}

/// [`notify_all`]'s statement, prepared once by the `LISTEN` connection
/// (sent after every change: parsing and planning it each time cost
/// PostgreSQL more than running it).
struct NotifyAll<'a> {
    channel: &'a str,
    messages: &'a [String],
}

prepared_statement!(NotifyAll);

impl QueryFragment<Pg> for NotifyAll<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        use diesel::sql_types::{Array, Text};
        out.push_sql("SELECT pg_notify(");
        out.push_bind_param::<Text, _>(&self.channel)?;
        out.push_sql(", m) FROM unnest(");
        out.push_bind_param::<Array<Text>, _>(&self.messages)?;
        out.push_sql("::text[]) AS m");
        Ok(())
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_is_numbered_below_its_recipients_new_counter() {
        let (ann, bob) = (Uuid::from_u128(2), Uuid::from_u128(1));
        let game = Uuid::from_u128(9);
        let event = |user_id| NewEventRow {
            user_id,
            kind: "k",
            game_id: Some(game),
            payload: "{}",
        };
        let events = [event(ann), event(bob), event(ann), event(ann)];
        let pg = PgEvents::of(&events, NaiveDateTime::default());
        // Ann's counter moves by 3: her events take counter - 2, - 1, - 0
        // in the order given; Bob's one takes his new counter.
        assert_eq!(pg.below, [2, 0, 1, 0]);
        // Each recipient once, in the order of the ids (the lock order).
        assert_eq!(pg.recipients, [bob.to_string(), ann.to_string()]);
        assert_eq!(pg.counts, [1, 3]);
    }
}
