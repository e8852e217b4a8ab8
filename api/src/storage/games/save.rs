//! The hand-written statements that write a change of a game: the
//! versioned update and its action row ([`save`]), on PostgreSQL in one
//! statement, also with the change's events and the answer under its
//! idempotency key ([`save_with_events`]); on SQLite, as two statements
//! of their own, each prepared once per connection.

use chrono::NaiveDateTime;
use diesel::backend::Backend;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment};
use diesel::result::DatabaseErrorKind;
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use diesel::sqlite::Sqlite;
use uuid::Uuid;

use super::{ActionRow, GameChanges, GameRow, PlayChanges};
use crate::db::{DbConnection, DbPool, StoreError};
use crate::schema::games;
use crate::storage::changes::ChangeRows;
use crate::storage::events::PgEvents;
use crate::storage::idempotency::IdempotencyRow;
use crate::storage::prepared::prepared_statement;

/// The usernames a change was decided from, as the game kept them when it
/// was read: creator, Red, Blue, challenged user (`None` where the game
/// names nobody). A versioned write also requires them unchanged: only an
/// account's deletion renames a user in a game, and it does not move the
/// version, so a change decided before a deletion that renamed one of the
/// game's accounts writes nothing and is decided again from what the
/// deletion left (docs/accounts.md, "Deleting an account"). On
/// PostgreSQL, a write that waited for the deletion's lock on the row
/// checks them on the renamed row.
pub type NamesRead = [Option<String>; 4];

/// A game's status and its Red and Blue players' user ids, as a change
/// read them. The stored game is as read whenever the versioned write
/// matches, so a change whose row keeps all three need not write them,
/// and on neither backend does ([`save`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatsRead {
    pub status: &'static str,
    pub red: Option<Uuid>,
    pub blue: Option<Uuid>,
}

impl SeatsRead {
    /// Whether `row` keeps the status and seats read (ids as rows hold
    /// them: hyphenated, lower case).
    fn kept_by(&self, row: &GameRow) -> bool {
        let same = |stored: &Option<String>, read: Option<Uuid>| match (stored, read) {
            (Some(stored), Some(read)) => {
                *stored == *read.hyphenated().encode_lower(&mut Uuid::encode_buffer())
            }
            (None, None) => true,
            _ => false,
        };
        row.status == self.status
            && same(&row.red_user_id, self.red)
            && same(&row.blue_user_id, self.blue)
    }
}

/// What a versioned write requires of the stored game: still at `version`,
/// still keeping the usernames `names` it was decided from; `seats` is
/// what it then holds.
#[derive(Debug, Clone, Copy)]
pub struct Expected<'a> {
    pub version: i64,
    pub names: &'a NamesRead,
    pub seats: SeatsRead,
}

/// `AND <name column> IS NOT DISTINCT FROM <name read>` for each of the
/// game's four kept usernames (`op`: the backend's null-safe equality).
fn walk_names_read<'b, DB>(
    names: &'b NamesRead,
    op: &str,
    mut out: AstPass<'_, 'b, DB>,
) -> QueryResult<()>
where
    DB: Backend,
    Option<String>: ToSql<Nullable<Text>, DB>,
{
    let columns = ["creator_name", "red_name", "blue_name", "challenged_name"];
    for (column, name) in columns.into_iter().zip(names) {
        out.push_sql(" AND ");
        out.push_sql(column);
        out.push_sql(op);
        out.push_bind_param::<Nullable<Text>, Option<String>>(name)?;
    }
    Ok(())
}

