//! Web Push without a vendor SDK: the server's identity towards push
//! services (VAPID, RFC 8292, in [`vapid`]) and the end-to-end encryption
//! of each message for the browser that subscribed (RFC 8291 with the
//! `aes128gcm` content coding of RFC 8188, in [`encryption`]).
//!
//! Keys travel as base64url text, as the Push API gives them
//! (`PushSubscription.toJSON()`) and as a browser wants the server's key
//! (`applicationServerKey`). What is read is read leniently (padded or
//! not, the URL-safe or the standard alphabet), what is written is
//! base64url without padding.

pub mod encryption;
pub mod vapid;

pub use encryption::{
    decrypt, encrypt, generate_browser_keys, DecryptError, EncryptError, SubscriptionKeys,
    UserAgentKey, AUTH_SECRET_LEN, MAX_BODY_LEN, MAX_PLAINTEXT_LEN, RECORD_SIZE,
};
pub use vapid::{verify_vapid, VapidClaims, VapidError, VapidKey, MAX_TOKEN_LIFETIME_SECS};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// A key that cannot be used, with the field it came from and why: what a
/// 422 problem reports for a subscription, or what the server says at
/// start for a configured key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{field} {problem}")]
pub struct KeyError {
    field: &'static str,
    problem: KeyProblem,
}

impl KeyError {
    pub(crate) fn new(field: &'static str, problem: KeyProblem) -> Self {
        KeyError { field, problem }
    }

    /// The field the key came from: `keys.p256dh`, `keys.auth` (as in a
    /// `PushSubscription`), or `VAPID_PRIVATE_KEY`.
    pub fn field(&self) -> &'static str {
        self.field
    }

    /// What is wrong with it.
    pub fn problem(&self) -> KeyProblem {
        self.problem
    }

    /// A stable short code for what is wrong: see [`KeyProblem::reason`].
    pub fn reason(&self) -> &'static str {
        self.problem.reason()
    }
}

/// What is wrong with a key. The messages (`Display`) never repeat the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeyProblem {
    /// Not base64 in either alphabet.
    #[error("is not base64url")]
    NotBase64,
    /// Decodes to the wrong number of bytes.
    #[error("must decode to {expected} bytes")]
    WrongLength {
        /// How many bytes it must be.
        expected: usize,
    },
    /// Not the 65-byte uncompressed form of a point (0x04, x, y).
    #[error("must be an uncompressed P-256 point (65 bytes starting with 0x04)")]
    NotUncompressedPoint,
    /// Well formed but not a point on P-256.
    #[error("is not a point on the P-256 curve")]
    NotOnCurve,
    /// Not a usable P-256 private key (zero, not below the group order, or
    /// a PEM document that holds no P-256 key).
    #[error("is not a P-256 private key")]
    InvalidPrivateKey,
}

impl KeyProblem {
    /// A stable short code, for the `reason` of a 422 problem.
    pub fn reason(&self) -> &'static str {
        match self {
            KeyProblem::NotBase64 => "not_base64url",
            KeyProblem::WrongLength { .. } => "wrong_length",
            KeyProblem::NotUncompressedPoint => "not_uncompressed_point",
            KeyProblem::NotOnCurve => "not_on_curve",
            KeyProblem::InvalidPrivateKey => "invalid_private_key",
        }
    }
}

/// base64url without padding, the form every key and token is written in.
pub(crate) fn to_base64url(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes base64url or standard base64, padded or not. `None` for
/// anything else (whitespace inside included).
pub(crate) fn from_base64_lenient(text: &str) -> Option<Vec<u8>> {
    let unpadded = text.trim().trim_end_matches('=');
    let url_safe: String = unpadded
        .chars()
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            c => c,
        })
        .collect();
    URL_SAFE_NO_PAD.decode(url_safe).ok()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn base64_is_read_in_any_alphabet_and_padding() {
        let bytes = [0xfbu8, 0xff, 0xfe, 0x01];
        for text in ["-__-AQ", "-__-AQ==", "+//+AQ", "+//+AQ==", " -__-AQ\n"] {
            assert_eq!(from_base64_lenient(text), Some(bytes.to_vec()), "{text:?}");
        }
        assert_eq!(to_base64url(&bytes), "-__-AQ");
        assert_eq!(from_base64_lenient("-_ _-AQ"), None);
        assert_eq!(from_base64_lenient("not*base64"), None);
        // Bits left over after the last byte mark a mangled value.
        assert_eq!(from_base64_lenient("-__-AR"), None);
    }

    #[test]
    fn key_errors_name_the_field_and_a_stable_reason() {
        let error = KeyError::new("keys.auth", KeyProblem::WrongLength { expected: 16 });
        assert_eq!(error.field(), "keys.auth");
        assert_eq!(error.reason(), "wrong_length");
        assert_eq!(error.to_string(), "keys.auth must decode to 16 bytes");
        let reasons: Vec<&str> = [
            KeyProblem::NotBase64,
            KeyProblem::WrongLength { expected: 65 },
            KeyProblem::NotUncompressedPoint,
            KeyProblem::NotOnCurve,
            KeyProblem::InvalidPrivateKey,
        ]
        .iter()
        .map(KeyProblem::reason)
        .collect();
        assert_eq!(
            reasons,
            [
                "not_base64url",
                "wrong_length",
                "not_uncompressed_point",
                "not_on_curve",
                "invalid_private_key"
            ]
        );
    }
}
