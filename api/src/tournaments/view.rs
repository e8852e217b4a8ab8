//! What a client sees of a tournament: its settings, players, rounds and
//! standings (docs/tournaments.md), built from what is stored and the
//! domain's standings. Nothing here is hidden information: a tournament
//! shows results, never a board.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime, Utc};
use domain::tournament::{self, History, Outcome, Played};
use domain::{Rules, TimeControl, Variant};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::requests::TournamentSystem;
use super::TournamentError;
use crate::db::{DbConnection, StoreError};
use crate::games::docs::{RulesViewDoc, TimeControlDoc, VariantDoc};
use crate::games::record::TournamentSettings;
use crate::storage::from_db_time;
use crate::storage::games::status as game_status;
use crate::storage::tournaments::{self as store, NamedPlayer, TournamentGame, TournamentRow};

/// Where a tournament is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking players
    Open,
    /// Its games are being played
    Running,
    /// Over: the standings are final
    Finished,
}

impl TournamentStatus {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            store::status::OPEN => Some(Self::Open),
            store::status::RUNNING => Some(Self::Running),
            store::status::FINISHED => Some(Self::Finished),
            _ => None,
        }
    }
}

/// A tournament, whole.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentView {
    pub id: Uuid,
    pub name: String,
    /// The organiser's username
    pub organiser: String,
    pub system: TournamentSystem,
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    #[schema(value_type = RulesViewDoc)]
    pub rules: Rules,
    #[schema(value_type = TimeControlDoc)]
    pub time_control: TimeControl,
    pub rated: bool,
    /// How many rounds it has: a Swiss tournament's as asked; a round
    /// robin's once it starts (`null` before)
    #[schema(required = true)]
    pub round_count: Option<u32>,
    /// Round robin: each pair plays twice
    pub double: bool,
    pub max_players: u32,
    /// What a Swiss bye is worth
    pub bye_points: f64,
    /// When it starts by itself, if set
    #[schema(required = true)]
    pub starts_at: Option<DateTime<Utc>>,
    pub status: TournamentStatus,
    /// The last round paired (0 while open)
    pub current_round: u32,
    pub created_at: DateTime<Utc>,
    #[schema(required = true)]
    pub started_at: Option<DateTime<Utc>>,
    #[schema(required = true)]
    pub finished_at: Option<DateTime<Utc>>,
    /// In the order they joined (their seats)
    pub players: Vec<TournamentPlayer>,
    /// The rounds paired so far
    pub rounds: Vec<RoundView>,
    /// Ordered by rank (empty while open)
    pub standings: Vec<StandingView>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentPlayer {
    pub username: String,
    /// The rating in the tournament's variant it started with (`null`
    /// while open)
    #[schema(required = true)]
    pub rating: Option<i32>,
    /// Left the running tournament (or deleted their account): not paired
    /// again, unplayed games forfeited
    pub withdrawn: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundView {
    pub number: u32,
    pub games: Vec<RoundGameView>,
    /// Who sat this round out
    pub byes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundGameView {
    pub game_id: Uuid,
    /// Username
    pub red: String,
    /// Username
    pub blue: String,
    /// `1-0` (red won), `0-1`, `1/2-1/2`, or `0-0` (both forfeited);
    /// `null` while it is played
    #[schema(required = true)]
    pub result: Option<&'static str>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"rank": 1, "username": "alice", "points": 3.5, "games": 4,
    "wins": 3, "withdrawn": false, "tiebreaks": {"buchholz_cut_1": 8.5, "buchholz": 10.0,
    "sonneborn_berger": 9.25}}))]
pub struct StandingView {
    /// From 1; players level on points and every tie-break share one
    pub rank: u32,
    pub username: String,
    pub points: f64,
    /// Finished games (byes not counted)
    pub games: u32,
    pub wins: u32,
    pub withdrawn: bool,
    /// Round robin: `sonneborn_berger`, `direct_encounter`, `wins`;
    /// Swiss: `buchholz_cut_1`, `buchholz`, `sonneborn_berger`; written
    /// in the order they break ties
    #[schema(value_type = std::collections::BTreeMap<String, f64>)]
    pub tiebreaks: Tiebreaks,
}

