//! A player's channels: Web Push subscriptions and webhooks, registered,
//! listed and removed (docs/notifications.md). A new channel starts the
//! fan-out of the player's events from their newest one, so it is never
//! sent the past.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::preferences::{NotifyEvent, Preferences, PreferencesInput};
use super::{FieldProblem, NotifyError};
use crate::db::{self, DbConnection, DbPool};
use crate::outbound::address::{self, Policy};
use crate::outbound::resolve;
use crate::outbound::web_push::SubscriptionKeys;
use crate::outbound::webhook_signature::WebhookSecret;
use crate::storage::channels::{self as store, webhook_state, PushSubscriptionRow, WebhookRow};
use crate::storage::events as event_store;
use crate::storage::outbox::{self as outbox_store, delivery_state, DeliveryRow};
use crate::storage::users::{self, RowLock};
use crate::storage::{from_db_time, to_db_time};

/// Most push subscriptions one player may have (browsers and devices).
pub const MAX_PUSH_SUBSCRIPTIONS: i64 = 10;
/// Most webhooks one player may have.
pub const MAX_WEBHOOKS: i64 = 5;
/// Longest endpoint or webhook URL, in bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// A browser's subscription as `PushSubscription.toJSON()` gives it, with
/// the events to send to it.
#[derive(Debug, Clone)]
pub struct NewPushSubscription {
    pub endpoint: String,
    /// Milliseconds since the epoch, as the Push API gives it
    pub expiration_time: Option<i64>,
    pub p256dh: String,
    pub auth: String,
    pub events: Option<Vec<NotifyEvent>>,
}

/// A push subscription as its owner sees it (its keys are not shown).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": "4c0a8f3e-2b1d-4e5f-8a9b-0c1d2e3f4a5b",
    "endpoint": "https://push.example.net/send/abc123", "expiration_time": null,
    "events": null, "created_at": "2026-12-03T10:00:00Z"}))]
pub struct PushSubscription {
    pub id: Uuid,
    pub endpoint: String,
    /// When the push service ends it, if it said
    #[schema(required = true)]
    pub expiration_time: Option<DateTime<Utc>>,
    /// The events sent to it; `null`: every event your preferences send
    /// to push
    #[schema(required = true)]
    pub events: Option<Vec<NotifyEvent>>,
    pub created_at: DateTime<Utc>,
}

/// A webhook as its owner sees it (its secret is shown only once, when it
/// is created).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": "7d1e2f3a-4b5c-4d6e-8f9a-0b1c2d3e4f5a",
    "url": "https://bots.example.org/stratego/hook", "events": ["your_move", "game_over"],
    "state": "active", "disabled_reason": null, "created_at": "2026-12-03T10:00:00Z"}))]
