//! Read replicas (docs/deploy.md, "Read replicas"): the reads that
//! tolerate a little lag may go to a PostgreSQL standby instead of the
//! primary. A replica is read only while its last check found it a
//! streaming standby no more than the allowed lag behind; a read that
//! fails on it falls back to the primary at once (and the replica is
//! passed over until a check finds it well again), so a replica going
//! away costs no request an error.
//!
//! Read-your-writes: a caller whose own write went through this process
//! lately (within the lag allowed, and a second more) reads the primary;
//! what a caller owns (their own profile, lists and game views) is read
//! from the primary by the routes in any case.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use uuid::Uuid;

use super::{run_as, DbConnection, DbPool, LostConnection, StoreError};

/// Writers remembered at most; past it the oldest are forgotten first (a
/// forgotten writer reads a replica at most the allowed lag behind).
const WRITERS_KEPT: usize = 100_000;

/// The replicas of one primary, and who wrote through this process lately.
pub struct Replicas {
    list: Vec<Replica>,
    next: AtomicUsize,
    max_lag: Duration,
    writers: Mutex<HashMap<Uuid, Instant>>,
}

impl std::fmt::Debug for Replicas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replicas")
            .field("replicas", &self.list.len())
            .field("max_lag", &self.max_lag)
            .finish()
    }
}

/// One replica: its pool, and whether the last check found it fit.
pub struct Replica {
    /// `replica 1`, `replica 2`, ... in the order of `DATABASE_REPLICA_URL`
    /// (a URL may hold a password: it is never logged).
    pub name: String,
    pub pool: DbPool,
    fit: AtomicBool,
}

impl Replica {
    pub fn is_fit(&self) -> bool {
        self.fit.load(Ordering::Acquire)
    }

    /// Records what a check (or a failed read) found; says so in the log
    /// when it changes.
    pub fn set_fit(&self, fit: bool, why: &str) {
        if self.fit.swap(fit, Ordering::AcqRel) != fit {
            if fit {
                tracing::info!(replica = %self.name, "read replica in use: {why}");
            } else {
                tracing::warn!(replica = %self.name, "read replica passed over: {why}");
            }
        }
        crate::metrics::METRICS
            .replica_fit
            .with_label_values(&[&self.name])
            .set(i64::from(fit));
    }
}

impl Replicas {
    /// `pools` in order; none is read before a check found it fit.
    pub fn new(pools: Vec<DbPool>, max_lag: Duration) -> Self {
        let list = pools
            .into_iter()
            .enumerate()
            .map(|(i, pool)| Replica {
                name: format!("replica {}", i + 1),
                pool,
                fit: AtomicBool::new(false),
            })
            .collect();
        Self {
            list,
            next: AtomicUsize::new(0),
            max_lag,
            writers: Mutex::default(),
        }
    }

    pub fn list(&self) -> &[Replica] {
        &self.list
    }

    pub fn max_lag(&self) -> Duration {
        self.max_lag
    }

    /// The next fit replica, in turn.
    fn pick(&self) -> Option<&Replica> {
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        (0..self.list.len())
            .map(|i| &self.list[(start + i) % self.list.len()])
            .find(|r| r.is_fit())
    }

    /// How long a writer reads the primary after writing.
    fn sticky(&self) -> Duration {
        self.max_lag + Duration::from_secs(1)
    }

    fn wrote(&self, user: Uuid) {
        let now = Instant::now();
        let mut writers = self.writers.lock().unwrap_or_else(PoisonError::into_inner);
        if writers.len() >= WRITERS_KEPT {
            let sticky = self.sticky();
            writers.retain(|_, at| now.duration_since(*at) < sticky);
            if writers.len() >= WRITERS_KEPT {
                writers.clear();
            }
        }
        writers.insert(user, now);
    }

    fn wrote_lately(&self, user: Uuid) -> bool {
        let writers = self.writers.lock().unwrap_or_else(PoisonError::into_inner);
        writers
            .get(&user)
            .is_some_and(|at| at.elapsed() < self.sticky())
    }
}

/// Whether a read may be served by a replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    /// From the primary: the caller must see their own writes.
    Primary,
    /// A replica within the allowed lag will do.
    MayLag,
}

impl DbPool {
    /// This pool, with read replicas beside it.
    pub fn with_replicas(mut self, replicas: Replicas) -> Self {
        if !replicas.list.is_empty() {
            self.replicas = Some(Arc::new(replicas));
        }
        self
    }

    /// The replicas (empty without any).
    pub fn replicas(&self) -> &[Replica] {
        self.replicas.as_deref().map_or(&[], Replicas::list)
    }

    /// Notes that `user` is writing through this process (read-your-writes).
    pub fn note_writer(&self, user: Uuid) {
        if let Some(replicas) = &self.replicas {
            replicas.wrote(user);
        }
    }

    /// How fresh a read by `user` must be: from the primary if they wrote
    /// through this process lately.
    pub fn freshness_for(&self, user: Uuid) -> Freshness {
        match &self.replicas {
            Some(replicas) if !replicas.wrote_lately(user) => Freshness::MayLag,
            _ => Freshness::Primary,
        }
    }
}

/// `work` on a fit replica: `None` when there is none, when `freshness`
/// asks for the primary, or when the read failed there (a lost replica
/// is passed over from now on). The caller then reads the primary.
pub async fn on_replica<T, E, F>(pool: &DbPool, freshness: Freshness, work: F) -> Option<T>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + LostConnection + std::fmt::Display + Send + 'static,
{
    if freshness == Freshness::Primary {
        return None;
    }
    let replica = pool.replicas.as_deref()?.pick()?;
    let outcome = match run_as(&replica.pool, work).await {
        Ok(answer) => Some(answer),
        Err(error) => {
            if error.lost_connection() {
                replica.set_fit(false, &format!("a read failed: {error}"));
            }
            None
        }
    };
    let counted = if outcome.is_some() {
        "replica"
    } else {
        "primary"
    };
    crate::metrics::METRICS
        .replica_reads
        .with_label_values(&[counted])
        .inc();
    outcome
}

/// `work` on a fit replica if `freshness` allows, else (or if that fails)
/// on the primary.
pub async fn run_lagging<T, E, F>(pool: &DbPool, freshness: Freshness, work: F) -> Result<T, E>
where
    F: Fn(&mut DbConnection) -> Result<T, E> + Clone + Send + 'static,
    T: Send + 'static,
    E: From<StoreError> + LostConnection + std::fmt::Display + Send + 'static,
{
    if let Some(answer) = on_replica(pool, freshness, work.clone()).await {
        return Ok(answer);
    }
    run_as(pool, work).await
}
