//! E-mail (docs/notifications.md, "E-mail"): a player's address, verified
//! by a code sent to it; the one-click unsubscribe link every digest
//! carries. The digest itself is composed in [`super::digest`] and sent by
//! the outbox.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, KeyInit, Mac};
use rand::Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use super::channels::{live_with_cursor, problem};
use super::fanout::{pending, Target};
use super::preferences::Preferences;
use super::NotifyError;
use crate::config::Config;
use crate::db::{self, DbPool};
use crate::outbound::mail::{check_address, Mailer};
use crate::storage::channels as channel_store;
use crate::storage::email::{self as store, EmailRow};
use crate::storage::outbox::{self as outbox_store, EMAIL_CODE};
use crate::storage::{from_db_time, to_db_time};

/// How long a verification code may be used.
pub const CODE_TTL: Duration = Duration::hours(1);
/// The least time between two codes sent to one player.
pub const RESEND_AFTER: Duration = Duration::seconds(60);
/// Tries of one code before it is void.
pub const MAX_CODE_ATTEMPTS: i32 = 5;
/// Codes sent to one player in a day at most.
pub const MAX_CODES_A_DAY: i32 = 5;
/// Other accounts that may be waiting for a code to one address at once
/// (within a day): a few share an address; more is someone's mailbox
/// being flooded.
pub const MAX_OTHERS_AT_ADDRESS: i64 = 2;

/// E-mail as this server was configured: the relay, the public URL links
/// start with, the key unsubscribe links are signed with.
#[derive(Debug, Clone)]
pub struct EmailSettings {
    pub mailer: Mailer,
    pub public_url: String,
    unsubscribe_key: [u8; 32],
}

impl EmailSettings {
    /// `None` when no SMTP relay is configured: e-mail is off.
    pub fn from_config(config: &Config) -> Result<Option<Self>, NotifyError> {
        let Some(smtp) = &config.smtp else {
            return Ok(None);
        };
        let mailer = Mailer::new(smtp.url.expose(), &smtp.from).map_err(NotifyError::Internal)?;
        // A key of its own, derived from the token secret: an unsubscribe
        // link is never a valid token, nor the other way round.
        let mut mac =
            <Hmac<Sha256> as KeyInit>::new_from_slice(config.jwt_secret.expose().as_bytes())
                .map_err(|e| NotifyError::Internal(e.to_string()))?;
        mac.update(b"stratego e-mail unsubscribe links v1");
        let unsubscribe_key = mac.finalize().into_bytes().into();
        Ok(Some(Self {
            mailer,
            public_url: smtp.public_url.clone(),
            unsubscribe_key,
        }))
    }

    /// The one-click unsubscribe link for `user` at `address`.
    pub fn unsubscribe_url(&self, user: &str, address: &str) -> String {
        format!(
            "{}/api/v1/email/unsubscribe?token={}",
            self.public_url,
            unsubscribe_token(&self.unsubscribe_key, user, address)
        )
    }

    /// The player a token was made for, if it is one of ours (its address
    /// still has to match: see [`unsubscribe`]).
    fn token_user(&self, token: &str) -> Option<(Uuid, Vec<u8>)> {
        let bytes = URL_SAFE_NO_PAD.decode(token.as_bytes()).ok()?;
        if bytes.len() != 32 {
            return None;
        }
        let (user, tag) = bytes.split_at(16);
        Some((Uuid::from_slice(user).ok()?, tag.to_vec()))
    }
}

/// `base64url(user id (16 bytes) || HMAC-SHA256(key, user id || address)[..16])`:
/// bound to the address, so a link stops working when the address changes.
fn unsubscribe_token(key: &[u8; 32], user: &str, address: &str) -> String {
    let id = Uuid::parse_str(user).unwrap_or_default();
    let mut bytes = id.as_bytes().to_vec();
    bytes.extend_from_slice(&unsubscribe_tag(key, &id, address)[..16]);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The HMAC of an unsubscribe token, over `user` and `address`.
fn unsubscribe_mac(key: &[u8; 32], user: &Uuid, address: &str) -> Option<Hmac<Sha256>> {
    // HMAC takes a key of any length: this never fails.
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).ok()?;
    mac.update(user.as_bytes());
    mac.update(address.to_ascii_lowercase().as_bytes());
    Some(mac)
}

