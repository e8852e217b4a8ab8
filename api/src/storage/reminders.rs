//! The reminder columns of the `games` table: which games may need a
//! `deadline_soon` reminder, and the claim that makes each one go out
//! once (see `games::reminders`).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::games::status;
use crate::db::DbConnection;
use crate::schema::{game_deadlines, games};

/// One game whose reminder has not been sent (for its current version in
/// play; at all in setup).
#[derive(Debug, Clone, Queryable)]
pub struct Candidate {
    pub id: String,
    pub status: String,
    pub version: i64,
    pub turn: Option<String>,
    pub red_user_id: Option<String>,
    pub blue_user_id: Option<String>,
    pub red_setup_missing: bool,
    pub blue_setup_missing: bool,
    pub deadline: Option<NaiveDateTime>,
    pub days_per_move: i32,
}

/// Games in play or setup whose reminder is unsent and whose deadline is
/// after `now` and not after `horizon`.
pub fn unsent(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    horizon: NaiveDateTime,
) -> QueryResult<Vec<Candidate>> {
    // Through `game_deadlines`, which orders the deadlines.
    game_deadlines::table
        .inner_join(games::table)
        .filter(game_deadlines::deadline.gt(now))
        .filter(game_deadlines::deadline.le(horizon))
        .filter(
            games::status
                .eq(status::PLAYING)
                .and(
                    games::reminded_version
                        .is_null()
                        .or(games::reminded_version.ne(games::version.nullable())),
                )
                .or(games::status
                    .eq(status::SETUP)
                    .and(games::reminded_version.is_null())),
        )
        .select((
            games::id,
            games::status,
            games::version,
            games::turn,
            games::red_user_id,
            games::blue_user_id,
            games::red_setup.is_null(),
            games::blue_setup.is_null(),
            games::deadline,
            games::days_per_move,
        ))
        .load(conn)
}

/// Claims the reminder of `game` at the version read: once per setup
/// phase, once per version in play. `false`: someone else claimed it, or
/// the game changed since.
pub fn claim(conn: &mut DbConnection, game: &Candidate) -> QueryResult<bool> {
    let target = games::table
        .filter(games::id.eq(&game.id))
        .filter(games::version.eq(game.version));
    let claimed = if game.status == status::SETUP {
        diesel::update(
            target
                .filter(games::status.eq(status::SETUP))
                .filter(games::reminded_version.is_null()),
        )
        .set(games::reminded_version.eq(Some(game.version)))
        .execute(conn)?
    } else {
        diesel::update(
            target.filter(
                games::reminded_version
                    .is_null()
                    .or(games::reminded_version.ne(game.version)),
            ),
        )
        .set(games::reminded_version.eq(Some(game.version)))
        .execute(conn)?
    };
    Ok(claimed > 0)
}
