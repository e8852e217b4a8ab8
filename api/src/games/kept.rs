//! The games this process has just read, kept for the next change of the
//! same game (docs/storage.md, "A change decided from the game just
//! read").
//!
//! A player reads the game, then moves: the move would read the same row
//! again. Instead, a change is first decided from the row kept here and
//! written with the version it was read at (`WHERE version = ...`). The
//! write matches only if the stored game is still at that version, and
//! every column a decision reads changes only with the version, so a
//! change written this way is exactly the change a fresh read would have
//! made. Anything else falls back to reading the game: a write that
//! matched nothing (someone changed the game since, in this process or
//! another), and any refusal, which is only ever decided on a fresh read.
//! The database stays the only truth; an entry that is stale costs one
//! statement, never a wrong answer. The usernames an entry holds change
//! without the version only when an account is deleted, and the write
//! checks them too (docs/storage.md, "Versioned writes").
//!
//! Bounded by bytes, one entry a game, a newer version replacing an older
//! one and never the reverse (`bounded.rs`). An entry serves for
//! [`KEEP_FOR_SECONDS`] of the server's clock after its read, then no
//! more: a move follows its read within seconds.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::answers::Names;
use super::bounded::{Bounded, Lookups};
use super::record::Status;
use crate::clock::Clock;
use crate::storage::games::GameRow;

/// What all entries may hold together: about 2,000 games in play (a row
/// is 1.5-2 KiB with its usernames).
pub const BUDGET_BYTES: usize = 4 * 1024 * 1024;

/// How long after its read an entry serves, in seconds.
pub const KEEP_FOR_SECONDS: i64 = 60;

/// One game as read, with the usernames it mentions.
#[derive(Debug)]
pub struct Kept {
    pub row: GameRow,
    pub names: Names,
    read_at: DateTime<Utc>,
}

/// The kept games; one per process, shared by all workers.
pub struct KeptGames {
    entries: Bounded<Uuid, Arc<Kept>>,
    lookups: Lookups,
    keep_for: Duration,
    clock: Arc<dyn Clock>,
}

impl KeptGames {
    /// Kept games of at most `budget` bytes together (0: none kept), each
    /// for [`KEEP_FOR_SECONDS`] of `clock`'s time.
    pub fn new(budget: usize, clock: Arc<dyn Clock>) -> Self {
        KeptGames {
            entries: Bounded::new(budget),
            lookups: Lookups::default(),
            keep_for: Duration::seconds(KEEP_FOR_SECONDS),
            clock,
        }
    }

    /// Game `id` as last kept, if it is and still serves.
    pub fn get(&self, id: Uuid) -> Option<Arc<Kept>> {
        self.entries
            .read(&id, |_, kept| self.serves(kept).then(|| kept.clone()))
    }

    /// Game `id` as last kept, if it is and still serves; kept no longer
    /// either way.
    pub fn take(&self, id: Uuid) -> Option<Arc<Kept>> {
        let found = self.entries.take(&id).filter(|kept| self.serves(kept));
        self.lookups.count(found)
    }

    /// How often a change looked for its game here and found it.
    pub fn lookups(&self) -> &Lookups {
        &self.lookups
    }

    fn serves(&self, kept: &Kept) -> bool {
        self.clock.now() - kept.read_at < self.keep_for
    }

    /// Keeps `row` (game `id`) with `names`, unless a newer version of it
    /// is kept already; a game that is over (nothing changes it any more)
    /// is only forgotten.
    pub fn put(&self, id: Uuid, row: GameRow, names: Names) {
        let over = matches!(
            Status::parse(&row.status),
            Some(Status::Finished | Status::Aborted) | None
        );
        if over {
            self.entries.forget_up_to(&id, row.version);
            return;
        }
        let (version, bytes) = (row.version, size_of(&row, &names));
        let read_at = self.clock.now();
        let kept = Kept {
            row,
            names,
            read_at,
        };
        self.entries.put(id, version, bytes, Arc::new(kept));
    }

    /// Forgets game `id` if what is kept of it is older than `version`
    /// (the game reached `version`, so a change decided from the entry
    /// could only lose its race).
    pub fn forget_before(&self, id: Uuid, version: i64) {
        self.entries.forget_up_to(&id, version - 1);
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.entries.bytes()
    }
}

