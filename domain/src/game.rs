//! The game: state, legal moves, applying actions, end conditions, views.
//!
//! One file on purpose, though it is longer than the project's 800 lines:
//! the rules are one state machine (a move's legality, its battle, the
//! chase and two-square records it updates, the end it may bring) whose
//! parts read and write the same private fields in one order, and the
//! order is the rule; split, the steps of `apply` would be spread over
//! files that could each change a field the others rely on. Its tests are
//! in `tests/` and in `conformance/`, not here.

use std::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::chase::{bit, piece_key, turn_key, Chase};
use crate::error::{ActionError, GameError, IllegalMove};
use crate::record::{BattleRecord, MoveRecord, Outcome};
use crate::square::{Direction, NEIGHBOURS, NO_SQUARE};
use crate::view::{ByColor, Captured, PieceView, Seal, View, Viewer};
use crate::{Color, Piece, Rules, Setup, Square, Variant};

/// Upper bound on the number of legal moves in any position this crate can
/// hold. Each color has at most the classic army (40 pieces; positions from
/// board strings are checked against the variant's army, and classic's army
/// contains every other variant's). At most 8 scouts, each with at most
/// 9 + 9 = 18 destinations along its rank and file; the other movable pieces
/// (at most 40 - 6 bombs - 1 flag - 8 scouts = 25) have at most 4 each:
/// 8 * 18 + 25 * 4 = 244 <= 256.
pub const MAX_LEGAL_MOVES: usize = 256;

/// The legal moves of a position, on the stack.
pub type MoveList = ArrayVec<Move, MAX_LEGAL_MOVES>;

/// A move from one square to another (an attack if the target is occupied).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A rescue made as part of a move (docs/rules.md `rescue`): which captured piece
/// comes back, and where it is placed.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rescue {
    pub piece: Piece,
    pub square: Square,
}

/// Everything a player can do to a game. Serialized with a `type` tag:
/// `{"type":"move","from":"e4","to":"e5","rescue":null}`, `{"type":"resign"}`,
/// `offer_draw`, `accept_draw`, `decline_draw`, `timeout`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Move {
        from: Square,
        to: Square,
        #[serde(default)]
        rescue: Option<Rescue>,
    },
    /// The player resigns (allowed at any time while the game is on).
    Resign,
    /// Offer a draw (at any time). It stands until the opponent accepts or
    /// declines it, or until the offerer's next move withdraws it.
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// Applied with `by` = the player to move, whose clock ran out: that
    /// player loses.
    Timeout,
}

impl Action {
    /// A plain move without rescue.
    pub const fn play(from: Square, to: Square) -> Action {
        Action::Move {
            from,
            to,
            rescue: None,
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    FlagCaptured,
    NoMoves,
    Resignation,
    Timeout,
    DrawAgreed,
    BothImmobile,
    MoveLimit,
}

/// How a game ended; `winner` is `None` for a draw.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct GameResult {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

/// A piece's stable identifier: the index (0..100) of the square it started
/// on, or a fresh number from [`PieceId::FIRST_RESCUED`] on (100, 101, ...,
/// in the order of the game's rescues) for a piece brought back by a
/// rescue. It says nothing about the piece's rank. The fresh number matters
/// under `silent_defense`: were a rescued piece to keep its old id, the
/// capturer would learn which of the pieces it took without seeing their
/// ranks was the one that came back (revealed).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PieceId(u8);

impl PieceId {
    /// The id of the game's first rescued piece; the others follow.
    pub const FIRST_RESCUED: u8 = 100;
    /// One past the largest id (two rescues per player).
    pub(crate) const END: u8 = Self::FIRST_RESCUED + 4;

    /// The id of the piece that starts the game on `square`.
    pub(crate) const fn starting_at(square: Square) -> PieceId {
        PieceId(square.index() as u8)
    }

    /// The square the piece started on (`None` for a rescued piece, which
    /// was given a fresh id).
    pub fn starting_square(self) -> Option<Square> {
        Square::from_index(self.0)
    }

    /// Whether this is the id a rescued piece was given.
    pub const fn is_rescued(self) -> bool {
        self.0 >= Self::FIRST_RESCUED
    }

    /// The raw number (0..100).
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The id with this raw number, if it can be one.
    pub(crate) const fn from_raw(n: u8) -> Option<PieceId> {
        if n < Self::END {
            Some(PieceId(n))
        } else {
            None
        }
    }
}

/// The full truth about a game: every rank, where every piece stands, what
/// was captured, the last ply as it really was. Only from
/// [`Game::full_truth`], named so that no caller reaches it by accident;
/// a viewer gets a [`View`] instead.
#[derive(Copy, Clone, Debug)]
pub struct FullTruth<'a>(&'a Game);

impl<'a> FullTruth<'a> {
    /// The full record of the last ply, if any.
    pub fn last_move(self) -> Option<&'a MoveRecord> {
        self.0.last_move.as_ref()
    }

