//! The stored form of a [`Game`]: a versioned, self-describing document.
//! Reading one back checks it thoroughly, so a corrupted or hand-edited
//! document is refused instead of producing an impossible game.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::chase::{bit, turn_key, Chase, CHASE_MEMORY};
use crate::game::{PieceId, RecentMove, Unit, EMPTY, RECENT_MOVES};
use crate::view::ByColor;
use crate::{Color, Game, GameResult, MoveRecord, Piece, Rules, Square, Variant};

/// The current format version. Bump it (and keep reading the old versions)
/// whenever the stored shape changes. Version 2 added `chases` (the
/// more-squares rule); version 1 documents, which have none, still load.
pub const FORMAT_VERSION: u32 = 2;

/// The oldest format version still read.
const OLDEST_FORMAT: u32 = 1;

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameState {
    pub(crate) format: u32,
    pub(crate) variant: Variant,
    pub(crate) rules: Rules,
    pub(crate) turn: Color,
    pub(crate) ply: u32,
    pub(crate) plies_without_battle: u32,
    pub(crate) result: Option<GameResult>,
    pub(crate) draw_offer: Option<Color>,
    /// Every piece of the game, on the board or captured.
    pub(crate) pieces: Vec<StoredPiece>,
    /// Captured pieces of each color by id, in capture order.
    pub(crate) captured: ByColor<Vec<PieceId>>,
    /// Each player's most recent moves (at most 10), oldest first.
    pub(crate) recent_moves: ByColor<Vec<StoredMove>>,
    /// The pieces that made each player's rescues.
    pub(crate) rescuers: ByColor<Vec<PieceId>>,
    pub(crate) last_move: Option<MoveRecord>,
    /// Each player's chase as the chaser (more-squares rule), `null` when
    /// there is none. Absent in format 1.
    #[serde(default)]
    pub(crate) chases: ByColor<Option<StoredChase>>,
}

/// A continuous chase (more-squares rule). The pieces its last move
/// threatens are not stored: they are the opponent's pieces next to where
/// the chaser's last move (`last_move`) ended.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StoredChase {
    /// The ply after which the first remembered position stood; the others
    /// follow two plies apart.
    pub(crate) since_ply: u32,
    /// The hash of the position after each of the chaser's moves in the
    /// chase (16 hex digits each; see `crate::chase`), oldest first.
    pub(crate) positions: Vec<PositionHash>,
    /// The opponent's pieces that have evaded during the chase.
    pub(crate) evading: Vec<PieceId>,
}

/// A position hash, written as 16 hex digits.
#[derive(Clone, Copy)]
pub(crate) struct PositionHash(pub(crate) u64);

impl Serialize for PositionHash {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{:016x}", self.0))
    }
}

impl<'de> Deserialize<'de> for PositionHash {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        (text.len() == 16)
            .then(|| u64::from_str_radix(&text, 16).ok())
            .flatten()
            .map(PositionHash)
            .ok_or_else(|| serde::de::Error::custom(format!("bad chase position `{text}`")))
    }
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StoredPiece {
    pub(crate) id: PieceId,
    pub(crate) color: Color,
    pub(crate) piece: Piece,
    /// `None` when captured.
    pub(crate) square: Option<Square>,
    pub(crate) revealed: bool,
    pub(crate) moved: bool,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StoredMove {
    pub(crate) piece: PieceId,
    pub(crate) from: Square,
    pub(crate) to: Square,
}

impl From<Game> for GameState {
    fn from(g: Game) -> GameState {
        GameState::of(&g)
    }
}

impl GameState {
    /// The stored form of `g`.
    pub(crate) fn of(g: &Game) -> GameState {
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
                red: stored_moves(g, Color::Red),
                blue: stored_moves(g, Color::Blue),
            },
            rescuers: by_color(&|c| g.rescuers[c.index()].to_vec()),
            last_move: g.last_move,
            chases: ByColor {
                red: stored_chase(g, Color::Red),
                blue: stored_chase(g, Color::Blue),
            },
        }
    }
}

fn stored_chase(g: &Game, color: Color) -> Option<StoredChase> {
    let c = &g.chases[color.index()];
    c.is_on().then(|| StoredChase {
        since_ply: c.first_ply,
        positions: c.positions.iter().map(|&h| PositionHash(h)).collect(),
        evading: (0..g.units.len() as u8)
            .filter(|&i| c.evading & bit(i) != 0)
            .map(|i| g.units[i as usize].id)
            .collect(),
    })
}

