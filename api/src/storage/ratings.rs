//! The `ratings` and `rating_history` tables (docs/ratings.md).
//!
//! A rated game's end writes both players' rows in the transaction that
//! ends it. The rows of one game are locked in the order of the user ids
//! (PostgreSQL: `SELECT ... FOR UPDATE`; SQLite: every writer holds the
//! database's write lock), so two games ending at once with a player in
//! common are rated one after the other, and two games sharing two players
//! cannot deadlock.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::schema::{rating_history, ratings};

#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = ratings)]
pub struct RatingRow {
    pub user_id: String,
    pub variant: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i32,
    pub wins: i32,
    pub losses: i32,
    pub draws: i32,
    pub last_game_at: NaiveDateTime,
}

#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = rating_history)]
pub struct HistoryRow {
    pub user_id: String,
    pub game_id: String,
    pub variant: String,
    /// The player's rated games in the variant, this one included.
    pub number: i32,
    pub rated_at: NaiveDateTime,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// Whether game `game_id` has been rated already.
pub fn is_rated(conn: &mut DbConnection, game_id: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        rating_history::table.filter(rating_history::game_id.eq(game_id)),
    ))
    .get_result(conn)
}

/// The rating row of `user_id` in `variant`, locked until the transaction
/// ends; `fresh` is stored first if there is none.
pub fn lock(conn: &mut DbConnection, fresh: &RatingRow) -> QueryResult<RatingRow> {
    let insert = diesel::insert_into(ratings::table)
        .values(fresh)
        .on_conflict((ratings::user_id, ratings::variant))
        .do_nothing();
    let of_user = ratings::table
        .filter(ratings::user_id.eq(&fresh.user_id))
        .filter(ratings::variant.eq(&fresh.variant));
    match conn {
        DbConnection::Postgresql(pg) => {
            insert.execute(pg)?;
            of_user
                .select(RatingRow::as_select())
                .for_update()
                .first(pg)
        }
        DbConnection::Sqlite(sqlite) => {
            insert.execute(sqlite)?;
            of_user.select(RatingRow::as_select()).first(sqlite)
        }
    }
}

/// Stores a player's new rating and its history point.
pub fn write(conn: &mut DbConnection, row: &RatingRow, point: &HistoryRow) -> QueryResult<()> {
    diesel::update(
        ratings::table
            .filter(ratings::user_id.eq(&row.user_id))
            .filter(ratings::variant.eq(&row.variant)),
    )
    .set(row)
    .execute(conn)?;
    diesel::insert_into(rating_history::table)
        .values(point)
        .execute(conn)?;
    Ok(())
}
