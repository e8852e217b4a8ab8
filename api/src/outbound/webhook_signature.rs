//! Webhook signatures as the Standard Webhooks specification defines them
//! (<https://www.standardwebhooks.com>), so that a receiver can verify our
//! deliveries with any of that project's libraries.
//!
//! Each webhook has a secret, `whsec_` and the base64 (standard alphabet)
//! of 24 to 64 random bytes, shown to its owner once. A delivery carries
//! three headers: `webhook-id` (the same on every retry, for
//! de-duplication), `webhook-timestamp` (Unix seconds) and
//! `webhook-signature`: `v1,` and the base64 HMAC-SHA256, keyed with the
//! secret's bytes, of `{id}.{timestamp}.{body}`. A receiver recomputes it
//! and refuses a timestamp far from its clock, so that a captured delivery
//! cannot be replayed later. The signature header may hold several
//! signatures separated by spaces (while a secret is being rotated); one
//! that verifies is enough.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use rand::RngCore;
use sha2::Sha256;

/// The header with the delivery's id.
pub const HEADER_ID: &str = "webhook-id";
/// The header with the time of the attempt, Unix seconds.
pub const HEADER_TIMESTAMP: &str = "webhook-timestamp";
/// The header with the signatures.
pub const HEADER_SIGNATURE: &str = "webhook-signature";

/// What every secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";
/// The shortest secret the specification allows, in bytes.
pub const MIN_SECRET_BYTES: usize = 24;
/// The longest, in bytes.
pub const MAX_SECRET_BYTES: usize = 64;
/// The length of a secret this server generates, in bytes.
const GENERATED_SECRET_BYTES: usize = 32;

/// How far a timestamp may be from the receiver's clock: five minutes, as
/// the specification's reference libraries allow.
pub const DEFAULT_TOLERANCE_SECS: i64 = 300;

/// A webhook's signing secret.
#[derive(Clone)]
pub struct WebhookSecret {
    text: String,
    /// The HMAC keyed with the secret's bytes, cloned for each signature.
    mac: Hmac<Sha256>,
}

impl std::fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WebhookSecret(..)")
    }
}

impl PartialEq for WebhookSecret {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for WebhookSecret {}

impl WebhookSecret {
    /// A fresh secret of 32 random bytes.
    pub fn generate() -> WebhookSecret {
        let mut bytes = [0u8; GENERATED_SECRET_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        WebhookSecret {
            text: format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes)),
            mac: keyed_hmac(&bytes),
        }
    }

    /// Reads a secret as stored: `whsec_` and the standard base64 of 24 to
    /// 64 bytes (padded or not).
    pub fn parse(text: &str) -> Result<WebhookSecret, SecretError> {
        let encoded = text
            .strip_prefix(SECRET_PREFIX)
            .ok_or(SecretError::MissingPrefix)?;
        let bytes = STANDARD
            .decode(encoded)
            .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(encoded))
            .map_err(|_| SecretError::NotBase64)?;
        if !(MIN_SECRET_BYTES..=MAX_SECRET_BYTES).contains(&bytes.len()) {
            return Err(SecretError::Length);
        }
        Ok(WebhookSecret {
            text: text.to_owned(),
            mac: keyed_hmac(&bytes),
        })
    }

    /// The secret as text, `whsec_...`: what is stored and what its owner
    /// is shown once.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The HMAC of `{id}.{timestamp}.{body}`.
    fn mac_of(&self, msg_id: &str, timestamp: &str, body: &[u8]) -> Hmac<Sha256> {
        let mut mac = self.mac.clone();
        mac.update(msg_id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.as_bytes());
        mac.update(b".");
        mac.update(body);
        mac
    }
}

/// HMAC-SHA256 keyed with `key`, which is at most 64 bytes. HMAC pads a
/// key shorter than the hash's 64-byte block with zeros, so the padded
/// block is the same key; the longest secret is exactly one block, which
/// is why no secret needs hashing and this cannot fail.
fn keyed_hmac(key: &[u8]) -> Hmac<Sha256> {
    let mut block = hmac::digest::Key::<Hmac<Sha256>>::default();
    for (slot, byte) in block.iter_mut().zip(key) {
        *slot = *byte;
    }
    Hmac::new(&block)
}

