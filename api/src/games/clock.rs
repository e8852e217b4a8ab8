//! The correspondence clock (docs/lifecycle.md): a game whose deadline has
//! passed ends, as a timeout loss for the player to move, or `aborted` when
//! a setup never came. Every read and write of a game decides it from the
//! row it loaded and calls [`expire`] when the deadline has passed, so no
//! answer depends on when the sweep last ran; [`sweep_overdue`]
//! ends every overdue game, from a background task in every process (each
//! game is ended by exactly one versioned write, whoever gets there first).

use std::time::Duration;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::decide::Command;
use super::error::GameError;
use super::pipeline::{self, Actor, Request};
use super::recent::Counts;
use super::written;
use super::{vacation, Context};
use crate::db;
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
            if expire(ctx, id).await? {
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

/// Ends one overdue game through the write pipeline, as any change;
/// `false` if it was not (or no longer) overdue, or is gone, or the
/// player whose clock ran out went on automatic vacation instead
/// (docs/lifecycle.md, "Vacation").
pub async fn expire(ctx: &Context, game_id: Uuid) -> Result<bool, GameError> {
    if vacation::instead_of_timeout(ctx, game_id).await? {
        return Ok(false);
    }
    let request = Request {
        game_id,
        actor: Actor::Clock,
        precondition: None,
        idempotency: None,
        command: Command::TimeOut,
    };
    match pipeline::run(ctx, request).await {
        Ok(_) => Ok(true),
        Err(GameError::WrongPhase(_) | GameError::NotFound | GameError::KeptChanging) => Ok(false),
        Err(other) => Err(other),
    }
}

/// Starts the deadline sweep: every `every`, end the games whose deadline
/// passed, forget expired idempotency keys and log how the caches of
/// games served since the last tick; stops when `notifier` closes.
pub fn spawn_sweep(ctx: Context, every: Duration) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every.max(Duration::from_secs(1)));
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last = CacheCounts::default();
        loop {
            ticks.tick().await;
            if ctx.notifier.is_closed() {
                return;
            }
            let now = ctx.clock.now();
            crate::metrics::METRICS
                .sweeps
                .with_label_values(&["deadlines"])
                .inc();
            match vacation::sweep(&ctx, now).await {
                Ok(0) => {}
                Ok(ended) => tracing::info!(ended, "vacations over ended"),
                Err(error) => tracing::warn!(%error, "vacation sweep failed"),
            }
            match sweep_overdue(&ctx, now).await {
                Ok(0) => {}
                Ok(ended) => tracing::info!(ended, "overdue games ended"),
                Err(error) => tracing::warn!(%error, "deadline sweep failed"),
            }
            if let Err(error) = written::purge_idempotency_keys(&ctx.pool, now).await {
                tracing::warn!(%error, "purging idempotency keys failed");
            }
            if let Err(error) = crate::rate_limit::prune(&ctx.pool, now).await {
                tracing::warn!(%error, "pruning old rate-limit windows failed");
            }
            last = CacheCounts::of(&ctx).log_since(last, &ctx);
        }
    });
}

/// The lookups of the recent games so far (`recent`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct CacheCounts(Counts);

impl CacheCounts {
    fn of(ctx: &Context) -> CacheCounts {
        CacheCounts(ctx.recent.counts())
    }

    /// Logs the hits and misses since `before`, if there were any, with
    /// the bytes the cache holds; returns `self` for the next time.
    fn log_since(self, before: CacheCounts, ctx: &Context) -> CacheCounts {
        if self != before {
            let (change_hits, change_misses) = since(self.0.changes, before.0.changes);
            let (view_hits, view_misses) = since(self.0.views, before.0.views);
            tracing::info!(
                change_hits,
                change_misses,
                change_hit_percent = percent(change_hits, change_misses),
                view_hits,
                view_misses,
                view_hit_percent = percent(view_hits, view_misses),
                bytes = ctx.recent.bytes(),
                "recent games since the last sweep"
            );
        }
        self
    }
}

fn since(now: (u64, u64), before: (u64, u64)) -> (u64, u64) {
    (
        now.0.saturating_sub(before.0),
        now.1.saturating_sub(before.1),
    )
}

/// `hits` in percent of all lookups (0 with none).
fn percent(hits: u64, misses: u64) -> u64 {
    (hits * 100).checked_div(hits + misses).unwrap_or(0)
}
