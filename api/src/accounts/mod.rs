//! Accounts: registration, login, sessions (refresh tokens and the access
//! tokens issued with them), password changes and account deletion.
//! Nothing here knows HTTP (docs/architecture.md, docs/accounts.md).
//!
//! One file per command. Each takes typed input and returns a typed answer
//! or an [`AccountError`]; the routes turn both into HTTP.

pub mod answers;
pub mod delete;
pub mod error;
pub mod login;
pub mod me;
pub mod password;
pub mod refresh;
pub mod register;
pub mod sessions;

use std::sync::Arc;

use chrono::Duration;

use crate::auth::known::KnownUsers;
use crate::auth::sessions::EndedSessions;
use crate::auth::tokens::TokenService;
use crate::clock::Clock;
use crate::db::DbPool;
use crate::rate_limit::RateLimiter;

pub use answers::{Registered, TokenPair, UserView};
pub use error::{AccountError, FieldProblem, RefreshRefusal};

pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
/// Longest string accepted where a refresh token is expected.
pub const REFRESH_TOKEN_MAX: usize = 256;

/// What the account service needs.
#[derive(Clone)]
pub struct Context {
    pub pool: DbPool,
    pub clock: Arc<dyn Clock>,
    pub tokens: Arc<TokenService>,
    pub ended: Arc<EndedSessions>,
    /// Accounts known to exist (checked on every authenticated request).
    pub known: Arc<KnownUsers>,
    pub refresh_ttl: Duration,
    /// Login attempts, keyed by client address and by username.
    pub login_limiter: Arc<RateLimiter>,
    /// Registrations, keyed by client address (each costs an argon2 hash).
    pub register_limiter: Arc<RateLimiter>,
    /// An argon2id hash of a random password, checked when a login names an
    /// unknown user so that the answer takes as long as for a known one.
    pub dummy_password_hash: Arc<str>,
    /// To end the games of a deleted account.
    pub games: crate::games::Context,
}

/// A username and password as sent.
pub struct Credentials {
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"[redacted]")
            .finish()
    }
}

/// Whether `name` could be a username. A name that cannot be one is never
/// looked up: no account has it, and PostgreSQL refuses some strings (a NUL
/// character) outright.
fn is_valid_username(name: &str) -> bool {
    crate::username::Username::is_valid(name)
}

fn password_length_ok(password: &str) -> bool {
    (PASSWORD_MIN..=PASSWORD_MAX).contains(&password.chars().count())
}

const PASSWORD_RULE: &str = "must be 8 to 128 characters";
