//! Group commit on SQLite: the writes of many requests share one
//! transaction and one flush to disk (docs/storage.md, "Group commit on
//! SQLite").
//!
//! SQLite lets one writer in at a time and, with `synchronous = FULL`,
//! flushes the log at every commit; a flush costs this machine's disk about
//! as long as a move's whole work, so one commit per write caps the moves
//! of every player at one flush each. Here every write transaction of one
//! pool runs on one connection of its own, in turn. The first writer of a
//! round begins the transaction (`BEGIN IMMEDIATE`); each writer that was
//! already waiting when the one before it finished runs inside the same
//! transaction, in a savepoint of its own, so a refused write rolls back
//! only itself; the last one, when nobody is waiting any more (or the round
//! is full), commits. Every writer of the round answers only after that one
//! commit, with its own result if the commit is on disk and "unavailable"
//! if it failed, so no answer ever tells of a write that did not last.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::connection::{AnsiTransactionManager, TransactionManager};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use parking_lot::{Condvar, Mutex};

use super::{ConnectionManager, DbConnection, Deadline};

/// The most writers one transaction takes: a round that is always joined
/// would otherwise never commit.
const MOST_MEMBERS: usize = 64;

/// How long one transaction stays open for newcomers, at most: each one
/// that joins makes the others wait for its work too.
const LONGEST_OPEN: Duration = Duration::from_millis(20);

/// How often a writer waiting for its round's outcome checks that the
/// round has not been left open with nobody to commit it.
const ORPHAN_CHECK: Duration = Duration::from_millis(50);

/// How long a writer with no deadline waits for its turn.
const TURN_WAIT: Duration = Duration::from_secs(30);

/// The one writing connection of a SQLite pool and the round it has open.
pub struct GroupWriter {
    manager: ConnectionManager,
    /// Writers that want the connection and have not got it yet.
    waiting: AtomicUsize,
    state: Mutex<State>,
    commits: AtomicU64,
    longest_open: Duration,
}

#[derive(Default)]
struct State {
    /// Opened on the first write; dropped (and so rolled back) when it
    /// breaks, and opened again by the next write.
    conn: Option<DbConnection>,
    round: Option<Round>,
}

/// The open transaction and the writers in it.
struct Round {
    members: usize,
    opened: Instant,
    outcome: Arc<Outcome>,
}

/// How a round's commit went, told to every writer in it.
#[derive(Default)]
struct Outcome {
    result: Mutex<Option<Result<(), String>>>,
    told: Condvar,
}

impl Outcome {
    fn tell(&self, result: Result<(), String>) {
        *self.result.lock() = Some(result);
        self.told.notify_all();
    }

    /// The outcome, if it is told within `longest`.
    fn wait(&self, longest: Duration) -> Option<Result<(), String>> {
        let mut result = self.result.lock();
        if result.is_none() {
            self.told.wait_for(&mut result, longest);
        }
        result.clone()
    }
}

impl GroupWriter {
    pub fn new(manager: ConnectionManager) -> Self {
        Self {
            manager,
            waiting: AtomicUsize::new(0),
            state: Mutex::new(State::default()),
            commits: AtomicU64::new(0),
            longest_open: LONGEST_OPEN,
        }
    }

    /// A writer whose transactions stay open for newcomers as long as
    /// `longest`, so that a test decides who shares a round.
    #[cfg(test)]
    pub fn lingering(manager: ConnectionManager, longest: Duration) -> Self {
        Self {
            longest_open: longest,
            ..Self::new(manager)
        }
    }

