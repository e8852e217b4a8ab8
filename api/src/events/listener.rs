//! PostgreSQL `LISTEN/NOTIFY` between server processes.
//!
//! Each process keeps one dedicated connection (outside the pool) on its
//! own thread. It `LISTEN`s on [`super::NOTIFY_CHANNEL`] and hands every
//! notification from another process to the in-process
//! [`super::Notifier`]; and it sends this process's own announcements
//! (games changed, new events), which the notifier hands it through an
//! [`Outbox`] once each change has committed.
//!
//! Why not `NOTIFY` inside the writing transaction: PostgreSQL serialises
//! the commits of transactions that notify, holding one lock from before
//! the commit record until after it is flushed to disk, so notifying
//! writers cannot share a flush (group commit) and wait in line for each
//! other's. Sent here, each announcement is a transaction of its own that
//! writes nothing durable, holds that lock for a moment, and carries every
//! announcement waiting at the time. An announcement can be lost (the
//! cases are in docs/architecture.md, "Telling the other processes"); every
//! waiter's safety re-check (20 s) makes that good.
//! (Ended sessions are the exception: they are announced inside their
//! transaction, `super::announce_session_ended`, as they must never be
//! lost.)
//!
//! Diesel exposes libpq's non-blocking `PQconsumeInput`/`PQnotifies`, not a
//! blocking wait on the socket (which would need `unsafe` here), so the
//! thread waits on its outbox and looks at what the socket has delivered
//! at least every [`INBOX_CHECK`]: a local non-blocking read, not a query
//! — the database is not polled. Every [`LIVENESS_CHECK`] it runs a query
//! to notice a silently dead connection. After any failure it reconnects
//! with backoff, sends what was waiting, and wakes every waiter, which
//! re-read the database, so nothing announced while it was disconnected is
//! lost.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Weak;
use std::time::{Duration, Instant};

use diesel::pg::PgConnection;
use diesel::Connection;

use super::notifier::{Inner, Message};
use super::NOTIFY_CHANNEL;
use crate::db::one_line;
use crate::storage::events as store;

/// How often delivered notifications are picked up from the socket (well
/// within the promised one second across processes).
pub const INBOX_CHECK: Duration = Duration::from_millis(50);
/// How often the connection is checked with a query.
pub const LIVENESS_CHECK: Duration = Duration::from_secs(30);
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How many announcements may wait for the connection; past that (only
/// while it is down for long) new ones are dropped, and counted in the log.
pub const OUTBOX_CAPACITY: usize = 16_384;
/// At most this many announcements go in one statement.
const BATCH: usize = 1_024;
/// While announcements keep coming, at most one statement goes out per
/// this long; the ones posted meanwhile wait and go together. Each
/// statement is a transaction that PostgreSQL runs, locks the queue for
/// and delivers to every listener (this process's own included), and at
/// thousands of moves a second one per move cost more than the move's
/// own write did to send (BENCHMARKS.md, nineteenth measurement).
const GATHER: Duration = Duration::from_millis(5);

/// Where the notifier leaves this process's announcements for the thread.
pub(crate) struct Outbox {
    sender: SyncSender<Message>,
    dropped: AtomicU64,
}

impl Outbox {
    pub(crate) fn new() -> (Outbox, Receiver<Message>) {
        let (sender, receiver) = mpsc::sync_channel(OUTBOX_CAPACITY);
        let outbox = Outbox {
            sender,
            dropped: AtomicU64::new(0),
        };
        (outbox, receiver)
    }

    /// Hands `message` to the thread without waiting.
    pub(crate) fn post(&self, message: Message) {
        match self.sender.try_send(message) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
                // 1, 2, 4, 8, ...: a long outage cannot flood the log.
                if dropped.is_power_of_two() {
                    tracing::warn!(
                        dropped,
                        "the NOTIFY outbox is full; other processes \
                                             learn of these changes on their re-check"
                    );
                }
            }
            // The thread is gone (it could not start, or the notifier closed):
            // other processes learn on their re-check.
            Err(TrySendError::Disconnected(_)) => {}
        }
    }
}

