//! Ended sessions, held in memory, so that refusing the access tokens of a
//! session that was logged out costs no database round trip
//! (docs/accounts.md).
//!
//! A session is one login: its refresh tokens share a family id, and every
//! access token issued for it carries that id as `sid`. When a session ends
//! (logout, logout everywhere, a password change, account deletion, a
//! reused refresh token) its id is kept here for one access-token
//! lifetime: after that, every access token of the session has expired on
//! its own. Other processes learn of it through the notification channel
//! (`events::announce_session_ended`), and every process reads the recently
//! ended sessions from the database when it starts and whenever its
//! notification connection was re-established.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use crate::clock::Clock;

/// Below this many entries, expired ones are not swept.
const SWEEP_FLOOR: usize = 1024;

#[derive(Debug)]
pub struct EndedSessions {
    inner: Mutex<Inner>,
    access_ttl: Duration,
    clock: Arc<dyn Clock>,
}

#[derive(Debug)]
struct Inner {
    /// Session id -> until when its access tokens could still be live.
    until: HashMap<Uuid, DateTime<Utc>>,
    /// Expired entries are swept when the map reaches this size.
    sweep_at: usize,
}

impl EndedSessions {
    pub fn new(access_ttl: Duration, clock: Arc<dyn Clock>) -> Self {
        Self {
            inner: Mutex::new(Inner {
                until: HashMap::new(),
                sweep_at: SWEEP_FLOOR,
            }),
            access_ttl,
            clock,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How far back an ended session still matters: tokens issued before
    /// that have expired.
    pub fn horizon(&self) -> DateTime<Utc> {
        self.clock.now() - self.access_ttl
    }

    /// Session `sid` ended at `at`.
    pub fn end(&self, sid: Uuid, at: DateTime<Utc>) {
        let until = at + self.access_ttl;
        let now = self.clock.now();
        if until <= now {
            return;
        }
        let mut inner = self.lock();
        let entry = inner.until.entry(sid).or_insert(until);
        *entry = (*entry).max(until);
        if inner.until.len() >= inner.sweep_at {
            inner.until.retain(|_, until| *until > now);
            inner.sweep_at = (inner.until.len() * 2).max(SWEEP_FLOOR);
        }
    }

    /// Session `sid` ended just now.
    pub fn end_now(&self, sid: Uuid) {
        self.end(sid, self.clock.now());
    }

    /// Whether an access token of session `sid` must be refused.
    pub fn has_ended(&self, sid: Uuid) -> bool {
        let now = self.clock.now();
        self.lock()
            .until
            .get(&sid)
            .is_some_and(|until| *until > now)
    }

    /// How many ended sessions are held (expired ones may linger until the
    /// next sweep).
    pub fn len(&self) -> usize {
        self.lock().until.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    #[test]
    fn an_ended_session_is_refused_for_one_token_lifetime() {
        let clock = ManualClock::starting_now();
        let ended = EndedSessions::new(Duration::minutes(15), clock.clone());
        let (sid, other) = (Uuid::new_v4(), Uuid::new_v4());
        ended.end_now(sid);
        assert!(ended.has_ended(sid));
        assert!(!ended.has_ended(other));
        clock.advance(Duration::minutes(15) - Duration::seconds(1));
        assert!(ended.has_ended(sid));
        clock.advance(Duration::seconds(1));
        assert!(!ended.has_ended(sid), "its tokens have all expired by now");
    }

    #[test]
    fn sessions_that_ended_long_ago_are_not_kept() {
        let clock = ManualClock::starting_now();
        let ended = EndedSessions::new(Duration::minutes(15), clock.clone());
        ended.end(Uuid::new_v4(), clock.now() - Duration::minutes(20));
        assert!(ended.is_empty());
    }

    #[test]
    fn expired_entries_are_swept_so_memory_stays_bounded() {
        let clock = ManualClock::starting_now();
        let ended = EndedSessions::new(Duration::minutes(15), clock.clone());
        for _ in 0..SWEEP_FLOOR - 1 {
            ended.end_now(Uuid::new_v4());
        }
        clock.advance(Duration::minutes(16));
        let live = Uuid::new_v4();
        ended.end_now(live);
        assert_eq!(ended.len(), 1, "the expired ones were swept");
        assert!(ended.has_ended(live));
    }
}
