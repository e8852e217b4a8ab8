//! Database access: one connection type for both backends, an r2d2 pool,
//! the embedded migrations, and [`run`] to do diesel work off the actix
//! workers.

use std::time::Duration;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use diesel::connection::{InstrumentationEvent, SimpleConnection};
use diesel::pg::PgConnection;
use diesel::r2d2::{self, ManageConnection};
use diesel::sqlite::SqliteConnection;
use diesel::Connection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::config::{DatabaseUrl, SqliteSynchronous};
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

pub type DbPool = r2d2::Pool<ConnectionManager>;
pub type PooledConnection = r2d2::PooledConnection<ConnectionManager>;

/// Per-connection settings for SQLite: write-ahead log so readers never wait
/// for the writer, a busy timeout instead of instant `SQLITE_BUSY` errors,
/// and foreign keys (off by default in SQLite).
/// The busy timeout comes first so that switching to WAL waits for
/// connections opened at the same moment instead of failing.
/// `synchronous` comes from `SQLITE_SYNCHRONOUS` (default FULL: a commit is
/// on disk before it is acknowledged).
const SQLITE_PRAGMAS: &str = "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; \
     PRAGMA foreign_keys = ON;";

/// Makes connections for the pool. Unlike diesel's generic manager it never
/// guesses the backend from the URL, so a PostgreSQL outage cannot turn into
/// a stray SQLite file named after the URL.
#[derive(Debug, Clone)]
pub struct ConnectionManager {
    database: DatabaseUrl,
    connect_timeout: Duration,
    sqlite_synchronous: SqliteSynchronous,
    statements: Arc<AtomicU64>,
}

impl ConnectionManager {
    pub fn new(
        database: DatabaseUrl,
        connect_timeout: Duration,
        sqlite_synchronous: SqliteSynchronous,
    ) -> Self {
        let statements = statement_counter(&database);
        Self {
            database,
            connect_timeout,
            sqlite_synchronous,
            statements,
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
                let url = with_connect_timeout(url, self.connect_timeout);
                let mut conn = PgConnection::establish(&url)?;
                conn.set_instrumentation(count);
                Ok(DbConnection::Postgresql(conn))
            }
            DatabaseUrl::Sqlite(path) => {
                let path = path.to_string_lossy();
                let mut conn = SqliteConnection::establish(&path)?;
                let pragmas = format!(
                    "{SQLITE_PRAGMAS} PRAGMA synchronous = {};",
                    self.sqlite_synchronous.pragma()
                );
                conn.batch_execute(&pragmas)
                    .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
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
    statement_counter(database).load(Ordering::Relaxed)
}

fn statement_counter(database: &DatabaseUrl) -> Arc<AtomicU64> {
    static COUNTERS: OnceLock<Mutex<HashMap<String, Arc<AtomicU64>>>> = OnceLock::new();
    let key = match database {
        DatabaseUrl::Postgres(url) => format!("postgres {url}"),
        DatabaseUrl::Sqlite(path) => format!("sqlite {}", path.display()),
    };
    let mut counters = COUNTERS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    counters.entry(key).or_default().clone()
}

/// libpq waits for a TCP connect as long as the OS does unless told
/// otherwise; a lost database must answer 503 quickly.
fn with_connect_timeout(url: &str, timeout: Duration) -> String {
    if url.contains("connect_timeout=") {
        return url.to_owned();
    }
    let separator = if url.contains('?') { '&' } else { '?' };
    format!(
        "{url}{separator}connect_timeout={}",
        timeout.as_secs().max(1)
    )
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
    Ok(builder.test_on_check_out(false).build_unchecked(manager))
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
pub async fn run_as<T, E, F>(pool: &DbPool, work: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + LostConnection + Send + 'static,
{
    let pool = pool.clone();
    let joined = tokio::task::spawn_blocking(move || {
        let mut conn = pool.get().map_err(|e| E::from(StoreError::from(e)))?;
        // `work` runs once: a connection found dead by its first statement
        // is discarded (the pool drops it on return) and the caller sees
        // "unavailable"; the next request gets a fresh one.
        let result = work(&mut conn);
        if let Err(error) = &result {
            if error.lost_connection() {
                discard(&mut conn);
            }
        }
        result
    })
    .await;
    match joined {
        Ok(result) => result,
        Err(join) => Err(E::from(StoreError::Worker(join.to_string()))),
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
            _ => StoreError::Query(error),
        }
    }
}

impl From<diesel::r2d2::PoolError> for StoreError {
    fn from(error: diesel::r2d2::PoolError) -> Self {
        StoreError::Unavailable(Box::new(error))
    }
}

/// Runs `work` in a transaction meant to write. On SQLite it starts with
/// `BEGIN IMMEDIATE`, taking the write lock up front: a deferred transaction
/// that reads and then writes fails at once with "database is locked" when
/// another writer got in between, whatever the busy timeout. On PostgreSQL
/// it is an ordinary transaction. Commits when `work` returns `Ok`, rolls
/// back otherwise (so an early `Err` leaves nothing behind). `work` may
/// itself nest `conn.transaction(..)` (a savepoint).
pub fn write_transaction<T, E, F>(conn: &mut DbConnection, work: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    match conn {
        DbConnection::Sqlite(sqlite) => {
            AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?;
        }
        DbConnection::Postgresql(_) => {
            <DbConnection as TransactionManager<DbConnection>>::begin_transaction(conn)?;
        }
    }
    match work(conn) {
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
    fn connect_timeout_is_added_once() {
        let t = Duration::from_secs(3);
        assert_eq!(
            with_connect_timeout("postgres://h/d", t),
            "postgres://h/d?connect_timeout=3"
        );
        assert_eq!(
            with_connect_timeout("postgres://h/d?sslmode=disable", t),
            "postgres://h/d?sslmode=disable&connect_timeout=3"
        );
        assert_eq!(
            with_connect_timeout("postgres://h/d?connect_timeout=9", t),
            "postgres://h/d?connect_timeout=9"
        );
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
        drop(pool);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
