//! A game as the service works with it: the stored row parsed into domain
//! types, and back. Where the game is in its life is one [`Phase`], so a
//! game in play without its state cannot be written down.
//!
//! Nothing here may reach a client as it is: the setups and the game are
//! the full truth. Views come from `domain` (docs/knowledge.md).

use chrono::{DateTime, Utc};
use domain::{
    ByColor, Clocks, Color, Game, GameResult, Rules, Running, Setup, Setups, TimeControl, Variant,
    Viewer,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::db::StoreError;
use crate::storage::games::{status, GameRow};
use crate::storage::{from_db_time, to_db_time};

/// Where a game is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
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
    pub const ALL: [Status; 5] = [
        Status::Waiting,
        Status::Setup,
        Status::Playing,
        Status::Finished,
        Status::Aborted,
    ];

    /// Its name, as clients see it and as the `status` column holds it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => status::WAITING,
            Status::Setup => status::SETUP,
            Status::Playing => status::PLAYING,
            Status::Finished => status::FINISHED,
            Status::Aborted => status::ABORTED,
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// Where a game is in its life (docs/lifecycle.md); its [`Status`] is what
/// clients see of it.
#[derive(Debug, Clone)]
pub enum Phase {
    /// Created; a seat is open or a challenge is not yet accepted.
    Waiting,
    /// Both seated; setups are being placed.
    Setup,
    /// Both setups were in: the game, not over.
    Playing(Box<Game>),
    /// The game, over (it holds its result).
    Finished(Box<Game>),
    /// Ended before play started.
    Aborted,
}

impl Phase {
    pub fn status(&self) -> Status {
        match self {
            Phase::Waiting => Status::Waiting,
            Phase::Setup => Status::Setup,
            Phase::Playing(_) => Status::Playing,
            Phase::Finished(_) => Status::Finished,
            Phase::Aborted => Status::Aborted,
        }
    }

    /// The game, once play has started.
    pub fn game(&self) -> Option<&Game> {
        match self {
            Phase::Playing(game) | Phase::Finished(game) => Some(game),
            Phase::Waiting | Phase::Setup | Phase::Aborted => None,
        }
    }

    /// Play has not started: a setup may still be placed, the game aborted.
    pub fn before_play(&self) -> bool {
        matches!(self, Phase::Waiting | Phase::Setup)
    }
}

/// What every game of a tournament is played with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TournamentSettings {
    pub variant: Variant,
    pub rules: Rules,
    pub time_control: TimeControl,
    pub rated: bool,
}

#[derive(Debug, Clone)]
pub struct GameRecord {
    pub id: Uuid,
    pub variant: Variant,
    pub rules: Rules,
    pub version: i64,
    pub creator: Uuid,
    pub red: Option<Uuid>,
    pub blue: Option<Uuid>,
    pub challenged: Option<Uuid>,
    /// How much time each player has (fixed at creation).
    pub time_control: TimeControl,
    /// Both players' clocks, from the setup phase on.
    pub clocks: Option<Clocks>,
    /// Whether the game counts for ratings (docs/ratings.md).
    pub rated: bool,
    /// SECRET until play starts; kept afterwards so the log can be replayed.
    pub setups: Setups,
    pub phase: Phase,
    /// When the first running clock runs out (the end of a vacation
    /// counted in): what the clock ends the game at. Kept equal to the
    /// clocks by [`GameRecord::settle_clocks`].
    pub deadline: Option<DateTime<Utc>>,
    pub reminded_version: Option<i64>,
    /// The tournament the game is part of, and its round (docs/tournaments.md).
    pub tournament: Option<(Uuid, u32)>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

fn corrupt(what: &str, id: &str) -> StoreError {
    StoreError::Corrupt(format!("game {id}: {what}"))
}

fn parse_uuid(text: &str, what: &str, id: &str) -> Result<Uuid, StoreError> {
    Uuid::parse_str(text).map_err(|_| corrupt(what, id))
}

fn parse_opt_uuid(text: Option<&str>, what: &str, id: &str) -> Result<Option<Uuid>, StoreError> {
    text.map(|t| parse_uuid(t, what, id)).transpose()
}

/// A stored game or setup: the compact form written since issue 9, or the
/// JSON document of the rows written before, still read (docs/storage.md).
/// A row in JSON is written back compact by its next change.
fn read_stored<T: DeserializeOwned>(
    text: &str,
    compact: impl FnOnce(&str) -> Result<T, domain::StateError>,
) -> Result<T, StoreError> {
    if text.starts_with('{') {
        serde_json::from_str(text).map_err(|e| StoreError::Corrupt(e.to_string()))
    } else {
        compact(text).map_err(|e| StoreError::Corrupt(e.to_string()))
    }
}

fn to_json<T: Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

impl GameRecord {
    /// A new game at version 1, waiting for its opponent: `creator` seated
    /// as `color`, `challenged` (if any) invited.
    #[allow(clippy::too_many_arguments)]
    pub fn waiting(
        id: Uuid,
        variant: Variant,
        rules: Rules,
        rated: bool,
        creator: Uuid,
        color: Color,
        challenged: Option<Uuid>,
        time_control: TimeControl,
        now: DateTime<Utc>,
    ) -> GameRecord {
        GameRecord {
            id,
            variant,
            rules,
            version: 1,
            creator,
            red: (color == Color::Red).then_some(creator),
            blue: (color == Color::Blue).then_some(creator),
            challenged,
            time_control,
            clocks: None,
            rated,
            setups: Setups::new(),
            phase: Phase::Waiting,
            deadline: None,
            reminded_version: None,
            tournament: None,
            created_at: now,
            updated_at: now,
        }
    }

