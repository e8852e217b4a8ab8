//! `deadline_soon`: a reminder when less than `DEADLINE_REMINDER_PERCENT`
//! of the time for the current step is left: the move time of the player
//! to move in `playing` games, and the setup time (the same `days_per_move`
//! clock, started when the second player sat down) of every seated player
//! who has not placed a setup yet in `setup` games.
//!
//! A background task looks every `REMINDER_INTERVAL_SECONDS` (real time)
//! for games whose reminder is still unsent, and compares their deadline
//! with the injectable clock. The game's `version` is never touched: a
//! reminder is not a change of the game. Sending is one transaction that
//! first claims the reminder with a conditional UPDATE of
//! `reminded_version` and records the event(s) only if that UPDATE changed
//! a row; any number of server processes may run the task at once, since
//! only one of them can win a claim (PostgreSQL re-checks the `WHERE` of
//! a blocked UPDATE once the row lock is released; SQLite write
//! transactions run one at a time).
//!
//! - In play, a turn is one version (every move bumps it), so the claim is
//!   per (game, version): `SET reminded_version = version WHERE id = ? AND
//!   version = ? AND reminded_version IS DISTINCT FROM version`. One
//!   reminder per turn, to the player to move.
//! - In setup, a version is NOT a phase: placing or replacing a setup bumps
//!   the version while the setup deadline stays. Claiming per version would
//!   remind the slower player a second time after the faster one placed a
//!   setup. So the setup phase has ONE claim: `SET reminded_version =
//!   version WHERE id = ? AND version = ? AND status = 'setup' AND
//!   reminded_version IS NULL` (`reminded_version` is NULL from creation
//!   until a reminder is claimed; only this module writes it). In the same
//!   transaction, the reminder goes to every seated player whose setup was
//!   missing at that version (the `version = ?` condition guarantees the
//!   row is still the one that was read). That is exactly once per player
//!   per phase: a setup, once placed, cannot be withdrawn, so a player who
//!   had one at the claim never needs a reminder in this phase, and every
//!   player who lacked one got it with the claim. When play starts the
//!   version has moved past the claimed one, so the first move's reminder
//!   is claimed afresh when it is due (its clock starts then).
//!
//! The payload is `{game_id, deadline}` only, and `deadline` is public (it
//! is in everyone's view of the game). A player learns nothing about the
//! opponent's setup from it: the reminder goes out because of the
//! recipient's own missing setup, and whether the opponent got one too is
//! not said (`setup_done` in the view already tells who has placed one).

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::error::GameError;
use super::notices::{self, EventPayload, Notice};
use super::record::Status;
use super::requests::DAYS_PER_MOVE;
use crate::clock::Clock;
use crate::db::{self, DbConnection, DbPool};
use crate::events::{self, Notifier};
use crate::storage::reminders::{self as store, Candidate};
use crate::storage::{from_db_time, to_db_time};
use domain::time_control::bounds;

/// Who is to be reminded: the player to move in play; in setup, every
/// seated player without a setup.
fn recipients(game: &Candidate) -> Result<Vec<Uuid>, GameError> {
    let status = Status::parse(&game.status);
    let seats = [
        (
            game.red_user_id.as_deref(),
            domain::Color::Red,
            game.red_setup_missing,
        ),
        (
            game.blue_user_id.as_deref(),
            domain::Color::Blue,
            game.blue_setup_missing,
        ),
    ];
    seats
        .into_iter()
        .filter_map(|(user, color, setup_missing)| {
            let wanted = match status {
                Some(Status::Playing) => game.turn.as_deref() == Some(color.name()),
                Some(Status::Setup) => setup_missing,
                _ => false,
            };
            user.filter(|_| wanted)
        })
        .map(|user| user.parse().map_err(GameError::internal))
        .collect()
}

/// When the reminder for a move (or a setup phase) ending at `deadline` is
/// due: when less than `percent` of its time (`days_per_move` days) is left.
pub fn reminder_due_at(deadline: DateTime<Utc>, days_per_move: i32, percent: u32) -> DateTime<Utc> {
    let move_time = chrono::Duration::days(i64::from(days_per_move.max(0)));
    let share = move_time * i32::try_from(percent.min(100)).unwrap_or(100) / 100;
    deadline - share
}

/// How often old events are pruned (real time).
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// What the reminder task needs.
#[derive(Clone)]
pub struct ReminderTask {
    pub pool: DbPool,
    pub clock: Arc<dyn Clock>,
    pub notifier: Notifier,
    /// Real time between passes.
    pub every: Duration,
    /// `DEADLINE_REMINDER_PERCENT`.
    pub percent: u32,
    /// `EVENT_RETENTION_DAYS`: older events are pruned once an hour.
    pub retention_days: u32,
}

impl ReminderTask {
    /// Runs until the notifier shuts down.
    pub fn spawn(self) {
        tokio::spawn(self.run());
    }

