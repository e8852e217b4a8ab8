//! The stored form of a [`Game`]: a versioned, self-describing document.
//! Reading one back checks it thoroughly, so a corrupted or hand-edited
//! document is refused instead of producing an impossible game.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::game::{PieceId, RecentMove, Unit, EMPTY, RECENT_MOVES};
use crate::view::ByColor;
use crate::{Color, Game, GameResult, MoveRecord, Piece, Rules, Square, Variant};

/// The current format version. Bump it (and keep reading the old versions)
/// whenever the stored shape changes.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameState {
    format: u32,
    variant: Variant,
    rules: Rules,
    turn: Color,
    ply: u32,
    plies_without_battle: u32,
    result: Option<GameResult>,
    draw_offer: Option<Color>,
    /// Every piece of the game, on the board or captured.
    pieces: Vec<StoredPiece>,
    /// Captured pieces of each color by id, in capture order.
    captured: ByColor<Vec<PieceId>>,
    /// Each player's most recent moves (at most 10), oldest first.
    recent_moves: ByColor<Vec<StoredMove>>,
    /// The pieces that made each player's rescues.
    rescuers: ByColor<Vec<PieceId>>,
    last_move: Option<MoveRecord>,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredPiece {
    id: PieceId,
    color: Color,
    piece: Piece,
    /// `None` when captured.
    square: Option<Square>,
    revealed: bool,
    moved: bool,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredMove {
    piece: PieceId,
    from: Square,
    to: Square,
}

impl From<Game> for GameState {
    fn from(g: Game) -> GameState {
        let id = |i: u8| g.units[i as usize].id;
        let by_color = |f: &dyn Fn(Color) -> Vec<PieceId>| ByColor {
            red: f(Color::Red),
            blue: f(Color::Blue),
        };
        GameState {
            format: FORMAT_VERSION,
            variant: g.variant,
            rules: g.rules,
            turn: g.turn,
            ply: g.ply,
            plies_without_battle: g.plies_without_battle,
            result: g.result,
            draw_offer: g.draw_offer,
            pieces: g
                .units
                .iter()
                .map(|u| StoredPiece {
                    id: u.id,
                    color: u.color,
                    piece: u.piece,
                    square: u.alive.then_some(u.square),
                    revealed: u.revealed,
                    moved: u.moved,
                })
                .collect(),
            captured: by_color(&|c| g.captured[c.index()].iter().map(|&i| id(i)).collect()),
            recent_moves: ByColor {
                red: stored_moves(&g, Color::Red),
                blue: stored_moves(&g, Color::Blue),
            },
            rescuers: by_color(&|c| g.rescuers[c.index()].to_vec()),
            last_move: g.last_move,
        }
    }
}

fn stored_moves(g: &Game, color: Color) -> Vec<StoredMove> {
    g.recent[color.index()]
        .iter()
        .map(|m| StoredMove {
            piece: g.units[m.unit as usize].id,
            from: m.from,
            to: m.to,
        })
        .collect()
}

/// Why a stored game could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stored game is not valid: {0}")]
pub struct StateError(String);

fn bad<T>(msg: impl Into<String>) -> Result<T, StateError> {
    Err(StateError(msg.into()))
}

impl TryFrom<GameState> for Game {
    type Error = StateError;

    fn try_from(s: GameState) -> Result<Game, StateError> {
        if s.format != FORMAT_VERSION {
            return bad(format!("unsupported format version {}", s.format));
        }
        s.rules.validate().map_err(|e| StateError(e.to_string()))?;
        if s.plies_without_battle > s.ply {
            return bad("more plies without battle than plies");
        }
        if s.result.is_some() && s.draw_offer.is_some() {
            return bad("a finished game has a draw offer");
        }
        if s.pieces.len() > 80 {
            return bad("too many pieces");
        }
        let mut units: ArrayVec<Unit, 80> = ArrayVec::new();
        let mut board = [EMPTY; 100];
        let mut counts = [[0u8; 12]; 2];
        let mut seen_ids = [false; PieceId::END as usize];
        for p in &s.pieces {
            let id = p.id.get() as usize;
            if id >= seen_ids.len() || seen_ids[id] {
                return bad(format!("piece id {id} is invalid or repeated"));
            }
            seen_ids[id] = true;
            // Red's pieces first; within a colour, in setup order (by
            // starting square), except that a rescued piece keeps its place
            // and has the fresh id it was given.
            if let Some(last) = units.last() {
                if last.color > p.color
                    || (last.color == p.color
                        && !last.id.is_rescued()
                        && !p.id.is_rescued()
                        && last.id >= p.id)
                {
                    return bad("pieces are not in order (red first, then by id)");
                }
            }
            let count = &mut counts[p.color.index()][p.piece.index()];
            *count += 1;
            if *count > s.variant.count(p.piece) {
                return bad(format!("{} has too many {} pieces", p.color, p.piece));
            }
            let index = units.len() as u8;
            if let Some(square) = p.square {
                if square.is_lake() || board[square.index()] != EMPTY {
                    return bad(format!("square {square} is a lake or used twice"));
                }
                board[square.index()] = index;
            }
            units.push(Unit {
                id: p.id,
                color: p.color,
                piece: p.piece,
                square: p.square.unwrap_or(Square::from_index_wrapping(p.id.get())),
                alive: p.square.is_some(),
                revealed: p.revealed,
                moved: p.moved,
            });
        }
        let red_units = units.iter().filter(|u| u.color == Color::Red).count() as u8;
        let find = |id: PieceId| -> Result<u8, StateError> {
            units
                .iter()
                .position(|u| u.id == id)
                .map(|i| i as u8)
                .ok_or_else(|| StateError(format!("unknown piece id {}", id.get())))
        };
        let mut captured = [ArrayVec::new(), ArrayVec::new()];
        let mut recent = [ArrayVec::new(), ArrayVec::new()];
        let mut rescuers = [ArrayVec::new(), ArrayVec::new()];
        for color in Color::ALL {
            let c = color.index();
            for &id in s.captured.get(color) {
                let unit = find(id)?;
                let u = &units[unit as usize];
                if u.alive || u.color != color || captured[c].contains(&unit) {
                    return bad(format!("captured list of {color} is inconsistent"));
                }
                captured[c].push(unit);
            }
            let dead = units
                .iter()
                .filter(|u| u.color == color && !u.alive)
                .count();
            if dead != captured[c].len() {
                return bad(format!("captured list of {color} is incomplete"));
            }
            let moves = s.recent_moves.get(color);
            if moves.len() > RECENT_MOVES {
                return bad("too many recent moves");
            }
            for m in moves {
                let unit = find(m.piece)?;
                if units[unit as usize].color != color {
                    return bad("a recent move names the other color's piece");
                }
                recent[c].push(RecentMove {
                    unit,
                    from: m.from,
                    to: m.to,
                });
            }
            let ids = s.rescuers.get(color);
            if ids.len() > 2 {
                return bad("more than two rescues");
            }
            for &id in ids {
                find(id)?;
                if rescuers[c].contains(&id) {
                    return bad("the same piece made two rescues");
                }
                rescuers[c].push(id);
            }
        }
        let game = Game {
            variant: s.variant,
            rules: s.rules,
            units,
            red_units,
            board,
            turn: s.turn,
            ply: s.ply,
            plies_without_battle: s.plies_without_battle,
            result: s.result,
            draw_offer: s.draw_offer,
            recent,
            captured,
            rescuers,
            last_move: s.last_move,
        };
        // A game that is on always has a player to move who can move (every
        // move and `Game::new` end the game otherwise).
        if game.result.is_none() && game.start_of_turn_result(game.turn).is_some() {
            return bad("the player to move has no legal move but the game is on");
        }
        Ok(game)
    }
}
