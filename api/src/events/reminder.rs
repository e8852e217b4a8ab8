//! `deadline_soon`: a reminder to the player to move when less than
//! `DEADLINE_REMINDER_PERCENT` of the move time is left.
//!
//! A background task looks every `REMINDER_INTERVAL_SECONDS` (real time)
//! for games in play whose reminder for the current version has not been
//! sent, and compares their deadline with the injectable clock. Sending is
//! one transaction: a conditional UPDATE claims the reminder
//! (`SET reminded_version = version WHERE id = ? AND version = ? AND
//! reminded_version IS DISTINCT FROM version`) and the event is recorded only
//! if that UPDATE changed a row, so with any number of server processes the
//! reminder goes out once per turn. The game's `version` is not touched:
//! a reminder is not a change of the game.

use std::time::Duration;

use actix_web::web;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::EventPayload;
use crate::db::{self, DbConnection};
use crate::error::ApiError;
use crate::schema::games;
use crate::state::AppState;
use crate::storage::{from_db_time, to_db_time};

/// One game whose reminder has not been sent for its current version.
#[derive(Debug, Queryable)]
struct Candidate {
    id: String,
    version: i64,
    turn: Option<String>,
    red_user_id: Option<String>,
    blue_user_id: Option<String>,
    deadline: Option<chrono::NaiveDateTime>,
    days_per_move: i32,
}

/// When the reminder for a move ending at `deadline` is due: when less
/// than `percent` of the move time (`days_per_move` days) is left.
pub fn reminder_due_at(deadline: DateTime<Utc>, days_per_move: i32, percent: u32) -> DateTime<Utc> {
    let move_time = chrono::Duration::days(i64::from(days_per_move.max(0)));
    let share = move_time * i32::try_from(percent.min(100)).unwrap_or(100) / 100;
    deadline - share
}

/// How often old events are pruned (real time).
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

pub(crate) async fn run(state: web::Data<AppState>) {
    let interval = Duration::from_secs(state.config.reminder_interval_seconds.max(1));
    let shutdown = state.notifier.shutdown_signal();
    tokio::pin!(shutdown);
    let mut next_prune = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = &mut shutdown => return,
            () = tokio::time::sleep(interval) => {}
        }
        if tokio::time::Instant::now() >= next_prune {
            next_prune = tokio::time::Instant::now() + PRUNE_EVERY;
            let now = state.clock.now();
            let days = state.config.event_retention_days;
            let pruned = db::run(&state.pool, move |conn| {
                Ok(super::prune_events(conn, now, days)?)
            })
            .await;
            match pruned {
                Ok(0) => {}
                Ok(deleted) => tracing::info!(deleted, "old events pruned"),
                Err(e) => tracing::warn!(error = %e, "pruning old events failed"),
            }
        }
        match send_due_reminders(&state).await {
            Ok(reminded) => {
                for user in reminded {
                    state.notifier.user_event(user);
                }
            }
            Err(e) => tracing::warn!(error = %e, "deadline reminders: sweep failed"),
        }
    }
}

/// Sends every due reminder; returns the users who got one.
pub async fn send_due_reminders(state: &AppState) -> Result<Vec<Uuid>, ApiError> {
    let now = state.clock.now();
    let percent = state.config.deadline_reminder_percent;
    db::run(&state.pool, move |conn| {
        let candidates = due_candidates(conn, now, percent)?;
        let mut reminded = Vec::new();
        for candidate in candidates {
            if let Some(user) = remind(conn, now, &candidate)? {
                reminded.push(user);
            }
        }
        Ok(reminded)
    })
    .await
}

fn due_candidates(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    percent: u32,
) -> Result<Vec<Candidate>, diesel::result::Error> {
    // No reminder is due for a deadline further away than the largest share
    // of the longest move time: those rows are not even loaded.
    let longest_move = *crate::games::requests::DAYS_PER_MOVE.end();
    let horizon = now + (now - reminder_due_at(now, longest_move, percent));
    let rows: Vec<Candidate> = games::table
        .filter(games::status.eq("playing"))
        .filter(games::deadline.gt(to_db_time(now)))
        .filter(games::deadline.le(to_db_time(horizon)))
        .filter(
            games::reminded_version
                .is_null()
                .or(games::reminded_version.ne(games::version.nullable())),
        )
        .select((
            games::id,
            games::version,
            games::turn,
            games::red_user_id,
            games::blue_user_id,
            games::deadline,
            games::days_per_move,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter(|game| {
            game.deadline.is_some_and(|deadline| {
                now >= reminder_due_at(from_db_time(deadline), game.days_per_move, percent)
            })
        })
        .collect())
}

/// Claims and records one reminder; `None` if another process (or a move)
/// got there first, or the game has no player to remind.
fn remind(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    game: &Candidate,
) -> Result<Option<Uuid>, ApiError> {
    let to_move = match game.turn.as_deref() {
        Some("red") => game.red_user_id.as_deref(),
        Some("blue") => game.blue_user_id.as_deref(),
        _ => None,
    };
    let (Some(user), Some(deadline)) = (to_move, game.deadline) else {
        return Ok(None);
    };
    let user: Uuid = user.parse().map_err(ApiError::internal)?;
    let game_id: Uuid = game.id.parse().map_err(ApiError::internal)?;
    db::write_transaction(conn, |conn| {
        let claimed = diesel::update(
            games::table
                .filter(games::id.eq(&game.id))
                .filter(games::version.eq(game.version))
                .filter(
                    games::reminded_version
                        .is_null()
                        .or(games::reminded_version.ne(game.version)),
                ),
        )
        .set(games::reminded_version.eq(Some(game.version)))
        .execute(conn)?;
        if claimed == 0 {
            return Ok(None);
        }
        super::record(
            conn,
            now,
            user,
            &EventPayload::DeadlineSoon {
                game_id,
                deadline: from_db_time(deadline),
            },
        )?;
        Ok(Some(user))
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn the_reminder_is_due_when_the_share_is_left() {
        let deadline = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        assert_eq!(
            reminder_due_at(deadline, 4, 25),
            deadline - chrono::Duration::days(1)
        );
        assert_eq!(
            reminder_due_at(deadline, 1, 50),
            deadline - chrono::Duration::hours(12)
        );
    }
}