/// Starts the thread; its handle lets [`super::Notifier::finish`] wait
/// for the last sends.
pub(crate) fn spawn(
    url: String,
    inner: Weak<Inner>,
    outbox: Receiver<Message>,
) -> Option<std::thread::JoinHandle<()>> {
    let started = std::thread::Builder::new()
        .name("pg-listen".into())
        .spawn(move || run(&url, &inner, &outbox));
    match started {
        Ok(handle) => Some(handle),
        Err(e) => {
            tracing::error!(error = %e, "cannot start the LISTEN thread; other processes' \
                                         changes reach this one only through the waiters' \
                                         re-checks");
            None
        }
    }
}

enum Exit {
    /// The notifier is gone or closed: stop the thread.
    Stop,
    /// The connection failed: reconnect.
    Reconnect(String),
}

fn run(url: &str, inner: &Weak<Inner>, outbox: &Receiver<Message>) {
    let url = listener_url(url);
    let mut backoff = Duration::from_millis(250);
    // Taken from the outbox, not yet sent (kept across a reconnect).
    let mut unsent: Vec<String> = Vec::new();
    loop {
        if alive(inner).is_none() {
            return;
        }
        let failure = match connect(&url) {
            Ok((mut conn, pid)) => {
                backoff = Duration::from_millis(250);
                // Whatever was announced before LISTEN took effect (first
                // start or a reconnect) is caught by a re-read everywhere.
                if let Some(inner) = alive(inner) {
                    inner.wake_all();
                }
                match serve(&mut conn, pid, inner, outbox, &mut unsent) {
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

/// A listening connection and its backend's pid (what its own
/// notifications come back with).
fn connect(url: &str) -> Result<(PgConnection, i32), String> {
    let mut conn = PgConnection::establish(url).map_err(|e| one_line(&e.to_string()))?;
    store::listen(&mut conn, NOTIFY_CHANNEL).map_err(|e| one_line(&e.to_string()))?;
    let pid = store::backend_pid(&mut conn).map_err(|e| one_line(&e.to_string()))?;
    Ok((conn, pid))
}

fn serve(
    conn: &mut PgConnection,
    own_pid: i32,
    inner: &Weak<Inner>,
    outbox: &Receiver<Message>,
    unsent: &mut Vec<String>,
) -> Exit {
    let mut last_liveness = Instant::now();
    // When the last statement was sent (long ago: the first is not held).
    let mut last_sent: Option<Instant> = None;
    loop {
        // What waits (from before a reconnect, or taken last time round)
        // goes first, so that there is room for what is taken next.
        if !unsent.is_empty() {
            if let Err(e) = send(conn, unsent) {
                return Exit::Reconnect(e);
            }
            last_sent = Some(Instant::now());
        }
        // Wait for something to send, at most until the next inbox check.
        let notifier_gone = match outbox.recv_timeout(INBOX_CHECK) {
            Ok(message) => {
                take(unsent, std::iter::once(message).chain(outbox.try_iter()));
                gather(outbox, unsent, last_sent.map(|sent| sent + GATHER))
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => true,
        };
        let inner = match alive(inner) {
            Some(inner) if !notifier_gone => inner,
            _ => {
                // Closing: what is still in the outbox goes out first.
                take(unsent, outbox.try_iter());
                if let Err(e) = send(conn, unsent) {
                    tracing::warn!(error = %e, "the last NOTIFYs were not sent");
                }
                return Exit::Stop;
            }
        };
        for received in conn.notifications_iter() {
            match received {
                // Its own announcements: this process woke its waiters
                // itself when it posted them.
                Ok(notification) if notification.process_id == own_pid => {}
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
            if let Err(e) = store::backend_pid(conn) {
                return Exit::Reconnect(one_line(&e.to_string()));
            }
            last_liveness = Instant::now();
        }
    }
}

/// Takes what is posted until `until` (the last statement's time plus
/// [`GATHER`]) into `unsent`, so that while announcements keep coming they
/// leave in one statement per [`GATHER`], not one each; after a quiet
/// spell `until` has passed and nothing is held. A statement's worth
/// ([`BATCH`]) is not held any longer: holding more saves nothing, and
/// what waits in `unsent` must stay within [`OUTBOX_CAPACITY`]. `true`:
/// the notifier is gone.
fn gather(outbox: &Receiver<Message>, unsent: &mut Vec<String>, until: Option<Instant>) -> bool {
    let Some(until) = until else {
        return false;
    };
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        if unsent.len() >= BATCH {
            return false;
        }
        match outbox.recv_timeout(left) {
            Ok(message) => take(unsent, std::iter::once(message).chain(outbox.try_iter())),
            Err(RecvTimeoutError::Timeout) => return false,
            Err(RecvTimeoutError::Disconnected) => return true,
        }
    }
    false
}

/// Moves `posted` into `unsent`, which holds at most [`OUTBOX_CAPACITY`].
/// `serve` sends before it takes, so `unsent` is empty then, or holds
/// less than a statement's worth ([`gather`]), and nothing is left out;
/// what is posted while a send keeps failing waits in the outbox, which
/// counts what it drops.
fn take(unsent: &mut Vec<String>, posted: impl Iterator<Item = Message>) {
    let room = OUTBOX_CAPACITY.saturating_sub(unsent.len());
    unsent.extend(posted.take(room).map(|m| m.encode()));
}

/// Sends `unsent`, in statements of at most [`BATCH`]; what was sent is
/// taken off, what was not stays for after a reconnect.
fn send(conn: &mut PgConnection, unsent: &mut Vec<String>) -> Result<(), String> {
    while !unsent.is_empty() {
        let n = unsent.len().min(BATCH);
        store::notify_all(conn, NOTIFY_CHANNEL, &unsent[..n])
            .map_err(|e| one_line(&e.to_string()))?;
        unsent.drain(..n);
    }
    Ok(())
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
    fn what_waits_to_be_sent_is_bounded() {
        let game = uuid::Uuid::new_v4();
        let mut unsent = Vec::new();
        take(&mut unsent, (0..10).map(|v| Message::Game(game, v)));
        assert_eq!(unsent.len(), 10);
        assert_eq!(unsent[3], format!("g:{game}:3"));
        take(&mut unsent, (0..).map(|v| Message::Game(game, v)));
        assert_eq!(
            unsent.len(),
            OUTBOX_CAPACITY,
            "no more than the outbox holds"
        );
        take(&mut unsent, std::iter::once(Message::User(game)));
        assert_eq!(unsent.len(), OUTBOX_CAPACITY);
        assert_eq!(unsent[0], format!("g:{game}:0"), "the oldest stay");
    }

    #[test]
    #[allow(clippy::unwrap_used)]
    fn announcements_posted_soon_after_a_send_are_gathered_into_the_next() {
        let game = uuid::Uuid::new_v4();
        let (outbox, received) = Outbox::new();
        let mut unsent = Vec::new();
        let posting = std::thread::spawn(move || {
            for version in 0..3 {
                std::thread::sleep(Duration::from_millis(20));
                outbox.post(Message::Game(game, version));
            }
            outbox
        });
        let started = Instant::now();
        let gone = gather(
            &received,
            &mut unsent,
            Some(started + Duration::from_millis(400)),
        );
        assert!(!gone);
        assert!(
            started.elapsed() >= Duration::from_millis(400),
            "held until the gathering time is over"
        );
        assert_eq!(
            unsent,
            (0..3).map(|v| format!("g:{game}:{v}")).collect::<Vec<_>>(),
            "every announcement posted meanwhile goes in the one statement"
        );
        let outbox = posting.join().unwrap();
        // After a quiet spell (nothing sent lately), nothing is held.
        outbox.post(Message::Game(game, 3));
        let started = Instant::now();
        assert!(!gather(&received, &mut unsent, None));
        assert!(!gather(&received, &mut unsent, Some(started)));
        assert!(started.elapsed() < Duration::from_millis(400));
        assert_eq!(
            unsent.len(),
            3,
            "what came after is left for the next round"
        );
        drop(outbox);
        assert!(
            gather(&received, &mut unsent, Some(Instant::now() + GATHER)),
            "a closed notifier is told"
        );
        assert_eq!(unsent.len(), 4, "with what it posted last");
    }

    #[test]
    fn a_statements_worth_is_sent_without_waiting_for_more() {
        let game = uuid::Uuid::new_v4();
        let (outbox, received) = Outbox::new();
        for version in 0..(BATCH as i64 + 10) {
            outbox.post(Message::Game(game, version));
        }
        let mut unsent = Vec::new();
        let started = Instant::now();
        let gone = gather(
            &received,
            &mut unsent,
            Some(started + Duration::from_secs(5)),
        );
        assert!(!gone);
        assert!(started.elapsed() < Duration::from_secs(5), "not held");
        assert!(unsent.len() >= BATCH, "{}", unsent.len());
        drop(outbox);
    }

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
