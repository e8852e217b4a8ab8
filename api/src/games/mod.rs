//! Games: creating and joining games, secret setups, moves, resignation
//! and draws, the per-caller view and history, and the correspondence
//! clock. Nothing here knows HTTP (docs/architecture.md).
//!
//! One file per command (`create`, `join`, `decline`, `abort`, `setup`,
//! `play`, `resign`, `draw`) and per query (`view`, `history`, `list`).
//! Every change to an existing game runs through the write [`pipeline`]
//! (source -> decide -> encode -> write -> announce; the command files say
//! what is decided and answered, [`step`] hands them over); a new game
//! (created, or offered as a rematch) is one transaction of
//! [`written::commit`]. Each returns a typed answer or a [`GameError`]; the
//! routes turn both into HTTP.

pub mod abort;
pub mod answers;
pub mod bot_worker;
pub mod bots;
pub mod clock;
pub mod clocks;
pub mod create;
pub mod decide;
pub mod decline;
pub mod docs;
pub mod draw;
pub mod encode;
pub mod error;
pub mod export;
mod fetch;
pub mod history;
mod in_play;
pub mod join;
pub mod leave;
pub mod library;
pub mod list;
pub mod notices;
pub mod picture;
pub mod pipeline;
pub mod play;
pub mod raster;
pub mod rated;
pub mod recent;
pub mod record;
pub mod rematch;
pub mod reminders;
pub mod requests;
pub mod resign;
pub mod setup;
pub mod step;
pub mod vacation;
pub mod view;
pub mod written;
mod xml;

use std::sync::Arc;

use uuid::Uuid;

use crate::clock::Clock;
use crate::db::DbPool;
use crate::events::Notifier;

pub use answers::{GameView, MoveAnswer, MoveHistory};
pub use error::GameError;
pub use record::{GameRecord, Phase};
pub use written::{Answered, Idempotency, Written};

/// What the game service needs: the database, the clock, and the wake-ups.
#[derive(Clone)]
pub struct Context {
    pub pool: DbPool,
    pub clock: Arc<dyn Clock>,
    pub notifier: Notifier,
    /// The games this process read recently: their rows for the next
    /// change, their encoded views for the next read.
    pub recent: Arc<recent::RecentGames>,
    /// The vacation days players get.
    pub vacation: domain::vacation::Allowance,
    /// Notified when a game ends: a tournament may have a round to pair
    /// (docs/tournaments.md).
    pub games_ended: Arc<tokio::sync::Notify>,
}

/// The authenticated user a command acts for.
#[derive(Debug, Clone)]
pub struct Caller {
    pub id: Uuid,
    pub name: String,
}
