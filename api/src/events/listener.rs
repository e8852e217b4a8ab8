//! PostgreSQL `LISTEN/NOTIFY` between server processes.
//!
//! Each process keeps one dedicated connection (outside the pool) on its
//! own thread. It `LISTEN`s on [`super::NOTIFY_CHANNEL`] and hands every
//! notification to the in-process [`super::Notifier`]. It sends nothing:
//! every writer announces its change with `pg_notify` inside its own
//! transaction (game changes and events alike), so a notification is
//! delivered exactly when its change commits and cannot be lost after it.
//!
//! Diesel exposes libpq's non-blocking `PQconsumeInput`/`PQnotifies`, not a
//! blocking wait on the socket (which would need `unsafe` here), so the
//! thread looks at what the socket has delivered every
//! [`INBOX_CHECK`]: a local non-blocking read, not a query — the database
//! is not polled. Every [`LIVENESS_CHECK`] it runs `SELECT 1` to notice a
//! silently dead connection. After any failure it reconnects with backoff
//! and then wakes every waiter, which re-read the database, so nothing
//! announced while it was disconnected is lost.

use std::sync::Weak;
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::Connection;

use super::notifier::{Inner, Message};
use super::NOTIFY_CHANNEL;
use crate::db::one_line;

/// How often delivered notifications are picked up from the socket (well
/// within the promised one second across processes).
pub const INBOX_CHECK: Duration = Duration::from_millis(50);
/// How often the connection is checked with a query.
pub const LIVENESS_CHECK: Duration = Duration::from_secs(30);
const MAX_BACKOFF: Duration = Duration::from_secs(30);
pub(crate) fn spawn(url: String, inner: Weak<Inner>) {
    let started = std::thread::Builder::new()
        .name("pg-listen".into())
        .spawn(move || run(&url, &inner));
    if let Err(e) = started {
        tracing::error!(error = %e, "cannot start the LISTEN thread; other processes' changes \
                                     reach this one only through the waiters' re-checks");
    }
}

enum Exit {
    /// The notifier is gone or closed: stop the thread.
    Stop,
    /// The connection failed: reconnect.
    Reconnect(String),
}

fn run(url: &str, inner: &Weak<Inner>) {
    let url = listener_url(url);
    let mut backoff = Duration::from_millis(250);
    loop {
        if alive(inner).is_none() {
            return;
        }
        let failure = match connect(&url) {
            Ok(mut conn) => {
                backoff = Duration::from_millis(250);
                // Whatever was announced before LISTEN took effect (first
                // start or a reconnect) is caught by a re-read everywhere.
                if let Some(inner) = alive(inner) {
                    inner.wake_all();
                }
                match serve(&mut conn, inner) {
                    Exit::Stop => return,
                    Exit::Reconnect(reason) => reason,
                }
            }
            Err(reason) => reason,
        };
        tracing::warn!(error = %failure, retry_in_ms = backoff.as_millis() as u64,
                       "LISTEN connection lost; reconnecting");
        // Sleep for the backoff while still noticing a closed notifier.
        let until = Instant::now() + backoff;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            std::thread::sleep(left.min(Duration::from_millis(500)));
            if alive(inner).is_none() {
                return;
            }
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

fn alive(inner: &Weak<Inner>) -> Option<std::sync::Arc<Inner>> {
    inner.upgrade().filter(|inner| !inner.is_closed())
}

fn connect(url: &str) -> Result<PgConnection, String> {
    let mut conn = PgConnection::establish(url).map_err(|e| one_line(&e.to_string()))?;
    conn.batch_execute(&format!("LISTEN {NOTIFY_CHANNEL}"))
        .map_err(|e| one_line(&e.to_string()))?;
    Ok(conn)
}

fn serve(conn: &mut PgConnection, inner: &Weak<Inner>) -> Exit {
    let mut last_liveness = Instant::now();
    loop {
        std::thread::sleep(INBOX_CHECK);
        let Some(inner) = alive(inner) else {
            return Exit::Stop;
        };
        for received in conn.notifications_iter() {
            match received {
                Ok(notification) if notification.channel == NOTIFY_CHANNEL => {
                    match Message::decode(&notification.payload) {
                        Some(message) => inner.dispatch(message),
                        None => tracing::warn!(payload = %notification.payload,
                                               "ignoring a malformed notification"),
                    }
                }
                Ok(_) => {}
                Err(e) => return Exit::Reconnect(one_line(&e.to_string())),
            }
        }
        if last_liveness.elapsed() >= LIVENESS_CHECK {
            if let Err(e) = conn.batch_execute("SELECT 1") {
                return Exit::Reconnect(one_line(&e.to_string()));
            }
            last_liveness = Instant::now();
        }
    }
}

/// The `application_name` of the LISTEN connections, to tell them apart
/// in `pg_stat_activity`.
pub const APPLICATION_NAME: &str = "stratego-listen";

/// Adds a connect timeout (a dead server must not hang the reconnect loop
/// on the OS's TCP timeout) and the application name, unless given.
fn listener_url(url: &str) -> String {
    crate::db::with_default_params(
        url,
        &[
            ("connect_timeout", "5".to_owned()),
            ("application_name", APPLICATION_NAME.to_owned()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_url_gets_a_timeout_and_a_name() {
        assert_eq!(
            listener_url("postgres://h/d"),
            "postgres://h/d?connect_timeout=5&application_name=stratego-listen"
        );
        assert_eq!(
            listener_url("postgres://h/d?connect_timeout=9&application_name=x"),
            "postgres://h/d?connect_timeout=9&application_name=x"
        );
    }
}