/// Why a secret could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    /// It does not start with `whsec_`.
    #[error("a webhook secret starts with whsec_")]
    MissingPrefix,
    /// What follows the prefix is not base64.
    #[error("a webhook secret is base64 after its prefix")]
    NotBase64,
    /// It decodes to fewer than 24 or more than 64 bytes.
    #[error("a webhook secret is {MIN_SECRET_BYTES} to {MAX_SECRET_BYTES} bytes")]
    Length,
}

impl SecretError {
    /// A stable short code for the error.
    pub fn reason(&self) -> &'static str {
        match self {
            SecretError::MissingPrefix => "missing_prefix",
            SecretError::NotBase64 => "not_base64",
            SecretError::Length => "wrong_length",
        }
    }
}

/// The `webhook-signature` value for a delivery: `v1,` and the base64
/// HMAC-SHA256 of `{msg_id}.{timestamp_unix}.{body}`. `body` is the exact
/// bytes sent.
pub fn sign(secret: &WebhookSecret, msg_id: &str, timestamp_unix: i64, body: &[u8]) -> String {
    let tag = secret
        .mac_of(msg_id, &timestamp_unix.to_string(), body)
        .finalize()
        .into_bytes();
    format!("v1,{}", STANDARD.encode(tag))
}

/// The three headers of a delivery, as a receiver got them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookHeaders<'a> {
    /// `webhook-id`.
    pub id: &'a str,
    /// `webhook-timestamp`.
    pub timestamp: &'a str,
    /// `webhook-signature`: one or more `v1,<base64>`, space-separated.
    pub signature: &'a str,
}

/// Why a delivery was not accepted as ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// `webhook-id` is empty.
    #[error("the webhook-id header is missing")]
    MissingId,
    /// `webhook-timestamp` is not an integer.
    #[error("the webhook-timestamp header is not a Unix time")]
    InvalidTimestamp,
    /// The timestamp is older than the tolerance allows.
    #[error("the delivery is too old")]
    TooOld,
    /// The timestamp is further ahead than the tolerance allows.
    #[error("the delivery is from the future")]
    TooNew,
    /// No `v1` signature in the header.
    #[error("the webhook-signature header holds no v1 signature")]
    NoSignature,
    /// No `v1` signature matches.
    #[error("no signature matches")]
    Mismatch,
}

impl VerifyError {
    /// A stable short code for the error.
    pub fn reason(&self) -> &'static str {
        match self {
            VerifyError::MissingId => "missing_id",
            VerifyError::InvalidTimestamp => "invalid_timestamp",
            VerifyError::TooOld => "too_old",
            VerifyError::TooNew => "too_new",
            VerifyError::NoSignature => "no_signature",
            VerifyError::Mismatch => "mismatch",
        }
    }
}

