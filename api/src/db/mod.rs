//! Database access: one connection type for both backends, an r2d2 pool
//! and the embedded migrations. Running work off the actix workers is in
//! `run` ([`run`], [`run_write`], [`run_change`]), transactions in
//! `transactions`, SQLite's group commit in `group_commit`, the HTTP
//! workers' own connections for reads and writes in `own`, [`StoreError`] in `error`.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use diesel::connection::{InstrumentationEvent, SimpleConnection};
use diesel::pg::PgConnection;
use diesel::r2d2::{self, ManageConnection};
use diesel::sqlite::SqliteConnection;
use diesel::Connection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::config::{DatabaseUrl, SqliteSynchronous};

mod error;
mod group_commit;
use group_commit::GroupWriter;
mod own;
mod replicas;
mod run;
#[cfg(test)]
pub(crate) mod scratch;
mod tls;
mod transactions;
pub use error::StoreError;
use own::OwnConnections;
pub use own::{
    mark_http_worker, KeyedFuture, ReadFuture, APPLICATION_NAME as READ_CONNECTIONS_NAME,
    WRITES_APPLICATION_NAME as WRITE_CONNECTIONS_NAME,
};
pub use replicas::{on_replica, run_lagging, Freshness, Replica, Replicas};
use run::discard;
pub use run::{
    run, run_as, run_change, run_prepared_write, run_write, run_write_retrying, Deadline, Next,
    Reader, Reading, WriteTo,
};
pub use tls::{tls_context, SslMode, TlsParams};
pub use transactions::{
    transaction_until, write_transaction, write_transaction_retrying, Conflicted, LostConnection,
    CONFLICT_ATTEMPTS,
};

/// What [`DbPool::write_once`] returns: the statement's rows, or `None`: nothing was sent.
pub type WriteFuture<'s, U> =
    Pin<Box<dyn Future<Output = Option<Result<Vec<U>, StoreError>>> + Send + 's>>;

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
/// ([`run_write`], [`run_change`]; docs/storage.md, "Group commit on
/// SQLite").
#[derive(Clone)]
pub struct DbPool {
    pool: r2d2::Pool<ConnectionManager>,
    writer: Option<Arc<GroupWriter>>,
    /// On PostgreSQL, the HTTP workers' own connections for reads
    /// ([`DbPool::read_by_key`]).
    reads: Option<Arc<OwnConnections>>,
    /// On PostgreSQL, the HTTP workers' own connections for writes of one
    /// statement ([`DbPool::write_once`]).
    writes: Option<Arc<OwnConnections>>,
    /// Read replicas, for the reads that tolerate lag (`replicas`).
    replicas: Option<Arc<Replicas>>,
}

impl DbPool {
    /// The pool's connections: (open, idle).
    pub fn connections(&self) -> (u32, u32) {
        let state = self.pool.state();
        (state.connections, state.idle_connections)
    }

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

    /// This pool, with reads and writes of one statement that take no
    /// blocking thread on PostgreSQL: each of the `workers` HTTP workers
    /// keeps up to `per_worker_reads` connections of its own for reads,
    /// and the process up to `writes` for writes, shared evenly among
    /// the workers (at least one each; 0: none), beside the pool's. Says
    /// in the log which way each goes, and why.
    pub fn with_worker_connections(
        mut self,
        database: &DatabaseUrl,
        workers: usize,
        per_worker_reads: usize,
        writes: usize,
    ) -> Self {
        let DatabaseUrl::Postgres(url) = database else {
            return self;
        };
        let workers = workers.max(1);
        let per_worker_writes = match writes {
            0 => 0,
            _ => (writes / workers).max(1),
        };
        if per_worker_reads + per_worker_writes == 0 {
            tracing::info!(
                "reads and writes of games use the pool \
                 (DATABASE_READ_CONNECTIONS=0, DATABASE_WRITE_CONNECTIONS=0)"
            );
            return self;
        }
        if let Some(why) = own::environment_refuses() {
            tracing::info!(why, "reads and writes of games use the pool");
            return self;
        }
        let counters = [
            statement_counter(database, Counted::Pool),
            statement_counter(database, Counted::Async),
        ];
        let timeout = self.pool.connection_timeout();
        let open = |name, per_worker| match per_worker {
            0 => Ok(None),
            _ => OwnConnections::new(url, name, per_worker, timeout, counters.clone())
                .map(|own| Some(Arc::new(own))),
        };
        match (
            open(own::APPLICATION_NAME, per_worker_reads),
            open(own::WRITES_APPLICATION_NAME, per_worker_writes),
        ) {
            (Ok(read_connections), Ok(write_connections)) => {
                let tls = read_connections
                    .as_ref()
                    .or(write_connections.as_ref())
                    .map(|own| own.tls_checks());
                tracing::info!(
                    reads_per_worker = per_worker_reads,
                    writes_per_worker = per_worker_writes,
                    workers,
                    tls,
                    at_most = workers * (per_worker_reads + per_worker_writes),
                    // The pool's, the events' LISTEN connection, these.
                    connections_in_all = self.pool.max_size() as usize
                        + 1
                        + workers * (per_worker_reads + per_worker_writes),
                    "reads and writes of games run on each HTTP worker's own connections, \
                     beside the pool's"
                );
                self.reads = read_connections;
                self.writes = write_connections;
            }
            (Err(why), _) | (_, Err(why)) => {
                tracing::info!(why, "reads and writes of games use the pool")
            }
        }
        self
    }

