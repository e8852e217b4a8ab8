//! Message encryption for Web Push (RFC 8291), in the `aes128gcm` content
//! coding (RFC 8188).
//!
//! A push service carries each message but must not read it. The browser
//! that subscribed gave the server a P-256 public key (`p256dh`) and a
//! 16-byte secret (`auth`); for each message the server makes a one-time
//! key pair and a random 16-byte salt, agrees a secret with the browser's
//! key (ECDH), mixes in `auth` and the salt (HKDF-SHA-256), and encrypts
//! with AES-128-GCM. The body is then:
//!
//! ```text
//! salt (16) | record size (4, = 4096) | key id length (1, = 65) | one-time public key (65)
//! | AES-128-GCM(plaintext | 0x02) with its 16-byte tag
//! ```
//!
//! One record only: the 0x02 marks it as the last, and no padding follows.
//! A push service need not take a body over 4,096 bytes, which leaves
//! [`MAX_PLAINTEXT_LEN`] = 3,993 bytes of plaintext.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::Aes128Gcm;
use hkdf::Hkdf;
use p256::elliptic_curve::sec1::ToSec1Point;
use p256::elliptic_curve::Generate;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

use super::{from_base64_lenient, to_base64url, KeyError, KeyProblem};

/// The length of a subscription's `auth` secret.
pub const AUTH_SECRET_LEN: usize = 16;
/// The record size written in every header: the largest body a push
/// service must take, so that one record always suffices.
pub const RECORD_SIZE: u32 = 4096;
/// The largest body this module writes (RFC 8030, section 7.2).
pub const MAX_BODY_LEN: usize = 4096;
/// The most plaintext that fits in [`MAX_BODY_LEN`]: less the header, the
/// padding delimiter and the authentication tag.
pub const MAX_PLAINTEXT_LEN: usize = MAX_BODY_LEN - HEADER_LEN - 1 - TAG_LEN;

const SALT_LEN: usize = 16;
/// An uncompressed P-256 point: 0x04, x, y.
const POINT_LEN: usize = 65;
const HEADER_LEN: usize = SALT_LEN + 4 + 1 + POINT_LEN;
const TAG_LEN: usize = 16;
/// Ends the plaintext of the last record (RFC 8188, section 2).
const LAST_RECORD_DELIMITER: u8 = 0x02;

/// A subscription's keys, checked: `p256dh` is a point on P-256 and `auth`
/// is 16 bytes. Only a value made by [`SubscriptionKeys::parse`] exists.
#[derive(Clone)]
pub struct SubscriptionKeys {
    /// Checked to be on the curve when parsed.
    p256dh_bytes: [u8; POINT_LEN],
    auth: [u8; AUTH_SECRET_LEN],
}

impl std::fmt::Debug for SubscriptionKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubscriptionKeys")
            .field("p256dh", &self.p256dh_base64url())
            .finish_non_exhaustive()
    }
}

impl PartialEq for SubscriptionKeys {
    fn eq(&self, other: &Self) -> bool {
        self.p256dh_bytes == other.p256dh_bytes && self.auth == other.auth
    }
}

impl Eq for SubscriptionKeys {}

/// `keys.auth`: 16 bytes, base64url.
fn parse_auth(auth: &str) -> Result<[u8; AUTH_SECRET_LEN], KeyError> {
    let invalid = |problem| KeyError::new("keys.auth", problem);
    let auth = from_base64_lenient(auth).ok_or(invalid(KeyProblem::NotBase64))?;
    <[u8; AUTH_SECRET_LEN]>::try_from(auth.as_slice()).map_err(|_| {
        invalid(KeyProblem::WrongLength {
            expected: AUTH_SECRET_LEN,
        })
    })
}

impl SubscriptionKeys {
    /// Reads `keys.p256dh` and `keys.auth` of a `PushSubscription`
    /// (base64url; padding and the standard alphabet are taken too). The
    /// error names the field and what is wrong with it.
    pub fn parse(p256dh: &str, auth: &str) -> Result<SubscriptionKeys, KeyError> {
        Self::parse_all(p256dh, auth).map_err(|mut problems| problems.remove(0))
    }

