//! Database access: one connection type for both backends, an r2d2 pool,
//! the embedded migrations, and [`run`] to do diesel work off the actix
//! workers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use diesel::connection::{InstrumentationEvent, SimpleConnection};
use diesel::pg::PgConnection;
use diesel::r2d2::{self, ManageConnection};
use diesel::sqlite::SqliteConnection;
use diesel::Connection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::config::{DatabaseUrl, SqliteSynchronous};

mod group_commit;
use group_commit::GroupWriter;
mod reads;
use reads::AsyncReads;
pub use reads::{ReadFuture, APPLICATION_NAME as READ_CONNECTIONS_NAME};

/// Any error, boxed (the cause of a failure, kept for the logs).
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Migrations for each backend, compiled into the binary.
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/postgres");
pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/sqlite");

/// A connection to whichever backend `DATABASE_URL` chose. Queries written
/// once against `schema.rs` run on both; only types common to both backends
/// may appear in the schema (text UUIDs, `Timestamp`, `Text`, `Integer`,
/// `BigInt`, `Bool`), and `RETURNING` is not available.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Postgresql(PgConnection),
    Sqlite(SqliteConnection),
}

/// The connections of one database: an r2d2 pool, and on SQLite the one
/// connection that all of the pool's write transactions share in turn
/// ([`write_transaction`]; docs/storage.md, "Group commit on SQLite").
#[derive(Clone)]
pub struct DbPool {
    pool: r2d2::Pool<ConnectionManager>,
    writer: Option<Arc<GroupWriter>>,
    /// On PostgreSQL, the HTTP workers' own connections for reads
    /// ([`DbPool::read_async`]).
    reads: Option<Arc<AsyncReads>>,
}

impl DbPool {
    /// A connection from the pool, waiting up to its timeout (for start-up
    /// and tools; requests go through [`run`]).
    pub fn get(&self) -> Result<PooledConnection, r2d2::PoolError> {
        self.pool.get()
    }

    /// A connection from the pool if one is idle now (for tools and tests).
    pub fn try_get(&self) -> Option<PooledConnection> {
        self.pool.try_get()
    }

    /// Whether this is a PostgreSQL database (else SQLite, whose writes
    /// share one writing connection).
    pub fn is_postgres(&self) -> bool {
        self.writer.is_none()
    }

    /// This pool, with reads that take no blocking thread on PostgreSQL:
    /// each of the `workers` HTTP workers keeps up to `per_worker`
    /// connections of its own (0: none), beside the pool's. Says in the
    /// log which way reads go, and why.
    pub fn with_async_reads(
        mut self,
        database: &DatabaseUrl,
        workers: usize,
        per_worker: usize,
    ) -> Self {
        let DatabaseUrl::Postgres(url) = database else {
            return self;
        };
        if per_worker == 0 {
            tracing::info!("reads of games use the pool (DATABASE_READ_CONNECTIONS=0)");
            return self;
        }
        if let Some(why) = reads::environment_refuses() {
            tracing::info!(why, "reads of games use the pool");
            return self;
        }
        let counters = [
            statement_counter(database, Counted::Pool),
            statement_counter(database, Counted::Async),
        ];
        let timeout = self.pool.connection_timeout();
        match AsyncReads::new(url, per_worker, timeout, counters) {
            Ok(reads) => {
                tracing::info!(
                    per_worker,
                    workers,
                    at_most = workers * per_worker,
                    // The pool's, the events' LISTEN connection, these.
                    connections_in_all = self.pool.max_size() as usize + 1 + workers * per_worker,
                    "reads of games run on each HTTP worker's own connections, beside the pool's"
                );
                self.reads = Some(Arc::new(reads));
            }
            Err(why) => tracing::info!(why, "reads of games use the pool"),
        }
        self
    }

    /// Runs the read `work` on the calling HTTP worker's own connection,
    /// bounded as [`run_as`] is, without a blocking thread
    /// (docs/storage.md, "Reads without a blocking thread"). `None`: there
    /// is no such connection to be had now (SQLite, switched off, too many
    /// reads waiting for one, opening one failed lately, not an HTTP
    /// worker) or the read failed on it at once; the caller reads with
    /// [`run_as`] instead, which also reports any failure.
    pub async fn read_async<T, F>(&self, work: F) -> Option<Result<T, StoreError>>
    where
        F: for<'c> FnOnce(&'c mut diesel_async::AsyncPgConnection) -> ReadFuture<'c, T>,
    {
        self.reads.as_deref()?.read(work).await
    }

    /// How many transactions the SQLite writer has committed (`None` on
    /// PostgreSQL).
    pub fn group_commits(&self) -> Option<u64> {
        self.writer.as_deref().map(GroupWriter::commits)
    }
}

