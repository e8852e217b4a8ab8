//! The outbox at work (docs/notifications.md, "The outbox"): one task in
//! every server process fans events out into deliveries, claims the
//! deliveries that are due, sends them and records what came of each.
//! Nothing is ever sent inside a request.
//!
//! Delivery is at least once: a delivery is claimed with a lease
//! ([`LEASE`]) before it is sent, so one whose process died mid-delivery is
//! sent again when the lease runs out, under the same id (`webhook-id`),
//! which a receiver uses to drop the repeat.

use std::sync::Arc;
use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, Utc};
use futures_util::future::join_all;

use std::collections::{BTreeMap, HashMap};

use uuid::Uuid;

use super::digest;
use super::email::EmailSettings;
use super::notice::Notice;
use super::preferences::{Channel, NotifyEvent, Preferences};
use super::NotifyError;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::{self, DbPool};
use crate::events::Notifier;
use crate::outbound::address::Policy;
use crate::outbound::mail::{Mail, MailError};
use crate::outbound::send::{Sender, Sent};
use crate::outbound::web_push::VapidKey;
use crate::outbound::webhook_signature;
use crate::storage::channels as channel_store;
use crate::storage::email as email_store;
use crate::storage::games as games_store;
use crate::storage::outbox::{self as store, delivery_state, Attempted, DeliveryRow, EMAIL_CODE};
use crate::storage::users;
use crate::storage::{from_db_time, to_db_time};

/// How long a claimed delivery is held by the process that claimed it.
pub const LEASE: Duration = Duration::seconds(60);
/// How long one process holds the right to send a player's digest: longer
/// than an SMTP exchange may take (each of its steps times out after 20 s).
const DIGEST_LEASE: Duration = Duration::minutes(5);
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
pub fn spawn(
    pool: DbPool,
    clock: Arc<dyn Clock>,
    notifier: Notifier,
    outbox: Outbox,
) -> Result<(), NotifyError> {
    let sender = Sender::new(outbox.policy).map_err(|e| NotifyError::Internal(e.to_string()))?;
    let worker = Arc::new(Worker {
        pool,
        clock,
        outbox,
        sender,
    });
    tokio::spawn(async move {
        let mut last_prune = None;
        loop {
            if notifier.is_shutting_down() {
                return;
            }
            let busy = match worker.pass().await {
                Ok(busy) => busy,
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
                tokio::time::sleep(worker.outbox.poll).await;
            }
        }
    });
    Ok(())
}

struct Worker {
    pool: DbPool,
    clock: Arc<dyn Clock>,
    outbox: Outbox,
    sender: Sender,
}

