//! What a bot remembers about the opponent's pieces, derived from its view
//! and the history it saw: every rank ever shown, which pieces moved, and
//! the bounds a battle put on a piece whose rank stayed hidden (under
//! `silent_defense`, a defender that beat a major is a bomb or stronger
//! than a major). Built afresh for every decision, so it needs no storage
//! and every server process derives the same memory.

use crate::{Color, MoveView, Outcome, Piece, Square, View};

/// What the bot believes about the opponent piece on one square.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Belief {
    /// The rank, once shown.
    pub known: Option<Piece>,
    /// It has moved, so it is neither a bomb nor the flag.
    pub moved: bool,
    /// It beat a piece of this strength while defending: it is a bomb or
    /// stronger (0: no such battle).
    pub beat: u8,
}

/// The bot's beliefs about every opponent piece on the board, by square.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Memory {
    beliefs: [Option<Belief>; 100],
}

impl Memory {
    /// Replays `history` square by square (no ranks needed: a belief
    /// follows its piece), then adds what `view` shows now.
    pub fn recall(color: Color, view: &View, history: &[MoveView]) -> Memory {
        let mut at: [Belief; 100] = [Belief::default(); 100];
        for ply in history {
            let from = ply.from.index();
            let to = ply.to.index();
            let mut mover = std::mem::take(&mut at[from]);
            let theirs = ply.color != color;
            if theirs {
                mover.moved = true;
                mover.known = mover.known.or(ply.piece);
            }
            match ply.battle {
                None => at[to] = mover,
                Some(battle) => match battle.outcome {
                    Outcome::AttackerWins => at[to] = mover,
                    Outcome::BothLose => at[to] = Belief::default(),
                    Outcome::DefenderWins => {
                        let defender = &mut at[to];
                        if !theirs {
                            defender.known = defender.known.or(battle.defender);
                            let strength = battle.attacker.and_then(Piece::strength).unwrap_or(0);
                            defender.beat = defender.beat.max(strength);
                        }
                    }
                },
            }
            if let Some(rescue) = ply.rescue {
                at[rescue.square.index()] = Belief {
                    known: theirs.then_some(rescue.piece),
                    moved: false,
                    beat: 0,
                };
            }
        }
        let mut beliefs = [None; 100];
        for piece in view.board.iter().filter(|p| p.color != color) {
            let remembered = at[piece.square.index()];
            beliefs[piece.square.index()] = Some(Belief {
                known: piece.piece.or(remembered.known),
                moved: piece.moved || remembered.moved,
                beat: remembered.beat,
            });
        }
        Memory { beliefs }
    }

    /// The belief about the opponent piece on `square`, if there is one.
    pub fn at(&self, square: Square) -> Option<Belief> {
        self.beliefs[square.index()]
    }
}
