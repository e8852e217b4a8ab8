//! Where game changes meet the event feed (issue #5): every notice is
//! recorded inside the transaction of the change it reports, and the
//! listeners are woken after the commit.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::model::GameRecord;
use super::write::Change;
use crate::db::DbConnection;
use crate::events::{self as feed, AbortReason, EventPayload};
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

/// `opponent_joined` for the creator of `record`, whose open seat `by`
/// (a username) just took, or whose challenge `by` just accepted.
pub fn opponent_joined(record: &GameRecord, by: &str) -> Notice {
    Notice::new(
        record.creator,
        EventPayload::OpponentJoined {
            game_id: record.id,
            by: by.to_owned(),
        },
    )
}

/// `game_aborted` for `record`. `aborter` is the player who aborted (id and
/// username): everyone seated or challenged but them is told, each once.
/// `None` means a setup did not come in time: both players are told.
/// The payload names no setup: whose setup was in (or late) is not told.
pub fn game_aborted(record: &GameRecord, aborter: Option<(Uuid, &str)>) -> Vec<Notice> {
    let (reason, by) = match aborter {
        Some((_, name)) => (AbortReason::Aborted, Some(name.to_owned())),
        None => (AbortReason::SetupTimeout, None),
    };
    let mut to: Vec<Uuid> = record.players();
    if aborter.is_some() {
        // A challenge withdrawn while waiting: the challenged user is not
        // seated yet but was told of it.
        to.extend(record.challenged);
    }
    to.sort();
    to.dedup();
    to.retain(|&u| aborter.is_none_or(|(me, _)| me != u));
    to.into_iter()
        .map(|user| {
            Notice::new(
                user,
                EventPayload::GameAborted {
                    game_id: record.id,
                    reason,
                    by: by.clone(),
                },
            )
        })
        .collect()
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
