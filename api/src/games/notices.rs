//! Who is told what when a game changes: the events a change produces, as
//! typed payloads for each recipient. They are stored inside the change's
//! own transaction (docs/architecture.md), so an event exists exactly when
//! its change does.

use uuid::Uuid;

use super::record::GameRecord;
use crate::events::{AbortReason, EventPayload};

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

/// `game_finished` for both players, if the game is over.
pub fn game_finished(record: &GameRecord) -> Vec<Notice> {
    match record.result() {
        Some(result) => record
            .players()
            .into_iter()
            .map(|u| {
                Notice::new(
                    u,
                    EventPayload::GameFinished {
                        game_id: record.id,
                        result,
                    },
                )
            })
            .collect(),
        None => Vec::new(),
    }
}
