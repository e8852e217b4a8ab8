//! A map bounded by bytes, with one versioned entry a key: what the kept
//! games (`kept.rs`) and the kept views (`view_cache.rs`) share.
//!
//! A newer version of a key replaces an older one, never the reverse.
//! Past the budget, entries are dropped, any of them, until the new one
//! fits; one larger than the whole budget is not kept (and the older
//! version of its key, now stale, is dropped).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// How often a cache was asked and had what was asked for: its hit rate,
/// logged by the deadline sweep (`games::clock`).
#[derive(Debug, Default)]
pub struct Lookups {
    hits: AtomicU64,
    misses: AtomicU64,
}

impl Lookups {
    /// Counts one lookup; passes `found` on.
    pub fn count<T>(&self, found: Option<T>) -> Option<T> {
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Hits and misses so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }
}

pub struct Bounded<K, V> {
    budget: usize,
    inner: Mutex<Inner<K, V>>,
}

struct Inner<K, V> {
    entries: HashMap<K, Slot<V>>,
    bytes: usize,
}

struct Slot<V> {
    version: i64,
    bytes: usize,
    value: V,
}

impl<K: Hash + Eq + Copy, V> Bounded<K, V> {
    /// At most `budget` bytes together (0: nothing is kept).
    pub fn new(budget: usize) -> Self {
        Bounded {
            budget,
            inner: Mutex::new(Inner {
                entries: HashMap::new(),
                bytes: 0,
            }),
        }
    }

    /// `None` only if another thread panicked while holding the lock: the
    /// map is then of no more use, and every call does nothing.
    fn lock(&self) -> Option<MutexGuard<'_, Inner<K, V>>> {
        self.inner.lock().ok()
    }

    /// What `read` makes of the entry of `key` and its version, if any.
    pub fn read<R>(&self, key: &K, read: impl FnOnce(i64, &V) -> Option<R>) -> Option<R> {
        let inner = self.lock()?;
        let slot = inner.entries.get(key)?;
        read(slot.version, &slot.value)
    }

    /// The entry of `key`, kept no longer.
    pub fn take(&self, key: &K) -> Option<V> {
        self.lock()?.remove(key)
    }

    /// Keeps `value` (of `bytes` bytes) as `key` at `version`, unless a
    /// newer version of `key` is kept already.
    pub fn put(&self, key: K, version: i64, bytes: usize, value: V) {
        let Some(mut inner) = self.lock() else {
            return;
        };
        if !inner.drop_up_to(&key, version) || bytes > self.budget {
            return;
        }
        while inner.bytes + bytes > self.budget {
            let Some(victim) = inner.entries.keys().next().copied() else {
                break;
            };
            inner.remove(&victim);
        }
        inner.bytes += bytes;
        let slot = Slot {
            version,
            bytes,
            value,
        };
        inner.entries.insert(key, slot);
    }

    /// Drops the entry of `key` if its version is at most `version`.
    pub fn forget_up_to(&self, key: &K, version: i64) {
        if let Some(mut inner) = self.lock() {
            inner.drop_up_to(key, version);
        }
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.lock().map_or(0, |inner| inner.bytes)
    }
}

impl<K: Hash + Eq, V> Inner<K, V> {
    fn remove(&mut self, key: &K) -> Option<V> {
        let slot = self.entries.remove(key)?;
        self.bytes -= slot.bytes;
        Some(slot.value)
    }

    /// Drops the entry of `key` unless it is newer than `version`;
    /// `false`: a newer one is kept.
    fn drop_up_to(&mut self, key: &K, version: i64) -> bool {
        match self.entries.get(key) {
            Some(slot) if slot.version > version => false,
            Some(_) => {
                self.remove(key);
                true
            }
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_version_replaces_an_older_one_never_the_reverse() {
        let map = Bounded::new(100);
        map.put(1, 5, 10, "five");
        map.put(1, 4, 10, "four");
        assert_eq!(map.read(&1, |v, s| Some((v, *s))), Some((5, "five")));
        map.put(1, 6, 20, "six");
        assert_eq!(map.read(&1, |v, s| Some((v, *s))), Some((6, "six")));
        assert_eq!(map.bytes(), 20);
        map.forget_up_to(&1, 5);
        assert_eq!(map.bytes(), 20, "a newer entry stays");
        map.forget_up_to(&1, 6);
        assert_eq!(map.bytes(), 0);
        assert!(map.read(&1, |_, s| Some(*s)).is_none());
    }

    #[test]
    fn the_budget_bounds_what_is_held() {
        let map = Bounded::new(30);
        for key in 0..10 {
            map.put(key, 1, 10, key);
            assert!(map.bytes() <= 30, "{} bytes held", map.bytes());
        }
        assert_eq!(map.bytes(), 30);
        // Too big to keep at all: nothing else is dropped for it, but the
        // older version of its own key is.
        let map = Bounded::new(30);
        for key in 1..=3 {
            map.put(key, 1, 10, key);
        }
        map.put(3, 2, 31, 33);
        assert_eq!(map.bytes(), 20);
        assert!(map.read(&3, |_, v| Some(*v)).is_none());
        assert_eq!(map.take(&2), Some(2));
        assert_eq!(map.bytes(), 10);
        let none = Bounded::new(0);
        none.put(1, 1, 1, "one");
        assert!(none.read(&1, |_, v| Some(*v)).is_none());
    }
}