/// Verifies a delivery as a receiver does: the timestamp within
/// `tolerance_secs` of `now_unix` either way, and one of the `v1`
/// signatures the HMAC of `{id}.{timestamp}.{body}` (compared in constant
/// time; other versions are skipped). Returns the timestamp.
///
/// Test support: the end-to-end tests' webhook receiver uses this; the
/// server only signs.
pub fn verify(
    secret: &WebhookSecret,
    headers: &WebhookHeaders<'_>,
    body: &[u8],
    now_unix: i64,
    tolerance_secs: i64,
) -> Result<i64, VerifyError> {
    if headers.id.trim().is_empty() {
        return Err(VerifyError::MissingId);
    }
    let timestamp_text = headers.timestamp.trim();
    let timestamp: i64 = timestamp_text
        .parse()
        .map_err(|_| VerifyError::InvalidTimestamp)?;
    if timestamp < now_unix.saturating_sub(tolerance_secs) {
        return Err(VerifyError::TooOld);
    }
    if timestamp > now_unix.saturating_add(tolerance_secs) {
        return Err(VerifyError::TooNew);
    }
    let mut signatures = headers
        .signature
        .split_whitespace()
        .filter_map(|entry| entry.strip_prefix("v1,"))
        .peekable();
    if signatures.peek().is_none() {
        return Err(VerifyError::NoSignature);
    }
    let expected = secret.mac_of(headers.id, timestamp_text, body);
    let matches = signatures.any(|signature| {
        STANDARD
            .decode(signature)
            .is_ok_and(|tag| expected.clone().verify_slice(&tag).is_ok())
    });
    if matches {
        Ok(timestamp)
    } else {
        Err(VerifyError::Mismatch)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    // The example of the Standard Webhooks reference libraries' tests
    // ("sign function works"): secret, id, timestamp, body, signature.
    const SPEC_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const SPEC_ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const SPEC_TIMESTAMP: i64 = 1_614_265_330;
    const SPEC_BODY: &[u8] = br#"{"test": 2432232314}"#;
    const SPEC_SIGNATURE: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    fn spec_headers(signature: &str) -> WebhookHeaders<'_> {
        WebhookHeaders {
            id: SPEC_ID,
            timestamp: "1614265330",
            signature,
        }
    }

    #[test]
    fn the_specification_example_is_reproduced() {
        let secret = WebhookSecret::parse(SPEC_SECRET).unwrap();
        assert_eq!(
            sign(&secret, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY),
            SPEC_SIGNATURE
        );
        assert_eq!(
            verify(
                &secret,
                &spec_headers(SPEC_SIGNATURE),
                SPEC_BODY,
                SPEC_TIMESTAMP,
                DEFAULT_TOLERANCE_SECS
            ),
            Ok(SPEC_TIMESTAMP)
        );
    }

    #[test]
    fn the_keyed_hmac_is_hmac_sha256() {
        // RFC 4231, test case 2: key "Jefe", data "what do ya want for
        // nothing?".
        let mut mac = keyed_hmac(b"Jefe");
        mac.update(b"what do ya want for nothing?");
        let hex: String = mac
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Padding the key into the block changes nothing, up to 64 bytes.
        for len in [24, 32, 63, 64] {
            let key: Vec<u8> = (0..len).map(|i| i as u8 ^ 0x5c).collect();
            let padded = keyed_hmac(&key).chain_update(b"body").finalize();
            let direct = <Hmac<Sha256> as KeyInit>::new_from_slice(&key)
                .unwrap()
                .chain_update(b"body")
                .finalize();
            assert_eq!(padded, direct, "{len}-byte key");
        }
    }

    #[test]
    fn any_matching_v1_signature_is_enough() {
        let secret = WebhookSecret::parse(SPEC_SECRET).unwrap();
        let other = WebhookSecret::generate();
        let stale = sign(&other, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY);
        let several = format!("v1a,abc {stale} {SPEC_SIGNATURE}");
        let accepted = verify(
            &secret,
            &spec_headers(&several),
            SPEC_BODY,
            SPEC_TIMESTAMP,
            DEFAULT_TOLERANCE_SECS,
        );
        assert_eq!(accepted, Ok(SPEC_TIMESTAMP));
        assert_eq!(
            verify(
                &secret,
                &spec_headers(&stale),
                SPEC_BODY,
                SPEC_TIMESTAMP,
                DEFAULT_TOLERANCE_SECS
            ),
            Err(VerifyError::Mismatch)
        );
    }

    #[test]
    fn a_changed_delivery_or_a_stale_one_is_refused() {
        let secret = WebhookSecret::parse(SPEC_SECRET).unwrap();
        let check = |headers: WebhookHeaders<'_>, body: &[u8], now: i64| {
            verify(&secret, &headers, body, now, DEFAULT_TOLERANCE_SECS)
        };
        let headers = spec_headers(SPEC_SIGNATURE);
        assert_eq!(
            check(headers, br#"{"test": 2432232315}"#, SPEC_TIMESTAMP),
            Err(VerifyError::Mismatch)
        );
        let other_id = WebhookHeaders {
            id: "msg_other",
            ..headers
        };
        assert_eq!(
            check(other_id, SPEC_BODY, SPEC_TIMESTAMP),
            Err(VerifyError::Mismatch)
        );
        let other_time = WebhookHeaders {
            timestamp: "1614265331",
            ..headers
        };
        assert_eq!(
            check(other_time, SPEC_BODY, SPEC_TIMESTAMP),
            Err(VerifyError::Mismatch)
        );
        // Within five minutes either way, and no further.
        assert!(check(headers, SPEC_BODY, SPEC_TIMESTAMP + 300).is_ok());
        assert!(check(headers, SPEC_BODY, SPEC_TIMESTAMP - 300).is_ok());
        assert_eq!(
            check(headers, SPEC_BODY, SPEC_TIMESTAMP + 301),
            Err(VerifyError::TooOld)
        );
        assert_eq!(
            check(headers, SPEC_BODY, SPEC_TIMESTAMP - 301),
            Err(VerifyError::TooNew)
        );
        let bad = |headers: WebhookHeaders<'_>| {
            check(headers, SPEC_BODY, SPEC_TIMESTAMP)
                .unwrap_err()
                .reason()
        };
        assert_eq!(bad(WebhookHeaders { id: " ", ..headers }), "missing_id");
        assert_eq!(
            bad(WebhookHeaders {
                timestamp: "yesterday",
                ..headers
            }),
            "invalid_timestamp"
        );
        assert_eq!(
            bad(WebhookHeaders {
                signature: "g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
                ..headers
            }),
            "no_signature"
        );
        assert_eq!(
            bad(WebhookHeaders {
                signature: "v1,not-base64!",
                ..headers
            }),
            "mismatch"
        );
        assert_eq!(
            bad(WebhookHeaders {
                signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=",
                ..headers
            }),
            "mismatch"
        );
    }

    #[test]
    fn generated_secrets_are_standard_and_distinct() {
        let secret = WebhookSecret::generate();
        let text = secret.as_str();
        let encoded = text.strip_prefix("whsec_").unwrap();
        assert_eq!(STANDARD.decode(encoded).unwrap().len(), 32);
        assert_eq!(WebhookSecret::parse(text).unwrap(), secret);
        assert_ne!(WebhookSecret::generate(), secret);
        assert!(!format!("{secret:?}").contains(encoded));
        let signature = sign(&secret, "msg_1", 1_700_000_000, b"{}");
        let headers = WebhookHeaders {
            id: "msg_1",
            timestamp: "1700000000",
            signature: &signature,
        };
        assert_eq!(
            verify(&secret, &headers, b"{}", 1_700_000_010, 60),
            Ok(1_700_000_000)
        );
    }

    #[test]
    fn secrets_are_read_only_in_the_standard_form() {
        let reason = |text: &str| WebhookSecret::parse(text).unwrap_err().reason();
        assert_eq!(reason("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), "missing_prefix");
        assert_eq!(reason("whsec_not base64!"), "not_base64");
        assert_eq!(
            reason(&format!("whsec_{}", STANDARD.encode([1; 23]))),
            "wrong_length"
        );
        assert_eq!(
            reason(&format!("whsec_{}", STANDARD.encode([1; 65]))),
            "wrong_length"
        );
        for len in [24, 64] {
            let text = format!("whsec_{}", STANDARD.encode(vec![7; len]));
            assert_eq!(WebhookSecret::parse(&text).unwrap().as_str(), text);
        }
        // Unpadded is read too (25 bytes need padding in standard form).
        let unpadded = format!("whsec_{}", STANDARD.encode([5; 25]));
        let unpadded = unpadded.trim_end_matches('=');
        assert!(WebhookSecret::parse(unpadded).is_ok());
    }
}