    /// As [`SubscriptionKeys::parse`], with the problems of both fields
    /// when both are wrong (never an empty list).
    pub fn parse_all(p256dh: &str, auth: &str) -> Result<SubscriptionKeys, Vec<KeyError>> {
        match (parse_point(p256dh, "keys.p256dh"), parse_auth(auth)) {
            (Ok((_, p256dh_bytes)), Ok(auth)) => Ok(SubscriptionKeys { p256dh_bytes, auth }),
            (point, auth) => Err([point.err(), auth.err()].into_iter().flatten().collect()),
        }
    }

    /// `p256dh` as p256's point (the tests' encryption with a given key).
    #[cfg(test)]
    fn browser_point(&self) -> PublicKey {
        // Checked on the curve by `parse_point` when these keys were made.
        PublicKey::from_sec1_bytes(&self.p256dh_bytes).unwrap_or_else(|_| unreachable!())
    }

    /// `p256dh` in base64url, for storing.
    pub fn p256dh_base64url(&self) -> String {
        to_base64url(&self.p256dh_bytes)
    }

    /// `auth` in base64url, for storing.
    pub fn auth_base64url(&self) -> String {
        to_base64url(&self.auth)
    }
}

/// A public key in the 65-byte uncompressed form, on the curve.
fn parse_point(text: &str, field: &'static str) -> Result<(PublicKey, [u8; POINT_LEN]), KeyError> {
    let invalid = |problem| KeyError::new(field, problem);
    let bytes = from_base64_lenient(text).ok_or(invalid(KeyProblem::NotBase64))?;
    let bytes = match <[u8; POINT_LEN]>::try_from(bytes.as_slice()) {
        Ok(bytes) if bytes[0] == 0x04 => bytes,
        Ok(_) => return Err(invalid(KeyProblem::NotUncompressedPoint)),
        // The compressed form (0x02 or 0x03, then x) is a point, but not
        // what the Push API gives nor what the header may carry.
        Err(_) if bytes.len() == 33 && matches!(bytes[0], 0x02 | 0x03) => {
            return Err(invalid(KeyProblem::NotUncompressedPoint))
        }
        Err(_) => {
            return Err(invalid(KeyProblem::WrongLength {
                expected: POINT_LEN,
            }))
        }
    };
    let point = PublicKey::from_sec1_bytes(&bytes).map_err(|_| invalid(KeyProblem::NotOnCurve))?;
    Ok((point, bytes))
}

/// Why a message could not be encrypted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EncryptError {
    /// The plaintext would make the body longer than [`MAX_BODY_LEN`].
    #[error("the message is {len} bytes; at most {MAX_PLAINTEXT_LEN} fit in a push message")]
    TooLong {
        /// The plaintext's length.
        len: usize,
    },
    /// The cipher refused (it does not for inputs this small).
    #[error("the message could not be encrypted")]
    Cipher,
}

impl EncryptError {
    /// A stable short code for the error.
    pub fn reason(&self) -> &'static str {
        match self {
            EncryptError::TooLong { .. } => "too_long",
            EncryptError::Cipher => "cipher",
        }
    }
}

/// Encrypts `plaintext` for the browser holding `keys`, with a fresh
/// one-time key pair and salt: the body of the push request, to be sent
/// with `Content-Encoding: aes128gcm`.
///
/// The one-time key and its agreement with the browser's key are ring's
/// (already in the build through rustls): its P-256 is several times
/// faster than the pure-Rust one, and a push makes one of each.
pub fn encrypt(keys: &SubscriptionKeys, plaintext: &[u8]) -> Result<Vec<u8>, EncryptError> {
    use ring::agreement::{self, EphemeralPrivateKey, UnparsedPublicKey, ECDH_P256};
    let random = ring::rand::SystemRandom::new();
    let ephemeral =
        EphemeralPrivateKey::generate(&ECDH_P256, &random).map_err(|_| EncryptError::Cipher)?;
    let server_public: [u8; POINT_LEN] = ephemeral
        .compute_public_key()
        .map_err(|_| EncryptError::Cipher)?
        .as_ref()
        .try_into()
        .map_err(|_| EncryptError::Cipher)?;
    let browser = UnparsedPublicKey::new(&ECDH_P256, &keys.p256dh_bytes);
    let salt = <[u8; SALT_LEN]>::generate();
    agreement::agree_ephemeral(ephemeral, &browser, |shared| {
        seal(keys, plaintext, shared, &server_public, &salt)
    })
    .map_err(|_| EncryptError::Cipher)?
}