pub type PooledConnection = r2d2::PooledConnection<ConnectionManager>;

/// Per-connection settings for SQLite: a busy timeout (the request's
/// database bound, `DATABASE_TIMEOUT_SECONDS`) instead of instant
/// `SQLITE_BUSY` errors, write-ahead log so readers never wait for the
/// writer, foreign keys (off by default in SQLite), and `synchronous` from
/// `SQLITE_SYNCHRONOUS` (default FULL: a commit is on disk before it is
/// acknowledged). The busy timeout comes first so that switching to WAL
/// waits for connections opened at the same moment instead of failing.
fn sqlite_pragmas(timeout: Duration, synchronous: SqliteSynchronous) -> String {
    format!(
        "PRAGMA busy_timeout = {}; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; \
         PRAGMA synchronous = {};",
        timeout.as_millis(),
        synchronous.pragma()
    )
}

/// Makes connections for the pool. Unlike diesel's generic manager it never
/// guesses the backend from the URL, so a PostgreSQL outage cannot turn into
/// a stray SQLite file named after the URL.
#[derive(Debug, Clone)]
pub struct ConnectionManager {
    database: DatabaseUrl,
    connect_timeout: Duration,
    sqlite_synchronous: SqliteSynchronous,
    statements: Arc<AtomicU64>,
    /// Whether this manager opens a SQLite pool's writing connection.
    writing: bool,
}

impl ConnectionManager {
    pub fn new(
        database: DatabaseUrl,
        connect_timeout: Duration,
        sqlite_synchronous: SqliteSynchronous,
    ) -> Self {
        let statements = statement_counter(&database, Counted::Pool);
        Self {
            database,
            connect_timeout,
            sqlite_synchronous,
            statements,
            writing: false,
        }
    }

    /// This manager for a pool's writing connection: its statements are
    /// also counted apart ([`statements_sent_by_writer`]).
    fn for_writer(&self) -> Self {
        Self {
            statements: statement_counter(&self.database, Counted::Writer),
            writing: true,
            ..self.clone()
        }
    }

    fn establish(&self) -> Result<DbConnection, diesel::ConnectionError> {
        let counter = self.statements.clone();
        // Every statement (or batch) sent counts: one round trip each.
        let count = move |event: InstrumentationEvent<'_>| {
            if let InstrumentationEvent::StartQuery { .. } = event {
                counter.fetch_add(1, Ordering::Relaxed);
            }
        };
        match &self.database {
            DatabaseUrl::Postgres(url) => {
                let url = postgres_url(url, self.connect_timeout);
                let mut conn = PgConnection::establish(&url)?;
                // The server itself gives up on a statement after the
                // request's bound (sent before counting starts: it is part
                // of opening the connection, not of any request).
                conn.batch_execute(&format!(
                    "SET statement_timeout = {}",
                    self.connect_timeout.as_millis()
                ))
                .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                conn.set_instrumentation(count);
                Ok(DbConnection::Postgresql(conn))
            }
            DatabaseUrl::Sqlite(path) => {
                let path = path.to_string_lossy();
                let mut conn = SqliteConnection::establish(&path)?;
                conn.batch_execute(&sqlite_pragmas(
                    self.connect_timeout,
                    self.sqlite_synchronous,
                ))
                .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                if self.writing {
                    // The writes of a shared transaction each run in a
                    // savepoint, whose undo log SQLite keeps in a temporary
                    // file: in memory instead, it costs no system calls.
                    conn.batch_execute("PRAGMA temp_store = MEMORY;")
                        .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                }
                conn.set_instrumentation(count);
                Ok(DbConnection::Sqlite(conn))
            }
        }
    }
}

/// How many statements the pools of this process have sent to `database`
/// so far (one round trip each): what the statement-count tests read, as
/// Django's `assertNumQueries` does. Cheap (one relaxed atomic add per
/// statement).
pub fn statements_sent(database: &DatabaseUrl) -> u64 {
    statement_counter(database, Counted::Pool).load(Ordering::Relaxed)
        + statements_sent_by_writer(database)
}

/// The part of [`statements_sent`] that SQLite's writing connection sent
/// (docs/storage.md, "Group commit on SQLite"): what the writes of every
/// request wait for in turn. Always 0 on PostgreSQL.
pub fn statements_sent_by_writer(database: &DatabaseUrl) -> u64 {
    statement_counter(database, Counted::Writer).load(Ordering::Relaxed)
}

/// The part of [`statements_sent`] that the HTTP workers sent on their
/// own connections ([`DbPool::read_async`]).
pub fn statements_sent_async(database: &DatabaseUrl) -> u64 {
    statement_counter(database, Counted::Async).load(Ordering::Relaxed)
}