impl Worker {
    /// Fans out, then sends what is due. Returns whether there may be more
    /// work right away.
    async fn pass(&self) -> Result<bool, NotifyError> {
        let now = self.clock.now();
        let email = self.outbox.email.is_some();
        let (fanned, more) = db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
            Ok(super::fanout::pass(conn, now, email)?)
        })
        .await?;
        if fanned > 0 {
            tracing::debug!(deliveries = fanned, "events fanned out");
        }
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
        let sends = other.into_iter().map(|d| self.deliver(d));
        let mails = by_player.into_values().map(|rows| self.mail(rows));
        futures_util::future::join(join_all(sends), join_all(mails)).await;
        Ok(more || full)
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

    /// Sends one claimed delivery and records what came of it.
    async fn deliver(&self, delivery: DeliveryRow) {
        let result = match (&delivery.webhook_id, &delivery.push_subscription_id) {
            (Some(hook), _) => self.to_webhook(&delivery, hook).await,
            (None, Some(subscription)) => self.to_push(&delivery, subscription).await,
            (None, None) => Ok(Target::Gone),
        };
        let outcome = match result {
            Ok(outcome) => outcome,
            Err(error) => {
                tracing::warn!(delivery = %delivery.id, %error, "delivery not attempted");
                return;
            }
        };
        if let Err(error) = self.record(&delivery, outcome).await {
            tracing::warn!(delivery = %delivery.id, %error, "delivery outcome not recorded");
        }
    }

    /// Sends the claimed e-mail deliveries of one player: each code on its
    /// own, everything else as one digest.
    async fn mail(&self, rows: Vec<DeliveryRow>) {
        let (codes, digest): (Vec<_>, Vec<_>) =
            rows.into_iter().partition(|d| d.event == EMAIL_CODE);
        for code in codes {
            let outcome = self.mail_code(&code).await;
            self.record_mail(&[code], outcome, None).await;
        }
        if let Some(user) = digest.first().map(|d| d.user_id.clone()) {
            match self.mail_digest(&user, digest).await {
                Digest::Covered(rows, outcome) => {
                    self.record_mail(&rows, outcome, Some(&user)).await
                }
                Digest::Later => {}
            }
        }
    }

    /// A verification code, to the address it was made for while that code
    /// is still the one waiting there and may still be used.
    async fn mail_code(&self, delivery: &DeliveryRow) -> Mailed {
        let Some(email) = self.outbox.email.clone() else {
            return Mailed::Off;
        };
        let payload: serde_json::Value =
            serde_json::from_str(&delivery.payload).unwrap_or_default();
        let (Some(address), Some(code)) = (payload["address"].as_str(), payload["code"].as_str())
        else {
            return Mailed::Gone;
        };
        let user = delivery.user_id.clone();
        let found = db::run_as::<_, NotifyError, _>(&self.pool, move |conn| {
            Ok(email_store::find(conn, &user)?)
        })
        .await;
        let current = match found {
            Ok(Some(row)) => row,
            Ok(None) => return Mailed::Gone,
            Err(error) => return Mailed::Failed(transient(error.to_string())),
        };
        let now = self.clock.now();
        let usable = current.verified_at.is_none()
            && current.address_key == address.to_ascii_lowercase()
            && current.code_hash.as_deref() == Some(super::email::code_hash(code).as_str())
            && current
                .code_sent_at
                .is_some_and(|at| from_db_time(at) + super::email::CODE_TTL > now);
        if !usable {
            return Mailed::Gone;
        }
        let mail = Mail {
            to: address.to_owned(),
            subject: format!("Your Stratego code: {code}"),
            text: format!(
                "Your code is {code}.\n\nSend it with POST /api/v1/me/email/verify to \
                 confirm this address; it can be used for an hour.\n\nIf you did not ask \
                 for it, ignore this message: nothing will be sent here.\n"
            ),
            unsubscribe: None,
        };
        match email.mailer.send(&mail).await {
            Ok(()) => Mailed::Sent,
            Err(error) => Mailed::Failed(error),
        }
    }

    /// The digest of `user`: the claimed deliveries, and every other of
    /// theirs waiting for its day. Only the process that takes the
    /// player's digest lease sends it; the others leave their claims to it.
    async fn mail_digest(&self, user: &str, claimed: Vec<DeliveryRow>) -> Digest {
        let Some(email) = self.outbox.email.clone() else {
            return Digest::Covered(claimed, Mailed::Off);
        };
        let now = self.clock.now();
        let notices: Vec<Notice> = claimed
            .iter()
            .filter_map(|d| serde_json::from_str(&d.payload).ok())
            .collect();
        let urgent = notices.iter().any(|n| digest::urgent(n, now));
        let lease_until = to_db_time(now + LEASE);
        let taken = {
            let user = user.to_owned();
            // Each claimed delivery, and when it may go if not now.
            let planned: Vec<(String, Option<Notice>)> = claimed
                .iter()
                .map(|d| (d.id.clone(), serde_json::from_str(&d.payload).ok()))
                .collect();
            db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
                let Some(row) = email_store::find(conn, &user)?.filter(|r| r.verified_at.is_some())
                else {
                    return Ok(None);
                };
                let at = to_db_time(now);
                let lease = to_db_time(now + DIGEST_LEASE);
                if !email_store::take_digest_lease(conn, &user, at, lease)? {
                    // Another process is sending this player's digest and
                    // takes these along, or leaves them for the next.
                    let back = row.digest_lease_until.unwrap_or(lease_until);
                    for (id, _) in &planned {
                        store::postpone(conn, id, back)?;
                    }
                    return Ok(Some(None));
                }
                let last = row.last_digest_at.map(from_db_time);
                if !urgent && last.is_some_and(|last| last + digest::DIGEST_EVERY > now) {
                    // A digest went out since these were planned (by
                    // another process): they wait for their day.
                    for (id, notice) in &planned {
                        let next = match notice {
                            Some(notice) => digest::due(notice, last, now),
                            None => last.map_or(now, |last| last + digest::DIGEST_EVERY),
                        };
                        store::postpone(conn, id, to_db_time(next))?;
                    }
                    email_store::digest_done(conn, &user, None)?;
                    return Ok(Some(None));
                }
                let backlog = store::claim_email_backlog(conn, &user, lease_until)?;
                let preferences = channel_store::preferences(conn, &user)?;
                Ok(Some(Some((row, backlog, preferences))))
            })
            .await
        };
        let (address, backlog, preferences) = match taken {
            Ok(Some(Some(taken))) => taken,
            Ok(Some(None)) => return Digest::Later,
            Ok(None) => return Digest::Covered(claimed, Mailed::Gone),
            Err(error) => {
                return Digest::Covered(claimed, Mailed::Failed(transient(error.to_string())))
            }
        };
        let mut rows = claimed;
        rows.extend(backlog);
        // What the player's preferences send by e-mail now: they may have
        // changed since the deliveries were planned.
        let preferences = Preferences::from_stored(preferences.as_deref());
        let emailed = |event: NotifyEvent| preferences.allows(event, Channel::Email);
        let notices: Vec<Notice> = rows
            .iter()
            .filter_map(|d| serde_json::from_str::<Notice>(&d.payload).ok())
            .filter(|n| NotifyEvent::from_name(&n.kind).is_some_and(emailed))
            .collect();
        let over: Vec<Uuid> = notices
            .iter()
            .filter(|n| n.kind == NotifyEvent::GameOver.name())
            .filter_map(|n| n.data.game_id)
            .collect();
        let context = {
            let user = user.to_owned();
            db::run_as::<_, NotifyError, _>(&self.pool, move |conn| {
                Ok(digest_context(conn, &user, &over)?)
            })
            .await
        };
        let (username, mut waiting, seats) = match context {
            Ok(context) => context,
            Err(error) => {
                return Digest::Covered(rows, Mailed::Failed(transient(error.to_string())))
            }
        };
        if !emailed(NotifyEvent::YourMove) {
            waiting.clear();
        }
        let unsubscribe = email.unsubscribe_url(user, &address.address);
        let Some(composed) = digest::compose(&username, &waiting, &notices, &seats, &unsubscribe)
        else {
            return Digest::Covered(rows, Mailed::Nothing);
        };
        let mail = Mail {
            to: address.address.clone(),
            subject: composed.subject,
            text: composed.text,
            unsubscribe: Some(unsubscribe),
        };
        let outcome = match email.mailer.send(&mail).await {
            Ok(()) => Mailed::Sent,
            Err(error) => Mailed::Failed(error),
        };
        Digest::Covered(rows, outcome)
    }

    /// Records what came of e-mail deliveries `rows`. `digest`: they were
    /// the digest of that player, whose lease is given back; a digest sent
    /// starts the player's next day, and one the relay refused for good
    /// unverifies the address.
    async fn record_mail(&self, rows: &[DeliveryRow], outcome: Mailed, digest: Option<&str>) {
        let now = self.clock.now();
        let rows: Vec<(String, i32)> = rows.iter().map(|d| (d.id.clone(), d.attempts)).collect();
        let digest = digest.map(str::to_owned);
        let recorded = db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
            let at = to_db_time(now);
            for (id, attempts) in &rows {
                let attempt = match &outcome {
                    Mailed::Sent => finished(delivery_state::DELIVERED, at, None, None),
                    Mailed::Nothing => finished(
                        delivery_state::DELIVERED,
                        at,
                        None,
                        Some("nothing left to tell"),
                    ),
                    Mailed::Gone => finished(
                        delivery_state::FAILED,
                        at,
                        None,
                        Some("its address is gone"),
                    ),
                    Mailed::Off => {
                        finished(delivery_state::FAILED, at, None, Some("e-mail is off"))
                    }
                    Mailed::Failed(error) => {
                        let status = error.code.map(i32::from);
                        let retry = (!error.permanent)
                            .then(|| next_attempt(now, *attempts, None))
                            .flatten();
                        match retry {
                            Some(next) => Attempted {
                                state: delivery_state::PENDING,
                                next_attempt_at: to_db_time(next),
                                status,
                                error: Some(&error.message),
                                finished_at: None,
                            },
                            None => {
                                finished(delivery_state::FAILED, at, status, Some(&error.message))
                            }
                        }
                    }
                };
                store::record_attempt(conn, id, &attempt)?;
            }
            if let Some(user) = &digest {
                let sent = matches!(outcome, Mailed::Sent).then_some(at);
                email_store::digest_done(conn, user, sent)?;
                if matches!(&outcome, Mailed::Failed(error) if error.permanent) {
                    email_store::unverify(conn, user)?;
                }
            }
            Ok(())
        })
        .await;
        if let Err(error) = recorded {
            tracing::warn!(%error, "e-mail outcome not recorded");
        }
    }

    async fn to_webhook(&self, delivery: &DeliveryRow, hook: &str) -> Result<Target, NotifyError> {
        let id = hook.to_owned();
        let found = db::run_as::<_, NotifyError, _>(&self.pool, move |conn| {
            Ok(channel_store::find_webhook(conn, None, &id)?)
        })
        .await?;
        let Some(hook) = found else {
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
        Ok(Target::Webhook(hook.id, sent))
    }

    async fn to_push(
        &self,
        delivery: &DeliveryRow,
        subscription: &str,
    ) -> Result<Target, NotifyError> {
        let Some(vapid) = self.outbox.vapid.clone() else {
            return Ok(Target::Disabled);
        };
        let id = subscription.to_owned();
        let found = db::run_as::<_, NotifyError, _>(&self.pool, move |conn| {
            Ok(channel_store::find_push(conn, &id)?)
        })
        .await?;
        let Some(subscription) = found else {
            return Ok(Target::Gone);
        };
        let sent = super::push::send(
            &self.sender,
            &vapid,
            &self.outbox.vapid_subject,
            &subscription,
            delivery,
            self.clock.now(),
        )
        .await?;
        Ok(Target::Push(subscription.id, sent))
    }

    async fn record(&self, delivery: &DeliveryRow, target: Target) -> Result<(), NotifyError> {
        let now = self.clock.now();
        let id = delivery.id.clone();
        let attempts = delivery.attempts;
        db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
            let at = to_db_time(now);
            let done = |state, status, error| finished(state, at, status, error);
            let (sent, hook) = match &target {
                Target::Gone => {
                    let gone = done(delivery_state::FAILED, None, Some("its target is gone"));
                    return Ok(store::record_attempt(conn, &id, &gone)?);
                }
                Target::Disabled => {
                    let off = done(delivery_state::FAILED, None, Some("its target is off"));
                    return Ok(store::record_attempt(conn, &id, &off)?);
                }
                Target::Webhook(hook, sent) => (sent, Some(hook)),
                Target::Push(_, sent) => (sent, None),
            };
            let status = sent.status.map(i32::from);
            if sent.error.is_none() {
                store::record_attempt(conn, &id, &done(delivery_state::DELIVERED, status, None))?;
                if let Some(hook) = hook {
                    channel_store::webhook_outcome(conn, hook, true, i32::MAX, "")?;
                }
                return Ok(());
            }
            let error = sent.error.as_deref();
            if let Target::Push(subscription, _) = &target {
                // The push service says this subscription is no more.
                if matches!(sent.status, Some(404 | 410)) {
                    channel_store::delete_push(conn, None, subscription)?;
                    return Ok(());
                }
            }
            let retried = retryable(&target, sent)
                .then(|| next_attempt(now, attempts, sent.retry_after))
                .flatten();
            match retried {
                Some(at) => store::record_attempt(
                    conn,
                    &id,
                    &Attempted {
                        state: delivery_state::PENDING,
                        next_attempt_at: to_db_time(at),
                        status,
                        error,
                        finished_at: None,
                    },
                )?,
                None => {
                    store::record_attempt(conn, &id, &done(delivery_state::FAILED, status, error))?
                }
            }
            if let Some(hook) = hook {
                // A delivery that failed for good disables its webhook.
                let exhausted = retried.is_none();
                let reason = format!(
                    "deliveries failed for about a day (last: {})",
                    error.unwrap_or("no answer")
                );
                channel_store::webhook_outcome(
                    conn,
                    hook,
                    false,
                    if exhausted { 0 } else { i32::MAX },
                    &reason,
                )?;
            }
            Ok(())
        })
        .await
    }
}