/// Tie-breaks by name, kept (and written) in the order they apply.
#[derive(Debug, Clone, PartialEq)]
pub struct Tiebreaks(pub Vec<(&'static str, f64)>);

impl Serialize for Tiebreaks {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// A tournament in a list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentSummary {
    pub id: Uuid,
    pub name: String,
    pub organiser: String,
    pub system: TournamentSystem,
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    #[schema(value_type = TimeControlDoc)]
    pub time_control: TimeControl,
    pub rated: bool,
    pub status: TournamentStatus,
    /// Players in it (withdrawn ones not counted)
    pub players: u32,
    pub max_players: u32,
    #[schema(required = true)]
    pub round_count: Option<u32>,
    pub current_round: u32,
    #[schema(required = true)]
    pub starts_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentList {
    pub tournaments: Vec<TournamentSummary>,
}

/// Everything stored of one tournament.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub row: TournamentRow,
    pub organiser: String,
    /// In the order they joined.
    pub players: Vec<NamedPlayer>,
    pub games: Vec<TournamentGame>,
    /// (round, user id)
    pub byes: Vec<(i32, String)>,
}

fn corrupt(id: &str, what: &str) -> StoreError {
    StoreError::Corrupt(format!("tournament {id}: {what}"))
}

impl Loaded {
    pub fn read(conn: &mut DbConnection, id: Uuid) -> Result<Loaded, TournamentError> {
        let id = id.to_string();
        let row = store::find(conn, &id)?.ok_or(TournamentError::NotFound)?;
        let organiser = crate::storage::users::find_by_id(conn, &row.organiser_id)?
            .map(|u| u.username)
            .unwrap_or_default();
        let players = store::players(conn, &id)?;
        let (games, byes) = if row.status == store::status::OPEN {
            (Vec::new(), Vec::new())
        } else {
            (store::games_of(conn, &id)?, store::byes(conn, &id)?)
        };
        Ok(Loaded {
            row,
            organiser,
            players,
            games,
            byes,
        })
    }

    pub fn id(&self) -> Result<Uuid, StoreError> {
        Uuid::parse_str(&self.row.id).map_err(|_| corrupt(&self.row.id, "id"))
    }

    pub fn system(&self) -> Result<TournamentSystem, StoreError> {
        TournamentSystem::parse(&self.row.system).ok_or_else(|| corrupt(&self.row.id, "system"))
    }

    pub fn status(&self) -> Result<TournamentStatus, StoreError> {
        TournamentStatus::parse(&self.row.status).ok_or_else(|| corrupt(&self.row.id, "status"))
    }

    pub fn settings(&self) -> Result<TournamentSettings, StoreError> {
        let id = &self.row.id;
        Ok(TournamentSettings {
            variant: self
                .row
                .variant
                .parse()
                .map_err(|_| corrupt(id, "variant"))?,
            rules: serde_json::from_str(&self.row.rules).map_err(|_| corrupt(id, "rules"))?,
            time_control: serde_json::from_str(&self.row.time_control)
                .map_err(|_| corrupt(id, "time control"))?,
            rated: self.row.rated,
        })
    }

    /// The players who play (from the start on), by seat; none while open.
    pub fn seated(&self) -> Vec<&NamedPlayer> {
        if self.row.status == store::status::OPEN && self.row.started_at.is_none() {
            return Vec::new();
        }
        let mut seated: Vec<&NamedPlayer> = self
            .players
            .iter()
            .filter(|p| p.row.seat.is_some())
            .collect();
        seated.sort_by_key(|p| p.row.seat);
        seated
    }

    /// Each seated player's seat, by user id.
    fn seats(&self) -> HashMap<&str, usize> {
        self.seated()
            .into_iter()
            .enumerate()
            .map(|(seat, p)| (p.row.user_id.as_str(), seat))
            .collect()
    }

    /// Whether `user` was out of the tournament (withdrawn, or deleted) at
    /// `at` or before.
    fn out_by(&self, user: Option<&str>, at: NaiveDateTime) -> bool {
        self.players
            .iter()
            .find(|p| Some(p.row.user_id.as_str()) == user)
            .and_then(|p| match (p.row.withdrawn_at, p.deleted_at) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            })
            .is_some_and(|out| out <= at)
    }

    /// How a game counts: `Some` once it is over, as the domain scores it;
    /// `None` while it is played. An aborted game was either forfeited by
    /// whoever had left the tournament (or deleted their account) by the
    /// time it was aborted, or (no one had) ended by the setup clock,
    /// lost by whoever had not set up. Both sides losing counts for
    /// nobody. Decided from what held when the game ended, so a later
    /// withdrawal changes no result.
    fn outcome(&self, game: &TournamentGame) -> Option<Scored> {
        match game.status.as_str() {
            game_status::FINISHED => Some(match game.result_winner.as_deref() {
                Some("red") => Scored::Outcome(Outcome::RedWon),
                Some("blue") => Scored::Outcome(Outcome::BlueWon),
                _ => Scored::Outcome(Outcome::Draw),
            }),
            game_status::ABORTED => {
                let red_left = self.out_by(game.red_user_id.as_deref(), game.updated_at);
                let blue_left = self.out_by(game.blue_user_id.as_deref(), game.updated_at);
                let (red_lost, blue_lost) = if red_left || blue_left {
                    (red_left, blue_left)
                } else {
                    (!game.red_set_up, !game.blue_set_up)
                };
                Some(match (red_lost, blue_lost) {
                    (true, false) => Scored::Outcome(Outcome::BlueWon),
                    (false, true) => Scored::Outcome(Outcome::RedWon),
                    _ => Scored::BothLost,
                })
            }
            _ => None,
        }
    }

    /// The games and byes so far, by seat, as the domain takes them.
    pub fn history(&self) -> History {
        let seats = self.seats();
        let seat = |user: &Option<String>| user.as_deref().and_then(|u| seats.get(u).copied());
        let games = self
            .games
            .iter()
            .filter_map(|game| {
                let (red, blue) = (seat(&game.red_user_id)?, seat(&game.blue_user_id)?);
                let outcome = match self.outcome(game) {
                    Some(Scored::Outcome(outcome)) => Some(outcome),
                    // Both forfeited: paired (never again), scored for nobody.
                    Some(Scored::BothLost) | None => None,
                };
                Some(Played {
                    round: game.round.and_then(|r| u32::try_from(r).ok()).unwrap_or(0),
                    red,
                    blue,
                    outcome,
                })
            })
            .collect();
        let byes = self
            .byes
            .iter()
            .filter_map(|(round, user)| {
                Some((u32::try_from(*round).ok()?, *seats.get(user.as_str())?))
            })
            .collect();
        History { games, byes }
    }

    /// The standings by seat (empty while open).
    pub fn standings(&self) -> Result<Vec<tournament::Standing>, StoreError> {
        let seated = self.seated();
        if seated.is_empty() {
            return Ok(Vec::new());
        }
        let bye_points = u32::try_from(self.row.bye_points).unwrap_or(0);
        Ok(tournament::standings(
            self.system()?.domain(),
            seated.len(),
            &self.history(),
            bye_points,
        ))
    }

    pub fn view(&self) -> Result<TournamentView, StoreError> {
        let id = self.id()?;
        let settings = self.settings()?;
        let system = self.system()?;
        let seated = self.seated();
        let name_of = |user: &Option<String>| {
            user.as_deref()
                .and_then(|u| self.players.iter().find(|p| p.row.user_id == u))
                .map(|p| p.username.clone())
                .unwrap_or_default()
        };
        let mut rounds: Vec<RoundView> = Vec::new();
        let round_of = |rounds: &mut Vec<RoundView>, number: u32| -> usize {
            match rounds.iter().position(|r| r.number == number) {
                Some(at) => at,
                None => {
                    rounds.push(RoundView {
                        number,
                        games: Vec::new(),
                        byes: Vec::new(),
                    });
                    rounds.len() - 1
                }
            }
        };
        for game in &self.games {
            let number = game.round.and_then(|r| u32::try_from(r).ok()).unwrap_or(0);
            let at = round_of(&mut rounds, number);
            rounds[at].games.push(RoundGameView {
                game_id: Uuid::parse_str(&game.id).map_err(|_| corrupt(&self.row.id, "game"))?,
                red: name_of(&game.red_user_id),
                blue: name_of(&game.blue_user_id),
                result: self.outcome(game).map(Scored::text),
            });
        }
        for (round, user) in &self.byes {
            let at = round_of(&mut rounds, u32::try_from(*round).unwrap_or(0));
            rounds[at].byes.push(name_of(&Some(user.clone())));
        }
        rounds.sort_by_key(|r| r.number);
        let standings = self
            .standings()?
            .into_iter()
            .filter_map(|standing| {
                let player = seated.get(standing.player)?;
                Some(StandingView {
                    rank: standing.rank,
                    username: player.username.clone(),
                    points: f64::from(standing.points) / 2.0,
                    games: standing.games,
                    wins: standing.wins,
                    withdrawn: gone(player),
                    tiebreaks: Tiebreaks(
                        standing
                            .tiebreaks
                            .iter()
                            .map(|(tiebreak, value)| (tiebreak_name(*tiebreak), *value))
                            .collect(),
                    ),
                })
            })
            .collect();
        Ok(TournamentView {
            id,
            name: self.row.name.clone(),
            organiser: self.organiser.clone(),
            system,
            variant: settings.variant,
            rules: settings.rules,
            time_control: settings.time_control,
            rated: settings.rated,
            round_count: self.row.rounds.and_then(|r| u32::try_from(r).ok()),
            double: self.row.double_round,
            max_players: u32::try_from(self.row.max_players.unwrap_or(0)).unwrap_or(0),
            bye_points: f64::from(self.row.bye_points) / 2.0,
            starts_at: self.row.starts_at.map(from_db_time),
            status: self.status()?,
            current_round: u32::try_from(self.row.current_round).unwrap_or(0),
            created_at: from_db_time(self.row.created_at),
            started_at: self.row.started_at.map(from_db_time),
            finished_at: self.row.finished_at.map(from_db_time),
            players: self
                .players
                .iter()
                .map(|p| TournamentPlayer {
                    username: p.username.clone(),
                    rating: p.row.rating,
                    withdrawn: gone(p),
                })
                .collect(),
            rounds,
            standings,
        })
    }
}

/// Whether a player is out of the tournament: withdrawn, or their
/// account deleted (treated the same, docs/tournaments.md).
pub fn gone(player: &NamedPlayer) -> bool {
    player.row.withdrawn_at.is_some() || player.deleted_at.is_some()
}

/// How a finished game counts.
#[derive(Debug, Clone, Copy)]
enum Scored {
    Outcome(Outcome),
    BothLost,
}

impl Scored {
    fn text(self) -> &'static str {
        match self {
            Scored::Outcome(Outcome::RedWon) => "1-0",
            Scored::Outcome(Outcome::BlueWon) => "0-1",
            Scored::Outcome(Outcome::Draw) => "1/2-1/2",
            Scored::BothLost => "0-0",
        }
    }
}

