//! Database work off the HTTP workers: [`run`] and its kin, each bounded by
//! the request's deadline ([`Deadline`]); the writes where the backend
//! writes them ([`run_write`], [`run_change`]: docs/storage.md, "One write
//! pipeline"), which on SQLite the calling task hands to the writer's
//! thread itself, after reading what a change reads first on its own
//! thread (docs/storage.md, "Writes without a blocking thread").

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::r2d2;

use super::transactions::{retrying, transaction_until, Conflicted, LostConnection};
use super::{ConnectionManager, DbConnection, DbPool, PooledConnection, StoreError};

/// Runs `work` with a pooled connection on the runtime's blocking thread
/// pool, so a synchronous diesel call never stalls an HTTP worker. Failing
/// to get a connection (database down, pool exhausted past the timeout) is
/// [`StoreError::Unavailable`].
pub async fn run<T, F>(pool: &DbPool, work: F) -> Result<T, StoreError>
where
    F: FnOnce(&mut DbConnection) -> Result<T, StoreError> + Send + 'static,
    T: Send + 'static,
{
    run_as(pool, work).await
}

/// [`run`] for work with an error type of its own (`E` must be able to say
/// "the database is unavailable").
///
/// The whole of it, waiting for a connection included, is bounded by the
/// pool's connection timeout (`DATABASE_TIMEOUT_SECONDS`): past it the
/// caller gets "unavailable" whatever the database does (a frozen server
/// answers nothing, and a blocking libpq call cannot be interrupted). The
/// abandoned work goes on on its blocking thread until the database
/// answers or the connection's own timeouts end it, and its connection is
/// discarded rather than handed to another request. For reads: writes go
/// through [`run_write`] or [`run_change`], which roll back work that ends
/// after the deadline (on SQLite, one that ended before it may still
/// commit with the others of its group); a `write_transaction` inside
/// `run_as` would not know the deadline, and on SQLite would not take its
/// turn on the writer.
pub async fn run_as<T, E, F>(pool: &DbPool, work: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + LostConnection + Send + 'static,
{
    let connections = pool.pool.clone();
    bounded(pool, move |_deadline, given_up| {
        on_pooled(&connections, &given_up, work)
    })
    .await
}

/// `work` on a connection checked out of `connections`: `work` runs once;
/// a connection found dead by its first statement, or kept past the
/// caller's deadline, is discarded (the pool drops it on return) and the
/// next request gets a fresh one.
fn on_pooled<T, E, F>(
    connections: &r2d2::Pool<ConnectionManager>,
    given_up: &AtomicBool,
    work: F,
) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<StoreError> + LostConnection,
{
    let mut conn = checkout(connections).map_err(E::from)?;
    let result = work(&mut conn);
    let lost = result.as_ref().err().is_some_and(E::lost_connection);
    if lost || given_up.load(Ordering::Acquire) {
        discard(&mut conn);
    }
    result
}

/// `work` in a write transaction, bounded as [`run_as`] is: on PostgreSQL
/// an ordinary transaction on a pooled connection; on SQLite a turn on the
/// pool's writing connection, in a transaction it may share with other
/// requests' writes and one commit (docs/storage.md, "Group commit on
/// SQLite"), taking no connection from the pool. Either way the work is
/// rolled back if it ends after the caller stopped waiting.
pub async fn run_write<T, E, F>(pool: &DbPool, work: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + From<diesel::result::Error> + LostConnection + Send + 'static,
{
    if let Some(writer) = &pool.writer {
        return writer.write_async(sqlite_deadline(pool), work).await;
    }
    let connections = pool.pool.clone();
    bounded(pool, move |deadline, given_up| {
        on_pooled(&connections, &given_up, |conn| {
            transaction_until(conn, deadline, work)
        })
    })
    .await
}

/// [`run_write`] of a transaction that is tried again while PostgreSQL
/// ends it in a conflict ([`write_transaction_retrying`](super::write_transaction_retrying)).
pub async fn run_write_retrying<T, E, F>(pool: &DbPool, mut work: F) -> Result<T, E>
where
    F: FnMut(&mut DbConnection) -> Result<T, E> + Send + 'static,
    T: Send + 'static,
    E: From<StoreError>
        + From<diesel::result::Error>
        + LostConnection
        + Conflicted
        + Send
        + 'static,
{
    if let Some(writer) = &pool.writer {
        // SQLite's writes never conflict: they take their turns.
        return writer.write_async(sqlite_deadline(pool), work).await;
    }
    let connections = pool.pool.clone();
    bounded(pool, move |deadline, given_up| {
        on_pooled(&connections, &given_up, |conn| {
            retrying(|| transaction_until(conn, deadline, &mut work))
        })
    })
    .await
}

/// `prepare`, then `write` with what it prepared, as one piece of work
/// bounded as [`run_as`] is, for work whose reading is long and whose
/// writing is short (the outbox's fan-out). On PostgreSQL both run in one
/// transaction on one pooled connection, so the rows `prepare` locks stay
/// locked until `write` commits. On SQLite `prepare` reads on a pooled
/// connection, in a read transaction of its own (one snapshot), off the
/// writer, and only `write` takes a turn on the writer, so that the writes
/// of requests never wait behind the reading: `write` must check again
/// whatever of `prepare`'s reading it relies on, as another write may come
/// between the two.
pub async fn run_prepared_write<P, T, E, R, W>(pool: &DbPool, prepare: R, write: W) -> Result<T, E>
where
    R: FnOnce(&mut DbConnection) -> Result<P, E> + Send + 'static,
    W: FnOnce(&mut DbConnection, P) -> Result<T, E> + Send + 'static,
    P: Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + From<diesel::result::Error> + LostConnection + Send + 'static,
{
    let writer = pool.writer.clone();
    let connections = pool.pool.clone();
    bounded(pool, move |deadline, given_up| match writer {
        None => on_pooled(&connections, &given_up, |conn| {
            transaction_until(conn, deadline, |conn| {
                let prepared = prepare(conn)?;
                write(conn, prepared)
            })
        }),
        Some(writer) => {
            let prepared = on_pooled(&connections, &given_up, |conn| {
                diesel::Connection::transaction(conn, prepare)
            })?;
            writer.write(deadline, move |conn| write(conn, prepared))
        }
    })
    .await
}

/// Where a change that was read and decided outside any transaction is
/// written ([`run_change`]): the backend's way, chosen once, when the pool
/// was opened.
pub enum WriteTo<'a> {
    /// PostgreSQL: the pooled connection the change was read on, outside
    /// any transaction. A write of one statement is a transaction of its
    /// own; a write of more opens one ([`transaction_until`]) with this
    /// deadline.
    Connection(&'a mut DbConnection, Deadline),
    /// SQLite: the writing connection, inside its (group) transaction,
    /// which commits after `write` returns `Ok` and rolls back what it did
    /// otherwise.
    Group(&'a mut DbConnection),
}

/// What the read of a change ([`run_change`]) found: an answer already
/// (nothing to write), or what to write.
pub enum Next<S, T> {
    Done(T),
    Write(S),
}

/// Where the read of a change ([`run_change`]) is made on SQLite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// On a pooled connection, before the write waits for its turn.
    Before,
    /// In the writer's turn, on its connection, where the writes of the
    /// open group are seen (after a read made before turned out stale).
    InTurn,
}

/// One change to the database, read and decided outside any transaction
/// and then written, bounded as [`run_as`] is: `read` runs on a pooled
/// connection (on SQLite one idle at once, see [`Reader`], on the calling
/// task's thread, which it holds only as long as it reads: SQLite's part
/// takes no blocking thread); what it hands
/// on, `write` writes where this backend writes ([`WriteTo`]: on
/// PostgreSQL the same connection, on SQLite the writer's turn, after the
/// pooled connection went back, so that writes waiting for their turn
/// never keep the pool's connections from the reads). `write` must write
/// only if what `read` saw is still so (a versioned write), and say so
/// when it is not. With [`Reading::InTurn`], or when no connection was
/// idle for it, SQLite runs `read` again in the writer's turn (PostgreSQL
/// reads the newest commit either way).
pub async fn run_change<S, T, E, R, W>(
    pool: &DbPool,
    reading: Reading,
    mut read: R,
    write: W,
) -> Result<T, E>
where
    R: FnMut(&mut Reader<'_>) -> Result<Next<S, T>, E> + Send + 'static,
    W: FnOnce(WriteTo<'_>, S) -> Result<T, E> + Send + 'static,
    S: Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + From<diesel::result::Error> + LostConnection + Send + 'static,
{
    let Some(writer) = pool.writer.clone() else {
        let connections = pool.pool.clone();
        return bounded(pool, move |deadline, given_up| {
            on_pooled(&connections, &given_up, |conn| {
                match read(&mut Reader(ReaderSource::Given(conn)))? {
                    Next::Done(answer) => Ok(answer),
                    Next::Write(decided) => write(WriteTo::Connection(conn, deadline), decided),
                }
            })
        })
        .await;
    };
    // SQLite: no blocking thread. The read before the turn runs here, on
    // the calling task's thread, on a connection idle at once (a read of
    // one game from memory is shorter than the hand-over to a thread
    // would be), and a crash in it is an error, as on a blocking thread;
    // the write's turn is awaited, not slept through (docs/storage.md,
    // "Writes without a blocking thread").
    let deadline = sqlite_deadline(pool);
    if reading == Reading::InTurn {
        return writer.write_async(deadline, in_turn(read, write)).await;
    }
    let mut reader = Reader(ReaderSource::Idle(&pool.pool, None, false));
    let early = match unwound(|| read(&mut reader)) {
        Ok(early) => early,
        Err(crashed) => {
            // Its connection may be in the middle of a statement.
            if let ReaderSource::Idle(_, Some(conn), _) = &mut reader.0 {
                discard(conn);
            }
            return Err(crashed.into());
        }
    };
    let none_idle = matches!(reader.0, ReaderSource::Idle(_, _, true));
    if let ReaderSource::Idle(_, Some(conn), _) = &mut reader.0 {
        if early.as_ref().err().is_some_and(E::lost_connection) {
            discard(conn);
        }
    }
    drop(reader);
    if none_idle {
        // No connection was idle for the read: it is made in the
        // writer's turn instead, as after a lost race.
        return writer.write_async(deadline, in_turn(read, write)).await;
    }
    match early? {
        Next::Done(answer) => Ok(answer),
        Next::Write(decided) => {
            writer
                .write_async(deadline, move |conn| write(WriteTo::Group(conn), decided))
                .await
        }
    }
}

/// `work`'s result, or the server's failure if it panicked (as a blocking
/// thread's panic is reported by [`bounded`]), for work run on the
/// calling task's thread: a panic must not end a task that serves many
/// (the clock's sweep, a bot) or reset a request's connection.
pub(super) fn unwound<T>(work: impl FnOnce() -> T) -> Result<T, StoreError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .map_err(|payload| StoreError::Worker(panic_message(payload.as_ref())))
}

/// What a panic said, as far as it said it in words.
pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let said = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    format!("panicked: {}", said.unwrap_or("(no message)"))
}

/// When a write on SQLite, which waits for its turn on the writer's
/// thread without a thread of its own, stops waiting: the pool's
/// connection timeout from now, as [`bounded`] work's.
fn sqlite_deadline(pool: &DbPool) -> Instant {
    Instant::now() + pool.pool.connection_timeout()
}

/// [`run_change`]'s read and write, both in the SQLite writer's turn.
fn in_turn<S, T, E, R, W>(mut read: R, write: W) -> impl FnOnce(&mut DbConnection) -> Result<T, E>
where
    R: FnMut(&mut Reader<'_>) -> Result<Next<S, T>, E>,
    W: FnOnce(WriteTo<'_>, S) -> Result<T, E>,
{
    move |conn| match read(&mut Reader(ReaderSource::Given(conn)))? {
        Next::Done(answer) => Ok(answer),
        Next::Write(decided) => write(WriteTo::Group(conn), decided),
    }
}

/// A read's way to a connection ([`run_change`]): on SQLite, before the
/// write's turn, one of the pool's, taken only if the read needs one (a
/// change decided from a game already at hand reads nothing) and only if
/// one is idle at once (a read before the turn is worth no wait: without
/// one, the read is made in the turn).
pub struct Reader<'a>(ReaderSource<'a>);

// One value on the stack for one read: boxing the pooled connection would
// cost an allocation per read for nothing.
#[allow(clippy::large_enum_variant)]
enum ReaderSource<'a> {
    Given(&'a mut DbConnection),
    /// The pool, the connection taken from it, and whether one was wanted
    /// when none was idle.
    Idle(
        &'a r2d2::Pool<ConnectionManager>,
        Option<PooledConnection>,
        bool,
    ),
    /// None: the change is decided from what is at hand, or not here.
    /// Whether a connection was wanted.
    None(bool),
}

impl Reader<'_> {
    /// A reader with no connection, for a change decided from a game at
    /// hand: [`Reader::conn`] fails, and [`Reader::wanted`] says so.
    pub fn none() -> Reader<'static> {
        Reader(ReaderSource::None(false))
    }

    /// Whether a reader with no connection ([`Reader::none`]) was asked
    /// for one.
    pub fn wanted(&self) -> bool {
        matches!(self.0, ReaderSource::None(true))
    }

    /// The connection to read on, checked out of the pool on first use.
    pub fn conn(&mut self) -> Result<&mut DbConnection, StoreError> {
        match &mut self.0 {
            ReaderSource::Given(conn) => Ok(&mut **conn),
            ReaderSource::None(wanted) => {
                *wanted = true;
                Err(StoreError::Unavailable(
                    "no connection is at hand for the read".into(),
                ))
            }
            ReaderSource::Idle(pool, taken, none_idle) => {
                if taken.is_none() {
                    *taken = pool.try_get();
                }
                *none_idle = taken.is_none();
                taken.as_deref_mut().ok_or_else(|| {
                    StoreError::Unavailable("no connection is idle for the read".into())
                })
            }
        }
    }
}

/// Runs `blocking` on the runtime's blocking thread pool, told its
/// deadline (the pool's connection timeout from now) and a flag set when
/// the caller has stopped waiting for it at that deadline.
async fn bounded<T, E, F>(pool: &DbPool, blocking: F) -> Result<T, E>
where
    F: FnOnce(Deadline, Arc<AtomicBool>) -> Result<T, E> + Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + Send + 'static,
{
    let bound = pool.pool.connection_timeout();
    let deadline = Instant::now() + bound;
    let abandoned = Arc::new(AtomicBool::new(false));
    let given_up = abandoned.clone();
    let task = tokio::task::spawn_blocking(move || blocking(Deadline::at(deadline), given_up));
    match tokio::time::timeout(bound, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(join)) => Err(E::from(StoreError::Worker(join.to_string()))),
        Err(_elapsed) => {
            abandoned.store(true, Ordering::Release);
            Err(E::from(StoreError::not_answered_within(bound)))
        }
    }
}