/// Writes the changed columns of `row` (whose `version` is already the new
/// one) if the stored game is still as `expected` (its version, and the
/// usernames the change was decided from), and appends `action` to the
/// log. `Ok(false)`: someone else changed the game first, and nothing
/// was written. One statement on PostgreSQL. Other processes learn of the
/// change after the commit (`events::Notifier::game_changed`), not from a
/// `NOTIFY` in this transaction: see docs/architecture.md, "Telling the
/// other processes".
pub fn save(
    conn: &mut DbConnection,
    row: &GameRow,
    expected: Expected<'_>,
    action: Option<&ActionRow>,
) -> QueryResult<bool> {
    match conn {
        DbConnection::Postgresql(pg) => {
            let saved: Vec<Saved> = if expected.seats.kept_by(row) {
                SaveOnPostgres::<PlayChangesOnPostgres>::of(row, expected, action).load(pg)?
            } else {
                SaveOnPostgres::<GameChangesOnPostgres>::of(row, expected, action).load(pg)?
            };
            Ok(saved.iter().filter(|s| s.written == 1).count() == 1)
        }
        DbConnection::Sqlite(sqlite) => {
            // A move sets no column an index of `games` covers: SQLite
            // would rewrite those entries, changed or not.
            let updated = if expected.seats.kept_by(row) {
                PlayOnSqlite {
                    changes: PlayChanges::of(row).as_changeset(),
                    id: &row.id,
                    expected,
                }
                .execute(sqlite)?
            } else {
                SaveOnSqlite {
                    changes: GameChanges::of(row).as_changeset(),
                    id: &row.id,
                    expected,
                }
                .execute(sqlite)?
            };
            if updated != 1 {
                return Ok(false);
            }
            if let Some(action) = action {
                InsertAction(action).execute(sqlite)?;
            }
            Ok(true)
        }
    }
}

/// The primary key of `idempotency_keys` (PostgreSQL's name for it).
const KEY_TAKEN: &str = "idempotency_keys_pkey";

/// [`save`], [`events::record_all`](crate::storage::events::record_all) of
/// `events` and the answer under its idempotency key (`key`, whose game
/// and version are those of the update) in one statement, on PostgreSQL,
/// sent outside any transaction: the statement is a transaction of its
/// own, so the game's update, its action, its events and its key are
/// written all together or not at all, with one round trip and the
/// commit. `Ok(false)`: nothing was written, because someone else changed
/// the game first or took the key meanwhile (a concurrent request with the
/// same key). Not for SQLite, whose writes share the writer's
/// transactions (an error there).
pub fn save_with_events(conn: &mut DbConnection, rows: &ChangeRows<'_>) -> QueryResult<bool> {
    let DbConnection::Postgresql(pg) = conn else {
        return Err(diesel::result::Error::QueryBuilderError(
            "a change in one statement is for PostgreSQL only".into(),
        ));
    };
    let saved = with_statement!(rows, |statement| statement.get_result(pg));
    written(saved, rows.key.is_some())
}

/// [`save_with_events`], sent once on the calling HTTP worker's own
/// connection, without a blocking thread (`db::DbPool::write_once`).
/// `None`: nothing was sent (no such connection to be had now); write
/// with [`save_with_events`] instead.
pub async fn save_with_events_here(
    pool: &DbPool,
    rows: &ChangeRows<'_>,
) -> Option<Result<bool, StoreError>> {
    let saved = with_statement!(rows, |statement| {
        pool.write_once::<_, Saved>(statement).await?
    });
    Some(match saved {
        Ok(saved) => match saved.as_slice() {
            [saved] => Ok(saved.written == 1),
            _ => Err(StoreError::Query(diesel::result::Error::NotFound)),
        },
        // Classified already: only the key's taking is looked for.
        Err(StoreError::Query(error)) => {
            written(Err(error), rows.key.is_some()).map_err(StoreError::Query)
        }
        Err(error) => Err(error),
    })
}

/// The one row [`SaveWithEventsOnPostgres`] answers.
#[derive(QueryableByName)]
struct Saved {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    written: i32,
}

/// Whether [`SaveWithEventsOnPostgres`] wrote the change, from its answer
/// (`keyed`: the change stores an answer under a key).
fn written(saved: QueryResult<Saved>, keyed: bool) -> QueryResult<bool> {
    match saved {
        Ok(saved) => Ok(saved.written == 1),
        // The key's primary key: the one unique value here another
        // request can take first (the action's and the events' numbers
        // follow the version and the counters).
        Err(diesel::result::Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info))
            if keyed && info.constraint_name() == Some(KEY_TAKEN) =>
        {
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

/// The columns a versioned update on PostgreSQL sets: those of
/// [`GameChanges`], or only those of [`PlayChanges`] when the change keeps
/// the status and seats read, as on SQLite. A move then names no column
/// that a trigger on the seats watches, so PostgreSQL does not even read
/// the trigger's condition (docs/storage.md, "Indexes and HOT moves").
/// Both also set `finished_at`, which SQLite generates. Each set is a
/// statement of its own, prepared once per connection: `Id` names it in
/// the statement's static query id (with the statement's own name: a
/// type written for that, `SaveOnPostgresTag` and the like).
trait Columns<'a>: AsChangeset<Target = games::table> {
    type Id: 'static;

    fn of(row: &'a GameRow) -> Self;
}

/// [`GameChanges`] on PostgreSQL.
#[derive(AsChangeset)]
#[diesel(table_name = games, treat_none_as_null = true)]
struct GameChangesOnPostgres<'a> {
    #[diesel(embed)]
    game: GameChanges<'a>,
    finished_at: Option<NaiveDateTime>,
}

/// [`PlayChanges`] on PostgreSQL.
#[derive(AsChangeset)]
#[diesel(table_name = games, treat_none_as_null = true)]
struct PlayChangesOnPostgres<'a> {
    #[diesel(embed)]
    play: PlayChanges<'a>,
    finished_at: Option<NaiveDateTime>,
}

