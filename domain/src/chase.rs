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
    /// A Bloom filter of `positions` (two bits per hash out of 2,048), so
    /// that looking up a position that never stood (nearly every lookup)
    /// costs two bit tests, however long the chase. Derived from
    /// `positions` alone.
    filter: [u64; 32],
}

/// The two filter bits of a position hash.
#[inline(always)]
const fn filter_bits(hash: u64) -> [usize; 2] {
    [(hash >> 53) as usize, ((hash >> 42) & 2047) as usize]
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
        self.refilter();
        self.threatened = threatened;
    }

    /// An empty chase whose first position stood at `first_ply`, to be
    /// filled with [`Chase::push_stored`].
    pub(crate) fn stored(first_ply: u32) -> Chase {
        Chase {
            first_ply,
            ..Chase::default()
        }
    }

    /// Adds a position read back from a stored game.
    pub(crate) fn push_stored(&mut self, position: u64) {
        let _ = self.positions.try_push(position);
        self.refilter();
    }

    /// Rebuilds the filter from `positions`: incrementally when the last
    /// one is new, in full after the oldest was dropped.
    fn refilter(&mut self) {
        let full_rebuild = self.positions.is_full();
        let set = |filter: &mut [u64; 32], hash: u64| {
            for b in filter_bits(hash) {
                filter[b / 64] |= 1 << (b % 64);
            }
        };
        if full_rebuild {
            self.filter = [0; 32];
            for &p in &self.positions {
                set(&mut self.filter, p);
            }
        } else if let Some(&p) = self.positions.last() {
            set(&mut self.filter, p);
        }
    }

    /// The ply at which `position` stood in this chase, earliest first.
    #[inline]
    pub(crate) fn stood_at(&self, position: u64) -> Option<u32> {
        let maybe = filter_bits(position)
            .iter()
            .all(|&b| self.filter[b / 64] & (1 << (b % 64)) != 0);
        if !maybe {
            return None;
        }
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
        // The filter is the same as one built from what is remembered.
        let mut again = Chase {
            first_ply: c.first_ply,
            threatened: 1,
            ..Chase::default()
        };
        for &p in &c.positions {
            again.push_stored(p);
        }
        assert_eq!(again, c);
        c.clear();
        assert_eq!(c, Chase::default());
    }
}