/// What an entry holds, about: its text and a fixed share for the rest.
fn size_of(row: &GameRow, names: &Names) -> usize {
    const FIXED: usize = 256;
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
    ];
    let text: usize = texts.into_iter().flatten().map(String::len).sum();
    let names: usize = names.values().map(|n| n.len() + 48).sum();
    FIXED + text + names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::SystemClock;
    use chrono::NaiveDateTime;

    fn row(id: Uuid, version: i64, state: usize) -> GameRow {
        GameRow {
            id: id.to_string(),
            variant: "classic".into(),
            rules: "{}".into(),
            status: "playing".into(),
            version,
            creator_id: Uuid::nil().to_string(),
            red_user_id: None,
            blue_user_id: None,
            challenged_user_id: None,
            days_per_move: 3,
            red_setup: None,
            blue_setup: None,
            state: Some("x".repeat(state)),
            turn: None,
            ply: 0,
            draw_offer: None,
            deadline: None,
            reminded_version: None,
            time_control: None,
            clocks: None,
            result_winner: None,
            result_reason: None,
            created_at: NaiveDateTime::default(),
            updated_at: NaiveDateTime::default(),
            rated: false,
            tournament_id: None,
            tournament_round: None,
        }
    }

    #[test]
    fn a_game_is_kept_at_its_newest_version() {
        let kept = KeptGames::new(64 * 1024, Arc::new(SystemClock));
        let game = Uuid::new_v4();
        kept.put(game, row(game, 3, 10), Names::new());
        kept.put(game, row(game, 4, 10), Names::new());
        kept.put(game, row(game, 3, 10), Names::new());
        assert_eq!(kept.get(game).map(|k| k.row.version), Some(4));
        // Taken once.
        assert_eq!(kept.take(game).map(|k| k.row.version), Some(4));
        assert!(kept.take(game).is_none());
        assert_eq!(kept.bytes(), 0);
        kept.put(game, row(game, 4, 10), Names::new());
        // A game that is over is not kept (nothing changes it), and what
        // was kept of it is forgotten.
        let over = Uuid::new_v4();
        kept.put(over, row(over, 8, 10), Names::new());
        let mut finished = row(over, 9, 10);
        finished.status = "finished".into();
        kept.put(over, finished, Names::new());
        assert!(kept.get(over).is_none());
        assert!(kept.get(Uuid::new_v4()).is_none());
        // Reaching an older or the same version forgets nothing; a newer
        // one forgets the entry.
        kept.forget_before(game, 4);
        assert!(kept.get(game).is_some());
        kept.forget_before(game, 5);
        assert!(kept.get(game).is_none());
        assert_eq!(kept.bytes(), 0);
    }

    #[test]
    fn an_entry_serves_only_for_its_time() {
        let clock = crate::clock::ManualClock::starting_now();
        let kept = KeptGames::new(64 * 1024, clock.clone());
        let game = Uuid::new_v4();
        kept.put(game, row(game, 3, 10), Names::new());
        clock.advance(Duration::seconds(KEEP_FOR_SECONDS - 1));
        assert!(kept.get(game).is_some());
        clock.advance(Duration::seconds(1));
        assert!(kept.get(game).is_none());
        assert!(kept.take(game).is_none());
        assert_eq!(kept.bytes(), 0);
    }

    #[test]
    fn the_budget_bounds_what_is_held() {
        let one = size_of(&row(Uuid::nil(), 1, 1000), &Names::new());
        let kept = KeptGames::new(3 * one, Arc::new(SystemClock));
        for version in 0..20 {
            let game = Uuid::new_v4();
            kept.put(game, row(game, version, 1000), Names::new());
            assert!(kept.bytes() <= 3 * one, "{} bytes held", kept.bytes());
        }
        assert_eq!(kept.bytes(), 3 * one);
        // Too big to keep at all; nothing else is dropped for it.
        let big = Uuid::new_v4();
        kept.put(big, row(big, 1, 4 * one), Names::new());
        assert!(kept.get(big).is_none());
        assert_eq!(kept.bytes(), 3 * one);
        // No budget: nothing is kept.
        let none = KeptGames::new(0, Arc::new(SystemClock));
        none.put(big, row(big, 1, 1), Names::new());
        assert!(none.get(big).is_none());
    }
}
