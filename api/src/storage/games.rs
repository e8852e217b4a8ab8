//! The `games` and `game_actions` tables.
//!
//! A game is one row holding its current state; every change rewrites the
//! row with a versioned `UPDATE ... WHERE id = ? AND version = ?` (zero rows
//! updated: someone else changed the game first). Actions applied in play are
//! appended to `game_actions` in the same transaction.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::DatabaseErrorKind;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use diesel::backend::Backend;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment};
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use diesel::sqlite::Sqlite;

use super::events::{NewEventRow, PgEvents};
use super::idempotency::IdempotencyRow;
use super::prepared::prepared_statement;
use crate::db::DbConnection;
use crate::schema::{game_actions, game_deadlines, games, rematches, users};

// The `status` column is read and written only through this type
// (docs/lifecycle.md); it is also the `status` clients see.
/// Where a game is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Created; a seat is open or a challenge is not yet accepted.
    Waiting,
    /// Both seated; setups are being placed.
    Setup,
    Playing,
    Finished,
    /// Ended before play started (cancelled, declined, or a setup never came).
    Aborted,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Waiting,
        Status::Setup,
        Status::Playing,
        Status::Finished,
        Status::Aborted,
    ];

    /// The column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Setup => "setup",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// The statuses of a game not yet over.
    const NOT_OVER: [&'static str; 3] = [
        Status::Waiting.as_str(),
        Status::Setup.as_str(),
        Status::Playing.as_str(),
    ];

    /// The statuses with a running clock (a deadline that can pass).
    const CLOCKED: [&'static str; 2] = [Status::Setup.as_str(), Status::Playing.as_str()];
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = games, treat_none_as_null = true)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub rules: String,
    pub status: String,
    pub version: i64,
    pub creator_id: String,
    pub red_user_id: Option<String>,
    pub blue_user_id: Option<String>,
    pub challenged_user_id: Option<String>,
    pub days_per_move: i32,
    pub red_setup: Option<String>,
    pub blue_setup: Option<String>,
    pub state: Option<String>,
    pub turn: Option<String>,
    pub ply: i32,
    /// The color offering a draw, while one stands (the state holds it too;
    /// this column can be searched: `storage::bots`).
    pub draw_offer: Option<String>,
    pub deadline: Option<NaiveDateTime>,
    /// Written only by the deadline reminder (events); a game write never
    /// overwrites it.
    #[diesel(skip_update)]
    pub reminded_version: Option<i64>,
    pub result_winner: Option<String>,
    pub result_reason: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Whether the game counts for ratings (fixed at creation).
    pub rated: bool,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_actions)]
pub struct ActionRow {
    pub game_id: String,
    pub seq: i64,
    pub color: String,
    pub action: String,
    pub record: Option<String>,
    pub created_at: NaiveDateTime,
}

