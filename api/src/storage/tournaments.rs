//! The `tournaments`, `tournament_players` and `tournament_byes` tables,
//! and the games of a tournament (docs/tournaments.md).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::games::status as game_status;
use crate::db::DbConnection;
use crate::schema::{games, ratings, tournament_byes, tournament_players, tournaments, users};

/// A tournament's status, as stored.
pub mod status {
    pub const OPEN: &str = "open";
    pub const RUNNING: &str = "running";
    pub const FINISHED: &str = "finished";
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = tournaments, treat_none_as_null = true)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    pub organiser_id: String,
    pub system: String,
    pub variant: String,
    pub rules: String,
    pub time_control: String,
    pub rated: bool,
    pub rounds: Option<i32>,
    pub double_round: bool,
    pub max_players: Option<i32>,
    pub bye_points: i32,
    pub starts_at: Option<NaiveDateTime>,
    pub status: String,
    pub current_round: i32,
    /// +1 with every write.
    pub version: i64,
    pub created_at: NaiveDateTime,
    pub started_at: Option<NaiveDateTime>,
    pub finished_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournament_players)]
pub struct PlayerRow {
    pub tournament_id: String,
    pub user_id: String,
    pub joined_at: NaiveDateTime,
    pub seat: Option<i32>,
    pub rating: Option<i32>,
    pub withdrawn_at: Option<NaiveDateTime>,
}

/// A player with their username (as it is now).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedPlayer {
    pub row: PlayerRow,
    pub username: String,
    /// When their account was deleted, if it was.
    pub deleted_at: Option<NaiveDateTime>,
}

/// A game of a tournament, as the standings need it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct TournamentGame {
    pub id: String,
    pub round: Option<i32>,
    pub red_user_id: Option<String>,
    pub blue_user_id: Option<String>,
    pub status: String,
    pub result_winner: Option<String>,
    pub result_reason: Option<String>,
    /// Whether each setup was in (an aborted game: whose was missing).
    pub red_set_up: bool,
    pub blue_set_up: bool,
    /// When it last changed (an aborted game: when it was aborted).
    pub updated_at: NaiveDateTime,
}

pub fn insert(conn: &mut DbConnection, row: &TournamentRow) -> QueryResult<()> {
    diesel::insert_into(tournaments::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

pub fn find(conn: &mut DbConnection, id: &str) -> QueryResult<Option<TournamentRow>> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .get_result(conn)
        .optional()
}

/// Writes `row` (whose `version` is the new one) if the stored row is
/// still at the version before it. `false`: another write came first
/// (on PostgreSQL, after waiting for it), and nothing was written.
pub fn save(conn: &mut DbConnection, row: &TournamentRow) -> QueryResult<bool> {
    let written = diesel::update(
        tournaments::table
            .find(&row.id)
            .filter(tournaments::version.eq(row.version - 1)),
    )
    .set(row)
    .execute(conn)?;
    Ok(written == 1)
}

/// Deletes a tournament (its players and byes go with it).
pub fn delete(conn: &mut DbConnection, id: &str, version: i64) -> QueryResult<bool> {
    let deleted = diesel::delete(
        tournaments::table
            .find(id)
            .filter(tournaments::version.eq(version)),
    )
    .execute(conn)?;
    Ok(deleted == 1)
}

/// A page of tournaments with their organisers' usernames, newest
/// first, of `status` (or any), created before `before` (the last of the
/// previous page) if given.
pub fn list(
    conn: &mut DbConnection,
    status: Option<&str>,
    before: Option<(NaiveDateTime, String)>,
    limit: i64,
) -> QueryResult<Vec<(TournamentRow, String)>> {
    let mut query = tournaments::table
        .inner_join(users::table)
        .select((TournamentRow::as_select(), users::username))
        .order((tournaments::created_at.desc(), tournaments::id.desc()))
        .limit(limit)
        .into_boxed();
    if let Some(status) = status {
        query = query.filter(tournaments::status.eq(status.to_owned()));
    }
    if let Some((at, id)) = before {
        query = query.filter(
            tournaments::created_at
                .lt(at)
                .or(tournaments::created_at.eq(at).and(tournaments::id.lt(id))),
        );
    }
    query.load(conn)
}

/// How many players each of `ids` has (not withdrawn, account not
/// deleted).
pub fn player_counts(conn: &mut DbConnection, ids: &[String]) -> QueryResult<Vec<(String, i64)>> {
    tournament_players::table
        .inner_join(users::table)
        .filter(tournament_players::tournament_id.eq_any(ids))
        .filter(tournament_players::withdrawn_at.is_null())
        .filter(users::deleted_at.is_null())
        .group_by(tournament_players::tournament_id)
        .select((tournament_players::tournament_id, diesel::dsl::count_star()))
        .load(conn)
}

/// The players of `tournament` by seat (the order they joined), with
/// their usernames.
pub fn players(conn: &mut DbConnection, tournament: &str) -> QueryResult<Vec<NamedPlayer>> {
    let rows: Vec<(PlayerRow, String, Option<NaiveDateTime>)> = tournament_players::table
        .inner_join(users::table)
        .filter(tournament_players::tournament_id.eq(tournament))
        .order((
            tournament_players::seat.asc(),
            tournament_players::joined_at.asc(),
            tournament_players::user_id.asc(),
        ))
        .select((PlayerRow::as_select(), users::username, users::deleted_at))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(row, username, deleted_at)| NamedPlayer {
            row,
            username,
            deleted_at,
        })
        .collect())
}

