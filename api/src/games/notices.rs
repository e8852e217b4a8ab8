//! Who is told what when a game changes: the events a change produces, as
//! typed payloads for each recipient. They are stored inside the change's
//! own transaction (docs/architecture.md), so an event exists exactly when
//! its change does.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::record::GameRecord;
use crate::db::{DbConnection, StoreError};
use crate::events::{self, NewEvent, StoredPayload};

/// What happened, as its recipient may know it. Serialized with a `type`
/// tag (`"your_turn"`, ...) next to the event's `id` and `created_at`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventPayload {
    /// Someone challenged you (sent to the challenged user).
    ChallengeReceived {
        game_id: Uuid,
        /// The challenger's username
        from: String,
    },
    /// Your opponent of a finished game offers a rematch: a new game with
    /// the same rules and the colors swapped, `game_id`, waiting for you to
    /// join (accept) or decline it like a challenge (sent to the opponent).
    RematchOffered {
        game_id: Uuid,
        /// The finished game
        rematch_of: Uuid,
        /// The offering player's username
        from: String,
    },
    /// Your challenge was declined (sent to the challenger).
    ChallengeDeclined {
        game_id: Uuid,
        /// The declining user's username
        by: String,
    },
    /// Your game's open seat was taken, or your challenge was accepted: the
    /// setup phase, and its clock, has started (sent to the game's creator).
    OpponentJoined {
        game_id: Uuid,
        /// The username of the user who took the seat
        by: String,
    },
    /// The game ended before play started: a player aborted it (a challenge
    /// withdrawn by its creator included), or a setup did not come in time
    /// (sent to every seated or challenged user except the one who aborted;
    /// on a setup timeout, to both players).
    GameAborted {
        game_id: Uuid,
        reason: AbortReason,
        /// The username of the player who aborted; null on a setup timeout
        #[schema(required = true)]
        by: Option<String>,
    },
    /// Both setups are in: the game has begun (sent to both players).
    GameStarted { game_id: Uuid },
    /// It is your turn. `opponent_move` is the opponent's last move as you
    /// may see it (`null` when there is none, e.g. at the start).
    YourTurn {
        game_id: Uuid,
        /// Plies played so far
        ply: u32,
        /// The opponent's move as the recipient may see it (`piece` is null
        /// unless the recipient knows the rank)
        #[schema(value_type = Option<super::docs::MoveViewDoc>, required = true)]
        opponent_move: Option<domain::MoveView>,
    },
    /// The opponent offers a draw (sent to the other player).
    DrawOffered {
        game_id: Uuid,
        /// The offering color
        #[schema(value_type = super::docs::ColorDoc)]
        by: domain::Color,
    },
    /// The game is over (sent to both players).
    GameFinished {
        game_id: Uuid,
        #[schema(value_type = super::docs::GameResultDoc)]
        result: domain::GameResult,
    },
    /// Less than the configured share of your move time (or, during setup,
    /// of your setup time, if your setup is not in yet) is left.
    DeadlineSoon {
        game_id: Uuid,
        /// When your move (or setup) time runs out
        deadline: DateTime<Utc>,
    },
    /// Your opponent went on vacation: their clock in this game is stopped
    /// (sent to the opponent in every game of theirs in progress).
    VacationStarted {
        game_id: Uuid,
        /// The username of the player on vacation
        by: String,
        /// When their clock runs again at the latest (the vacation may
        /// end sooner)
        until: DateTime<Utc>,
    },
    /// Your opponent's vacation ended: their clock runs again when it is
    /// theirs to act (sent as `vacation_started` was).
    VacationEnded {
        game_id: Uuid,
        /// The username of the player back from vacation
        by: String,
    },
    /// A tournament you play in started (sent to every player): `games`
    /// are yours it started with (a round robin's: all of them; a Swiss
    /// event's: the first round's). Each game's setup phase, and its
    /// clock, has started (docs/tournaments.md).
    TournamentStarted {
        tournament_id: Uuid,
        /// The tournament's name
        name: String,
        games: Vec<RoundGame>,
        /// Whether you have the first round's bye
        bye: bool,
    },
    /// The next round of a Swiss tournament you play in was paired (sent
    /// to every player still in it): your game of the round, or your bye.
    RoundStarted {
        tournament_id: Uuid,
        /// The tournament's name
        name: String,
        /// The round (from 2; the first comes with `tournament_started`)
        round: u32,
        games: Vec<RoundGame>,
        /// Whether you have this round's bye
        bye: bool,
    },
    /// A tournament you played in is over (sent to every player, withdrawn
    /// ones included).
    TournamentFinished {
        tournament_id: Uuid,
        /// The tournament's name
        name: String,
        /// Your place in the final standings (shared places are equal)
        place: u32,
        /// How many played
        players: u32,
    },
}

