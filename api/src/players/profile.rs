//! `GET /users/{username}`, `/users/{username}/ratings` and
//! `/users/{username}/games`: what anyone logged in may know about a
//! player (docs/ratings.md). Games appear as the summaries of `GET /games`
//! (public facts only); a deleted account has no profile.

use chrono::{DateTime, NaiveDateTime, Utc};
use domain::Variant;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::leaderboard::RatingView;
use super::{cursor, page_size, PlayerError};
use crate::db::{self, DbConnection, Freshness};
use crate::games::answers::GameSummary;
use crate::games::docs::VariantDoc;
use crate::games::list::{summaries, GamePage};
use crate::games::{clock, Context, GameError};
use crate::storage::ratings::{self as store, HistoryRow};
use crate::storage::users::{self, UserRow};
use crate::storage::{from_db_time, to_db_time};
use crate::username::Username;

/// Most games listed under `current_games`.
pub const CURRENT_GAMES_MAX: i64 = 50;
pub const DEFAULT_POINTS: i64 = 100;
pub const MAX_POINTS: i64 = 500;
pub const DEFAULT_GAMES: i64 = 20;
pub const MAX_GAMES: i64 = 100;

const POINTS_TAG: &str = "r";
const GAMES_TAG: &str = "f";

/// A player's public profile.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Profile {
    pub id: Uuid,
    pub username: String,
    /// When the account was registered.
    pub joined_at: DateTime<Utc>,
    /// One rating per variant with a rated game, in variant order.
    pub ratings: Vec<RatingView>,
    /// Games not yet over in which the player holds a seat, newest first
    /// (at most 50), as any spectator sees them.
    pub current_games: Vec<GameSummary>,
    /// Whether the player is on vacation: their clocks are stopped
    /// (docs/lifecycle.md, "Vacation").
    pub on_vacation: bool,
    /// The vacation days the player has left this year.
    pub vacation_remaining_days: i64,
}

/// One point of a rating's history: the rating after a rated game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RatingPoint {
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    /// 1 for the player's first rated game in the variant, then 2, 3, ...
    pub number: i32,
    pub game_id: Uuid,
    /// When the game ended.
    pub at: DateTime<Utc>,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A page of a player's rating history, oldest first per variant.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RatingHistory {
    pub username: String,
    pub points: Vec<RatingPoint>,
    /// Pass as `cursor` to get the next page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Which points of a rating history.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// Only this variant (default: every variant, one after the other)
    #[param(value_type = Option<VariantDoc>)]
    pub variant: Option<Variant>,
    /// 1-500, default 100
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page
    pub cursor: Option<String>,
}

/// A page of a player's finished games.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GamesQuery {
    /// 1-100, default 20
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page
    pub cursor: Option<String>,
}

/// The live account named `name`.
fn account(conn: &mut DbConnection, name: &str) -> Result<UserRow, PlayerError> {
    let no_such = || PlayerError::NoSuchUser(name.to_owned());
    // A string that cannot be a username names nobody (`[deleted]` either).
    let name = Username::parse(name).ok_or_else(no_such)?;
    users::find_by_username(conn, name.as_str())?.ok_or_else(no_such)
}

pub async fn profile(
    ctx: &Context,
    name: String,
    freshness: Freshness,
) -> Result<Profile, PlayerError> {
    // Games past their deadline end first, as for `GET /games`.
    let now = ctx.clock.now();
    clock::sweep_overdue(ctx, now).await?;
    let context = ctx.clone();
    db::run_lagging(&ctx.pool, freshness, move |conn| {
        let user = account(conn, &name)?;
        let id = Uuid::parse_str(&user.id).map_err(GameError::internal)?;
        let (on_vacation, vacation_remaining_days) =
            crate::games::vacation::standing_of(&context, conn, id, now)?;
        let ratings = store::of_user(conn, &user.id)?
            .iter()
            .filter_map(RatingView::of)
            .collect();
        let current = store::current_of_user(conn, &user.id, CURRENT_GAMES_MAX)?;
        Ok(Profile {
            id,
            username: user.username,
            joined_at: from_db_time(user.created_at),
            ratings,
            current_games: summaries(conn, &current, now)?,
            on_vacation,
            vacation_remaining_days,
        })
    })
    .await
}

