//! The one source of "now" for the whole service.
//!
//! Every time-dependent decision (token expiry, rate-limit windows, move
//! deadlines) asks the [`Clock`] in the application state instead of the
//! system time, so tests can move time forward without sleeping.

use std::fmt::Debug;
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, Duration, Utc};

/// A source of the current time.
pub trait Clock: Send + Sync + Debug + 'static {
    fn now(&self) -> DateTime<Utc>;
}

/// The real wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that only moves when told to. Share it as `Arc<ManualClock>`:
/// one handle goes into the server, the test keeps the other.
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<DateTime<Utc>>,
}

impl ManualClock {
    pub fn new(start: DateTime<Utc>) -> Arc<Self> {
        Arc::new(Self {
            now: Mutex::new(start),
        })
    }

    /// Starts at the current wall-clock time, truncated to whole seconds so
    /// that timestamps round-trip exactly through every storage backend.
    pub fn starting_now() -> Arc<Self> {
        let now = Utc::now();
        let whole = DateTime::from_timestamp(now.timestamp(), 0).unwrap_or(now);
        Self::new(whole)
    }

    pub fn set(&self, to: DateTime<Utc>) {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner) = to;
    }

    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(PoisonError::into_inner);
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_when_told() {
        let clock = ManualClock::starting_now();
        let start = clock.now();
        assert_eq!(clock.now(), start);
        clock.advance(Duration::seconds(90));
        assert_eq!(clock.now(), start + Duration::seconds(90));
        let later = start + Duration::days(3);
        clock.set(later);
        assert_eq!(clock.now(), later);
    }

    #[test]
    fn shared_handle_sees_the_same_time() {
        let clock = ManualClock::starting_now();
        let as_trait: Arc<dyn Clock> = clock.clone();
        clock.advance(Duration::minutes(5));
        assert_eq!(as_trait.now(), clock.now());
    }
}
