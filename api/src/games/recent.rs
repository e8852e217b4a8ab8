//! The games this process read recently: the one cache of games
//! (docs/storage.md, "Games read recently"). An entry is one game at one
//! version, with the usernames it mentions, and holds what was made of
//! that read:
//!
//! - **the row**, for the next change of the game: a player reads the
//!   game, then moves, and the move is decided from this row and written
//!   with its version (`WHERE version = ...`) instead of reading the game
//!   again. The write matches only if the stored game is still at that
//!   version, and every column a decision reads changes only with the
//!   version, so a change written this way is exactly the change a fresh
//!   read would have made; a write that matched nothing, and any refusal,
//!   are decided again from a fresh read (`pipeline.rs`). The row serves
//!   for [`ROW_SERVES_SECONDS`] of the server's clock after its read, then
//!   no more: a move follows its read within seconds. A game that is over
//!   keeps no row (nothing changes it any more).
//! - **the encoded views**, one per seat (red, blue, and the spectators,
//!   who all see the same view), each sent again for a read of the same
//!   version from the same seat. A view is used only when the row just
//!   read has the entry's version and usernames, so the database stays the
//!   only truth and replicas never serve each other's stale views; nothing
//!   here decides what a viewer may see (the domain built the view an
//!   entry holds, for that seat).
//!
//! A newer version of a game replaces the older entry, never the reverse,
//! and every change through the write pipeline forgets what is older than
//! the version it wrote (the clock's included). Bounded by bytes: past
//! [`BUDGET_BYTES`], entries are dropped, any of them, until the new one
//! fits. Every lookup is counted, by what looked (a change or a view); the
//! deadline sweep logs the hit rates and `/metrics` exports them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use chrono::{DateTime, Duration, Utc};
use domain::Color;
use prometheus::IntCounter;
use uuid::Uuid;

use super::answers::Names;
use super::record::{GameRecord, Status};
use crate::clock::Clock;
use crate::metrics::METRICS;
use crate::storage::games::GameRow;

/// What all entries may hold together: 350-480 games in play with their
/// row and both players' views, or 550-750 with a row and one view (a row
/// is 1.5-2 KiB with its usernames and 3.5 KiB more with the game it
/// decodes to, a view with its legal moves 6-9 KiB). Rows and views share
/// it: views of games nobody moves in can push out the rows of games in
/// play, which are then read again.
pub const BUDGET_BYTES: usize = 8 * 1024 * 1024;

/// How long after its read a row serves a change, in seconds.
pub const ROW_SERVES_SECONDS: i64 = 60;

/// A game as read, with the usernames it mentions: what a change is
/// decided from.
#[derive(Debug)]
pub struct ReadGame {
    pub row: GameRow,
    pub names: Names,
    /// The row decoded, if the read decoded it (a read answered from a
    /// kept view did not): a change starts from a copy of it instead of
    /// decoding the row again.
    pub decoded: Option<GameRecord>,
}

/// How often lookups found what they looked for, so far.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// A change looking for its game's row: (hits, misses).
    pub changes: (u64, u64),
    /// A read looking for its seat's encoded view: (hits, misses).
    pub views: (u64, u64),
}

/// The cache; one per process, shared by all workers.
pub struct RecentGames {
    budget: usize,
    row_serves: Duration,
    clock: Arc<dyn Clock>,
    inner: Mutex<Inner>,
    changes: Lookups,
    views: Lookups,
}

struct Inner {
    entries: HashMap<Uuid, Entry>,
    bytes: usize,
}

/// One game at one version.
struct Entry {
    version: i64,
    names: Names,
    /// The row and when it was read.
    row: Option<(Arc<ReadGame>, DateTime<Utc>)>,
    /// Red's, Blue's and the spectators' encoded views, without clocks.
    views: [Option<Bytes>; 3],
    bytes: usize,
}

/// One kind of lookup's hits and misses: this cache's own (for the sweep's
/// log) and the process's `stratego_cache_lookups_total`, counted at once,
/// so that the process's counters are the sum over every cache it runs.
#[derive(Debug)]
struct Lookups {
    hits: AtomicU64,
    misses: AtomicU64,
    hit: IntCounter,
    miss: IntCounter,
}

impl Lookups {
    fn new(lookup: &str) -> Self {
        Lookups {
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            hit: METRICS.cache_lookups.with_label_values(&[lookup, "hit"]),
            miss: METRICS.cache_lookups.with_label_values(&[lookup, "miss"]),
        }
    }

