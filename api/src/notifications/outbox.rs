//! The outbox at work (docs/notifications.md, "The outbox"): one task in
//! every server process fans events out into deliveries, claims the
//! deliveries that are due, sends them and records what came of each.
//! Nothing is ever sent inside a request.
//!
//! Delivery is at least once: a delivery is claimed with a lease
//! ([`LEASE`]) before it is sent, so one whose process died mid-delivery is
//! sent again when the lease runs out, under the same id (`webhook-id`),
//! which a receiver uses to drop the repeat.

mod mailing;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use futures_util::future::join_all;

use super::email::EmailSettings;
use super::NotifyError;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::{self, DbPool};
use crate::events::Notifier;
use crate::outbound::address::Policy;
use crate::outbound::send::{Sender, Sent};
use crate::outbound::web_push::VapidKey;
use crate::outbound::webhook_signature;
use crate::storage::channels::{self as channel_store, PushSubscriptionRow, WebhookRow};
use crate::storage::outbox::{self as store, delivery_state, Attempted, DeliveryRow};
use crate::storage::to_db_time;

/// How long a claimed delivery is held by the process that claimed it.
pub const LEASE: Duration = Duration::seconds(60);
/// Deliveries claimed at once (and sent concurrently).
const CLAIM_BATCH: i64 = 16;
/// Finished deliveries are kept this long for `GET .../deliveries`.
const KEEP_FINISHED: Duration = Duration::days(7);

/// The waits before each retry: the first within seconds, then minutes,
/// then hours, about a day in all (the schedule Standard Webhooks
/// suggests). After the last, the delivery has failed.
pub const RETRY_AFTER_SECONDS: [i64; 7] = [5, 300, 1800, 7200, 18000, 36000, 36000];

/// What the outbox was configured with: the address policy, the VAPID key.
#[derive(Debug, Clone)]
pub struct Outbox {
    policy: Policy,
    vapid: Option<Arc<VapidKey>>,
    vapid_public: Option<String>,
    vapid_subject: String,
    /// How long the task rests after a look that found nothing to do.
    poll: StdDuration,
    /// E-mail, when an SMTP relay is configured.
    email: Option<Arc<EmailSettings>>,
}

