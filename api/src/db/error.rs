//! [`StoreError`]: why the storage layer could not do what it was asked,
//! read from what diesel and the pool report.

use super::BoxError;

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
    /// the same work tried again can succeed ([`write_transaction_retrying`](super::write_transaction_retrying)).
    #[error("the database ended the transaction in a conflict: {0}")]
    Conflict(#[source] diesel::result::Error),
    /// A stored value does not read back (a bug or a hand-edited row).
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
    /// The blocking worker running the query died.
    #[error("database worker failed: {0}")]
    Worker(String),
}

impl StoreError {
    /// The caller waited `bound` for the database and stops waiting.
    pub(super) fn not_answered_within(bound: std::time::Duration) -> Self {
        StoreError::Unavailable(
            format!(
                "the database did not answer within {} ms",
                bound.as_millis()
            )
            .into(),
        )
    }
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
            Error::DatabaseError(DatabaseErrorKind::Unknown, info)
                if info.message().contains("statement timeout") =>
            {
                crate::metrics::METRICS.statement_timeouts.inc();
                StoreError::Query(error)
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
/// text; a statement they interrupt was not done. The same holds for the
/// errors libpq itself writes when the socket closed under a statement
/// (the server stopped or crashed), which diesel also reports as "unknown"
/// until it has seen the connection's status change: whether that
/// statement was done is not known, so the caller is told "unavailable"
/// (a retry with the same `Idempotency-Key` gets the answer if it was).
fn ends_the_session(message: &str) -> bool {
    const SERVER: [&str; 2] = ["terminating connection ", "the database system is "];
    const LIBPQ: [&str; 4] = [
        "server closed the connection unexpectedly",
        "no connection to the server",
        "could not receive data from server",
        "could not send data to server",
    ];
    SERVER
        .iter()
        .chain(LIBPQ.iter())
        .any(|start| message.starts_with(start))
}

impl From<diesel::r2d2::PoolError> for StoreError {
    fn from(error: diesel::r2d2::PoolError) -> Self {
        StoreError::Unavailable(Box::new(error))
    }
}
