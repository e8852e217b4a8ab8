//! Reads on PostgreSQL that take no blocking thread (docs/storage.md,
//! "Reads without a blocking thread").
//!
//! A read through the pool ([`super::run_as`]) hands its work to a blocking
//! thread, which wakes, sends the statement, sleeps until the answer and
//! wakes the HTTP worker again: two thread switches a request beside the
//! round trip itself, and on two cores they cost more than the statement.
//! Here the HTTP worker sends the statement itself, on an asynchronous
//! connection of its own, and goes on serving other requests until the
//! answer arrives.
//!
//! Each HTTP worker thread keeps its own connections (at most
//! `per_thread`, opened on first use and kept while they work), so a
//! connection and the task that drives it live on one thread and no read
//! crosses threads. With all of them in use a read waits for the next one
//! given back, first come first served, and the reads waiting then are
//! taken together: the read that gets the connection sends one statement
//! for all of their keys ([`AsyncReads::read_by_key`]). When opening a
//! connection failed a moment ago, or outside an HTTP worker, there is no
//! asynchronous read and the caller uses the pool, as every other
//! statement does. A connection that fails at once is dropped and the read
//! is left to the pool, which answers it (or says the database is
//! unavailable) as before; one that fails later answers "unavailable"
//! itself, so that no read waits much past its bound. They use TLS as
//! libpq would for the same URL (`sslmode`, `sslrootcert`; `tls`), and
//! are used only where libpq and this client read the same settings (no
//! `PG...` variable in the environment, no parameter that only libpq
//! knows, no TLS setting `tls` cannot honour).

use std::any::{Any, TypeId};
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
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use tokio::sync::oneshot;

use super::tls::{self, ReadTls, TlsParams};
use super::{sets_param, BoxError, StoreError};

/// The `application_name` of these connections, unless the URL names one.
pub const APPLICATION_NAME: &str = "stratego-api reads";

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

/// The asynchronous reads of one database: how to open a connection, how
/// many each thread may keep, and what bounds a read.
#[derive(Debug)]
pub(super) struct AsyncReads {
    /// Tells this database's connections apart from another's on the same
    /// thread (tests run several servers in one process).
    id: u64,
    config: tokio_postgres::Config,
    /// How the connections use TLS.
    tls: ReadTls,
    per_thread: usize,
    timeout: Duration,
    /// The pool's statement counter, and this path's own.
    counters: [Arc<AtomicU64>; 2],
}