    /// A game of a tournament's round at version 1: both players seated,
    /// the setup phase and its clocks started at `now`
    /// (docs/tournaments.md). Red stands as its creator.
    pub fn of_tournament(
        id: Uuid,
        settings: &TournamentSettings,
        players: ByColor<Uuid>,
        (tournament, round): (Uuid, u32),
        now: DateTime<Utc>,
    ) -> GameRecord {
        let mut record = GameRecord::waiting(
            id,
            settings.variant,
            settings.rules,
            settings.rated,
            players.red,
            Color::Red,
            None,
            settings.time_control,
            now,
        );
        record.blue = Some(players.blue);
        record.phase = Phase::Setup;
        record.tournament = Some((tournament, round));
        record.settle_clocks(&Running::default(), ClockAct::Other, now);
        record
    }

    pub fn from_row(row: &GameRow) -> Result<GameRecord, StoreError> {
        let id = row.id.as_str();
        let setup = |text: &Option<String>, what: &str| -> Result<Option<Setup>, StoreError> {
            text.as_deref()
                .map(|t| read_stored(t, Setup::from_compact).map_err(|_| corrupt(what, id)))
                .transpose()
        };
        let game = || -> Result<Box<Game>, StoreError> {
            let text = row
                .state
                .as_deref()
                .ok_or_else(|| corrupt("in play without a state", id))?;
            read_stored(text, Game::from_compact)
                .map(Box::new)
                .map_err(|_| corrupt("unreadable state", id))
        };
        let status = Status::parse(&row.status).ok_or_else(|| corrupt("unknown status", id))?;
        let (time_control, clocks) = clocks_of_row(row).ok_or_else(|| corrupt("clocks", id))?;
        let phase = match status {
            Status::Waiting => Phase::Waiting,
            Status::Setup => Phase::Setup,
            Status::Playing => Phase::Playing(game()?),
            Status::Finished => Phase::Finished(game()?),
            Status::Aborted => Phase::Aborted,
        };
        let mut record = GameRecord {
            id: parse_uuid(id, "id", id)?,
            variant: row.variant.parse().map_err(|_| corrupt("variant", id))?,
            rules: serde_json::from_str(&row.rules).map_err(|_| corrupt("rules", id))?,
            version: row.version,
            creator: parse_uuid(&row.creator_id, "creator", id)?,
            red: parse_opt_uuid(row.red_user_id.as_deref(), "red player", id)?,
            blue: parse_opt_uuid(row.blue_user_id.as_deref(), "blue player", id)?,
            challenged: parse_opt_uuid(row.challenged_user_id.as_deref(), "challenged user", id)?,
            time_control,
            clocks,
            rated: row.rated,
            setups: Setups::from_parts(
                setup(&row.red_setup, "red setup")?,
                setup(&row.blue_setup, "blue setup")?,
            ),
            phase,
            deadline: row.deadline.map(from_db_time),
            reminded_version: row.reminded_version,
            tournament: match (row.tournament_id.as_deref(), row.tournament_round) {
                (Some(tournament), Some(round)) => Some((
                    parse_uuid(tournament, "tournament", id)?,
                    u32::try_from(round).map_err(|_| corrupt("tournament round", id))?,
                )),
                _ => None,
            },
            created_at: from_db_time(row.created_at),
            updated_at: from_db_time(row.updated_at),
        };
        if let (Some(deadline), Some(mut clocks)) = (record.deadline, record.clocks) {
            if record.clock_deadline() != Some(deadline) {
                clocks.agree_with(&record.running(), deadline.timestamp());
                record.clocks = Some(clocks);
            }
        }
        Ok(record)
    }