/// Which connections a statement counter counts.
#[derive(Clone, Copy)]
enum Counted {
    /// The pool's, and the HTTP workers' own (which count here too).
    Pool,
    Writer,
    Async,
}

fn statement_counter(database: &DatabaseUrl, counted: Counted) -> Arc<AtomicU64> {
    static COUNTERS: OnceLock<Mutex<HashMap<String, Arc<AtomicU64>>>> = OnceLock::new();
    let of = match counted {
        Counted::Pool => "",
        Counted::Writer => " writer",
        Counted::Async => " async",
    };
    let key = match database {
        DatabaseUrl::Postgres(url) => format!("postgres{of} {url}"),
        DatabaseUrl::Sqlite(path) => format!("sqlite{of} {}", path.display()),
    };
    let mut counters = COUNTERS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    counters.entry(key).or_default().clone()
}

/// The libpq parameters that keep a lost or silent database from holding a
/// connection (and the request on it) for as long as the operating system's
/// TCP timers would: a connect timeout, TCP keepalives on idle connections
/// and a TCP user timeout on unacknowledged data, each derived from the
/// request's bound `timeout` (`DATABASE_TIMEOUT_SECONDS`). A parameter the
/// URL already sets is left as it is. See docs/architecture.md, "When the
/// database fails".
pub fn postgres_url(url: &str, timeout: Duration) -> String {
    let seconds = timeout.as_secs().max(1);
    with_default_params(
        url,
        &[
            ("connect_timeout", seconds.to_string()),
            ("keepalives", "1".to_owned()),
            ("keepalives_idle", seconds.to_string()),
            ("keepalives_interval", "1".to_owned()),
            ("keepalives_count", "3".to_owned()),
            ("tcp_user_timeout", (seconds * 1000).to_string()),
        ],
    )
}

/// Appends each `key=value` to the URL's query unless the key is there.
pub fn with_default_params(url: &str, params: &[(&str, String)]) -> String {
    let mut url = url.to_owned();
    for (key, value) in params {
        if !sets_param(&url, key) {
            let separator = if url.contains('?') { '&' } else { '?' };
            url = format!("{url}{separator}{key}={value}");
        }
    }
    url
}

/// Whether the URL's query names parameter `key`.
fn sets_param(url: &str, key: &str) -> bool {
    url.split_once('?')
        .is_some_and(|(_, query)| query.split('&').any(|p| p.split('=').next() == Some(key)))
}

impl ManageConnection for ConnectionManager {
    type Connection = DbConnection;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<DbConnection, Self::Error> {
        self.establish()
            .map_err(diesel::r2d2::Error::ConnectionError)
    }

    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), Self::Error> {
        conn.batch_execute("SELECT 1")
            .map_err(diesel::r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut DbConnection) -> bool {
        use diesel::r2d2::R2D2Connection;
        conn.is_broken()
    }
}

/// Builds the pool without waiting for a first connection; callers that need
/// the database at once (start-up) use [`migrate`] right after.
pub fn pool(
    database: &DatabaseUrl,
    max_size: u32,
    timeout: Duration,
    sqlite_synchronous: SqliteSynchronous,
) -> Result<DbPool, BoxError> {
    let manager = ConnectionManager::new(database.clone(), timeout, sqlite_synchronous);
    let builder = r2d2::Pool::builder()
        .error_handler(Box::new(LogConnectionErrors))
        .max_size(max_size)
        .min_idle(Some(1))
        .connection_timeout(timeout);
    // No test query on every check-out (a round trip per request): a pooled
    // PostgreSQL connection that died with the server is found on use and
    // discarded ([`run_as`]); that request answers 503 and later ones get
    // fresh connections, so the service recovers by itself when the
    // database comes back.
    let writer = match database {
        DatabaseUrl::Sqlite(_) => Some(Arc::new(GroupWriter::new(manager.for_writer()))),
        DatabaseUrl::Postgres(_) => None,
    };
    Ok(DbPool {
        pool: builder.test_on_check_out(false).build_unchecked(manager),
        writer,
        reads: None,
    })
}

/// Logs failed connection attempts as one warning line each (libpq's
/// messages span several lines; r2d2 would log them as errors).
#[derive(Debug)]
struct LogConnectionErrors;

impl r2d2::HandleError<diesel::r2d2::Error> for LogConnectionErrors {
    fn handle_error(&self, error: diesel::r2d2::Error) {
        tracing::warn!(error = %one_line(&error.to_string()), "database connection failed");
    }
}

