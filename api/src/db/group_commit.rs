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
#[cfg(test)]
use std::sync::atomic::AtomicIsize;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::task::{Poll, Waker};
use std::time::{Duration, Instant};

use diesel::connection::{AnsiTransactionManager, TransactionManager};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use parking_lot::{Condvar, Mutex};

use super::run::panic_message;
use super::{ConnectionManager, DbConnection, Deadline, StoreError};

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
    /// Writes handed to the thread and not taken by it yet, kept in the
    /// tests only (nothing else reads it, and every write would pay for
    /// it); for a moment below zero, when the thread takes a write before
    /// its writer counted it.
    #[cfg(test)]
    waiting: AtomicIsize,
    commits: AtomicU64,
    longest_open: Duration,
}

impl Shared {
    /// Counts writes handed over (1) or taken (-1), in the tests only.
    #[cfg_attr(not(test), allow(unused_variables))]
    fn count_waiting(&self, by: isize) {
        #[cfg(test)]
        self.waiting.fetch_add(by, Ordering::SeqCst);
    }
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
    /// The write panicked: its writer panics with the same payload
    /// ([`GroupWriter::write`]) or answers that it did (`write_async`).
    panicked: Option<Box<dyn Any + Send>>,
    /// The task that waits for the outcome ([`GroupWriter::write_async`]),
    /// woken when it is told.
    waker: Option<Waker>,
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
        self.hear(|state| state.told = Some(outcome));
    }

    fn panicked(&self, payload: Box<dyn Any + Send>) {
        self.hear(|state| state.panicked = Some(payload));
    }

    /// Records what the writer is to hear and wakes it, a thread or a
    /// task (outside the lock, which the task takes as soon as it runs).
    fn hear(&self, record: impl FnOnce(&mut TicketState)) {
        let waker = {
            let mut state = self.state.lock();
            record(&mut state);
            state.waker.take()
        };
        self.changed.notify_all();
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// What the writer heard, if anything yet.
    fn heard(state: &mut TicketState) -> Option<Heard> {
        if let Some(payload) = state.panicked.take() {
            return Some(Heard::Panicked(payload));
        }
        state.told.take().map(Heard::Told)
    }

    /// Gives the write up unless it has begun (then it will be told).
    fn give_up(&self) -> bool {
        self.phase
            .compare_exchange(WAITING, GIVEN_UP, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Waits for the write's outcome; gives up if it has not begun within
    /// `turn` (once begun, it is always told).
    fn wait(&self, turn: Duration) -> Heard {
        let until = Instant::now() + turn;
        let mut state = self.state.lock();
        loop {
            if let Some(heard) = Ticket::heard(&mut state) {
                return heard;
            }
            if self.phase.load(Ordering::Acquire) == WAITING {
                if Instant::now() >= until {
                    if self.give_up() {
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
            #[cfg(test)]
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
        let (ticket, result) = self.hand_over(deadline, work)?;
        self.shared.count_waiting(1);
        let heard = ticket.wait(deadline.left_or(TURN_WAIT));
        outcome(heard, &result)
    }

    /// [`GroupWriter::write`] for a task: the task waits for the outcome
    /// without a thread of its own (docs/storage.md, "Writes without a
    /// blocking thread"); the thread that runs the writes wakes it. At
    /// `deadline` the task stops waiting and says "unavailable": a write
    /// that has not begun by then is never run, and one that has is
    /// rolled back if it ends after it.
    pub async fn write_async<T, E, F>(&self, deadline: Instant, work: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DieselError> + From<StoreError> + Send + 'static,
    {
        let (ticket, result) = self.hand_over(Deadline::at(deadline), work)?;
        self.shared.count_waiting(1);
        let told = std::future::poll_fn(|cx| {
            let mut state = ticket.state.lock();
            match Ticket::heard(&mut state) {
                Some(heard) => Poll::Ready(heard),
                None => {
                    state.waker = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        });
        match tokio::time::timeout_at(deadline.into(), told).await {
            // Not resumed here: the task may serve many (the clock's
            // sweep, a bot), and a request is better answered 500 than
            // left with its connection reset.
            Ok(Heard::Panicked(payload)) => {
                Err(StoreError::Worker(panic_message(payload.as_ref())).into())
            }
            Ok(heard) => outcome(heard, &result),
            Err(_elapsed) => {
                // Not begun: never run. Begun: rolled back if its work
                // ends after the deadline, which has passed; work that
                // ended before it commits with its round all the same
                // (docs/storage.md, "Group commit on SQLite").
                ticket.give_up();
                Err(gave_up().into())
            }
        }
    }

    /// Hands `work` to the writer's thread: its ticket, and where its
    /// result will be.
    fn hand_over<T, E, F>(
        &self,
        deadline: Deadline,
        work: F,
    ) -> Result<(Arc<Ticket>, Slot<T, E>), E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DieselError> + Send + 'static,
    {
        let Some(jobs) = &self.jobs else {
            return Err(unavailable("the writer's thread is not running".into()).into());
        };
        let result: Slot<T, E> = Arc::default();
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
        Ok((ticket, result))
    }
}

/// Where the thread leaves a write's result for its writer.
type Slot<T, E> = Arc<Mutex<Option<Result<T, E>>>>;

/// What a writer answers, given what it heard of its write.
fn outcome<T, E: From<DieselError>>(heard: Heard, result: &Slot<T, E>) -> Result<T, E> {
    match heard {
        Heard::GaveUp => Err(gave_up().into()),
        Heard::Panicked(payload) => panic::resume_unwind(payload),
        Heard::Told(Err(why)) => Err(unavailable(why).into()),
        Heard::Told(Ok(())) => result
            .lock()
            .take()
            .unwrap_or_else(|| Err(unavailable("the write left no result".into()).into())),
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
        shared.count_waiting(-1);
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
        shared.count_waiting(-1);
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
#[path = "group_commit_tests.rs"]
mod tests;