    /// The piece on `square`.
    pub fn piece_on(self, square: Square) -> Option<PieceState> {
        self.0.piece_at(square)
    }

    /// Every piece on the board, in unit order.
    pub fn pieces(self) -> impl Iterator<Item = PieceState> + 'a {
        let game = self.0;
        (0..game.units.len())
            .filter(move |&i| game.units[i].alive)
            .map(move |i| game.piece_state(i))
    }

    /// The pieces of `color` that were captured, in capture order.
    pub fn captured(self, color: Color) -> impl Iterator<Item = Piece> + 'a {
        let game = self.0;
        game.captured[color.index()]
            .iter()
            .map(move |&i| game.units[i as usize].piece)
    }
}

/// What [`Game::apply`] did.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Applied {
    /// The full record of the ply, for moves (`None` for the other actions).
    pub record: Option<MoveRecord>,
    /// The game's result if this action ended it.
    pub result: Option<GameResult>,
}

/// The full truth about one piece on the board (for tests and tools; send
/// players a [`View`] instead).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceState {
    pub id: PieceId,
    pub color: Color,
    pub piece: Piece,
    pub square: Square,
    pub revealed: bool,
    pub moved: bool,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Unit {
    pub(crate) id: PieceId,
    pub(crate) color: Color,
    pub(crate) piece: Piece,
    pub(crate) square: Square,
    pub(crate) alive: bool,
    /// The opponent knows the rank.
    pub(crate) revealed: bool,
    pub(crate) moved: bool,
}

/// One of a player's recent moves, kept for the two-square rule.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct RecentMove {
    pub(crate) unit: u8,
    pub(crate) from: Square,
    pub(crate) to: Square,
}

/// The most own moves the two-square rule ever looks at (its largest limit).
pub(crate) const RECENT_MOVES: usize = 10;

pub(crate) const EMPTY: u8 = 0xFF;

/// A complete game in progress or finished. Build one with [`Game::new`]
/// (from two validated setups) or [`Game::from_position`]; change it only
/// with [`Game::apply`]. Serializes (serde) to a versioned document that
/// reads back to an equal game; its size does not grow with the number of
/// plies played.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(try_from = "crate::state::GameState", into = "crate::state::GameState")]
pub struct Game {
    pub(crate) variant: Variant,
    pub(crate) rules: Rules,
    /// Red's units first (indices `0..red_units`), then Blue's.
    pub(crate) units: ArrayVec<Unit, 80>,
    pub(crate) red_units: u8,
    /// Unit index per square, or `EMPTY`.
    pub(crate) board: [u8; 100],
    pub(crate) turn: Color,
    pub(crate) ply: u32,
    pub(crate) plies_without_battle: u32,
    pub(crate) result: Option<GameResult>,
    pub(crate) draw_offer: Option<Color>,
    pub(crate) recent: [ArrayVec<RecentMove, RECENT_MOVES>; 2],
    /// Captured units of each color (unit indices), in capture order.
    pub(crate) captured: [ArrayVec<u8, 40>; 2],
    /// The pieces that made each player's rescues.
    pub(crate) rescuers: [ArrayVec<PieceId, 2>; 2],
    pub(crate) last_move: Option<MoveRecord>,
    /// Each player's chase as the chaser (the more-squares rule; always
    /// empty when the rule is off).
    pub(crate) chases: [Chase; 2],
    /// Hash of the arrangement (every piece id on its square; no turn):
    /// see `crate::chase`. Derived, kept up to date by every change.
    pub(crate) arrangement: u64,
}

/// What the more-squares rule needs to judge the moves of a player whose
/// chase is on (their opponent has just evaded).
struct ActiveChase<'a> {
    chase: &'a Chase,
    /// The hash of the position after a move, before that move's own piece
    /// keys are applied.
    base: u64,
    /// The chaser's previous move (for the move-back exception).
    previous: Option<RecentMove>,
    /// The squares next to a piece that has evaded in the chase (by square
    /// index): only a quiet move to one of them is a chasing move.
    near: [bool; 100],
}

/// The two-square rule's ban for the player to move, if any: `unit` may not
/// move along `vertical`'s axis in direction `dir` crossing any border
/// between coordinates `lo..hi` (border k lies between k and k + 1).
#[derive(Copy, Clone, Debug)]
struct Ban {
    unit: u8,
    vertical: bool,
    dir: i8,
    lo: u8,
    hi: u8,
}

impl Ban {
    fn forbids(&self, from: Square, to: Square) -> bool {
        let (a, b) = if self.vertical {
            if from.file() != to.file() {
                return false;
            }
            (from.rank(), to.rank())
        } else {
            if from.rank() != to.rank() {
                return false;
            }
            (from.file(), to.file())
        };
        let dir = if b > a { 1 } else { -1 };
        dir == self.dir && a.min(b).max(self.lo) < a.max(b).min(self.hi)
    }
}

