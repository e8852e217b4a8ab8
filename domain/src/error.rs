//! Why an action was refused. Every message is a sentence that a player may
//! read: it names squares and the player's own pieces, never a rank of the
//! opponent that the player does not know.

use crate::{Color, Piece, RulesError, Square};

/// A move that the rules forbid. The game is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("there is no piece on {from}")]
    NoPiece { from: Square },
    #[error("the piece on {from} is not yours")]
    NotYourPiece { from: Square },
    #[error("your {piece} on {from} cannot move")]
    Immovable { from: Square, piece: Piece },
    #[error("a move must go to another square")]
    SameSquare { square: Square },
    #[error("pieces move along ranks and files, not diagonally ({from} to {to})")]
    Diagonal { from: Square, to: Square },
    #[error("no piece may enter the lake at {to}")]
    Lake { to: Square },
    #[error("your {piece} moves only one square at a time ({from} to {to} is too far)")]
    TooFar {
        from: Square,
        to: Square,
        piece: Piece,
    },
    #[error("a scout cannot pass through the lake at {lake}")]
    ThroughLake { lake: Square },
    #[error("the way is blocked by the piece on {square}")]
    Blocked { square: Square },
    #[error("{to} is occupied by your own piece")]
    OwnPiece { to: Square },
    #[error(
        "with scout_strike_after_move off, a scout attacks only an adjacent piece ({from} to {to})"
    )]
    ScoutLongAttack { from: Square, to: Square },
    #[error(
        "two-square rule: the piece on {from} may not go back to {to} again (limit {limit} moves)"
    )]
    TwoSquareRule { from: Square, to: Square, limit: u8 },
    #[error(
        "more-squares rule: moving the piece on {from} to {to} would bring back the position that stood at ply {since_ply} of your chase"
    )]
    MoreSquaresRule {
        from: Square,
        to: Square,
        since_ply: u32,
    },
    #[error("rescue is not enabled in this game")]
    RescueDisabled,
    #[error("a rescue needs a move that ends on the opponent's back row")]
    RescueNotOnBackRow,
    #[error("a scout cannot make a rescue")]
    RescueByScout,
    #[error("a bomb cannot be rescued")]
    RescueBomb,
    #[error("each player may make at most two rescues")]
    RescueLimit,
    #[error("the same piece may not make both rescues")]
    RescueSamePiece,
    #[error("you have no captured {piece} to rescue")]
    RescueNotCaptured { piece: Piece },
    #[error("a rescued piece must be placed on an empty square of your own half, not {square}")]
    RescueSquare { square: Square },
}

/// The refusals' names, spelled once: declares `kind()`, a stable
/// snake_case name of each variant (the API's `reason`), and `KINDS`, every
/// name it returns for the variants listed, each once. A variant that
/// carries another refusal may hand `kind()` on to it (after `;`).
macro_rules! kinds {
    ($ty:ident { $($pat:pat => $name:literal),* $(,)? } $(; $inner:pat => $delegate:expr)?) => {
        impl $ty {
            /// Every name [`Self::kind`] gives to the variants that are not
            /// another refusal, each once.
            pub const KINDS: &'static [&'static str] = &[$($name),*];

            /// A stable snake_case name of the reason.
            pub const fn kind(&self) -> &'static str {
                match self {
                    $($pat => $name,)*
                    $($inner => $delegate,)?
                }
            }
        }
    };
}

kinds!(IllegalMove {
    IllegalMove::NoPiece { .. } => "no_piece",
    IllegalMove::NotYourPiece { .. } => "not_your_piece",
    IllegalMove::Immovable { .. } => "immovable",
    IllegalMove::SameSquare { .. } => "same_square",
    IllegalMove::Diagonal { .. } => "diagonal",
    IllegalMove::Lake { .. } => "lake",
    IllegalMove::TooFar { .. } => "too_far",
    IllegalMove::ThroughLake { .. } => "through_lake",
    IllegalMove::Blocked { .. } => "blocked",
    IllegalMove::OwnPiece { .. } => "own_piece",
    IllegalMove::ScoutLongAttack { .. } => "scout_long_attack",
    IllegalMove::TwoSquareRule { .. } => "two_square_rule",
    IllegalMove::MoreSquaresRule { .. } => "more_squares_rule",
    IllegalMove::RescueDisabled => "rescue_disabled",
    IllegalMove::RescueNotOnBackRow => "rescue_not_on_back_row",
    IllegalMove::RescueByScout => "rescue_by_scout",
    IllegalMove::RescueBomb => "rescue_bomb",
    IllegalMove::RescueLimit => "rescue_limit",
    IllegalMove::RescueSamePiece => "rescue_same_piece",
    IllegalMove::RescueNotCaptured { .. } => "rescue_not_captured",
    IllegalMove::RescueSquare { .. } => "rescue_square",
});

/// Why [`Game::apply`](crate::Game::apply) refused an action. The game is
/// unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("only the player to move can run out of time")]
    TimeoutNotOnTurn,
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error("you have already offered a draw")]
    DrawAlreadyOffered,
    #[error("your opponent has offered a draw: accept or decline it")]
    DrawOfferPending,
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("you cannot answer your own draw offer")]
    OwnDrawOffer,
}

kinds!(ActionError {
    ActionError::GameOver => "game_over",
    ActionError::NotYourTurn => "not_your_turn",
    ActionError::TimeoutNotOnTurn => "timeout_not_on_turn",
    ActionError::DrawAlreadyOffered => "draw_already_offered",
    ActionError::DrawOfferPending => "draw_offer_pending",
    ActionError::NoDrawOffer => "no_draw_offer",
    ActionError::OwnDrawOffer => "own_draw_offer",
}; ActionError::Illegal(m) => m.kind());

impl ActionError {
    /// Every name [`Self::kind`] can return: its own and the illegal
    /// moves', each once.
    pub fn all_kinds() -> impl Iterator<Item = &'static str> {
        Self::KINDS.iter().chain(IllegalMove::KINDS).copied()
    }
}

/// Why [`Game::new`](crate::Game::new) refused to start a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("the {color} setup is for another variant")]
    WrongVariant { color: Color },
    #[error("the setup given for {color} is a {found} setup")]
    WrongColor { color: Color, found: Color },
}

/// Why a 100-character board string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardStringError {
    #[error("a board string has 100 characters, this one has {0}")]
    Length(usize),
    #[error("character {index} (`{found}`, square {square}) is not a board character")]
    BadChar {
        index: usize,
        square: Square,
        found: char,
    },
    #[error("square {square} is a lake and must be `_`")]
    LakeExpected { square: Square },
    #[error("square {square} is not a lake and cannot be `_`")]
    NotALake { square: Square },
    #[error("{color} has more {piece} pieces than the variant's army")]
    TooMany { color: Color, piece: Piece },
    #[error(transparent)]
    Rules(#[from] RulesError),
}