    fn count<T>(&self, found: Option<T>) -> Option<T> {
        let (counter, metric) = if found.is_some() {
            (&self.hits, &self.hit)
        } else {
            (&self.misses, &self.miss)
        };
        counter.fetch_add(1, Ordering::Relaxed);
        metric.inc();
        found
    }

    fn counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }
}

impl RecentGames {
    /// A cache of at most `budget` bytes (0: nothing is kept), whose rows
    /// age by `clock`.
    pub fn new(budget: usize, clock: Arc<dyn Clock>) -> Self {
        RecentGames {
            budget,
            row_serves: Duration::seconds(ROW_SERVES_SECONDS),
            clock,
            inner: Mutex::new(Inner {
                entries: HashMap::new(),
                bytes: 0,
            }),
            changes: Lookups::new("change"),
            views: Lookups::new("view"),
        }
    }

    /// `None` only if another thread panicked while holding the lock: the
    /// cache is then of no more use, and every call does nothing.
    fn lock(&self) -> Option<MutexGuard<'_, Inner>> {
        self.inner.lock().ok()
    }

    /// Game `id`'s row, if one is kept and still serves (not counted: for
    /// tests and diagnostics).
    pub fn game(&self, id: Uuid) -> Option<Arc<ReadGame>> {
        let inner = self.lock()?;
        let (game, read_at) = inner.entries.get(&id)?.row.as_ref()?;
        self.serves(*read_at).then(|| game.clone())
    }

    /// Game `id`'s row for a change, if one is kept and still serves; kept
    /// no longer either way (the change's write makes it stale). The views
    /// stay: a refused change leaves the game as it was.
    pub fn take_game(&self, id: Uuid) -> Option<Arc<ReadGame>> {
        let taken = self.lock().and_then(|mut inner| {
            let entry = inner.entries.get_mut(&id)?;
            let (game, read_at) = entry.row.take()?;
            let before = entry.bytes;
            entry.bytes = entry.measure();
            let (freed, empty) = (before - entry.bytes, entry.is_empty());
            inner.shrink(freed);
            if empty {
                inner.remove(&id);
            }
            Some((game, read_at))
        });
        let found = taken.and_then(|(game, read_at)| self.serves(read_at).then_some(game));
        self.changes.count(found)
    }

    fn serves(&self, read_at: DateTime<Utc>) -> bool {
        self.clock.now() - read_at < self.row_serves
    }

    /// Keeps `row` (game `id`) with `names` for the next change, unless a
    /// newer version of the game is kept already; of a game that is over,
    /// only what is older is forgotten. `decoded`: the game `row` decodes
    /// to, if the caller decoded it (`GameRecord::from_row(&row)`, nothing
    /// else).
    pub fn keep_game(&self, id: Uuid, row: GameRow, names: Names, decoded: Option<GameRecord>) {
        let over = matches!(
            Status::parse(&row.status),
            Some(Status::Finished | Status::Aborted) | None
        );
        let version = row.version;
        let read_at = self.clock.now();
        let shown = names.clone();
        self.change(id, version, &shown, move |entry| {
            entry.row = (!over).then(|| {
                let read = ReadGame {
                    row,
                    names,
                    decoded,
                };
                (Arc::new(read), read_at)
            });
        });
    }

    /// The encoded view of `game` at `version` from `seat`, if it is kept
    /// and the usernames it shows are still `names`.
    pub fn view(
        &self,
        game: Uuid,
        seat: Option<Color>,
        version: i64,
        names: &Names,
    ) -> Option<Bytes> {
        let found = self.lock().and_then(|inner| {
            let entry = inner.entries.get(&game)?;
            if entry.version != version || entry.names != *names {
                return None;
            }
            entry.views[seat_index(seat)].clone()
        });
        self.views.count(found)
    }

    /// Keeps `body`, the encoded view of `game` at `version` from `seat`
    /// showing `names`, unless a newer version of the game is kept.
    pub fn keep_view(
        &self,
        game: Uuid,
        seat: Option<Color>,
        version: i64,
        names: &Names,
        body: Bytes,
    ) {
        self.change(game, version, names, move |entry| {
            entry.views[seat_index(seat)] = Some(body);
        });
    }

    /// Forgets game `id` if what is kept of it is older than `version`
    /// (the game reached `version`, so a change decided from the entry
    /// could only lose its race, and its views are no longer the game's).
    pub fn forget_before(&self, id: Uuid, version: i64) {
        if let Some(mut inner) = self.lock() {
            if inner.entries.get(&id).is_some_and(|e| e.version < version) {
                inner.remove(&id);
            }
        }
    }

    /// The lookups so far.
    pub fn counts(&self) -> Counts {
        Counts {
            changes: self.changes.counts(),
            views: self.views.counts(),
        }
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.lock().map_or(0, |inner| inner.bytes)
    }

    /// Applies `fill` to the entry of game `id` at `version` showing
    /// `names`: the one kept if it is that, else a new one (replacing an
    /// older version, or the same version with other usernames). Does
    /// nothing if a newer version is kept; keeps nothing that is empty or
    /// larger than the whole budget.
    fn change(&self, id: Uuid, version: i64, names: &Names, fill: impl FnOnce(&mut Entry)) {
        let Some(mut inner) = self.lock() else {
            return;
        };
        let mut entry = match inner.remove(&id) {
            Some(kept) if kept.version > version => {
                inner.insert(id, kept);
                return;
            }
            Some(kept) if kept.version == version && kept.names == *names => kept,
            _ => Entry {
                version,
                names: names.clone(),
                row: None,
                views: [None, None, None],
                bytes: 0,
            },
        };
        fill(&mut entry);
        entry.bytes = entry.measure();
        if entry.is_empty() || entry.bytes > self.budget {
            return;
        }
        while inner.bytes + entry.bytes > self.budget {
            let Some(victim) = inner.entries.keys().next().copied() else {
                break;
            };
            inner.remove(&victim);
        }
        inner.insert(id, entry);
    }
}

