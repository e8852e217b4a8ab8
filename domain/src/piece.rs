//! Colors and pieces.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A player's color. Red moves first.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red,
    Blue,
}

impl Color {
    /// Both colors, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Blue];

    /// The other player.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    /// 0 for Red, 1 for Blue.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"red"` or `"blue"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
        }
    }

    /// The opponent's back row, where `rescue` may happen (Red: 10, Blue: 1).
    pub const fn opponent_back_rank(self) -> u8 {
        match self {
            Color::Red => 10,
            Color::Blue => 1,
        }
    }

    /// Whether `rank` lies in this player's half (Red 1-5, Blue 6-10).
    pub const fn owns_half_rank(self, rank: u8) -> bool {
        match self {
            Color::Red => rank <= 5,
            Color::Blue => rank >= 6,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a string that names no color.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a color (expected red or blue)")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s {
            "red" => Ok(Color::Red),
            "blue" => Ok(Color::Blue),
            _ => Err(ParseColorError(s.chars().take(16).collect())),
        }
    }
}

/// A piece by name. Its strength follows the modern numbering (marshal 10 ..
/// spy 1); [`Piece::old_number`] gives the 1961 numbering.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    Flag,
    Spy,
    Scout,
    Miner,
    Sergeant,
    Lieutenant,
    Captain,
    Major,
    Colonel,
    General,
    Marshal,
    Bomb,
}

/// Error for a string that names no piece.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a piece name")]
pub struct ParsePieceError(pub String);

impl Piece {
    /// All twelve pieces, in declaration order.
    pub const ALL: [Piece; 12] = [
        Piece::Flag,
        Piece::Spy,
        Piece::Scout,
        Piece::Miner,
        Piece::Sergeant,
        Piece::Lieutenant,
        Piece::Captain,
        Piece::Major,
        Piece::Colonel,
        Piece::General,
        Piece::Marshal,
        Piece::Bomb,
    ];

    /// Position in [`Piece::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Modern strength: marshal 10 .. spy 1; `None` for bomb and flag.
    pub const fn strength(self) -> Option<u8> {
        match self {
            Piece::Flag | Piece::Bomb => None,
            Piece::Spy => Some(1),
            Piece::Scout => Some(2),
            Piece::Miner => Some(3),
            Piece::Sergeant => Some(4),
            Piece::Lieutenant => Some(5),
            Piece::Captain => Some(6),
            Piece::Major => Some(7),
            Piece::Colonel => Some(8),
            Piece::General => Some(9),
            Piece::Marshal => Some(10),
        }
    }

    /// The number printed on the piece in the 1961 edition (`"1"` for the
    /// marshal .. `"9"` for the scout, `"S"` spy, `"B"` bomb, `"F"` flag).
    pub const fn old_number(self) -> &'static str {
        match self {
            Piece::Marshal => "1",
            Piece::General => "2",
            Piece::Colonel => "3",
            Piece::Major => "4",
            Piece::Captain => "5",
            Piece::Lieutenant => "6",
            Piece::Sergeant => "7",
            Piece::Miner => "8",
            Piece::Scout => "9",
            Piece::Spy => "S",
            Piece::Bomb => "B",
            Piece::Flag => "F",
        }
    }

    /// The lower-case name used by the API (`"marshal"`).
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Flag => "flag",
            Piece::Spy => "spy",
            Piece::Scout => "scout",
            Piece::Miner => "miner",
            Piece::Sergeant => "sergeant",
            Piece::Lieutenant => "lieutenant",
            Piece::Captain => "captain",
            Piece::Major => "major",
            Piece::Colonel => "colonel",
            Piece::General => "general",
            Piece::Marshal => "marshal",
            Piece::Bomb => "bomb",
        }
    }

    /// Bombs and flags never move.
    pub const fn is_movable(self) -> bool {
        !matches!(self, Piece::Flag | Piece::Bomb)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Piece {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        Piece::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| ParsePieceError(s.chars().take(32).collect()))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn names_parse_and_serialize() {
        for p in Piece::ALL {
            assert_eq!(p.name().parse::<Piece>().unwrap(), p);
            assert_eq!(
                serde_json::to_string(&p).unwrap(),
                format!("\"{}\"", p.name())
            );
        }
        assert!("Marshal".parse::<Piece>().is_err());
        assert_eq!(serde_json::to_string(&Color::Blue).unwrap(), "\"blue\"");
    }

    #[test]
    fn both_numberings() {
        assert_eq!(Piece::Marshal.strength(), Some(10));
        assert_eq!(Piece::Marshal.old_number(), "1");
        assert_eq!(Piece::Scout.strength(), Some(2));
        assert_eq!(Piece::Scout.old_number(), "9");
        assert_eq!(Piece::Spy.strength(), Some(1));
        assert_eq!(Piece::Bomb.strength(), None);
    }
}
