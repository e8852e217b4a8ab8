//! The `games`, `game_actions` and `idempotency_keys` tables.
//!
//! A game is one row holding its current state; every change rewrites the
//! row with a versioned `UPDATE ... WHERE id = ? AND version = ?` (zero rows
//! updated: someone else changed the game first). Actions applied in play are
//! appended to `game_actions` in the same transaction.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use crate::db::DbConnection;
use crate::schema::{game_actions, games, idempotency_keys, users};

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
    pub deadline: Option<NaiveDateTime>,
    /// Written only by the deadline reminder (events); a game write never
    /// overwrites it.
    #[diesel(skip_update)]
    pub reminded_version: Option<i64>,
    pub result_winner: Option<String>,
    pub result_reason: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
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

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotency_keys)]
pub struct IdempotencyRow {
    pub user_id: String,
    pub idempotency_key: String,
    pub fingerprint: String,
    pub response_status: i32,
    pub response_body: String,
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
        .first(conn)
        .optional()
}

/// Writes `row` (whose `version` is already the new one) if the stored
/// version is still `expected`. `Ok(false)`: someone else changed the game.
pub fn update_versioned(
    conn: &mut DbConnection,
    row: &GameRow,
    expected: i64,
) -> QueryResult<bool> {
    let updated = diesel::update(
        games::table
            .filter(games::id.eq(&row.id))
            .filter(games::version.eq(expected)),
    )
    .set(row)
    .execute(conn)?;
    Ok(updated == 1)
}

pub fn insert_action(conn: &mut DbConnection, row: &ActionRow) -> QueryResult<()> {
    diesel::insert_into(game_actions::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
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
    games::table
        .filter(games::status.eq_any(["setup", "playing"]))
        .filter(games::deadline.le(now))
        .order((games::deadline.asc(), games::id.asc()))
        .limit(limit)
        .select(games::id)
        .load(conn)
}

/// Whether game `id` is overdue by the same test as [`overdue`], without
/// loading (and decoding) its state.
pub fn is_overdue(conn: &mut DbConnection, id: &str, now: NaiveDateTime) -> QueryResult<bool> {
    let found: Option<String> = games::table
        .filter(games::id.eq(id))
        .filter(games::status.eq_any(["setup", "playing"]))
        .filter(games::deadline.le(now))
        .select(games::id)
        .first(conn)
        .optional()?;
    Ok(found.is_some())
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
    pub status: Option<String>,
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
    let mut query = games::table.select(GameRow::as_select()).into_boxed();
    if let Some(status) = &filter.status {
        query = query.filter(games::status.eq(status.clone()));
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
            .eq("red")
            .and(games::red_user_id.eq(user.clone()));
        let blue_to_move = games::turn
            .eq("blue")
            .and(games::blue_user_id.eq(user.clone()));
        let playing = games::status
            .eq("playing")
            .and(red_to_move.or(blue_to_move));
        let red_setup_missing = games::red_user_id
            .eq(user.clone())
            .and(games::red_setup.is_null());
        let blue_setup_missing = games::blue_user_id
            .eq(user.clone())
            .and(games::blue_setup.is_null());
        let setup = games::status
            .eq("setup")
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
            query = query.filter(games::deadline.is_not_null());
            if let Some((time, id)) = &filter.after {
                query = query.filter(
                    games::deadline
                        .gt(*time)
                        .or(games::deadline.eq(*time).and(games::id.gt(id.clone()))),
                );
            }
            query = query.order((games::deadline.asc(), games::id.asc()));
        }
    }
    query.limit(filter.limit).load(conn)
}

pub fn find_idempotency(
    conn: &mut DbConnection,
    user_id: &str,
    key: &str,
) -> QueryResult<Option<IdempotencyRow>> {
    idempotency_keys::table
        .find((user_id, key))
        .select(IdempotencyRow::as_select())
        .first(conn)
        .optional()
}

/// Stores an answer; `Ok(false)` if the key is already taken (a concurrent
/// request with the same key got there first).
pub fn insert_idempotency(conn: &mut DbConnection, row: &IdempotencyRow) -> QueryResult<bool> {
    match diesel::insert_into(idempotency_keys::table)
        .values(row)
        .execute(conn)
    {
        Ok(_) => Ok(true),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(false),
        Err(other) => Err(other),
    }
}

/// Forgets one user's key (an expired one, before it is reused).
pub fn delete_idempotency(conn: &mut DbConnection, user_id: &str, key: &str) -> QueryResult<()> {
    diesel::delete(idempotency_keys::table.find((user_id, key)))
        .execute(conn)
        .map(|_| ())
}

/// Forgets every key stored before `before`; returns how many.
pub fn purge_idempotency(conn: &mut DbConnection, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(idempotency_keys::table.filter(idempotency_keys::created_at.lt(before)))
        .execute(conn)
}
