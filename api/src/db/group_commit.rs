//! Group commit on SQLite: the writes of many requests share one
//! transaction and one flush to disk (docs/storage.md, "Group commit on
//! SQLite").
//!
//! SQLite lets one writer in at a time and, with `synchronous = FULL`,
//! flushes the log at every commit; a flush costs this machine's disk about
//! as long as a move's whole work, so one commit per write caps the moves
//! of every player at one flush each. Here every write transaction of one
//! pool runs on one connection of its own, on one thread of its own, which
//! takes the writes in the order they come. The first of a round begins
//! the transaction (`BEGIN IMMEDIATE`); each write that was already waiting
//! when the one before it finished runs inside the same transaction, in a
//! savepoint of its own, so a refused write rolls back only itself; when
//! nobody is waiting any more (or the round is full), the thread commits.
//! Every writer of the round answers only after that one commit, with its
//! own result if the commit is on disk and "unavailable" if it failed, so
//! no answer ever tells of a write that did not last.
//!
//! Why a thread of its own, not a lock the requests' threads take in turn:
//! handing the connection from one thread to the next costs a wake-up of
//! the next one each time, during which the connection sits idle; on two
//! busy cores those hand-overs, not the writing, set the pace of every
//! write (BENCHMARKS.md, nineteenth measurement).

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicIsize, AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
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

/// How long a writer with no deadline waits for its turn.
const TURN_WAIT: Duration = Duration::from_secs(30);

/// The one writing connection of a SQLite pool, and the thread that runs
/// every write on it. Dropping this ends the thread once it has run what
/// was handed to it.
pub struct GroupWriter {
    /// `None`: the thread could not be started; every write is answered
    /// "unavailable".
    jobs: Option<Sender<Job>>,
    /// Joined when the writer is dropped, so that the connection is closed
    /// (and SQLite's log checkpointed) before the pool is gone.
    thread: Option<std::thread::JoinHandle<()>>,
    shared: Arc<Shared>,
}

/// What the writer and its thread both see.
struct Shared {
    /// Writes handed to the thread and not taken by it yet (for the
    /// tests; for a moment below zero, when the thread takes a write
    /// before its writer counted it).
    waiting: AtomicIsize,
    commits: AtomicU64,
    longest_open: Duration,
}

/// One write handed to the thread: `run` runs it on the connection (the
/// first of a round or not) and says whether it succeeded.
struct Job {
    ticket: Member,
    run: Run,
}

/// The thread's hold on a write's [`Ticket`], given up when the write is
/// answered: a write the thread drops without having answered it (the
/// thread itself failed) is answered "unavailable", so that no caller
/// waits for an answer that will never come. (Not by looking at the
/// ticket once answered: its writer, just woken, may hold its lock, and
/// the thread would wait for that writer's turn on a core.)
struct Member(Option<Arc<Ticket>>);

impl Member {
    /// [`Ticket::begin`]; a write given up needs no answer.
    fn begin(&mut self) -> bool {
        let begun = self.0.as_deref().is_some_and(Ticket::begin);
        if !begun {
            self.0 = None;
        }
        begun
    }

    fn tell(mut self, outcome: Result<(), String>) {
        if let Some(ticket) = self.0.take() {
            ticket.tell(outcome);
        }
    }

    fn panicked(mut self, payload: Box<dyn Any + Send>) {
        if let Some(ticket) = self.0.take() {
            ticket.panicked(payload);
        }
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        if let Some(ticket) = self.0.take() {
            ticket.tell(Err("the SQLite writer failed".to_owned()));
        }
    }
}

/// A write's work on the connection, given whether it is the first of its
/// round; `true` if it succeeded.
type Run = Box<dyn FnOnce(&mut DbConnection, bool) -> bool + Send>;

/// Where a writer and the thread meet over one write. Whether it has
/// begun is an atomic, not under the lock: the thread takes the write
/// just as its writer, having handed it over, holds the lock on its way
/// to sleep, and must not wait for that writer to get a core.
#[derive(Default)]
struct Ticket {
    /// [`WAITING`], [`BEGUN`] or [`GIVEN_UP`].
    phase: AtomicU8,
    state: Mutex<TicketState>,
    changed: Condvar,
}

