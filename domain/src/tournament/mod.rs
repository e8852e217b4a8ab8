//! Tournaments: who plays whom in each round, and the standings.
//!
//! Two systems. A round robin ([`round_robin`]) lays out every round at once
//! from the Berger tables. A Swiss tournament ([`pair_swiss`]) pairs one round
//! at a time from what happened so far, after a simplified FIDE Dutch system.
//! [`standings`] ranks the field by points and then by the tie-breaks of the
//! system ([`tiebreaks`]).
//!
//! Players are indices `0..n`, in the order they joined; the caller keeps the
//! names. Red moves first in Stratego, so Red plays the part chess gives
//! White in every color rule. Everything here is pure: the same input always
//! gives the same output.

mod berger;
mod matching;
mod standings;
mod swiss;

use serde::{Deserialize, Serialize};

pub use berger::round_robin;
pub use standings::standings;
pub use swiss::{pair_swiss, pair_swiss_detailed, swiss_ranking, SwissPairing};

/// Points counted in halves: a win 2, a draw 1, a loss 0.
pub type HalfPoints = u32;

/// How the rounds of a tournament are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// Everyone meets everyone (once, or twice in a double round robin).
    RoundRobin,
    /// A fixed number of rounds, each pairing players of similar score.
    Swiss,
}

/// One game of a round: who has Red (and moves first) and who has Blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    pub red: usize,
    pub blue: usize,
}

/// One round: its games, board by board, and who sits it out with the bye.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Round {
    pub pairings: Vec<Pairing>,
    pub bye: Option<usize>,
}

/// A game's outcome: `None` while unfinished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    RedWon,
    BlueWon,
    Draw,
}

/// A game of the tournament, finished or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    pub round: u32,
    pub red: usize,
    pub blue: usize,
    pub outcome: Option<Outcome>,
}

/// Everything that happened so far (rounds are numbered from 1).
#[derive(Debug, Clone, Default)]
pub struct History {
    pub games: Vec<Played>,
    /// (round, player) for every bye given.
    pub byes: Vec<(u32, usize)>,
}

/// An entrant as the Swiss pairing needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entrant {
    /// Rating (higher is stronger), for seeding round 1 and ordering within a score.
    pub rating: i32,
    /// False once withdrawn: never paired again, gets no bye.
    pub active: bool,
}

/// Why a Swiss round could not be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("fewer than two players can be paired")]
    TooFew,
    #[error("every remaining pairing would repeat a game")]
    Exhausted,
}

/// A tie-break, in the order they apply.
///
/// Every value is in points (a win is 1, a draw 0.5), and always a multiple
/// of a quarter point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// For each finished game: the opponent's final points if one won it,
    /// half of them if it was drawn, nothing if it was lost; summed.
    SonnebornBerger,
    /// Among the players level on points and on every tie-break listed
    /// before this one, the points each scored in the games played against
    /// the others of that group (0 for a player level with nobody).
    DirectEncounter,
    /// Games won (a bye is not a win).
    Wins,
    /// [`Tiebreak::Buchholz`] without the opponent who scored least (one
    /// game's opponent is dropped even if several scored as little); 0 for a
    /// player with at most one finished game.
    BuchholzCut1,
    /// The final points of the opponents of every finished game, summed
    /// (an opponent met twice counts twice; a bye adds nothing).
    Buchholz,
}

const ROUND_ROBIN_TIEBREAKS: [Tiebreak; 3] = [
    Tiebreak::SonnebornBerger,
    Tiebreak::DirectEncounter,
    Tiebreak::Wins,
];

const SWISS_TIEBREAKS: [Tiebreak; 3] = [
    Tiebreak::BuchholzCut1,
    Tiebreak::Buchholz,
    Tiebreak::SonnebornBerger,
];

/// The tie-breaks of a system, in the order they apply.
///
/// Round robin: Sonneborn-Berger, direct encounter, wins.
/// Swiss: Buchholz cut 1, Buchholz, Sonneborn-Berger.
pub fn tiebreaks(system: System) -> &'static [Tiebreak] {
    match system {
        System::RoundRobin => &ROUND_ROBIN_TIEBREAKS,
        System::Swiss => &SWISS_TIEBREAKS,
    }
}

/// A player's place in the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub player: usize,
    /// 1-based; players equal on points and every tie-break share a rank
    /// (1, 2, 2, 4 ...).
    pub rank: u32,
    pub points: HalfPoints,
    /// Finished games played (byes not counted).
    pub games: u32,
    pub wins: u32,
    /// Each of `tiebreaks(system)`, in that order, with its value (exact
    /// multiples of 0.25 as f64; compare them exactly by computing in integer
    /// quarters internally).
    pub tiebreaks: Vec<(Tiebreak, f64)>,
}

impl Outcome {
    /// The half points Red and Blue earn from this outcome.
    pub(crate) fn half_points(self) -> (HalfPoints, HalfPoints) {
        match self {
            Outcome::RedWon => (2, 0),
            Outcome::BlueWon => (0, 2),
            Outcome::Draw => (1, 1),
        }
    }
}