    async fn run(self) {
        let shutdown = self.notifier.shutdown_signal();
        tokio::pin!(shutdown);
        let mut next_prune = tokio::time::Instant::now();
        loop {
            tokio::select! {
                () = &mut shutdown => return,
                () = tokio::time::sleep(self.every.max(Duration::from_secs(1))) => {}
            }
            crate::metrics::METRICS
                .sweeps
                .with_label_values(&["reminders"])
                .inc();
            if tokio::time::Instant::now() >= next_prune {
                next_prune = tokio::time::Instant::now() + PRUNE_EVERY;
                let now = self.clock.now();
                let days = self.retention_days;
                let pruned = db::run_write(&self.pool, move |conn| events::prune(conn, now, days));
                match pruned.await {
                    Ok(0) => {}
                    Ok(deleted) => tracing::info!(deleted, "old events pruned"),
                    Err(e) => tracing::warn!(error = %e, "pruning old events failed"),
                }
            }
            match send_due_reminders(&self.pool, self.clock.now(), self.percent).await {
                Ok(reminded) => {
                    for user in reminded {
                        self.notifier.user_event(user);
                    }
                }
                Err(e) => tracing::warn!(error = %e, "deadline reminders: sweep failed"),
            }
        }
    }
}

/// One pass of the reminder task: finds the games whose reminder is due
/// at `now` and sends each one not yet claimed, each in a write of its own
/// (`db::run_write`: on SQLite, a turn on the writer). Returns the users
/// who got a reminder (the caller tells the notifier). Safe to run in any
/// number of processes at once.
pub async fn send_due_reminders(
    pool: &DbPool,
    now: DateTime<Utc>,
    percent: u32,
) -> Result<Vec<Uuid>, GameError> {
    let due = db::run_as(pool, move |conn| due(conn, now, percent)).await?;
    let mut reminded = Vec::new();
    for game in due {
        let id = game.id.clone();
        match db::run_write(pool, move |conn| remind(conn, now, &game)).await {
            Ok(users) => reminded.extend(users),
            // The reminders already committed are still announced; the
            // rest wait for the next sweep.
            Err(e) if !reminded.is_empty() => {
                tracing::warn!(error = %e, game = %id, "deadline reminders: stopped early");
                break;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(reminded)
}

/// The games whose reminder is due at `now` and not yet sent.
fn due(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    percent: u32,
) -> Result<Vec<Candidate>, GameError> {
    // No reminder is due for a deadline further away than the largest share
    // of the longest move time (`moves_in_days` of one move gives up to
    // 180 days): those rows are not even loaded.
    let longest_move = i32::try_from(*bounds::MOVES_IN_DAYS_DAYS.end())
        .unwrap_or(i32::MAX)
        .max(*DAYS_PER_MOVE.end());
    let horizon = now + (now - reminder_due_at(now, longest_move, percent));
    Ok(store::unsent(conn, to_db_time(now), to_db_time(horizon))?
        .into_iter()
        .filter(|game| {
            game.deadline.is_some_and(|deadline| {
                now >= reminder_due_at(from_db_time(deadline), game.days_per_move, percent)
            })
        })
        .collect())
}

/// Claims and records one game's reminder, inside the caller's write
/// transaction; returns its recipients, none if another process (or a
/// change of the game) got there first.
fn remind(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    game: &Candidate,
) -> Result<Vec<Uuid>, GameError> {
    let recipients = recipients(game)?;
    let (false, Some(deadline)) = (recipients.is_empty(), game.deadline) else {
        return Ok(Vec::new());
    };
    let game_id: Uuid = game.id.parse().map_err(GameError::internal)?;
    // The row must still be the one read (same version, so the same
    // status, turn and missing setups); see the module documentation for
    // why setup and play claim differently.
    if !store::claim(conn, game)? {
        return Ok(Vec::new());
    }
    let payload = EventPayload::DeadlineSoon {
        game_id,
        deadline: from_db_time(deadline),
    };
    let sent: Vec<Notice> = recipients
        .iter()
        .map(|&user| Notice::new(user, payload.clone()))
        .collect();
    notices::record(conn, now, &sent)?;
    Ok(recipients)
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

    fn candidate(status: &str, turn: Option<&str>, missing: (bool, bool)) -> Candidate {
        Candidate {
            id: Uuid::new_v4().to_string(),
            status: status.to_owned(),
            version: 3,
            turn: turn.map(str::to_owned),
            red_user_id: Some(RED.to_string()),
            blue_user_id: Some(BLUE.to_string()),
            red_setup_missing: missing.0,
            blue_setup_missing: missing.1,
            deadline: None,
            days_per_move: 3,
        }
    }

    const RED: Uuid = Uuid::from_u128(1);
    const BLUE: Uuid = Uuid::from_u128(2);

    #[test]
    fn in_setup_everyone_without_a_setup_is_reminded() {
        let both = candidate("setup", None, (true, true));
        assert_eq!(recipients(&both).unwrap(), [RED, BLUE]);
        let blue_only = candidate("setup", None, (false, true));
        assert_eq!(recipients(&blue_only).unwrap(), [BLUE]);
        let red_only = candidate("setup", None, (true, false));
        assert_eq!(recipients(&red_only).unwrap(), [RED]);
    }

    #[test]
    fn in_play_only_the_player_to_move_is_reminded() {
        let red = candidate("playing", Some("red"), (false, false));
        assert_eq!(recipients(&red).unwrap(), [RED]);
        let blue = candidate("playing", Some("blue"), (false, false));
        assert_eq!(recipients(&blue).unwrap(), [BLUE]);
        let over = candidate("finished", None, (false, false));
        assert!(recipients(&over).unwrap().is_empty());
    }
}