/// One of your games of a tournament's round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RoundGame {
    pub game_id: Uuid,
    pub round: u32,
    /// Your color in it
    #[schema(value_type = super::docs::ColorDoc)]
    pub color: domain::Color,
    /// Your opponent's username
    pub opponent: String,
}

/// Why a game was aborted before play started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AbortReason {
    /// A player aborted the game (or withdrew the challenge).
    Aborted,
    /// The setup phase ran out before both setups were in.
    SetupTimeout,
}

impl EventPayload {
    /// The `type` tag, as stored in the `kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::ChallengeReceived { .. } => "challenge_received",
            Self::RematchOffered { .. } => "rematch_offered",
            Self::ChallengeDeclined { .. } => "challenge_declined",
            Self::OpponentJoined { .. } => "opponent_joined",
            Self::GameAborted { .. } => "game_aborted",
            Self::GameStarted { .. } => "game_started",
            Self::YourTurn { .. } => "your_turn",
            Self::DrawOffered { .. } => "draw_offered",
            Self::GameFinished { .. } => "game_finished",
            Self::DeadlineSoon { .. } => "deadline_soon",
            Self::VacationStarted { .. } => "vacation_started",
            Self::VacationEnded { .. } => "vacation_ended",
            Self::TournamentStarted { .. } => "tournament_started",
            Self::RoundStarted { .. } => "round_started",
            Self::TournamentFinished { .. } => "tournament_finished",
        }
    }

    /// The game the event is about; none for a tournament's events.
    pub fn game_id(&self) -> Option<Uuid> {
        Some(match self {
            Self::ChallengeReceived { game_id, .. }
            | Self::RematchOffered { game_id, .. }
            | Self::ChallengeDeclined { game_id, .. }
            | Self::OpponentJoined { game_id, .. }
            | Self::GameAborted { game_id, .. }
            | Self::GameStarted { game_id }
            | Self::YourTurn { game_id, .. }
            | Self::DrawOffered { game_id, .. }
            | Self::GameFinished { game_id, .. }
            | Self::DeadlineSoon { game_id, .. }
            | Self::VacationStarted { game_id, .. }
            | Self::VacationEnded { game_id, .. } => *game_id,
            Self::TournamentStarted { .. }
            | Self::RoundStarted { .. }
            | Self::TournamentFinished { .. } => return None,
        })
    }
}

impl EventPayload {
    /// The payload as it is stored and sent: its JSON object.
    pub fn stored(&self) -> Result<StoredPayload, serde_json::Error> {
        match serde_json::to_value(self)? {
            serde_json::Value::Object(map) => Ok(StoredPayload(map)),
            _ => Err(serde::ser::Error::custom(
                "an event payload is a JSON object",
            )),
        }
    }
}

// A stored payload is documented as the typed payload it was written from.
impl utoipa::PartialSchema for StoredPayload {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        EventPayload::schema()
    }
}

impl ToSchema for StoredPayload {
    fn name() -> std::borrow::Cow<'static, str> {
        <EventPayload as ToSchema>::name()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        // Documented as the payload it holds, with the schemas that one
        // refers to (AbortReason, ...).
        schemas.push((
            <EventPayload as ToSchema>::name().into_owned(),
            <EventPayload as utoipa::PartialSchema>::schema(),
        ));
        <EventPayload as ToSchema>::schemas(schemas);
    }
}

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