/// When the game `row` is ended: its `updated_at` once it is finished,
/// null before. The value SQLite's generated `finished_at` has; on
/// PostgreSQL a plain column, which every update of a game sets, since
/// computing it as a generated column cost every move (migration
/// `2026-12-07-000100_finished_at_written`).
fn finished_at(row: &GameRow) -> Option<NaiveDateTime> {
    (row.status == super::status::FINISHED).then_some(row.updated_at)
}

impl<'a> Columns<'a> for GameChangesOnPostgres<'a> {
    type Id = GameChangesOnPostgres<'static>;

    fn of(row: &'a GameRow) -> Self {
        GameChangesOnPostgres {
            game: GameChanges::of(row),
            finished_at: finished_at(row),
        }
    }
}

impl<'a> Columns<'a> for PlayChangesOnPostgres<'a> {
    type Id = PlayChangesOnPostgres<'static>;

    fn of(row: &'a GameRow) -> Self {
        PlayChangesOnPostgres {
            play: PlayChanges::of(row),
            finished_at: finished_at(row),
        }
    }
}

/// [`save`] on PostgreSQL: the versioned update and the action row (only if
/// the update matched and there is an action) in one round trip, prepared
/// once per connection. One row back means written.
struct SaveOnPostgres<'a, S: Columns<'a>> {
    changes: S::Changeset,
    id: &'a str,
    expected: Expected<'a>,
    color: Option<&'a str>,
    action: Option<&'a str>,
    record: Option<&'a str>,
}

/// Names [`SaveOnPostgres`] in its query id.
enum SaveOnPostgresTag {}

impl<'a, S: Columns<'a>> diesel::query_builder::QueryId for SaveOnPostgres<'a, S> {
    type QueryId = (SaveOnPostgresTag, S::Id);
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<'a, S: Columns<'a>> diesel::query_builder::Query for SaveOnPostgres<'a, S> {
    type SqlType = diesel::sql_types::Untyped;
}

impl<'a, S: Columns<'a>, Conn> RunQueryDsl<Conn> for SaveOnPostgres<'a, S> {}

impl<'a, S: Columns<'a>> SaveOnPostgres<'a, S>
where
    S::Changeset: QueryFragment<Pg>,
{
    fn of(row: &'a GameRow, expected: Expected<'a>, action: Option<&'a ActionRow>) -> Self {
        SaveOnPostgres {
            changes: S::of(row).as_changeset(),
            id: &row.id,
            expected,
            color: action.map(|a| a.color.as_str()),
            action: action.map(|a| a.action.as_str()),
            record: action.and_then(|a| a.record.as_deref()),
        }
    }

    /// The common table expressions `upd` (the versioned update, one row
    /// back if it matched) and `act` (the action row, only if the update
    /// matched and there is an action), without `WITH`.
    fn walk_ctes<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        use diesel::sql_types::BigInt;
        // The same columns as on SQLite, and `finished_at`. Their
        // `treat_none_as_null` makes the text the same for every row of a
        // set, as a statement prepared once by type needs.
        out.push_sql("upd AS (UPDATE games SET ");
        self.changes.walk_ast(out.reborrow())?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<Text, _>(&self.id)?;
        out.push_sql(" AND version = ");
        out.push_bind_param::<BigInt, _>(&self.expected.version)?;
        walk_names_read(
            self.expected.names,
            " IS NOT DISTINCT FROM ",
            out.reborrow(),
        )?;
        // The action takes the new version as its number and the update's
        // time, both read back from the updated row.
        out.push_sql(
            " RETURNING id, version, updated_at), \
             act AS (INSERT INTO game_actions (game_id, seq, color, action, record, created_at) \
             SELECT upd.id, upd.version, a.color, a.action, a.record, upd.updated_at \
             FROM upd, (SELECT ",
        );
        out.push_bind_param::<Nullable<Text>, _>(&self.color)?;
        out.push_sql("::text AS color, ");
        out.push_bind_param::<Nullable<Text>, _>(&self.action)?;
        out.push_sql("::text AS action, ");
        out.push_bind_param::<Nullable<Text>, _>(&self.record)?;
        out.push_sql("::text AS record) AS a WHERE a.color IS NOT NULL RETURNING 1)");
        Ok(())
    }
}