/// Collapses whitespace (libpq puts newlines and tabs in its messages).
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Applies every pending migration for the connection's backend and returns
/// how many ran. On PostgreSQL an advisory lock keeps replicas that start
/// together from migrating at the same time.
pub fn migrate(conn: &mut DbConnection) -> Result<usize, BoxError> {
    match conn {
        DbConnection::Postgresql(pg) => {
            const MIGRATION_LOCK: i64 = 0x5354_5241_5445_474f; // "STRATEGO"
            pg.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))?;
            let applied = pg
                .run_pending_migrations(POSTGRES_MIGRATIONS)
                .map(|v| v.len());
            let unlocked =
                pg.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"));
            let applied = applied?;
            unlocked?;
            Ok(applied)
        }
        DbConnection::Sqlite(sqlite) => Ok(sqlite.run_pending_migrations(SQLITE_MIGRATIONS)?.len()),
    }
}

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
/// answers or the connection's own timeouts end it; a write whose work
/// ends after the deadline is then rolled back ([`write_transaction`]; on
/// SQLite, one that ended before it may still commit with the others of
/// its group), and its connection is discarded rather than handed to
/// another request.
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
    let writer = pool.writer.clone();
    let connections = pool.pool.clone();
    bounded(pool, move |deadline, given_up| match writer {
        Some(writer) => writer.write(deadline, work),
        None => on_pooled(&connections, &given_up, |conn| {
            transaction_until(conn, deadline, work)
        }),
    })
    .await
}