pub fn tiebreak_name(tiebreak: tournament::Tiebreak) -> &'static str {
    use tournament::Tiebreak as T;
    match tiebreak {
        T::SonnebornBerger => "sonneborn_berger",
        T::DirectEncounter => "direct_encounter",
        T::Wins => "wins",
        T::BuchholzCut1 => "buchholz_cut_1",
        T::Buchholz => "buchholz",
    }
}

/// A summary of `row` with `players` in it.
pub fn summary(
    row: &TournamentRow,
    organiser: String,
    players: u32,
) -> Result<TournamentSummary, StoreError> {
    let bad = |what: &str| corrupt(&row.id, what);
    Ok(TournamentSummary {
        id: Uuid::parse_str(&row.id).map_err(|_| bad("id"))?,
        name: row.name.clone(),
        organiser,
        system: TournamentSystem::parse(&row.system).ok_or_else(|| bad("system"))?,
        variant: row.variant.parse().map_err(|_| bad("variant"))?,
        time_control: serde_json::from_str(&row.time_control).map_err(|_| bad("time control"))?,
        rated: row.rated,
        status: TournamentStatus::parse(&row.status).ok_or_else(|| bad("status"))?,
        players,
        max_players: u32::try_from(row.max_players.unwrap_or(0)).unwrap_or(0),
        round_count: row.rounds.and_then(|r| u32::try_from(r).ok()),
        current_round: u32::try_from(row.current_round).unwrap_or(0),
        starts_at: row.starts_at.map(from_db_time),
        created_at: from_db_time(row.created_at),
    })
}