pub fn insert(conn: &mut DbConnection, row: &GameRow) -> QueryResult<()> {
    diesel::insert_into(games::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

pub fn find(conn: &mut DbConnection, id: &str) -> QueryResult<Option<GameRow>> {
    games::table
        .find(id)
        .select(GameRow::as_select())
        .get_result(conn)
        .optional()
}

/// The columns a change of a game can touch (never its id, variant, rules,
/// creator, challenged user, clock length, creation time, reminder or
/// whether it is rated).
#[derive(Debug, AsChangeset)]
#[diesel(table_name = games, treat_none_as_null = true)]
struct GameChanges<'a> {
    status: &'a str,
    version: i64,
    red_user_id: Option<&'a str>,
    blue_user_id: Option<&'a str>,
    red_setup: Option<&'a str>,
    blue_setup: Option<&'a str>,
    state: Option<&'a str>,
    turn: Option<&'a str>,
    ply: i32,
    draw_offer: Option<&'a str>,
    deadline: Option<NaiveDateTime>,
    result_winner: Option<&'a str>,
    result_reason: Option<&'a str>,
    updated_at: NaiveDateTime,
}

impl<'a> GameChanges<'a> {
    fn of(row: &'a GameRow) -> Self {
        GameChanges {
            status: &row.status,
            version: row.version,
            red_user_id: row.red_user_id.as_deref(),
            blue_user_id: row.blue_user_id.as_deref(),
            red_setup: row.red_setup.as_deref(),
            blue_setup: row.blue_setup.as_deref(),
            state: row.state.as_deref(),
            turn: row.turn.as_deref(),
            ply: row.ply,
            draw_offer: row.draw_offer.as_deref(),
            deadline: row.deadline,
            result_winner: row.result_winner.as_deref(),
            result_reason: row.result_reason.as_deref(),
            updated_at: row.updated_at,
        }
    }
}

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

/// What a versioned write requires of the stored game: still at `version`,
/// still keeping the usernames `names` it was decided from.
#[derive(Debug, Clone, Copy)]
pub struct Expected<'a> {
    pub version: i64,
    pub names: &'a NamesRead,
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
            #[derive(QueryableByName)]
            struct Saved {
                #[diesel(sql_type = diesel::sql_types::Integer)]
                written: i32,
            }
            let saved: Vec<Saved> = SaveOnPostgres::of(row, expected, action).load(pg)?;
            Ok(saved.iter().filter(|s| s.written == 1).count() == 1)
        }
        DbConnection::Sqlite(sqlite) => {
            let updated = SaveOnSqlite {
                changes: GameChanges::of(row).as_changeset(),
                id: &row.id,
                expected,
            }
            .execute(sqlite)?;
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

/// [`save`], [`events::record_all`](super::events::record_all) of
/// `events` and the answer under its idempotency key (`key`, whose game
/// and version are those of the update) in one statement, on PostgreSQL,
/// sent outside any transaction: the statement is a transaction of its
/// own, so the game's update, its action, its events and its key are
/// written all together or not at all, with one round trip and the
/// commit. `Ok(false)`: nothing was written, because someone else changed
/// the game first or took the key meanwhile (a concurrent request with the
/// same key). Not for SQLite, whose writes share the writer's
/// transactions (an error there).
pub fn save_with_events(
    conn: &mut DbConnection,
    row: &GameRow,
    expected: Expected<'_>,
    action: Option<&ActionRow>,
    events: &[NewEventRow<'_>],
    key: Option<&IdempotencyRow>,
    created_at: NaiveDateTime,
) -> QueryResult<bool> {
    let DbConnection::Postgresql(pg) = conn else {
        return Err(diesel::result::Error::QueryBuilderError(
            "a change in one statement is for PostgreSQL only".into(),
        ));
    };
    #[derive(QueryableByName)]
    struct Saved {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        written: i32,
    }
    let saved: Result<Saved, _> = SaveWithEventsOnPostgres {
        save: SaveOnPostgres::of(row, expected, action),
        events: PgEvents::of(events, created_at),
        key: KeyBinds::of(key),
    }
    .get_result(pg);
    match saved {
        Ok(saved) => Ok(saved.written == 1),
        // The key's primary key: the one unique value here another
        // request can take first (the action's and the events' numbers
        // follow the version and the counters).
        Err(diesel::result::Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info))
            if key.is_some() && info.constraint_name() == Some(KEY_TAKEN) =>
        {
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

/// [`save`] on PostgreSQL: the versioned update and the action row (only if
/// the update matched and there is an action) in one round trip, prepared
/// once per connection. One row back means written.
struct SaveOnPostgres<'a> {
    changes: <GameChanges<'a> as AsChangeset>::Changeset,
    id: &'a str,
    expected: Expected<'a>,
    color: Option<&'a str>,
    action: Option<&'a str>,
    record: Option<&'a str>,
}

prepared_statement!(SaveOnPostgres, by_name);

impl<'a> SaveOnPostgres<'a> {
    fn of(row: &'a GameRow, expected: Expected<'a>, action: Option<&'a ActionRow>) -> Self {
        SaveOnPostgres {
            changes: GameChanges::of(row).as_changeset(),
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
        // The same columns as on SQLite: `GameChanges`. Its
        // `treat_none_as_null` makes the text the same for every row, as a
        // statement prepared once by type needs.
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

impl QueryFragment<Pg> for SaveOnPostgres<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH ");
        self.walk_ctes(out.reborrow())?;
        out.push_sql(" SELECT 1 AS written FROM upd");
        Ok(())
    }
}

/// [`save_with_events`]'s one statement: [`SaveOnPostgres`], the events
/// and the answer under its idempotency key (if there is one), stored
/// only if the update matched; one row back, with how many games it
/// updated (0 or 1).
struct SaveWithEventsOnPostgres<'a> {
    save: SaveOnPostgres<'a>,
    events: PgEvents<'a>,
    key: KeyBinds<'a>,
}

/// The answer under an idempotency key, as [`SaveWithEventsOnPostgres`]
/// binds it (all `None` without a key).
#[derive(Default)]
struct KeyBinds<'a> {
    user_id: Option<&'a str>,
    idempotency_key: Option<&'a str>,
    fingerprint: Option<&'a str>,
    response_status: Option<i32>,
    response_body: Option<&'a str>,
}

impl<'a> KeyBinds<'a> {
    fn of(key: Option<&'a IdempotencyRow>) -> Self {
        key.map_or_else(KeyBinds::default, |key| KeyBinds {
            user_id: Some(&key.user_id),
            idempotency_key: Some(&key.idempotency_key),
            fingerprint: Some(&key.fingerprint),
            response_status: Some(key.response_status),
            response_body: Some(&key.response_body),
        })
    }
}

impl SaveWithEventsOnPostgres<'_> {
    /// The common table expression `kept`: the answer under its key, with
    /// the game and version of the update (without a key, nothing).
    fn walk_key<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        use diesel::sql_types::Integer;
        let key = &self.key;
        out.push_sql(
            "kept AS (INSERT INTO idempotency_keys (user_id, idempotency_key, fingerprint, \
             response_status, response_body, game_id, game_version, created_at) \
             SELECT k.user_id, k.idempotency_key, k.fingerprint, k.response_status, \
             k.response_body, upd.id, upd.version, upd.updated_at FROM upd, (SELECT ",
        );
        out.push_bind_param::<Nullable<Text>, _>(&key.user_id)?;
        out.push_sql("::text AS user_id, ");
        out.push_bind_param::<Nullable<Text>, _>(&key.idempotency_key)?;
        out.push_sql("::text AS idempotency_key, ");
        out.push_bind_param::<Nullable<Text>, _>(&key.fingerprint)?;
        out.push_sql("::text AS fingerprint, ");
        out.push_bind_param::<Nullable<Integer>, _>(&key.response_status)?;
        out.push_sql("::integer AS response_status, ");
        out.push_bind_param::<Nullable<Text>, _>(&key.response_body)?;
        out.push_sql(
            "::text AS response_body) AS k WHERE k.idempotency_key IS NOT NULL RETURNING 1)",
        );
        Ok(())
    }
}