/// [`run_write`] of a transaction that is tried again while PostgreSQL
/// ends it in a conflict ([`write_transaction_retrying`]).
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
    let writer = pool.writer.clone();
    let connections = pool.pool.clone();
    bounded(pool, move |deadline, given_up| match writer {
        // SQLite's writes never conflict: they take their turns.
        Some(writer) => writer.write(deadline, work),
        None => on_pooled(&connections, &given_up, |conn| {
            retrying(|| transaction_until(conn, deadline, &mut work))
        }),
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
/// connection; what it hands on, `write` writes where this backend writes
/// ([`WriteTo`]: on PostgreSQL the same connection, on SQLite the writer's
/// turn, after the pooled connection went back, so that writes waiting
/// for their turn never keep the pool's connections from the reads).
/// `write` must write only if what `read` saw is still so (a versioned
/// write), and say so when it is not. With [`Reading::InTurn`], SQLite
/// reads in the writer's turn instead (PostgreSQL reads the newest commit
/// either way).
pub async fn run_change<S, T, E, R, W>(
    pool: &DbPool,
    reading: Reading,
    read: R,
    write: W,
) -> Result<T, E>
where
    R: FnOnce(&mut Reader<'_>) -> Result<Next<S, T>, E> + Send + 'static,
    W: FnOnce(WriteTo<'_>, S) -> Result<T, E> + Send + 'static,
    S: Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + From<diesel::result::Error> + LostConnection + Send + 'static,
{
    let writer = pool.writer.clone();
    let connections = pool.pool.clone();
    bounded(pool, move |deadline, given_up| match writer {
        None => on_pooled(&connections, &given_up, |conn| {
            match read(&mut Reader(ReaderSource::Given(conn)))? {
                Next::Done(answer) => Ok(answer),
                Next::Write(decided) => write(WriteTo::Connection(conn, deadline), decided),
            }
        }),
        Some(writer) if reading == Reading::InTurn => writer.write(deadline, |conn| {
            match read(&mut Reader(ReaderSource::Given(conn)))? {
                Next::Done(answer) => Ok(answer),
                Next::Write(decided) => write(WriteTo::Group(conn), decided),
            }
        }),
        Some(writer) => {
            let mut reader = Reader(ReaderSource::Pool(&connections, None));
            let read = read(&mut reader);
            if let ReaderSource::Pool(_, Some(conn)) = &mut reader.0 {
                let lost = read.as_ref().err().is_some_and(E::lost_connection);
                if lost || given_up.load(Ordering::Acquire) {
                    discard(conn);
                }
            }
            drop(reader);
            match read? {
                Next::Done(answer) => Ok(answer),
                Next::Write(decided) => {
                    writer.write(deadline, |conn| write(WriteTo::Group(conn), decided))
                }
            }
        }
    })
    .await
}

/// A read's way to a connection ([`run_change`]): on SQLite, before the
/// write's turn, one of the pool's, checked out only if the read needs
/// one (a change decided from a game already at hand reads nothing).
pub struct Reader<'a>(ReaderSource<'a>);

enum ReaderSource<'a> {
    Given(&'a mut DbConnection),
    Pool(&'a r2d2::Pool<ConnectionManager>, Option<PooledConnection>),
}

impl Reader<'_> {
    /// The connection to read on, checked out of the pool on first use.
    pub fn conn(&mut self) -> Result<&mut DbConnection, StoreError> {
        match &mut self.0 {
            ReaderSource::Given(conn) => Ok(&mut **conn),
            ReaderSource::Pool(pool, taken) => {
                if taken.is_none() {
                    *taken = Some(checkout(pool)?);
                }
                taken
                    .as_deref_mut()
                    .ok_or_else(|| StoreError::Worker("no connection was checked out".into()))
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
            Err(E::from(StoreError::Unavailable(
                format!(
                    "the database did not answer within {} ms",
                    bound.as_millis()
                )
                .into(),
            )))
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
fn checkout(pool: &r2d2::Pool<ConnectionManager>) -> Result<PooledConnection, StoreError> {
    if let Some(conn) = pool.try_get() {
        return Ok(conn);
    }
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
    fn left_or(self, otherwise: Duration) -> Duration {
        self.0.map_or(otherwise, |deadline| {
            deadline.saturating_duration_since(Instant::now())
        })
    }
}

/// Marks a connection as unusable so that the pool drops it when it comes
/// back (r2d2 asks `has_broken` on every return).
fn discard(conn: &mut DbConnection) {
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

/// Errors that can say "the connection to the database was lost".
pub trait LostConnection {
    fn lost_connection(&self) -> bool;
}

impl LostConnection for StoreError {
    fn lost_connection(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }
}

/// Errors that can say "the database ended the transaction in a conflict"
/// ([`StoreError::Conflict`]): the work may be tried again as it was.
pub trait Conflicted {
    fn conflicted(&self) -> bool;
}

impl Conflicted for StoreError {
    fn conflicted(&self) -> bool {
        matches!(self, StoreError::Conflict(_))
    }
}

/// How many times [`write_transaction_retrying`] tries a transaction that
/// keeps ending in a conflict.
pub const CONFLICT_ATTEMPTS: u32 = 4;

/// [`write_transaction`], tried again (at most [`CONFLICT_ATTEMPTS`] times in
/// all, after a short pause that grows) while PostgreSQL ends it in a
/// deadlock or serialization conflict. Each try is a whole new transaction,
/// so `work` must read everything it decides on again. Locks are taken in
/// one documented order (docs/storage.md, "Lock order"), so a conflict
/// should not happen; this keeps one that still does from reaching the
/// client. The last conflict is returned as it is ("unavailable", 503).
pub fn write_transaction_retrying<T, E, F>(conn: &mut DbConnection, mut work: F) -> Result<T, E>
where
    F: FnMut(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error> + Conflicted,
{
    retrying(|| write_transaction(conn, &mut work))
}

/// `transaction` tried again while it ends in a conflict, as
/// [`write_transaction_retrying`] says.
fn retrying<T, E: Conflicted>(mut transaction: impl FnMut() -> Result<T, E>) -> Result<T, E> {
    let mut attempt = 1;
    loop {
        match transaction() {
            Err(error) if error.conflicted() && attempt < CONFLICT_ATTEMPTS => {
                tracing::info!(
                    attempt,
                    "a transaction ended in a conflict; trying it again"
                );
                std::thread::sleep(Duration::from_millis(2 << attempt));
                attempt += 1;
            }
            done => return done,
        }
    }
}

/// Why the storage layer could not do what it was asked. It knows nothing
/// of HTTP: the service maps "unavailable" to a retryable answer.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached (no connection, or it was lost).
    #[error("the database is unavailable: {0}")]
    Unavailable(#[source] BoxError),
    /// A statement failed.
    #[error("database error: {0}")]
    Query(#[source] diesel::result::Error),
    /// PostgreSQL made this transaction the loser of a deadlock or of a
    /// serialization conflict and rolled it back: nothing was written, and
    /// the same work tried again can succeed ([`write_transaction_retrying`]).
    #[error("the database ended the transaction in a conflict: {0}")]
    Conflict(#[source] diesel::result::Error),
    /// A stored value does not read back (a bug or a hand-edited row).
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
    /// The blocking worker running the query died.
    #[error("database worker failed: {0}")]
    Worker(String),
}

impl From<diesel::result::Error> for StoreError {
    fn from(error: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error};
        match &error {
            // The connection went away, before or in the middle of a
            // transaction (diesel then reports its transaction manager as
            // broken, or a failed rollback after a failed commit): the
            // database is unavailable, not the request wrong.
            Error::DatabaseError(
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                _,
            )
            | Error::BrokenTransactionManager
            | Error::RollbackErrorOnCommit { .. } => StoreError::Unavailable(Box::new(error)),
            Error::DatabaseError(DatabaseErrorKind::Unknown, info)
                if ends_the_session(info.message()) =>
            {
                StoreError::Unavailable(Box::new(error))
            }
            Error::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => {
                StoreError::Conflict(error)
            }
            // 40P01: diesel names no kind for it and keeps no SQLSTATE.
            Error::DatabaseError(DatabaseErrorKind::Unknown, info)
                if info.message().starts_with("deadlock detected") =>
            {
                StoreError::Conflict(error)
            }
            _ => StoreError::Query(error),
        }
    }
}

/// Whether PostgreSQL's error says the server is ending or refusing the
/// session (SQLSTATE class 57P: a fast or immediate shutdown, a crash of
/// another backend, a start or a recovery in progress). diesel reports
/// those as a closed connection only once libpq has seen the socket close,
/// and keeps no SQLSTATE in its error, so they are told by their (English)
/// text; a statement they interrupt was not done.
fn ends_the_session(message: &str) -> bool {
    message.starts_with("terminating connection ") || message.starts_with("the database system is ")
}

impl From<diesel::r2d2::PoolError> for StoreError {
    fn from(error: diesel::r2d2::PoolError) -> Self {
        StoreError::Unavailable(Box::new(error))
    }
}

/// Runs `work` in a transaction meant to write, on `conn`, with no
/// deadline (tools, tests, start-up; requests write through [`run_write`]
/// or [`run_change`]). Commits when `work` returns `Ok`, rolls back
/// otherwise (so an early `Err` leaves nothing behind), and returns only
/// once that is done. `work` may itself nest `conn.transaction(..)` (a
/// savepoint). A SQLite transaction starts with `BEGIN IMMEDIATE`, taking
/// the write lock up front: a deferred transaction that reads and then
/// writes fails at once with "database is locked" when another writer got
/// in between, whatever the busy timeout.
pub fn write_transaction<T, E, F>(conn: &mut DbConnection, work: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    transaction_until(conn, Deadline::NONE, work)
}

/// [`write_transaction`] for a caller that stops waiting at `deadline`: work
/// that ends after it is rolled back, since the caller was already told
/// "unavailable".
pub fn transaction_until<T, E, F>(
    conn: &mut DbConnection,
    deadline: Deadline,
    work: F,
) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    // Held until the transaction ends (SQLite only).
    let _turn;
    match conn {
        DbConnection::Sqlite(sqlite) => {
            _turn = sqlite_writer_turn(deadline);
            AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?;
        }
        DbConnection::Postgresql(_) => {
            <DbConnection as TransactionManager<DbConnection>>::begin_transaction(conn)?;
        }
    }
    match work(conn) {
        Ok(_) if deadline.passed() => {
            // The caller was already told "unavailable": keep that true.
            <DbConnection as TransactionManager<DbConnection>>::rollback_transaction(conn)?;
            Err(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UnableToSendCommand,
                Box::new("the request's deadline passed before the commit".to_owned()),
            )
            .into())
        }
        Ok(value) => {
            if let Err(commit_error) =
                <DbConnection as TransactionManager<DbConnection>>::commit_transaction(conn)
            {
                let _ =
                    <DbConnection as TransactionManager<DbConnection>>::rollback_transaction(conn);
                return Err(commit_error.into());
            }
            Ok(value)
        }
        Err(error) => {
            <DbConnection as TransactionManager<DbConnection>>::rollback_transaction(conn)?;
            Err(error)
        }
    }
}

/// The writers of this process to SQLite, in line.
///
/// SQLite lets one writer in at a time, and a writer that finds the write
/// lock taken does not queue: its busy handler sleeps and tries again, up
/// to 100 ms between tries. Under load a writer can lose to newer ones for
/// seconds (a move waited 3 s and was answered 503 in a benchmark; the
/// waits came in steps of 100 ms). Writers of this process first wait
/// here, where the next one is woken as soon as the lock is free; so
/// `BEGIN IMMEDIATE` only waits for writers of other processes.
static SQLITE_WRITERS: parking_lot::Mutex<()> = parking_lot::Mutex::new(());

/// Waits for this thread's turn among [`SQLITE_WRITERS`], at most until the
/// request's deadline (or the longest a request may take); past that the
/// writer goes on without a turn, as before, to the busy handler.
fn sqlite_writer_turn(deadline: Deadline) -> Option<parking_lot::MutexGuard<'static, ()>> {
    SQLITE_WRITERS.try_lock_for(deadline.left_or(SQLITE_TURN_WAIT))
}

/// How long a writer with no request deadline waits for its turn.
const SQLITE_TURN_WAIT: Duration = Duration::from_secs(30);

/// Checks that the database answers (for `/readyz`).
pub async fn ping(pool: &DbPool) -> Result<(), StoreError> {
    run(pool, |conn| {
        conn.batch_execute("SELECT 1")
            .map_err(|e| StoreError::Unavailable(Box::new(e)))
    })
    .await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::error::{ApiError, ProblemKind};

    #[test]
    fn postgres_urls_get_timeouts_and_keepalives_once() {
        let t = Duration::from_secs(3);
        let timers = "connect_timeout=3&keepalives=1&keepalives_idle=3&keepalives_interval=1\
                      &keepalives_count=3&tcp_user_timeout=3000";
        assert_eq!(
            postgres_url("postgres://h/d", t),
            format!("postgres://h/d?{timers}")
        );
        assert_eq!(
            postgres_url("postgres://h/d?sslmode=disable", t),
            format!("postgres://h/d?sslmode=disable&{timers}")
        );
        let given = postgres_url("postgres://h/d?connect_timeout=9&tcp_user_timeout=1", t);
        assert!(
            given.starts_with("postgres://h/d?connect_timeout=9&tcp_user_timeout=1&keepalives=1"),
            "{given}"
        );
        assert_eq!(given.matches("connect_timeout=").count(), 1, "{given}");
        assert_eq!(given.matches("tcp_user_timeout=").count(), 1, "{given}");
    }

    #[actix_web::test]
    async fn an_unreachable_database_answers_service_unavailable() {
        // Port 1 on loopback refuses connections at once.
        let database = DatabaseUrl::Postgres("postgres://postgres@127.0.0.1:1/none".into());
        let pool = pool(
            &database,
            2,
            Duration::from_secs(1),
            SqliteSynchronous::Full,
        )
        .unwrap();
        let err = ping(&pool).await.unwrap_err();
        assert_eq!(ApiError::from(err).kind(), ProblemKind::ServiceUnavailable);
    }

    #[test]
    fn a_connection_lost_in_a_transaction_is_unavailable_not_a_bug() {
        use diesel::result::Error;
        for lost in [
            Error::BrokenTransactionManager,
            Error::DatabaseError(
                diesel::result::DatabaseErrorKind::ClosedConnection,
                Box::new("server closed the connection unexpectedly".to_owned()),
            ),
        ] {
            let error = StoreError::from(lost);
            assert!(error.lost_connection(), "{error}");
            assert_eq!(
                ApiError::from(error).kind(),
                ProblemKind::ServiceUnavailable
            );
        }
        assert!(!StoreError::from(Error::NotFound).lost_connection());
    }

    #[test]
    fn a_session_the_server_ends_is_unavailable_however_diesel_names_it() {
        use diesel::result::{DatabaseErrorKind, Error};
        let unknown = |message: &str| {
            Error::DatabaseError(DatabaseErrorKind::Unknown, Box::new(message.to_owned()))
        };
        for message in [
            "terminating connection due to administrator command",
            "terminating connection because of crash of another server process",
            "the database system is shutting down",
            "the database system is in recovery mode",
        ] {
            let error = StoreError::from(unknown(message));
            assert!(error.lost_connection(), "{message}: {error}");
        }
        for message in [
            "duplicate key value violates unique constraint \"games_pkey\"",
            "relation \"games\" does not exist",
        ] {
            assert!(
                !StoreError::from(unknown(message)).lost_connection(),
                "{message}"
            );
        }
    }

    #[test]
    fn sqlite_migrations_apply_revert_and_apply_again() {
        let path = std::env::temp_dir().join(format!("stratego-mig-{}.db", uuid::Uuid::new_v4()));
        let pool = pool(
            &DatabaseUrl::Sqlite(path.clone()),
            1,
            Duration::from_secs(2),
            SqliteSynchronous::Full,
        )
        .unwrap();
        let mut conn = pool.get().unwrap();
        let applied = migrate(&mut conn).unwrap();
        assert!(applied >= 1);
        assert_eq!(migrate(&mut conn).unwrap(), 0, "nothing left to apply");
        let DbConnection::Sqlite(sqlite) = &mut *conn else {
            unreachable!()
        };
        let reverted = sqlite.revert_all_migrations(SQLITE_MIGRATIONS).unwrap();
        assert_eq!(reverted.len(), applied);
        assert_eq!(migrate(&mut conn).unwrap(), applied);
        drop(conn);
        drop(pool);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    #[test]
    fn both_backends_have_the_same_migrations() {
        use diesel::migration::MigrationSource;
        let names = |source: &EmbeddedMigrations| -> Vec<String> {
            MigrationSource::<diesel::sqlite::Sqlite>::migrations(source)
                .unwrap()
                .iter()
                .map(|m| m.name().to_string())
                .collect()
        };
        assert_eq!(names(&POSTGRES_MIGRATIONS), names(&SQLITE_MIGRATIONS));
    }

    #[actix_web::test]
    async fn sqlite_connections_get_wal_and_foreign_keys() {
        use diesel::sql_types::{BigInt, Text};
        #[derive(diesel::QueryableByName)]
        struct Mode {
            #[diesel(sql_type = Text)]
            journal_mode: String,
        }
        #[derive(diesel::QueryableByName)]
        struct Keys {
            #[diesel(sql_type = BigInt)]
            foreign_keys: i64,
        }
        #[derive(diesel::QueryableByName)]
        struct Durability {
            #[diesel(sql_type = BigInt)]
            synchronous: i64,
        }
        let path = std::env::temp_dir().join(format!("stratego-db-{}.db", uuid::Uuid::new_v4()));
        let pool = pool(
            &DatabaseUrl::Sqlite(path.clone()),
            2,
            Duration::from_secs(2),
            SqliteSynchronous::Full,
        )
        .unwrap();
        let (mode, keys, sync) = run(&pool, |conn| {
            use diesel::RunQueryDsl;
            let DbConnection::Sqlite(sqlite) = conn else {
                unreachable!()
            };
            let mode = diesel::sql_query("PRAGMA journal_mode").get_result::<Mode>(sqlite)?;
            let keys = diesel::sql_query("PRAGMA foreign_keys").get_result::<Keys>(sqlite)?;
            let sync = diesel::sql_query("PRAGMA synchronous").get_result::<Durability>(sqlite)?;
            Ok((mode.journal_mode, keys.foreign_keys, sync.synchronous))
        })
        .await
        .unwrap();
        assert_eq!(mode, "wal");
        assert_eq!(keys, 1);
        // FULL by default: an acknowledged commit survives a power loss.
        assert_eq!(sync, 2);
        // The writing connection keeps its savepoints' undo logs in memory
        // (2); the others keep SQLite's default (0, a file).
        #[derive(diesel::QueryableByName)]
        struct Temp {
            #[diesel(sql_type = BigInt)]
            temp_store: i64,
        }
        let temp_store = |conn: &mut DbConnection| -> Result<i64, StoreError> {
            use diesel::RunQueryDsl;
            let DbConnection::Sqlite(sqlite) = conn else {
                unreachable!()
            };
            let temp = diesel::sql_query("PRAGMA temp_store").get_result::<Temp>(sqlite)?;
            Ok(temp.temp_store)
        };
        let read = run(&pool, temp_store).await.unwrap();
        let written = run_write(&pool, temp_store).await.unwrap();
        assert_eq!((read, written), (0, 2));
        drop(pool);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    /// Many writers of one process at one SQLite file, each holding the
    /// write lock a little while, with a busy timeout much shorter than the
    /// line they form: every transaction commits, because they wait in
    /// line here instead of polling SQLite's lock (which gives up after
    /// the busy timeout).
    #[test]
    fn sqlite_writers_of_one_process_wait_in_line() {
        use diesel::connection::SimpleConnection;
        use diesel::RunQueryDsl;
        let path = std::env::temp_dir().join(format!("stratego-line-{}.db", uuid::Uuid::new_v4()));
        let open = || {
            let mut conn = SqliteConnection::establish(&path.display().to_string()).unwrap();
            conn.batch_execute("PRAGMA busy_timeout = 5; PRAGMA journal_mode = WAL;")
                .unwrap();
            DbConnection::Sqlite(conn)
        };
        let mut first = open();
        first
            .batch_execute("CREATE TABLE counted (n INTEGER NOT NULL)")
            .unwrap();
        let writers: Vec<_> = (0..6)
            .map(|_| {
                let mut conn = open();
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        write_transaction(&mut conn, |conn| {
                            let DbConnection::Sqlite(sqlite) = conn else {
                                unreachable!()
                            };
                            diesel::sql_query("INSERT INTO counted (n) VALUES (1)")
                                .execute(sqlite)?;
                            std::thread::sleep(Duration::from_millis(2));
                            Ok::<_, diesel::result::Error>(())
                        })
                        .expect("a writer in line is never refused");
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        #[derive(diesel::QueryableByName)]
        struct Count {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let DbConnection::Sqlite(sqlite) = &mut first else {
            unreachable!()
        };
        let count = diesel::sql_query("SELECT count(*) AS n FROM counted")
            .get_result::<Count>(sqlite)
            .unwrap();
        assert_eq!(count.n, 120);
        drop(first);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

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