const WAITING: u8 = 0;
const BEGUN: u8 = 1;
/// Its writer stopped waiting first: it is not run.
const GIVEN_UP: u8 = 2;

#[derive(Default)]
struct TicketState {
    /// How the round the write ran in ended.
    told: Option<Result<(), String>>,
    /// The write panicked: its writer panics with the same payload.
    panicked: Option<Box<dyn Any + Send>>,
}

/// What a writer learned of its write.
enum Heard {
    Told(Result<(), String>),
    Panicked(Box<dyn Any + Send>),
    GaveUp,
}

impl Ticket {
    /// Whether the write is to be run (its writer still waits): marks it
    /// begun.
    fn begin(&self) -> bool {
        self.phase
            .compare_exchange(WAITING, BEGUN, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    fn tell(&self, outcome: Result<(), String>) {
        self.state.lock().told = Some(outcome);
        self.changed.notify_all();
    }

    fn panicked(&self, payload: Box<dyn Any + Send>) {
        self.state.lock().panicked = Some(payload);
        self.changed.notify_all();
    }

    /// Waits for the write's outcome; gives up if it has not begun within
    /// `turn` (once begun, it is always told).
    fn wait(&self, turn: Duration) -> Heard {
        let until = Instant::now() + turn;
        let mut state = self.state.lock();
        loop {
            if let Some(payload) = state.panicked.take() {
                return Heard::Panicked(payload);
            }
            if let Some(outcome) = state.told.take() {
                return Heard::Told(outcome);
            }
            if self.phase.load(Ordering::Acquire) == WAITING {
                if Instant::now() >= until {
                    let gave_up = self.phase.compare_exchange(
                        WAITING,
                        GIVEN_UP,
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    );
                    if gave_up.is_ok() {
                        return Heard::GaveUp;
                    }
                    // Begun meanwhile: it will be told.
                    continue;
                }
                self.changed.wait_until(&mut state, until);
            } else {
                self.changed.wait(&mut state);
            }
        }
    }
}

impl GroupWriter {
    pub fn new(manager: ConnectionManager) -> Self {
        Self::with_longest_open(manager, LONGEST_OPEN)
    }

    /// A writer whose transactions stay open for newcomers as long as
    /// `longest`, so that a test decides who shares a round.
    #[cfg(test)]
    pub fn lingering(manager: ConnectionManager, longest: Duration) -> Self {
        Self::with_longest_open(manager, longest)
    }

    fn with_longest_open(manager: ConnectionManager, longest_open: Duration) -> Self {
        let shared = Arc::new(Shared {
            waiting: AtomicIsize::new(0),
            commits: AtomicU64::new(0),
            longest_open,
        });
        let (sender, jobs) = mpsc::channel();
        let serving = Arc::clone(&shared);
        let started = std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || serve(&manager, &serving, &jobs));
        let (jobs, thread) = match started {
            Ok(thread) => (Some(sender), Some(thread)),
            Err(error) => {
                tracing::error!(%error, "cannot start the SQLite writer's thread: \
                                         every write is answered unavailable");
                (None, None)
            }
        };
        Self {
            jobs,
            thread,
            shared,
        }
    }

    /// How many writers are waiting for their turn.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        usize::try_from(self.shared.waiting.load(Ordering::SeqCst)).unwrap_or(0)
    }

    /// How many transactions this writer has committed (for the tests:
    /// fewer than the writes it ran when they came together).
    pub fn commits(&self) -> u64 {
        self.shared.commits.load(Ordering::Relaxed)
    }

