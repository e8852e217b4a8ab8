//! The HTTP workers' own connections to PostgreSQL: reads, and writes of
//! one statement, that take no blocking thread (docs/storage.md, "Reads
//! without a blocking thread" and "Writes without a blocking thread").
//!
//! Work through the pool ([`super::run_as`]) is handed to a blocking
//! thread, which wakes, sends the statement, sleeps until the answer and
//! wakes the HTTP worker again: two thread switches a request beside the
//! round trip itself, and on two cores they cost more than the statement.
//! Here the HTTP worker sends the statement itself, on an asynchronous
//! connection of its own, and goes on serving other requests until the
//! answer arrives.
//!
//! Each HTTP worker thread keeps its own connections (at most
//! `per_thread`, opened on first use and kept while they work), so a
//! connection and the task that drives it live on one thread and no
//! statement crosses threads; reads and writes each have a set of their
//! own ([`OwnConnections`], one for each). With all of them in use a
//! statement waits for the next one given back, first come first served.
//! The reads waiting then are taken together: the read that gets the
//! connection sends one statement for all of their keys
//! ([`OwnConnections::read_by_key`]). When opening a connection failed a
//! moment ago, or outside an HTTP worker, there is no connection here and
//! the caller uses the pool, as every other statement does. A read whose
//! connection fails at once is asked again once on a new one, then left
//! to the pool, which answers it (or says the database is unavailable) as
//! before; one that fails later answers "unavailable" itself, so that no
//! read waits much past its bound. A write is never sent twice
//! ([`OwnConnections::write_once`]). They use TLS as libpq would for the
//! same URL (`sslmode`, `sslrootcert`; `tls`), and are used only where
//! libpq and this client read the same settings (no `PG...` variable in
//! the environment, no parameter that only libpq knows, no TLS setting
//! `tls` cannot honour).

use std::any::TypeId;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::connection::InstrumentationEvent;
use diesel::QueryResult;
use diesel_async::pooled_connection::PoolableConnection;
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use tokio::sync::oneshot;

use super::tls::{self, ReadTls, TlsParams};
use super::{sets_param, BoxError, StoreError};

mod queue;
pub use queue::KeyedFuture;
use queue::{with_queue, Failed};

/// The `application_name` of the connections for reads, unless the URL
/// names one.
pub const APPLICATION_NAME: &str = "stratego-api reads";

/// The `application_name` of the connections for writes, unless the URL
/// names one.
pub const WRITES_APPLICATION_NAME: &str = "stratego-api writes";

/// The one `PG...` variable of the environment known not to be libpq's
/// (the server's data directory). libpq reads many others for a
/// connection (server, user, password, TLS, peer and authentication
/// checks, ...) and this client none: with any of them set, the two could
/// reach different servers, or the same one under other rules, so reads
/// use the pool.
const NOT_LIBPQ: &[&str] = &["PGDATA"];

/// How long a thread opens no new connection after opening one failed.
const RETRY_AFTER: Duration = Duration::from_secs(30);

/// The future a read's work returns: it borrows the connection.
pub type ReadFuture<'c, T> = Pin<Box<dyn Future<Output = QueryResult<T>> + Send + 'c>>;

/// One set of the workers' own connections to one database (for reads,
/// or for writes): how to open a connection, how many each thread may
/// keep, and what bounds a statement.
#[derive(Debug)]
pub(super) struct OwnConnections {
    /// Tells this database's connections apart from another's on the same
    /// thread (tests run several servers in one process).
    id: u64,
    config: tokio_postgres::Config,
    /// What they are for (their `application_name` unless the URL names
    /// one), for the log.
    name: &'static str,
    /// How the connections use TLS.
    tls: ReadTls,
    per_thread: usize,
    timeout: Duration,
    /// The pool's statement counter, and this path's own.
    counters: [Arc<AtomicU64>; 2],
}

