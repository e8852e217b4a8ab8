//! One Web Push delivery (docs/notifications.md, "Web Push"): the
//! notification's JSON encrypted for the subscription (RFC 8291,
//! `aes128gcm`), sent with a VAPID token (RFC 8292) and the RFC 8030
//! headers.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::{DateTime, Utc};

use super::preferences::NotifyEvent;
use super::NotifyError;
use crate::outbound::send::{Sender, Sent};
use crate::outbound::web_push::{encrypt, SubscriptionKeys, VapidError, VapidKey};
use crate::storage::channels::PushSubscriptionRow;
use crate::storage::outbox::DeliveryRow;

/// How long a push service keeps a notification for a device that is
/// offline: a day (a correspondence move waits longer than that anyway).
pub const TTL_SECONDS: u32 = 86_400;
/// How long each VAPID token is valid (RFC 8292 allows at most 24 hours).
pub const TOKEN_LIFETIME_SECONDS: i64 = 12 * 3600;

/// The VAPID tokens signed so far, one per push service (an endpoint's
/// origin), each used until half its lifetime is left: signing one per
/// message would be work for nothing.
#[derive(Debug, Default)]
pub struct Tokens(Mutex<HashMap<String, (String, i64)>>);

impl Tokens {
    fn authorization(
        &self,
        vapid: &VapidKey,
        endpoint: &str,
        subject: &str,
        now: i64,
    ) -> Result<String, VapidError> {
        let origin = url::Url::parse(endpoint)
            .map(|url| url.origin().ascii_serialization())
            .ok();
        let mut tokens = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((token, expires)) = origin.as_ref().and_then(|o| tokens.get(o)) {
            if expires - now > TOKEN_LIFETIME_SECONDS / 2 {
                return Ok(token.clone());
            }
        }
        let expires = now + TOKEN_LIFETIME_SECONDS;
        let token = vapid.authorization(endpoint, subject, expires)?;
        if let Some(origin) = origin {
            // A handful of push services exist; the map stays small.
            if tokens.len() >= MAX_TOKENS {
                tokens.clear();
            }
            tokens.insert(origin, (token.clone(), expires));
        }
        Ok(token)
    }
}

/// Push services whose tokens are kept at once.
const MAX_TOKENS: usize = 64;

pub async fn send(
    sender: &Sender,
    vapid: &VapidKey,
    tokens: &Tokens,
    subject: &str,
    subscription: &PushSubscriptionRow,
    delivery: &DeliveryRow,
    now: DateTime<Utc>,
) -> Result<Sent, NotifyError> {
    let internal = |what: &str, e: &dyn std::fmt::Display| {
        NotifyError::Internal(format!(
            "push subscription {}: {what}: {e}",
            subscription.id
        ))
    };
    let keys = SubscriptionKeys::parse(&subscription.p256dh, &subscription.auth)
        .map_err(|e| internal("keys", &e))?;
    let body = encrypt(&keys, delivery.payload.as_bytes()).map_err(|e| internal("payload", &e))?;
    let authorization = tokens
        .authorization(vapid, &subscription.endpoint, subject, now.timestamp())
        .map_err(|e| internal("VAPID token", &e))?;
    let urgent = NotifyEvent::from_name(&delivery.event).is_some_and(NotifyEvent::urgent);
    let mut headers = vec![
        ("content-type", "application/octet-stream".to_owned()),
        ("content-encoding", "aes128gcm".to_owned()),
        ("ttl", TTL_SECONDS.to_string()),
        ("urgency", if urgent { "high" } else { "normal" }.to_owned()),
        ("authorization", authorization),
    ];
    // One topic per game: a newer notice of a game replaces an older one
    // still waiting on the push service (32 characters of the URL-safe
    // alphabet, as RFC 8030 allows).
    if let Some(game) = &delivery.game_id {
        headers.push(("topic", game.replace('-', "")));
    }
    Ok(sender.post(&subscription.endpoint, &headers, body).await)
}
