//! The `games` and `game_actions` tables.
//!
//! A game is one row holding its current state; every change rewrites the
//! row with a versioned `UPDATE ... WHERE id = ? AND version = ?` (zero rows
//! updated: someone else changed the game first). Actions applied in play are
//! appended to `game_actions` in the same transaction.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::DbConnection;
use crate::schema::{game_actions, games, users};

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
        .filter(games::status.eq_any(Status::CLOCKED))
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
        .filter(games::status.eq_any(Status::CLOCKED))
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
    let mut query = games::table.select(GameRow::as_select()).into_boxed();
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