pub struct Webhook {
    pub id: Uuid,
    pub url: String,
    /// The events sent to it; `null`: every event your preferences send
    /// to webhooks
    #[schema(required = true)]
    pub events: Option<Vec<NotifyEvent>>,
    /// `active`, or `disabled` after repeated failed deliveries
    #[schema(example = "active")]
    pub state: String,
    /// Why it was disabled; `null` while active
    #[schema(required = true)]
    pub disabled_reason: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A webhook just created, with the secret its deliveries are signed with.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": "7d1e2f3a-4b5c-4d6e-8f9a-0b1c2d3e4f5a",
    "url": "https://bots.example.org/stratego/hook", "events": null, "state": "active",
    "disabled_reason": null, "created_at": "2026-12-03T10:00:00Z",
    "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}))]
pub struct CreatedWebhook {
    pub id: Uuid,
    pub url: String,
    #[schema(required = true)]
    pub events: Option<Vec<NotifyEvent>>,
    pub state: String,
    #[schema(required = true)]
    pub disabled_reason: Option<String>,
    pub created_at: DateTime<Utc>,
    /// `whsec_` and the base64 of the key: shown only now; keep it to
    /// verify each delivery's `webhook-signature`
    pub secret: String,
}

pub(super) fn problem(
    field: &'static str,
    reason: &'static str,
    message: impl Into<String>,
) -> FieldProblem {
    FieldProblem {
        field,
        reason,
        message: message.into(),
    }
}

fn events_json(events: &Option<Vec<NotifyEvent>>) -> Result<Option<String>, NotifyError> {
    events
        .as_ref()
        .map(|events| {
            let mut names: Vec<&str> = events.iter().map(|e| e.name()).collect();
            names.sort_unstable();
            names.dedup();
            serde_json::to_string(&names)
        })
        .transpose()
        .map_err(|e| NotifyError::Internal(e.to_string()))
}

/// The events stored as JSON, read back (unknown names are skipped).
pub fn events_of(stored: Option<&str>) -> Option<Vec<NotifyEvent>> {
    let names: Vec<String> = serde_json::from_str(stored?).ok()?;
    Some(
        names
            .iter()
            .filter_map(|name| NotifyEvent::from_name(name))
            .collect(),
    )
}

/// Checks `url` against `policy`, and what its host resolves to now.
async fn checked_url(
    field: &'static str,
    url: &str,
    policy: Policy,
) -> Result<url::Url, FieldProblem> {
    if url.len() > MAX_URL_BYTES {
        return Err(problem(
            field,
            "too_long",
            format!("at most {MAX_URL_BYTES} bytes"),
        ));
    }
    let parsed =
        address::check_url(url, policy).map_err(|r| problem(field, r.reason(), r.to_string()))?;
    resolve::checked(&parsed, policy)
        .await
        .map_err(|r| problem(field, r.reason(), r.to_string()))?;
    Ok(parsed)
}

/// Refused unless the account lives (a deletion either committed first or
/// removes this with the rest), and starts the player's fan-out cursor.
pub(super) fn live_with_cursor(conn: &mut DbConnection, user: &str) -> Result<(), NotifyError> {
    if users::live(conn, user, RowLock::Share)?.is_none() {
        return Err(NotifyError::AccountGone);
    }
    let newest = event_store::last_id(conn, parse_uuid(user)?)?;
    store::start_cursor(conn, user, newest)?;
    Ok(())
}

fn parse_uuid(id: &str) -> Result<Uuid, NotifyError> {
    Uuid::parse_str(id).map_err(|_| NotifyError::Internal(format!("stored id {id:?}")))
}

fn push_answer(row: PushSubscriptionRow) -> Result<PushSubscription, NotifyError> {
    Ok(PushSubscription {
        id: parse_uuid(&row.id)?,
        expiration_time: row.expiration_time.map(from_db_time),
        events: events_of(row.events.as_deref()),
        endpoint: row.endpoint,
        created_at: from_db_time(row.created_at),
    })
}

fn webhook_answer(row: WebhookRow) -> Result<Webhook, NotifyError> {
    Ok(Webhook {
        id: parse_uuid(&row.id)?,
        events: events_of(row.events.as_deref()),
        url: row.url,
        state: row.state,
        disabled_reason: row.disabled_reason,
        created_at: from_db_time(row.created_at),
    })
}

/// Registers a browser's subscription (or renews the keys of the one it
/// has for the same endpoint: `created` is false then).
pub async fn subscribe(
    pool: &DbPool,
    policy: Policy,
    owner: Uuid,
    new: NewPushSubscription,
    now: DateTime<Utc>,
) -> Result<(PushSubscription, bool), NotifyError> {
    let mut problems = Vec::new();
    if let Err(p) = checked_url("endpoint", &new.endpoint, policy).await {
        problems.push(p);
    }
    if let Err(wrong) = SubscriptionKeys::parse_all(&new.p256dh, &new.auth) {
        problems.extend(
            wrong
                .iter()
                .map(|e| problem(e.field(), e.reason(), e.to_string())),
        );
    }
    let expiration_time = match new.expiration_time {
        None => None,
        Some(ms) => match DateTime::<Utc>::from_timestamp_millis(ms) {
            Some(at) if at > now => Some(to_db_time(at)),
            _ => {
                problems.push(problem(
                    "expirationTime",
                    "expired",
                    "the subscription has already expired",
                ));
                None
            }
        },
    };
    if !problems.is_empty() {
        return Err(NotifyError::Invalid(problems));
    }
    let row = PushSubscriptionRow {
        id: Uuid::new_v4().to_string(),
        user_id: owner.to_string(),
        endpoint: new.endpoint,
        p256dh: new.p256dh,
        auth: new.auth,
        expiration_time,
        events: events_json(&new.events)?,
        created_at: to_db_time(now),
    };
    let (stored, created) = db::run_write::<_, NotifyError, _>(pool, move |conn| {
        live_with_cursor(conn, &row.user_id)?;
        let renewing = store::has_push_endpoint(conn, &row.user_id, &row.endpoint)?;
        if !renewing && store::count_push(conn, &row.user_id)? >= MAX_PUSH_SUBSCRIPTIONS {
            return Err(NotifyError::Full(format!(
                "you have {MAX_PUSH_SUBSCRIPTIONS} push subscriptions, the most allowed; \
                 delete one first"
            )));
        }
        Ok((store::upsert_push(conn, &row)?, !renewing))
    })
    .await?;
    Ok((push_answer(stored)?, created))
}

pub async fn list_push(pool: &DbPool, owner: Uuid) -> Result<Vec<PushSubscription>, NotifyError> {
    let rows = db::run_as::<_, NotifyError, _>(pool, move |conn| {
        Ok(store::list_push(conn, &owner.to_string())?)
    })
    .await?;
    rows.into_iter().map(push_answer).collect()
}

pub async fn unsubscribe(pool: &DbPool, owner: Uuid, id: Uuid) -> Result<(), NotifyError> {
    let deleted = db::run_write::<_, NotifyError, _>(pool, move |conn| {
        let user = owner.to_string();
        let deleted = store::delete_push(conn, Some(&user), &id.to_string())?;
        store::stop_cursor_if_unused(conn, &user)?;
        Ok(deleted)
    })
    .await?;
    deleted.then_some(()).ok_or(NotifyError::NotFound(
        "you have no push subscription with this id",
    ))
}

/// Creates a webhook with a new secret.
pub async fn create_webhook(
    pool: &DbPool,
    policy: Policy,
    owner: Uuid,
    url: String,
    events: Option<Vec<NotifyEvent>>,
    now: DateTime<Utc>,
) -> Result<CreatedWebhook, NotifyError> {
    checked_url("url", &url, policy)
        .await
        .map_err(|p| NotifyError::Invalid(vec![p]))?;
    let secret = WebhookSecret::generate();
    let row = WebhookRow {
        id: Uuid::new_v4().to_string(),
        user_id: owner.to_string(),
        url,
        secret: secret.as_str().to_owned(),
        events: events_json(&events)?,
        state: webhook_state::ACTIVE.to_owned(),
        disabled_reason: None,
        consecutive_failures: 0,
        created_at: to_db_time(now),
    };
    let row = db::run_write::<_, NotifyError, _>(pool, move |conn| {
        live_with_cursor(conn, &row.user_id)?;
        if store::count_webhooks(conn, &row.user_id)? >= MAX_WEBHOOKS {
            return Err(NotifyError::Full(format!(
                "you have {MAX_WEBHOOKS} webhooks, the most allowed; delete one first"
            )));
        }
        store::insert_webhook(conn, &row)?;
        Ok(row)
    })
    .await?;
    let secret = row.secret.clone();
    let hook = webhook_answer(row)?;
    Ok(CreatedWebhook {
        id: hook.id,
        url: hook.url,
        events: hook.events,
        state: hook.state,
        disabled_reason: hook.disabled_reason,
        created_at: hook.created_at,
        secret,
    })
}

pub async fn list_webhooks(pool: &DbPool, owner: Uuid) -> Result<Vec<Webhook>, NotifyError> {
    let rows = db::run_as::<_, NotifyError, _>(pool, move |conn| {
        Ok(store::list_webhooks(conn, &owner.to_string())?)
    })
    .await?;
    rows.into_iter().map(webhook_answer).collect()
}

pub async fn delete_webhook(pool: &DbPool, owner: Uuid, id: Uuid) -> Result<(), NotifyError> {
    let deleted = db::run_write::<_, NotifyError, _>(pool, move |conn| {
        let user = owner.to_string();
        let deleted = store::delete_webhook(conn, &user, &id.to_string())?;
        store::stop_cursor_if_unused(conn, &user)?;
        Ok(deleted)
    })
    .await?;
    deleted
        .then_some(())
        .ok_or(NotifyError::NotFound("you have no webhook with this id"))
}

pub async fn preferences(pool: &DbPool, owner: Uuid) -> Result<Preferences, NotifyError> {
    let stored = db::run_as::<_, NotifyError, _>(pool, move |conn| {
        Ok(store::preferences(conn, &owner.to_string())?)
    })
    .await?;
    Ok(Preferences::from_stored(stored.as_deref()))
}

pub async fn set_preferences(
    pool: &DbPool,
    owner: Uuid,
    input: PreferencesInput,
    now: DateTime<Utc>,
) -> Result<Preferences, NotifyError> {
    let preferences = Preferences::from_input(&input);
    let json = preferences
        .to_stored()
        .map_err(|e| NotifyError::Internal(e.to_string()))?;
    db::run_write::<_, NotifyError, _>(pool, move |conn| {
        let user = owner.to_string();
        if users::live(conn, &user, RowLock::Share)?.is_none() {
            return Err(NotifyError::AccountGone);
        }
        store::set_preferences(conn, &user, &json, to_db_time(now))?;
        Ok(())
    })
    .await?;
    Ok(preferences)
}

/// Deliveries listed per webhook, newest first.
pub const DELIVERIES_LISTED: i64 = 50;

/// One delivery to a webhook, as its owner sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": "msg_2b3c4d5e6f7a4b8c9d0e1f2a3b4c5d6e", "event": "your_move",
    "state": "pending", "attempts": 2, "last_status": 503,
    "last_error": "answered HTTP 503", "next_attempt_at": "2026-12-03T10:05:05Z",
    "created_at": "2026-12-03T10:00:00Z", "finished_at": null}))]
