//! In-process wake-ups for long polls and streams, fed by local writers and
//! (on PostgreSQL) by the `LISTEN` thread with other processes' changes.
//!
//! Waiters register a small `watch` channel per user or per game for as long
//! as they wait; nothing is kept for users or games nobody waits for. A wake
//! only says "look again": every waiter re-reads the database, so a spurious
//! wake costs one query and a lost one is caught by the waiter's slow
//! safety re-check.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;
use uuid::Uuid;

use super::listener::Outbox;
use super::streams::StreamLimiter;
use crate::auth::sessions::EndedSessions;
use crate::config::{Config, DatabaseUrl};

/// What one process tells the others (and itself) through `NOTIFY`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    /// A new event for this user.
    User(Uuid),
    /// This game reached this version.
    Game(Uuid, i64),
    /// This session (login) ended: refuse its access tokens.
    SessionEnded(Uuid),
}

impl Message {
    /// `u:<uuid>`, `g:<uuid>:<version>` or `s:<uuid>` (a NOTIFY payload).
    pub fn encode(&self) -> String {
        match self {
            Self::User(user) => format!("u:{user}"),
            Self::Game(game, version) => format!("g:{game}:{version}"),
            Self::SessionEnded(session) => format!("s:{session}"),
        }
    }

    pub fn decode(text: &str) -> Option<Self> {
        let mut parts = text.split(':');
        let message = match (parts.next()?, parts.next()?, parts.next()) {
            ("u", id, None) => Self::User(id.parse().ok()?),
            ("s", id, None) => Self::SessionEnded(id.parse().ok()?),
            ("g", id, Some(version)) => Self::Game(id.parse().ok()?, version.parse().ok()?),
            _ => return None,
        };
        parts.next().is_none().then_some(message)
    }
}

/// Why a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// Something may have changed: read again.
    Notified,
    /// The time was up.
    TimedOut,
    /// The server is shutting down: answer now and close streams.
    ShuttingDown,
}

/// Wakes waiting requests and streams. Cheap to clone (an `Arc`).
#[derive(Clone)]
pub struct Notifier {
    inner: Arc<Inner>,
    streams: Arc<StreamLimiter>,
}

impl std::fmt::Debug for Notifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Notifier").finish_non_exhaustive()
    }
}

