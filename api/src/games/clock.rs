//! The correspondence clock (docs/lifecycle.md): a game whose deadline has
//! passed ends, as a timeout loss for the player to move, or `aborted` when
//! a setup never came. Every read and write of a game decides it from the
//! row it loaded and calls [`expire`] when the deadline has passed, so no
//! answer depends on when the sweep last ran; [`sweep_overdue`]
//! ends every overdue game, from a background task in every process (each
//! game is ended by exactly one versioned write, whoever gets there first).

use std::time::Duration;

use chrono::{DateTime, Utc};
use domain::Action;
use uuid::Uuid;

use super::error::GameError;
use super::fetch::load_with_names;
use super::notices;
use super::record::Phase;
use super::step::{after_play, save};
use super::written::{self, Failed};
use super::Context;
use crate::db::{self, DbConnection};
use crate::storage::games as store;
use crate::storage::to_db_time;

/// Ends every game whose deadline is before `now`. Returns how many games
/// THIS call ended.
pub async fn sweep_overdue(ctx: &Context, now: DateTime<Utc>) -> Result<usize, GameError> {
    const BATCH: i64 = 100;
    let mut ended = 0;
    loop {
        let ids = db::run_as(&ctx.pool, move |conn| {
            Ok::<_, GameError>(store::overdue(conn, to_db_time(now), BATCH)?)
        })
        .await?;
        let mut progress = false;
        for id in &ids {
            let Ok(id) = Uuid::parse_str(id) else {
                continue;
            };
            if expire(ctx, now, id).await? {
                ended += 1;
                progress = true;
            }
        }
        // Fewer than a batch: done. No progress: other processes are
        // ending these games; leave them to it.
        if (ids.len() as i64) < BATCH || !progress {
            return Ok(ended);
        }
    }
}

/// Ends one overdue game; `false` if it was not (or no longer) overdue.
/// After the commit, as after any change: what this process kept of the
/// game is forgotten, and its waiters and the other processes are told.
pub async fn expire(ctx: &Context, now: DateTime<Utc>, game_id: Uuid) -> Result<bool, GameError> {
    const ATTEMPTS: usize = 8;
    for _ in 0..ATTEMPTS {
        let outcome = db::run_as(&ctx.pool, move |conn| {
            written::transaction(conn, |conn| expire_in_transaction(conn, now, game_id))
        })
        .await?;
        match outcome {
            Ok(Some((version, users))) => {
                ctx.kept.forget_before(game_id, version);
                ctx.notifier.game_changed(game_id, version);
                for user in users {
                    ctx.notifier.user_event(user);
                }
                return Ok(true);
            }
            Ok(None) => return Ok(false),
            Err(Failed::Lost) => continue,
            Err(Failed::Refused(error)) => return Err(error),
        }
    }
    Ok(false)
}

fn expire_in_transaction(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    game_id: Uuid,
) -> Result<Option<(i64, Vec<Uuid>)>, Failed> {
    let (mut record, names) = match load_with_names(conn, game_id) {
        Ok(found) => found,
        Err(GameError::NotFound) => return Ok(None),
        Err(other) => return Err(other.into()),
    };
    if !record.is_overdue(now) {
        return Ok(None);
    }
    let (log, notices) = match &mut record.phase {
        Phase::Playing(game) => {
            let late = game.turn();
            game.apply(late, Action::Timeout)
                .map_err(|e| GameError::internal(format!("timeout of game {game_id}: {e}")))?;
            let notices = after_play(&mut record, now, None);
            (Some((late, Action::Timeout, None)), notices)
        }
        _ => {
            // A setup never came: the game did not start, so nobody loses.
            record.phase = Phase::Aborted;
            record.deadline = None;
            (None, notices::game_aborted(&record, None))
        }
    };
    save(conn, &mut record, &names, now, log)?;
    let users = notices::record(conn, now, &notices)?;
    Ok(Some((record.version, users)))
}

/// Starts the deadline sweep: every `every`, end the games whose deadline
/// passed and forget expired idempotency keys; stops when `notifier`
/// closes.
pub fn spawn_sweep(ctx: Context, every: Duration) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every.max(Duration::from_secs(1)));
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if ctx.notifier.is_closed() {
                return;
            }
            let now = ctx.clock.now();
            match sweep_overdue(&ctx, now).await {
                Ok(0) => {}
                Ok(ended) => tracing::info!(ended, "overdue games ended"),
                Err(error) => tracing::warn!(%error, "deadline sweep failed"),
            }
            if let Err(error) = written::purge_idempotency_keys(&ctx.pool, now).await {
                tracing::warn!(%error, "purging idempotency keys failed");
            }
        }
    });
}