/// How long a request waits for a connection when the pool has none at all.
const EMPTY_POOL_WAIT: Duration = Duration::from_millis(250);

/// A connection from the pool. An idle one is taken at once. Without one,
/// a pool that still holds connections (all busy) is waited on, up to the
/// whole timeout, for as long as it holds any; a pool that holds none has
/// lost them all and is failing
/// to open new ones (the database refuses connections, or is gone), so the
/// request waits only as long as opening a connection takes and then is
/// refused at once instead of after the whole timeout. The pool keeps
/// trying in the background and requests go through again as soon as a
/// connection opens.
pub(super) fn checkout(
    pool: &r2d2::Pool<ConnectionManager>,
) -> Result<PooledConnection, StoreError> {
    if let Some(conn) = pool.try_get() {
        return Ok(conn);
    }
    // Counted as waiting until this returns, with a connection or not.
    let _waiting = crate::metrics::Open::new(&crate::metrics::METRICS.pool_waiting);
    let timeout = pool.connection_timeout();
    let until = Instant::now() + timeout;
    // Waited on in slices: the connections a busy pool holds may all die
    // meanwhile (the database went away under them), and then the pool is
    // as empty as above and the wait ends the same way.
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let empty = pool.state().connections == 0;
        let wait = EMPTY_POOL_WAIT.min(left).max(Duration::from_millis(1));
        match pool.get_timeout(wait) {
            Ok(conn) => return Ok(conn),
            Err(error) if empty || left <= wait => return Err(error.into()),
            Err(_) => continue,
        }
    }
}