pub struct Delivery {
    /// Its `webhook-id` header, the same on every attempt
    pub id: String,
    /// The event (`ping` for a test)
    pub event: String,
    /// `pending` (to be tried, again or for the first time), `delivered`
    /// (answered 2xx) or `failed` (given up)
    pub state: String,
    /// Attempts made so far
    pub attempts: i32,
    /// The HTTP status of the last attempt, if one came
    #[schema(required = true)]
    pub last_status: Option<i32>,
    /// What went wrong with the last attempt
    #[schema(required = true)]
    pub last_error: Option<String>,
    /// When it is tried next (pending only)
    #[schema(required = true)]
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// When it was delivered or given up
    #[schema(required = true)]
    pub finished_at: Option<DateTime<Utc>>,
}

fn delivery_answer(row: DeliveryRow) -> Delivery {
    let pending = row.state == delivery_state::PENDING;
    Delivery {
        id: super::outbox::message_id(&row.id),
        event: row.event,
        state: row.state,
        attempts: row.attempts,
        last_status: row.last_status,
        last_error: row.last_error,
        next_attempt_at: pending.then(|| from_db_time(row.next_attempt_at)),
        created_at: from_db_time(row.created_at),
        finished_at: row.finished_at.map(from_db_time),
    }
}

/// The newest deliveries to the owner's webhook `id`.
pub async fn deliveries(
    pool: &DbPool,
    owner: Uuid,
    id: Uuid,
) -> Result<Vec<Delivery>, NotifyError> {
    let rows = db::run_as::<_, NotifyError, _>(pool, move |conn| {
        let id = id.to_string();
        store::find_webhook(conn, Some(&owner.to_string()), &id)?
            .ok_or(NotifyError::NotFound("you have no webhook with this id"))?;
        Ok(outbox_store::of_webhook(conn, &id, DELIVERIES_LISTED)?)
    })
    .await?;
    Ok(rows.into_iter().map(delivery_answer).collect())
}

/// Queues a `ping` to the owner's webhook `id`, sent like any delivery
/// (a disabled webhook is sent it too, so its owner can see it answers
/// again; a 2xx to it makes the webhook active again).
pub async fn ping(
    pool: &DbPool,
    owner: Uuid,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<Delivery, NotifyError> {
    let body = super::notice::Notice {
        kind: PING.to_owned(),
        timestamp: now,
        data: super::notice::NoticeData {
            webhook_id: Some(id),
            ..Default::default()
        },
    }
    .to_json();
    let row = db::run_write::<_, NotifyError, _>(pool, move |conn| {
        let user = owner.to_string();
        let hook = store::find_webhook(conn, Some(&user), &id.to_string())?
            .ok_or(NotifyError::NotFound("you have no webhook with this id"))?;
        let row = super::fanout::pending(
            &user,
            super::fanout::Target::Webhook(&hook.id),
            PING,
            None,
            body,
            now,
        );
        outbox_store::insert_deliveries(conn, std::slice::from_ref(&row))?;
        Ok(row)
    })
    .await?;
    Ok(delivery_answer(row))
}

/// The event of a test delivery.
pub const PING: &str = "ping";
