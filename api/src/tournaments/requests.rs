//! What a client sends to make and enter tournaments, and its checks.

use chrono::{DateTime, Duration, Utc};
use domain::tournament::System;
use domain::{Rules, TimeControl, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::TournamentError;
use crate::games::create::asked_time_control;
use crate::games::docs::{RulesDoc, TimeControlDoc, VariantDoc};
use crate::games::record::TournamentSettings;
use crate::games::requests::object;

/// Longest tournament name, in characters.
pub const NAME_MAX_CHARS: usize = 80;
/// Most players a round robin takes (all its games start at once).
pub const ROUND_ROBIN_MAX_PLAYERS: u32 = 30;
/// Most players a Swiss tournament takes.
pub const SWISS_MAX_PLAYERS: u32 = 256;
/// Most rounds of a Swiss tournament.
pub const SWISS_MAX_ROUNDS: u32 = 20;
/// Fewest players a tournament starts with.
pub const MIN_PLAYERS: usize = 3;
/// How far ahead a start may be set.
pub const STARTS_WITHIN_DAYS: i64 = 365;

/// How a tournament pairs its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentSystem {
    /// Every player plays every other (twice with `double`), all games at once
    RoundRobin,
    /// A set number of rounds, each paired by score when the last ends
    Swiss,
}

impl TournamentSystem {
    pub fn domain(self) -> System {
        match self {
            Self::RoundRobin => System::RoundRobin,
            Self::Swiss => System::Swiss,
        }
    }

    pub fn of(system: System) -> Self {
        match system {
            System::RoundRobin => Self::RoundRobin,
            System::Swiss => Self::Swiss,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::RoundRobin => "round_robin",
            Self::Swiss => "swiss",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Self::RoundRobin, Self::Swiss]
            .into_iter()
            .find(|s| s.name() == text)
    }

    fn max_players(self) -> u32 {
        match self {
            Self::RoundRobin => ROUND_ROBIN_MAX_PLAYERS,
            Self::Swiss => SWISS_MAX_PLAYERS,
        }
    }
}

/// A new tournament. The caller organises it, and plays only if they
/// join it too.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Winter Swiss", "system": "swiss", "rounds": 5,
    "variant": "classic", "time_control": {"type": "fischer", "initial_days": 10,
    "increment_days": 1, "max_days": 20}, "rated": true, "max_players": 32}))]
pub struct CreateTournament {
    /// 1-80 characters
    pub name: String,
    pub system: TournamentSystem,
    /// default `classic`
    #[serde(default)]
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    /// Any subset of the rules; the rest take their defaults (docs/rules.md).
    #[serde(default, deserialize_with = "object")]
    #[schema(value_type = RulesDoc)]
    pub rules: Rules,
    /// Every game's time control (docs/lifecycle.md, "Clocks"); default
    /// `per_move` of 3 days
    #[serde(default)]
    #[schema(value_type = Option<TimeControlDoc>)]
    pub time_control: Option<TimeControl>,
    /// Shorthand for `{"type": "per_move", "days": n}` (1-14); not
    /// together with `time_control`
    #[serde(default)]
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<i32>,
    /// Whether its games count for ratings (default `true`)
    #[serde(default)]
    pub rated: Option<bool>,
    /// Swiss only, and required there: how many rounds (1-20; fewer than
    /// the players when it starts)
    #[serde(default)]
    #[schema(minimum = 1, maximum = 20)]
    pub rounds: Option<u32>,
    /// Round robin only: each pair plays twice, once with each color
    /// (default `false`)
    #[serde(default)]
    pub double: Option<bool>,
    /// The most players it takes (3-30 for a round robin, 3-256 for a
    /// Swiss; default that bound)
    #[serde(default)]
    #[schema(minimum = 3, maximum = 256)]
    pub max_players: Option<u32>,
    /// When it starts by itself (with at least 3 players), within a year;
    /// without it, when its organiser starts it
    #[serde(default)]
    pub starts_at: Option<DateTime<Utc>>,
    /// Swiss only: what a bye is worth, 0, 0.5 or 1 (default 1)
    #[serde(default)]
    pub bye_points: Option<f64>,
}

