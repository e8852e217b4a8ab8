//! Access tokens (short-lived HS256 JWTs) and refresh tokens (random, kept
//! only as a SHA-256 hash).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use base64::Engine;
use chrono::Duration;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::clock::Clock;
use crate::config::Config;

/// The only signing algorithm issued or accepted.
pub const ALGORITHM: Algorithm = Algorithm::HS256;

/// What an access token says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Claims {
    /// the user's id
    pub sub: String,
    /// the username, for display
    pub name: String,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
    /// unique per token
    pub jti: String,
    /// the session (login) the token belongs to; ending the session
    /// refuses its tokens (docs/accounts.md)
    pub sid: String,
}

/// The identity proven by a valid access token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenIdentity {
    pub user_id: Uuid,
    pub username: String,
    pub session: Uuid,
}

/// Why an access token was refused (for logs; clients get a generic text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("the access token has expired")]
    Expired,
    #[error("the access token is invalid")]
    Invalid,
}

/// How far in the future an access token's `iat` may be (clocks of
/// replicas differ a little).
const ISSUED_AT_LEEWAY_SECONDS: i64 = 5;

/// How many verified access tokens are remembered (about 400 bytes each);
/// when full, all are forgotten and verified again on their next use.
const VERIFIED_TOKENS: usize = 1024;

/// What a token whose signature and claims were checked proved, and the
/// times that must be checked again on every use.
#[derive(Clone)]
struct Verified {
    identity: TokenIdentity,
    iat: i64,
    exp: i64,
}

pub struct TokenService {
    /// Tokens already verified, by their exact text: checking the signature
    /// and parsing the claims again on every request was 8% of a view's
    /// instructions (BENCHMARKS.md, "Instructions per request"). The key
    /// is fixed for the life of the process, so a token that verified once
    /// always would; its times are still checked on every use.
    verified: Mutex<HashMap<String, Verified>>,
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    issuer: String,
    audience: String,
    access_ttl: Duration,
    clock: Arc<dyn Clock>,
}

impl TokenService {
    pub fn new(
        config: &Config,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, jsonwebtoken::errors::Error> {
        let secret = config.jwt_secret.expose().as_bytes();
        let encoding = EncodingKey::from_secret(secret)?;
        let decoding = DecodingKey::from_secret(secret)?;
        // Pinned to HS256: a token naming any other algorithm, `none`
        // included, is refused before its signature is looked at.
        let mut validation = Validation::new(ALGORITHM);
        validation.set_issuer(&[&config.jwt_issuer]);
        validation.set_audience(&[&config.jwt_audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        // (`sid` is required too: `Claims` has no default for it, so a
        // token without one does not decode.)
        // Expiry is checked against the injected clock below, not the
        // system time inside the library.
        validation.validate_exp = false;
        validation.validate_nbf = false;
        validation.leeway = 0;
        Ok(Self {
            verified: Mutex::new(HashMap::new()),
            encoding,
            decoding,
            validation,
            issuer: config.jwt_issuer.clone(),
            audience: config.jwt_audience.clone(),
            access_ttl: config.access_token_ttl,
            clock,
        })
    }

    /// Lifetime of an access token in seconds (the `expires_in` field).
    pub fn access_ttl_seconds(&self) -> i64 {
        self.access_ttl.num_seconds()
    }

    pub fn issue(
        &self,
        user_id: Uuid,
        username: &str,
        session: Uuid,
    ) -> Result<String, jsonwebtoken::errors::Error> {
        let now = self.clock.now().timestamp();
        let claims = Claims {
            sub: user_id.to_string(),
            name: username.to_owned(),
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            iat: now,
            exp: now + self.access_ttl.num_seconds(),
            jti: Uuid::new_v4().to_string(),
            sid: session.to_string(),
        };
        jsonwebtoken::encode(&Header::new(ALGORITHM), &claims, &self.encoding)
    }

    pub fn verify(&self, token: &str) -> Result<TokenIdentity, TokenError> {
        let now = self.clock.now().timestamp();
        let known = self
            .verified
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(token)
            .cloned();
        let verified = match known {
            Some(verified) => verified,
            None => {
                let verified = self.check_signature(token)?;
                let mut known = self.verified.lock().unwrap_or_else(PoisonError::into_inner);
                if known.len() >= VERIFIED_TOKENS {
                    known.clear();
                }
                known.insert(token.to_owned(), verified.clone());
                verified
            }
        };
        if verified.exp <= now {
            return Err(TokenError::Expired);
        }
        // A token this server signed was issued in the past (give or take
        // the clock difference between replicas) for at most the configured
        // lifetime; anything else was forged with the key or minted by a
        // misconfigured clock, and is refused.
        if verified.iat > now + ISSUED_AT_LEEWAY_SECONDS
            || verified.exp - verified.iat > self.access_ttl.num_seconds()
        {
            return Err(TokenError::Invalid);
        }
        Ok(verified.identity)
    }

    /// The signature, algorithm, issuer and audience of `token`, and what
    /// it says (times not yet checked).
    fn check_signature(&self, token: &str) -> Result<Verified, TokenError> {
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|e| match e.kind() {
                ErrorKind::ExpiredSignature => TokenError::Expired,
                _ => TokenError::Invalid,
            })?;
        let claims = data.claims;
        let user_id = Uuid::parse_str(&claims.sub).map_err(|_| TokenError::Invalid)?;
        let session = Uuid::parse_str(&claims.sid).map_err(|_| TokenError::Invalid)?;
        Ok(Verified {
            identity: TokenIdentity {
                user_id,
                username: claims.name,
                session,
            },
            iat: claims.iat,
            exp: claims.exp,
        })
    }
}

/// A new refresh token: 256 random bits, URL-safe. Returns the token (for
/// the client) and its hash (for the database).
pub fn new_refresh_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let hash = hash_refresh_token(&token);
    (token, hash)
}

/// SHA-256, hex. A fast hash is enough: the token has 256 bits of entropy,
/// so there is nothing to brute-force, and lookups stay cheap.
pub fn hash_refresh_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::clock::ManualClock;
    use crate::config::{DatabaseUrl, Secret};

