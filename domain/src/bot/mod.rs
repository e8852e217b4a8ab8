//! Bot players (docs/bots.md). A bot decides from a [`Situation`]: the
//! variant and rules, its color, its own [`View`] of the game and the
//! history as it saw it ([`MoveView`]s). Nothing here takes a [`Game`]
//! (crate::Game): a bot cannot see a rank its player may not know,
//! because the types it is given cannot hold one.
//!
//! Three players: [`Bot::Random`] (uniform among the legal moves),
//! [`Bot::Greedy`] (takes a known weaker piece when one is next to it,
//! otherwise random; a baseline for the arena) and [`Bot::Tactician`]
//! (see `tactician.rs`). Every decision is a pure function of its input
//! and a seed, so the same input always gives the same answer.

mod layout;
mod memory;
mod tactician;

pub use memory::{Belief, Memory};

use crate::rng::SplitMix64;
use crate::{Color, Move, MoveView, Rules, Setup, Variant, View};

/// Which player a bot is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Bot {
    /// A random setup, a uniformly random legal move, declines draws.
    Random,
    /// Attacks a known weaker piece whenever one is next to it, otherwise
    /// moves at random; declines draws. A baseline, not an account.
    Greedy,
    /// Protected flag, scouting, memory, risk-aware attacks.
    Tactician,
}

/// Everything a bot may know when it decides. Every field is public
/// information or its own player's: the view types carry no rank the
/// player may not know (see `crate::view`).
#[derive(Copy, Clone, Debug)]
pub struct Situation<'a> {
    pub variant: Variant,
    pub rules: &'a Rules,
    /// The bot's color.
    pub color: Color,
    /// The bot's view of the game now (`Game::view(Viewer::Player(color))`).
    pub view: &'a View,
    /// Every ply so far as the bot's player saw it, oldest first
    /// (`Game::move_view(record, Viewer::Player(color))`).
    pub history: &'a [MoveView],
}

/// An answer to "should the game stop here?".
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DrawAnswer {
    Accept,
    Decline,
}

impl Bot {
    /// The bot's setup for `color` in `variant`, varied by `seed`.
    pub fn setup(self, variant: Variant, color: Color, seed: u64) -> Setup {
        match self {
            Bot::Random | Bot::Greedy => Setup::random(variant, color, seed),
            Bot::Tactician => layout::protected(variant, color, seed),
        }
    }

    /// The move to play, or `None` when it is not the bot's turn (the view
    /// has no legal moves). `seed` varies the choice between equally good
    /// moves; `out_of_time` is asked between candidate moves, and once it
    /// says `true` the best move found so far is played (the caller owns
    /// the clock: this crate has none).
    pub fn choose_move(
        self,
        situation: &Situation<'_>,
        seed: u64,
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> Option<Move> {
        let moves = situation.view.legal_moves.as_deref()?;
        if moves.is_empty() {
            return None;
        }
        let mut rng = SplitMix64::new(seed);
        match self {
            Bot::Random => Some(moves[rng.below(moves.len())]),
            Bot::Greedy => Some(greedy(situation, moves, &mut rng)),
            Bot::Tactician => tactician::choose(situation, moves, &mut rng, out_of_time),
        }
    }

    /// The answer to the opponent's pending draw offer.
    pub fn answer_draw(self, situation: &Situation<'_>) -> DrawAnswer {
        match self {
            Bot::Random | Bot::Greedy => DrawAnswer::Decline,
            Bot::Tactician => tactician::answer_draw(situation),
        }
    }
}

/// A seed for one decision from public facts only (the game's id as
/// bytes, and the ply), so that every process makes the same choice.
pub fn decision_seed(game: &[u8], ply: u32) -> u64 {
    // FNV-1a, then the ply mixed in.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in game {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash ^ u64::from(ply).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Takes a known weaker piece when one can be attacked, otherwise plays at
/// random.
fn greedy(situation: &Situation<'_>, moves: &[Move], rng: &mut SplitMix64) -> Move {
    let view = situation.view;
    let rank_at = |square: crate::Square| {
        view.board
            .iter()
            .find(|p| p.square == square)
            .map(|p| (p.color, p.piece))
    };
    let winning: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            let (Some((_, Some(mine))), Some((theirs, Some(target)))) =
                (rank_at(m.from), rank_at(m.to))
            else {
                return false;
            };
            theirs != situation.color
                && crate::game::battle_outcome(mine, target, situation.rules.aggressor_advantage)
                    == crate::Outcome::AttackerWins
        })
        .collect();
    if winning.is_empty() {
        moves[rng.below(moves.len())]
    } else {
        winning[rng.below(winning.len())]
    }
}