prepared_statement!(SaveWithEventsOnPostgres, by_name);

impl QueryFragment<Pg> for SaveWithEventsOnPostgres<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH ");
        self.save.walk_ctes(out.reborrow())?;
        out.push_sql(", ");
        self.events
            .walk_ctes(out.reborrow(), " WHERE EXISTS (SELECT 1 FROM upd)")?;
        out.push_sql(", ");
        self.walk_key(out.reborrow())?;
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
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        out.push_sql("UPDATE games SET ");
        self.changes.walk_ast(out.reborrow())?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<Text, _>(&self.id)?;
        out.push_sql(" AND version = ");
        out.push_bind_param::<BigInt, _>(&self.expected.version)?;
        walk_names_read(self.expected.names, " IS ", out)
    }
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

/// The action log of one game, in order.
pub fn actions(conn: &mut DbConnection, game_id: &str) -> QueryResult<Vec<ActionRow>> {
    game_actions::table
        .filter(game_actions::game_id.eq(game_id))
        .order(game_actions::seq.asc())
        .select(ActionRow::as_select())
        .load(conn)
}

/// Ids of games in `setup` or `playing` whose deadline is not after `now`,
/// earliest first.
pub fn overdue(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<String>> {
    // By `game_deadlines`, which orders the deadlines (migrations,
    // `hot_moves`); `games` has no index on its own `deadline`.
    game_deadlines::table
        .inner_join(games::table)
        .filter(games::status.eq_any(Status::CLOCKED))
        .filter(game_deadlines::deadline.le(now))
        .order((
            game_deadlines::deadline.asc(),
            game_deadlines::game_id.asc(),
        ))
        .limit(limit)
        .select(games::id)
        .load(conn)
}

/// The games that name `user_id`: as creator, player or challenged user.
#[diesel::dsl::auto_type]
fn names_user<'a>(user_id: &'a str) -> _ {
    games::creator_id
        .eq(user_id)
        .or(games::red_user_id.eq(user_id))
        .or(games::blue_user_id.eq(user_id))
        .or(games::challenged_user_id.eq(user_id))
}