    /// Runs `work` in this writer's transaction, as described above, and
    /// returns once its outcome is durable; a writer whose caller stops
    /// waiting at `deadline` waits for its turn until then, and what it
    /// did is rolled back if it ends after it.
    pub fn write<T, E, F>(&self, deadline: Deadline, work: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DieselError> + Send + 'static,
    {
        let Some(jobs) = &self.jobs else {
            return Err(unavailable("the writer's thread is not running".into()).into());
        };
        let result: Arc<Mutex<Option<Result<T, E>>>> = Arc::default();
        let ticket = Arc::new(Ticket::default());
        let written = Arc::clone(&result);
        let job = Job {
            ticket: Member(Some(Arc::clone(&ticket))),
            run: Box::new(move |db, first| {
                let ran = run_in(db, deadline, work, first);
                let ok = ran.is_ok();
                *written.lock() = Some(ran);
                ok
            }),
        };
        if jobs.send(job).is_err() {
            return Err(unavailable("the writer's thread has stopped".into()).into());
        }
        self.shared.waiting.fetch_add(1, Ordering::SeqCst);
        match ticket.wait(deadline.left_or(TURN_WAIT)) {
            Heard::GaveUp => Err(gave_up().into()),
            Heard::Panicked(payload) => panic::resume_unwind(payload),
            Heard::Told(Err(why)) => Err(unavailable(why).into()),
            Heard::Told(Ok(())) => result
                .lock()
                .take()
                .unwrap_or_else(|| Err(unavailable("the write left no result".into()).into())),
        }
    }
}

impl Drop for GroupWriter {
    fn drop(&mut self) {
        // No more writes: the thread runs what it was handed, then ends.
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            // The last pool may be dropped by a write on the thread itself
            // (its work held a clone): that one cannot wait for itself.
            if thread.thread().id() != std::thread::current().id() {
                let _ = thread.join();
            }
        }
    }
}

/// The writer's thread: runs the writes handed to it, in rounds, until
/// its [`GroupWriter`] is dropped. A failure of its own (not of a write's
/// work) drops the connection and the round, whose writers are answered
/// "unavailable" ([`Member`]), and it goes on with a new connection.
fn serve(manager: &ConnectionManager, shared: &Shared, jobs: &Receiver<Job>) {
    loop {
        match panic::catch_unwind(AssertUnwindSafe(|| serve_rounds(manager, shared, jobs))) {
            Ok(()) => return,
            Err(_) => tracing::error!("the SQLite writer failed; its transaction was rolled back"),
        }
    }
}

