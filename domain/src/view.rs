//! Per-viewer views. The types here have no field that could hold a rank the
//! viewer may not know: a hidden rank is simply `None`, decided when the view
//! is built from the game.

use serde::{Deserialize, Serialize};

/// Makes the view types impossible to build outside this crate: every one
/// carries this private marker, so only `domain` decides what a viewer
/// sees (the fields stay readable). Not serialized.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Seal(());

impl Seal {
    pub(crate) const fn new() -> Seal {
        Seal(())
    }
}

use crate::{Color, GameResult, Move, MoveView, Piece, PieceId, Square};

/// Who is looking: one of the players, or anyone else.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Viewer {
    Player(Color),
    Spectator,
}

impl Viewer {
    /// `Player(color)` for a player, `Spectator` for `None`.
    pub fn from_color(color: Option<Color>) -> Viewer {
        color.map_or(Viewer::Spectator, Viewer::Player)
    }
}

/// A pair of values, one per color, serialized as `{"red": .., "blue": ..}`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct ByColor<T> {
    pub red: T,
    pub blue: T,
}

impl<T> ByColor<T> {
    /// The value for `color`.
    pub fn get(&self, color: Color) -> &T {
        match color {
            Color::Red => &self.red,
            Color::Blue => &self.blue,
        }
    }

    /// The value for `color`, to change it.
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Red => &mut self.red,
            Color::Blue => &mut self.blue,
        }
    }
}

/// The pieces of each color that have been removed from the board: the
/// ranks the viewer knows in the order they were captured, then a `None`
/// for each rank the viewer may not know (only under `silent_defense`).
pub type Captured = ByColor<Vec<Option<Piece>>>;

/// One piece on the board as the viewer sees it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PieceView {
    /// Stable identifier: the piece's starting square. Carries no rank.
    pub id: PieceId,
    pub square: Square,
    pub color: Color,
    /// The rank, or `None` if the viewer may not know it.
    pub piece: Option<Piece>,
    /// Modern strength of `piece` (marshal 10 .. spy 1), `None` when the
    /// rank is hidden or the piece is a bomb or flag.
    pub strength: Option<u8>,
    /// Whether the opponent of this piece's owner knows its rank.
    pub revealed: bool,
    /// Whether the piece has moved at least once (public).
    pub moved: bool,
    #[serde(skip)]
    pub(crate) seal: Seal,
}

/// The game as one viewer may see it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct View {
    /// Plies played so far.
    pub ply: u32,
    /// Whose turn it is (when finished: who would have moved next).
    pub turn: Color,
    pub result: Option<GameResult>,
    /// The color that has a draw offer pending, if any.
    pub draw_offer: Option<Color>,
    /// Occupied squares only, in square order (`a1`, `b1`, .. `j10`).
    pub board: Vec<PieceView>,
    pub captured: Captured,
    pub last_move: Option<MoveView>,
    /// Present (and complete) only for the player to move while the game is
    /// on; `None` otherwise.
    pub legal_moves: Option<Vec<Move>>,
    pub rescues_used: ByColor<u8>,
    /// Plies since the last battle (for `max_plies_without_battle`).
    pub plies_without_battle: u32,
    #[serde(skip)]
    pub(crate) seal: Seal,
}