impl Outbox {
    pub fn from_config(config: &Config) -> Result<Self, NotifyError> {
        let policy = if config.outbound_allow_private_networks {
            Policy::AllowPrivate
        } else {
            Policy::PublicOnly
        };
        let vapid = config
            .vapid_private_key
            .as_ref()
            .map(|key| VapidKey::from_base64url(key.expose()))
            .transpose()
            .map_err(|e| NotifyError::Internal(format!("VAPID_PRIVATE_KEY: {e}")))?
            .map(Arc::new);
        Ok(Self {
            policy,
            vapid_public: vapid
                .as_ref()
                .map(|key| key.public_key_base64url().to_owned()),
            vapid,
            vapid_subject: config.vapid_subject.clone(),
            poll: config.outbox_poll,
            email: EmailSettings::from_config(config)?.map(Arc::new),
        })
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The VAPID public key browsers subscribe with; `None`: Web Push is
    /// off on this server.
    pub fn vapid_public_key(&self) -> Option<&str> {
        self.vapid_public.as_deref()
    }

    /// E-mail's settings; `None`: e-mail is off on this server.
    pub fn email(&self) -> Option<&EmailSettings> {
        self.email.as_deref()
    }
}

/// When attempt `attempts` (1 for the first) of a delivery that failed is
/// tried again, if it is: at least `retry_after` seconds from `now` when
/// the receiver asked for it.
pub fn next_attempt(
    now: DateTime<Utc>,
    attempts: i32,
    retry_after: Option<u64>,
) -> Option<DateTime<Utc>> {
    let wait = *RETRY_AFTER_SECONDS.get(usize::try_from(attempts).ok()?.checked_sub(1)?)?;
    let asked = retry_after
        .and_then(|s| i64::try_from(s).ok())
        .unwrap_or(0)
        .min(86_400);
    Some(now + Duration::seconds(wait.max(asked)))
}

/// The outbox's task: starts it; it ends when the notifier shuts down.
/// A pass in flight then has `hand_back_after` to finish; what it still
/// holds after that is handed back, due at once, for another process (or
/// the next start) to send (docs/deploy.md, "Restarts"). The handle ends
/// when the task has.
pub fn spawn(
    pool: DbPool,
    clock: Arc<dyn Clock>,
    notifier: Notifier,
    outbox: Outbox,
    hand_back_after: StdDuration,
    requests_done: crate::stop::RequestsDone,
) -> Result<tokio::task::JoinHandle<()>, NotifyError> {
    let sender = Sender::new(outbox.policy).map_err(|e| NotifyError::Internal(e.to_string()))?;
    let worker = Arc::new(Worker {
        pool,
        clock,
        outbox,
        sender,
        tokens: super::push::Tokens::default(),
        held: Mutex::default(),
    });
    Ok(tokio::spawn(async move {
        let mut last_prune = None;
        let mut last_fan_out: Option<std::time::Instant> = None;
        // Where the next fan-out goes on, when the last one left players
        // behind it.
        let mut resume_after: Option<String> = None;
        let stop = notifier.shutdown_signal();
        tokio::pin!(stop);
        loop {
            if notifier.is_shutting_down() {
                return;
            }
            // A player's events are fanned out at most once a poll
            // interval, however busy the sending: their events of that
            // interval go together (a "your move" made stale by a newer
            // one is never written), and the fan-out's transaction does
            // not compete with the moves more often than that. A fan-out
            // that left players behind it goes on with them at once.
            let fan_out = resume_after.is_some()
                || last_fan_out.is_none_or(|at| at.elapsed() >= worker.outbox.poll);
            if fan_out && resume_after.is_none() {
                last_fan_out = Some(std::time::Instant::now());
            }
            let from = fan_out.then(|| resume_after.take());
            crate::metrics::METRICS
                .sweeps
                .with_label_values(&["outbox"])
                .inc();
            // At a stop, the pass may go on for `hand_back_after`, but
            // not past the end of the requests in flight.
            let late = {
                let stop = notifier.shutdown_signal();
                let requests_done = requests_done.clone();
                async move {
                    stop.await;
                    tokio::select! {
                        () = tokio::time::sleep(hand_back_after) => {}
                        () = requests_done.wait() => {}
                    }
                }
            };
            let passed = tokio::select! {
                passed = worker.pass(from) => passed,
                () = late => {
                    worker.hand_back().await;
                    return;
                }
            };
            worker.let_go();
            let busy = match passed {
                Ok((busy, after)) => {
                    resume_after = after;
                    busy || resume_after.is_some()
                }
                Err(error) => {
                    tracing::warn!(%error, "outbox pass failed");
                    false
                }
            };
            let now = worker.clock.now();
            if last_prune.is_none_or(|at| now - at > Duration::hours(1)) {
                last_prune = Some(now);
                if let Err(error) = worker.prune(now).await {
                    tracing::warn!(%error, "outbox prune failed");
                }
            }
            if !busy {
                tokio::select! {
                    () = tokio::time::sleep(worker.outbox.poll) => {}
                    () = &mut stop => return,
                }
            }
        }
    }))
}

struct Worker {
    pool: DbPool,
    clock: Arc<dyn Clock>,
    outbox: Outbox,
    sender: Sender,
    tokens: super::push::Tokens,
    /// What the pass in flight has claimed and not yet recorded.
    held: Mutex<Held>,
}

/// Claims of the pass in flight, each with the lease it was taken until:
/// deliveries by id, and players' digest leases.
#[derive(Debug, Default)]
struct Held {
    deliveries: Vec<(String, NaiveDateTime)>,
    digests: Vec<(String, NaiveDateTime)>,
}

impl Worker {
    /// Notes deliveries this pass claimed until `lease`.
    fn hold<'a>(&self, ids: impl IntoIterator<Item = &'a str>, lease: NaiveDateTime) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.deliveries
            .extend(ids.into_iter().map(|id| (id.to_owned(), lease)));
    }

    /// Notes the digest lease of `user` this pass took until `lease`.
    fn hold_digest(&self, user: &str, lease: NaiveDateTime) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.digests.push((user.to_owned(), lease));
    }

    /// The pass ended: what it claimed is recorded (or left to its lease).
    fn let_go(&self) {
        *self.held.lock().unwrap_or_else(PoisonError::into_inner) = Held::default();
    }

    /// At a stop, for a pass that did not finish in time: its claims are
    /// given back, due now, so that no delivery waits out a lease.
    async fn hand_back(&self) {
        let held = std::mem::take(&mut *self.held.lock().unwrap_or_else(PoisonError::into_inner));
        if held.deliveries.is_empty() && held.digests.is_empty() {
            return;
        }
        let now = to_db_time(self.clock.now());
        let given = db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
            let given = store::hand_back(conn, &held.deliveries, now)?;
            for (user, lease) in &held.digests {
                crate::storage::email::release_digest_lease(conn, user, *lease)?;
            }
            Ok(given)
        })
        .await;
        match given {
            Ok(given) => tracing::info!(
                deliveries = given,
                "stopping: deliveries in flight handed back"
            ),
            // Their leases run out, and they are sent again (at least once).
            Err(error) => tracing::warn!(%error, "stopping: deliveries in flight not handed back"),
        }
    }

    /// Fans out (when `fan_out`: after the player it holds, if any), then
    /// sends what is due. Returns whether there may be more to send right
    /// away, and the player the next fan-out goes on after (if players may
    /// be behind after them).
    async fn pass(
        &self,
        fan_out: Option<Option<String>>,
    ) -> Result<(bool, Option<String>), NotifyError> {
        let now = self.clock.now();
        let email = self.outbox.email.is_some();
        let mut resume_after = None;
        if let Some(after) = fan_out {
            // The reading off SQLite's writer: requests' writes never
            // wait behind it.
            let (fanned, resume) = db::run_prepared_write::<_, _, NotifyError, _, _>(
                &self.pool,
                move |conn| Ok(super::fanout::plan(conn, now, email, after.as_deref())?),
                |conn, plan| {
                    let resume = plan.resume_after.clone();
                    Ok((super::fanout::write(conn, plan)?, resume))
                },
            )
            .await?;
            if fanned > 0 {
                tracing::debug!(deliveries = fanned, "events fanned out");
            }
            resume_after = resume;
        }
        // A failed send keeps where the fan-out goes on.
        let full = match self.send_due(now, email).await {
            Ok(full) => full,
            Err(error) => {
                tracing::warn!(%error, "outbox sending failed");
                false
            }
        };
        Ok((full, resume_after))
    }

    /// Claims what is due at `now` and sends it. Returns whether it claimed
    /// as many as it may (there may be more due right away).
    async fn send_due(&self, now: DateTime<Utc>, email: bool) -> Result<bool, NotifyError> {
        let lease_until = to_db_time(now + LEASE);
        let claimed = db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
            Ok(store::claim_due(
                conn,
                to_db_time(now),
                lease_until,
                CLAIM_BATCH,
                email,
            )?)
        })
        .await?;
        self.hold(claimed.iter().map(|d| d.id.as_str()), lease_until);
        let full = i64::try_from(claimed.len()).unwrap_or(i64::MAX) >= CLAIM_BATCH;
        // E-mail goes per player: one digest for all that is due.
        let (mail, other): (Vec<_>, Vec<_>) = claimed
            .into_iter()
            .partition(|d| d.webhook_id.is_none() && d.push_subscription_id.is_none());
        let mut by_player: BTreeMap<String, Vec<DeliveryRow>> = BTreeMap::new();
        for delivery in mail {
            by_player
                .entry(delivery.user_id.clone())
                .or_default()
                .push(delivery);
        }
        // Without their channels read, the pushes and webhooks of this
        // claim are not tried (their leases run out); the mail still is.
        let (other, targets) = match self.targets(&other).await {
            Ok(targets) => (other, targets),
            Err(error) => {
                let deliveries = other.len();
                tracing::warn!(%error, deliveries, "channels not read: deliveries not attempted");
                (Vec::new(), Targets::default())
            }
        };
        let sends = other.into_iter().map(|d| self.deliver(d, &targets));
        // (Only a process with e-mail claims e-mail: `claim_due`.)
        let email = self.outbox.email.clone();
        let mails = by_player
            .into_values()
            .filter_map(|rows| Some(self.mail(email.as_deref()?, rows)));
        let (sent, _) = futures_util::future::join(join_all(sends), join_all(mails)).await;
        let outcomes: Vec<_> = sent.into_iter().flatten().collect();
        let count = outcomes.len();
        if let Err(error) = self.record_all(outcomes).await {
            // Their leases run out, and they are sent again (at least once).
            tracing::warn!(deliveries = count, %error, "delivery outcomes not recorded");
        }
        Ok(full)
    }

    async fn prune(&self, now: DateTime<Utc>) -> Result<(), NotifyError> {
        let cutoff = to_db_time(now - KEEP_FINISHED);
        let pruned = db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
            Ok(store::prune(conn, cutoff)?)
        })
        .await?;
        if pruned > 0 {
            tracing::info!(pruned, "old deliveries deleted");
        }
        Ok(())
    }

    /// The push subscriptions and webhooks that `claimed` go to, read
    /// together (those deleted since are not found).
    async fn targets(&self, claimed: &[DeliveryRow]) -> Result<Targets, NotifyError> {
        let mut push: Vec<String> = (claimed.iter())
            .filter_map(|d| d.push_subscription_id.clone())
            .collect();
        let mut hooks: Vec<String> = claimed
            .iter()
            .filter_map(|d| d.webhook_id.clone())
            .collect();
        if push.is_empty() && hooks.is_empty() {
            return Ok(Targets::default());
        }
        for ids in [&mut push, &mut hooks] {
            ids.sort_unstable();
            ids.dedup();
        }
        let (push, hooks) = db::run_as::<_, NotifyError, _>(&self.pool, move |conn| {
            let push: Vec<&str> = push.iter().map(String::as_str).collect();
            let hooks: Vec<&str> = hooks.iter().map(String::as_str).collect();
            Ok(channel_store::find_targets(conn, &push, &hooks)?)
        })
        .await?;
        Ok(Targets {
            push: push.into_iter().map(|row| (row.id.clone(), row)).collect(),
            hooks: hooks.into_iter().map(|row| (row.id.clone(), row)).collect(),
        })
    }

    /// Sends one claimed delivery; `None` if it could not be tried (its
    /// lease runs out and it is tried again).
    async fn deliver(
        &self,
        delivery: DeliveryRow,
        targets: &Targets,
    ) -> Option<(String, i32, Target)> {
        let result = match (&delivery.webhook_id, &delivery.push_subscription_id) {
            (Some(hook), _) => self.to_webhook(&delivery, targets.hooks.get(hook)).await,
            (None, Some(subscription)) => {
                self.to_push(&delivery, targets.push.get(subscription))
                    .await
            }
            (None, None) => Ok(Target::Gone),
        };
        match result {
            Ok(outcome) => Some((delivery.id, delivery.attempts, outcome)),
            Err(error) => {
                // Its lease runs out, and it is tried again.
                tracing::warn!(delivery = %delivery.id, %error, "delivery not attempted");
                None
            }
        }
    }

    async fn to_webhook(
        &self,
        delivery: &DeliveryRow,
        hook: Option<&WebhookRow>,
    ) -> Result<Target, NotifyError> {
        let Some(hook) = hook else {
            return Ok(Target::Gone);
        };
        // A test is sent even to a disabled webhook: its owner checks it
        // answers again, and a 2xx makes it active.
        if hook.state != channel_store::webhook_state::ACTIVE
            && delivery.event != super::channels::PING
        {
            return Ok(Target::Disabled);
        }
        let secret = webhook_signature::WebhookSecret::parse(&hook.secret)
            .map_err(|e| NotifyError::Internal(format!("webhook {}: {e}", hook.id)))?;
        let message_id = message_id(&delivery.id);
        let timestamp = self.clock.now().timestamp();
        let body = delivery.payload.as_bytes().to_vec();
        let signature = webhook_signature::sign(&secret, &message_id, timestamp, &body);
        let headers = [
            ("content-type", "application/json".to_owned()),
            ("webhook-id", message_id),
            ("webhook-timestamp", timestamp.to_string()),
            ("webhook-signature", signature),
        ];
        let sent = self.sender.post(&hook.url, &headers, body).await;
        Ok(Target::Webhook(hook.id.clone(), sent))
    }

    async fn to_push(
        &self,
        delivery: &DeliveryRow,
        subscription: Option<&PushSubscriptionRow>,
    ) -> Result<Target, NotifyError> {
        let Some(vapid) = self.outbox.vapid.clone() else {
            return Ok(Target::Disabled);
        };
        let Some(subscription) = subscription else {
            return Ok(Target::Gone);
        };
        let sent = super::push::send(
            &self.sender,
            &vapid,
            &self.tokens,
            &self.outbox.vapid_subject,
            subscription,
            delivery,
            self.clock.now(),
        )
        .await?;
        Ok(Target::Push(subscription.id.clone(), sent))
    }

    /// Records what came of the deliveries of one pass, in one write.
    async fn record_all(&self, outcomes: Vec<(String, i32, Target)>) -> Result<(), NotifyError> {
        if outcomes.is_empty() {
            return Ok(());
        }
        let now = self.clock.now();
        db::run_write::<_, NotifyError, _>(&self.pool, move |conn| record(conn, &outcomes, now))
            .await
    }
}

