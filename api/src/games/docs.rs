//! OpenAPI schemas of the domain types the game endpoints send and accept.
//! The domain crate is pure (no utoipa), so these mirror its serde shapes
//! for the documentation only; the values on the wire are the domain's own.
// They are only ever described (utoipa reads them), never built; their
// fields are public, as the wire shape they describe is.

use serde::Serialize;
use utoipa::ToSchema;

/// A side.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Color)]
pub enum ColorDoc {
    Red,
    Blue,
}

/// A square: a file `a`-`j` and a rank `1`-`10`, such as `e4`. The server
/// reads upper-case files too, and always writes lower case.
#[derive(Serialize)]
pub struct SquareDoc;

/// Exactly the names `domain::Square` parses.
pub const SQUARE_PATTERN: &str = "^[a-jA-J](10|[1-9])$";

impl utoipa::PartialSchema for SquareDoc {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some(SQUARE_PATTERN))
            .description(Some(
                "A square: a file `a`-`j` and a rank `1`-`10`, such as `e4` \
                 (upper-case files are read too; the server writes lower case).",
            ))
            .examples(["e4"])
            .into()
    }
}

impl ToSchema for SquareDoc {
    fn name() -> std::borrow::Cow<'static, str> {
        "Square".into()
    }
}

/// A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Variant)]
pub enum VariantDoc {
    Classic,
    Barrage,
    Duel,
}

/// How much time each player has (docs/lifecycle.md, "Clocks"); `type`
/// says which control. Bounds: `per_move` days 1-14; `fischer`
/// initial_days 1-90, increment_days 1-14, max_days 1-180 and at least
/// both others; `moves_in_days` moves 1-50, days 1-180 and at least
/// moves.
#[derive(Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = TimeControl)]
pub enum TimeControlDoc {
    /// `days` for every move (and for the setup); unused time is lost.
    PerMove {
        #[schema(minimum = 1, maximum = 14)]
        days: u32,
    },
    /// A bank of `initial_days` per player; each move adds
    /// `increment_days`, never beyond `max_days`.
    Fischer {
        #[schema(minimum = 1, maximum = 90)]
        initial_days: u32,
        #[schema(minimum = 1, maximum = 14)]
        increment_days: u32,
        #[schema(minimum = 1, maximum = 180)]
        max_days: u32,
    },
    /// `days` for every `moves` moves, unused time carried forward (as
    /// ICCF counts "10 moves in 50 days").
    MovesInDays {
        #[schema(minimum = 1, maximum = 50)]
        moves: u32,
        #[schema(minimum = 1, maximum = 180)]
        days: u32,
    },
}

/// A piece by name.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Piece)]
pub enum PieceDoc {
    Flag,
    Spy,
    Scout,
    Miner,
    Sergeant,
    Lieutenant,
    Captain,
    Major,
    Colonel,
    General,
    Marshal,
    Bomb,
}

/// The rules of a game; every field optional on creation (docs/rules.md
/// defaults), always complete in a view.
#[derive(ToSchema)]
#[schema(as = Rules, example = json!({"two_square_limit": 3, "scout_strike_after_move": true,
    "aggressor_advantage": false, "silent_defense": false, "rescue": false,
    "max_plies": null, "max_plies_without_battle": null, "more_squares_rule": false}))]
pub struct RulesDoc {
    /// 2-10, default 3
    #[schema(minimum = 2, maximum = 10, required = false)]
    pub two_square_limit: u8,
    /// default true
    #[schema(required = false)]
    pub scout_strike_after_move: bool,
    /// default false
    #[schema(required = false)]
    pub aggressor_advantage: bool,
    /// default false
    #[schema(required = false)]
    pub silent_defense: bool,
    /// default false
    #[schema(required = false)]
    pub rescue: bool,
    /// a draw (`move_limit`) after this many plies; null = no cap
    #[schema(minimum = 1, maximum = 1_000_000)]
    pub max_plies: Option<u32>,
    /// a draw after this many plies without a battle; null = no cap
    #[schema(minimum = 1, maximum = 1_000_000)]
    pub max_plies_without_battle: Option<u32>,
    /// default false; tournament play turns it on: no endless chase back into
    /// a position that already stood during the chase (docs/more-squares-rule.md)
    #[schema(required = false)]
    pub more_squares_rule: bool,
}

/// The complete rules in force in a game (every rule is always sent).
#[derive(ToSchema)]
#[schema(as = RulesView, example = json!({"two_square_limit": 3, "scout_strike_after_move": true,
    "aggressor_advantage": false, "silent_defense": false, "rescue": false,
    "max_plies": null, "max_plies_without_battle": null, "more_squares_rule": false}))]
pub struct RulesViewDoc {
    /// How many times in a row a piece may cross the same border back and forth
    #[schema(minimum = 2, maximum = 10)]
    pub two_square_limit: u8,
    /// A scout may end a line move by attacking
    pub scout_strike_after_move: bool,
    /// In a battle of equal strengths the attacker wins
    pub aggressor_advantage: bool,
    /// Only the attacker's rank is revealed in a battle
    pub silent_defense: bool,
    /// Reaching the opponent's back row may bring back a captured piece
    pub rescue: bool,
    /// A draw (`move_limit`) after this many plies; `null`: no cap
    #[schema(minimum = 1, maximum = 1_000_000, required = true)]
    pub max_plies: Option<u32>,
    /// A draw after this many plies without a battle; `null`: no cap
    #[schema(minimum = 1, maximum = 1_000_000, required = true)]
    pub max_plies_without_battle: Option<u32>,
    /// No endless chase back into a position that already stood during the
    /// chase (the more-squares rule, docs/more-squares-rule.md)
    pub more_squares_rule: bool,
}