/// A tournament as it is to be stored, checked.
#[derive(Debug, Clone)]
pub struct Checked {
    pub name: String,
    pub system: TournamentSystem,
    pub settings: TournamentSettings,
    pub rounds: Option<u32>,
    pub double: bool,
    pub max_players: u32,
    pub starts_at: Option<DateTime<Utc>>,
    /// In half points.
    pub bye_points: u32,
}

impl CreateTournament {
    /// Checks every field and their combination, at `now`.
    pub fn checked(self, now: DateTime<Utc>) -> Result<Checked, TournamentError> {
        let invalid = |text: String| Err(TournamentError::Invalid(text));
        let name = self.name.trim().to_owned();
        let length = name.chars().count();
        if length == 0 || length > NAME_MAX_CHARS {
            return invalid(format!(
                "name must be 1 to {NAME_MAX_CHARS} characters, not {length}"
            ));
        }
        if name.chars().any(char::is_control) {
            return invalid("name must not contain control characters".into());
        }
        let system = self.system;
        let rounds = match (system, self.rounds) {
            (TournamentSystem::Swiss, None) => {
                return invalid("a Swiss tournament needs rounds (1-20)".into())
            }
            (TournamentSystem::Swiss, Some(r)) if !(1..=SWISS_MAX_ROUNDS).contains(&r) => {
                return invalid(format!(
                    "rounds must be between 1 and {SWISS_MAX_ROUNDS}, not {r}"
                ))
            }
            (TournamentSystem::Swiss, Some(r)) => Some(r),
            (TournamentSystem::RoundRobin, Some(_)) => {
                return invalid(
                    "a round robin has as many rounds as its players need: leave rounds out".into(),
                )
            }
            (TournamentSystem::RoundRobin, None) => None,
        };
        if system == TournamentSystem::Swiss && self.double.is_some() {
            return invalid("double is for round robins only".into());
        }
        let cap = system.max_players();
        let max_players = self.max_players.unwrap_or(cap);
        if !(MIN_PLAYERS as u32..=cap).contains(&max_players) {
            return invalid(format!(
                "max_players must be between {MIN_PLAYERS} and {cap} for a {}, not {max_players}",
                system.name()
            ));
        }
        if let Some(r) = rounds {
            if r >= max_players {
                return invalid(format!(
                    "{r} rounds need at least {} players, and max_players is {max_players}",
                    r + 1
                ));
            }
        }
        if let Some(at) = self.starts_at {
            if at <= now || at > now + Duration::days(STARTS_WITHIN_DAYS) {
                return invalid(format!(
                    "starts_at must be in the future and within {STARTS_WITHIN_DAYS} days"
                ));
            }
        }
        let bye_points = match (system, self.bye_points) {
            // A round robin's bye is worth nothing: everyone has one.
            (TournamentSystem::RoundRobin, None) => 0,
            (TournamentSystem::Swiss, None) => 2,
            (TournamentSystem::RoundRobin, Some(_)) => {
                return invalid("bye_points is for Swiss tournaments only".into())
            }
            // 0, 0.5 or 1 point: 0, 1 or 2 half points.
            (TournamentSystem::Swiss, Some(p)) if [0.0, 1.0, 2.0].contains(&(p * 2.0)) => {
                (p * 2.0) as u32
            }
            (TournamentSystem::Swiss, Some(p)) => {
                return invalid(format!("bye_points must be 0, 0.5 or 1, not {p}"))
            }
        };
        self.rules
            .validate()
            .map_err(|e| TournamentError::Invalid(e.to_string()))?;
        let time_control = asked_time_control(self.time_control, self.days_per_move)
            .map_err(|e| TournamentError::Invalid(e.to_string()))?
            .unwrap_or(TimeControl::PerMove {
                days: crate::games::requests::DEFAULT_DAYS_PER_MOVE as u32,
            });
        Ok(Checked {
            name,
            system,
            settings: TournamentSettings {
                variant: self.variant,
                rules: self.rules,
                time_control,
                rated: self.rated.unwrap_or(true),
            },
            rounds,
            double: self.double.unwrap_or(false),
            max_players,
            starts_at: self.starts_at,
            bye_points,
        })
    }
}

/// Who joins or leaves: the caller, or (the organiser only) a bot.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"bot": "bot-tactician"}))]
pub struct JoinTournament {
    /// The organiser may enter (or withdraw) a bot (`GET /bots`) instead
    /// of themselves
    #[serde(default)]
    pub bot: Option<String>,
}