/// Stores the notices as events (inside the caller's transaction) and
/// returns their recipients, each once.
pub fn record(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    notices: &[Notice],
) -> Result<Vec<Uuid>, StoreError> {
    if notices.is_empty() {
        return Ok(Vec::new());
    }
    events::record_all(conn, now, &as_events(notices)?)?;
    Ok(recipients(notices))
}

/// The notices as the events to store.
pub fn as_events(notices: &[Notice]) -> Result<Vec<NewEvent>, StoreError> {
    notices
        .iter()
        .map(|notice| {
            Ok(NewEvent {
                to: notice.to,
                kind: notice.payload.kind(),
                game_id: notice.payload.game_id(),
                payload: serde_json::to_string(&notice.payload)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
            })
        })
        .collect()
}

/// Who the notices are for, each once.
pub fn recipients(notices: &[Notice]) -> Vec<Uuid> {
    let mut users: Vec<Uuid> = notices.iter().map(|n| n.to).collect();
    users.sort();
    users.dedup();
    users
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::events::Event;
    use serde_json::json;

    #[test]
    fn events_serialize_with_a_type_tag_beside_id_and_time() {
        let game_id = Uuid::nil();
        let event = Event {
            id: 3,
            created_at: DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
            payload: EventPayload::GameStarted { game_id }.stored().unwrap(),
        };
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            json!({"id": 3, "created_at": "2027-01-15T08:00:00Z", "type": "game_started",
                   "game_id": "00000000-0000-0000-0000-000000000000"})
        );
        // Stored as written, read back as stored.
        let stored: StoredPayload =
            serde_json::from_str(&serde_json::to_string(&event.payload).unwrap()).unwrap();
        assert_eq!(stored, event.payload);
        assert_eq!(stored.kind(), "game_started");
    }

    #[test]
    fn aborts_name_their_reason_and_who_aborted() {
        let game_id = Uuid::nil();
        let timeout = EventPayload::GameAborted {
            game_id,
            reason: AbortReason::SetupTimeout,
            by: None,
        };
        assert_eq!(
            serde_json::to_value(&timeout).unwrap(),
            json!({"type": "game_aborted", "game_id": "00000000-0000-0000-0000-000000000000",
                   "reason": "setup_timeout", "by": null})
        );
        let aborted = EventPayload::GameAborted {
            game_id,
            reason: AbortReason::Aborted,
            by: Some("ann".into()),
        };
        let value = serde_json::to_value(&aborted).unwrap();
        assert_eq!(value["reason"], "aborted");
        assert_eq!(value["by"], "ann");
        assert_eq!(aborted.stored().unwrap().0, *value.as_object().unwrap());
    }

    #[test]
    fn kind_matches_the_serde_tag() {
        let game_id = Uuid::nil();
        let all = [
            EventPayload::ChallengeReceived {
                game_id,
                from: "ann".into(),
            },
            EventPayload::ChallengeDeclined {
                game_id,
                by: "bo".into(),
            },
            EventPayload::OpponentJoined {
                game_id,
                by: "bo".into(),
            },
            EventPayload::GameAborted {
                game_id,
                reason: AbortReason::Aborted,
                by: Some("ann".into()),
            },
            EventPayload::GameAborted {
                game_id,
                reason: AbortReason::SetupTimeout,
                by: None,
            },
            EventPayload::GameStarted { game_id },
            EventPayload::YourTurn {
                game_id,
                ply: 0,
                opponent_move: None,
            },
            EventPayload::DrawOffered {
                game_id,
                by: domain::Color::Red,
            },
            EventPayload::GameFinished {
                game_id,
                result: domain::GameResult {
                    winner: None,
                    reason: domain::EndReason::DrawAgreed,
                },
            },
            EventPayload::DeadlineSoon {
                game_id,
                deadline: DateTime::from_timestamp(0, 0).unwrap(),
            },
        ];
        for payload in all {
            let value = serde_json::to_value(&payload).unwrap();
            assert_eq!(value["type"], payload.kind());
            assert_eq!(payload.game_id(), Some(game_id));
        }
    }
}
