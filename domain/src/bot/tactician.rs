//! The tactician (docs/bots.md): scores every legal move by what it
//! expects to win or lose, from what its player knows.
//!
//! - Every opponent piece gets a distribution over the ranks it may have:
//!   a known rank is certain; an unknown one is spread over the ranks not
//!   yet seen (army minus shown minus captured), never a bomb or the flag
//!   once it has moved, a bomb or the flag more likely the nearer it
//!   stands to its back row, and never weaker than what it beat while
//!   defending ([`Memory`]).
//! - An attack is worth the expected result of the battle (piece values
//!   below; the spy is dear while the opposing marshal lives, a miner while
//!   bombs may be left), plus something for what it reveals (most for a
//!   scout: probing is its job), minus the danger to the winner where it
//!   then stands, plus a bonus near the own flag.
//! - A quiet move is worth the danger it escapes minus the danger it walks
//!   into (the strongest threat among the adjacent opponents, counted in
//!   full for known ranks), plus a pull towards the most profitable target
//!   for that piece, discounted by distance; going straight back costs a
//!   little, and a small seeded noise breaks ties.

use crate::game::battle_outcome;
use crate::rng::SplitMix64;
use crate::square::{NEIGHBOURS, NO_SQUARE};
use crate::{Color, Move, Outcome, Piece, Square};

use super::{DrawAnswer, Memory, Situation};

/// Ranks an opponent piece may have, as probabilities indexed by
/// [`Piece::index`].
type Spread = [f32; 12];

/// What one opponent piece on the board may be.
#[derive(Copy, Clone, Debug)]
struct Enemy {
    square: Square,
    spread: Spread,
    known: bool,
}

/// Everything derived once per decision.
struct Board<'a> {
    situation: &'a Situation<'a>,
    /// The bot's own pieces by square (their ranks are known).
    mine: [Option<Piece>; 100],
    /// The opponent's pieces by square.
    theirs: [Option<Enemy>; 100],
    enemies: Vec<Enemy>,
    /// The opponent still has a marshal (or may have).
    their_marshal_alive: bool,
    my_marshal_alive: bool,
    /// Bombs the opponent may have left.
    their_bombs_left: bool,
    my_bombs_left: bool,
    my_flag: Option<Square>,
}

fn value(piece: Piece, opposing_marshal: bool, opposing_bombs: bool) -> f32 {
    match piece {
        Piece::Flag => 1000.0,
        Piece::Marshal => 100.0,
        Piece::General => 70.0,
        Piece::Colonel => 45.0,
        Piece::Major => 30.0,
        Piece::Captain => 18.0,
        Piece::Lieutenant => 12.0,
        Piece::Sergeant => 8.0,
        Piece::Miner if opposing_bombs => 20.0,
        Piece::Miner => 8.0,
        Piece::Scout => 5.0,
        Piece::Spy if opposing_marshal => 30.0,
        Piece::Spy => 3.0,
        Piece::Bomb => 6.0,
    }
}

fn distance(a: Square, b: Square) -> f32 {
    f32::from(a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank()))
}

/// Rows from `color`'s back row (0) forwards.
fn row_from_back(color: Color, square: Square) -> u8 {
    match color {
        Color::Red => square.rank() - 1,
        Color::Blue => 10 - square.rank(),
    }
}