/// Ids of the games not yet over that involve `user_id` (as creator,
/// player or challenged user), oldest first.
pub fn not_over_of_user(conn: &mut DbConnection, user_id: &str) -> QueryResult<Vec<String>> {
    games::table
        .filter(games::status.eq_any(Status::NOT_OVER))
        .filter(names_user(user_id))
        .order((games::created_at.asc(), games::id.asc()))
        .select(games::id)
        .load(conn)
}

/// Locks every game that names `user_id` (as creator, player or challenged
/// user), in id order, until the end of the transaction: an account's
/// deletion does so before it renames the user, so that it takes game rows
/// before the user's row, as a game write does (the triggers of migration
/// `2026-12-02-000100_names_with_games`; docs/storage.md, "Usernames kept
/// with the game"). Nothing to do on SQLite, where one write runs at a time.
pub fn lock_all_of_user(conn: &mut DbConnection, user_id: &str) -> QueryResult<()> {
    let DbConnection::Postgresql(pg) = conn else {
        return Ok(());
    };
    games::table
        .filter(names_user(user_id))
        .order(games::id.asc())
        .select(games::id)
        .for_no_key_update()
        .load::<String>(pg)
        .map(|_| ())
}

/// Up to `limit` `(game id, user id)` pairs of games not yet over and a
/// deleted account they involve (left by a deletion that was interrupted),
/// oldest first.
pub fn not_over_with_deleted_user(
    conn: &mut DbConnection,
    limit: i64,
) -> QueryResult<Vec<(String, String)>> {
    games::table
        .inner_join(
            users::table.on(games::creator_id
                .eq(users::id)
                .or(games::red_user_id.eq(users::id.nullable()))
                .or(games::blue_user_id.eq(users::id.nullable()))
                .or(games::challenged_user_id.eq(users::id.nullable()))),
        )
        .filter(users::deleted_at.is_not_null())
        .filter(games::status.eq_any(Status::NOT_OVER))
        .order((games::created_at.asc(), games::id.asc()))
        .limit(limit)
        .select((games::id, users::id))
        .load(conn)
}

/// `(user id, username)` pairs.
pub type UserNames = Vec<(String, String)>;

/// Game `id` with the usernames it mentions (creator, players, challenged
/// user), in one statement, prepared once per connection.
pub fn find_with_names(
    conn: &mut DbConnection,
    id: &str,
) -> QueryResult<Option<(GameRow, UserNames)>> {
    let query = GameWithNames::of(id);
    let found: Option<FoundWithNames> = match conn {
        DbConnection::Postgresql(pg) => query.get_result(pg).optional()?,
        DbConnection::Sqlite(sqlite) => query.get_result(sqlite).optional()?,
    };
    Ok(found.map(with_names))
}

/// [`find_with_names`] on an HTTP worker's own PostgreSQL connection
/// (`db::DbPool::read_async`): the same statement.
pub async fn find_with_names_async(
    conn: &mut diesel_async::AsyncPgConnection,
    id: &str,
) -> QueryResult<Option<(GameRow, UserNames)>> {
    let found: Option<FoundWithNames> =
        diesel_async::RunQueryDsl::get_result(GameWithNames::of(id), conn)
            .await
            .optional()?;
    Ok(found.map(with_names))
}