fn unsubscribe_tag(key: &[u8; 32], user: &Uuid, address: &str) -> [u8; 32] {
    unsubscribe_mac(key, user, address).map_or([0; 32], |mac| mac.finalize().into_bytes().into())
}

/// Your e-mail address, as you see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"address": "ann@example.org", "verified": false,
    "code_expires_at": "2026-12-04T11:00:00Z"}))]
pub struct EmailState {
    /// The address, or null when you gave none
    pub address: Option<String>,
    /// Whether you confirmed it with the code sent to it; mail goes only
    /// to a verified address
    pub verified: bool,
    /// Until when the code last sent may be used (null when none is
    /// pending)
    pub code_expires_at: Option<DateTime<Utc>>,
}

impl EmailState {
    fn of(row: Option<&EmailRow>) -> Self {
        let Some(row) = row else {
            return Self {
                address: None,
                verified: false,
                code_expires_at: None,
            };
        };
        Self {
            address: Some(row.address.clone()),
            verified: row.verified_at.is_some(),
            code_expires_at: row
                .code_hash
                .as_ref()
                .filter(|_| row.code_attempts < MAX_CODE_ATTEMPTS)
                .and(row.code_sent_at)
                .map(|at| from_db_time(at) + CODE_TTL),
        }
    }
}

/// Whether `code`, made for `address`, is still the code waiting at the
/// player's address (`row`) and may still be used at `now`.
pub(crate) fn code_is_current(
    row: &EmailRow,
    address: &str,
    code: &str,
    now: DateTime<Utc>,
) -> bool {
    row.verified_at.is_none()
        && row.address_key == address.to_ascii_lowercase()
        && row.code_hash.as_deref() == Some(code_hash(code).as_str())
        && row.code_attempts < MAX_CODE_ATTEMPTS
        && row
            .code_sent_at
            .is_some_and(|at| from_db_time(at) + CODE_TTL > now)
}

/// What is kept of a code: base64url of its SHA-256.
fn code_hash(code: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(code.as_bytes()))
}

pub async fn state(pool: &DbPool, owner: Uuid) -> Result<EmailState, NotifyError> {
    let row = db::run_as::<_, NotifyError, _>(pool, move |conn| {
        Ok(store::find(conn, &owner.to_string())?)
    })
    .await?;
    Ok(EmailState::of(row.as_ref()))
}

/// Whole seconds until `wait` is over, rounded up.
fn seconds(wait: Duration) -> u64 {
    u64::try_from(wait.num_milliseconds())
        .unwrap_or(0)
        .div_ceil(1000)
}

