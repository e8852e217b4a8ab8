//! What every handler can reach: `web::Data<AppState>`.

use std::sync::Arc;

use crate::clock::Clock;
use crate::config::Config;
use crate::db::DbPool;
use crate::events::Notifier;

pub struct AppState {
    pub config: Config,
    pub pool: DbPool,
    pub clock: Arc<dyn Clock>,
    /// Wakes long polls and streams (events, game versions), across
    /// processes on PostgreSQL.
    pub notifier: Notifier,
    /// The game service's dependencies (the same pool, clock and notifier).
    pub games: crate::games::Context,
    /// The account service's dependencies (tokens, ended sessions, limits).
    pub accounts: crate::accounts::Context,
    /// What deliveries outside the app are sent with (docs/notifications.md).
    pub outbox: crate::notifications::outbox::Outbox,
}