/// A row of [`GameWithNames`]: the game, then the usernames of its
/// creator, red and blue players and challenged user.
type FoundWithNames = (
    GameRow,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

fn with_names(found: FoundWithNames) -> (GameRow, UserNames) {
    let (row, creator_name, red_name, blue_name, challenged_name) = found;
    let mut names = Vec::with_capacity(4);
    for (user, name) in [
        (Some(&row.creator_id), creator_name),
        (row.red_user_id.as_ref(), red_name),
        (row.blue_user_id.as_ref(), blue_name),
        (row.challenged_user_id.as_ref(), challenged_name),
    ] {
        if let (Some(user), Some(name)) = (user, name) {
            names.push((user.clone(), name));
        }
    }
    (row, names)
}

/// [`find_with_names`]'s statement: the game's columns of [`GameRow`], then
/// the usernames it keeps of its creator, red and blue players and
/// challenged user (kept by the database: docs/storage.md, "Usernames kept
/// with the game"). One row of one table, no join.
struct GameWithNames<'a> {
    id: &'a str,
    columns: GameColumns,
}

prepared_statement!(GameWithNames);

impl<'a> GameWithNames<'a> {
    fn of(id: &'a str) -> Self {
        GameWithNames {
            id,
            columns: <GameRow as Selectable<Pg>>::construct_selection(),
        }
    }
}

/// The columns of [`GameRow`] (every column of `games` but the generated
/// `finished_at` and the kept usernames), the same on both backends.
type GameColumns = <GameRow as Selectable<Pg>>::SelectExpression;

impl Query for GameWithNames<'_> {
    type SqlType = (
        <GameColumns as Expression>::SqlType,
        Nullable<Text>,
        Nullable<Text>,
        Nullable<Text>,
        Nullable<Text>,
    );
}

impl<DB> QueryFragment<DB> for GameWithNames<'_>
where
    DB: ColumnsOnce,
    str: ToSql<Text, DB>,
    GameColumns: QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("SELECT ");
        // Every read of a game runs this (diesel-async builds the SQL of a
        // prepared statement each time to look it up): the column list,
        // which binds nothing, is built once per backend.
        match DB::game_columns() {
            Some(columns) => out.push_sql(columns),
            None => self.columns.walk_ast(out.reborrow())?,
        }
        out.push_sql(
            ", games.creator_name, games.red_name, games.blue_name, games.challenged_name \
             FROM games WHERE games.id = ",
        );
        out.push_bind_param::<Text, str>(self.id)
    }
}

/// A backend for which [`GameColumns`] is written once, as diesel writes it.
trait ColumnsOnce: Backend {
    /// The SQL of [`GameColumns`]; `None` if diesel could not write it.
    fn game_columns() -> Option<&'static str>;
}

/// The SQL diesel writes for [`GameColumns`] on `DB`.
fn columns_sql<DB>() -> Option<String>
where
    DB: Backend + Default,
    DB::QueryBuilder: Default,
    GameColumns: QueryFragment<DB>,
{
    let mut builder = DB::QueryBuilder::default();
    let columns = <GameRow as Selectable<Pg>>::construct_selection();
    columns.to_sql(&mut builder, &DB::default()).ok()?;
    Some(diesel::query_builder::QueryBuilder::finish(builder))
}

impl ColumnsOnce for Pg {
    fn game_columns() -> Option<&'static str> {
        static SQL: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        SQL.get_or_init(columns_sql::<Pg>).as_deref()
    }
}

impl ColumnsOnce for Sqlite {
    fn game_columns() -> Option<&'static str> {
        static SQL: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        SQL.get_or_init(columns_sql::<Sqlite>).as_deref()
    }
}

/// `(id, username)` of the given users.
pub fn usernames(conn: &mut DbConnection, ids: &[String]) -> QueryResult<Vec<(String, String)>> {
    users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::username))
        .load(conn)
}

/// Which ordering a page of games follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListOrder {
    /// Newest first: `created_at DESC, id DESC`.
    Newest,
    /// Nearest deadline first: `deadline ASC, id ASC` (games with a deadline).
    Deadline,
}