pub(crate) struct Inner {
    users: Mutex<HashMap<Uuid, watch::Sender<u64>>>,
    games: Mutex<HashMap<Uuid, watch::Sender<i64>>>,
    /// Bumped to wake every waiter (after the `LISTEN` connection was
    /// re-established, notifications may have been missed).
    epoch: watch::Sender<u64>,
    shutdown: watch::Sender<bool>,
    /// Set by [`Notifier::close`]: background threads and tasks end.
    closed: AtomicBool,
    /// Where ended sessions are recorded (set once at start).
    sessions: OnceLock<Arc<EndedSessions>>,
    /// On PostgreSQL: this process's announcements, for the `LISTEN`
    /// thread to send to the other processes.
    outbox: Option<Outbox>,
    /// The `LISTEN` thread, to wait for its last sends at shutdown.
    listener: Mutex<Option<std::thread::JoinHandle<()>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Inner {
    pub(crate) fn dispatch(&self, message: Message) {
        crate::metrics::METRICS.wakeups.inc();
        match message {
            Message::User(user) => {
                if let Some(sender) = lock(&self.users).get(&user) {
                    sender.send_modify(|n| *n = n.wrapping_add(1));
                }
            }
            Message::Game(game, version) => {
                if let Some(sender) = lock(&self.games).get(&game) {
                    sender.send_if_modified(|known| {
                        let newer = version > *known;
                        if newer {
                            *known = version;
                        }
                        newer
                    });
                }
            }
            Message::SessionEnded(session) => {
                if let Some(sessions) = self.sessions.get() {
                    sessions.end_now(session);
                }
            }
        }
    }

    pub(crate) fn wake_all(&self) {
        self.epoch.send_modify(|n| *n = n.wrapping_add(1));
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}

impl Notifier {
    /// A notifier for `config`: on PostgreSQL it starts the `LISTEN` thread
    /// (see [`super::listener`]); on SQLite every wake-up is in-process.
    pub fn start(config: &Config) -> Self {
        match &config.database {
            DatabaseUrl::Postgres(url) => {
                let (outbox, posted) = Outbox::new();
                let notifier = Self::with_outbox(config.max_streams_per_user, Some(outbox));
                let listener =
                    super::listener::spawn(url.clone(), Arc::downgrade(&notifier.inner), posted);
                *lock(&notifier.inner.listener) = listener;
                notifier
            }
            DatabaseUrl::Sqlite(_) => Self::in_process(config.max_streams_per_user),
        }
    }

    /// A notifier that only wakes waiters in this process.
    pub fn in_process(max_streams_per_user: usize) -> Self {
        Self::with_outbox(max_streams_per_user, None)
    }

    fn with_outbox(max_streams_per_user: usize, outbox: Option<Outbox>) -> Self {
        Self {
            inner: Arc::new(Inner {
                users: Mutex::new(HashMap::new()),
                games: Mutex::new(HashMap::new()),
                epoch: watch::Sender::new(0),
                shutdown: watch::Sender::new(false),
                closed: AtomicBool::new(false),
                sessions: OnceLock::new(),
                outbox,
                listener: Mutex::new(None),
            }),
            streams: Arc::new(StreamLimiter::new(max_streams_per_user)),
        }
    }

    /// Call after committing a change that took `game_id` to `version`:
    /// wakes this process's waiters at once and tells the other processes
    /// (see [`Notifier::announce`]).
    pub fn game_changed(&self, game_id: Uuid, version: i64) {
        self.announce(Message::Game(game_id, version));
    }

    /// Call after committing a transaction that [`super::record_all`]ed an
    /// event for `user_id`: wakes this process's waiters at once and tells
    /// the other processes (see [`Notifier::announce`]).
    pub fn user_event(&self, user_id: Uuid) {
        self.announce(Message::User(user_id));
    }

    /// Wakes this process's waiters for `message` and, on PostgreSQL, hands
    /// it to the `LISTEN` thread, which sends it to the other processes
    /// right away without making the caller wait (see [`super::listener`]
    /// for why this is not done inside the transaction).
    fn announce(&self, message: Message) {
        self.inner.dispatch(message);
        if let Some(outbox) = &self.inner.outbox {
            outbox.post(message);
        }
    }

    /// Resolves when `game_id` has passed `after_version` (as announced by
    /// [`Notifier::game_changed`] in any process), after `timeout`, or at
    /// shutdown. The subscription is taken when this is CALLED, so call it
    /// before reading the game and await it only if the version read is
    /// still <= `after_version`: then no change can slip in between. It may
    /// also resolve early (after a reconnect of the `LISTEN` connection);
    /// either way the caller re-reads the game.
    pub fn wait_for_game_version(
        &self,
        game_id: Uuid,
        after_version: i64,
        timeout: Duration,
    ) -> impl Future<Output = Wake> + Send + 'static {
        let mut subscription = self.subscribe_game(game_id);
        async move { subscription.wait_past(after_version, timeout).await }
    }

    /// Records the sessions other processes announce as ended in
    /// `sessions` (call once, at start).
    pub fn record_ended_sessions_in(&self, sessions: Arc<EndedSessions>) {
        let _ = self.inner.sessions.set(sessions);
    }

    /// Changes whenever every waiter is woken because notifications may
    /// have been missed (the `LISTEN` connection was re-established).
    pub fn reconnects(&self) -> watch::Receiver<u64> {
        self.inner.epoch.subscribe()
    }

    /// Starts listening for `game_id`'s changes (see [`GameSubscription`]).
    pub fn subscribe_game(&self, game_id: Uuid) -> GameSubscription {
        let receiver = lock(&self.inner.games)
            .entry(game_id)
            .or_insert_with(|| watch::Sender::new(0))
            .subscribe();
        GameSubscription {
            game_id,
            receiver: Some(receiver),
            common: self.common_receivers(),
            inner: self.inner.clone(),
        }
    }

    /// Starts listening for new events of `user_id`. Take it before reading
    /// the feed, then wait only if the read found nothing.
    pub fn subscribe_user(&self, user_id: Uuid) -> UserSubscription {
        let receiver = lock(&self.inner.users)
            .entry(user_id)
            .or_insert_with(|| watch::Sender::new(0))
            .subscribe();
        UserSubscription {
            user_id,
            receiver: Some(receiver),
            common: self.common_receivers(),
            inner: self.inner.clone(),
        }
    }

    fn common_receivers(&self) -> Common {
        Common {
            epoch: self.inner.epoch.subscribe(),
            shutdown: self.inner.shutdown.subscribe(),
        }
    }

    /// Ends every long poll and stream (they answer / close at once) and
    /// refuses new streams: called on SIGTERM/SIGINT, before the HTTP server
    /// drains its connections.
    pub fn begin_shutdown(&self) {
        self.inner.shutdown.send_replace(true);
    }

    pub fn is_shutting_down(&self) -> bool {
        *self.inner.shutdown.borrow()
    }

    /// [`Notifier::begin_shutdown`], and stops the `LISTEN` thread and the
    /// background tasks: called once the HTTP server has stopped.
    pub fn close(&self) {
        self.begin_shutdown();
        self.inner.closed.store(true, Ordering::Relaxed);
    }

    pub fn is_closed(&self) -> bool {
        self.inner.is_closed()
    }

    /// [`Notifier::close`], then waits up to `limit` for the `LISTEN`
    /// thread to send what is still waiting and end (it looks every 50 ms).
    /// Blocking: call it once the server has stopped.
    pub fn finish(&self, limit: Duration) {
        self.close();
        let Some(thread) = lock(&self.inner.listener).take() else {
            return;
        };
        let until = std::time::Instant::now() + limit;
        while !thread.is_finished() && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        if !thread.is_finished() {
            tracing::warn!("the LISTEN thread did not end in time; leaving it");
        }
    }

    /// A future that resolves when shutdown begins.
    pub fn shutdown_signal(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut shutdown = self.inner.shutdown.subscribe();
        async move {
            let _ = shutdown.wait_for(|down| *down).await;
        }
    }

    /// The per-user cap on open streams.
    pub fn streams(&self) -> &Arc<StreamLimiter> {
        &self.streams
    }

    /// Waiter entries currently registered (users, games): for tests.
    pub fn registered(&self) -> (usize, usize) {
        (lock(&self.inner.users).len(), lock(&self.inner.games).len())
    }
}

struct Common {
    epoch: watch::Receiver<u64>,
    shutdown: watch::Receiver<bool>,
}

impl Common {
    /// Waits for `changed` (the subscription's own channel), an epoch bump,
    /// shutdown or `deadline`.
    async fn wait<F>(&mut self, changed: F, deadline: Instant) -> Wake
    where
        F: Future<Output = bool>,
    {
        if *self.shutdown.borrow() {
            return Wake::ShuttingDown;
        }
        tokio::select! {
            alive = changed => if alive { Wake::Notified } else { Wake::ShuttingDown },
            _ = self.epoch.changed() => Wake::Notified,
            _ = self.shutdown.wait_for(|down| *down) => Wake::ShuttingDown,
            () = tokio::time::sleep_until(deadline) => Wake::TimedOut,
        }
    }
}

/// A registration for one user's new events; unregisters on drop.
pub struct UserSubscription {
    user_id: Uuid,
    receiver: Option<watch::Receiver<u64>>,
    common: Common,
    inner: Arc<Inner>,
}

impl UserSubscription {
    /// Waits until an event may have arrived since the subscription was
    /// taken or last woke, for at most `timeout`.
    pub async fn wait(&mut self, timeout: Duration) -> Wake {
        let deadline = Instant::now() + timeout;
        let Some(receiver) = self.receiver.as_mut() else {
            return Wake::ShuttingDown;
        };
        self.common
            .wait(async { receiver.changed().await.is_ok() }, deadline)
            .await
    }
}

impl Drop for UserSubscription {
    fn drop(&mut self) {
        drop(self.receiver.take());
        let mut users = lock(&self.inner.users);
        if users
            .get(&self.user_id)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            users.remove(&self.user_id);
        }
    }
}