    pub fn to_row(&self) -> Result<GameRow, StoreError> {
        let result = self.result();
        let game = self.phase.game();
        Ok(GameRow {
            id: self.id.to_string(),
            variant: self.variant.name().to_owned(),
            rules: to_json(&self.rules)?,
            status: self.status().as_str().to_owned(),
            version: self.version,
            creator_id: self.creator.to_string(),
            red_user_id: self.red.map(|u| u.to_string()),
            blue_user_id: self.blue.map(|u| u.to_string()),
            challenged_user_id: self.challenged.map(|u| u.to_string()),
            days_per_move: i32::try_from(self.time_control.days_per_move()).unwrap_or(i32::MAX),
            red_setup: self.setups.get(Color::Red).map(Setup::to_compact),
            blue_setup: self.setups.get(Color::Blue).map(Setup::to_compact),
            state: game.map(Game::to_compact),
            turn: match &self.phase {
                Phase::Playing(game) => Some(game.turn().name().to_owned()),
                _ => None,
            },
            ply: game.map_or(0, |g| i32::try_from(g.ply()).unwrap_or(i32::MAX)),
            draw_offer: match &self.phase {
                Phase::Playing(game) => game.draw_offer().map(|c| c.name().to_owned()),
                _ => None,
            },
            deadline: self.deadline.map(to_db_time),
            reminded_version: self.reminded_version,
            result_winner: result.and_then(|r| r.winner).map(|c| c.name().to_owned()),
            result_reason: result.map(|r| reason_name(r.reason).to_owned()),
            created_at: to_db_time(self.created_at),
            updated_at: to_db_time(self.updated_at),
            rated: self.rated,
            time_control: Some(to_json(&self.time_control)?),
            clocks: self.clocks.as_ref().map(to_json).transpose()?,
            tournament_id: self.tournament.map(|(id, _)| id.to_string()),
            tournament_round: self
                .tournament
                .map(|(_, round)| i32::try_from(round).unwrap_or(i32::MAX)),
        })
    }

    pub fn status(&self) -> Status {
        self.phase.status()
    }

    pub fn game(&self) -> Option<&Game> {
        self.phase.game()
    }

    /// The color `user` plays in this game, if any.
    pub fn color_of(&self, user: Uuid) -> Option<Color> {
        seat_of(self.red, self.blue, user)
    }

    /// [`GameRecord::color_of`] read off the stored row, without decoding
    /// the game.
    pub fn color_in_row(row: &GameRow, user: Uuid) -> Option<Color> {
        let id = |id: &Option<String>| id.as_deref().and_then(|id| Uuid::parse_str(id).ok());
        seat_of(id(&row.red_user_id), id(&row.blue_user_id), user)
    }

    /// Whether the stored row's deadline is still ahead of `now` (or it
    /// has none): then the game it holds is not overdue
    /// ([`GameRecord::is_overdue`] needs a deadline that has passed).
    pub fn row_in_time(row: &GameRow, now: DateTime<Utc>) -> bool {
        row.deadline.is_none_or(|d| from_db_time(d) > now)
    }

    /// Who `user` (or an anonymous caller) is to the rules.
    pub fn viewer(&self, user: Option<Uuid>) -> Viewer {
        Viewer::from_color(user.and_then(|u| self.color_of(u)))
    }

    pub fn player(&self, color: Color) -> Option<Uuid> {
        match color {
            Color::Red => self.red,
            Color::Blue => self.blue,
        }
    }

    /// Whose move it is, once play has started (when finished: who would
    /// have moved next).
    pub fn turn(&self) -> Option<Color> {
        self.game().map(Game::turn)
    }

    pub fn result(&self) -> Option<GameResult> {
        self.game().and_then(Game::result)
    }

    /// Whether the current deadline has passed. Never on a bot's turn: a
    /// bot does not time out (docs/bots.md), even when every server was
    /// down past its deadline.
    pub fn is_overdue(&self, now: DateTime<Utc>) -> bool {
        matches!(self.phase, Phase::Setup | Phase::Playing(_))
            && self.deadline.is_some_and(|d| d <= now)
            && !self.bot_to_move()
    }

    /// Whether a bot is the player to move.
    fn bot_to_move(&self) -> bool {
        matches!(&self.phase, Phase::Playing(game)
            if self.player(game.turn()).is_some_and(|u| super::bots::bot(u).is_some()))
    }

    /// Whose clocks run: in the setup phase, those of the players without
    /// a setup; in play, the player to move's.
    pub fn running(&self) -> Running {
        match &self.phase {
            Phase::Setup => {
                let done = self.setups.done();
                ByColor {
                    red: !done.red,
                    blue: !done.blue,
                }
            }
            Phase::Playing(game) => ByColor {
                red: game.turn() == Color::Red,
                blue: game.turn() == Color::Blue,
            },
            Phase::Waiting | Phase::Finished(_) | Phase::Aborted => ByColor::default(),
        }
    }