    /// The row of `key`, read by `work` on the calling HTTP worker's own
    /// connection, bounded as [`run_as`] is, without a blocking thread;
    /// reads by the same `work` that wait meanwhile are taken together, one
    /// statement for all their keys (docs/storage.md, "Reads without a
    /// blocking thread"). `None`: there is no such connection to be had
    /// now (SQLite, switched off, opening one failed lately, not an HTTP
    /// worker) or the read failed on it at once; the caller reads with
    /// [`run_as`] instead, which also reports any failure.
    pub async fn read_by_key<T, F>(
        &self,
        key: String,
        work: F,
    ) -> Option<Result<Option<T>, StoreError>>
    where
        T: Clone + 'static,
        F: for<'c> Fn(&'c mut diesel_async::AsyncPgConnection, &'c [String]) -> KeyedFuture<'c, T>
            + 'static,
    {
        self.reads.as_deref()?.read_by_key(key, work).await
    }

    /// `work` run on SQLite by the calling thread itself, on one of the
    /// pool's connections idle at once, without a blocking thread (docs/
    /// storage.md, "Reads without a blocking thread"): for a read by key,
    /// which SQLite answers from memory in microseconds, less than the
    /// hand-over to a blocking thread costs, and which in WAL mode never
    /// waits for this process's writer. A panic in `work` is an error, as
    /// on a blocking thread. `None`: nothing ran (PostgreSQL, whose reads
    /// take [`DbPool::read_by_key`], or no connection idle); the caller
    /// reads with [`run_as`] instead.
    pub fn read_idle_here<T, E>(
        &self,
        work: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Option<Result<T, E>>
    where
        E: From<StoreError>,
    {
        self.writer.as_ref()?;
        let mut conn = self.pool.try_get()?;
        Some(match run::unwound(|| work(&mut conn)) {
            Ok(read) => read,
            Err(crashed) => {
                // Its connection may be in the middle of a statement.
                run::discard(&mut conn);
                Err(crashed.into())
            }
        })
    }

    /// Whether [`DbPool::write_once`] can be tried from here (it may still
    /// answer `None`, when opening a connection fails): a caller that must
    /// prepare its statement first asks this before it does.
    pub fn writes_here(&self) -> bool {
        self.writes
            .as_deref()
            .is_some_and(OwnConnections::usable_here)
    }

    /// `statement`'s rows, written by sending it once on the calling
    /// HTTP worker's own connection, bounded as [`run_as`] is, without a
    /// blocking thread (docs/storage.md, "Writes without a blocking
    /// thread"); a connection that fails says "unavailable" and nothing
    /// is sent again. `None`: nothing was sent, as there is no such
    /// connection to be had now (SQLite, switched off, opening one failed
    /// lately, not an HTTP worker); the caller writes through the pool.
    ///
    /// Boxed, as `Send`: the compiler cannot prove a future generic over
    /// the statement's lifetimes `Send` where the caller's future is spawned.
    pub fn write_once<'s, Q, U>(&'s self, statement: Q) -> WriteFuture<'s, U>
    where
        Q: diesel_async::methods::LoadQuery<'s, diesel_async::AsyncPgConnection, U> + Send + 's,
        U: Send + 'static,
    {
        Box::pin(async move {
            match self.writes.as_deref() {
                Some(writes) => writes.write_once(statement).await,
                None => None,
            }
        })
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
/// own connections ([`DbPool::read_by_key`]).
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
        writes: None,
        replicas: None,
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

/// `error` (from opening the database), with what the URL's TLS settings
/// asked of the server's certificate when it is about TLS.
pub fn with_tls_context(database: &DatabaseUrl, error: BoxError) -> BoxError {
    let DatabaseUrl::Postgres(url) = database else {
        return error;
    };
    match tls_context(url, &error.to_string()) {
        Some(context) => format!("{error} ({context})").into(),
        None => error,
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
            "server closed the connection unexpectedly\n\tThis probably means the server \
             terminated abnormally\n\tbefore or while processing the request.",
            "no connection to the server",
            "could not receive data from server: Connection reset by peer",
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
}
