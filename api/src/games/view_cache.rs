//! The encoded views this process has sent, kept for the next read of the
//! same game at the same version from the same seat (docs/storage.md,
//! "Views kept in memory").
//!
//! A view is a function of the stored game, the usernames it mentions and
//! the viewer's seat (red, blue, or a spectator: every non-player sees the
//! same view). An entry is therefore used only when the row just read has
//! the entry's version and the usernames just read are the entry's: the
//! database stays the only truth, so replicas never serve each other's
//! stale views, and nothing here decides what a viewer may see (the domain
//! built the view the entry holds, for that seat).
//!
//! Bounded by bytes ([`BUDGET_BYTES`], `bounded.rs`). A game has at most
//! three entries (one per seat); a newer version replaces the older.

use bytes::Bytes;
use domain::Color;
use uuid::Uuid;

use super::answers::Names;
use super::bounded::{Bounded, Lookups};

/// What all entries may hold together: about 500 views of a game in play
/// (a view with its legal moves is 6-9 KiB).
pub const BUDGET_BYTES: usize = 4 * 1024 * 1024;

/// One seat's view of one game.
type Key = (Uuid, Option<Color>);

struct Entry {
    names: Names,
    body: Bytes,
}

/// The cache; one per process, shared by all workers.
pub struct ViewCache {
    entries: Bounded<Key, Entry>,
    lookups: Lookups,
}

impl Default for ViewCache {
    fn default() -> Self {
        ViewCache::with_budget(BUDGET_BYTES)
    }
}

impl ViewCache {
    /// A cache that holds at most `budget` bytes of views (0: none).
    pub fn with_budget(budget: usize) -> Self {
        ViewCache {
            entries: Bounded::new(budget),
            lookups: Lookups::default(),
        }
    }

    /// The view of `game` at `version` from `seat`, if it was kept and the
    /// usernames it shows are still `names`.
    pub fn get(
        &self,
        game: Uuid,
        seat: Option<Color>,
        version: i64,
        names: &Names,
    ) -> Option<Bytes> {
        let found = self.entries.read(&(game, seat), |kept, entry| {
            (kept == version && entry.names == *names).then(|| entry.body.clone())
        });
        self.lookups.count(found)
    }

    /// How often a view was asked for and found.
    pub fn lookups(&self) -> &Lookups {
        &self.lookups
    }

    /// Keeps `body`, the view of `game` at `version` from `seat` showing
    /// `names`, unless a newer version of it is kept already.
    pub fn put(&self, game: Uuid, seat: Option<Color>, version: i64, names: &Names, body: Bytes) {
        let bytes = body.len();
        let entry = Entry {
            names: names.clone(),
            body,
        };
        self.entries.put((game, seat), version, bytes, entry);
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.entries.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(pairs: &[(Uuid, &str)]) -> Names {
        pairs.iter().map(|(id, n)| (*id, (*n).to_owned())).collect()
    }

    #[test]
    fn an_entry_serves_only_its_seat_version_and_names() {
        let cache = ViewCache::with_budget(1024);
        let (game, ana) = (Uuid::new_v4(), Uuid::new_v4());
        let shown = names(&[(ana, "ana")]);
        cache.put(
            game,
            Some(Color::Red),
            7,
            &shown,
            Bytes::from_static(b"red at 7"),
        );
        let hit = cache.get(game, Some(Color::Red), 7, &shown);
        assert_eq!(hit.as_deref(), Some(&b"red at 7"[..]));
        // Another seat, another version, another game, a renamed user.
        assert!(cache.get(game, Some(Color::Blue), 7, &shown).is_none());
        assert!(cache.get(game, None, 7, &shown).is_none());
        assert!(cache.get(game, Some(Color::Red), 8, &shown).is_none());
        assert!(cache
            .get(Uuid::new_v4(), Some(Color::Red), 7, &shown)
            .is_none());
        let renamed = names(&[(ana, "ana2")]);
        assert!(cache.get(game, Some(Color::Red), 7, &renamed).is_none());
    }

    #[test]
    fn a_newer_version_replaces_an_older_one_and_never_the_reverse() {
        let cache = ViewCache::with_budget(1024);
        let game = Uuid::new_v4();
        let shown = Names::new();
        cache.put(game, None, 3, &shown, Bytes::from_static(b"three"));
        cache.put(game, None, 4, &shown, Bytes::from_static(b"four"));
        cache.put(game, None, 3, &shown, Bytes::from_static(b"three again"));
        assert!(cache.get(game, None, 3, &shown).is_none());
        assert_eq!(
            cache.get(game, None, 4, &shown).as_deref(),
            Some(&b"four"[..])
        );
        assert_eq!(cache.bytes(), 4);
    }

    #[test]
    fn the_budget_bounds_what_is_held() {
        let cache = ViewCache::with_budget(100);
        let shown = Names::new();
        for version in 0..50 {
            cache.put(
                Uuid::new_v4(),
                None,
                version,
                &shown,
                Bytes::from(vec![b'x'; 30]),
            );
            assert!(cache.bytes() <= 100, "{} bytes held", cache.bytes());
        }
        assert_eq!(cache.bytes(), 90);
        // Too big to keep at all; nothing else is dropped for it.
        cache.put(
            Uuid::new_v4(),
            None,
            1,
            &shown,
            Bytes::from(vec![b'x'; 101]),
        );
        assert_eq!(cache.bytes(), 90);
        // No budget: nothing is kept.
        let none = ViewCache::with_budget(0);
        let game = Uuid::new_v4();
        none.put(game, None, 1, &shown, Bytes::from_static(b"x"));
        assert!(none.get(game, None, 1, &shown).is_none());
    }
}
