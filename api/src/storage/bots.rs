//! What the bots have to do, and the claim that gives each of their
//! answers to one server process (`games::bot_worker`, docs/bots.md).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error};

use super::games::status;
use crate::db::DbConnection;
use crate::schema::{bot_claims, games};

/// Games in which `bot` has something to do, longest waiting first: a
/// challenge to accept, a setup to place, a move to make or a draw offer
/// to answer.
pub fn pending(conn: &mut DbConnection, bot: &str, limit: i64) -> QueryResult<Vec<String>> {
    let playing = games::status.eq(status::PLAYING);
    let as_red = games::red_user_id.eq(bot);
    let as_blue = games::blue_user_id.eq(bot);
    games::table
        .filter(
            games::status
                .eq(status::WAITING)
                .and(games::challenged_user_id.eq(bot))
                .or(games::status.eq(status::SETUP).and(
                    as_red
                        .and(games::red_setup.is_null())
                        .or(as_blue.and(games::blue_setup.is_null())),
                ))
                .or(playing.and(
                    as_red
                        .and(games::turn.eq("red").or(games::draw_offer.eq("blue")))
                        .or(as_blue.and(games::turn.eq("blue").or(games::draw_offer.eq("red")))),
                )),
        )
        .order(games::updated_at.asc())
        .select(games::id)
        .limit(limit)
        .load(conn)
}

/// Claims the answer to `game` at `version` until `until`. `false`: another
/// process holds an unexpired claim on this version (or a newer one).
/// Two statements outside any transaction: the conditional update takes
/// over an older or expired claim (PostgreSQL re-checks its `WHERE` after
/// waiting for a concurrent claimer), the insert makes the first one, and
/// of two concurrent inserts the primary key lets one through.
pub fn claim(
    conn: &mut DbConnection,
    game: &str,
    version: i64,
    now: NaiveDateTime,
    until: NaiveDateTime,
) -> QueryResult<bool> {
    let taken_over = diesel::update(
        bot_claims::table
            .filter(bot_claims::game_id.eq(game))
            .filter(
                bot_claims::version
                    .lt(version)
                    .or(bot_claims::claimed_until.lt(now)),
            ),
    )
    .set((
        bot_claims::version.eq(version),
        bot_claims::claimed_until.eq(until),
    ))
    .execute(conn)?;
    if taken_over == 1 {
        return Ok(true);
    }
    let inserted = diesel::insert_into(bot_claims::table)
        .values((
            bot_claims::game_id.eq(game),
            bot_claims::version.eq(version),
            bot_claims::claimed_until.eq(until),
        ))
        .execute(conn);
    match inserted {
        Ok(rows) => Ok(rows == 1),
        Err(Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(false),
        Err(error) => Err(error),
    }
}

/// Gives up the claim on `game` at `version` (after a failure, so that the
/// next pass may try again at once).
pub fn release(conn: &mut DbConnection, game: &str, version: i64) -> QueryResult<()> {
    diesel::delete(
        bot_claims::table
            .filter(bot_claims::game_id.eq(game))
            .filter(bot_claims::version.eq(version)),
    )
    .execute(conn)
    .map(|_| ())
}