impl<'a, S: Columns<'a>> QueryFragment<Pg> for SaveOnPostgres<'a, S>
where
    S::Changeset: QueryFragment<Pg>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH ");
        self.walk_ctes(out.reborrow())?;
        out.push_sql(" SELECT 1 AS written FROM upd");
        Ok(())
    }
}

/// [`save_with_events`]'s one statement: [`SaveOnPostgres`], the events
/// and, with `K` a [`KeyBinds`], the answer under its idempotency key,
/// stored only if the update matched; one row back, with how many games
/// it updated (0 or 1).
struct SaveWithEventsOnPostgres<'a, S: Columns<'a>, K> {
    save: SaveOnPostgres<'a, S>,
    events: PgEvents<'a>,
    key: K,
}

/// Runs `$run` with `$statement` bound to the one statement that writes
/// the change `$rows` on PostgreSQL: [`SaveWithEventsOnPostgres`] with
/// the columns the change sets and, if it has one, its key. A change sent
/// without a key names no table of keys: a move's statement opens no
/// index it does not write. Each of the four is prepared once per
/// connection.
macro_rules! with_statement {
    ($rows:expr, |$statement:ident| $run:expr) => {{
        let rows: &ChangeRows<'_> = $rows;
        match rows.key {
            None => with_statement!(@columns rows, NoKey, |$statement| $run),
            Some(key) => with_statement!(@columns rows, KeyBinds(key), |$statement| $run),
        }
    }};
    (@columns $rows:ident, $key:expr, |$statement:ident| $run:expr) => {
        if $rows.expected.seats.kept_by($rows.row) {
            let $statement = SaveWithEventsOnPostgres::<PlayChangesOnPostgres, _>::of($rows, $key);
            $run
        } else {
            let $statement = SaveWithEventsOnPostgres::<GameChangesOnPostgres, _>::of($rows, $key);
            $run
        }
    };
}
use with_statement;

/// What [`SaveWithEventsOnPostgres`] stores under an idempotency key, as
/// common table expressions after the events': nothing ([`NoKey`]) or
/// the answer ([`KeyBinds`]). `Id` names it in the statement's static
/// query id.
trait KeyPart {
    type Id: 'static;

    fn walk_ctes<'b>(&'b self, out: AstPass<'_, 'b, Pg>) -> QueryResult<()>;
}

/// A change sent without an idempotency key.
struct NoKey;

impl KeyPart for NoKey {
    type Id = NoKey;

    fn walk_ctes<'b>(&'b self, _: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        Ok(())
    }
}

/// The answer under an idempotency key, as [`SaveWithEventsOnPostgres`]
/// binds it.
struct KeyBinds<'a>(&'a IdempotencyRow);

impl KeyPart for KeyBinds<'_> {
    type Id = KeyBinds<'static>;

    /// `, kept AS (...)`: the answer under its key, with the game and
    /// version of the update, stored only if the update matched.
    fn walk_ctes<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        use diesel::sql_types::Integer;
        let key = self.0;
        out.push_sql(
            ", kept AS (INSERT INTO idempotency_keys (user_id, idempotency_key, fingerprint, \
             response_status, response_body, game_id, game_version, created_at) SELECT ",
        );
        out.push_bind_param::<Text, _>(&key.user_id)?;
        out.push_sql("::text, ");
        out.push_bind_param::<Text, _>(&key.idempotency_key)?;
        out.push_sql("::text, ");
        out.push_bind_param::<Text, _>(&key.fingerprint)?;
        out.push_sql("::text, ");
        out.push_bind_param::<Integer, _>(&key.response_status)?;
        out.push_sql("::integer, ");
        out.push_bind_param::<Text, _>(&key.response_body)?;
        out.push_sql("::text, upd.id, upd.version, upd.updated_at FROM upd RETURNING 1)");
        Ok(())
    }
}