    fn service(clock: Arc<ManualClock>) -> TokenService {
        let config = Config::new(
            DatabaseUrl::Sqlite("unused.db".into()),
            Secret::new("0123456789abcdef0123456789abcdef"),
        );
        TokenService::new(&config, clock).unwrap()
    }

    #[test]
    fn issued_tokens_verify_until_they_expire() {
        let clock = ManualClock::starting_now();
        let tokens = service(clock.clone());
        let (id, session) = (Uuid::new_v4(), Uuid::new_v4());
        let token = tokens.issue(id, "ann", session).unwrap();
        let who = tokens.verify(&token).unwrap();
        assert_eq!(
            who,
            TokenIdentity {
                user_id: id,
                username: "ann".into(),
                session,
            }
        );
        clock.advance(Duration::minutes(15) - Duration::seconds(1));
        assert!(tokens.verify(&token).is_ok());
        clock.advance(Duration::seconds(1));
        assert_eq!(tokens.verify(&token), Err(TokenError::Expired));
    }

    /// A token signed with the right key but claiming to be issued in the
    /// future, or to live longer than the configured lifetime, is refused.
    #[test]
    fn tokens_from_the_future_or_living_too_long_are_refused() {
        let clock = ManualClock::starting_now();
        let tokens = service(clock.clone());
        let now = clock.now().timestamp();
        let sign = |iat: i64, exp: i64| {
            let claims = Claims {
                sub: Uuid::new_v4().to_string(),
                name: "ann".into(),
                iss: tokens.issuer.clone(),
                aud: tokens.audience.clone(),
                iat,
                exp,
                jti: Uuid::new_v4().to_string(),
                sid: Uuid::new_v4().to_string(),
            };
            jsonwebtoken::encode(&Header::new(ALGORITHM), &claims, &tokens.encoding).unwrap()
        };
        let ttl = tokens.access_ttl.num_seconds();
        assert!(tokens.verify(&sign(now, now + ttl)).is_ok());
        assert!(
            tokens.verify(&sign(now + 3, now + ttl)).is_ok(),
            "within the leeway"
        );
        assert_eq!(
            tokens.verify(&sign(now + 60, now + 60 + ttl)),
            Err(TokenError::Invalid)
        );
        assert_eq!(
            tokens.verify(&sign(now, now + ttl + 1)),
            Err(TokenError::Invalid)
        );
        assert_eq!(
            tokens.verify(&sign(now - 10, now + 100 * ttl)),
            Err(TokenError::Invalid)
        );
    }

    /// Tokens of the first version carried no session id; they cannot be
    /// ended, so they are refused (the client refreshes and gets one with).
    #[test]
    fn a_token_without_a_session_is_refused() {
        let clock = ManualClock::starting_now();
        let tokens = service(clock.clone());
        let now = clock.now().timestamp();
        let claims = serde_json::json!({
            "sub": Uuid::new_v4().to_string(), "name": "ann",
            "iss": tokens.issuer, "aud": tokens.audience,
            "iat": now, "exp": now + 60, "jti": Uuid::new_v4().to_string(),
        });
        let token =
            jsonwebtoken::encode(&Header::new(ALGORITHM), &claims, &tokens.encoding).unwrap();
        assert_eq!(tokens.verify(&token), Err(TokenError::Invalid));
    }

    #[test]
    fn a_remembered_token_is_still_the_only_one_accepted() {
        let clock = ManualClock::starting_now();
        let tokens = service(clock.clone());
        let ann = Uuid::new_v4();
        let token = tokens.issue(ann, "ann", Uuid::new_v4()).unwrap();
        assert_eq!(tokens.verify(&token).unwrap().user_id, ann);
        // The same text again is remembered; any other text is checked.
        assert_eq!(tokens.verify(&token).unwrap().user_id, ann);
        let mut forged = token.clone().into_bytes();
        let last = forged.len() - 2;
        forged[last] = if forged[last] == b'A' { b'B' } else { b'A' };
        let forged = String::from_utf8(forged).unwrap();
        assert_eq!(tokens.verify(&forged), Err(TokenError::Invalid));
        assert_eq!(
            tokens.verify(&format!("{token}x")),
            Err(TokenError::Invalid)
        );
        // More tokens than are remembered: every one still verifies.
        let many: Vec<String> = (0..VERIFIED_TOKENS + 10)
            .map(|i| {
                tokens
                    .issue(Uuid::new_v4(), &format!("u{i}"), Uuid::new_v4())
                    .unwrap()
            })
            .collect();
        for t in &many {
            assert!(tokens.verify(t).is_ok());
        }
        assert_eq!(tokens.verify(&token).unwrap().user_id, ann);
        clock.advance(Duration::minutes(15));
        assert_eq!(tokens.verify(&token), Err(TokenError::Expired));
        assert_eq!(tokens.verify(&many[0]), Err(TokenError::Expired));
    }

    #[test]
    fn refresh_tokens_are_random_and_hashed() {
        let (a, hash_a) = new_refresh_token();
        let (b, _) = new_refresh_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(hash_a, hash_refresh_token(&a));
        assert_eq!(hash_a.len(), 64);
        assert!(!hash_a.contains(&a));
    }
}