/// The channels of the deliveries of one claim, by id.
#[derive(Default)]
struct Targets {
    push: HashMap<String, PushSubscriptionRow>,
    hooks: HashMap<String, WebhookRow>,
}

/// What came of an e-mail.
/// The last attempt of a delivery, made at `at`.
fn finished<'a>(
    state: &'static str,
    at: chrono::NaiveDateTime,
    status: Option<i32>,
    error: Option<&'a str>,
) -> Attempted<'a> {
    Attempted {
        state,
        next_attempt_at: at,
        status,
        error,
        finished_at: Some(at),
    }
}

/// Where a delivery went, and what came of it.
enum Target {
    /// Its channel was deleted meanwhile.
    Gone,
    /// Its channel is off (a disabled webhook; Web Push not configured).
    Disabled,
    Webhook(String, Sent),
    Push(String, Sent),
}

/// Counts one attempt by channel and outcome (docs/metrics.md).
fn count_outcome(target: &Target) {
    let (channel, outcome) = match target {
        Target::Gone => ("any", "gone"),
        Target::Disabled => ("any", "disabled"),
        Target::Webhook(_, sent) => (
            "webhook",
            if sent.error.is_none() {
                "delivered"
            } else {
                "failed"
            },
        ),
        Target::Push(_, sent) => (
            "push",
            if sent.error.is_none() {
                "delivered"
            } else {
                "failed"
            },
        ),
    };
    crate::metrics::METRICS
        .deliveries
        .with_label_values(&[channel, outcome])
        .inc();
}

