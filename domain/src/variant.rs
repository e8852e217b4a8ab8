//! Variants: the army each player gets and where it may be set up.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Color, Piece, Square};

/// A game variant (docs/rules.md "Armies").
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// 40 pieces, setup ranks 1-4 / 7-10.
    #[default]
    Classic,
    /// 8 pieces, setup ranks 1-4 / 7-10.
    Barrage,
    /// 10 pieces, setup ranks 1-3 / 8-10.
    Duel,
}

/// How many of each piece an army has, indexed by [`Piece::index`].
type Army = [u8; 12];

//                      flag spy scout miner sgt lt capt maj col gen mar bomb
const CLASSIC: Army = [1, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6];
const BARRAGE: Army = [1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1];
const DUEL: Army = [1, 1, 2, 2, 0, 0, 0, 0, 0, 1, 1, 2];

impl Variant {
    /// All variants.
    pub const ALL: [Variant; 3] = [Variant::Classic, Variant::Barrage, Variant::Duel];

    /// The lower-case name (`"classic"`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Barrage => "barrage",
            Variant::Duel => "duel",
        }
    }

    const fn army_counts(self) -> &'static Army {
        match self {
            Variant::Classic => &CLASSIC,
            Variant::Barrage => &BARRAGE,
            Variant::Duel => &DUEL,
        }
    }

    /// How many pieces of this kind each player has.
    pub const fn count(self, piece: Piece) -> u8 {
        self.army_counts()[piece.index()]
    }

    /// The army as `(piece, count)` pairs for the pieces it contains.
    pub fn army(self) -> impl Iterator<Item = (Piece, u8)> {
        Piece::ALL
            .into_iter()
            .map(move |p| (p, self.count(p)))
            .filter(|&(_, n)| n > 0)
    }

    /// Total number of pieces per player (40, 8 or 10).
    pub fn army_size(self) -> usize {
        self.army_counts().iter().map(|&n| n as usize).sum()
    }

    /// Number of ranks in each setup zone (4, or 3 for `duel`).
    pub const fn zone_depth(self) -> u8 {
        match self {
            Variant::Duel => 3,
            Variant::Classic | Variant::Barrage => 4,
        }
    }

    /// Whether `square` is in `color`'s setup zone.
    pub const fn in_zone(self, color: Color, square: Square) -> bool {
        let rank = square.rank();
        let depth = self.zone_depth();
        match color {
            Color::Red => rank <= depth,
            Color::Blue => rank > 10 - depth,
        }
    }

    /// The squares of `color`'s setup zone in index order.
    pub fn zone(self, color: Color) -> impl Iterator<Item = Square> + Clone {
        Square::all().filter(move |&s| self.in_zone(color, s))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a string that names no variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a variant (expected classic, barrage or duel)")]
pub struct ParseVariantError(pub String);

impl FromStr for Variant {
    type Err = ParseVariantError;
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| ParseVariantError(s.chars().take(16).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn army_sizes_and_zones() {
        assert_eq!(Variant::Classic.army_size(), 40);
        assert_eq!(Variant::Barrage.army_size(), 8);
        assert_eq!(Variant::Duel.army_size(), 10);
        assert_eq!(Variant::Classic.zone(Color::Red).count(), 40);
        assert_eq!(Variant::Duel.zone(Color::Blue).count(), 30);
        assert!(Variant::Classic
            .zone(Color::Blue)
            .all(|s| s.rank() >= 7 && !s.is_lake()));
    }
}