impl OwnConnections {
    /// Reads for the PostgreSQL database at `url`, or why there are none:
    /// a URL this client cannot read (a libpq-only parameter), or TLS
    /// settings it cannot honour as libpq does.
    pub(super) fn new(
        url: &str,
        name: &'static str,
        per_thread: usize,
        timeout: Duration,
        counters: [Arc<AtomicU64>; 2],
    ) -> Result<Self, String> {
        static IDS: AtomicU64 = AtomicU64::new(0);
        let (understood, libpq_only) = split_libpq_only(url);
        let mut config = tokio_postgres::Config::from_str(&understood)
            .map_err(|e| format!("the URL is not understood here ({e})"))?;
        let mut tls_params = TlsParams::default();
        // Two parameters libpq spells or counts otherwise, and the TLS
        // ones, which `tls` reads as libpq does.
        for (key, value) in libpq_only {
            if tls_params.take(&key, &value) {
                continue;
            }
            let number: u64 = value
                .parse()
                .map_err(|_| format!("{key}={value} is not a number"))?;
            match key.as_str() {
                "tcp_user_timeout" => config.tcp_user_timeout(Duration::from_millis(number)),
                _ => config.keepalives_retries(
                    i32::try_from(number)
                        .ok()
                        .and_then(|n| u32::try_from(n).ok())
                        .ok_or_else(|| format!("{key}={value} is too large"))?,
                ),
            };
        }
        // The same bounds as the pool's connections (`postgres_url`); a
        // parameter the URL sets is kept.
        let given = |key: &str| {
            sets_param(url, key)
                || key == "keepalives_retries" && sets_param(url, "keepalives_count")
        };
        let seconds = timeout.as_secs().max(1);
        if !given("connect_timeout") {
            // Opening a connection takes at most half of a read's bound
            // (`read_by_key`), per address tried.
            config.connect_timeout(timeout / 2);
        }
        if !given("keepalives") {
            config.keepalives(true);
        }
        if !given("keepalives_idle") {
            config.keepalives_idle(Duration::from_secs(seconds));
        }
        if !given("keepalives_interval") {
            config.keepalives_interval(Duration::from_secs(1));
        }
        if !given("keepalives_retries") {
            config.keepalives_retries(3);
        }
        if !given("tcp_user_timeout") {
            config.tcp_user_timeout(Duration::from_secs(seconds));
        }
        // What an operator sees in `pg_stat_activity`.
        if !given("application_name") {
            config.application_name(name);
        }
        let home = std::env::var_os("HOME")
            .filter(|home| !home.is_empty())
            .map(PathBuf::from);
        let tls = tls::plan(&tls_params, &config, home.as_deref())?;
        Ok(OwnConnections {
            id: IDS.fetch_add(1, Ordering::Relaxed),
            config,
            name,
            tls,
            per_thread,
            timeout,
            counters,
        })
    }

