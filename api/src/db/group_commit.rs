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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::super::*;
    use super::*;

    /// A SQLite pool whose writer keeps its transaction open for newcomers
    /// for up to 10 s, with a table `counted` to write to.
    fn lingering_pool(name: &str, size: u32) -> (DbPool, Arc<GroupWriter>, std::path::PathBuf) {
        let path =
            std::env::temp_dir().join(format!("stratego-{name}-{}.db", uuid::Uuid::new_v4()));
        let database = DatabaseUrl::Sqlite(path.clone());
        let timeout = Duration::from_secs(10);
        let mut pool = pool(&database, size, timeout, SqliteSynchronous::Full).unwrap();
        let manager = ConnectionManager::new(database, timeout, SqliteSynchronous::Full);
        let writer = Arc::new(GroupWriter::lingering(manager, Duration::from_secs(10)));
        pool.writer = Some(writer.clone());
        pool.get()
            .unwrap()
            .batch_execute(
                "CREATE TABLE counted (n INTEGER NOT NULL); \
                 CREATE TABLE parent (id INTEGER PRIMARY KEY); \
                 CREATE TABLE child (parent INTEGER NOT NULL \
                     REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);",
            )
            .unwrap();
        (pool, writer, path)
    }

    fn remove_sqlite(path: &std::path::Path) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    /// The values in `counted`, in order, as committed.
    async fn counted(pool: &DbPool) -> Vec<i64> {
        #[derive(diesel::QueryableByName)]
        struct Row {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        run(pool, |conn| {
            use diesel::RunQueryDsl;
            let DbConnection::Sqlite(sqlite) = conn else {
                unreachable!()
            };
            let rows = diesel::sql_query("SELECT n FROM counted ORDER BY n").load::<Row>(sqlite)?;
            Ok(rows.into_iter().map(|row| row.n).collect())
        })
        .await
        .unwrap()
    }

    fn insert(conn: &mut DbConnection, sql: String) -> Result<(), StoreError> {
        use diesel::RunQueryDsl;
        let DbConnection::Sqlite(sqlite) = conn else {
            unreachable!()
        };
        diesel::sql_query(sql).execute(sqlite)?;
        Ok(())
    }

    /// Starts a writer that writes with `first` and then holds its
    /// transaction until `others` more writers wait behind it (5 s at
    /// most); returns once it is inside.
    async fn hold(
        pool: &DbPool,
        writer: &Arc<GroupWriter>,
        first: &'static str,
        others: usize,
    ) -> tokio::task::JoinHandle<Result<(), StoreError>> {
        let (inside, entered) = std::sync::mpsc::channel();
        let holder = writer.clone();
        let pool = pool.clone();
        let first = tokio::spawn(async move {
            run_write(&pool, move |conn| {
                insert(conn, first.to_owned())?;
                inside.send(()).unwrap();
                let until = Instant::now() + Duration::from_secs(5);
                while holder.waiting() < others && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(())
            })
            .await
        });
        tokio::task::spawn_blocking(move || entered.recv().unwrap())
            .await
            .unwrap();
        first
    }

    /// Starts writer 0 ([`hold`]), then `others` more, each writing `n`
    /// into `counted` and refusing (after writing) when `refuses(n)`.
    /// Returns every writer's result, writer 0's first.
    async fn a_round(
        pool: &DbPool,
        writer: &Arc<GroupWriter>,
        first: &'static str,
        others: usize,
        refuses: fn(i64) -> bool,
    ) -> Vec<Result<(), StoreError>> {
        let first = hold(pool, writer, first, others).await;
        let rest: Vec<_> = (1..=others as i64)
            .map(|n| {
                let pool = pool.clone();
                tokio::spawn(async move {
                    run_write(&pool, move |conn| {
                        insert(conn, format!("INSERT INTO counted (n) VALUES ({n})"))?;
                        if refuses(n) {
                            return Err(StoreError::Query(diesel::result::Error::NotFound));
                        }
                        Ok(())
                    })
                    .await
                })
            })
            .collect();
        let mut results = vec![first.await.unwrap()];
        for writer in rest {
            results.push(writer.await.unwrap());
        }
        results
    }

    /// Writers that come while another one is writing all join its
    /// transaction: one commit for all of them; a writer that refuses
    /// after writing rolls back only its own rows, and gets its own error.
    #[actix_web::test]
    async fn sqlite_writes_that_come_together_share_one_commit() {
        let (pool, writer, path) = lingering_pool("group", 12);
        let refuses = |n: i64| n % 3 == 0;
        let results = a_round(
            &pool,
            &writer,
            "INSERT INTO counted (n) VALUES (0)",
            9,
            refuses,
        )
        .await;
        for (n, result) in results.iter().enumerate() {
            match result {
                Err(StoreError::Query(diesel::result::Error::NotFound)) => {
                    assert!(refuses(n as i64) && n > 0, "writer {n} was refused")
                }
                Ok(()) => assert!(n == 0 || !refuses(n as i64), "writer {n} was kept"),
                Err(other) => panic!("writer {n}: {other}"),
            }
        }
        assert_eq!(counted(&pool).await, vec![0, 1, 2, 4, 5, 7, 8]);
        assert_eq!(pool.group_commits(), Some(1), "one commit for the round");
        // Alone, a writer commits at once, in a round of its own.
        let alone = a_round(
            &pool,
            &writer,
            "INSERT INTO counted (n) VALUES (10)",
            0,
            refuses,
        )
        .await;
        assert!(alone[0].is_ok());
        assert_eq!(pool.group_commits(), Some(2));
        assert_eq!(counted(&pool).await.len(), 8);
        drop(pool);
        remove_sqlite(&path);
    }

    /// A commit that fails fails every writer of its round, each answered
    /// "unavailable", none of their rows kept; the next write goes through.
    #[actix_web::test]
    async fn a_failed_group_commit_fails_everyone_in_it() {
        let (pool, writer, path) = lingering_pool("group-fail", 8);
        // A deferred foreign key is checked at the commit, which refuses it.
        let orphan = "INSERT INTO child (parent) VALUES (42)";
        let results = a_round(&pool, &writer, orphan, 5, |_| false).await;
        for (n, result) in results.iter().enumerate() {
            let error = result.as_ref().expect_err("the round's commit failed");
            assert!(error.lost_connection(), "writer {n}: {error}");
        }
        assert!(
            counted(&pool).await.is_empty(),
            "nothing of the round is kept"
        );
        assert_eq!(pool.group_commits(), Some(0));
        let next = a_round(
            &pool,
            &writer,
            "INSERT INTO counted (n) VALUES (7)",
            2,
            |_| false,
        )
        .await;
        assert!(next.iter().all(Result::is_ok));
        assert_eq!(counted(&pool).await, vec![1, 2, 7]);
        drop(pool);
        remove_sqlite(&path);
    }

    /// A writer that panics in a shared transaction rolls it back and its
    /// round-mates are told, instead of waiting for a commit forever.
    #[actix_web::test]
    async fn a_writer_that_panics_does_not_leave_its_round_waiting() {
        let (pool, writer, path) = lingering_pool("group-panic", 6);
        let first = hold(&pool, &writer, "INSERT INTO counted (n) VALUES (0)", 1).await;
        let panicking = run_write(&pool, |_| -> Result<(), StoreError> { panic!("a bug") }).await;
        assert!(
            matches!(panicking, Err(StoreError::Worker(_))),
            "{panicking:?}"
        );
        let told = tokio::time::timeout(Duration::from_secs(5), first)
            .await
            .expect("the first writer was told")
            .unwrap();
        assert!(told.unwrap_err().lost_connection());
        assert!(counted(&pool).await.is_empty());
        let after = a_round(
            &pool,
            &writer,
            "INSERT INTO counted (n) VALUES (3)",
            0,
            |_| false,
        )
        .await;
        assert!(after[0].is_ok());
        assert_eq!(counted(&pool).await, vec![3]);
        drop(pool);
        remove_sqlite(&path);
    }
}
