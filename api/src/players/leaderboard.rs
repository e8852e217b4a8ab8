//! `GET /leaderboard`: a variant's settled, active players, best rating
//! first, paged by cursor (docs/ratings.md).

use chrono::{DateTime, Duration, Utc};
use domain::Variant;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::{cursor, page_size, PlayerError};
use crate::db::{self, Freshness};
use crate::games::docs::VariantDoc;
use crate::games::{Context, GameError};
use crate::storage::from_db_time;
use crate::storage::ratings::{self as store, RatingRow};
use crate::storage::to_db_time;

/// Only ratings with a deviation below this are on the leaderboard: the
/// rating is settled (a new player starts at 350).
pub const SETTLED_DEVIATION: f64 = 110.0;
/// Only players with a rated game in the variant in this many days.
pub const ACTIVE_DAYS: i64 = 90;
pub const DEFAULT_PAGE: i64 = 50;
pub const MAX_PAGE: i64 = 100;

const TAG: &str = "l";

/// Which leaderboard, and which page.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// default `classic`
    #[serde(default)]
    #[param(value_type = Option<VariantDoc>)]
    pub variant: Variant,
    /// 1-100, default 50
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page
    pub cursor: Option<String>,
}

/// A player's rating in one variant, with the rated games it comes from.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RatingView {
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Whether the deviation is below the leaderboard's bound.
    pub settled: bool,
    /// Rated games finished in the variant, and how they went.
    pub games: i32,
    pub wins: i32,
    pub losses: i32,
    pub draws: i32,
    /// When the last rated game in the variant ended.
    pub last_game_at: DateTime<Utc>,
}

impl RatingView {
    pub fn of(row: &RatingRow) -> Option<RatingView> {
        Some(RatingView {
            variant: row.variant.parse().ok()?,
            rating: row.rating,
            deviation: row.deviation,
            volatility: row.volatility,
            settled: row.deviation < SETTLED_DEVIATION,
            games: row.games,
            wins: row.wins,
            losses: row.losses,
            draws: row.draws,
            last_game_at: from_db_time(row.last_game_at),
        })
    }
}

/// One line of the leaderboard.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LeaderboardEntry {
    /// 1 for the best rating; equal ratings are ordered by user id.
    pub rank: i64,
    pub user_id: Uuid,
    pub username: String,
    pub rating: f64,
    pub deviation: f64,
    /// Rated games finished in the variant.
    pub games: i32,
    /// When the last rated game in the variant ended.
    pub last_game_at: DateTime<Utc>,
}

/// A page of a variant's leaderboard.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Leaderboard {
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    /// Only deviations below this are listed.
    pub max_deviation: f64,
    /// Only players with a rated game in the variant in this many days.
    pub active_days: i64,
    pub entries: Vec<LeaderboardEntry>,
    /// Pass as `cursor` to get the next page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

pub async fn leaderboard(
    ctx: &Context,
    query: LeaderboardQuery,
    freshness: Freshness,
) -> Result<Leaderboard, PlayerError> {
    let limit = page_size(query.limit, DEFAULT_PAGE, MAX_PAGE)?;
    let after = query.cursor.as_deref().map(decode).transpose()?;
    let variant = query.variant;
    let since = to_db_time(ctx.clock.now() - Duration::days(ACTIVE_DAYS));
    db::run_lagging(&ctx.pool, freshness, move |conn| {
        let key = after
            .as_ref()
            .map(|(rating, user, _)| (*rating, user.clone()));
        let rows = store::leaderboard(
            conn,
            variant.name(),
            SETTLED_DEVIATION,
            since,
            key,
            limit + 1,
        )?;
        let first_rank = after.as_ref().map_or(1, |(_, _, rank)| rank + 1);
        let mut entries = Vec::new();
        for (row, username) in rows.iter().take(usize::try_from(limit).unwrap_or(0)) {
            let user_id = Uuid::parse_str(&row.user_id).map_err(GameError::internal)?;
            entries.push(LeaderboardEntry {
                rank: first_rank + entries.len() as i64,
                user_id,
                username: username.clone(),
                rating: row.rating,
                deviation: row.deviation,
                games: row.games,
                last_game_at: from_db_time(row.last_game_at),
            });
        }
        let more = rows.len() as i64 > limit;
        let next_cursor = match (more, entries.last()) {
            (true, Some(last)) => Some(cursor::encode(
                TAG,
                &[
                    last.rating.to_bits().to_string(),
                    last.user_id.to_string(),
                    last.rank.to_string(),
                ],
            )),
            _ => None,
        };
        Ok(Leaderboard {
            variant,
            max_deviation: SETTLED_DEVIATION,
            active_days: ACTIVE_DAYS,
            entries,
            next_cursor,
        })
    })
    .await
}

/// The rating (exactly, as its bits), user id and rank of the last line
/// of the previous page.
fn decode(text: &str) -> Result<(f64, String, i64), PlayerError> {
    let [bits, user, rank] = cursor::decode::<3>(TAG, text)?;
    let bad = || PlayerError::Unreadable("cursor is not a next_cursor of this listing".into());
    let rating = f64::from_bits(bits.parse().map_err(|_| bad())?);
    let user = Uuid::parse_str(&user).map_err(|_| bad())?.to_string();
    let rank: i64 = rank.parse().map_err(|_| bad())?;
    if !rating.is_finite() || rank < 1 {
        return Err(bad());
    }
    Ok((rating, user, rank))
}