impl<'a> Board<'a> {
    fn new(situation: &'a Situation<'a>) -> Board<'a> {
        let color = situation.color;
        let opponent = color.opponent();
        let view = situation.view;
        let memory = Memory::recall(color, view, situation.history);
        let mut mine = [None; 100];
        let mut left = [0f32; 12];
        for (piece, count) in situation.variant.army() {
            left[piece.index()] = f32::from(count);
        }
        for piece in view.captured.get(opponent).iter().flatten() {
            left[piece.index()] -= 1.0;
        }
        let mut unknown = Vec::new();
        let mut theirs = [None; 100];
        for piece in &view.board {
            if piece.color == color {
                mine[piece.square.index()] = piece.piece;
                continue;
            }
            let belief = memory.at(piece.square).unwrap_or_default();
            match belief.known {
                Some(rank) => {
                    left[rank.index()] -= 1.0;
                    let mut spread = [0.0; 12];
                    spread[rank.index()] = 1.0;
                    theirs[piece.square.index()] = Some(Enemy {
                        square: piece.square,
                        spread,
                        known: true,
                    });
                }
                None => unknown.push((piece.square, belief)),
            }
        }
        for n in &mut left {
            *n = n.max(0.0);
        }
        let immovable = left[Piece::Bomb.index()] + left[Piece::Flag.index()];
        let movable: f32 = Piece::ALL
            .iter()
            .filter(|p| p.is_movable())
            .map(|p| left[p.index()])
            .sum();
        let unmoved = unknown.iter().filter(|(_, b)| !b.moved).count() as f32;
        for (square, belief) in unknown {
            let mut spread = [0.0f32; 12];
            let row = row_from_back(opponent, square);
            for piece in Piece::ALL {
                let n = left[piece.index()];
                let weight = if piece.is_movable() {
                    if piece.strength().unwrap_or(0) <= belief.beat {
                        0.0
                    } else if belief.moved {
                        n / movable.max(1.0)
                    } else {
                        n / movable.max(1.0) * (unmoved - immovable).max(0.0) / unmoved.max(1.0)
                    }
                } else if belief.moved {
                    0.0
                } else {
                    let near_back = match (piece, row) {
                        (Piece::Flag, 0) => 3.0,
                        (Piece::Flag, _) => 0.3,
                        (_, 0 | 1) => 1.5,
                        _ => 0.7,
                    };
                    n / unmoved.max(1.0) * near_back
                };
                spread[piece.index()] = weight;
            }
            let total: f32 = spread.iter().sum();
            if total > 0.0 {
                for p in &mut spread {
                    *p /= total;
                }
            } else {
                // Nothing fits what was seen (a hidden capture under
                // silent_defense): anything movable, evenly.
                for piece in Piece::ALL.iter().filter(|p| p.is_movable()) {
                    spread[piece.index()] = 1.0 / 10.0;
                }
            }
            theirs[square.index()] = Some(Enemy {
                square,
                spread,
                known: false,
            });
        }
        let enemies = theirs.iter().flatten().copied().collect();
        let mine_has = |p: Piece| mine.contains(&Some(p));
        Board {
            situation,
            mine,
            theirs,
            enemies,
            their_marshal_alive: left[Piece::Marshal.index()] > 0.0
                || view
                    .board
                    .iter()
                    .any(|p| p.color == opponent && p.piece == Some(Piece::Marshal)),
            my_marshal_alive: mine_has(Piece::Marshal),
            their_bombs_left: left[Piece::Bomb.index()] > 0.0
                || view
                    .board
                    .iter()
                    .any(|p| p.color == opponent && p.piece == Some(Piece::Bomb)),
            my_bombs_left: mine_has(Piece::Bomb),
            my_flag: (0..100u8)
                .filter_map(Square::from_index)
                .find(|s| mine[s.index()] == Some(Piece::Flag)),
        }
    }

    fn my_value(&self, piece: Piece) -> f32 {
        value(piece, self.their_marshal_alive, self.their_bombs_left)
    }

    fn their_value(&self, piece: Piece) -> f32 {
        value(piece, self.my_marshal_alive, self.my_bombs_left)
    }

    fn aggressor(&self) -> bool {
        self.situation.rules.aggressor_advantage
    }

    /// What `mine` attacking `enemy` is expected to bring: (value, chance
    /// that the attacker ends up standing on the square).
    fn attack(&self, mine: Piece, enemy: &Enemy) -> (f32, f32) {
        let mut expected = 0.0;
        let mut survives = 0.0;
        for piece in Piece::ALL {
            let p = enemy.spread[piece.index()];
            if p == 0.0 {
                continue;
            }
            expected += p * match battle_outcome(mine, piece, self.aggressor()) {
                Outcome::AttackerWins => {
                    survives += p;
                    self.their_value(piece)
                }
                Outcome::DefenderWins => -self.my_value(mine),
                Outcome::BothLose => self.their_value(piece) - self.my_value(mine),
            };
        }
        if !enemy.known {
            expected += if mine == Piece::Scout { 6.0 } else { 2.0 };
        }
        (expected, survives)
    }

    /// The worst an adjacent opponent can do to `mine` standing on
    /// `square` (ignoring the piece on `ignore`, about to be taken).
    fn danger(&self, mine: Piece, square: Square, ignore: Square) -> f32 {
        let mut worst = 0.0f32;
        for &n in &NEIGHBOURS[square.index()] {
            if n == NO_SQUARE || n as usize == ignore.index() {
                continue;
            }
            let Some(enemy) = &self.theirs[n as usize] else {
                continue;
            };
            let mut loss = 0.0;
            for piece in Piece::ALL.iter().filter(|p| p.is_movable()) {
                let p = enemy.spread[piece.index()];
                if p == 0.0 {
                    continue;
                }
                loss += p * match battle_outcome(*piece, mine, self.aggressor()) {
                    Outcome::AttackerWins => self.my_value(mine),
                    Outcome::BothLose => self.my_value(mine) - self.their_value(*piece),
                    Outcome::DefenderWins => 0.0,
                };
            }
            let sure = if enemy.known { 1.0 } else { 0.8 };
            worst = worst.max(loss * sure);
        }
        worst
    }

    /// How much `mine` standing on `square` is drawn to its best target.
    fn pull(&self, mine: Piece, square: Square) -> f32 {
        self.enemies
            .iter()
            .map(|e| {
                let (gain, _) = self.attack(mine, e);
                gain.max(0.0) / (1.0 + distance(square, e.square))
            })
            .fold(0.0, f32::max)
    }

    fn score(&self, m: Move) -> f32 {
        let Some(mine) = self.mine[m.from.index()] else {
            return 0.0;
        };
        let here = self.danger(mine, m.from, m.from);
        match &self.theirs[m.to.index()] {
            Some(enemy) => {
                let (gain, survives) = self.attack(mine, enemy);
                let near_flag = self
                    .my_flag
                    .is_some_and(|f| distance(f, enemy.square) <= 2.0);
                let guard = if near_flag { 50.0 * survives } else { 0.0 };
                gain + guard + survives * (here - self.danger(mine, m.to, m.to))
            }
            None => {
                let there = self.danger(mine, m.to, m.to);
                let back = self
                    .situation
                    .history
                    .iter()
                    .rev()
                    .find(|p| p.color == self.situation.color)
                    .is_some_and(|p| p.from == m.to && p.to == m.from);
                here - there + 2.0 * (self.pull(mine, m.to) - self.pull(mine, m.from))
                    - if back { 1.0 } else { 0.0 }
            }
        }
    }

    /// Own material against the opponent's expected material.
    fn material(&self) -> (f32, f32) {
        let mine = self
            .mine
            .iter()
            .flatten()
            .filter(|p| p.is_movable())
            .map(|&p| self.my_value(p))
            .sum();
        let theirs = self
            .enemies
            .iter()
            .map(|e| {
                Piece::ALL
                    .iter()
                    .filter(|p| p.is_movable())
                    .map(|&p| e.spread[p.index()] * self.their_value(p))
                    .sum::<f32>()
            })
            .sum();
        (mine, theirs)
    }
}

pub(super) fn choose(
    situation: &Situation<'_>,
    moves: &[Move],
    rng: &mut SplitMix64,
    out_of_time: &mut dyn FnMut() -> bool,
) -> Option<Move> {
    let board = Board::new(situation);
    // Attacks first, so that a short budget still sees them.
    let mut order: Vec<Move> = moves.to_vec();
    order.sort_by_key(|m| board.theirs[m.to.index()].is_none());
    let mut best: Option<(f32, Move)> = None;
    for (i, m) in order.into_iter().enumerate() {
        if i > 0 && out_of_time() {
            break;
        }
        let noise = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 0.3;
        let score = board.score(m) + noise;
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, m));
        }
    }
    best.map(|(_, m)| m)
}

pub(super) fn answer_draw(situation: &Situation<'_>) -> DrawAnswer {
    let (mine, theirs) = Board::new(situation).material();
    if mine < 0.7 * theirs {
        DrawAnswer::Accept
    } else {
        DrawAnswer::Decline
    }
}
