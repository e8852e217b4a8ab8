//! Rating a game as it ends (docs/ratings.md): in the transaction that
//! writes the game's end, whichever command or process ends it, each
//! player's rating in the game's variant is updated with Glicko-2
//! (`domain::Glicko`), the game being a rating period of its own.

use chrono::{DateTime, Duration, Utc};
use domain::{Color, Glicko, Score};

use super::record::{GameRecord, Phase};
use crate::db::{DbConnection, StoreError};
use crate::storage::ratings::{self as store, HistoryRow, RatingRow};
use crate::storage::{from_db_time, to_db_time};

/// The length of a rating period: a player's deviation grows once for
/// every whole period without a rated game (docs/ratings.md).
pub const RATING_PERIOD_DAYS: i64 = 7;

/// Rates `record` if it has just been written as finished, is rated and
/// was played by two different users; does nothing for any other game,
/// and nothing for a game rated before (so a game is rated exactly once).
pub fn rate_if_ended(
    conn: &mut DbConnection,
    record: &GameRecord,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let Phase::Finished(game) = &record.phase else {
        return Ok(());
    };
    let (Some(result), Some(red), Some(blue)) = (game.result(), record.red, record.blue) else {
        return Ok(());
    };
    if !record.rated || red == blue {
        return Ok(());
    }
    let game_id = record.id.to_string();
    if store::is_rated(conn, &game_id)? {
        return Ok(());
    }
    let variant = record.variant.name();
    let red_score = match result.winner {
        Some(Color::Red) => Score::Win,
        Some(Color::Blue) => Score::Loss,
        None => Score::Draw,
    };
    // Locked in user order (storage/ratings.rs): no deadlock between two
    // games of the same two players.
    let (red_id, blue_id) = (red.to_string(), blue.to_string());
    let mut rows = [(&red_id, red_score), (&blue_id, red_score.reversed())];
    rows.sort_by(|a, b| a.0.cmp(b.0));
    let mut locked = Vec::with_capacity(2);
    for (user, score) in rows {
        let row = store::lock(conn, &fresh(user, variant, now))?;
        locked.push((row, score));
    }
    let before: Vec<Glicko> = locked.iter().map(|(row, _)| current(row, now)).collect();
    for (i, (row, score)) in locked.iter().enumerate() {
        let opponent = before[1 - i];
        let after = before[i].after(&[domain::Played {
            opponent,
            score: *score,
        }]);
        let (next, point) = advanced(row, after, *score, &game_id, now);
        store::write(conn, &next, &point)?;
    }
    Ok(())
}

/// The row of a player with no rated game yet in `variant`.
fn fresh(user: &str, variant: &str, now: DateTime<Utc>) -> RatingRow {
    let start = Glicko::INITIAL;
    RatingRow {
        user_id: user.to_owned(),
        variant: variant.to_owned(),
        rating: start.rating,
        deviation: start.deviation,
        volatility: start.volatility,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        last_game_at: to_db_time(now),
    }
}

/// Whole rating periods from `since` to `now`.
pub fn periods_between(since: DateTime<Utc>, now: DateTime<Utc>) -> u32 {
    let elapsed = now - since;
    if elapsed <= Duration::zero() {
        return 0;
    }
    u32::try_from(elapsed.num_days() / RATING_PERIOD_DAYS).unwrap_or(u32::MAX)
}

/// A stored rating as it stands at `now`: grown for the idle periods
/// since the player's last rated game.
fn current(row: &RatingRow, now: DateTime<Utc>) -> Glicko {
    let stored = Glicko {
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
    };
    stored.idle(periods_between(from_db_time(row.last_game_at), now))
}

/// The row and history point after one more rated game.
fn advanced(
    row: &RatingRow,
    after: Glicko,
    score: Score,
    game_id: &str,
    now: DateTime<Utc>,
) -> (RatingRow, HistoryRow) {
    let next = RatingRow {
        rating: after.rating,
        deviation: after.deviation,
        volatility: after.volatility,
        games: row.games + 1,
        wins: row.wins + i32::from(score == Score::Win),
        losses: row.losses + i32::from(score == Score::Loss),
        draws: row.draws + i32::from(score == Score::Draw),
        last_game_at: to_db_time(now),
        ..row.clone()
    };
    let point = HistoryRow {
        user_id: row.user_id.clone(),
        game_id: game_id.to_owned(),
        variant: row.variant.clone(),
        number: next.games,
        rated_at: next.last_game_at,
        rating: after.rating,
        deviation: after.deviation,
        volatility: after.volatility,
    };
    (next, point)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn periods_are_whole_weeks_since_the_last_game() {
        let start = DateTime::from_timestamp(1_795_000_000, 0).unwrap();
        assert_eq!(periods_between(start, start), 0);
        assert_eq!(periods_between(start, start - Duration::days(30)), 0);
        assert_eq!(periods_between(start, start + Duration::days(6)), 0);
        assert_eq!(periods_between(start, start + Duration::days(7)), 1);
        assert_eq!(periods_between(start, start + Duration::days(29)), 4);
    }
}
