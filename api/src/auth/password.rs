//! Password hashing with argon2id at OWASP's minimum parameters
//! (19 MiB of memory, 2 iterations, 1 lane). Hashing is deliberately slow,
//! so the async helpers run it on the blocking thread pool.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::RngCore;

use crate::error::ApiError;

fn hasher() -> Argon2<'static> {
    // Params::DEFAULT is exactly OWASP's m=19456 KiB, t=2, p=1 (pinned by a test).
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::DEFAULT)
}

/// Hashes a password into a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`).
pub fn hash(password: &str) -> Result<String, ApiError> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| ApiError::internal(e.to_string()))?;
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| ApiError::internal(e.to_string()))
}

/// Checks a password against a stored PHC string, with the parameters
/// recorded in that string. A malformed hash never matches.
pub fn verify(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => hasher()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// [`hash`] on the blocking pool.
pub async fn hash_blocking(password: String) -> Result<String, ApiError> {
    actix_web::web::block(move || hash(&password)).await?
}

/// [`verify`] on the blocking pool.
pub async fn verify_blocking(password: String, phc: String) -> Result<bool, ApiError> {
    Ok(actix_web::web::block(move || verify(&password, &phc)).await?)
}

/// A hash of a random password nobody knows, for logins naming unknown users.
pub fn dummy_hash() -> Result<String, ApiError> {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    let password: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    hash(&password)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn uses_argon2id_with_owasp_parameters() {
        let phc = hash("correct horse battery").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
    }

    #[test]
    fn verifies_only_the_right_password() {
        let phc = hash("correct horse battery").unwrap();
        assert!(verify("correct horse battery", &phc));
        assert!(!verify("correct horse batterY", &phc));
        assert!(!verify("correct horse battery", "not a hash"));
    }

    #[test]
    fn salts_differ() {
        assert_ne!(
            hash("same password").unwrap(),
            hash("same password").unwrap()
        );
    }
}
