//! Where game changes meet the event feed (issue #5): every notice is
//! recorded inside the transaction of the change it reports, and the
//! listeners are woken after the commit.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::write::Change;
use crate::db::DbConnection;
use crate::events::{self as feed, EventPayload};
use crate::state::AppState;

/// One event for one user.
#[derive(Debug, Clone)]
pub struct Notice {
    pub to: Uuid,
    pub payload: EventPayload,
}

impl Notice {
    pub fn new(to: Uuid, payload: EventPayload) -> Notice {
        Notice { to, payload }
    }
}

/// Stores the notices (inside the caller's transaction).
pub fn record(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    notices: &[Notice],
) -> Result<(), diesel::result::Error> {
    if notices.is_empty() {
        return Ok(());
    }
    let events: Vec<(Uuid, EventPayload)> =
        notices.iter().map(|n| (n.to, n.payload.clone())).collect();
    feed::record_all(conn, now, &events).map(|_| ())
}

/// Wakes long polls and streams after the commit.
pub fn notify(state: &AppState, change: &Change) {
    if let Some((game_id, version)) = change.game {
        state.notifier.game_changed(game_id, version);
    }
    let mut users: Vec<Uuid> = change.notices.iter().map(|n| n.to).collect();
    users.sort();
    users.dedup();
    for user in users {
        state.notifier.user_event(user);
    }
}
