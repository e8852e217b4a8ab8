//! What every handler can reach: `web::Data<AppState>`.

use std::sync::Arc;

use crate::auth::tokens::TokenService;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::DbPool;
use crate::events::Notifier;
use crate::rate_limit::RateLimiter;

pub struct AppState {
    pub config: Config,
    pub pool: DbPool,
    pub clock: Arc<dyn Clock>,
    pub tokens: TokenService,
    /// Login attempts, keyed by client address and by username.
    pub login_limiter: RateLimiter,
    /// Registrations, keyed by client address (each costs an argon2 hash).
    pub register_limiter: RateLimiter,
    /// An argon2id hash of a random password, checked when a login names an
    /// unknown user so that the answer takes as long as for a known one.
    pub dummy_password_hash: String,
    /// Wakes long polls and streams (events, game versions), across
    /// processes on PostgreSQL.
    pub notifier: Notifier,
    /// The game service's dependencies (the same pool, clock and notifier).
    pub games: crate::games::Context,
}