    /// The row of `key` read by `work`, on one of this thread's
    /// connections, bounded by the pool's timeout; `Some(Ok(None))`: no
    /// such row. Reads by the same `work` (its type: one statement) that
    /// wait for a connection meanwhile are taken together: the read that
    /// gets a connection sends one statement for its own key and the
    /// others then waiting (at most [`queue::MAX_TAKEN`] in all), and each
    /// read gets its own row (docs/storage.md, "Reads taken together"). Every
    /// key joins before its statement is sent, so each read sees every
    /// change committed before its request asked.
    ///
    /// A read whose statement was never answered (the read that sent it
    /// stopped: its request ended, or its bound passed) asks again; one
    /// whose statement failed at once asks again once, on a new
    /// connection. `None`: no connection to be had now, or the read failed
    /// again, within a tenth of the bound; the caller reads through the
    /// pool instead. A read that failed later is "unavailable".
    pub(super) async fn read_by_key<T, F>(
        &self,
        key: String,
        work: F,
    ) -> Option<Result<Option<T>, StoreError>>
    where
        T: Clone + 'static,
        F: for<'c> Fn(&'c mut AsyncPgConnection, &'c [String]) -> KeyedFuture<'c, T> + 'static,
    {
        if !on_worker_thread() {
            return None;
        }
        let started = Instant::now();
        let kind = TypeId::of::<F>();
        let attempt = async {
            let mut asked_again = false;
            loop {
                let (answer, mut answered) = oneshot::channel();
                let ticket =
                    with_queue::<T, _>(self.id, kind, |queue| queue.join(key.clone(), answer))?;
                let outcome = tokio::select! {
                    // A read answered meanwhile takes its answer, not the
                    // connection handed to it.
                    biased;
                    taken = &mut answered => taken,
                    lease = self.lease() => {
                        match lease {
                            Some(lease) => self.send_waiting(kind, ticket, lease, &work).await,
                            // None to be had: the pool reads, unless
                            // another read took this key meanwhile.
                            None => {
                                let left = with_queue::<T, _>(self.id, kind, |queue| {
                                    queue.leave(ticket)
                                });
                                if left.unwrap_or(true) {
                                    return None;
                                }
                            }
                        }
                        (&mut answered).await
                    }
                };
                match outcome {
                    Ok(Err(Failed::AtOnce)) if !asked_again => asked_again = true,
                    Ok(answer) => return Some(answer),
                    // Never answered: asked again, within this read's bound.
                    Err(_) => {}
                }
            }
        };
        match tokio::time::timeout(self.timeout, attempt).await {
            Ok(Some(Ok(found))) => Some(Ok(found)),
            // None to be had, or failed at once (a connection the database
            // ended, opening refused): the pool reads, within its own
            // bound.
            Ok(None | Some(Err(Failed::AtOnce))) if started.elapsed() <= self.timeout / 10 => None,
            // Failed late: read again through the pool, the request could
            // wait up to twice its bound; it is answered "unavailable".
            Ok(_) => Some(Err(StoreError::Unavailable(
                "the read failed on its connection, too late to read it again".into(),
            ))),
            Err(_elapsed) => Some(Err(StoreError::not_answered_within(self.timeout))),
        }
    }