/// [`serve`]'s rounds, on one connection while it lasts; returns when the
/// writer is dropped.
fn serve_rounds(manager: &ConnectionManager, shared: &Shared, jobs: &Receiver<Job>) {
    // Opened on the first write; dropped (and so rolled back) when it
    // breaks, and opened again by the next write.
    let mut conn: Option<DbConnection> = None;
    while let Ok(mut first) = jobs.recv() {
        shared.waiting.fetch_sub(1, Ordering::SeqCst);
        if !first.ticket.begin() {
            continue;
        }
        let db = match &mut conn {
            Some(db) => db,
            None => match manager.establish() {
                Ok(opened) => conn.insert(opened),
                Err(error) => {
                    first
                        .ticket
                        .tell(Err(format!("opening the writer: {error}")));
                    continue;
                }
            },
        };
        match round(db, shared, jobs, first) {
            Some(members) if !members.is_empty() => {
                let committed = commit(db);
                match committed {
                    Ok(()) => {
                        shared.commits.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(_) => conn = None,
                }
                for member in members {
                    member.tell(committed.clone());
                }
            }
            Some(_) => {}
            // The connection is not to be trusted any more.
            None => conn = None,
        }
    }
}

/// Runs `first` and then every write waiting when the one before it
/// finished (at most [`MOST_MEMBERS`], while the round is younger than
/// its longest), in one transaction; returns the writes to be told the
/// commit's outcome (none: `first` wrote nothing, and nothing is open).
/// `None`: the round was rolled back and every write in it told so (the
/// connection broke or a write panicked).
fn round(
    db: &mut DbConnection,
    shared: &Shared,
    jobs: &Receiver<Job>,
    first: Job,
) -> Option<Vec<Member>> {
    let opened = Instant::now();
    let mut members: Vec<Member> = Vec::new();
    let mut next = Some(first);
    while let Some(job) = next.take() {
        let is_first = members.is_empty();
        let Job { ticket, run } = job;
        let ran = panic::catch_unwind(AssertUnwindSafe(|| run(db, is_first)));
        let ok = match ran {
            Ok(ok) => ok,
            Err(payload) => {
                // Dropping the connection rolls the round back; its other
                // writers are told so instead of being left waiting.
                for member in members {
                    member.tell(Err("a writer in the transaction panicked".to_owned()));
                }
                ticket.panicked(payload);
                return None;
            }
        };
        // Broken: diesel lost track of the transaction (a failed rollback
        // or release), SQLite ended it by itself (an I/O error rolls the
        // whole transaction back), or a writer left a savepoint open. An
        // open round is at depth 1 exactly, no round at none.
        let open = !is_first || ok;
        if depth(db) != Ok(open.then_some(1)) {
            members.push(ticket);
            for member in members {
                member.tell(Err(
                    "the writer's connection broke during the transaction".to_owned()
                ));
            }
            return None;
        }
        if !open {
            // The first writer of a round that wrote nothing: its rollback
            // is all there was, and nobody else is in it.
            ticket.tell(Ok(()));
            return Some(Vec::new());
        }
        members.push(ticket);
        if members.len() >= MOST_MEMBERS || opened.elapsed() >= shared.longest_open {
            break;
        }
        next = next_waiting(shared, jobs);
    }
    Some(members)
}

/// The next write already handed over and still wanted, if any. Not
/// one about to be: waiting for writes still on their way keeps a round
/// open until every client is in it, and the cores idle meanwhile.
fn next_waiting(shared: &Shared, jobs: &Receiver<Job>) -> Option<Job> {
    while let Ok(mut job) = jobs.try_recv() {
        shared.waiting.fetch_sub(1, Ordering::SeqCst);
        if job.ticket.begin() {
            return Some(job);
        }
    }
    None
}

/// Commits the open round; a failed commit says why.
fn commit(db: &mut DbConnection) -> Result<(), String> {
    match depth(db) {
        Ok(Some(1)) => <DbConnection as TransactionManager<DbConnection>>::commit_transaction(db)
            .map_err(|error| format!("the commit failed: {error}")),
        _ => Err("the transaction was not whole at its commit".to_owned()),
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

    /// A writer whose deadline passes while another holds the writer is
    /// answered "unavailable" then, not when the writer is free, and its
    /// write is never run: the round it would have joined commits without
    /// it.
    #[actix_web::test]
    async fn a_write_whose_deadline_passes_before_its_turn_writes_nothing() {
        let (pool, writer, path) = lingering_pool("group-late", 4);
        let (go, wait_for_go) = std::sync::mpsc::channel::<()>();
        let (inside, entered) = std::sync::mpsc::channel();
        let holder = pool.clone();
        let first = tokio::spawn(async move {
            run_write(&holder, move |conn| {
                insert(conn, "INSERT INTO counted (n) VALUES (0)".to_owned())?;
                inside.send(()).unwrap();
                wait_for_go.recv().unwrap();
                Ok::<_, StoreError>(())
            })
            .await
        });
        tokio::task::spawn_blocking(move || entered.recv().unwrap())
            .await
            .unwrap();
        let late = tokio::task::spawn_blocking(move || {
            writer.write(
                Deadline::at(Instant::now() + Duration::from_millis(100)),
                |conn| insert(conn, "INSERT INTO counted (n) VALUES (1)".to_owned()),
            )
        });
        let late = tokio::time::timeout(Duration::from_secs(5), late)
            .await
            .expect("answered at its deadline, with the writer still held")
            .unwrap();
        assert!(late.unwrap_err().lost_connection());
        go.send(()).unwrap();
        first.await.unwrap().unwrap();
        assert_eq!(counted(&pool).await, vec![0], "the late write never ran");
        assert_eq!(pool.group_commits(), Some(1));
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