    /// How many writers are waiting for their turn.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// How many transactions this writer has committed (for the tests:
    /// fewer than the writes it ran when they came together).
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Runs `work` in this writer's transaction, as described above, and
    /// returns once its outcome is durable; a writer whose caller stops
    /// waiting at `deadline` waits for its turn until then, and what it
    /// did is rolled back if it ends after it.
    pub fn write<T, E, F>(&self, deadline: Deadline, work: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E>,
        E: From<DieselError>,
    {
        // Counted before waiting: a writer that finishes while this one
        // waits leaves the transaction open for it. If this one gives up
        // (its request's deadline passed), the writers of that round
        // commit it themselves ([`Self::wait_for`]).
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let turn = self.state.try_lock_for(deadline.left_or(TURN_WAIT));
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let Some(mut state) = turn else {
            return Err(gave_up().into());
        };
        let State { conn, round } = &mut *state;
        if conn.is_none() {
            // No round can be open without its connection.
            match self.manager.establish() {
                Ok(opened) => *conn = Some(opened),
                Err(error) => {
                    return Err(unavailable(format!("opening the writer: {error}")).into())
                }
            }
        }
        let Some(db) = conn.as_mut() else {
            return Err(unavailable("the writer has no connection".into()).into());
        };
        let ran = panic::catch_unwind(AssertUnwindSafe(|| match round {
            None => {
                let result = run_in(db, deadline, work, true);
                if result.is_ok() {
                    *round = Some(Round {
                        members: 1,
                        opened: Instant::now(),
                        outcome: Arc::default(),
                    });
                }
                result
            }
            Some(open) => {
                open.members += 1;
                run_in(db, deadline, work, false)
            }
        }));
        let result = match ran {
            Ok(result) => result,
            Err(panicked) => {
                // Dropping the connection rolls the round back; its other
                // writers are told so instead of being left waiting.
                *conn = None;
                if let Some(open) = round.take() {
                    open.outcome
                        .tell(Err("a writer in the transaction panicked".to_owned()));
                }
                drop(state);
                panic::resume_unwind(panicked);
            }
        };
        // Broken: diesel lost track of the transaction (a failed
        // rollback or release), SQLite ended it by itself (an I/O error
        // rolls the whole transaction back), or a writer left a savepoint
        // open. An open round is at depth 1 exactly, no round at none.
        let broken = depth(db) != Ok(round.as_ref().map(|_| 1));
        let Some(open) = round.as_ref() else {
            // The first writer of a round that wrote nothing: its
            // rollback is all there was, and nobody else is in it.
            if broken {
                *conn = None;
            }
            return result;
        };
        let outcome = open.outcome.clone();
        let full = open.members >= MOST_MEMBERS || open.opened.elapsed() >= self.longest_open;
        if broken {
            *round = None;
            *conn = None;
            outcome.tell(Err(
                "the writer's connection broke during the transaction".to_owned()
            ));
        } else if full || self.waiting.load(Ordering::SeqCst) == 0 {
            self.close_round(&mut state);
        }
        drop(state);
        match self.wait_for(&outcome) {
            Ok(()) => result,
            Err(why) => Err(unavailable(why).into()),
        }
    }

    /// Waits for the outcome of the round this writer ran in. A writer
    /// that left the round open for one waiting behind it checks now and
    /// then that it was not left alone: if the round is still open and
    /// nobody is at work in it, it commits the round itself.
    fn wait_for(&self, outcome: &Arc<Outcome>) -> Result<(), String> {
        loop {
            if let Some(told) = outcome.wait(ORPHAN_CHECK) {
                return told;
            }
            let Some(mut state) = self.state.try_lock() else {
                continue;
            };
            let ours = state
                .round
                .as_ref()
                .is_some_and(|open| Arc::ptr_eq(&open.outcome, outcome));
            if ours && self.waiting.load(Ordering::SeqCst) == 0 {
                self.close_round(&mut state);
            }
        }
    }

    /// Commits the open round and tells its writers how that went. A
    /// failed commit drops the connection: whatever state it is in, a
    /// fresh one is certain.
    fn close_round(&self, state: &mut State) {
        let Some(open) = state.round.take() else {
            return;
        };
        let committed = match state.conn.as_mut() {
            None => Err("the writer has no connection".to_owned()),
            Some(db) => match depth(db) {
                Ok(Some(1)) => {
                    <DbConnection as TransactionManager<DbConnection>>::commit_transaction(db)
                        .map_err(|error| format!("the commit failed: {error}"))
                }
                _ => Err("the transaction was not whole at its commit".to_owned()),
            },
        };
        match committed {
            Ok(()) => {
                self.commits.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => state.conn = None,
        }
        open.outcome.tell(committed);
    }
}

/// Runs `work` for one writer: the first of a round begins the transaction
/// (a refusal then rolls all of it back: nobody else is in it yet); one
/// that joins the open round runs in a savepoint, so that a refusal rolls
/// back only what it did.
fn run_in<T, E, F>(db: &mut DbConnection, deadline: Deadline, work: F, first: bool) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<DieselError>,
{
    if deadline.passed() {
        return Err(gave_up().into());
    }
    match &mut *db {
        DbConnection::Sqlite(sqlite) if first => {
            AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?;
        }
        DbConnection::Sqlite(_) => {
            <DbConnection as TransactionManager<DbConnection>>::begin_transaction(db)?;
        }
        DbConnection::Postgresql(_) => {
            return Err(unavailable("group commit is for SQLite only".into()).into());
        }
    }
    finish(db, deadline, work)
}

/// Runs `work` at the depth just begun and ends that depth: kept if it
/// succeeded in time (released, for a savepoint; the first writer's
/// transaction stays open for the commit), rolled back otherwise.
fn finish<T, E, F>(db: &mut DbConnection, deadline: Deadline, work: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<DieselError>,
{
    let result = work(db);
    let top = depth(db) == Ok(Some(1));
    let kept = match result {
        Ok(value) if !deadline.passed() => Ok(value),
        // The caller was already told "unavailable": keep that true.
        Ok(_) => Err(gave_up().into()),
        Err(error) => Err(error),
    };
    let ended = match (&kept, top) {
        (Ok(_), true) => Ok(()),
        (Ok(_), false) => {
            <DbConnection as TransactionManager<DbConnection>>::commit_transaction(db)
        }
        (Err(_), _) => <DbConnection as TransactionManager<DbConnection>>::rollback_transaction(db),
    };
    if let Err(error) = ended {
        // A savepoint that could not be released or rolled back leaves the
        // round unsure of what it holds: it must not commit.
        super::discard(db);
        return Err(error.into());
    }
    kept
}

/// How deep in transactions the connection is, as diesel counts; `Err`
/// when diesel no longer knows (its transaction manager is broken).
fn depth(db: &mut DbConnection) -> Result<Option<u32>, ()> {
    let DbConnection::Sqlite(sqlite) = db else {
        return Err(());
    };
    AnsiTransactionManager::transaction_manager_status_mut(sqlite)
        .transaction_depth()
        .map(|depth| depth.map(std::num::NonZeroU32::get))
        .map_err(|_| ())
}

fn gave_up() -> DieselError {
    unavailable("the request's deadline passed before the commit".to_owned())
}

/// An error that [`super::StoreError`] reads as "the database is
/// unavailable".
fn unavailable(why: String) -> DieselError {
    DieselError::DatabaseError(DatabaseErrorKind::UnableToSendCommand, Box::new(why))
}