/// Records what came of the deliveries of one pass: each `(id, attempts,
/// where it went)`. The attempts that ended alike are one statement, and
/// so are the webhooks that answered.
fn record(
    conn: &mut crate::db::DbConnection,
    outcomes: &[(String, i32, Target)],
    now: DateTime<Utc>,
) -> Result<(), NotifyError> {
    let mut attempts = Vec::with_capacity(outcomes.len());
    // Per webhook, what its answers did, in the order of the claim.
    let mut hooks: BTreeMap<&str, Vec<Then<'_>>> = BTreeMap::new();
    let mut gone = Vec::new();
    for (id, tried, target) in outcomes {
        count_outcome(target);
        let (attempt, then) = outcome(*tried, target, now);
        if let Some(attempt) = attempt {
            attempts.push((id.as_str(), attempt));
        }
        match then {
            Then::Nothing => {}
            Then::Forget(subscription) => gone.push(subscription),
            Then::Answered(hook) | Then::Failed { hook, .. } => {
                hooks.entry(hook).or_default().push(then);
            }
        }
    }
    store::record_attempts(conn, &attempts)?;
    // A webhook's answers apply in turn: a 2xx clears what came before
    // it, and only the failures after its last 2xx count. So only that
    // last 2xx is written (all in one statement), then those failures,
    // webhook by webhook in the order of their ids.
    let answered: Vec<&str> = (hooks.iter())
        .filter(|(_, thens)| thens.iter().any(|t| matches!(t, Then::Answered(_))))
        .map(|(hook, _)| *hook)
        .collect();
    channel_store::webhooks_succeeded(conn, &answered)?;
    for thens in hooks.values() {
        let last_answer = thens.iter().rposition(|t| matches!(t, Then::Answered(_)));
        for then in &thens[last_answer.map_or(0, |at| at + 1)..] {
            if let Then::Failed {
                hook,
                exhausted,
                reason,
            } = then
            {
                let disable_after = if *exhausted { 0 } else { i32::MAX };
                channel_store::webhook_outcome(conn, hook, false, disable_after, reason)?;
            }
        }
    }
    for subscription in gone {
        channel_store::delete_push(conn, None, subscription)?;
    }
    Ok(())
}

