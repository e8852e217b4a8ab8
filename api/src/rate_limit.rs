//! Fixed-window attempt limits, counted in the database so that every
//! server process shares them (SECURITY.md, "Rate limits"): N replicas
//! behind a load balancer allow what one allows, not N times as much.
//! One statement per attempt (`storage::rate_limits::hit`), driven by the
//! injected clock.

use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};

use crate::db::{self, DbPool, StoreError};
use crate::storage::rate_limits;
use crate::storage::{from_db_time, to_db_time};

#[derive(Debug)]
pub struct RateLimiter {
    /// Names this limit in the shared table (`login`, `register`).
    scope: &'static str,
    limit: u32,
    window: Duration,
}

impl RateLimiter {
    pub fn new(scope: &'static str, limit: u32, window: Duration) -> Self {
        Self {
            scope,
            limit: limit.max(1),
            window,
        }
    }

    /// Counts one attempt for `key` at `now`. `Ok(Err(seconds))` means the
    /// allowance is used up and tells when the window reopens.
    pub async fn hit(
        &self,
        pool: &DbPool,
        key: &str,
        now: DateTime<Utc>,
    ) -> Result<Result<(), u64>, StoreError> {
        // Stored as a digest: whatever a client sent (a name with a NUL,
        // any length) makes a short plain key, and no address or name is
        // kept in the table.
        let digest = Sha256::digest(key.as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let key = format!("{}|{hex}", self.scope);
        let expired_before = to_db_time(now - self.window);
        let counted = db::run_write(pool, move |conn| {
            Ok::<_, StoreError>(rate_limits::hit(
                conn,
                &key,
                to_db_time(now),
                expired_before,
            )?)
        })
        .await?;
        Ok(self.verdict(from_db_time(counted.started), counted.count, now))
    }

    /// Whether the attempt that made a window started at `started` hold
    /// `count` attempts is allowed at `now`; if not, in how many whole
    /// seconds the window reopens (at least 1).
    fn verdict(&self, started: DateTime<Utc>, count: i32, now: DateTime<Utc>) -> Result<(), u64> {
        if u32::try_from(count).unwrap_or(u32::MAX) <= self.limit {
            return Ok(());
        }
        let millis = (started + self.window - now).num_milliseconds().max(0);
        Err(u64::try_from((millis + 999) / 1000).unwrap_or(1).max(1))
    }
}

/// Forgets the windows over for a day or more (from the deadline sweep).
pub async fn prune(pool: &DbPool, now: DateTime<Utc>) -> Result<usize, StoreError> {
    let cutoff = to_db_time(now - Duration::days(1));
    db::run_write(pool, move |conn| {
        Ok::<_, StoreError>(rate_limits::prune(conn, cutoff)?)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_the_limit_then_refuses_until_the_window_ends() {
        let limiter = RateLimiter::new("test", 3, Duration::seconds(60));
        let t0 = DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default();
        for count in 1..=3 {
            assert_eq!(limiter.verdict(t0, count, t0), Ok(()));
        }
        assert_eq!(limiter.verdict(t0, 4, t0), Err(60));
        assert_eq!(limiter.verdict(t0, 5, t0 + Duration::seconds(45)), Err(15));
        assert_eq!(
            limiter.verdict(t0, 6, t0 + Duration::milliseconds(59_500)),
            Err(1)
        );
    }
}