/// Sets the address and queues a code to it (the outbox sends it). The
/// same address, verified already, is left as it is. Limits: a code a
/// minute and [`MAX_CODES_A_DAY`] a day per player, and an address others
/// are already waiting for codes at is refused for a day.
pub async fn set_address(
    pool: &DbPool,
    owner: Uuid,
    address: String,
    now: DateTime<Utc>,
) -> Result<EmailState, NotifyError> {
    let address = check_address(&address)
        .map_err(|reason| NotifyError::Invalid(vec![problem("address", "invalid", reason)]))?;
    let key = address.to_ascii_lowercase();
    let row = db::run_write::<_, NotifyError, _>(pool, move |conn| {
        let user = owner.to_string();
        if crate::storage::users::live(conn, &user, crate::storage::users::RowLock::Share)?
            .is_none()
        {
            return Err(NotifyError::AccountGone);
        }
        let current = store::find(conn, &user)?;
        let (mut codes_sent, mut codes_since) = (0, to_db_time(now));
        if let Some(current) = &current {
            if current.verified_at.is_some() && current.address_key == key {
                return Ok(current.clone());
            }
            if let Some(sent) = current.code_sent_at {
                let wait = from_db_time(sent) + RESEND_AFTER - now;
                if wait > Duration::zero() {
                    return Err(NotifyError::TooSoon(seconds(wait)));
                }
            }
            if let Some(since) = current.codes_since {
                let day_ends = from_db_time(since) + Duration::days(1);
                if day_ends > now {
                    if current.codes_sent >= MAX_CODES_A_DAY {
                        return Err(NotifyError::TooSoon(seconds(day_ends - now)));
                    }
                    (codes_sent, codes_since) = (current.codes_sent, since);
                }
            }
        }
        let others =
            store::others_waiting_at(conn, &key, &user, to_db_time(now - Duration::days(1)))?;
        if others >= MAX_OTHERS_AT_ADDRESS {
            return Err(NotifyError::TooSoon(3600));
        }
        // Whatever was queued for the address before goes no more: its
        // code is replaced, and no digest goes to an unverified address.
        outbox_store::drop_pending_email(
            conn,
            &user,
            "the address was set again",
            to_db_time(now),
        )?;
        let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
        let row = EmailRow {
            user_id: user.clone(),
            address: address.clone(),
            address_key: key.clone(),
            verified_at: None,
            code_hash: Some(code_hash(&code)),
            code_sent_at: Some(to_db_time(now)),
            code_attempts: 0,
            codes_sent: codes_sent + 1,
            codes_since: Some(codes_since),
            last_digest_at: current.as_ref().and_then(|c| c.last_digest_at),
            digest_lease_until: None,
            created_at: to_db_time(now),
        };
        store::put(conn, &row)?;
        let payload = serde_json::json!({"address": address, "code": code}).to_string();
        let delivery = pending(&user, Target::Email, EMAIL_CODE, None, payload, now);
        outbox_store::insert_deliveries(conn, std::slice::from_ref(&delivery))?;
        // An unverified address gets nothing but its code.
        channel_store::stop_cursor_if_unused(conn, &user)?;
        Ok(row)
    })
    .await?;
    Ok(EmailState::of(Some(&row)))
}

/// Confirms the address with the code sent to it. Every try counts (in
/// one statement, so that tries sent at once are counted too); after
/// [`MAX_CODE_ATTEMPTS`] the code is void.
pub async fn verify(
    pool: &DbPool,
    owner: Uuid,
    code: String,
    now: DateTime<Utc>,
) -> Result<EmailState, NotifyError> {
    let refused = |reason: &'static str, message: &str| {
        NotifyError::Invalid(vec![problem("code", reason, message)])
    };
    let code = code.trim().to_owned();
    let outcome = db::run_write::<_, NotifyError, _>(pool, move |conn| {
        let user = owner.to_string();
        let row = store::find(conn, &user)?.ok_or(NotifyError::NotFound(
            "you have not given an e-mail address",
        ))?;
        if row.verified_at.is_some() {
            return Ok(Ok(row));
        }
        if !store::try_code(conn, &user, MAX_CODE_ATTEMPTS)? {
            return Ok(Err((
                "expired",
                "no code can be used now: set the address again for a new one",
            )));
        }
        let (Some(hash), Some(sent)) = (&row.code_hash, row.code_sent_at) else {
            return Ok(Err((
                "expired",
                "no code is pending: set the address again",
            )));
        };
        if from_db_time(sent) + CODE_TTL < now {
            return Ok(Err((
                "expired",
                "this code can no longer be used: set the address again for a new one",
            )));
        }
        if code_hash(&code) != *hash {
            return Ok(Err((
                "wrong_code",
                "this is not the code sent to your address",
            )));
        }
        store::verified(conn, &user, to_db_time(now))?;
        live_with_cursor(conn, &user)?;
        Ok(Ok(store::find(conn, &user)?.unwrap_or(row)))
    })
    .await?;
    // A try is counted (committed) before it is refused.
    let row = outcome.map_err(|(reason, message)| refused(reason, message))?;
    Ok(EmailState::of(Some(&row)))
}