fn coordinate(square: Square, vertical: bool) -> u8 {
    if vertical {
        square.rank()
    } else {
        square.file()
    }
}

/// Battle resolution (docs/rules.md "Battle").
pub(crate) fn battle_outcome(attacker: Piece, defender: Piece, aggressor: bool) -> Outcome {
    match defender {
        Piece::Flag => Outcome::AttackerWins,
        Piece::Bomb if attacker == Piece::Miner => Outcome::AttackerWins,
        Piece::Bomb => Outcome::DefenderWins,
        Piece::Marshal if attacker == Piece::Spy => Outcome::AttackerWins,
        _ => {
            let a = attacker.strength().unwrap_or(0);
            let d = defender.strength().unwrap_or(0);
            match a.cmp(&d) {
                std::cmp::Ordering::Greater => Outcome::AttackerWins,
                std::cmp::Ordering::Less => Outcome::DefenderWins,
                std::cmp::Ordering::Equal if aggressor => Outcome::AttackerWins,
                std::cmp::Ordering::Equal => Outcome::BothLose,
            }
        }
    }
}

impl Game {
    /// Starts a game from two validated setups. Red moves first. If Red
    /// cannot move at all the game is over at once (`no_moves`, or
    /// `both_immobile` if Blue could not move either).
    pub fn new(variant: Variant, rules: Rules, red: Setup, blue: Setup) -> Result<Game, GameError> {
        rules.validate()?;
        for (expected, setup) in [(Color::Red, &red), (Color::Blue, &blue)] {
            if setup.color() != expected {
                return Err(GameError::WrongColor {
                    color: expected,
                    found: setup.color(),
                });
            }
            if setup.variant() != variant {
                return Err(GameError::WrongVariant { color: expected });
            }
        }
        let pieces = red
            .pieces()
            .iter()
            .map(|&(s, p)| (Color::Red, s, p))
            .chain(blue.pieces().iter().map(|&(s, p)| (Color::Blue, s, p)));
        Ok(Game::from_pieces(variant, rules, pieces, Color::Red))
    }

    /// Builds a fresh position (nothing moved or revealed, ply 0) from pieces
    /// already known to fit on the board and in the army.
    pub(crate) fn from_pieces(
        variant: Variant,
        rules: Rules,
        pieces: impl Iterator<Item = (Color, Square, Piece)>,
        turn: Color,
    ) -> Game {
        let mut all: ArrayVec<Unit, 80> = ArrayVec::new();
        for (color, square, piece) in pieces {
            if all.is_full() {
                break;
            }
            all.push(Unit {
                id: PieceId::starting_at(square),
                color,
                piece,
                square,
                alive: true,
                revealed: false,
                moved: false,
            });
        }
        all.sort_by_key(|u| (u.color, u.id));
        let red_units = all.iter().filter(|u| u.color == Color::Red).count() as u8;
        let mut game = Game {
            variant,
            rules,
            units: all,
            red_units,
            board: [EMPTY; 100],
            turn,
            ply: 0,
            plies_without_battle: 0,
            result: None,
            draw_offer: None,
            recent: [ArrayVec::new(), ArrayVec::new()],
            captured: [ArrayVec::new(), ArrayVec::new()],
            rescuers: [ArrayVec::new(), ArrayVec::new()],
            last_move: None,
            chases: [Chase::default(), Chase::default()],
            arrangement: 0,
        };
        for (i, u) in game.units.iter().enumerate() {
            game.board[u.square.index()] = i as u8;
        }
        game.arrangement = game.arrangement_hash();
        game.result = game.start_of_turn_result(turn);
        game
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The ruleset in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Plies since the last battle.
    pub fn plies_without_battle(&self) -> u32 {
        self.plies_without_battle
    }

    /// Whose turn it is (when finished: who would have moved next).
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// How the game ended, or `None` while it is on.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.result.is_some()
    }

    /// The color with a pending draw offer.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// How many rescues `color` has made.
    pub fn rescues_used(&self, color: Color) -> u8 {
        self.rescuers[color.index()].len() as u8
    }

