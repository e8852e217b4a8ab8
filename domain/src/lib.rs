//! Stratego, and nothing else: board, pieces, variants, rules, setups, the
//! game with every rule of docs/rules.md, per-viewer
//! views, serialization, the Gravon board string and the arithmetic of
//! correspondence clocks. No I/O, no async.
//!
//! The shape follows shakmaty: an unvalidated [`Placement`] becomes a
//! validated [`Setup`]; two setups start a [`Game`]; every change goes
//! through [`Game::apply`], which leaves the game untouched on error; a
//! player only ever sees a [`View`] or a [`MoveView`], whose types cannot
//! hold a rank the player may not know.

mod board_string;
pub mod bot;
mod chase;
mod compact;
mod error;
mod game;
mod piece;
pub mod playout;
mod rating;
mod record;
pub mod rng;
mod rules;
mod setup;
mod square;
mod state;
pub mod time_control;
pub mod tournament;
pub mod vacation;
mod variant;
mod view;

pub use board_string::{char_piece, piece_char};
pub use error::{ActionError, BoardStringError, GameError, IllegalMove};
pub use game::{
    Action, Applied, EndReason, FullTruth, Game, GameResult, Move, MoveList, PieceId, PieceState,
    Rescue, MAX_LEGAL_MOVES,
};
pub use piece::{Color, ParseColorError, ParsePieceError, Piece};
pub use rating::{rate_game, Glicko, Played, Score};
pub use record::{BattleRecord, BattleView, MoveRecord, MoveView, Outcome};
pub use rules::{Rules, RulesError, PLY_CAP_RANGE, TWO_SQUARE_LIMIT_RANGE};
pub use setup::{Placement, Setup, SetupProblem, SetupProblems, SetupView, Setups};
pub use square::{ParseSquareError, Square, SquareName, LAKES};
pub use state::{StateError, FORMAT_VERSION};
pub use time_control::{Clocks, Running, TimeControl, TimeControlError};
pub use variant::{ParseVariantError, Variant};
pub use view::{ByColor, Captured, PieceView, Seal, View, Viewer};