    /// After a change at `now` (`running`: whose clocks ran until then,
    /// `acted`: what the change did for the clocks): the clocks start with
    /// the setup phase, are charged for the time they ran, credited for a
    /// setup or a move under the time control, and the deadline follows
    /// them (docs/lifecycle.md, "Clocks").
    pub fn settle_clocks(&mut self, running: &Running, acted: ClockAct, now: DateTime<Utc>) {
        let at = now.timestamp();
        let control = self.time_control;
        if self.clocks.is_none() && matches!(self.phase, Phase::Setup) {
            self.clocks = Some(Clocks::start(&control, at));
        }
        let moves_made = |color: Color, ply: u32| match color {
            Color::Red => ply.div_ceil(2),
            Color::Blue => ply / 2,
        };
        let ply = self.game().map_or(0, Game::ply);
        if let Some(clocks) = &mut self.clocks {
            clocks.rebase(running, at);
            match acted {
                ClockAct::Moved(color) => {
                    clocks.credit_move(&control, color, moves_made(color, ply))
                }
                ClockAct::SetUp(color) => clocks.credit_setup(&control, color),
                ClockAct::Other => {}
            }
        }
        self.deadline = self.clock_deadline();
    }

    /// Stops `color`'s clock from `at` until `until` (a vacation); `false`
    /// if it was stopped until then already (or the game has no clocks).
    pub fn pause_clock(&mut self, color: Color, until: DateTime<Utc>, at: DateTime<Utc>) -> bool {
        let running = self.running();
        let Some(clocks) = &mut self.clocks else {
            return false;
        };
        if *clocks.paused_until.get(color) == Some(until.timestamp()) {
            return false;
        }
        clocks.pause(color, until.timestamp(), &running, at.timestamp());
        self.deadline = self.clock_deadline();
        true
    }

    /// Lets `color`'s clock run again from `at` (a vacation ended before
    /// its time); `false` if it was not stopped.
    pub fn resume_clock(&mut self, color: Color, at: DateTime<Utc>) -> bool {
        let running = self.running();
        let Some(clocks) = &mut self.clocks else {
            return false;
        };
        if !clocks.paused(color, at.timestamp()) {
            return false;
        }
        clocks.resume(color, &running, at.timestamp());
        self.deadline = self.clock_deadline();
        true
    }

    /// When the first running clock runs out, if any runs.
    fn clock_deadline(&self) -> Option<DateTime<Utc>> {
        let (at, _) = self.clocks.as_ref()?.first_out(&self.running())?;
        DateTime::from_timestamp(at, 0)
    }

    /// The players, red first (those seated).
    pub fn players(&self) -> Vec<Uuid> {
        self.red.into_iter().chain(self.blue).collect()
    }

    /// Moves a game in play whose last action ended it to `Finished`.
    pub fn close_if_over(&mut self) {
        if matches!(&self.phase, Phase::Playing(game) if game.is_finished()) {
            if let Phase::Playing(game) = std::mem::replace(&mut self.phase, Phase::Aborted) {
                self.phase = Phase::Finished(game);
            }
            self.deadline = None;
        }
    }
}

/// What a change did, for the clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockAct {
    /// A player made a move (credited under the time control).
    Moved(Color),
    /// A player placed their setup.
    SetUp(Color),
    /// Anything else: the clocks are only charged for the time they ran.
    Other,
}

/// The time control and clocks of a stored game; a game from before time
/// controls (both null) plays `per_move` of its `days_per_move`, its
/// running clocks started that many days before its deadline. `None`:
/// unreadable.
pub(super) fn clocks_of_row(row: &GameRow) -> Option<(TimeControl, Option<Clocks>)> {
    let control = match row.time_control.as_deref() {
        Some(text) => serde_json::from_str(text).ok()?,
        None => TimeControl::PerMove {
            days: u32::try_from(row.days_per_move).ok()?,
        },
    };
    let clocks = match (row.clocks.as_deref(), row.deadline) {
        (Some(text), _) => Some(serde_json::from_str(text).ok()?),
        (None, Some(deadline)) => {
            let full = control.initial_seconds();
            Some(Clocks {
                since: from_db_time(deadline).timestamp() - full,
                left: ByColor {
                    red: full,
                    blue: full,
                },
                paused_until: ByColor::default(),
            })
        }
        (None, None) => None,
    };
    Some((control, clocks))
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

/// The color `user` plays with these players (Red first).
fn seat_of(red: Option<Uuid>, blue: Option<Uuid>, user: Uuid) -> Option<Color> {
    if red == Some(user) {
        Some(Color::Red)
    } else if blue == Some(user) {
        Some(Color::Blue)
    } else {
        None
    }
}