/// Filters of `GET /games`.
#[derive(Debug, Clone)]
pub struct ListFilter {
    pub status: Option<Status>,
    /// Only games where this user is a player, the creator or challenged.
    pub mine: Option<String>,
    /// Only games where this user must act: their move, or their setup.
    pub my_turn: Option<String>,
    pub order: ListOrder,
    /// Keyset position: the sort time and id of the last game already seen.
    pub after: Option<(NaiveDateTime, String)>,
    pub limit: i64,
}

pub fn list(conn: &mut DbConnection, filter: &ListFilter) -> QueryResult<Vec<GameRow>> {
    // Every game with a deadline has its row in `game_deadlines`, which
    // orders them; joined only for that order.
    let mut query = games::table
        .left_join(game_deadlines::table)
        .select(GameRow::as_select())
        .into_boxed();
    if let Some(status) = &filter.status {
        query = query.filter(games::status.eq(status.as_str()));
    }
    if let Some(user) = &filter.mine {
        query = query.filter(
            games::red_user_id
                .eq(user.clone())
                .or(games::blue_user_id.eq(user.clone()))
                .or(games::creator_id.eq(user.clone()))
                .or(games::challenged_user_id.eq(user.clone())),
        );
    }
    if let Some(user) = &filter.my_turn {
        let red_to_move = games::turn
            .eq(domain::Color::Red.name())
            .and(games::red_user_id.eq(user.clone()));
        let blue_to_move = games::turn
            .eq(domain::Color::Blue.name())
            .and(games::blue_user_id.eq(user.clone()));
        let playing = games::status
            .eq(Status::Playing.as_str())
            .and(red_to_move.or(blue_to_move));
        let red_setup_missing = games::red_user_id
            .eq(user.clone())
            .and(games::red_setup.is_null());
        let blue_setup_missing = games::blue_user_id
            .eq(user.clone())
            .and(games::blue_setup.is_null());
        let setup = games::status
            .eq(Status::Setup.as_str())
            .and(red_setup_missing.or(blue_setup_missing));
        query = query.filter(playing.or(setup));
    }
    match filter.order {
        ListOrder::Newest => {
            if let Some((time, id)) = &filter.after {
                query = query.filter(
                    games::created_at
                        .lt(*time)
                        .or(games::created_at.eq(*time).and(games::id.lt(id.clone()))),
                );
            }
            query = query.order((games::created_at.desc(), games::id.desc()));
        }
        ListOrder::Deadline => {
            query = query.filter(game_deadlines::deadline.is_not_null());
            if let Some((time, id)) = &filter.after {
                query = query.filter(
                    game_deadlines::deadline
                        .gt(*time)
                        .or(game_deadlines::deadline
                            .eq(*time)
                            .and(game_deadlines::game_id.gt(id.clone()))),
                );
            }
            query = query.order((
                game_deadlines::deadline.asc(),
                game_deadlines::game_id.asc(),
            ));
        }
    }
    query.limit(filter.limit).load(conn)
}

/// The rematch offered after game `game_id`, if any.
pub fn rematch_of(conn: &mut DbConnection, game_id: &str) -> QueryResult<Option<String>> {
    rematches::table
        .find(game_id)
        .select(rematches::rematch_id)
        .get_result(conn)
        .optional()
}

/// Records `rematch_id` as the rematch of `game_id`; `Ok(false)` if that
/// game has one already (a concurrent offer won).
pub fn insert_rematch(
    conn: &mut DbConnection,
    game_id: &str,
    rematch_id: &str,
    offered_by: &str,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    use diesel::result::{DatabaseErrorKind, Error};
    let inserted = diesel::insert_into(rematches::table)
        .values((
            rematches::game_id.eq(game_id),
            rematches::rematch_id.eq(rematch_id),
            rematches::offered_by.eq(offered_by),
            rematches::created_at.eq(now),
        ))
        .execute(conn);
    match inserted {
        Ok(_) => Ok(true),
        Err(Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(false),
        Err(other) => Err(other),
    }
}
