//! The check of the read replicas (docs/deploy.md, "Read replicas"): each
//! process asks every replica, four times a second, whether it is a
//! standby streaming from its primary and how far behind it is, and reads
//! only those that are, within `DATABASE_REPLICA_MAX_LAG_MILLIS`.

use std::time::Duration;

use crate::db::{self, DbPool, StoreError};
use crate::events::Notifier;
use crate::storage::replicas::{self as store, Standing};

/// How often each replica is checked.
pub const CHECK_EVERY: Duration = Duration::from_millis(250);

/// Whether a replica that says `standing` may be read, and why not.
pub fn judge(standing: &Standing, max_lag: Duration) -> Result<(), String> {
    if !standing.standby {
        return Err("it is not a standby (promoted, or a primary)".to_owned());
    }
    if !standing.streaming {
        return Err("it is not streaming from its primary".to_owned());
    }
    let lag = Duration::try_from_secs_f64(standing.lag_seconds.max(0.0)).unwrap_or(Duration::MAX);
    if lag > max_lag {
        return Err(format!(
            "{} ms behind, more than the {} ms allowed",
            lag.as_millis(),
            max_lag.as_millis()
        ));
    }
    Ok(())
}

/// Checks the replicas of `pool` until the notifier shuts down.
pub fn spawn(pool: DbPool, max_lag: Duration, notifier: Notifier) {
    if pool.replicas().is_empty() {
        return;
    }
    tokio::spawn(async move {
        let stop = notifier.shutdown_signal();
        tokio::pin!(stop);
        loop {
            crate::metrics::METRICS
                .sweeps
                .with_label_values(&["replicas"])
                .inc();
            let checks = pool.replicas().iter().map(|replica| async move {
                let standing = db::run_as::<_, StoreError, _>(&replica.pool, |conn| {
                    Ok(store::standing(conn)?)
                })
                .await;
                match standing {
                    Ok(Some(standing)) => match judge(&standing, max_lag) {
                        Ok(()) => {
                            replica.set_fit(true, "a streaming standby within the lag allowed")
                        }
                        Err(why) => replica.set_fit(false, &why),
                    },
                    Ok(None) => replica.set_fit(false, "not PostgreSQL"),
                    Err(error) => replica.set_fit(false, &format!("unreachable: {error}")),
                }
            });
            futures_util::future::join_all(checks).await;
            tokio::select! {
                () = tokio::time::sleep(CHECK_EVERY) => {}
                () = &mut stop => return,
            }
        }
    });
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn standing(standby: bool, streaming: bool, lag_seconds: f64) -> Standing {
        Standing {
            standby,
            streaming,
            lag_seconds,
        }
    }

    #[test]
    fn only_a_streaming_standby_within_the_lag_is_read() {
        let max = Duration::from_secs(1);
        assert!(judge(&standing(true, true, 0.0), max).is_ok());
        assert!(judge(&standing(true, true, 0.999), max).is_ok());
        assert!(judge(&standing(true, true, 1.5), max)
            .unwrap_err()
            .contains("1500 ms behind"));
        assert!(judge(&standing(false, false, 0.0), max)
            .unwrap_err()
            .contains("not a standby"));
        assert!(judge(&standing(true, false, 0.0), max)
            .unwrap_err()
            .contains("not streaming"));
        assert!(judge(&standing(true, true, f64::INFINITY), max).is_err());
        assert!(
            judge(&standing(true, true, -3.0), max).is_ok(),
            "clock skew reads as caught up"
        );
    }
}