/// [`encrypt`] with the one-time key and the salt given, so that a test
/// can reproduce a published example.
#[cfg(test)]
fn encrypt_with(
    keys: &SubscriptionKeys,
    plaintext: &[u8],
    ephemeral: &SecretKey,
    salt: &[u8; SALT_LEN],
) -> Result<Vec<u8>, EncryptError> {
    let server_public = point_bytes(&ephemeral.public_key());
    let shared = ephemeral.diffie_hellman(&keys.browser_point());
    seal(
        keys,
        plaintext,
        shared.raw_secret_bytes(),
        &server_public,
        salt,
    )
}

/// The body, from the secret agreed with the browser's key
/// (`ecdh_secret`), the one-time public key it was agreed with and the
/// salt.
fn seal(
    keys: &SubscriptionKeys,
    plaintext: &[u8],
    ecdh_secret: &[u8],
    server_public: &[u8; POINT_LEN],
    salt: &[u8; SALT_LEN],
) -> Result<Vec<u8>, EncryptError> {
    if plaintext.len() > MAX_PLAINTEXT_LEN {
        return Err(EncryptError::TooLong {
            len: plaintext.len(),
        });
    }
    let ikm = input_keying_material(ecdh_secret, &keys.auth, &keys.p256dh_bytes, server_public)
        .ok_or(EncryptError::Cipher)?;
    let (key, nonce) = content_keys(&ikm, salt).ok_or(EncryptError::Cipher)?;

    let mut record = Vec::with_capacity(plaintext.len() + 1);
    record.extend_from_slice(plaintext);
    record.push(LAST_RECORD_DELIMITER);
    let cipher = Aes128Gcm::new(&key.into());
    let sealed = cipher
        .encrypt(&nonce.into(), record.as_slice())
        .map_err(|_| EncryptError::Cipher)?;

    let mut body = Vec::with_capacity(HEADER_LEN + sealed.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(POINT_LEN as u8);
    body.extend_from_slice(server_public);
    body.extend_from_slice(&sealed);
    Ok(body)
}

fn point_bytes(key: &PublicKey) -> [u8; POINT_LEN] {
    let mut bytes = [0; POINT_LEN];
    bytes.copy_from_slice(key.to_sec1_point(false).as_bytes());
    bytes
}

/// RFC 8291, section 3.4: the input keying material, from the ECDH secret
/// and `auth`, bound to both public keys.
fn input_keying_material(
    ecdh_secret: &[u8],
    auth: &[u8; AUTH_SECRET_LEN],
    browser_public: &[u8; POINT_LEN],
    server_public: &[u8; POINT_LEN],
) -> Option<[u8; 32]> {
    let mut ikm = [0; 32];
    Hkdf::<Sha256>::new(Some(auth), ecdh_secret)
        .expand_multi_info(
            &[b"WebPush: info\0", browser_public, server_public],
            &mut ikm,
        )
        .ok()?;
    Some(ikm)
}

/// RFC 8188, section 2.2: the content-encryption key and the nonce of the
/// first (here the only) record.
fn content_keys(ikm: &[u8; 32], salt: &[u8; SALT_LEN]) -> Option<([u8; 16], [u8; 12])> {
    let hkdf = Hkdf::<Sha256>::new(Some(salt), ikm);
    let (mut key, mut nonce) = ([0; 16], [0; 12]);
    hkdf.expand(b"Content-Encoding: aes128gcm\0", &mut key)
        .ok()?;
    hkdf.expand(b"Content-Encoding: nonce\0", &mut nonce).ok()?;
    Some((key, nonce))
}

/// A browser's private key for its subscription: test support, for the
/// end-to-end tests' local push service, which plays the browser and
/// decrypts what the server sent.
#[derive(Clone)]
pub struct UserAgentKey {
    secret: SecretKey,
}

impl std::fmt::Debug for UserAgentKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserAgentKey").finish_non_exhaustive()
    }
}

