//! The `games` and `game_actions` tables.
//!
//! A game is one row holding its current state; every change rewrites the
//! row with a versioned `UPDATE ... WHERE id = ? AND version = ?` (zero rows
//! updated: someone else changed the game first). Actions applied in play are
//! appended to `game_actions` in the same transaction.
//!
//! The hand-written statements of that write are in `save.rs`; the read
//! of a game with the usernames it keeps, in `with_names.rs`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::schema::{game_actions, game_deadlines, games, rematches, users};

mod save;
mod with_names;

pub use save::{save, save_with_events, save_with_events_here, Expected, NamesRead, SeatsRead};
pub use with_names::{find_many_with_names_async, find_with_names, UserNames};

/// The values of the `status` column (docs/lifecycle.md). The status
/// clients see, and where it comes from, is `games::record::Status`, beside
/// the game's phase; storage only matches these values in its queries.
pub mod status {
    pub const WAITING: &str = "waiting";
    pub const SETUP: &str = "setup";
    pub const PLAYING: &str = "playing";
    pub const FINISHED: &str = "finished";
    pub const ABORTED: &str = "aborted";

    /// The statuses of a game not yet over.
    pub const NOT_OVER: [&str; 3] = [WAITING, SETUP, PLAYING];

    /// The statuses with a running clock (a deadline that can pass).
    pub const CLOCKED: [&str; 2] = [SETUP, PLAYING];
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
    /// The time control, JSON (fixed at creation; null: `per_move` of
    /// `days_per_move`).
    pub time_control: Option<String>,
    /// Both clocks, JSON (null before the setup phase).
    pub clocks: Option<String>,
    /// The tournament the game is part of, and its round (fixed at
    /// creation; docs/tournaments.md).
    #[diesel(skip_update)]
    pub tournament_id: Option<String>,
    #[diesel(skip_update)]
    pub tournament_round: Option<i32>,
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
/// creator, challenged user, time control, creation time, reminder or
/// whether it is rated): its status and seats, and what play changes.
#[derive(Debug, AsChangeset)]
#[diesel(table_name = games, treat_none_as_null = true)]
struct GameChanges<'a> {
    status: &'a str,
    red_user_id: Option<&'a str>,
    blue_user_id: Option<&'a str>,
    #[diesel(embed)]
    play: PlayChanges<'a>,
}

/// The columns a change that keeps the game's status and seats can touch
/// (a move, a setup, a draw offer, the clocks): no column of an index of
/// `games` and none that a trigger on the seats watches, since SQLite
/// rewrites the entry of every index on a column an `UPDATE` sets, changed
/// or not, and checks the foreign key of every seat it sets
/// (docs/storage.md, "Indexes and HOT moves").
#[derive(Debug, AsChangeset)]
#[diesel(table_name = games, treat_none_as_null = true)]
struct PlayChanges<'a> {
    version: i64,
    red_setup: Option<&'a str>,
    blue_setup: Option<&'a str>,
    state: Option<&'a str>,
    turn: Option<&'a str>,
    ply: i32,
    draw_offer: Option<&'a str>,
    deadline: Option<NaiveDateTime>,
    clocks: Option<&'a str>,
    result_winner: Option<&'a str>,
    result_reason: Option<&'a str>,
    updated_at: NaiveDateTime,
}

impl<'a> GameChanges<'a> {
    fn of(row: &'a GameRow) -> Self {
        GameChanges {
            status: &row.status,
            red_user_id: row.red_user_id.as_deref(),
            blue_user_id: row.blue_user_id.as_deref(),
            play: PlayChanges::of(row),
        }
    }
}

impl<'a> PlayChanges<'a> {
    fn of(row: &'a GameRow) -> Self {
        PlayChanges {
            version: row.version,
            red_setup: row.red_setup.as_deref(),
            blue_setup: row.blue_setup.as_deref(),
            state: row.state.as_deref(),
            turn: row.turn.as_deref(),
            ply: row.ply,
            draw_offer: row.draw_offer.as_deref(),
            deadline: row.deadline,
            clocks: row.clocks.as_deref(),
            result_winner: row.result_winner.as_deref(),
            result_reason: row.result_reason.as_deref(),
            updated_at: row.updated_at,
        }
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
        .filter(games::status.eq_any(status::CLOCKED))
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
        .filter(games::status.eq_any(status::NOT_OVER))
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
        .filter(games::status.eq_any(status::NOT_OVER))
        .order((games::created_at.asc(), games::id.asc()))
        .limit(limit)
        .select((games::id, users::id))
        .load(conn)
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
    /// A value of the `status` column ([`status`]).
    pub status: Option<&'static str>,
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
        query = query.filter(games::status.eq(*status));
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
            .eq(status::PLAYING)
            .and(red_to_move.or(blue_to_move));
        let red_setup_missing = games::red_user_id
            .eq(user.clone())
            .and(games::red_setup.is_null());
        let blue_setup_missing = games::blue_user_id
            .eq(user.clone())
            .and(games::blue_setup.is_null());
        let setup = games::status
            .eq(status::SETUP)
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