/// What came of an e-mail.
/// What became of a player's digest deliveries.
enum Digest {
    /// These deliveries were dealt with: record the outcome.
    Covered(Vec<DeliveryRow>, Mailed),
    /// Put back for later (another process sends, or the day is not over).
    Later,
}

enum Mailed {
    Sent,
    /// A digest with nothing left to tell (the games moved on): not sent.
    Nothing,
    /// Its address was removed or changed meanwhile.
    Gone,
    /// E-mail is not configured on this server (any more).
    Off,
    Failed(MailError),
}

fn transient(message: String) -> MailError {
    MailError {
        permanent: false,
        code: None,
        message,
    }
}

/// What a digest needs from the database: the player's name, the games
/// waiting for them (at most [`WAITING_LISTED`]), and their color in the
/// games named by `over`.
#[allow(clippy::type_complexity)]
fn digest_context(
    conn: &mut crate::db::DbConnection,
    user: &str,
    over: &[Uuid],
) -> Result<(String, Vec<digest::Waiting>, HashMap<Uuid, String>), diesel::result::Error> {
    let username = users::find_by_id(conn, user)?
        .map(|u| u.username)
        .unwrap_or_default();
    let filter = games_store::ListFilter {
        status: None,
        mine: None,
        my_turn: Some(user.to_owned()),
        order: games_store::ListOrder::Newest,
        after: None,
        limit: WAITING_LISTED,
    };
    let mut waiting = Vec::new();
    for game in games_store::list(conn, &filter)? {
        let Ok(game_id) = Uuid::parse_str(&game.id) else {
            continue;
        };
        let brief = store::game_brief(conn, &game.id)?;
        let opponent = brief.and_then(|b| {
            if b.red_user_id.as_deref() == Some(user) {
                b.blue_name
            } else {
                b.red_name
            }
        });
        waiting.push(digest::Waiting {
            game_id,
            opponent,
            deadline: game.deadline.map(from_db_time),
            setup: game.status == games_store::status::SETUP,
        });
    }
    waiting.sort_by_key(|w| (w.deadline.is_none(), w.deadline));
    let mut seats = HashMap::new();
    for game in over {
        if let Some(brief) = store::game_brief(conn, &game.to_string())? {
            let seat = match (brief.red_user_id.as_deref(), brief.blue_user_id.as_deref()) {
                (Some(red), _) if red == user => "red",
                (_, Some(blue)) if blue == user => "blue",
                _ => continue,
            };
            seats.insert(*game, seat.to_owned());
        }
    }
    Ok((username, waiting, seats))
}

/// Games listed in one digest.
const WAITING_LISTED: i64 = 100;

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
mod tests {
    use super::*;

    #[test]
    fn retries_come_within_seconds_then_minutes_then_hours_for_about_a_day() {
        let now = DateTime::<Utc>::UNIX_EPOCH;
        let waits: Vec<i64> = (1..=8)
            .map_while(|n| next_attempt(now, n, None))
            .map(|at| (at - now).num_seconds())
            .collect();
        assert_eq!(waits, RETRY_AFTER_SECONDS.to_vec());
        let total: i64 = waits.iter().sum();
        assert!((86_400..=2 * 86_400).contains(&total), "{total}");
        assert_eq!(next_attempt(now, 8, None), None);
        assert_eq!(next_attempt(now, 0, None), None);
    }

    #[test]
    fn a_longer_retry_after_is_honoured_up_to_a_day() {
        let now = DateTime::<Utc>::UNIX_EPOCH;
        let at = |asked| next_attempt(now, 1, Some(asked)).map(|at| (at - now).num_seconds());
        assert_eq!(at(120), Some(120));
        assert_eq!(at(1), Some(5));
        assert_eq!(at(10_000_000), Some(86_400));
    }
}