/// When the caller stops waiting for a piece of database work and answers
/// "unavailable" ([`run_as`]): passed, as a value, to whatever must not
/// write after it (a commit, the one statement of a change, a writer's
/// turn).
#[derive(Debug, Clone, Copy)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline (tools, tests, start-up).
    pub const NONE: Deadline = Deadline(None);

    /// The deadline at `at`.
    pub fn at(at: Instant) -> Deadline {
        Deadline(Some(at))
    }

    /// Whether the caller was already answered "unavailable".
    pub fn passed(self) -> bool {
        self.0.is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// How long until the deadline, or `otherwise` without one.
    pub(super) fn left_or(self, otherwise: Duration) -> Duration {
        self.0.map_or(otherwise, |deadline| {
            deadline.saturating_duration_since(Instant::now())
        })
    }
}

/// Marks a connection as unusable so that the pool drops it when it comes
/// back (r2d2 asks `has_broken` on every return).
pub(super) fn discard(conn: &mut DbConnection) {
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    match conn {
        DbConnection::Postgresql(pg) => {
            AnsiTransactionManager::transaction_manager_status_mut(pg).set_in_error();
        }
        DbConnection::Sqlite(sqlite) => {
            AnsiTransactionManager::transaction_manager_status_mut(sqlite).set_in_error();
        }
    }
}
