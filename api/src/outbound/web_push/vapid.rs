//! VAPID (RFC 8292): how the server proves to a push service that it is
//! the application server a subscription was made for.
//!
//! The browser subscribed with the server's public key
//! (`applicationServerKey`); each push request then carries
//! `Authorization: vapid t=<JWT>, k=<that public key>`, where the JWT is
//! signed with ES256 (ECDSA on P-256 with SHA-256) by the matching private
//! key and claims the push service's origin (`aud`), an expiry (`exp`, at
//! most 24 hours ahead) and a contact for the operator (`sub`, a `mailto:`
//! or `https:` URL).

use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use p256::elliptic_curve::sec1::ToSec1Point;
use p256::elliptic_curve::Generate;
use p256::SecretKey;
use serde::{Deserialize, Serialize};

use super::{from_base64_lenient, to_base64url, KeyError, KeyProblem};

/// The longest a token may live: a push service refuses an `exp` more than
/// 24 hours ahead (RFC 8292, section 2). Choosing `exp` is the caller's
/// job, as this module reads no clock.
pub const MAX_TOKEN_LIFETIME_SECS: i64 = 86_400;

/// The field a configured private key comes from, named in its errors.
const PRIVATE_KEY_FIELD: &str = "VAPID_PRIVATE_KEY";

/// The JOSE header of every token, in the order RFC 8292's example has it.
const JWT_HEADER: &str = r#"{"typ":"JWT","alg":"ES256"}"#;

/// The server's VAPID key pair: an ES256 signing key and its public key.
#[derive(Clone)]
pub struct VapidKey {
    signing: SigningKey,
    /// The public key as the 65-byte uncompressed point, base64url.
    public: String,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VapidKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl VapidKey {
    /// A fresh key pair from the operating system's random source.
    pub fn generate() -> VapidKey {
        VapidKey::from_secret(&SecretKey::generate())
    }

    /// The key an operator configures (`VAPID_PRIVATE_KEY`): the 32-byte
    /// private scalar in base64url (padded or not, the standard alphabet
    /// too), as web-push tools print it, or a PEM document (PKCS#8
    /// `PRIVATE KEY` or SEC1 `EC PRIVATE KEY`) as OpenSSL writes it.
    pub fn from_base64url(text: &str) -> Result<VapidKey, KeyError> {
        let text = text.trim();
        let invalid = |problem| KeyError::new(PRIVATE_KEY_FIELD, problem);
        let secret = if text.starts_with("-----BEGIN") {
            SecretKey::from_pem(text).map_err(|_| invalid(KeyProblem::InvalidPrivateKey))?
        } else {
            let bytes = from_base64_lenient(text).ok_or(invalid(KeyProblem::NotBase64))?;
            if bytes.len() != 32 {
                return Err(invalid(KeyProblem::WrongLength { expected: 32 }));
            }
            SecretKey::from_slice(&bytes).map_err(|_| invalid(KeyProblem::InvalidPrivateKey))?
        };
        Ok(VapidKey::from_secret(&secret))
    }

    fn from_secret(secret: &SecretKey) -> VapidKey {
        let public = secret.public_key().to_sec1_point(false);
        VapidKey {
            signing: SigningKey::from(secret),
            public: to_base64url(public.as_bytes()),
        }
    }

    /// The private scalar, base64url: what [`VapidKey::from_base64url`]
    /// reads, for keeping a generated key.
    pub fn to_base64url(&self) -> String {
        to_base64url(&SecretKey::from(&self.signing).to_bytes())
    }

    /// The public key, the 65-byte uncompressed point in base64url: the
    /// browser's `applicationServerKey`, and the `k` of every header.
    pub fn public_key_base64url(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header value for a push request to `endpoint`:
    /// `vapid t=<JWT>, k=<public key>`, the JWT claiming the endpoint's
    /// origin, `expires_at_unix` and `subject` (a `mailto:` or `https:`
    /// URL). Keep `expires_at_unix` within [`MAX_TOKEN_LIFETIME_SECS`] of
    /// now; a token may be reused for the same origin until then.
    pub fn authorization(
        &self,
        endpoint: &str,
        subject: &str,
        expires_at_unix: i64,
    ) -> Result<String, VapidError> {
        let claims = VapidClaims {
            aud: audience(endpoint)?,
            exp: expires_at_unix,
            sub: check_subject(subject)?.to_owned(),
        };
        Ok(format!(
            "vapid t={}, k={}",
            self.token(&claims),
            self.public
        ))
    }

    /// The signed JWT for `claims`.
    fn token(&self, claims: &VapidClaims) -> String {
        // Serialising three plain fields cannot fail; a string stands in
        // for the impossible error rather than a panic.
        let claims = serde_json::to_string(claims).unwrap_or_default();
        let signing_input = format!(
            "{}.{}",
            to_base64url(JWT_HEADER.as_bytes()),
            to_base64url(claims.as_bytes())
        );
        let signature: Signature = self.signing.sign(signing_input.as_bytes());
        format!("{signing_input}.{}", to_base64url(&signature.to_bytes()))
    }
}

/// The claims of a VAPID token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VapidClaims {
    /// The push service's origin: `https://host[:port]`, no path.
    pub aud: String,
    /// When the token expires, in seconds since the Unix epoch.
    pub exp: i64,
    /// The operator's contact, `mailto:` or `https:` (empty if absent).
    #[serde(default)]
    pub sub: String,
}

/// Why a token could not be made or was not accepted.
/// [`VapidError::reason`] is a stable short code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VapidError {
    /// The endpoint is not an `http` or `https` URL with a host.
    #[error("the push endpoint is not an http or https URL")]
    InvalidEndpoint,
    /// The subject is neither a `mailto:` nor an `https:` URL.
    #[error("the VAPID subject must be a mailto: or https: URL")]
    InvalidSubject,
    /// The header or the token inside it is not of the expected form.
    #[error("the Authorization header is not a well-formed vapid token")]
    Malformed,
    /// The `k` of the header is not the expected public key.
    #[error("the token is for another public key")]
    WrongKey,
    /// The signature does not verify with the public key.
    #[error("the token's signature is not valid")]
    BadSignature,
    /// `exp` has passed.
    #[error("the token has expired")]
    Expired,
    /// `exp` is more than 24 hours ahead.
    #[error("the token expires more than 24 hours ahead")]
    TooFarAhead,
}