/// Adds a player; `false` if they were in it already.
pub fn add_player(conn: &mut DbConnection, row: &PlayerRow) -> QueryResult<bool> {
    match diesel::insert_into(tournament_players::table)
        .values(row)
        .execute(conn)
    {
        Ok(n) => Ok(n == 1),
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(false),
        Err(other) => Err(other),
    }
}

/// Removes a player from a tournament not yet started; `false` if they
/// were not in it.
pub fn remove_player(conn: &mut DbConnection, tournament: &str, user: &str) -> QueryResult<bool> {
    let removed = diesel::delete(
        tournament_players::table
            .filter(tournament_players::tournament_id.eq(tournament))
            .filter(tournament_players::user_id.eq(user)),
    )
    .execute(conn)?;
    Ok(removed == 1)
}

/// Gives a player their seat and starting rating.
pub fn seat_player(
    conn: &mut DbConnection,
    tournament: &str,
    user: &str,
    seat: i32,
    rating: i32,
) -> QueryResult<()> {
    diesel::update(
        tournament_players::table
            .filter(tournament_players::tournament_id.eq(tournament))
            .filter(tournament_players::user_id.eq(user)),
    )
    .set((
        tournament_players::seat.eq(seat),
        tournament_players::rating.eq(rating),
    ))
    .execute(conn)
    .map(|_| ())
}

/// Marks a player of a running tournament withdrawn; `false` if they
/// were not in it or had withdrawn already.
pub fn withdraw(
    conn: &mut DbConnection,
    tournament: &str,
    user: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let changed = diesel::update(
        tournament_players::table
            .filter(tournament_players::tournament_id.eq(tournament))
            .filter(tournament_players::user_id.eq(user))
            .filter(tournament_players::withdrawn_at.is_null()),
    )
    .set(tournament_players::withdrawn_at.eq(at))
    .execute(conn)?;
    Ok(changed == 1)
}

/// The tournaments `user` is in (withdrawn or not) with the status each
/// has.
pub fn of_user(conn: &mut DbConnection, user: &str) -> QueryResult<Vec<(String, String)>> {
    tournament_players::table
        .inner_join(tournaments::table)
        .filter(tournament_players::user_id.eq(user))
        .select((tournaments::id, tournaments::status))
        .load(conn)
}

/// Each player's rating in `variant` (those who have one).
pub fn ratings_in(
    conn: &mut DbConnection,
    variant: &str,
    users: &[String],
) -> QueryResult<Vec<(String, f64)>> {
    ratings::table
        .filter(ratings::variant.eq(variant))
        .filter(ratings::user_id.eq_any(users))
        .select((ratings::user_id, ratings::rating))
        .load(conn)
}

