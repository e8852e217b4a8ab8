//! The background work of tournaments, in every process: starting those
//! whose start time has come, and pairing the next round (or ending the
//! tournament) when the last game of a round ended. It runs when a game
//! ends in this process (`games::Context::games_ended`) and at every
//! sweep interval (a game ended by another process, or a start time);
//! each step is one versioned write, so processes that run it at once
//! do each thing exactly once (`rounds`).

use std::time::Duration;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::commands::{change, forfeit};
use super::requests::MIN_PLAYERS;
use super::{rounds, TournamentError};
use crate::db;
use crate::games::{Caller, Context};
use crate::storage::to_db_time;
use crate::storage::tournaments as store;

/// Most tournaments one pass starts or advances of each kind.
const BATCH: i64 = 100;

/// Starts and advances what is due at `now`; returns how many tournaments
/// this call changed.
pub async fn sweep(ctx: &Context, now: DateTime<Utc>) -> Result<usize, TournamentError> {
    let (due, idle, unforfeited) = db::run_as(&ctx.pool, move |conn| {
        let min = i64::try_from(MIN_PLAYERS).unwrap_or(i64::MAX);
        Ok::<_, TournamentError>((
            store::due_to_start(conn, to_db_time(now), min, BATCH)?,
            store::running_and_idle(conn, BATCH)?,
            store::unforfeited(conn, BATCH)?,
        ))
    })
    .await?;
    // Forfeits a withdrawal left undone (the process stopped, the
    // database failed): before anything is paired.
    for (game, user, name) in unforfeited {
        if let (Ok(game), Ok(id)) = (Uuid::parse_str(&game), Uuid::parse_str(&user)) {
            let caller = Caller { id, name };
            let _ = forfeit(ctx, &caller, std::iter::once(game)).await;
        }
    }
    let mut changed = 0;
    // One tournament that cannot be started or advanced now (it is logged)
    // keeps no other waiting.
    for id in due.iter().filter_map(|id| Uuid::parse_str(id).ok()) {
        let started = change(ctx, id, |conn, loaded, now| {
            if loaded.row.status != store::status::OPEN {
                return Ok(rounds::Paired::default());
            }
            rounds::start(conn, loaded, now)
        })
        .await;
        match started {
            Ok(()) => changed += 1,
            Err(TournamentError::TooFewPlayers(_)) => {}
            Err(error) => tracing::warn!(%error, tournament = %id, "tournament not started"),
        }
    }
    for id in idle.iter().filter_map(|id| Uuid::parse_str(id).ok()) {
        let advanced = change(ctx, id, |conn, loaded, now| {
            Ok(rounds::advance(conn, loaded, now)?.unwrap_or_default())
        })
        .await;
        match advanced {
            Ok(()) => changed += 1,
            Err(error) => tracing::warn!(%error, tournament = %id, "tournament not advanced"),
        }
    }
    Ok(changed)
}

/// Runs [`sweep`] whenever a game ends in this process and at least every
/// `every`; stops when the notifier closes.
pub fn spawn(ctx: Context, every: Duration) {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = ctx.games_ended.notified() => {}
                () = tokio::time::sleep(every.max(Duration::from_secs(1))) => {}
            }
            if ctx.notifier.is_closed() {
                return;
            }
            crate::metrics::METRICS
                .sweeps
                .with_label_values(&["tournaments"])
                .inc();
            match sweep(&ctx, ctx.clock.now()).await {
                Ok(0) => {}
                Ok(changed) => tracing::info!(changed, "tournaments started or advanced"),
                Err(error) => tracing::warn!(%error, "tournament sweep failed"),
            }
        }
    });
}