impl VapidError {
    /// A stable short code for the error.
    pub fn reason(&self) -> &'static str {
        match self {
            VapidError::InvalidEndpoint => "invalid_endpoint",
            VapidError::InvalidSubject => "invalid_subject",
            VapidError::Malformed => "malformed",
            VapidError::WrongKey => "wrong_key",
            VapidError::BadSignature => "bad_signature",
            VapidError::Expired => "expired",
            VapidError::TooFarAhead => "too_far_ahead",
        }
    }
}

/// The `aud` for a push endpoint: its origin, `scheme://host[:port]`
/// (the port only where it is not the scheme's default).
pub fn audience(endpoint: &str) -> Result<String, VapidError> {
    let url = url::Url::parse(endpoint).map_err(|_| VapidError::InvalidEndpoint)?;
    if !matches!(url.scheme(), "https" | "http") || url.host().is_none() {
        return Err(VapidError::InvalidEndpoint);
    }
    Ok(url.origin().ascii_serialization())
}

/// `subject` if it is a `mailto:` address or an `https:` URL, as RFC 8292
/// asks of `sub`; configuration checks `VAPID_SUBJECT` with this.
pub fn check_subject(subject: &str) -> Result<&str, VapidError> {
    let valid = match subject.split_once(':') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("mailto") => rest.contains('@'),
        Some((scheme, _)) if scheme.eq_ignore_ascii_case("https") => {
            url::Url::parse(subject).is_ok_and(|url| url.host().is_some())
        }
        _ => false,
    };
    if valid && !subject.chars().any(char::is_whitespace) {
        Ok(subject)
    } else {
        Err(VapidError::InvalidSubject)
    }
}

