//! Write transactions: one begun, committed or rolled back in one place
//! ([`transaction_until`]), tried again after a conflict
//! ([`write_transaction_retrying`]), and on SQLite taken in turn by the
//! writers of this process.

use std::time::Duration;

use super::{DbConnection, Deadline, StoreError};

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
pub(super) fn retrying<T, E: Conflicted>(
    mut transaction: impl FnMut() -> Result<T, E>,
) -> Result<T, E> {
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
/// Runs `work` in a transaction meant to write, on `conn`, with no
/// deadline (tools, tests, start-up; requests write through [`run_write`](super::run_write)
/// or [`run_change`](super::run_change)). Commits when `work` returns `Ok`, rolls back
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::super::*;
    use super::*;

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
}
