//! The more-squares rule's memory (ISF game rules art. 11, as this server
//! enforces it: `docs/more-squares-rule.md`).
//!
//! Each player has their own [`Chase`]: the positions that have stood after
//! each of their moves since their current continuous chase began, as
//! 64-bit hashes of the public arrangement (which piece id of which color
//! stands on which square, and whose turn it is; never a rank), plus the
//! opponent's pieces that their last move threatened and those that have
//! evaded during the chase.

use arrayvec::ArrayVec;

use crate::game::PieceId;
use crate::{Color, Square};

/// How many positions one chase remembers: those after the chaser's last
/// 128 moves. A longer chase forgets its oldest position for each new one
/// (see the docs: a cycle of more than 128 chaser moves is not caught).
pub(crate) const CHASE_MEMORY: usize = 128;

/// SplitMix64's output function (the crate's PRNG, `crate::rng`). Part of
/// the stored format (version 2 stores position hashes): never change it.
const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash key of the piece `id` of `color` standing on `square`. A
/// position's hash is the XOR of the keys of every piece on the board, and
/// [`TURN_KEY`] when Blue is to move.
#[inline(always)]
pub(crate) const fn piece_key(color: Color, id: PieceId, square: Square) -> u64 {
    mix(((color.index() as u64) << 16) | ((id.get() as u64) << 8) | square.index() as u64)
}

/// XORed into a position's hash when Blue is to move.
pub(crate) const TURN_KEY: u64 = mix(1 << 32);

/// The turn part of a position's hash.
#[inline(always)]
pub(crate) const fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::Red => 0,
        Color::Blue => TURN_KEY,
    }
}

/// The bit of a unit (index 0..80) in a set of units.
#[inline(always)]
pub(crate) const fn bit(unit: u8) -> u128 {
    1u128 << (unit & 127)
}

/// One player's continuous chase, as the chaser. Empty (`positions` empty,
/// everything else zero) when there is none.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct Chase {
    /// The ply after which `positions[0]` stood (0 when there is no chase).
    pub(crate) first_ply: u32,
    /// The hash of the position after each of the chaser's moves in the
    /// chase, oldest first, one per chaser move (two plies apart).
    pub(crate) positions: ArrayVec<u64, CHASE_MEMORY>,
    /// The opponent's units threatened by the chaser's last move, while
    /// the opponent is to move (awaiting their evasion); empty otherwise.
    pub(crate) threatened: u128,
    /// The opponent's units that have evaded during this chase.
    pub(crate) evading: u128,
}

impl Chase {
    /// Whether a chase is on.
    #[inline(always)]
    pub(crate) fn is_on(&self) -> bool {
        !self.positions.is_empty()
    }

    /// Ends the chase.
    pub(crate) fn clear(&mut self) {
        *self = Chase::default();
    }

    /// Records the position after one of the chaser's moves, which
    /// threatened `threatened` (not empty): the first of a new chase, or the
    /// next of the chase in progress. `ply` is the ply just played.
    pub(crate) fn record(&mut self, ply: u32, position: u64, threatened: u128) {
        if !self.is_on() {
            self.first_ply = ply;
            self.evading = 0;
        } else if self.positions.is_full() {
            self.positions.remove(0);
            self.first_ply = self.first_ply.saturating_add(2);
        }
        let _ = self.positions.try_push(position);
        self.threatened = threatened;
    }

    /// The ply at which `position` stood in this chase, earliest first.
    #[inline]
    pub(crate) fn stood_at(&self, position: u64) -> Option<u32> {
        self.positions
            .iter()
            .position(|&p| p == position)
            .map(|k| self.first_ply.saturating_add(2 * k as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_keys_are_pinned() {
        // Stored games (format 2) hold position hashes: the keys must never
        // change, or old chases would silently stop matching.
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
        let a1 = Square::from_index_wrapping(0);
        let j10 = Square::from_index_wrapping(99);
        assert_eq!(
            piece_key(Color::Red, PieceId::starting_at(a1), a1),
            0xE220_A839_7B1D_CDAF
        );
        assert_eq!(
            piece_key(Color::Blue, PieceId::starting_at(j10), j10),
            mix((1 << 16) | (99 << 8) | 99)
        );
        assert_eq!(turn_key(Color::Blue), mix(1 << 32));
    }

    #[test]
    fn a_full_memory_forgets_its_oldest_position() {
        let mut c = Chase::default();
        for k in 0..CHASE_MEMORY as u64 + 3 {
            c.record(11 + 2 * k as u32, 1000 + k, 1);
        }
        assert_eq!(c.positions.len(), CHASE_MEMORY);
        assert_eq!(c.stood_at(1000), None);
        assert_eq!(c.stood_at(1003), Some(17));
        c.clear();
        assert_eq!(c, Chase::default());
    }
}