impl<'a, S: Columns<'a>, K> SaveWithEventsOnPostgres<'a, S, K>
where
    S::Changeset: QueryFragment<Pg>,
{
    fn of(rows: &'a ChangeRows<'a>, key: K) -> Self {
        SaveWithEventsOnPostgres {
            save: SaveOnPostgres::of(rows.row, rows.expected, rows.action),
            events: PgEvents::of(rows.events, rows.created_at),
            key,
        }
    }
}

/// Names [`SaveWithEventsOnPostgres`] in its query id.
enum SaveWithEventsOnPostgresTag {}

impl<'a, S: Columns<'a>, K: KeyPart> diesel::query_builder::QueryId
    for SaveWithEventsOnPostgres<'a, S, K>
{
    type QueryId = (SaveWithEventsOnPostgresTag, S::Id, K::Id);
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<'a, S: Columns<'a>, K> diesel::query_builder::Query for SaveWithEventsOnPostgres<'a, S, K> {
    type SqlType = diesel::sql_types::Untyped;
}

impl<'a, S: Columns<'a>, K, Conn> RunQueryDsl<Conn> for SaveWithEventsOnPostgres<'a, S, K> {}

impl<'a, S: Columns<'a>, K: KeyPart> QueryFragment<Pg> for SaveWithEventsOnPostgres<'a, S, K>
where
    S::Changeset: QueryFragment<Pg>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH ");
        self.save.walk_ctes(out.reborrow())?;
        out.push_sql(", ");
        self.events
            .walk_ctes(out.reborrow(), " WHERE EXISTS (SELECT 1 FROM upd)")?;
        self.key.walk_ctes(out.reborrow())?;
        out.push_sql(" SELECT count(*)::INTEGER AS written FROM upd");
        Ok(())
    }
}

/// [`save`]'s versioned update on SQLite, prepared once per connection
/// (diesel prepares its own `UPDATE` again on every call).
struct SaveOnSqlite<'a> {
    changes: <GameChanges<'a> as AsChangeset>::Changeset,
    id: &'a str,
    expected: Expected<'a>,
}

prepared_statement!(SaveOnSqlite);

impl QueryFragment<Sqlite> for SaveOnSqlite<'_> {
    fn walk_ast<'b>(&'b self, out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        walk_sqlite_update(&self.changes, self.id, &self.expected, out)
    }
}

/// [`SaveOnSqlite`] of a change that keeps the game's status and seats:
/// only the columns play changes.
struct PlayOnSqlite<'a> {
    changes: <PlayChanges<'a> as AsChangeset>::Changeset,
    id: &'a str,
    expected: Expected<'a>,
}

prepared_statement!(PlayOnSqlite);

impl QueryFragment<Sqlite> for PlayOnSqlite<'_> {
    fn walk_ast<'b>(&'b self, out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        walk_sqlite_update(&self.changes, self.id, &self.expected, out)
    }
}

/// `UPDATE games SET <changes> WHERE` the game is still as `expected`.
fn walk_sqlite_update<'b>(
    changes: &'b impl QueryFragment<Sqlite>,
    id: &'b str,
    expected: &'b Expected<'_>,
    mut out: AstPass<'_, 'b, Sqlite>,
) -> QueryResult<()> {
    out.push_sql("UPDATE games SET ");
    changes.walk_ast(out.reborrow())?;
    out.push_sql(" WHERE id = ");
    out.push_bind_param::<Text, _>(id)?;
    out.push_sql(" AND version = ");
    out.push_bind_param::<BigInt, _>(&expected.version)?;
    walk_names_read(expected.names, " IS ", out)
}

/// [`save`]'s append to the action log on SQLite, prepared once per
/// connection.
struct InsertAction<'a>(&'a ActionRow);

prepared_statement!(InsertAction);

impl QueryFragment<Sqlite> for InsertAction<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        let row = self.0;
        out.push_sql(
            "INSERT INTO game_actions (game_id, seq, color, action, record, created_at) VALUES (",
        );
        out.push_bind_param::<Text, String>(&row.game_id)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, i64>(&row.seq)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, String>(&row.color)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, String>(&row.action)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Text>, Option<String>>(&row.record)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamp, NaiveDateTime>(&row.created_at)?;
        out.push_sql(")");
        Ok(())
    }
}
