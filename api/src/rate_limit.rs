//! A fixed-window attempt counter, in memory, driven by the injected clock.
//!
//! Each server replica counts on its own, so behind a load balancer with N
//! replicas an attacker gets at most N times the configured allowance: still
//! a hard bound on guessing speed.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, Duration, Utc};

/// Past this many keys, expired windows are swept out on the next hit.
const SWEEP_THRESHOLD: usize = 10_000;

#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window: Duration,
    windows: Mutex<HashMap<String, Window>>,
}

#[derive(Debug, Clone, Copy)]
struct Window {
    started: DateTime<Utc>,
    count: u32,
}

impl RateLimiter {
    pub fn new(limit: u32, window: Duration) -> Self {
        Self {
            limit: limit.max(1),
            window,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one attempt for `key` at `now`. `Err(seconds)` means the
    /// allowance is used up and tells when the window reopens.
    pub fn hit(&self, key: &str, now: DateTime<Utc>) -> Result<(), u64> {
        let mut windows = self.windows.lock().unwrap_or_else(PoisonError::into_inner);
        if windows.len() >= SWEEP_THRESHOLD {
            let window = self.window;
            windows.retain(|_, w| now < w.started + window);
        }
        let entry = windows.entry(key.to_owned()).or_insert(Window {
            started: now,
            count: 0,
        });
        if now >= entry.started + self.window {
            *entry = Window {
                started: now,
                count: 0,
            };
        }
        if entry.count >= self.limit {
            let reopens = entry.started + self.window - now;
            let millis = reopens.num_milliseconds().max(0);
            let seconds = u64::try_from((millis + 999) / 1000).unwrap_or(1).max(1);
            return Err(seconds);
        }
        entry.count += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_the_limit_then_refuses_until_the_window_ends() {
        let limiter = RateLimiter::new(3, Duration::seconds(60));
        let t0 = DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default();
        for _ in 0..3 {
            assert_eq!(limiter.hit("ip:1", t0), Ok(()));
        }
        assert_eq!(limiter.hit("ip:1", t0), Err(60));
        assert_eq!(limiter.hit("ip:1", t0 + Duration::seconds(45)), Err(15));
        assert_eq!(
            limiter.hit("ip:1", t0 + Duration::milliseconds(59_500)),
            Err(1)
        );
        // other keys are independent
        assert_eq!(limiter.hit("ip:2", t0), Ok(()));
        // a new window
        assert_eq!(limiter.hit("ip:1", t0 + Duration::seconds(60)), Ok(()));
    }

    #[test]
    fn sweeps_expired_windows() {
        let limiter = RateLimiter::new(1, Duration::seconds(1));
        let t0 = DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default();
        for i in 0..SWEEP_THRESHOLD {
            let _ = limiter.hit(&format!("k{i}"), t0);
        }
        let _ = limiter.hit("late", t0 + Duration::seconds(5));
        let size = limiter.windows.lock().map(|w| w.len()).unwrap_or(0);
        assert_eq!(size, 1);
    }
}