pub fn byes(conn: &mut DbConnection, tournament: &str) -> QueryResult<Vec<(i32, String)>> {
    tournament_byes::table
        .filter(tournament_byes::tournament_id.eq(tournament))
        .order(tournament_byes::round.asc())
        .select((tournament_byes::round, tournament_byes::user_id))
        .load(conn)
}

pub fn add_bye(
    conn: &mut DbConnection,
    tournament: &str,
    round: i32,
    user: &str,
) -> QueryResult<()> {
    diesel::insert_into(tournament_byes::table)
        .values((
            tournament_byes::tournament_id.eq(tournament),
            tournament_byes::round.eq(round),
            tournament_byes::user_id.eq(user),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Every game of `tournament`, by round.
pub fn games_of(conn: &mut DbConnection, tournament: &str) -> QueryResult<Vec<TournamentGame>> {
    games::table
        .filter(games::tournament_id.eq(tournament))
        .order((
            games::tournament_round.asc(),
            games::created_at.asc(),
            games::id.asc(),
        ))
        .select((
            games::id,
            games::tournament_round,
            games::red_user_id,
            games::blue_user_id,
            games::status,
            games::result_winner,
            games::result_reason,
            games::red_setup.is_not_null(),
            games::blue_setup.is_not_null(),
            games::updated_at,
        ))
        .load(conn)
}

/// The games not yet over that `user` plays in `tournament`.
pub fn unfinished_games_of(
    conn: &mut DbConnection,
    tournament: &str,
    user: &str,
) -> QueryResult<Vec<String>> {
    games::table
        .filter(games::tournament_id.eq(tournament))
        .filter(games::status.eq_any(game_status::NOT_OVER))
        .filter(games::red_user_id.eq(user).or(games::blue_user_id.eq(user)))
        .order(games::id.asc())
        .select(games::id)
        .load(conn)
}

/// The running tournaments none of whose games is still being played
/// (a round to pair, or the end), at most `limit`.
pub fn running_and_idle(conn: &mut DbConnection, limit: i64) -> QueryResult<Vec<String>> {
    let unfinished = games::table
        .filter(games::tournament_id.eq(tournaments::id.nullable()))
        .filter(games::status.eq_any(game_status::NOT_OVER));
    tournaments::table
        .filter(tournaments::status.eq(status::RUNNING))
        .filter(diesel::dsl::not(diesel::dsl::exists(unfinished)))
        .order(tournaments::id.asc())
        .limit(limit)
        .select(tournaments::id)
        .load(conn)
}

/// The open tournaments whose start time has come and that have at least
/// `min_players` players whose accounts stand, at most `limit`.
pub fn due_to_start(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    min_players: i64,
    limit: i64,
) -> QueryResult<Vec<String>> {
    tournaments::table
        .inner_join(tournament_players::table.inner_join(users::table))
        .filter(tournaments::status.eq(status::OPEN))
        .filter(tournaments::starts_at.le(now))
        .filter(users::deleted_at.is_null())
        .group_by(tournaments::id)
        .having(diesel::dsl::count_star().ge(min_players))
        .order(tournaments::id.asc())
        .limit(limit)
        .select(tournaments::id)
        .load(conn)
}

/// Games not yet over, in running tournaments, of players who withdrew
/// (a forfeit not yet written): `(game id, user id, username)`, at most
/// `limit`.
pub fn unforfeited(
    conn: &mut DbConnection,
    limit: i64,
) -> QueryResult<Vec<(String, String, String)>> {
    let player = tournament_players::tournament_id
        .nullable()
        .eq(games::tournament_id)
        .and(
            tournament_players::user_id
                .nullable()
                .eq(games::red_user_id)
                .or(tournament_players::user_id
                    .nullable()
                    .eq(games::blue_user_id)),
        );
    games::table
        .inner_join(tournament_players::table.on(player))
        .inner_join(users::table.on(users::id.eq(tournament_players::user_id)))
        .filter(tournament_players::withdrawn_at.is_not_null())
        .filter(games::status.eq_any(game_status::NOT_OVER))
        .order(games::id.asc())
        .limit(limit)
        .select((games::id, tournament_players::user_id, users::username))
        .load(conn)
}