/// One occupied square as the viewer sees it.
#[derive(ToSchema)]
#[schema(as = BoardPiece, example = json!({"id": 76, "square": "h8", "color": "blue",
    "piece": null, "strength": null, "revealed": false, "moved": true}))]
pub struct PieceViewDoc {
    /// A stable id with no rank information: the piece's starting square
    /// index (0 = a1 .. 99 = j10), or 100, 101, ... for a piece brought back
    /// by a rescue (in the order of the game's rescues)
    pub id: u8,
    pub square: SquareDoc,
    pub color: ColorDoc,
    /// `null` when the viewer may not know the rank
    #[schema(required = true)]
    pub piece: Option<PieceDoc>,
    /// Modern strength (marshal 10 .. spy 1); null when hidden or bomb/flag
    #[schema(required = true)]
    pub strength: Option<u8>,
    /// The owner's opponent knows the rank
    pub revealed: bool,
    /// The piece has moved at least once (public)
    pub moved: bool,
}

/// Captured pieces of each color: known ranks in capture order, then `null`
/// for each rank unknown to the viewer (only under `silent_defense`).
#[derive(ToSchema)]
#[schema(as = Captured)]
pub struct CapturedDoc {
    pub red: Vec<Option<PieceDoc>>,
    pub blue: Vec<Option<PieceDoc>>,
}

/// A move from one square to another.
#[derive(ToSchema)]
#[schema(as = Move, example = json!({"from": "b4", "to": "b5"}))]
pub struct MoveDoc {
    pub from: SquareDoc,
    pub to: SquareDoc,
}

/// Outcome of a battle.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Outcome)]
pub enum OutcomeDoc {
    AttackerWins,
    DefenderWins,
    BothLose,
}

/// A battle as the viewer sees it (a rank the viewer may not know is null).
#[derive(ToSchema)]
#[schema(as = Battle)]
pub struct BattleDoc {
    /// `null` when the viewer may not know the rank
    #[schema(required = true)]
    pub attacker: Option<PieceDoc>,
    /// `null` when the viewer may not know the rank
    #[schema(required = true)]
    pub defender: Option<PieceDoc>,
    pub outcome: OutcomeDoc,
}

/// A rescue made with a move (docs/rules.md, `rescue`).
#[derive(ToSchema)]
#[schema(as = Rescue, example = json!({"piece": "captain", "square": "e2"}))]
pub struct RescueDoc {
    pub piece: PieceDoc,
    pub square: SquareDoc,
}

/// One ply as the viewer may see it.
#[derive(ToSchema)]
#[schema(as = MoveView, example = json!({"ply": 16, "color": "blue", "from": "e8", "to": "e7",
    "piece": "captain", "battle": {"attacker": "captain", "defender": "major",
    "outcome": "defender_wins"}, "rescue": null}))]
pub struct MoveViewDoc {
    pub ply: u32,
    pub color: ColorDoc,
    pub from: SquareDoc,
    pub to: SquareDoc,
    /// The moving piece, if the viewer may know it
    #[schema(required = true)]
    pub piece: Option<PieceDoc>,
    /// The battle the move started; `null` for a move to an empty square
    #[schema(required = true)]
    pub battle: Option<BattleDoc>,
    /// The rescue made with the move, if any
    #[schema(required = true)]
    pub rescue: Option<RescueDoc>,
}

/// Why a game ended.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = EndReason)]
pub enum EndReasonDoc {
    FlagCaptured,
    NoMoves,
    Resignation,
    Timeout,
    DrawAgreed,
    BothImmobile,
    MoveLimit,
}

/// How a game ended; `winner` is null for a draw.
#[derive(ToSchema)]
#[schema(as = GameResult, example = json!({"winner": "red", "reason": "flag_captured"}))]
pub struct GameResultDoc {
    /// `null` for a draw
    #[schema(required = true)]
    pub winner: Option<ColorDoc>,
    pub reason: EndReasonDoc,
}

/// One thing wrong with a placement (in `problems` of `invalid_setup`).
#[derive(Serialize, ToSchema)]
#[serde(tag = "problem", rename_all = "snake_case")]
#[schema(as = SetupProblem)]
pub enum SetupProblemDoc {
    /// The value is not one of the twelve lower-case piece names.
    UnknownPiece {
        /// As sent (at most 32 characters)
        square: String,
        /// As sent (at most 32 characters)
        piece: String,
    },
    /// The key is not a square name.
    BadSquare {
        /// As sent (at most 32 characters)
        square: String,
    },
    /// The square is not in the caller's setup zone.
    OutsideZone { square: SquareDoc },
    /// The square is a lake.
    Lake { square: SquareDoc },
    /// The square was given before.
    DuplicateSquare { square: SquareDoc },
    /// The army needs `expected` of this piece; the placement has `found`.
    WrongCount {
        piece: PieceDoc,
        expected: u32,
        found: u32,
    },
}

/// A PNG image (the bytes of the file).
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct PngImage(pub Vec<u8>);
