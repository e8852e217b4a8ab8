//! Tournaments (docs/tournaments.md): round robins, whose games all start
//! at once, and Swiss events, paired round by round as the last game of a
//! round ends. Their games are ordinary games linked to them; who plays
//! whom, and the standings, are decided in `domain::tournament`.
//!
//! One file per concern: `requests` (what a client sends, checked),
//! `commands` (create, join, leave, start, delete), `rounds` (pairing a
//! round into games, and the end), `view` (what a client sees),
//! `worker` (the background task that starts and advances them).

pub mod commands;
pub mod requests;
pub mod rounds;
pub mod view;
pub mod worker;

use crate::db::StoreError;
use crate::games::GameError;

pub use requests::{CreateTournament, JoinTournament, TournamentSystem};
pub use view::{TournamentList, TournamentView};

/// Why a tournament command was refused.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("no such tournament")]
    NotFound,
    #[error("{0}")]
    Forbidden(String),
    /// Not in the state the command needs (open, running).
    #[error("{0}")]
    WrongPhase(String),
    #[error("{0}")]
    Invalid(String),
    #[error("the tournament is full: it takes {0} players")]
    Full(u32),
    #[error("{0}")]
    TooFewPlayers(String),
    /// Another process changed the tournament first: tried again.
    #[error("the tournament kept changing; try again")]
    Lost,
    #[error(transparent)]
    Games(#[from] GameError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<diesel::result::Error> for TournamentError {
    fn from(error: diesel::result::Error) -> Self {
        TournamentError::Store(error.into())
    }
}

impl crate::db::LostConnection for TournamentError {
    fn lost_connection(&self) -> bool {
        match self {
            Self::Store(store) => store.lost_connection(),
            Self::Games(games) => games.lost_connection(),
            _ => false,
        }
    }
}

impl crate::db::Conflicted for TournamentError {
    fn conflicted(&self) -> bool {
        matches!(self, Self::Store(store) if store.conflicted())
    }
}