/// What else an attempt changes, besides its delivery.
enum Then<'a> {
    Nothing,
    /// Webhook `0` answered with a 2xx.
    Answered(&'a str),
    /// A webhook failed to take it; `exhausted`: for good.
    Failed {
        hook: &'a str,
        exhausted: bool,
        reason: String,
    },
    /// The push service says subscription `0` is no more.
    Forget(&'a str),
}

/// How delivery attempt `attempts` that went to `target` ends (`None`:
/// its row goes with its subscription), and what else it changes.
fn outcome(
    attempts: i32,
    target: &Target,
    now: DateTime<Utc>,
) -> (Option<Attempted<'_>>, Then<'_>) {
    let at = to_db_time(now);
    let done = |state, status, error| Some(finished(state, at, status, error));
    let (sent, hook) = match target {
        Target::Gone => {
            let gone = done(delivery_state::FAILED, None, Some("its target is gone"));
            return (gone, Then::Nothing);
        }
        Target::Disabled => {
            let off = done(delivery_state::FAILED, None, Some("its target is off"));
            return (off, Then::Nothing);
        }
        Target::Webhook(hook, sent) => (sent, Some(hook.as_str())),
        Target::Push(_, sent) => (sent, None),
    };
    let status = sent.status.map(i32::from);
    if sent.error.is_none() {
        let delivered = done(delivery_state::DELIVERED, status, None);
        return (delivered, hook.map_or(Then::Nothing, Then::Answered));
    }
    let error = sent.error.as_deref();
    if let Target::Push(subscription, _) = target {
        if matches!(sent.status, Some(404 | 410)) {
            return (None, Then::Forget(subscription));
        }
    }
    let retried = retryable(target, sent)
        .then(|| next_attempt(now, attempts, sent.retry_after))
        .flatten();
    let attempt = match retried {
        Some(at) => Some(Attempted {
            state: delivery_state::PENDING,
            next_attempt_at: to_db_time(at),
            status,
            error,
            finished_at: None,
        }),
        None => done(delivery_state::FAILED, status, error),
    };
    let then = match hook {
        // A delivery that failed for good disables its webhook.
        Some(hook) => Then::Failed {
            hook,
            exhausted: retried.is_none(),
            reason: format!(
                "deliveries failed for about a day (last: {})",
                error.unwrap_or("no answer")
            ),
        },
        None => Then::Nothing,
    };
    (attempt, then)
}

/// Whether a failed attempt is worth another: to a webhook, any failure;
/// to a push service, no answer, 429 or a 5xx (another 4xx will not get
/// better).
fn retryable(target: &Target, sent: &Sent) -> bool {
    match target {
        Target::Push(..) => match sent.status {
            None => true,
            Some(status) => status == 429 || status >= 500,
        },
        _ => true,
    }
}

/// The `webhook-id` of a delivery: stable across its retries.
pub fn message_id(delivery_id: &str) -> String {
    format!("msg_{}", delivery_id.replace('-', ""))
}

#[cfg(test)]
mod tests;