impl AsyncReads {
    /// Reads for the PostgreSQL database at `url`, or why there are none:
    /// a URL this client cannot read (a libpq-only parameter), or TLS
    /// settings it cannot honour as libpq does.
    pub(super) fn new(
        url: &str,
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
            // (`read`), per address tried.
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
            config.application_name(APPLICATION_NAME);
        }
        let home = std::env::var_os("HOME")
            .filter(|home| !home.is_empty())
            .map(PathBuf::from);
        let tls = tls::plan(&tls_params, &config, home.as_deref())?;
        Ok(AsyncReads {
            id: IDS.fetch_add(1, Ordering::Relaxed),
            config,
            tls,
            per_thread,
            timeout,
            counters,
        })
    }

    /// The row of `key` read by `work`, on one of this thread's
    /// connections, bounded by the pool's timeout; `Some(Ok(None))`: no
    /// such row. Reads of the same kind (`T`) that wait for a connection
    /// meanwhile are taken together: the read that gets a connection sends
    /// one statement for every key then waiting (at most [`MAX_TAKEN`]),
    /// and each read gets its own row (docs/storage.md, "Reads taken
    /// together"). Every key joins before its statement is sent, so each
    /// read sees every change committed before its request asked.
    ///
    /// `None`: no connection to be had now, or the read failed on it
    /// within a tenth of the bound; the caller reads through the pool
    /// instead. A read that failed later is "unavailable".
    pub(super) async fn read_by_key<T, F>(
        &self,
        key: String,
        work: F,
    ) -> Option<Result<Option<T>, StoreError>>
    where
        T: Clone + 'static,
        F: for<'c> FnOnce(&'c mut AsyncPgConnection, &'c [String]) -> KeyedFuture<'c, T>,
    {
        if !on_worker_thread() {
            return None;
        }
        let started = Instant::now();
        let (answer, mut answered) = oneshot::channel();
        let ticket = with_queue::<T, _>(self.id, |queue| queue.join(key, answer))?;
        let attempt = async {
            tokio::select! {
                // Taken by another read meanwhile: its answer.
                taken = &mut answered => Some(taken.unwrap_or(Err(()))),
                lease = self.lease() => {
                    let Some(lease) = lease else {
                        // None to be had: the pool reads, unless another
                        // read took this key meanwhile.
                        let left = with_queue::<T, _>(self.id, |queue| queue.leave(ticket));
                        return match left {
                            Some(true) | None => None,
                            Some(false) => Some((&mut answered).await.unwrap_or(Err(()))),
                        };
                    };
                    self.send_waiting(lease, work).await;
                    Some((&mut answered).await.unwrap_or(Err(())))
                }
            }
        };
        match tokio::time::timeout(self.timeout, attempt).await {
            Ok(Some(Ok(found))) => Some(Ok(found)),
            // None to be had, or failed at once (a connection the database
            // ended, opening refused): the pool reads, within its own
            // bound.
            Ok(None | Some(Err(()))) if started.elapsed() <= self.timeout / 10 => None,
            // Failed late: read again through the pool, the request could
            // wait up to twice its bound; it is answered "unavailable".
            Ok(_) => Some(Err(StoreError::Unavailable(
                "the read failed on its connection, too late to read it again".into(),
            ))),
            Err(_elapsed) => Some(Err(StoreError::Unavailable(
                format!(
                    "the database did not answer within {} ms",
                    self.timeout.as_millis()
                )
                .into(),
            ))),
        }
    }

    /// Reads every key of kind `T` waiting on this thread (at most
    /// [`MAX_TAKEN`]) in one statement on `lease`'s connection, and answers
    /// each waiting read: its row, or a failure.
    async fn send_waiting<T, F>(&self, mut lease: Lease, work: F)
    where
        T: Clone + 'static,
        F: for<'c> FnOnce(&'c mut AsyncPgConnection, &'c [String]) -> KeyedFuture<'c, T>,
    {
        let taken = with_queue::<T, _>(self.id, Queue::take).unwrap_or_default();
        if taken.is_empty() {
            // This read's key went with another's statement.
            lease.done = true;
            return;
        }
        let keys: Vec<String> = taken.iter().map(|w| w.key.clone()).collect();
        let Some(conn) = lease.conn.as_mut() else {
            return;
        };
        let mut rows: HashMap<String, (T, usize)> = match work(conn, &keys).await {
            Ok(rows) => {
                lease.done = true;
                rows.into_iter().map(|(key, row)| (key, (row, 0))).collect()
            }
            Err(error) => {
                tracing::debug!(%error, "a read on a worker's connection failed");
                // Dropped unanswered: each read sees the failure.
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
                // no bound of its own: each connection given back answers
                // every read then waiting (`read_by_key`), and each read is
                // bounded in time.
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
                        "could not open an asynchronous read connection; reads use the pool for {} s",
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
        // after the request's bound (not counted: part of opening).
        conn.batch_execute(&format!(
            "SET statement_timeout = {}",
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

/// The most keys one statement reads.
pub(super) const MAX_TAKEN: usize = 64;

/// The future of a read of rows by key: each row with its key.
pub type KeyedFuture<'c, T> = ReadFuture<'c, Vec<(String, T)>>;

/// A read's answer: its row (or none), or `Err` if the statement that
/// read it failed. Dropped unsent, the read failed too.
type Answer<T> = Result<Option<T>, ()>;

/// A read waiting for its row.
struct Waiting<T> {
    ticket: u64,
    key: String,
    answer: oneshot::Sender<Answer<T>>,
}

/// The reads of one kind waiting on one thread, oldest first.
struct Queue<T> {
    waiting: Vec<Waiting<T>>,
    next_ticket: u64,
}

impl<T> Default for Queue<T> {
    fn default() -> Self {
        Queue {
            waiting: Vec::new(),
            next_ticket: 0,
        }
    }
}

impl<T> Queue<T> {
    /// Adds a read of `key`; its ticket.
    fn join(&mut self, key: String, answer: oneshot::Sender<Answer<T>>) -> u64 {
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.waiting.push(Waiting {
            ticket,
            key,
            answer,
        });
        ticket
    }

    /// Takes read `ticket` out; whether it was still waiting.
    fn leave(&mut self, ticket: u64) -> bool {
        let before = self.waiting.len();
        self.waiting.retain(|w| w.ticket != ticket);
        self.waiting.len() < before
    }

    /// The oldest reads still waiting, at most [`MAX_TAKEN`] (reads that
    /// gave up are dropped).
    fn take(&mut self) -> Vec<Waiting<T>> {
        self.waiting.retain(|w| !w.answer.is_closed());
        let n = self.waiting.len().min(MAX_TAKEN);
        self.waiting.drain(..n).collect()
    }
}

thread_local! {
    static QUEUES: RefCell<HashMap<(u64, TypeId), Box<dyn Any>>> = RefCell::new(HashMap::new());
}

/// `f` on this thread's queue of reads of kind `T` of database `id`;
/// `None` once the thread is ending.
fn with_queue<T: 'static, R>(id: u64, f: impl FnOnce(&mut Queue<T>) -> R) -> Option<R> {
    QUEUES
        .try_with(|queues| {
            let mut queues = queues.borrow_mut();
            let queue = queues
                .entry((id, TypeId::of::<T>()))
                .or_insert_with(|| Box::new(Queue::<T>::default()));
            queue.downcast_mut::<Queue<T>>().map(f)
        })
        .ok()
        .flatten()
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

/// Whether this thread runs a single-threaded runtime (as each HTTP worker
/// does): only there does a read's future, and the task that drives its
/// connection, stay on the thread whose connections it uses.
fn on_worker_thread() -> bool {
    tokio::runtime::Handle::try_current()
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
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn reads(url: &str) -> Result<AsyncReads, String> {
        AsyncReads::new(url, 2, Duration::from_secs(3), Default::default())
    }

    #[test]
    fn tls_settings_are_honoured_or_left_to_the_pool() {
        for url in [
            "postgres://app@127.0.0.1:5432/db",
            "postgres://app@localhost/db",
            "postgres://app@[::1]:5432/db",
            "postgres://app@db.example:5432/db?sslmode=disable",
            "postgres://app@db.example/db?sslmode=prefer",
            "postgres://app@db.example/db?sslmode=require",
            "postgres://app@127.0.0.1/db?sslmode=require&sslrootcert=/nonexistent",
            "postgres://app@localhost,db.example/db?sslmode=allow",
            "postgres://app@%2Fvar%2Frun%2Fpostgresql/db?sslmode=verify-full",
        ] {
            assert!(reads(url).is_ok(), "{url}");
        }
        for url in [
            // No root file: libpq refuses too.
            "postgres://app@127.0.0.1/db?sslmode=verify-full&sslrootcert=/nonexistent",
            "postgres://app@127.0.0.1/db?sslmode=verify-ca&sslrootcert=/nonexistent",
            // Roots that only libpq's OpenSSL knows where to find.
            "postgres://app@127.0.0.1/db?sslmode=verify-full&sslrootcert=system",
            "postgres://app@127.0.0.1/db?sslmode=on",
            // A TLS parameter this client does not know.
            "postgres://app@127.0.0.1/db?sslmode=require&sslcert=/client.pem",
        ] {
            assert!(reads(url).is_err(), "{url}");
        }
        // What the connections try, in libpq's order.
        let attempts = |url: &str| reads(url).unwrap().tls.attempts().to_vec();
        use tokio_postgres::config::SslMode;
        assert_eq!(
            attempts("postgres://app@db.example/db?sslmode=require&connect_timeout=2"),
            [SslMode::Require]
        );
        assert_eq!(
            attempts("postgres://app@db.example/db"),
            [SslMode::Prefer, SslMode::Disable]
        );
    }

    #[test]
    fn the_pools_bounds_are_set_unless_the_url_sets_them() {
        let set = reads("postgres://app@127.0.0.1/db").unwrap().config;
        assert_eq!(set.get_tcp_user_timeout(), Some(&Duration::from_secs(3)));
        assert!(set.get_keepalives());
        assert_eq!(set.get_keepalives_idle(), Duration::from_secs(3));
        assert_eq!(set.get_application_name(), Some(APPLICATION_NAME));
        assert_eq!(
            set.get_connect_timeout(),
            Some(&Duration::from_millis(1500))
        );
        let kept = reads("postgres://app@127.0.0.1/db?connect_timeout=9")
            .unwrap()
            .config;
        assert_eq!(kept.get_connect_timeout(), Some(&Duration::from_secs(9)));
        // libpq's spelling and units, as the pool reads them.
        let libpq = reads(
            "postgres://app@127.0.0.1/db?tcp_user_timeout=2500&keepalives_count=7&keepalives=1",
        )
        .unwrap()
        .config;
        assert_eq!(
            libpq.get_tcp_user_timeout(),
            Some(&Duration::from_millis(2500))
        );
        assert_eq!(libpq.get_keepalives_retries(), Some(7));
        // As libpq: a value without a number, or out of its range, is
        // refused (and the reads use the pool).
        assert!(reads("postgres://app@127.0.0.1/db?tcp_user_timeout").is_err());
        assert!(reads("postgres://app@127.0.0.1/db?keepalives_count=4294967296").is_err());
        // A parameter's name inside a value is not the parameter.
        let named = reads("postgres://app@127.0.0.1/db?application_name=keepalives_count=1")
            .unwrap()
            .config;
        assert_eq!(named.get_keepalives_retries(), Some(3));
    }

    #[test]
    fn a_libpq_variable_in_the_environment_is_found() {
        let found = |names: &[&str]| libpq_variable(names.iter().map(|n| (*n).to_owned()));
        assert_eq!(found(&["HOME", "PATH", "PGDATA", "PG", "PGx"]), None);
        for name in [
            "PGPASSWORD",
            "PGSSLMODE",
            "PGREQUIREPEER",
            "PGCHANNELBINDING",
            "PGREQUIREAUTH",
        ] {
            assert_eq!(found(&["HOME", name]).as_deref(), Some(name));
        }
    }

    #[test]
    fn outside_an_http_worker_nothing_is_read() {
        use futures_util::FutureExt as _;
        let reads = reads("postgres://app@127.0.0.1:1/db").unwrap();
        // No runtime at all: the read says at once that the pool must
        // answer, and opens nothing.
        let read = reads
            .read_by_key("a".to_owned(), |conn, _keys| {
                Box::pin(async move {
                    conn.batch_execute("SELECT 1").await?;
                    Ok(vec![("a".to_owned(), 1)])
                })
            })
            .now_or_never();
        assert!(matches!(read, Some(None)));
        assert_eq!(with_slot(reads.id, |slot| slot.open), Some(0));
    }

    #[test]
    fn a_queue_gives_its_oldest_live_reads_at_most_so_many_at_once() {
        let mut queue = Queue::<u8>::default();
        let mut answers = Vec::new();
        let mut tickets = Vec::new();
        for i in 0..MAX_TAKEN + 3 {
            let (answer, answered) = oneshot::channel();
            tickets.push(queue.join(format!("k{i}"), answer));
            answers.push(answered);
        }
        // One read left, one gave up (its receiver dropped).
        assert!(queue.leave(tickets[1]));
        assert!(!queue.leave(tickets[1]));
        drop(answers.remove(2));
        let taken: Vec<String> = queue.take().into_iter().map(|w| w.key).collect();
        assert_eq!(taken.len(), MAX_TAKEN);
        assert_eq!(taken[..2], ["k0".to_owned(), "k3".to_owned()]);
        let rest: Vec<String> = queue.take().into_iter().map(|w| w.key).collect();
        assert_eq!(rest, [format!("k{}", MAX_TAKEN + 2)]);
        assert!(queue.take().is_empty());
    }
}
