//! How a stop (SIGTERM) shares its grace, `SHUTDOWN_GRACE_SECONDS`
//! (docs/deploy.md, "Restarts"): the HTTP server stops accepting at once
//! and lets the requests in flight finish; streams and long polls end at
//! once (with a reconnect hint); the outbox's pass in flight finishes or
//! hands its deliveries back; then the `LISTEN` thread sends what is still
//! waiting, and the process exits 0.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

/// The parts of one grace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StopBudget {
    /// Whole seconds the requests in flight may take (actix counts whole
    /// seconds).
    pub requests_seconds: u64,
    /// How long the outbox's pass in flight may go on after the stop
    /// began, before what it holds is handed back.
    pub hand_back_after: Duration,
    /// What is left after the HTTP server stopped, for the last
    /// announcements and the outbox's hand-back.
    pub after_requests: Duration,
}

impl StopBudget {
    /// The parts of a grace of `grace_seconds`: together they never take
    /// longer than the grace.
    pub fn of(grace_seconds: u64) -> Self {
        let grace = Duration::from_secs(grace_seconds);
        let after_requests = (grace / 4).min(Duration::from_secs(2));
        Self {
            requests_seconds: (grace - after_requests).as_secs(),
            hand_back_after: (grace / 2).min(Duration::from_secs(5)),
            after_requests,
        }
    }
}

/// Tells the background work that the HTTP server has stopped, so that
/// what waits for the requests in flight need wait no longer.
#[derive(Debug, Clone, Default)]
pub struct RequestsDone(Arc<Notify>);

impl RequestsDone {
    pub fn mark(&self) {
        self.0.notify_waiters();
        // A waiter that comes later finds the permit.
        self.0.notify_one();
    }

    pub async fn wait(&self) {
        self.0.notified().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_of_a_grace_fit_in_it() {
        for grace in [0, 1, 2, 3, 4, 5, 8, 10, 30, 3600] {
            let budget = StopBudget::of(grace);
            let whole = Duration::from_secs(grace);
            assert!(
                Duration::from_secs(budget.requests_seconds) + budget.after_requests <= whole,
                "{grace}: {budget:?}"
            );
            assert!(budget.hand_back_after <= whole, "{grace}: {budget:?}");
        }
        assert_eq!(
            StopBudget::of(30),
            StopBudget {
                requests_seconds: 28,
                hand_back_after: Duration::from_secs(5),
                after_requests: Duration::from_secs(2),
            }
        );
        assert_eq!(StopBudget::of(2).requests_seconds, 1);
    }
}