    /// `statement`, sent once on one of this thread's connections (the
    /// next one given back when all are in use), bounded by the pool's
    /// timeout: its rows, read to the end of its answer (after its
    /// commit, and any error that follows the rows), or how it failed.
    /// Never sent twice: a write whose answer was lost may have been
    /// made, and a versioned write sent again would then be refused as
    /// stale, so a connection that fails answers "unavailable", as the
    /// pool's would (docs/storage.md, "Writes without a blocking thread").
    /// `None`: nothing was sent, because no connection is to be had now
    /// (outside an HTTP worker, or opening one failed lately), within a
    /// tenth of the bound; the caller writes through the pool. Later, it
    /// is "unavailable": the pool would take a whole bound more.
    pub(super) async fn write_once<'q, Q, U>(
        &self,
        statement: Q,
    ) -> Option<Result<Vec<U>, StoreError>>
    where
        Q: diesel_async::methods::LoadQuery<'q, AsyncPgConnection, U> + Send + 'q,
        U: Send + 'static,
    {
        if !on_worker_thread() {
            return None;
        }
        let started = Instant::now();
        let attempt = async {
            // A connection whose server ended it (a restart) and this
            // worker saw close is dropped before anything is sent on it,
            // so that the write costs no failed request; one that ends
            // under the statement fails it (below). Each connection kept
            // is tried at most once.
            let mut lease = self.lease().await?;
            for _ in 0..=self.per_thread {
                if !lease
                    .conn
                    .as_mut()
                    .is_some_and(PoolableConnection::is_broken)
                {
                    break;
                }
                drop(lease);
                lease = self.lease().await?;
            }
            let conn = lease.conn.as_mut()?;
            // All of its answer: PostgreSQL sends a statement's rows before
            // it commits, and the commit can still fail; the answer ends
            // once the commit is done.
            let written = diesel_async::RunQueryDsl::load(statement, conn)
                .await
                .map_err(StoreError::from);
            // A connection that answered, with a row or a refusal, is kept;
            // one that failed to carry the statement is closed.
            lease.done = !matches!(written, Err(StoreError::Unavailable(_)));
            Some(written)
        };
        match tokio::time::timeout(self.timeout, attempt).await {
            Ok(None) if started.elapsed() > self.timeout / 10 => Some(Err(
                StoreError::Unavailable("no connection was to be had for the write in time".into()),
            )),
            Ok(written) => written,
            Err(_elapsed) => Some(Err(StoreError::not_answered_within(self.timeout))),
        }
    }

    /// Reads the key of read `ticket` and those of the other reads by the
    /// same statement (`kind`) waiting on this thread, at most
    /// [`queue::MAX_TAKEN`] in all, in one statement on `lease`'s
    /// connection, and answers each of them: its row, or how the statement
    /// failed.
    async fn send_waiting<T, F>(&self, kind: TypeId, ticket: u64, mut lease: Lease, work: &F)
    where
        T: Clone + 'static,
        F: for<'c> Fn(&'c mut AsyncPgConnection, &'c [String]) -> KeyedFuture<'c, T>,
    {
        let taken =
            with_queue::<T, _>(self.id, kind, |queue| queue.take(ticket)).unwrap_or_default();
        if taken.is_empty() {
            // This read's key went with another's statement.
            lease.done = true;
            return;
        }
        let keys: Vec<String> = taken.iter().map(|w| w.key.clone()).collect();
        let Some(conn) = lease.conn.as_mut() else {
            return;
        };
        let sent = Instant::now();
        let mut rows: HashMap<String, (T, usize)> = match work(conn, &keys).await {
            Ok(rows) => {
                lease.done = true;
                rows.into_iter().map(|(key, row)| (key, (row, 0))).collect()
            }
            Err(error) => {
                tracing::debug!(%error, "a read on a worker's connection failed");
                let failed = match sent.elapsed() <= self.timeout / 10 {
                    true => Failed::AtOnce,
                    false => Failed::Late,
                };
                for waiting in taken {
                    let _ = waiting.answer.send(Err(failed));
                }
                return;
            }
        };
        // A key asked twice gets its row twice.
        for key in &keys {
            if let Some((_, asked)) = rows.get_mut(key) {
                *asked += 1;
            }
        }
        for waiting in taken {
            let found = match rows.get_mut(&waiting.key) {
                Some((row, asked)) if *asked > 1 => {
                    *asked -= 1;
                    Some(row.clone())
                }
                Some(_) => rows.remove(&waiting.key).map(|(row, _)| row),
                None => None,
            };
            let _ = waiting.answer.send(Ok(found));
        }
    }

    /// An idle connection of this thread, a new one under the bound, or,
    /// with all of them in use, the next one given back (first come, first
    /// served). `None` while opening one fails.
    async fn lease(&self) -> Option<Lease> {
        // Lives once, on one read's stack: boxing the connection would only
        // add an allocation.
        #[allow(clippy::large_enum_variant)]
        enum Next {
            Idle(AsyncPgConnection),
            Open,
            Wait(oneshot::Receiver<Handoff>),
            Pool,
        }
        let next = with_slot(self.id, |slot| {
            if let Some(conn) = slot.idle.pop() {
                Next::Idle(conn)
            } else if slot.backing_off() {
                Next::Pool
            } else if slot.open < self.per_thread {
                slot.open += 1;
                Next::Open
            } else {
                // Reads that gave up meanwhile wait no more. The queue needs
                // no bound of its own: each connection given back answers up
                // to 64 of the reads then waiting (`read_by_key`), and each
                // read is bounded in time.
                slot.waiting.retain(|waiter| !waiter.is_closed());
                let (sender, receiver) = oneshot::channel();
                slot.waiting.push_back(sender);
                Next::Wait(receiver)
            }
        })?;
        let conn = match next {
            Next::Idle(conn) => Some(conn),
            Next::Open => None,
            // A read takes a fraction of a millisecond: waiting for a
            // connection costs less than handing the read to a blocking
            // thread. Bounded by the read's timeout.
            Next::Wait(receiver) => {
                let mut handoff = receiver.await.ok()?;
                handoff.live = false;
                handoff.conn.take()
            }
            Next::Pool => return None,
        };
        // From here the lease holds a place under the bound: a connection,
        // or the right to open one.
        let mut lease = Lease {
            id: self.id,
            conn,
            done: false,
        };
        if lease.conn.is_none() {
            if with_slot(self.id, |slot| slot.backing_off()) != Some(false) {
                return None;
            }
            let opened = tokio::time::timeout(self.timeout / 2, self.open())
                .await
                .unwrap_or_else(|_| Err("opening took half of the read's bound".into()));
            match opened {
                Ok(conn) => lease.conn = Some(conn),
                Err(error) => {
                    tracing::warn!(
                        error = %super::one_line(&error.to_string()),
                        connections = self.name,
                        "could not open a connection of the worker's own; the pool is used for {} s",
                        RETRY_AFTER.as_secs()
                    );
                    with_slot(self.id, |slot| {
                        slot.retry_at = Some(Instant::now() + RETRY_AFTER)
                    });
                    return None;
                }
            }
        }
        Some(lease)
    }

    /// Whether a read or write here may take one of this thread's
    /// connections: on an HTTP worker, unless opening one failed lately.
    pub(super) fn usable_here(&self) -> bool {
        on_worker_thread() && with_slot(self.id, |slot| !slot.backing_off()).unwrap_or(false)
    }

    /// What the server's certificate must be (for the log).
    pub(super) fn tls_checks(&self) -> &'static str {
        self.tls.checks()
    }

    async fn open(&self) -> Result<AsyncPgConnection, BoxError> {
        // Each way libpq would try, in its order (`allow`, `prefer`: the
        // other one when the first fails).
        let mut failure: Option<BoxError> = None;
        let mut opened = None;
        for &attempt in self.tls.attempts() {
            let mut config = self.config.clone();
            config.ssl_mode(attempt);
            match config.connect(self.tls.connector()).await {
                Ok(pair) => {
                    opened = Some(pair);
                    break;
                }
                Err(error) => failure = Some(error.into()),
            }
        }
        let Some((client, connection)) = opened else {
            return Err(failure.unwrap_or_else(|| "no way to connect".into()));
        };
        let mut conn =
            AsyncPgConnection::try_from_client_and_connection(client, connection).await?;
        // As the pool's connections: the server gives up on a statement
        // after the request's bound (not counted: part of opening). And
        // never a table scan: every statement sent here finds its rows by
        // key, and the generic plan a connection keeps for it, if made
        // while `games` was small, would otherwise scan the whole table
        // however much it grew, until the table's statistics change
        // (docs/storage.md, "Reads without a blocking thread"). For the
        // same reason the generic plan is the plan, from the first run:
        // PostgreSQL would otherwise plan the batched read of games (its
        // keys one array) again on every run, an index plan for an
        // array of unknown length looking dearer than one for the few keys
        // given.
        conn.batch_execute(&format!(
            "SET statement_timeout = {}; SET enable_seqscan = off; \
             SET plan_cache_mode = force_generic_plan",
            self.timeout.as_millis()
        ))
        .await?;
        let counters = self.counters.clone();
        conn.set_instrumentation(move |event: InstrumentationEvent<'_>| {
            if let InstrumentationEvent::StartQuery { .. } = event {
                for counter in &counters {
                    counter.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        Ok(conn)
    }
}

/// A place under a thread's bound, held by one read: a connection, or
/// (none yet) the right to open one. Given back when the read worked;
/// else its connection is closed and only the place is given back (a read
/// stopped half-way, its request gone, leaves a connection in an unknown
/// state).
struct Lease {
    id: u64,
    conn: Option<AsyncPgConnection>,
    done: bool,
}

impl Drop for Lease {
    fn drop(&mut self) {
        let conn = self.conn.take();
        let kept = if self.done { conn } else { None };
        release(self.id, kept);
    }
}

/// A place passed to a waiting read, with its connection if it has one.
/// Dropped unreceived (the read gave up meanwhile), it passes on.
struct Handoff {
    id: u64,
    conn: Option<AsyncPgConnection>,
    /// Cleared once received (or returned by a failed send).
    live: bool,
}

impl Drop for Handoff {
    fn drop(&mut self) {
        if self.live {
            release(self.id, self.conn.take());
        }
    }
}

/// Gives a place back: to the first read still waiting, else (with its
/// connection) to the idle ones, else (none) off the count.
fn release(id: u64, mut conn: Option<AsyncPgConnection>) {
    loop {
        let waiter = with_slot(id, |slot| {
            let waiter = slot.waiting.pop_front();
            if waiter.is_none() {
                match conn.take() {
                    Some(conn) => slot.idle.push(conn),
                    None => slot.open = slot.open.saturating_sub(1),
                }
            }
            waiter
        })
        .flatten();
        // No waiter, or this thread is ending (its connections with it).
        let Some(waiter) = waiter else {
            return;
        };
        let handoff = Handoff {
            id,
            conn: conn.take(),
            live: true,
        };
        match waiter.send(handoff) {
            Ok(()) => return,
            Err(mut back) => {
                back.live = false;
                conn = back.conn.take();
            }
        }
    }
}

/// One thread's connections to one database.
#[derive(Default)]
struct Slot {
    idle: Vec<AsyncPgConnection>,
    /// Places taken: connections idle and in use, and reads opening one.
    open: usize,
    retry_at: Option<Instant>,
    /// Reads waiting for a place, first come first served.
    waiting: VecDeque<oneshot::Sender<Handoff>>,
}

impl Slot {
    /// Whether opening a connection failed lately (reads use the pool).
    fn backing_off(&self) -> bool {
        self.retry_at.is_some_and(|at| Instant::now() < at)
    }
}

thread_local! {
    static SLOTS: RefCell<HashMap<u64, Slot>> = RefCell::new(HashMap::new());
}

/// `f` on this thread's slot for database `id`; `None` once the thread is
/// ending.
fn with_slot<R>(id: u64, f: impl FnOnce(&mut Slot) -> R) -> Option<R> {
    SLOTS
        .try_with(|slots| f(slots.borrow_mut().entry(id).or_default()))
        .ok()
}

thread_local! {
    static HTTP_WORKER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks the calling thread as an HTTP worker's, whose reads and writes
/// may use connections of its own (called by each worker as it starts).
pub fn mark_http_worker() {
    HTTP_WORKER.with(|worker| worker.set(true));
}

/// Whether this thread is an HTTP worker's ([`mark_http_worker`]: not the
/// main thread, whose tasks, the bots' and the clock's, use the pool, nor
/// the metrics server's) and runs a single-threaded runtime (as each
/// does): only there does a statement's future, and the task that drives
/// its connection, stay on the thread whose connections it uses.
fn on_worker_thread() -> bool {
    HTTP_WORKER.with(std::cell::Cell::get)
        && tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::CurrentThread)
}

/// Why this process's environment keeps reads on the pool, if it does: a
/// variable libpq would read.
pub(super) fn environment_refuses() -> Option<String> {
    let names = std::env::vars_os().filter_map(|(name, _)| name.into_string().ok());
    libpq_variable(names).map(|set| format!("{set} is set in the environment"))
}

/// The first of the variables `names` that libpq may read: `PG` and
/// capitals, digits or underscores, but not one of [`NOT_LIBPQ`].
fn libpq_variable(mut names: impl Iterator<Item = String>) -> Option<String> {
    names.find(|name| {
        name.strip_prefix("PG").is_some_and(|rest| {
            !rest.is_empty()
                && rest
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        }) && !NOT_LIBPQ.contains(&name.as_str())
    })
}

/// `url` without the parameters that libpq and this client read
/// differently (`tcp_user_timeout` in milliseconds, `keepalives_count`,
/// and the TLS ones, `sslmode` and `sslrootcert`), and those parameters.
fn split_libpq_only(url: &str) -> (String, Vec<(String, String)>) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_owned(), Vec::new());
    };
    // A parameter without a value stays, and the URL is refused as libpq
    // refuses it.
    let (taken, kept): (Vec<&str>, Vec<&str>) = query.split('&').partition(|p| {
        matches!(
            p.split_once('='),
            Some((
                "tcp_user_timeout" | "keepalives_count" | "sslmode" | "sslrootcert",
                _
            ))
        )
    });
    let taken = taken
        .into_iter()
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let url = if kept.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    (url, taken)
}

#[cfg(test)]
mod tests;