    /// The full truth about this game (every rank), for storage, replays
    /// and tests: never for a viewer, who gets [`Game::view`].
    pub fn full_truth(&self) -> FullTruth<'_> {
        FullTruth(self)
    }

    pub(crate) fn piece_at(&self, square: Square) -> Option<PieceState> {
        let i = self.board[square.index()];
        (i != EMPTY).then(|| self.piece_state(i as usize))
    }

    fn piece_state(&self, i: usize) -> PieceState {
        let u = &self.units[i];
        PieceState {
            id: u.id,
            color: u.color,
            piece: u.piece,
            square: u.square,
            revealed: u.revealed,
            moved: u.moved,
        }
    }

    fn units_of(&self, color: Color) -> std::ops::Range<usize> {
        match color {
            Color::Red => 0..self.red_units as usize,
            Color::Blue => self.red_units as usize..self.units.len(),
        }
    }

    /// Color of the occupant of a non-empty cell, without touching the unit.
    fn cell_is_red(&self, cell: u8) -> bool {
        cell < self.red_units
    }

    /// The hash key of a unit standing where it stands now.
    #[inline(always)]
    fn unit_key(&self, unit: u8) -> u64 {
        let u = &self.units[unit as usize];
        piece_key(u.color, u.id, u.square)
    }

    /// The arrangement's hash computed from scratch (see `arrangement`).
    pub(crate) fn arrangement_hash(&self) -> u64 {
        (0..self.units.len() as u8)
            .filter(|&i| self.units[i as usize].alive)
            .fold(0, |h, i| h ^ self.unit_key(i))
    }

    /// The more-squares rule's view of `color`'s next move: `Some` only if
    /// the rule is on, it is `color`'s turn and their chase is on. A player
    /// not to move is never restricted by it: their chase can only be on
    /// once the player to move has evaded (see `docs/more-squares-rule.md`).
    #[inline(always)]
    fn active_chase(&self, color: Color) -> Option<ActiveChase<'_>> {
        let chase = &self.chases[color.index()];
        if !self.rules.more_squares_rule || color != self.turn || !chase.is_on() {
            return None;
        }
        let mut near = [false; 100];
        let mut evading = chase.evading;
        while evading != 0 {
            let unit = evading.trailing_zeros() as usize;
            evading &= evading - 1;
            if let Some(u) = self.units.get(unit) {
                for &n in &NEIGHBOURS[u.square.index()] {
                    if n != NO_SQUARE {
                        near[n as usize] = true;
                    }
                }
            }
        }
        Some(ActiveChase {
            chase,
            base: self.arrangement ^ turn_key(color.opponent()),
            previous: self.recent[color.index()].last().copied(),
            near,
        })
    }

    /// Whether the more-squares rule forbids `unit`'s move from `from` to
    /// `to` (already otherwise legal); `Some(ply)`: the earliest ply at
    /// which the position it would bring back stood. An attack is never
    /// forbidden (a battle ends the chase, and it may only begin a new one),
    /// nor a move that threatens none
    /// of the pieces that have evaded in the chase, nor the move straight
    /// back to the square the piece came from on the chaser's previous turn.
    #[inline(always)]
    fn chase_forbids(
        &self,
        active: &ActiveChase,
        unit: u8,
        from: Square,
        to: Square,
    ) -> Option<u32> {
        if !active.near[to.index()] || self.board[to.index()] != EMPTY {
            return None;
        }
        if active
            .previous
            .is_some_and(|p| p.unit == unit && p.from == to && p.to == from)
        {
            return None;
        }
        let u = &self.units[unit as usize];
        let position = active.base ^ piece_key(u.color, u.id, from) ^ piece_key(u.color, u.id, to);
        active.chase.stood_at(position)
    }

    /// Updates both chases after `by`'s move of `mover` to `to` (already
    /// on the board; `self.ply` is the ply just played). `battle_or_rescue`:
    /// the move fought a battle or made a rescue.
    fn update_chases(&mut self, by: Color, mover: u8, to: Square, battle_or_rescue: bool) {
        if battle_or_rescue {
            // Any battle ends every chase that was on, both players'; so does
            // a rescue (the arrangement gains a piece, so no earlier position
            // can come back anyway). The move itself may begin a new chase
            // below.
            self.chases = [Chase::default(), Chase::default()];
        } else {
            // The opponent's chase: did this move evade its threat?
            let theirs = &mut self.chases[by.opponent().index()];
            if theirs.is_on() {
                if theirs.threatened & bit(mover) != 0 {
                    theirs.evading |= bit(mover);
                    theirs.threatened = 0;
                } else {
                    theirs.clear();
                }
            }
        }
        // Our own chase: whom does this move threaten? Only a piece that
        // stands on `to` after the move threatens: one that moved there, or
        // won its battle there (a move, in the rule's sense, is a move to an
        // empty square or an attack: docs/more-squares-rule.md, rule 1). An
        // attacker that lost, alone or with the defender, threatens nothing.
        let threatened = if self.board[to.index()] == mover {
            self.threatened_by(by, to)
        } else {
            0
        };
        let position = self.arrangement ^ turn_key(by.opponent());
        let ply = self.ply;
        let ours = &mut self.chases[by.index()];
        if threatened == 0 {
            ours.clear();
        } else {
            ours.record(ply, position, threatened);
        }
    }

    /// The opponent's units next to `to` (a set of unit bits): those that a
    /// piece of `by` standing on `to` threatens.
    pub(crate) fn threatened_by(&self, by: Color, to: Square) -> u128 {
        let is_red = by == Color::Red;
        NEIGHBOURS[to.index()]
            .iter()
            .filter(|&&n| n != NO_SQUARE)
            .map(|&n| self.board[n as usize])
            .filter(|&cell| cell != EMPTY && self.cell_is_red(cell) != is_red)
            .fold(0, |set, cell| set | bit(cell))
    }

    /// The two-square rule's ban on `color`'s next move, if any.
    fn ban(&self, color: Color) -> Option<Ban> {
        let limit = self.rules.two_square_limit as usize;
        let recent = &self.recent[color.index()];
        if limit == 0 || recent.len() < limit {
            return None;
        }
        let moves = &recent[recent.len() - limit..];
        let first = moves[0];
        let last = moves[limit - 1];
        let unit = self.units.get(first.unit as usize)?;
        if !unit.alive || unit.square != last.to {
            return None;
        }
        let vertical = first.from.file() == first.to.file();
        let line = |s: Square| if vertical { s.file() } else { s.rank() };
        let dir_of = |m: &RecentMove| {
            if coordinate(m.to, vertical) > coordinate(m.from, vertical) {
                1i8
            } else {
                -1
            }
        };
        let (mut lo, mut hi) = (0u8, u8::MAX);
        let mut previous: Option<&RecentMove> = None;
        for m in moves {
            if m.unit != first.unit
                || line(m.from) != line(first.from)
                || line(m.to) != line(first.from)
            {
                return None;
            }
            if let Some(p) = previous {
                if p.to != m.from || dir_of(p) == dir_of(m) {
                    return None;
                }
            }
            let (a, b) = (coordinate(m.from, vertical), coordinate(m.to, vertical));
            lo = lo.max(a.min(b));
            hi = hi.min(a.max(b));
            previous = Some(m);
        }
        (lo < hi).then_some(Ban {
            unit: first.unit,
            vertical,
            dir: -dir_of(&last),
            lo,
            hi,
        })
    }

    /// Calls `f` for every legal move of `color` until it returns `false`.
    /// Returns `false` if stopped early.
    #[inline(always)]
    fn for_each_move(&self, color: Color, mut f: impl FnMut(Move) -> bool) -> bool {
        let ban = self.ban(color);
        let chase = self.active_chase(color);
        let strike = self.rules.scout_strike_after_move;
        let is_red = color == Color::Red;
        for i in self.units_of(color) {
            let u = &self.units[i];
            if !u.alive || !u.piece.is_movable() {
                continue;
            }
            let from = u.square;
            let unit_ban = ban.filter(|b| b.unit as usize == i);
            let neighbours = &NEIGHBOURS[from.index()];
            let mut emit = |to: u8| -> bool {
                let to = Square::from_index_wrapping(to);
                if unit_ban.is_some_and(|b| b.forbids(from, to)) {
                    return true;
                }
                if let Some(active) = &chase {
                    if self.chase_forbids(active, i as u8, from, to).is_some() {
                        return true;
                    }
                }
                f(Move { from, to })
            };
            if u.piece == Piece::Scout {
                for d in Direction::ALL {
                    let mut n = neighbours[d as usize];
                    let mut adjacent = true;
                    while n != NO_SQUARE {
                        let cell = self.board[n as usize];
                        if cell == EMPTY {
                            if !emit(n) {
                                return false;
                            }
                            n = NEIGHBOURS[n as usize][d as usize];
                            adjacent = false;
                            continue;
                        }
                        if self.cell_is_red(cell) != is_red && (adjacent || strike) && !emit(n) {
                            return false;
                        }
                        break;
                    }
                }
            } else {
                for n in *neighbours {
                    if n == NO_SQUARE {
                        continue;
                    }
                    let cell = self.board[n as usize];
                    if (cell == EMPTY || self.cell_is_red(cell) != is_red) && !emit(n) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Every legal move of the player to move (empty when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.result.is_none() {
            self.for_each_move(self.turn, |m| {
                // Cannot fail: see MAX_LEGAL_MOVES.
                let _ = list.try_push(m);
                true
            });
        }
        list
    }

    /// Whether `color` would have any legal move if it were their turn now.
    pub fn has_legal_move(&self, color: Color) -> bool {
        !self.for_each_move(color, |_| false)
    }

    /// Checks a move for `by` in full, saying exactly why it is illegal.
    fn check_move(&self, by: Color, from: Square, to: Square) -> Result<(), IllegalMove> {
        let cell = self.board[from.index()];
        if cell == EMPTY {
            return Err(IllegalMove::NoPiece { from });
        }
        let unit = &self.units[cell as usize];
        if unit.color != by {
            return Err(IllegalMove::NotYourPiece { from });
        }
        if !unit.piece.is_movable() {
            return Err(IllegalMove::Immovable {
                from,
                piece: unit.piece,
            });
        }
        if from == to {
            return Err(IllegalMove::SameSquare { square: from });
        }
        let vertical = from.file() == to.file();
        if !vertical && from.rank() != to.rank() {
            return Err(IllegalMove::Diagonal { from, to });
        }
        if to.is_lake() {
            return Err(IllegalMove::Lake { to });
        }
        let (a, b) = (coordinate(from, vertical), coordinate(to, vertical));
        let distance = a.abs_diff(b);
        if distance > 1 && unit.piece != Piece::Scout {
            return Err(IllegalMove::TooFar {
                from,
                to,
                piece: unit.piece,
            });
        }
        let step: i16 = match (vertical, b > a) {
            (true, true) => 10,
            (true, false) => -10,
            (false, true) => 1,
            (false, false) => -1,
        };
        let mut index = from.index() as i16 + step;
        while index != to.index() as i16 {
            let square = Square::from_index_wrapping(index as u8);
            if square.is_lake() {
                return Err(IllegalMove::ThroughLake { lake: square });
            }
            if self.board[square.index()] != EMPTY {
                return Err(IllegalMove::Blocked { square });
            }
            index += step;
        }
        let target = self.board[to.index()];
        if target != EMPTY {
            if self.units[target as usize].color == by {
                return Err(IllegalMove::OwnPiece { to });
            }
            if distance > 1 && !self.rules.scout_strike_after_move {
                return Err(IllegalMove::ScoutLongAttack { from, to });
            }
        }
        if let Some(ban) = self.ban(by) {
            if ban.unit == cell && ban.forbids(from, to) {
                return Err(IllegalMove::TwoSquareRule {
                    from,
                    to,
                    limit: self.rules.two_square_limit,
                });
            }
        }
        if let Some(active) = self.active_chase(by) {
            if let Some(since_ply) = self.chase_forbids(&active, cell, from, to) {
                return Err(IllegalMove::MoreSquaresRule {
                    from,
                    to,
                    since_ply,
                });
            }
        }
        Ok(())
    }

    /// Checks a rescue attached to a legal move, before anything changes.
    /// Nothing here depends on the battle's outcome, so a refusal tells the
    /// player nothing hidden. Returns the position in the captured list of
    /// the piece to bring back.
    fn check_rescue(
        &self,
        by: Color,
        from: Square,
        to: Square,
        rescue: Rescue,
    ) -> Result<usize, IllegalMove> {
        if !self.rules.rescue {
            return Err(IllegalMove::RescueDisabled);
        }
        let mover = &self.units[self.board[from.index()] as usize];
        if mover.piece == Piece::Scout {
            return Err(IllegalMove::RescueByScout);
        }
        if to.rank() != by.opponent_back_rank() {
            return Err(IllegalMove::RescueNotOnBackRow);
        }
        if rescue.piece == Piece::Bomb {
            return Err(IllegalMove::RescueBomb);
        }
        let rescuers = &self.rescuers[by.index()];
        if rescuers.is_full() {
            return Err(IllegalMove::RescueLimit);
        }
        if rescuers.contains(&mover.id) {
            return Err(IllegalMove::RescueSamePiece);
        }
        let position = self.captured[by.index()]
            .iter()
            .position(|&i| self.units[i as usize].piece == rescue.piece)
            .ok_or(IllegalMove::RescueNotCaptured {
                piece: rescue.piece,
            })?;
        let square = rescue.square;
        let free = self.board[square.index()] == EMPTY || square == from;
        if square.is_lake() || !by.owns_half_rank(square.rank()) || !free {
            return Err(IllegalMove::RescueSquare { square });
        }
        Ok(position)
    }

    /// Applies one action by `by`. On error the game is unchanged.
    ///
    /// Draw offers: either player may offer at any time while the game is on;
    /// offering again while the own offer stands is `DrawAlreadyOffered`,
    /// offering while the opponent's offer stands is `DrawOfferPending`
    /// (accept or decline it instead); accepting or declining with no offer
    /// is `NoDrawOffer`, answering one's own offer is `OwnDrawOffer`. The
    /// offer is withdrawn by the offerer's next move.
    pub fn apply(&mut self, by: Color, action: Action) -> Result<Applied, ActionError> {
        if self.result.is_some() {
            return Err(ActionError::GameOver);
        }
        let mut record = None;
        match action {
            Action::Move { from, to, rescue } => {
                if by != self.turn {
                    return Err(ActionError::NotYourTurn);
                }
                self.check_move(by, from, to)?;
                let rescue = match rescue {
                    Some(r) => Some((r, self.check_rescue(by, from, to, r)?)),
                    None => None,
                };
                record = Some(self.make_move(by, from, to, rescue));
            }
            Action::Resign => {
                self.finish(Some(by.opponent()), EndReason::Resignation);
            }
            Action::OfferDraw => match self.draw_offer {
                Some(c) if c == by => return Err(ActionError::DrawAlreadyOffered),
                Some(_) => return Err(ActionError::DrawOfferPending),
                None => self.draw_offer = Some(by),
            },
            Action::AcceptDraw | Action::DeclineDraw => match self.draw_offer {
                None => return Err(ActionError::NoDrawOffer),
                Some(c) if c == by => return Err(ActionError::OwnDrawOffer),
                Some(_) => {
                    if action == Action::AcceptDraw {
                        self.finish(None, EndReason::DrawAgreed);
                    } else {
                        self.draw_offer = None;
                    }
                }
            },
            Action::Timeout => {
                if by != self.turn {
                    return Err(ActionError::TimeoutNotOnTurn);
                }
                self.finish(Some(by.opponent()), EndReason::Timeout);
            }
        }
        Ok(Applied {
            record,
            result: self.result,
        })
    }

    fn finish(&mut self, winner: Option<Color>, reason: EndReason) {
        self.result = Some(GameResult { winner, reason });
        self.draw_offer = None;
    }

    fn remove(&mut self, unit: u8) {
        self.arrangement ^= self.unit_key(unit);
        let u = &mut self.units[unit as usize];
        u.alive = false;
        let color = u.color;
        self.board[u.square.index()] = EMPTY;
        // A captured piece has no square; keep a canonical value so that a
        // stored game reads back equal.
        u.square = Square::from_index_wrapping(u.id.get());
        let _ = self.captured[color.index()].try_push(unit);
    }

    /// Plays a move already checked by `check_move` (and its rescue by
    /// `check_rescue`), then decides whether the game is over.
    fn make_move(
        &mut self,
        by: Color,
        from: Square,
        to: Square,
        rescue: Option<(Rescue, usize)>,
    ) -> MoveRecord {
        let mover = self.board[from.index()];
        let target = self.board[to.index()];
        let long = from.file().abs_diff(to.file()) + from.rank().abs_diff(to.rank()) > 1;
        {
            let u = &mut self.units[mover as usize];
            u.moved = true;
            if long {
                u.revealed = true;
            }
        }
        let mut battle = None;
        let mut flag_captured = false;
        let mover_survives;
        if target == EMPTY {
            self.board[from.index()] = EMPTY;
            self.board[to.index()] = mover;
            self.arrangement ^= self.unit_key(mover);
            self.units[mover as usize].square = to;
            self.arrangement ^= self.unit_key(mover);
            mover_survives = true;
        } else {
            let attacker = self.units[mover as usize].piece;
            let defender = self.units[target as usize].piece;
            let outcome = battle_outcome(attacker, defender, self.rules.aggressor_advantage);
            // Under silent_defense the defender stays secret unless a scout
            // attacks, or its rank was already public before this battle
            // (then hiding it in the battle's view would only contradict
            // the board and the captured lists).
            let defender_revealed = !self.rules.silent_defense
                || attacker == Piece::Scout
                || self.units[target as usize].revealed;
            self.units[mover as usize].revealed = true;
            if defender_revealed {
                self.units[target as usize].revealed = true;
            }
            match outcome {
                Outcome::AttackerWins => {
                    self.remove(target);
                    self.board[from.index()] = EMPTY;
                    self.board[to.index()] = mover;
                    self.arrangement ^= self.unit_key(mover);
                    self.units[mover as usize].square = to;
                    self.arrangement ^= self.unit_key(mover);
                    flag_captured = defender == Piece::Flag;
                }
                Outcome::DefenderWins => self.remove(mover),
                Outcome::BothLose => {
                    self.remove(mover);
                    self.remove(target);
                }
            }
            mover_survives = outcome == Outcome::AttackerWins;
            battle = Some(BattleRecord {
                defender,
                defender_id: self.units[target as usize].id,
                defender_revealed,
                outcome,
            });
        }
        // A rescue whose mover lost its battle simply does not happen: the
        // move was legal and the battle is fought, so refusing it now would
        // reveal the outcome of a battle that was never played.
        let mut rescued = None;
        if let Some((r, position)) = rescue.filter(|_| mover_survives) {
            let list = &mut self.captured[by.index()];
            if position < list.len() {
                let unit = list.remove(position);
                let rescues_so_far = self.rescuers.iter().map(ArrayVec::len).sum::<usize>();
                let u = &mut self.units[unit as usize];
                // A fresh id (see `PieceId`): 100, 101, ... in rescue order.
                let old_id = u.id;
                u.id = PieceId(PieceId::FIRST_RESCUED + rescues_so_far as u8);
                let new_id = u.id;
                // A rescued piece that had made a rescue before its capture
                // is still that rescuer.
                for rescuer in self.rescuers[by.index()].iter_mut() {
                    if *rescuer == old_id {
                        *rescuer = new_id;
                    }
                }
                let u = &mut self.units[unit as usize];
                u.alive = true;
                u.revealed = true;
                u.square = r.square;
                self.board[r.square.index()] = unit;
                self.arrangement ^= self.unit_key(unit);
                let id = self.units[mover as usize].id;
                let _ = self.rescuers[by.index()].try_push(id);
                rescued = Some(r);
            }
        }
        let recent = &mut self.recent[by.index()];
        if recent.is_full() {
            recent.remove(0);
        }
        recent.push(RecentMove {
            unit: mover,
            from,
            to,
        });
        // Saturating: a stored game may carry any counter value, and a
        // counter that can grow without bound must never panic or wrap.
        self.ply = self.ply.saturating_add(1);
        if battle.is_some() {
            self.plies_without_battle = 0;
        } else {
            self.plies_without_battle = self.plies_without_battle.saturating_add(1);
        }
        if self.draw_offer == Some(by) {
            self.draw_offer = None;
        }
        debug_assert_eq!(self.arrangement, self.arrangement_hash());
        if self.rules.more_squares_rule {
            self.update_chases(by, mover, to, battle.is_some() || rescued.is_some());
        }
        let u = &self.units[mover as usize];
        let record = MoveRecord {
            ply: self.ply,
            color: by,
            from,
            to,
            piece: u.piece,
            piece_id: u.id,
            piece_revealed: u.revealed,
            battle,
            rescue: rescued,
        };
        self.last_move = Some(record);
        self.turn = by.opponent();
        if flag_captured {
            self.finish(Some(by), EndReason::FlagCaptured);
        } else if self.rules.max_plies.is_some_and(|n| self.ply >= n)
            || self
                .rules
                .max_plies_without_battle
                .is_some_and(|n| self.plies_without_battle >= n)
        {
            self.finish(None, EndReason::MoveLimit);
        } else if let Some(result) = self.start_of_turn_result(self.turn) {
            self.finish(result.winner, result.reason);
        }
        record
    }

    /// The result if `color`, about to move, cannot: a loss (`no_moves`), or
    /// a draw (`both_immobile`) if the opponent could not move either.
    pub(crate) fn start_of_turn_result(&self, color: Color) -> Option<GameResult> {
        if self.has_legal_move(color) {
            None
        } else if self.has_legal_move(color.opponent()) {
            Some(GameResult {
                winner: Some(color.opponent()),
                reason: EndReason::NoMoves,
            })
        } else {
            Some(GameResult {
                winner: None,
                reason: EndReason::BothImmobile,
            })
        }
    }

    /// The game as `viewer` may see it. Once the game is over everything is
    /// revealed to everyone.
    pub fn view(&self, viewer: Viewer) -> View {
        let finished = self.result.is_some();
        let knows = |u: &Unit| finished || u.revealed || viewer == Viewer::Player(u.color);
        let mut board: Vec<PieceView> = Vec::with_capacity(self.units.len());
        for &cell in self.board.iter() {
            if cell == EMPTY {
                continue;
            }
            let u = &self.units[cell as usize];
            let piece = knows(u).then_some(u.piece);
            board.push(PieceView {
                id: u.id,
                square: u.square,
                color: u.color,
                piece,
                strength: piece.and_then(Piece::strength),
                revealed: u.revealed || finished,
                moved: u.moved,
                seal: Seal::new(),
            });
        }
        // The ranks the viewer knows, in capture order, then one `None` for
        // each piece whose rank the viewer never saw (only under
        // `silent_defense`). Keeping the hidden ones in capture order would
        // let a rescue tell the capturer which of them came back.
        let captured_of = |color: Color| -> Vec<Option<Piece>> {
            let mut list: Vec<Option<Piece>> = self.captured[color.index()]
                .iter()
                .map(|&i| {
                    let u = &self.units[i as usize];
                    knows(u).then_some(u.piece)
                })
                .collect();
            list.sort_by_key(Option::is_none); // stable: known ones keep their order
            list
        };
        let legal_moves =
            (!finished && viewer == Viewer::Player(self.turn)).then(|| self.legal_moves().to_vec());
        View {
            ply: self.ply,
            turn: self.turn,
            result: self.result,
            draw_offer: self.draw_offer,
            board,
            captured: Captured {
                red: captured_of(Color::Red),
                blue: captured_of(Color::Blue),
            },
            last_move: self.last_move.map(|r| r.view_for(viewer, finished)),
            legal_moves,
            rescues_used: ByColor {
                red: self.rescues_used(Color::Red),
                blue: self.rescues_used(Color::Blue),
            },
            plies_without_battle: self.plies_without_battle,
            seal: Seal::new(),
        }
    }

    /// One ply of this game's log as `viewer` may see it: what the viewer
    /// knew of it then, or everything once this game is over.
    pub fn move_view(&self, record: &MoveRecord, viewer: Viewer) -> crate::MoveView {
        record.view_for(viewer, self.is_finished())
    }
}
