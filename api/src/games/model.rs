//! A game as the service works with it: the stored row, parsed into domain
//! types, and back.

use chrono::{DateTime, Duration, Utc};
use domain::{Color, Game, GameResult, Rules, Setup, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::ApiError;
use crate::storage::games::GameRow;
use crate::storage::{from_db_time, to_db_time};

/// Where a game is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Created; a seat is open or a challenge is not yet accepted.
    Waiting,
    /// Both seated; setups are being placed.
    Setup,
    Playing,
    Finished,
    /// Ended before play started (cancelled, declined, or a setup never came).
    Aborted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Setup => "setup",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Some(match text {
            "waiting" => Status::Waiting,
            "setup" => Status::Setup,
            "playing" => Status::Playing,
            "finished" => Status::Finished,
            "aborted" => Status::Aborted,
            _ => return None,
        })
    }

    /// Play has not started yet (a setup may still be placed, the game
    /// aborted).
    pub fn before_play(self) -> bool {
        matches!(self, Status::Waiting | Status::Setup)
    }
}

/// One game, parsed. `game` holds the full truth from `playing` on, and the
/// setups are secret: nothing here may be sent to a client except through
/// the per-viewer functions of `games::view`.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub id: Uuid,
    pub variant: Variant,
    pub rules: Rules,
    pub status: Status,
    pub version: i64,
    pub creator: Uuid,
    pub red: Option<Uuid>,
    pub blue: Option<Uuid>,
    pub challenged: Option<Uuid>,
    pub days_per_move: i32,
    pub red_setup: Option<Setup>,
    pub blue_setup: Option<Setup>,
    pub game: Option<Game>,
    pub deadline: Option<DateTime<Utc>>,
    pub reminded_version: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

fn corrupt(what: &str, id: &str) -> ApiError {
    ApiError::internal(format!("stored game {id}: unreadable {what}"))
}

fn parse_uuid(text: &str, what: &str, id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(text).map_err(|_| corrupt(what, id))
}

fn parse_opt_uuid(text: Option<&str>, what: &str, id: &str) -> Result<Option<Uuid>, ApiError> {
    text.map(|t| parse_uuid(t, what, id)).transpose()
}

impl GameRecord {
    pub fn from_row(row: &GameRow) -> Result<GameRecord, ApiError> {
        let id = row.id.as_str();
        let setup = |text: &Option<String>, what: &str| -> Result<Option<Setup>, ApiError> {
            text.as_deref()
                .map(|t| serde_json::from_str::<Setup>(t).map_err(|_| corrupt(what, id)))
                .transpose()
        };
        Ok(GameRecord {
            id: parse_uuid(id, "id", id)?,
            variant: row.variant.parse().map_err(|_| corrupt("variant", id))?,
            rules: serde_json::from_str(&row.rules).map_err(|_| corrupt("rules", id))?,
            status: Status::parse(&row.status).ok_or_else(|| corrupt("status", id))?,
            version: row.version,
            creator: parse_uuid(&row.creator_id, "creator", id)?,
            red: parse_opt_uuid(row.red_user_id.as_deref(), "red player", id)?,
            blue: parse_opt_uuid(row.blue_user_id.as_deref(), "blue player", id)?,
            challenged: parse_opt_uuid(row.challenged_user_id.as_deref(), "challenged user", id)?,
            days_per_move: row.days_per_move,
            red_setup: setup(&row.red_setup, "red setup")?,
            blue_setup: setup(&row.blue_setup, "blue setup")?,
            game: row
                .state
                .as_deref()
                .map(|t| serde_json::from_str::<Game>(t).map_err(|_| corrupt("state", id)))
                .transpose()?,
            deadline: row.deadline.map(from_db_time),
            reminded_version: row.reminded_version,
            created_at: from_db_time(row.created_at),
            updated_at: from_db_time(row.updated_at),
        })
    }