impl Inner {
    fn remove(&mut self, id: &Uuid) -> Option<Entry> {
        let entry = self.entries.remove(id)?;
        self.shrink(entry.bytes);
        Some(entry)
    }

    fn insert(&mut self, id: Uuid, entry: Entry) {
        self.bytes += entry.bytes;
        METRICS.cache_bytes.add(gauge(entry.bytes));
        self.entries.insert(id, entry);
    }

    /// The bytes held, here and in `stratego_cache_bytes` (the sum over
    /// every cache of the process).
    fn shrink(&mut self, freed: usize) {
        self.bytes -= freed;
        METRICS.cache_bytes.sub(gauge(freed));
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        METRICS.cache_bytes.sub(gauge(self.bytes));
    }
}

fn gauge(bytes: usize) -> i64 {
    i64::try_from(bytes).unwrap_or(i64::MAX)
}

impl Entry {
    fn is_empty(&self) -> bool {
        self.row.is_none() && self.views.iter().all(Option::is_none)
    }

    /// What the entry holds, about: its texts and a fixed share for the
    /// rest.
    fn measure(&self) -> usize {
        const FIXED: usize = 256;
        let names: usize = self.names.values().map(|n| n.len() + 48).sum();
        let row = self.row.as_ref().map_or(0, |(game, _)| {
            row_bytes(&game.row) + decoded_bytes(&game.decoded)
        });
        let views: usize = self.views.iter().flatten().map(Bytes::len).sum();
        FIXED + names + row + views
    }
}

/// The texts of a row, about.
fn row_bytes(row: &GameRow) -> usize {
    let texts = [
        Some(&row.id),
        Some(&row.variant),
        Some(&row.rules),
        Some(&row.status),
        Some(&row.creator_id),
        row.red_user_id.as_ref(),
        row.blue_user_id.as_ref(),
        row.challenged_user_id.as_ref(),
        row.red_setup.as_ref(),
        row.blue_setup.as_ref(),
        row.state.as_ref(),
        row.turn.as_ref(),
        row.draw_offer.as_ref(),
        row.result_winner.as_ref(),
        row.result_reason.as_ref(),
        row.time_control.as_ref(),
        row.clocks.as_ref(),
    ];
    texts.into_iter().flatten().map(String::len).sum()
}

/// A decoded game, about: the record, its game in play (boxed) and its
/// setups' pieces.
fn decoded_bytes(decoded: &Option<GameRecord>) -> usize {
    decoded.as_ref().map_or(0, |record| {
        let pieces: usize = [Color::Red, Color::Blue]
            .into_iter()
            .filter_map(|color| record.setups.get(color))
            .map(|setup| std::mem::size_of_val(setup.pieces()))
            .sum();
        let game = record.game().map_or(0, std::mem::size_of_val);
        std::mem::size_of::<GameRecord>() + game + pieces
    })
}

const fn seat_index(seat: Option<Color>) -> usize {
    match seat {
        Some(Color::Red) => 0,
        Some(Color::Blue) => 1,
        None => 2,
    }
}

#[cfg(test)]
#[path = "recent_tests.rs"]
mod tests;
