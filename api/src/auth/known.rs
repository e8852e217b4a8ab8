//! Accounts this process knows to exist, so that the access token of an
//! account that does not exist is refused on every endpoint (401) without
//! a database round trip for the accounts that do (docs/accounts.md,
//! "Access tokens of an account that does not exist").
//!
//! A signed token whose account is unknown here is checked once against
//! the database; a live account is then remembered. Registration, login and
//! a refresh remember their account at once. A deleted account is
//! forgotten by the process that deleted it; every other process refuses
//! its tokens already, because the deletion ended every one of its
//! sessions ([`super::sessions::EndedSessions`]).

use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard, PoisonError};

use uuid::Uuid;

/// At most this many accounts are remembered (16 bytes each, plus the
/// set's overhead: about 2 MiB when full). When full the set starts again,
/// each account costing one more read the next time it is seen.
pub const KNOWN_USERS_MAX: usize = 50_000;

#[derive(Debug, Default)]
pub struct KnownUsers {
    live: Mutex<HashSet<Uuid>>,
}

impl KnownUsers {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashSet<Uuid>> {
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether account `id` is known here to exist.
    pub fn contains(&self, id: Uuid) -> bool {
        self.lock().contains(&id)
    }

    /// Account `id` exists (it was just read, registered or logged in).
    pub fn remember(&self, id: Uuid) {
        let mut live = self.lock();
        if live.len() >= KNOWN_USERS_MAX {
            live.clear();
        }
        live.insert(id);
    }

    /// Account `id` was deleted.
    pub fn forget(&self, id: Uuid) {
        self.lock().remove(&id);
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_known_until_forgotten() {
        let known = KnownUsers::new();
        let (ann, bob) = (Uuid::new_v4(), Uuid::new_v4());
        known.remember(ann);
        assert!(known.contains(ann));
        assert!(!known.contains(bob));
        known.forget(ann);
        assert!(!known.contains(ann));
    }

    #[test]
    fn the_set_never_grows_past_its_bound() {
        let known = KnownUsers::new();
        for _ in 0..KNOWN_USERS_MAX {
            known.remember(Uuid::new_v4());
        }
        assert_eq!(known.len(), KNOWN_USERS_MAX);
        let last = Uuid::new_v4();
        known.remember(last);
        assert_eq!(known.len(), 1, "a full set starts again");
        assert!(known.contains(last));
    }
}
