//! Random playouts: both sides pick uniformly among their legal moves,
//! driven by the crate's own PRNG so that results are pinned forever.

use crate::rng::SplitMix64;
use crate::{Action, Color, Game, GameError, GameResult, Rules, Setup, Variant};

/// What a random playout did.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PlayoutSummary {
    /// Plies played by the playout.
    pub plies: u32,
    /// The result, or `None` if `max_plies` ran out first.
    pub result: Option<GameResult>,
}

/// A new game with random setups for both colors from `seed`.
pub fn random_game(variant: Variant, rules: Rules, seed: u64) -> Result<Game, GameError> {
    Game::new(
        variant,
        rules,
        Setup::random(variant, Color::Red, seed),
        Setup::random(variant, Color::Blue, seed),
    )
}

/// Plays uniformly random legal moves from `seed` until the game ends or
/// `max_plies` plies have been played. Allocates nothing.
pub fn random_playout(game: &mut Game, seed: u64, max_plies: u32) -> PlayoutSummary {
    let mut rng = SplitMix64::new(seed);
    let mut plies = 0;
    while game.result().is_none() && plies < max_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        if game.apply(game.turn(), Action::play(m.from, m.to)).is_err() {
            break;
        }
        plies += 1;
    }
    PlayoutSummary {
        plies,
        result: game.result(),
    }
}