    pub fn to_row(&self) -> Result<GameRow, ApiError> {
        let result = self.result();
        Ok(GameRow {
            id: self.id.to_string(),
            variant: variant_name(self.variant).to_owned(),
            rules: to_json(&self.rules)?,
            status: self.status.as_str().to_owned(),
            version: self.version,
            creator_id: self.creator.to_string(),
            red_user_id: self.red.map(|u| u.to_string()),
            blue_user_id: self.blue.map(|u| u.to_string()),
            challenged_user_id: self.challenged.map(|u| u.to_string()),
            days_per_move: self.days_per_move,
            red_setup: self.red_setup.as_ref().map(to_json).transpose()?,
            blue_setup: self.blue_setup.as_ref().map(to_json).transpose()?,
            state: self.game.as_ref().map(to_json).transpose()?,
            turn: self
                .turn()
                .filter(|_| self.status == Status::Playing)
                .map(|c| c.name().to_owned()),
            ply: self
                .game
                .as_ref()
                .map_or(0, |g| i32::try_from(g.ply()).unwrap_or(i32::MAX)),
            deadline: self.deadline.map(to_db_time),
            reminded_version: self.reminded_version,
            result_winner: result.and_then(|r| r.winner).map(|c| c.name().to_owned()),
            result_reason: result.map(|r| reason_name(r.reason).to_owned()),
            created_at: to_db_time(self.created_at),
            updated_at: to_db_time(self.updated_at),
        })
    }

    /// The color `user` plays in this game, if any.
    pub fn color_of(&self, user: Uuid) -> Option<Color> {
        if self.red == Some(user) {
            Some(Color::Red)
        } else if self.blue == Some(user) {
            Some(Color::Blue)
        } else {
            None
        }
    }

    pub fn player(&self, color: Color) -> Option<Uuid> {
        match color {
            Color::Red => self.red,
            Color::Blue => self.blue,
        }
    }

    pub fn setup(&self, color: Color) -> Option<&Setup> {
        match color {
            Color::Red => self.red_setup.as_ref(),
            Color::Blue => self.blue_setup.as_ref(),
        }
    }

    pub fn set_setup(&mut self, color: Color, setup: Setup) {
        match color {
            Color::Red => self.red_setup = Some(setup),
            Color::Blue => self.blue_setup = Some(setup),
        }
    }

    /// Whose move it is, while a game exists.
    pub fn turn(&self) -> Option<Color> {
        self.game.as_ref().map(Game::turn)
    }

    pub fn result(&self) -> Option<GameResult> {
        self.game.as_ref().and_then(Game::result)
    }

    /// The user who must act now, if exactly one must (the player to move).
    pub fn user_to_move(&self) -> Option<Uuid> {
        if self.status != Status::Playing {
            return None;
        }
        self.turn().and_then(|c| self.player(c))
    }

    /// Whether the current deadline has passed.
    pub fn is_overdue(&self, now: DateTime<Utc>) -> bool {
        matches!(self.status, Status::Setup | Status::Playing)
            && self.deadline.is_some_and(|d| d <= now)
    }

    /// The deadline of a phase or move starting at `now`.
    pub fn deadline_from(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now + Duration::days(i64::from(self.days_per_move))
    }

    /// The players, red first (those seated).
    pub fn players(&self) -> Vec<Uuid> {
        self.red.into_iter().chain(self.blue).collect()
    }
}

pub fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Classic => "classic",
        Variant::Barrage => "barrage",
        Variant::Duel => "duel",
    }
}

pub fn reason_name(reason: domain::EndReason) -> &'static str {
    use domain::EndReason as R;
    match reason {
        R::FlagCaptured => "flag_captured",
        R::NoMoves => "no_moves",
        R::Resignation => "resignation",
        R::Timeout => "timeout",
        R::DrawAgreed => "draw_agreed",
        R::BothImmobile => "both_immobile",
        R::MoveLimit => "move_limit",
    }
}

fn to_json<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(ApiError::internal)
}
