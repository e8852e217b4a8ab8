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
use crate::schema::{games, rating_history, ratings, users};
use crate::storage::games::{status, GameRow};

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
                .get_result(pg)
        }
        DbConnection::Sqlite(sqlite) => {
            insert.execute(sqlite)?;
            of_user.select(RatingRow::as_select()).get_result(sqlite)
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

/// One line of the leaderboard: a rating and the player's name.
pub type LeaderRow = (RatingRow, String);

/// A page of `variant`'s leaderboard: ratings of live accounts with a
/// deviation below `max_deviation` and a rated game since `active_since`,
/// best first (`rating DESC, user_id ASC`), after `after` (the rating and
/// user id of the last line already seen).
pub fn leaderboard(
    conn: &mut DbConnection,
    variant: &str,
    max_deviation: f64,
    active_since: NaiveDateTime,
    after: Option<(f64, String)>,
    limit: i64,
) -> QueryResult<Vec<LeaderRow>> {
    let mut query = ratings::table
        .inner_join(users::table)
        .filter(ratings::variant.eq(variant))
        .filter(ratings::deviation.lt(max_deviation))
        .filter(ratings::last_game_at.ge(active_since))
        .filter(users::deleted_at.is_null())
        .select((RatingRow::as_select(), users::username))
        .into_boxed();
    if let Some((rating, user)) = after {
        // `rating <= ?` alone is what an index range can start from; the
        // rest picks out the lines after the last one seen.
        query = query
            .filter(ratings::rating.le(rating))
            .filter(ratings::rating.lt(rating).or(ratings::user_id.gt(user)));
    }
    query
        .order((ratings::rating.desc(), ratings::user_id.asc()))
        .limit(limit)
        .load(conn)
}

/// Every rating of `user_id`, one per variant played.
pub fn of_user(conn: &mut DbConnection, user_id: &str) -> QueryResult<Vec<RatingRow>> {
    ratings::table
        .filter(ratings::user_id.eq(user_id))
        .order(ratings::variant.asc())
        .select(RatingRow::as_select())
        .load(conn)
}

/// A page of `user_id`'s rating history, oldest first: in `variant` (or
/// every variant), after the point `(variant, number)` already seen.
pub fn history(
    conn: &mut DbConnection,
    user_id: &str,
    variant: Option<&str>,
    after: Option<(String, i32)>,
    limit: i64,
) -> QueryResult<Vec<HistoryRow>> {
    let mut query = rating_history::table
        .filter(rating_history::user_id.eq(user_id))
        .select(HistoryRow::as_select())
        .into_boxed();
    if let Some(variant) = variant {
        query = query.filter(rating_history::variant.eq(variant.to_owned()));
    }
    if let Some((variant, number)) = after {
        // As in `leaderboard`: a bound an index range can start from first.
        query = query
            .filter(rating_history::variant.ge(variant.clone()))
            .filter(
                rating_history::variant
                    .gt(variant)
                    .or(rating_history::number.gt(number)),
            );
    }
    query
        .order((rating_history::variant.asc(), rating_history::number.asc()))
        .limit(limit)
        .load(conn)
}

/// Ids of `user_id`'s finished games, newest end first
/// (`finished_at DESC, id DESC`), after `after` (the end time and id of
/// the last game already seen). Each side is read backwards from its own
/// partial index, `(red_user_id | blue_user_id, finished_at, id) WHERE
/// finished_at IS NOT NULL`, so the cost follows the page, not the
/// player's games. `finished_at` is the `updated_at` of a finished game,
/// null before (docs/storage.md, "Indexes and HOT moves").
pub fn finished_of_user(
    conn: &mut DbConnection,
    user_id: &str,
    after: Option<(NaiveDateTime, String)>,
    limit: i64,
) -> QueryResult<Vec<String>> {
    let mut sides = Vec::new();
    for red in [true, false] {
        let mut query = games::table
            .filter(games::finished_at.is_not_null())
            .select((games::updated_at, games::id))
            .into_boxed();
        query = if red {
            query.filter(games::red_user_id.eq(user_id.to_owned()))
        } else {
            query.filter(games::blue_user_id.eq(user_id.to_owned()))
        };
        if let Some((time, id)) = &after {
            query = query
                .filter(games::finished_at.le(*time))
                .filter(games::finished_at.lt(*time).or(games::id.lt(id.clone())));
        }
        let rows: Vec<(NaiveDateTime, String)> = query
            .order((games::finished_at.desc(), games::id.desc()))
            .limit(limit)
            .load(conn)?;
        sides.extend(rows);
    }
    sides.sort_by(|a, b| b.cmp(a));
    sides.dedup();
    Ok(sides
        .into_iter()
        .take(usize::try_from(limit).unwrap_or(usize::MAX))
        .map(|(_, id)| id)
        .collect())
}

/// Up to `limit` games not yet over in which `user_id` holds a seat,
/// newest first.
pub fn current_of_user(
    conn: &mut DbConnection,
    user_id: &str,
    limit: i64,
) -> QueryResult<Vec<GameRow>> {
    let not_over = [status::WAITING, status::SETUP, status::PLAYING];
    games::table
        .filter(games::status.eq_any(not_over))
        .filter(
            games::red_user_id
                .eq(user_id)
                .or(games::blue_user_id.eq(user_id)),
        )
        .order((games::created_at.desc(), games::id.desc()))
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)
}

/// The games with these ids (in no particular order).
pub fn games_by_id(conn: &mut DbConnection, ids: &[String]) -> QueryResult<Vec<GameRow>> {
    games::table
        .filter(games::id.eq_any(ids))
        .select(GameRow::as_select())
        .load(conn)
}