/// A registration for one game's version; unregisters on drop.
pub struct GameSubscription {
    game_id: Uuid,
    receiver: Option<watch::Receiver<i64>>,
    common: Common,
    inner: Arc<Inner>,
}

impl GameSubscription {
    /// Waits until the game is announced past `after_version` (or an epoch
    /// bump, shutdown, or `timeout`).
    pub async fn wait_past(&mut self, after_version: i64, timeout: Duration) -> Wake {
        let deadline = Instant::now() + timeout;
        let Some(receiver) = self.receiver.as_mut() else {
            return Wake::ShuttingDown;
        };
        if *receiver.borrow_and_update() > after_version {
            return Wake::Notified;
        }
        self.common
            .wait(
                async {
                    receiver
                        .wait_for(|version| *version > after_version)
                        .await
                        .is_ok()
                },
                deadline,
            )
            .await
    }
}

impl Drop for GameSubscription {
    fn drop(&mut self) {
        drop(self.receiver.take());
        let mut games = lock(&self.inner.games);
        if games
            .get(&self.game_id)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            games.remove(&self.game_id);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn messages_round_trip() {
        let id = Uuid::new_v4();
        for message in [
            Message::User(id),
            Message::Game(id, 42),
            Message::SessionEnded(id),
        ] {
            assert_eq!(Message::decode(&message.encode()), Some(message));
        }
        assert_eq!(Message::decode("x:1"), None);
        assert_eq!(Message::decode(&format!("g:{id}")), None);
        assert_eq!(Message::decode(&format!("u:{id}:3")), None);
        assert_eq!(Message::decode(&format!("g:{id}:3:4")), None);
        assert_eq!(Message::decode(&format!("s:{id}:1")), None);
    }

    #[tokio::test]
    async fn a_game_waiter_wakes_only_past_its_version() {
        let notifier = Notifier::in_process(5);
        let game = Uuid::new_v4();
        let waiting = notifier.wait_for_game_version(game, 3, Duration::from_secs(30));
        let task = tokio::spawn(waiting);
        notifier.game_changed(game, 3);
        tokio::task::yield_now().await;
        assert!(!task.is_finished());
        notifier.game_changed(game, 4);
        assert_eq!(task.await.unwrap(), Wake::Notified);
        assert_eq!(notifier.registered(), (0, 0));
    }

    #[tokio::test]
    async fn waits_time_out_and_unregister() {
        let notifier = Notifier::in_process(5);
        let user = Uuid::new_v4();
        let mut subscription = notifier.subscribe_user(user);
        assert_eq!(notifier.registered(), (1, 0));
        assert_eq!(
            subscription.wait(Duration::from_millis(20)).await,
            Wake::TimedOut
        );
        drop(subscription);
        assert_eq!(notifier.registered(), (0, 0));
    }

    #[tokio::test]
    async fn user_events_and_shutdown_wake_waiters() {
        let notifier = Notifier::in_process(5);
        let user = Uuid::new_v4();
        let mut subscription = notifier.subscribe_user(user);
        notifier.user_event(Uuid::new_v4());
        notifier.user_event(user);
        assert_eq!(
            subscription.wait(Duration::from_secs(30)).await,
            Wake::Notified
        );
        notifier.begin_shutdown();
        assert_eq!(
            subscription.wait(Duration::from_secs(30)).await,
            Wake::ShuttingDown
        );
    }
}
