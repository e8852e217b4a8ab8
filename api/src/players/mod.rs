//! Players: the leaderboard and public profiles (docs/ratings.md). Queries
//! only: ratings are written by the game service as a game ends
//! (`games::rated`). Nothing here knows HTTP (docs/architecture.md), and
//! nothing here tells more about a game than a spectator may see.

pub mod cursor;
pub mod leaderboard;
pub mod profile;

use crate::db::StoreError;
use crate::games::GameError;

/// Why a player query did not answer.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// No live account has this name (a deleted account has no profile).
    #[error("no user is named {0}")]
    NoSuchUser(String),
    /// A request that cannot be read as asked (a foreign cursor, a bad
    /// page size).
    #[error("{0}")]
    Unreadable(String),
    #[error(transparent)]
    Games(#[from] GameError),
}

impl From<StoreError> for PlayerError {
    fn from(error: StoreError) -> Self {
        PlayerError::Games(error.into())
    }
}

impl From<diesel::result::Error> for PlayerError {
    fn from(error: diesel::result::Error) -> Self {
        PlayerError::Games(error.into())
    }
}

impl crate::db::LostConnection for PlayerError {
    fn lost_connection(&self) -> bool {
        matches!(self, PlayerError::Games(games) if crate::db::LostConnection::lost_connection(games))
    }
}

/// A page size from `limit`: `default` when absent, else 1 to `max`.
pub fn page_size(limit: Option<i64>, default: i64, max: i64) -> Result<i64, PlayerError> {
    let limit = limit.unwrap_or(default);
    if (1..=max).contains(&limit) {
        Ok(limit)
    } else {
        Err(PlayerError::Unreadable(format!(
            "limit must be between 1 and {max}"
        )))
    }
}