/// Checks a VAPID `Authorization` header as a push service does: the
/// `vapid` scheme, `k` equal to `expected_public_key_b64`, an ES256 JWT
/// signed by that key, and an `exp` after `now_unix` but at most
/// [`MAX_TOKEN_LIFETIME_SECS`] ahead of it. Returns the claims; comparing
/// `aud` with its own origin is the caller's part.
///
/// Test support: the end-to-end tests' local push service uses this to
/// hold the server to the RFC; the server itself never verifies a token.
pub fn verify_vapid(
    header_value: &str,
    expected_public_key_b64: &str,
    now_unix: i64,
) -> Result<VapidClaims, VapidError> {
    let (scheme, parameters) = header_value
        .trim()
        .split_once(char::is_whitespace)
        .ok_or(VapidError::Malformed)?;
    if !scheme.eq_ignore_ascii_case("vapid") {
        return Err(VapidError::Malformed);
    }
    let (mut token, mut key) = (None, None);
    for parameter in parameters.split(',') {
        let (name, value) = parameter
            .trim()
            .split_once('=')
            .ok_or(VapidError::Malformed)?;
        let slot = match name.trim().to_ascii_lowercase().as_str() {
            "t" => &mut token,
            "k" => &mut key,
            _ => continue,
        };
        if slot.replace(value.trim()).is_some() {
            return Err(VapidError::Malformed);
        }
    }
    let (token, key) = token.zip(key).ok_or(VapidError::Malformed)?;

    let expected = from_base64_lenient(expected_public_key_b64).ok_or(VapidError::WrongKey)?;
    if from_base64_lenient(key).as_deref() != Some(expected.as_slice()) {
        return Err(VapidError::WrongKey);
    }
    let verifying_key =
        VerifyingKey::from_sec1_bytes(&expected).map_err(|_| VapidError::WrongKey)?;

    let mut segments = token.split('.');
    let (Some(header), Some(claims), Some(signature), None) = (
        segments.next(),
        segments.next(),
        segments.next(),
        segments.next(),
    ) else {
        return Err(VapidError::Malformed);
    };
    let json = |segment: &str| -> Result<serde_json::Value, VapidError> {
        let bytes = from_base64_lenient(segment).ok_or(VapidError::Malformed)?;
        serde_json::from_slice(&bytes).map_err(|_| VapidError::Malformed)
    };
    let header = json(header.trim())?;
    if header.get("alg").and_then(|alg| alg.as_str()) != Some("ES256") {
        return Err(VapidError::Malformed);
    }
    let signature = from_base64_lenient(signature)
        .and_then(|bytes| Signature::from_slice(&bytes).ok())
        .ok_or(VapidError::BadSignature)?;
    let signing_input = &token[..token.rfind('.').unwrap_or_default()];
    verifying_key
        .verify(signing_input.as_bytes(), &signature)
        .map_err(|_| VapidError::BadSignature)?;

    let claims: VapidClaims =
        serde_json::from_value(json(claims)?).map_err(|_| VapidError::Malformed)?;
    if claims.exp <= now_unix {
        return Err(VapidError::Expired);
    }
    if claims.exp > now_unix.saturating_add(MAX_TOKEN_LIFETIME_SECS) {
        return Err(VapidError::TooFarAhead);
    }
    Ok(claims)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    // RFC 8292, section 2.4: the example header, and the public key that
    // signed it, for a push service at https://push.example.net.
    const RFC_TOKEN: &str = "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJhdWQiOiJodHRwczovL3B1c2guZXhhbXBsZS5uZXQiLCJleHAiOjE0NTM1MjM3NjgsInN1YiI6Im1haWx0bzpwdXNoQGV4YW1wbGUuY29tIn0.i3CYb7t4xfxCDquptFOepC9GAu_HLGkMlMuCGSK2rpiUfnK9ojFwDXb1JrErtmysazNjjvW2L9OkSSHzvoD1oA";
    const RFC_KEY: &str =
        "BA1Hxzyi1RUM1b5wjxsn7nGxAszw2u61m164i3MrAIxHF6YK5h4SDYic-dRuU_RCPCfA5aq9ojSwk5Y2EmClBPs";
    const RFC_EXP: i64 = 1_453_523_768;

    fn rfc_header() -> String {
        format!("vapid t={RFC_TOKEN}, k={RFC_KEY}")
    }

    #[test]
    fn the_rfc_example_verifies_within_its_lifetime_only() {
        let claims = verify_vapid(&rfc_header(), RFC_KEY, RFC_EXP - 3_600).unwrap();
        assert_eq!(
            claims,
            VapidClaims {
                aud: "https://push.example.net".to_owned(),
                exp: RFC_EXP,
                sub: "mailto:push@example.com".to_owned(),
            }
        );
        assert_eq!(
            verify_vapid(&rfc_header(), RFC_KEY, RFC_EXP),
            Err(VapidError::Expired)
        );
        assert_eq!(
            verify_vapid(
                &rfc_header(),
                RFC_KEY,
                RFC_EXP - MAX_TOKEN_LIFETIME_SECS - 1
            ),
            Err(VapidError::TooFarAhead)
        );
        // The parameters in the other order, other spacing, the scheme in
        // capitals, and a padded key are all the same header.
        let reordered = format!("Vapid  k={RFC_KEY}=,t={RFC_TOKEN}");
        assert!(verify_vapid(&reordered, RFC_KEY, RFC_EXP - 1).is_ok());
    }

    #[test]
    fn tokens_sign_the_same_bytes_as_the_rfc_example() {
        // Same claims, same key order: the signing input is the RFC's,
        // byte for byte (the signature differs, as it is the RFC's key's).
        let key = VapidKey::generate();
        let header = key
            .authorization(
                "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
                "mailto:push@example.com",
                RFC_EXP,
            )
            .unwrap();
        let token = header
            .strip_prefix("vapid t=")
            .unwrap()
            .split(", k=")
            .next()
            .unwrap();
        let rfc_input = &RFC_TOKEN[..RFC_TOKEN.rfind('.').unwrap()];
        assert_eq!(&token[..token.rfind('.').unwrap()], rfc_input);
    }

    #[test]
    fn an_authorization_verifies_with_the_served_public_key() {
        let key = VapidKey::generate();
        let public = key.public_key_base64url();
        let raw = from_base64_lenient(public).unwrap();
        assert_eq!((raw.len(), raw[0]), (65, 0x04));
        assert!(!public.contains('='));

        let now = 1_700_000_000;
        let header = key
            .authorization(
                "https://fcm.example.com:8443/wp/abc?x=1",
                "https://stratego.example/contact",
                now + 12 * 3_600,
            )
            .unwrap();
        assert!(header.ends_with(&format!(", k={public}")));
        let claims = verify_vapid(&header, public, now).unwrap();
        assert_eq!(claims.aud, "https://fcm.example.com:8443");
        assert_eq!(claims.exp, now + 12 * 3_600);
        assert_eq!(claims.sub, "https://stratego.example/contact");

        // Another server's key, a changed claim, a cut signature.
        let other = VapidKey::generate();
        assert_eq!(
            verify_vapid(&header, other.public_key_base64url(), now),
            Err(VapidError::WrongKey)
        );
        let forged_claims = to_base64url(
            br#"{"aud":"https://fcm.example.com:8443","exp":1700043201,"sub":"mailto:x@y.z"}"#,
        );
        let parts: Vec<&str> = header.split('.').collect();
        let forged = format!("{}.{forged_claims}.{}", parts[0], parts[2]);
        assert_eq!(
            verify_vapid(&forged, public, now),
            Err(VapidError::BadSignature)
        );
        let cut = header.replacen(", k=", "AA, k=", 1);
        assert_eq!(
            verify_vapid(&cut, public, now),
            Err(VapidError::BadSignature)
        );
    }

    #[test]
    fn malformed_headers_are_refused() {
        let key = VapidKey::generate();
        let public = key.public_key_base64url();
        for header in [
            "",
            "vapid",
            "Bearer abc",
            &format!("WebPush {RFC_TOKEN}"),
            &format!("vapid t={RFC_TOKEN}"),
            &format!("vapid t=a.b, k={public}"),
            &format!("vapid t=a.b.c.d, k={public}"),
            &format!("vapid t=x, t=y, k={public}"),
        ] {
            let error = verify_vapid(header, public, 0).unwrap_err();
            assert!(
                matches!(error, VapidError::Malformed | VapidError::WrongKey),
                "{header:?}: {error:?}"
            );
        }
        // A token whose header names another algorithm.
        let none_header = to_base64url(br#"{"typ":"JWT","alg":"none"}"#);
        let body = RFC_TOKEN.split('.').nth(1).unwrap();
        let unsigned = format!("vapid t={none_header}.{body}., k={RFC_KEY}");
        assert_eq!(
            verify_vapid(&unsigned, RFC_KEY, RFC_EXP - 1),
            Err(VapidError::Malformed)
        );
    }

    #[test]
    fn the_audience_is_the_origin_of_the_endpoint() {
        let aud = |endpoint: &str| audience(endpoint);
        assert_eq!(
            aud("https://push.example.net/p/JzLQ3raZ").unwrap(),
            "https://push.example.net"
        );
        assert_eq!(
            aud("https://Push.Example.NET:443/p").unwrap(),
            "https://push.example.net"
        );
        assert_eq!(
            aud("http://127.0.0.1:9000/push/1").unwrap(),
            "http://127.0.0.1:9000"
        );
        assert_eq!(aud("https://[::1]:8443/a").unwrap(), "https://[::1]:8443");
        for endpoint in [
            "",
            "push.example.net/p",
            "mailto:a@b.c",
            "ftp://push.example.net/",
        ] {
            assert_eq!(
                aud(endpoint),
                Err(VapidError::InvalidEndpoint),
                "{endpoint}"
            );
        }
    }

    #[test]
    fn the_subject_is_a_mailto_or_https_url() {
        for subject in [
            "mailto:admin@stratego.example",
            "MAILTO:admin@stratego.example",
            "https://stratego.example/",
        ] {
            assert_eq!(check_subject(subject), Ok(subject));
        }
        for subject in [
            "",
            "admin@stratego.example",
            "mailto:",
            "mailto:nobody",
            "http://stratego.example/",
            "https://",
            "mailto:a b@c.d",
        ] {
            assert_eq!(
                check_subject(subject),
                Err(VapidError::InvalidSubject),
                "{subject:?}"
            );
        }
        let key = VapidKey::generate();
        assert_eq!(
            key.authorization("https://push.example.net/x", "nobody", 1),
            Err(VapidError::InvalidSubject)
        );
        assert_eq!(
            key.authorization("not a url", "mailto:a@b.c", 1),
            Err(VapidError::InvalidEndpoint)
        );
    }

    #[test]
    fn a_private_key_round_trips_and_gives_the_published_public_key() {
        // RFC 8291, Appendix A: the application server's key pair.
        let key = VapidKey::from_base64url("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw").unwrap();
        assert_eq!(
            key.public_key_base64url(),
            "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        );
        assert_eq!(
            key.to_base64url(),
            "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        );
        // Padded, in the standard alphabet, with a line break after it.
        let standard = "yfWPiYE+n46HLnH0KqZOF1fJJU3MYrct3AELtAQ+oRw=\n";
        let again = VapidKey::from_base64url(standard).unwrap();
        assert_eq!(again.public_key_base64url(), key.public_key_base64url());

        let generated = VapidKey::generate();
        let restored = VapidKey::from_base64url(&generated.to_base64url()).unwrap();
        assert_eq!(
            restored.public_key_base64url(),
            generated.public_key_base64url()
        );
        assert!(!format!("{generated:?}").contains(&generated.to_base64url()));
    }

    #[test]
    fn a_pem_private_key_is_read() {
        // Made for this test with `openssl ecparam -name prime256v1 -genkey
        // -noout` (SEC1) and `openssl pkcs8 -topk8 -nocrypt` (PKCS#8); the
        // public key is what `openssl ec -pubout -conv_form uncompressed`
        // printed, in base64url.
        const SEC1: &str = "-----BEGIN EC PRIVATE KEY-----
MHcCAQEEINsFSxBHZ3y9AWnCyPvd0bOoOYCCwxkztvPgQlM2vrWRoAoGCCqGSM49
AwEHoUQDQgAEujxROiw7sQDrEu4g4cw1VS0H1U/ddozCpHH1GbhQN707u7enAwfX
JMlijr8QRCyoH8dlCnxEwSJPPys3zo1wiQ==
-----END EC PRIVATE KEY-----";
        const PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg2wVLEEdnfL0BacLI
+93Rs6g5gILDGTO28+BCUza+tZGhRANCAAS6PFE6LDuxAOsS7iDhzDVVLQfVT912
jMKkcfUZuFA3vTu7t6cDB9ckyWKOvxBELKgfx2UKfETBIk8/KzfOjXCJ
-----END PRIVATE KEY-----";
        const PUBLIC: &str =
            "BLo8UTosO7EA6xLuIOHMNVUtB9VP3XaMwqRx9Rm4UDe9O7u3pwMH1yTJYo6_EEQsqB_HZQp8RMEiTz8rN86NcIk";
        for pem in [SEC1, PKCS8] {
            let key = VapidKey::from_base64url(pem).unwrap();
            assert_eq!(key.public_key_base64url(), PUBLIC);
        }
        let broken = SEC1.replace("MHcC", "MHcD");
        assert_eq!(
            VapidKey::from_base64url(&broken).unwrap_err().reason(),
            "invalid_private_key"
        );
    }

    #[test]
    fn unusable_private_keys_say_why() {
        let problem = |text: &str| VapidKey::from_base64url(text).unwrap_err();
        let error = problem("not*base64");
        assert_eq!(
            (error.field(), error.reason()),
            ("VAPID_PRIVATE_KEY", "not_base64url")
        );
        assert_eq!(problem("").reason(), "wrong_length");
        assert_eq!(problem(&to_base64url(&[7; 31])).reason(), "wrong_length");
        assert_eq!(
            problem(&to_base64url(&[0; 32])).reason(),
            "invalid_private_key"
        );
        // At or above the group order.
        assert_eq!(
            problem(&to_base64url(&[0xff; 32])).reason(),
            "invalid_private_key"
        );
        assert!(!problem("secret*value").to_string().contains("secret"));
    }
}