pub async fn ratings(
    ctx: &Context,
    name: String,
    query: HistoryQuery,
    freshness: Freshness,
) -> Result<RatingHistory, PlayerError> {
    let limit = page_size(query.limit, DEFAULT_POINTS, MAX_POINTS)?;
    let after = query
        .cursor
        .as_deref()
        .map(|text| {
            let [variant, number] = cursor::decode::<2>(POINTS_TAG, text)?;
            let number: i32 = number.parse().map_err(|_| foreign())?;
            let variant: Variant = variant.parse().map_err(|_| foreign())?;
            Ok::<_, PlayerError>((variant.name().to_owned(), number))
        })
        .transpose()?;
    db::run_lagging(&ctx.pool, freshness, move |conn| {
        let user = account(conn, &name)?;
        let variant = query.variant.map(Variant::name);
        let rows = store::history(conn, &user.id, variant, after.clone(), limit + 1)?;
        let more = rows.len() as i64 > limit;
        let points = rows
            .iter()
            .take(usize::try_from(limit).unwrap_or(0))
            .map(point)
            .collect::<Result<Vec<_>, _>>()?;
        let next_cursor = match (more, points.last()) {
            (true, Some(last)) => Some(cursor::encode(
                POINTS_TAG,
                &[last.variant.name().to_owned(), last.number.to_string()],
            )),
            _ => None,
        };
        Ok(RatingHistory {
            username: user.username,
            points,
            next_cursor,
        })
    })
    .await
}

fn foreign() -> PlayerError {
    PlayerError::Unreadable("cursor is not a next_cursor of this listing".into())
}

fn point(row: &HistoryRow) -> Result<RatingPoint, PlayerError> {
    Ok(RatingPoint {
        variant: row.variant.parse().map_err(GameError::internal)?,
        number: row.number,
        game_id: Uuid::parse_str(&row.game_id).map_err(GameError::internal)?,
        at: from_db_time(row.rated_at),
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
    })
}

pub async fn finished_games(
    ctx: &Context,
    name: String,
    query: GamesQuery,
    freshness: Freshness,
) -> Result<GamePage, PlayerError> {
    let limit = page_size(query.limit, DEFAULT_GAMES, MAX_GAMES)?;
    let now = ctx.clock.now();
    let after: Option<(NaiveDateTime, String)> = query
        .cursor
        .as_deref()
        .map(|text| {
            let [micros, id] = cursor::decode::<2>(GAMES_TAG, text)?;
            let micros: i64 = micros.parse().map_err(|_| foreign())?;
            let time = DateTime::from_timestamp_micros(micros).ok_or_else(foreign)?;
            let id = Uuid::parse_str(&id).map_err(|_| foreign())?;
            Ok::<_, PlayerError>((to_db_time(time), id.to_string()))
        })
        .transpose()?;
    db::run_lagging(&ctx.pool, freshness, move |conn| {
        let user = account(conn, &name)?;
        let ids = store::finished_of_user(conn, &user.id, after.clone(), limit + 1)?;
        let more = ids.len() as i64 > limit;
        let page: Vec<String> = ids
            .into_iter()
            .take(usize::try_from(limit).unwrap_or(0))
            .collect();
        let mut rows = store::games_by_id(conn, &page)?;
        rows.sort_by_key(|row| page.iter().position(|id| *id == row.id));
        let games = summaries(conn, &rows, now)?;
        let next_cursor = match (more, games.last()) {
            (true, Some(last)) => Some(cursor::encode(
                GAMES_TAG,
                &[
                    last.header.updated_at.timestamp_micros().to_string(),
                    last.header.id.to_string(),
                ],
            )),
            _ => None,
        };
        Ok(GamePage { games, next_cursor })
    })
    .await
}