impl UserAgentKey {
    /// A private scalar in base64url, such as RFC 8291's example key.
    pub fn from_base64url(text: &str) -> Result<UserAgentKey, KeyError> {
        let invalid = |problem| KeyError::new("user agent private key", problem);
        let bytes = from_base64_lenient(text).ok_or(invalid(KeyProblem::NotBase64))?;
        if bytes.len() != 32 {
            return Err(invalid(KeyProblem::WrongLength { expected: 32 }));
        }
        let secret =
            SecretKey::from_slice(&bytes).map_err(|_| invalid(KeyProblem::InvalidPrivateKey))?;
        Ok(UserAgentKey { secret })
    }

    /// The public key, base64url: the subscription's `p256dh`.
    pub fn public_key_base64url(&self) -> String {
        to_base64url(&point_bytes(&self.secret.public_key()))
    }
}

/// Test support: the keys a browser makes when it subscribes, as a fake
/// browser needs them: its private key, and `p256dh` and `auth` in
/// base64url, as `PushSubscription.toJSON()` gives them.
pub fn generate_browser_keys() -> (UserAgentKey, String, String) {
    let key = UserAgentKey {
        secret: SecretKey::generate(),
    };
    let p256dh = key.public_key_base64url();
    let auth = to_base64url(&<[u8; AUTH_SECRET_LEN]>::generate());
    (key, p256dh, auth)
}

/// Why a body could not be decrypted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DecryptError {
    /// `auth` is not 16 bytes.
    #[error("the auth secret must be {AUTH_SECRET_LEN} bytes")]
    AuthSecretLength,
    /// Shorter than a header and an empty record.
    #[error("the body is too short")]
    Truncated,
    /// A record size below RFC 8188's minimum of 18.
    #[error("the record size is too small")]
    RecordSize,
    /// The key id is not a 65-byte point on P-256.
    #[error("the key id is not the sender's P-256 public key")]
    KeyId,
    /// More than one record (this module writes one).
    #[error("the body holds more than one record")]
    MultipleRecords,
    /// The tag does not match: another key, another secret, or a change.
    #[error("the record does not authenticate")]
    Authentication,
    /// The record does not end in the last record's delimiter.
    #[error("the record's padding is not valid")]
    Padding,
}

impl DecryptError {
    /// A stable short code for the error.
    pub fn reason(&self) -> &'static str {
        match self {
            DecryptError::AuthSecretLength => "auth_secret_length",
            DecryptError::Truncated => "truncated",
            DecryptError::RecordSize => "record_size",
            DecryptError::KeyId => "key_id",
            DecryptError::MultipleRecords => "multiple_records",
            DecryptError::Authentication => "authentication",
            DecryptError::Padding => "padding",
        }
    }
}

