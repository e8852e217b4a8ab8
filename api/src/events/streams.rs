//! The per-user cap on open streams (Server-Sent Events), so that one
//! account cannot hold an unbounded number of connections and their memory.
//! Counted per server process.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use uuid::Uuid;

/// Counts open streams per user.
#[derive(Debug)]
pub struct StreamLimiter {
    max_per_user: usize,
    open: Mutex<HashMap<Uuid, usize>>,
}

/// One open stream; the count goes down when it is dropped (the stream
/// ended or the client went away).
#[derive(Debug)]
pub struct StreamPermit {
    limiter: Arc<StreamLimiter>,
    user_id: Uuid,
}

impl StreamLimiter {
    pub fn new(max_per_user: usize) -> Self {
        Self {
            max_per_user,
            open: Mutex::new(HashMap::new()),
        }
    }

    pub fn max_per_user(&self) -> usize {
        self.max_per_user
    }

    /// A permit for one more stream of `user_id`, or `None` at the cap.
    pub fn try_open(self: &Arc<Self>, user_id: Uuid) -> Option<StreamPermit> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(user_id).or_insert(0);
        if *count >= self.max_per_user {
            if *count == 0 {
                open.remove(&user_id);
            }
            return None;
        }
        *count += 1;
        Some(StreamPermit {
            limiter: self.clone(),
            user_id,
        })
    }

    /// Streams open now, everyone's.
    pub fn open_total(&self) -> usize {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.values().sum()
    }

    /// Streams open for `user_id` now.
    pub fn open_for(&self, user_id: Uuid) -> usize {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.get(&user_id).copied().unwrap_or(0)
    }
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut open = self
            .limiter
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.user_id) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.user_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_holds_and_permits_give_back() {
        let limiter = Arc::new(StreamLimiter::new(2));
        let user = Uuid::new_v4();
        let first = limiter.try_open(user);
        let second = limiter.try_open(user);
        assert!(first.is_some() && second.is_some());
        assert!(limiter.try_open(user).is_none());
        assert!(limiter.try_open(Uuid::new_v4()).is_some());
        drop(first);
        assert_eq!(limiter.open_for(user), 1);
        assert!(limiter.try_open(user).is_some());
    }
}
