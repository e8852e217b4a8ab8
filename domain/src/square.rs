//! Squares of the 10 x 10 board, their names (`a1` .. `j10`) and the lakes.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the 100 squares. The index is `file + 10 * (rank - 1)`, with files
/// `a`..`j` as 0..9 and ranks 1..10, so `a1` is 0, `j1` is 9 and `j10` is 99:
/// the same order as the 100-character board string.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// The eight lake squares, in index order.
pub const LAKES: [Square; 8] = [
    Square(42),
    Square(43),
    Square(46),
    Square(47),
    Square(52),
    Square(53),
    Square(56),
    Square(57),
];

/// Error for a string that does not name a square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (expected a file a-j and a rank 1-10, such as e4)")]
pub struct ParseSquareError(pub String);

impl Square {
    /// The square with this index (0..100), if any.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 100 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index % 100`, for indices known to be valid.
    pub(crate) const fn from_index_wrapping(index: u8) -> Square {
        Square(index % 100)
    }

    /// The square on `file` (0 = `a` .. 9 = `j`) and `rank` (1..=10).
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file < 10 && rank >= 1 && rank <= 10 {
            Some(Square(file + 10 * (rank - 1)))
        } else {
            None
        }
    }

    /// The square opposite through the board's centre (`a1` <-> `j10`,
    /// `e4` <-> `f7`): where a piece stands in the same arrangement seen
    /// from the other side. Lakes go to lakes, one side's setup zone to
    /// the other's.
    pub const fn turned(self) -> Square {
        Square(99 - self.0)
    }

    /// Index 0..100 (`a1` = 0, `j10` = 99).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..10 (`a` = 0).
    pub const fn file(self) -> u8 {
        self.0 % 10
    }

    /// Rank 1..=10.
    pub const fn rank(self) -> u8 {
        self.0 / 10 + 1
    }

    /// Whether this square is one of the eight lake squares.
    pub const fn is_lake(self) -> bool {
        let file = self.file();
        let rank = self.rank();
        (rank == 5 || rank == 6) && (file == 2 || file == 3 || file == 6 || file == 7)
    }

    /// All 100 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0u8..100).map(Square)
    }

    /// The square's name, such as `e4`, without allocating.
    pub fn name(self) -> SquareName {
        let mut bytes = [0u8; 3];
        bytes[0] = b'a' + self.file();
        let rank = self.rank();
        let len = if rank == 10 {
            bytes[1] = b'1';
            bytes[2] = b'0';
            3
        } else {
            bytes[1] = b'0' + rank;
            2
        };
        SquareName { bytes, len }
    }
}

/// A square's name on the stack (see [`Square::name`]).
#[derive(Copy, Clone)]
pub struct SquareName {
    bytes: [u8; 3],
    len: u8,
}

impl SquareName {
    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        // Only ASCII letters and digits are ever written.
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("??")
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name().as_str())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name().as_str())
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.chars().take(16).collect());
        let bytes = s.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return Err(err());
        }
        let file = bytes[0].to_ascii_lowercase();
        if !(b'a'..=b'j').contains(&file) {
            return Err(err());
        }
        let rank: u8 = match &bytes[1..] {
            [d @ b'1'..=b'9'] => d - b'0',
            [b'1', b'0'] => 10,
            _ => return Err(err()),
        };
        Square::from_file_rank(file - b'a', rank).ok_or_else(err)
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name().as_str())
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        struct SquareVisitor;
        impl serde::de::Visitor<'_> for SquareVisitor {
            type Value = Square;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a square name such as \"e4\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Square, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(SquareVisitor)
    }
}

/// The four directions a piece may move in. Index order matters for the
/// neighbour table.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Direction {
    Up,
    Down,
    Right,
    Left,
}

impl Direction {
    pub(crate) const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Right,
        Direction::Left,
    ];
}

/// Marker in the neighbour table: no square there (edge of the board or lake).
pub(crate) const NO_SQUARE: u8 = 0xFF;

/// `NEIGHBOURS[square][direction]`: the adjacent square a piece could step
/// onto, or `NO_SQUARE` at the edge of the board and next to a lake (lakes
/// can never be entered, so for movement they are the same as the edge).
pub(crate) const NEIGHBOURS: [[u8; 4]; 100] = build_neighbours();

const fn build_neighbours() -> [[u8; 4]; 100] {
    let mut table = [[NO_SQUARE; 4]; 100];
    let mut i = 0u8;
    while i < 100 {
        let sq = Square(i);
        if !sq.is_lake() {
            let file = sq.file();
            let rank = sq.rank();
            let candidates = [
                Square::from_file_rank(file, rank + 1),
                if rank > 1 {
                    Square::from_file_rank(file, rank - 1)
                } else {
                    None
                },
                Square::from_file_rank(file + 1, rank),
                if file > 0 {
                    Square::from_file_rank(file - 1, rank)
                } else {
                    None
                },
            ];
            let mut d = 0;
            while d < 4 {
                if let Some(n) = candidates[d] {
                    if !n.is_lake() {
                        table[i as usize][d] = n.0;
                    }
                }
                d += 1;
            }
        }
        i += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>().unwrap(), sq);
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("j10".parse::<Square>().unwrap().index(), 99);
        assert_eq!("e4".parse::<Square>().unwrap().index(), 34);
        for bad in ["", "a", "k1", "a0", "a11", "a01", "10a", "e4 ", "é4"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn lakes() {
        let lakes: Vec<String> = Square::all()
            .filter(|s| s.is_lake())
            .map(|s| s.to_string())
            .collect();
        assert_eq!(lakes, ["c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6"]);
        assert!(LAKES.iter().all(|s| s.is_lake()));
    }

    #[test]
    fn neighbours_skip_lakes_and_edges() {
        let c4: Square = "c4".parse().unwrap();
        assert_eq!(NEIGHBOURS[c4.index()][Direction::Up as usize], NO_SQUARE);
        let a1: Square = "a1".parse().unwrap();
        assert_eq!(NEIGHBOURS[a1.index()][Direction::Left as usize], NO_SQUARE);
        assert_eq!(NEIGHBOURS[a1.index()][Direction::Down as usize], NO_SQUARE);
        assert_eq!(NEIGHBOURS[a1.index()][Direction::Up as usize], 10);
    }
}
