//! The read of a game with the usernames it keeps of its creator,
//! players and challenged user: one statement of one table, prepared
//! once per connection, the same on both backends; on an HTTP worker's own
//! connection the same columns for one game or several at once.

use diesel::backend::Backend;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment};
use diesel::serialize::ToSql;
use diesel::sql_types::{Array, Nullable, Text};
use diesel::sqlite::Sqlite;

use super::GameRow;
use crate::db::DbConnection;
use crate::storage::prepared::prepared_statement;

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

/// Games `ids` with the usernames each mentions, each with its id, in one
/// statement (games not found are left out), on an HTTP worker's own
/// PostgreSQL connection (`db::DbPool::read_by_key`): [`find_with_names`]'s
/// statement for several games at once, prepared once per connection.
pub async fn find_many_with_names_async<'c>(
    conn: &'c mut diesel_async::AsyncPgConnection,
    ids: &'c [String],
) -> QueryResult<Vec<(String, (GameRow, UserNames))>> {
    let found: Vec<FoundWithNames> =
        diesel_async::RunQueryDsl::load(GamesWithNames::of(ids), conn).await?;
    Ok(found
        .into_iter()
        .map(|found| (found.0.id.clone(), with_names(found)))
        .collect())
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

/// The columns of [`GameRow`] (every column of `games` but `finished_at`
/// and the kept usernames), the same on both backends.
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
        select_with_names(&self.columns, out.reborrow())?;
        out.push_sql(" WHERE games.id = ");
        out.push_bind_param::<Text, str>(self.id)
    }
}

/// Writes `SELECT` [`GameColumns`] and the kept usernames `FROM games`.
fn select_with_names<'b, DB>(
    columns: &'b GameColumns,
    mut out: AstPass<'_, 'b, DB>,
) -> QueryResult<()>
where
    DB: ColumnsOnce,
    GameColumns: QueryFragment<DB>,
{
    out.push_sql("SELECT ");
    // Every read of a game runs this (diesel-async builds the SQL of a
    // prepared statement each time to look it up): the column list, which
    // binds nothing, is built once per backend.
    match DB::game_columns() {
        Some(columns) => out.push_sql(columns),
        None => columns.walk_ast(out.reborrow())?,
    }
    out.push_sql(
        ", games.creator_name, games.red_name, games.blue_name, games.challenged_name \
         FROM games",
    );
    Ok(())
}

/// [`find_many_with_names_async`]'s statement: [`GameWithNames`] for every
/// game whose id is in `ids` (one parameter, an array, so one prepared
/// statement serves any number of games).
struct GamesWithNames<'a> {
    ids: &'a [String],
    columns: GameColumns,
}

prepared_statement!(GamesWithNames);

impl<'a> GamesWithNames<'a> {
    fn of(ids: &'a [String]) -> Self {
        GamesWithNames {
            ids,
            columns: <GameRow as Selectable<Pg>>::construct_selection(),
        }
    }
}

impl Query for GamesWithNames<'_> {
    type SqlType = <GameWithNames<'static> as Query>::SqlType;
}

impl QueryFragment<Pg> for GamesWithNames<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        select_with_names(&self.columns, out.reborrow())?;
        out.push_sql(" WHERE games.id = ANY(");
        out.push_bind_param::<Array<Text>, [String]>(self.ids)?;
        out.push_sql(")");
        Ok(())
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