/// Reads one stored chase of `color` back, checking it against the game
/// (whose `chases` are still empty).
fn read_chase(game: &Game, color: Color, stored: &StoredChase) -> Result<Chase, StateError> {
    if !game.rules.more_squares_rule {
        return bad("a chase in a game without the more-squares rule");
    }
    let n = stored.positions.len();
    if n == 0 || n > CHASE_MEMORY {
        return bad(format!("a chase remembers 1 to {CHASE_MEMORY} positions"));
    }
    let mut chase = Chase::stored(stored.since_ply);
    for p in &stored.positions {
        chase.push_stored(p.0);
    }
    for &id in &stored.evading {
        let unit = game
            .units
            .iter()
            .position(|u| u.id == id && u.alive && u.color != color)
            .ok_or_else(|| StateError(format!("chase: {} is not an opponent's piece", id.get())))?
            as u8;
        if chase.evading & bit(unit) != 0 {
            return bad("chase: a piece evades twice");
        }
        chase.evading |= bit(unit);
    }
    // The last remembered position is after the chaser's last move: the
    // last ply if the opponent is to move (awaiting the evasion), the one
    // before if the opponent has just evaded.
    let awaiting = game.turn != color;
    let last = u64::from(stored.since_ply) + 2 * (n as u64 - 1);
    let expected = u64::from(game.ply) - u64::from(!awaiting);
    if u64::from(game.ply) < u64::from(!awaiting) || last != expected {
        return bad("chase positions do not end at the chaser's last move");
    }
    if awaiting {
        // Nothing has moved since: the position stands now, the piece that
        // made the chaser's last move stands where it ended, and the pieces
        // next to it are the ones threatened.
        let record = game
            .last_move
            .filter(|m| m.color == color)
            .ok_or_else(|| StateError("chase: the last move is not the chaser's".into()))?;
        let cell = game.board[record.to.index()];
        if cell == EMPTY || game.units[cell as usize].id != record.piece_id {
            return bad("chase: the chaser's last piece does not stand where it moved");
        }
        if chase.positions.last() != Some(&(game.arrangement ^ turn_key(game.turn))) {
            return bad("chase: the last position is not the one on the board");
        }
        chase.threatened = game.threatened_by(color, record.to);
        if chase.threatened == 0 {
            return bad("chase: the chaser's last move threatens nothing");
        }
        // A battle or a rescue ends every chase that was on: a chase whose
        // last move fought one (and won) or rescued began with that move.
        if (record.battle.is_some() || record.rescue.is_some()) && (n != 1 || chase.evading != 0) {
            return bad("chase: a battle or rescue did not end the chase before it");
        }
    } else {
        // The evader has just evaded: its last move was quiet and moved a
        // piece that is marked as evading.
        let evaded = game.last_move.is_some_and(|m| {
            m.color != color
                && m.battle.is_none()
                && m.rescue.is_none()
                && game
                    .units
                    .iter()
                    .position(|u| u.id == m.piece_id && u.alive)
                    .is_some_and(|unit| chase.evading & bit(unit as u8) != 0)
        });
        if !evaded {
            return bad("chase: the chaser is to move but the last move is no evasion");
        }
    }
    Ok(chase)
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

impl StateError {
    pub(crate) fn new(msg: String) -> StateError {
        StateError(msg)
    }
}

fn bad<T>(msg: impl Into<String>) -> Result<T, StateError> {
    Err(StateError(msg.into()))
}

impl TryFrom<GameState> for Game {
    type Error = StateError;

    fn try_from(s: GameState) -> Result<Game, StateError> {
        if !(OLDEST_FORMAT..=FORMAT_VERSION).contains(&s.format) {
            return bad(format!("unsupported format version {}", s.format));
        }
        if s.format < 2 && (s.chases.red.is_some() || s.chases.blue.is_some()) {
            return bad("format 1 has no chases");
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
        let mut game = Game {
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
            chases: [Chase::default(), Chase::default()],
            arrangement: 0,
        };
        game.arrangement = game.arrangement_hash();
        for color in Color::ALL {
            if let Some(stored) = s.chases.get(color) {
                game.chases[color.index()] = read_chase(&game, color, stored)?;
            }
        }
        // A game that is on always has a player to move who can move (every
        // move and `Game::new` end the game otherwise).
        if game.result.is_none() && game.start_of_turn_result(game.turn).is_some() {
            return bad("the player to move has no legal move but the game is on");
        }
        Ok(game)
    }
}