/// Test support: decrypts a push message body as the browser does, with
/// its private key and its `auth` secret (the 16 raw bytes).
pub fn decrypt(
    browser: &UserAgentKey,
    auth_secret: &[u8],
    body: &[u8],
) -> Result<Vec<u8>, DecryptError> {
    let auth = <&[u8; AUTH_SECRET_LEN]>::try_from(auth_secret)
        .map_err(|_| DecryptError::AuthSecretLength)?;
    if body.len() < HEADER_LEN + 1 + TAG_LEN {
        return Err(DecryptError::Truncated);
    }
    let (salt, rest) = body.split_at(SALT_LEN);
    let (record_size, rest) = rest.split_at(4);
    let (key_id_len, rest) = rest.split_at(1);
    let (key_id, sealed) = rest.split_at(POINT_LEN);
    let salt = <&[u8; SALT_LEN]>::try_from(salt).map_err(|_| DecryptError::Truncated)?;
    let record_size =
        u32::from_be_bytes(<[u8; 4]>::try_from(record_size).map_err(|_| DecryptError::Truncated)?);
    if record_size < 18 {
        return Err(DecryptError::RecordSize);
    }
    if usize::from(key_id_len[0]) != POINT_LEN {
        return Err(DecryptError::KeyId);
    }
    let (server_public, server_public_bytes) =
        parse_point(&to_base64url(key_id), "keyid").map_err(|_| DecryptError::KeyId)?;
    if usize::try_from(record_size).is_ok_and(|size| sealed.len() > size) {
        return Err(DecryptError::MultipleRecords);
    }

    let browser_public = point_bytes(&browser.secret.public_key());
    let shared = browser.secret.diffie_hellman(&server_public);
    let ikm = input_keying_material(
        shared.raw_secret_bytes(),
        auth,
        &browser_public,
        &server_public_bytes,
    )
    .ok_or(DecryptError::Authentication)?;
    let (key, nonce) = content_keys(&ikm, salt).ok_or(DecryptError::Authentication)?;
    let mut record = Aes128Gcm::new(&key.into())
        .decrypt(&nonce.into(), sealed)
        .map_err(|_| DecryptError::Authentication)?;
    // Padding is zeros after the delimiter.
    let end = record
        .iter()
        .rposition(|&byte| byte != 0)
        .ok_or(DecryptError::Padding)?;
    if record[end] != LAST_RECORD_DELIMITER {
        return Err(DecryptError::Padding);
    }
    record.truncate(end);
    Ok(record)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    // RFC 8291, Appendix A: the example message, its keys, and the
    // intermediate values and body the RFC publishes for it.
    const PLAINTEXT: &[u8] = b"When I grow up, I want to be a watermelon";
    const AS_PRIVATE: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
    const AS_PUBLIC: &str =
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
    const UA_PRIVATE: &str = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
    const UA_PUBLIC: &str =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const SALT: &str = "DGv6ra1nlYgDCS1FRnbzlw";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
    const ECDH_SECRET: &str = "kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs";
    const IKM: &str = "S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg";
    const CEK: &str = "oIhVW04MRdy2XN9CiKLxTg";
    const NONCE: &str = "4h_95klXJ5E_qnoN";
    const BODY: &str = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

    fn bytes(text: &str) -> Vec<u8> {
        from_base64_lenient(text).unwrap()
    }

    fn secret(text: &str) -> SecretKey {
        SecretKey::from_slice(&bytes(text)).unwrap()
    }

    fn rfc_keys() -> SubscriptionKeys {
        SubscriptionKeys::parse(UA_PUBLIC, AUTH).unwrap()
    }

    fn rfc_auth() -> [u8; AUTH_SECRET_LEN] {
        bytes(AUTH).try_into().unwrap()
    }

    #[test]
    fn the_rfc_example_is_reproduced_exactly() {
        let salt: [u8; SALT_LEN] = bytes(SALT).try_into().unwrap();
        let body = encrypt_with(&rfc_keys(), PLAINTEXT, &secret(AS_PRIVATE), &salt).unwrap();
        assert_eq!(to_base64url(&body), BODY);
    }

    #[test]
    fn each_intermediate_value_of_the_rfc_example_is_reproduced() {
        let server = secret(AS_PRIVATE);
        let server_public = point_bytes(&server.public_key());
        assert_eq!(to_base64url(&server_public), AS_PUBLIC);
        let keys = rfc_keys();
        let shared = server.diffie_hellman(&keys.browser_point());
        assert_eq!(to_base64url(shared.raw_secret_bytes()), ECDH_SECRET);
        let ikm = input_keying_material(
            shared.raw_secret_bytes(),
            &keys.auth,
            &keys.p256dh_bytes,
            &server_public,
        )
        .unwrap();
        assert_eq!(to_base64url(&ikm), IKM);
        let (key, nonce) = content_keys(&ikm, &bytes(SALT).try_into().unwrap()).unwrap();
        assert_eq!(to_base64url(&key), CEK);
        assert_eq!(to_base64url(&nonce), NONCE);
    }

    #[test]
    fn the_browser_decrypts_the_rfc_example() {
        let browser = UserAgentKey::from_base64url(UA_PRIVATE).unwrap();
        assert_eq!(browser.public_key_base64url(), UA_PUBLIC);
        let plaintext = decrypt(&browser, &rfc_auth(), &bytes(BODY)).unwrap();
        assert_eq!(plaintext, PLAINTEXT);
    }

    #[test]
    fn a_fresh_encryption_round_trips_and_never_repeats() {
        let (browser, p256dh, auth) = generate_browser_keys();
        let keys = SubscriptionKeys::parse(&p256dh, &auth).unwrap();
        assert_eq!(
            (keys.p256dh_base64url(), keys.auth_base64url()),
            (p256dh, auth.clone())
        );
        let message = br#"{"type":"your_move","game":"3f2c","version":12}"#;
        let first = encrypt(&keys, message).unwrap();
        let second = encrypt(&keys, message).unwrap();
        assert_ne!(first, second, "a fresh salt and key for every message");
        assert_ne!(first[..SALT_LEN], second[..SALT_LEN]);
        assert_eq!(first.len(), HEADER_LEN + message.len() + 1 + TAG_LEN);
        assert_eq!(first[16..20], RECORD_SIZE.to_be_bytes());
        assert_eq!(first[20], 65);
        for body in [&first, &second] {
            assert_eq!(decrypt(&browser, &bytes(&auth), body).unwrap(), message);
        }
        assert_eq!(
            decrypt(&browser, &bytes(&auth), &encrypt(&keys, b"").unwrap()).unwrap(),
            b""
        );
    }

    #[test]
    fn a_body_may_not_exceed_4096_bytes() {
        let (browser, p256dh, auth) = generate_browser_keys();
        let keys = SubscriptionKeys::parse(&p256dh, &auth).unwrap();
        assert_eq!(MAX_PLAINTEXT_LEN, 3993);
        let largest = vec![b'x'; MAX_PLAINTEXT_LEN];
        let body = encrypt(&keys, &largest).unwrap();
        assert_eq!(body.len(), MAX_BODY_LEN);
        assert_eq!(decrypt(&browser, &bytes(&auth), &body).unwrap(), largest);
        let error = encrypt(&keys, &[b'x'; MAX_PLAINTEXT_LEN + 1]).unwrap_err();
        assert_eq!(error, EncryptError::TooLong { len: 3994 });
        assert_eq!(error.reason(), "too_long");
    }

    #[test]
    fn decryption_refuses_what_the_browser_would() {
        let browser = UserAgentKey::from_base64url(UA_PRIVATE).unwrap();
        let auth = rfc_auth();
        let body = bytes(BODY);
        let refused = |auth: &[u8], body: &[u8]| decrypt(&browser, auth, body).unwrap_err();

        let mut changed = body.clone();
        *changed.last_mut().unwrap() ^= 1;
        assert_eq!(refused(&auth, &changed), DecryptError::Authentication);
        let mut other_auth = auth;
        other_auth[0] ^= 1;
        assert_eq!(refused(&other_auth, &body), DecryptError::Authentication);
        let (stranger, _, _) = generate_browser_keys();
        assert_eq!(
            decrypt(&stranger, &auth, &body).unwrap_err(),
            DecryptError::Authentication
        );
        assert_eq!(refused(&auth[..15], &body), DecryptError::AuthSecretLength);
        assert_eq!(
            refused(&auth, &body[..HEADER_LEN + 16]),
            DecryptError::Truncated
        );

        let mut small_records = body.clone();
        small_records[16..20].copy_from_slice(&17u32.to_be_bytes());
        assert_eq!(refused(&auth, &small_records), DecryptError::RecordSize);
        let mut two_records = body.clone();
        two_records[16..20].copy_from_slice(&20u32.to_be_bytes());
        assert_eq!(refused(&auth, &two_records), DecryptError::MultipleRecords);
        let mut no_point = body.clone();
        no_point[20] = 64;
        assert_eq!(refused(&auth, &no_point), DecryptError::KeyId);
        let mut off_curve = body.clone();
        off_curve[HEADER_LEN - 1] ^= 1;
        assert_eq!(refused(&auth, &off_curve), DecryptError::KeyId);

        // A record whose plaintext ends in 0x01 (a record that is not the
        // last) is not a whole message.
        let keys = rfc_keys();
        let salt = [9; SALT_LEN];
        let server = secret(AS_PRIVATE);
        let server_public = point_bytes(&server.public_key());
        let shared = server.diffie_hellman(&keys.browser_point());
        let ikm = input_keying_material(
            shared.raw_secret_bytes(),
            &keys.auth,
            &keys.p256dh_bytes,
            &server_public,
        )
        .unwrap();
        let (key, nonce) = content_keys(&ikm, &salt).unwrap();
        let sealed = Aes128Gcm::new(&key.into())
            .encrypt(&nonce.into(), &b"half a message\x01"[..])
            .unwrap();
        let mut not_last = salt.to_vec();
        not_last.extend_from_slice(&RECORD_SIZE.to_be_bytes());
        not_last.push(65);
        not_last.extend_from_slice(&server_public);
        not_last.extend_from_slice(&sealed);
        assert_eq!(refused(&auth, &not_last), DecryptError::Padding);
    }

    #[test]
    fn subscription_keys_are_checked_field_by_field() {
        let refused = |p256dh: &str, auth: &str| {
            let error = SubscriptionKeys::parse(p256dh, auth).unwrap_err();
            (error.field(), error.reason())
        };
        let point = bytes(UA_PUBLIC);
        // Padded and in the standard alphabet, as some clients send them.
        let padded = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &point);
        assert_eq!(
            SubscriptionKeys::parse(&padded, "BTBZMqHH6r4Tts7J/aSIgg==").unwrap(),
            rfc_keys()
        );

        assert_eq!(refused("%%%", AUTH), ("keys.p256dh", "not_base64url"));
        assert_eq!(
            refused(&to_base64url(&point[..64]), AUTH),
            ("keys.p256dh", "wrong_length")
        );
        let mut compressed = vec![0x02 + (point[64] & 1)];
        compressed.extend_from_slice(&point[1..33]);
        assert_eq!(
            refused(&to_base64url(&compressed), AUTH),
            ("keys.p256dh", "not_uncompressed_point")
        );
        let mut hybrid = point.clone();
        hybrid[0] = 0x06;
        assert_eq!(
            refused(&to_base64url(&hybrid), AUTH),
            ("keys.p256dh", "not_uncompressed_point")
        );
        let mut off_curve = point.clone();
        off_curve[64] ^= 1;
        assert_eq!(
            refused(&to_base64url(&off_curve), AUTH),
            ("keys.p256dh", "not_on_curve")
        );
        // x and y beyond the field's prime are no point either.
        let mut beyond = vec![0x04];
        beyond.extend_from_slice(&[0xff; 64]);
        assert_eq!(
            refused(&to_base64url(&beyond), AUTH),
            ("keys.p256dh", "not_on_curve")
        );

        assert_eq!(refused(UA_PUBLIC, "%%%"), ("keys.auth", "not_base64url"));
        assert_eq!(
            refused(UA_PUBLIC, &to_base64url(&[1; 15])),
            ("keys.auth", "wrong_length")
        );
        assert_eq!(
            refused(UA_PUBLIC, &to_base64url(&[1; 17])),
            ("keys.auth", "wrong_length")
        );
        assert_eq!(
            SubscriptionKeys::parse(UA_PUBLIC, &to_base64url(&[1; 17]))
                .unwrap_err()
                .to_string(),
            "keys.auth must decode to 16 bytes"
        );
        let debug = format!("{:?}", rfc_keys());
        assert!(debug.contains(UA_PUBLIC) && !debug.contains(AUTH));
    }
}
