//! What a delivery says: one JSON shape for every channel
//! (docs/notifications.md, "What a delivery says"), described in the
//! OpenAPI document as its `webhooks`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// A notice sent outside the app: to webhooks as the request body, to Web
/// Push as the encrypted payload.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"type": "your_move", "timestamp": "2026-12-03T10:00:00Z",
    "data": {"game_id": "0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10", "version": 17,
             "opponent": "blue_player", "deadline": "2026-12-06T10:00:00Z", "ply": 16,
             "last_move": {"from": "e7", "to": "e6"}}}))]
pub struct Notice {
    /// The event (`ping` for a webhook's test)
    #[serde(rename = "type")]
    #[schema(example = "your_move")]
    pub kind: String,
    /// When the event happened
    pub timestamp: DateTime<Utc>,
    pub data: NoticeData,
}

/// What a notice says of its game. Never a rank: squares, names, times
/// and the result only.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct NoticeData {
    /// The game (every event but `ping`)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<Uuid>,
    /// The game's version when the notice was written
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    /// The other player's username (the challenger, for a challenge)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponent: Option<String>,
    /// Your deadline, when it is yours to act (or the one `deadline_soon`
    /// warns of)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<DateTime<Utc>>,
    /// `your_move`: plies played so far
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u64>,
    /// `your_move`: the squares of the opponent's last move
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_move: Option<LastMove>,
    /// `game_over`: the result
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::games::docs::GameResultDoc>)]
    pub result: Option<serde_json::Value>,
    /// `draw_offered`: the offering color
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::games::docs::ColorDoc>)]
    pub by: Option<serde_json::Value>,
    /// `rematch_offered`: the finished game
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<Uuid>,
    /// `vacation_started`: when the opponent's clock runs again at the
    /// latest
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<DateTime<Utc>>,
    /// `ping`: the webhook tested
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook_id: Option<Uuid>,
    /// A tournament's events: the tournament
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament_id: Option<Uuid>,
    /// A tournament's events: its name
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// `round_started`: the round
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u64>,
    /// `tournament_started`, `round_started`: your games it started (each
    /// with `game_id`, `round`, your `color` and your `opponent`)
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<crate::games::notices::RoundGame>>)]
    pub games: Option<serde_json::Value>,
    /// `tournament_started`, `round_started`: whether you sit the round out
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye: Option<bool>,
    /// `tournament_finished`: your place
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<u64>,
    /// `tournament_finished`: how many played
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<u64>,
}

/// The squares of a move.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LastMove {
    #[schema(example = "e7")]
    pub from: String,
    #[schema(example = "e6")]
    pub to: String,
}

impl Notice {
    pub fn to_json(&self) -> String {
        // Plain strings, numbers and objects: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}