/// Forgets the address; no more mail goes to it, not even what was queued.
pub async fn remove(pool: &DbPool, owner: Uuid, now: DateTime<Utc>) -> Result<(), NotifyError> {
    db::run_write::<_, NotifyError, _>(pool, move |conn| {
        let user = owner.to_string();
        if !store::delete(conn, &user)? {
            return Err(NotifyError::NotFound(
                "you have not given an e-mail address",
            ));
        }
        outbox_store::drop_pending_email(conn, &user, "the address was removed", to_db_time(now))?;
        channel_store::stop_cursor_if_unused(conn, &user)?;
        Ok(())
    })
    .await
}

/// One-click unsubscribe (RFC 8058): turns e-mail off for every event of
/// the player the link was made for. An unknown or outdated link is
/// `NotFound`, and changes nothing.
pub async fn unsubscribe(
    pool: &DbPool,
    settings: &EmailSettings,
    token: &str,
    now: DateTime<Utc>,
) -> Result<(), NotifyError> {
    let owner = settings.token_user(token);
    let key = settings.unsubscribe_key;
    db::run_write::<_, NotifyError, _>(pool, move |conn| {
        let id = token_owner(conn, &key, owner)?;
        let mut preferences =
            Preferences::from_stored(channel_store::preferences(conn, &id)?.as_deref());
        for switches in preferences.events.values_mut() {
            switches.email = false;
        }
        let json = preferences
            .to_stored()
            .map_err(|e| NotifyError::Internal(e.to_string()))?;
        channel_store::set_preferences(conn, &id, &json, to_db_time(now))?;
        // "No more mail" means none: not even what waits for its day.
        outbox_store::drop_pending_email(conn, &id, "unsubscribed", to_db_time(now))?;
        Ok(())
    })
    .await
}

/// Whether `token` is a valid unsubscribe link now (the page that asks
/// before unsubscribing shows only for one).
pub async fn check_unsubscribe(
    pool: &DbPool,
    settings: &EmailSettings,
    token: &str,
) -> Result<(), NotifyError> {
    let owner = settings.token_user(token);
    let key = settings.unsubscribe_key;
    db::run_as::<_, NotifyError, _>(pool, move |conn| token_owner(conn, &key, owner).map(drop))
        .await
}

/// The player a decoded unsubscribe token is for, if its tag matches their
/// current address.
fn token_owner(
    conn: &mut crate::db::DbConnection,
    key: &[u8; 32],
    decoded: Option<(Uuid, Vec<u8>)>,
) -> Result<String, NotifyError> {
    let invalid = || NotifyError::NotFound("this unsubscribe link is not valid (any more)");
    let (user, tag) = decoded.ok_or_else(invalid)?;
    let id = user.to_string();
    let row = store::find(conn, &id)?.ok_or_else(invalid)?;
    // Compared in constant time, as the token carries it (the left half).
    unsubscribe_mac(key, &user, &row.address)
        .and_then(|mac| mac.verify_truncated_left(&tag).ok())
        .ok_or_else(invalid)?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_bound_to_its_user_and_address() {
        let key = [7u8; 32];
        let user = Uuid::new_v4();
        let token = unsubscribe_token(&key, &user.to_string(), "Ann@Example.org");
        let bytes = URL_SAFE_NO_PAD.decode(&token).unwrap_or_default();
        assert_eq!(bytes.len(), 32);
        assert_eq!(&bytes[..16], user.as_bytes());
        assert_eq!(
            &bytes[16..],
            &unsubscribe_tag(&key, &user, "ann@example.org")[..16]
        );
        assert_ne!(
            &bytes[16..],
            &unsubscribe_tag(&key, &user, "bob@example.org")[..16]
        );
        assert_ne!(
            &bytes[16..],
            &unsubscribe_tag(&[8u8; 32], &user, "ann@example.org")[..16]
        );
    }
}
