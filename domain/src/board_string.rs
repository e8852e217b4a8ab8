//! The 100-character board string used by Gravon and other Stratego
//! programs: character i is the square with index i (`a1 b1 .. j1 a2 ..
//! j10`); `A` empty, `_` lake, Red `B`..`M` and Blue `N`..`Y` for bomb, spy,
//! scout, miner, sergeant, lieutenant, captain, major, colonel, general,
//! marshal, flag in that order.

use crate::error::BoardStringError;
use crate::{Color, Game, Piece, Rules, Setup, Square, Variant};

/// Pieces in board-string order.
const ORDER: [Piece; 12] = [
    Piece::Bomb,
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
    Piece::Flag,
];

/// The board-string character for a piece.
pub fn piece_char(color: Color, piece: Piece) -> char {
    let offset = ORDER.iter().position(|&p| p == piece).unwrap_or(0) as u8;
    let base = match color {
        Color::Red => b'B',
        Color::Blue => b'N',
    };
    (base + offset) as char
}

/// The piece a board-string character stands for (`None` for `A`, `_` and
/// anything else).
pub fn char_piece(c: char) -> Option<(Color, Piece)> {
    match c {
        'B'..='M' => Some((Color::Red, ORDER[(c as u8 - b'B') as usize])),
        'N'..='Y' => Some((Color::Blue, ORDER[(c as u8 - b'N') as usize])),
        _ => None,
    }
}

/// The board string of whatever `piece_at` puts on each square.
fn board_string(piece_at: impl Fn(Square) -> Option<(Color, Piece)>) -> String {
    Square::all()
        .map(|sq| match piece_at(sq) {
            Some((color, piece)) => piece_char(color, piece),
            None if sq.is_lake() => '_',
            None => 'A',
        })
        .collect()
}

impl Setup {
    /// This setup alone as a board string (full truth: a viewer gets it
    /// only through [`crate::Setups::known_to`]).
    pub(crate) fn to_board_string(&self) -> String {
        let pieces = self.pieces();
        board_string(|sq| {
            pieces
                .binary_search_by_key(&sq, |&(s, _)| s)
                .ok()
                .map(|i| (self.color(), pieces[i].1))
        })
    }
}

impl Game {
    /// The position as a 100-character board string (full truth).
    pub fn to_board_string(&self) -> String {
        board_string(|sq| self.piece_at(sq).map(|p| (p.color, p.piece)))
    }

    /// A fresh game (ply 0, Red to move, nothing moved or revealed) from a
    /// board string. Each color may have any part of `variant`'s army.
    pub fn from_board_string(
        s: &str,
        variant: Variant,
        rules: Rules,
    ) -> Result<Game, BoardStringError> {
        Game::from_position(s, variant, rules, Color::Red)
    }

    /// Like [`Game::from_board_string`], with `turn` to move.
    pub fn from_position(
        s: &str,
        variant: Variant,
        rules: Rules,
        turn: Color,
    ) -> Result<Game, BoardStringError> {
        rules.validate()?;
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != 100 {
            return Err(BoardStringError::Length(chars.len()));
        }
        let mut pieces = Vec::with_capacity(80);
        let mut counts = [[0u8; 12]; 2];
        for (square, &c) in Square::all().zip(&chars) {
            match (c, square.is_lake()) {
                ('_', true) => continue,
                (_, true) => return Err(BoardStringError::LakeExpected { square }),
                ('_', false) => return Err(BoardStringError::NotALake { square }),
                ('A', false) => continue,
                _ => {}
            }
            let Some((color, piece)) = char_piece(c) else {
                return Err(BoardStringError::BadChar {
                    index: square.index(),
                    square,
                    found: c,
                });
            };
            let count = &mut counts[color.index()][piece.index()];
            *count += 1;
            if *count > variant.count(piece) {
                return Err(BoardStringError::TooMany { color, piece });
            }
            pieces.push((color, square, piece));
        }
        Ok(Game::from_pieces(variant, rules, pieces.into_iter(), turn))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::Setup;

    #[test]
    fn chars_round_trip() {
        for color in Color::ALL {
            for piece in Piece::ALL {
                assert_eq!(char_piece(piece_char(color, piece)), Some((color, piece)));
            }
        }
        assert_eq!(piece_char(Color::Red, Piece::Bomb), 'B');
        assert_eq!(piece_char(Color::Red, Piece::Flag), 'M');
        assert_eq!(piece_char(Color::Blue, Piece::Bomb), 'N');
        assert_eq!(piece_char(Color::Blue, Piece::Flag), 'Y');
    }

    #[test]
    fn game_round_trip() {
        let red = Setup::random(Variant::Classic, Color::Red, 1);
        let blue = Setup::random(Variant::Classic, Color::Blue, 1);
        let game = Game::new(Variant::Classic, Rules::default(), red, blue).unwrap();
        let s = game.to_board_string();
        assert_eq!(s.len(), 100);
        assert_eq!(&s[40..60], "AA__AA__AAAA__AA__AA");
        let back = Game::from_board_string(&s, Variant::Classic, Rules::default()).unwrap();
        assert_eq!(back, game);
    }

    #[test]
    fn setups_are_known_to_their_owner_and_to_all_once_over() {
        let red = Setup::random(Variant::Classic, Color::Red, 4);
        let blue = Setup::random(Variant::Classic, Color::Blue, 4);
        let game = Game::new(
            Variant::Classic,
            Rules::default(),
            red.clone(),
            blue.clone(),
        )
        .unwrap();
        let setups = crate::Setups::from_parts(Some(red), Some(blue));
        let red_eyes = setups.known_to(crate::Viewer::Player(Color::Red), false);
        let board = red_eyes.red.as_ref().unwrap().board.clone();
        assert!(red_eyes.blue.is_none());
        assert_eq!(board.len(), 100);
        // Red's half of the starting position, nothing of Blue's.
        assert_eq!(&board[..40], &game.to_board_string()[..40]);
        assert!(board[40..].chars().all(|c| c == 'A' || c == '_'));
        let spectator = setups.known_to(crate::Viewer::Spectator, false);
        assert!(spectator.red.is_none() && spectator.blue.is_none());
        let over = setups.known_to(crate::Viewer::Spectator, true);
        let merged: String = over
            .red
            .unwrap()
            .board
            .chars()
            .zip(over.blue.unwrap().board.chars())
            .map(|(r, b)| if r == 'A' { b } else { r })
            .collect();
        assert_eq!(merged, game.to_board_string());
    }

    #[test]
    fn rejects_bad_strings() {
        let empty: String = Square::all()
            .map(|s| if s.is_lake() { '_' } else { 'A' })
            .collect();
        let ok = |s: &str| Game::from_board_string(s, Variant::Classic, Rules::default());
        assert!(ok(&empty).is_ok());
        assert!(matches!(ok(&empty[1..]), Err(BoardStringError::Length(99))));
        let mut s: Vec<char> = empty.chars().collect();
        s[42] = 'A';
        let s: String = s.into_iter().collect();
        assert!(matches!(ok(&s), Err(BoardStringError::LakeExpected { .. })));
        let mut s: Vec<char> = empty.chars().collect();
        s[0] = 'Z';
        let s: String = s.into_iter().collect();
        assert!(matches!(ok(&s), Err(BoardStringError::BadChar { .. })));
        let mut s: Vec<char> = empty.chars().collect();
        s[0] = 'L';
        s[1] = 'L';
        let s: String = s.into_iter().collect();
        assert!(matches!(ok(&s), Err(BoardStringError::TooMany { .. })));
    }

    #[test]
    fn both_colours_lakes_and_odd_characters() {
        let red = Setup::random(Variant::Barrage, Color::Red, 9);
        let blue = Setup::random(Variant::Barrage, Color::Blue, 9);
        let game = Game::new(Variant::Barrage, Rules::default(), red, blue).unwrap();
        let s = game.to_board_string();
        assert_eq!(s.chars().filter(|c| *c == '_').count(), 8);
        assert_eq!(s.chars().filter(|c| ('B'..='M').contains(c)).count(), 8);
        assert_eq!(s.chars().filter(|c| ('N'..='Y').contains(c)).count(), 8);
        let back =
            Game::from_position(&s, Variant::Barrage, Rules::default(), Color::Blue).unwrap();
        assert_eq!(back.to_board_string(), s);
        assert_eq!(back.turn(), Color::Blue);
        // Classic counts are refused in barrage.
        let classic = Game::new(
            Variant::Classic,
            Rules::default(),
            Setup::random(Variant::Classic, Color::Red, 9),
            Setup::random(Variant::Classic, Color::Blue, 9),
        )
        .unwrap()
        .to_board_string();
        assert!(matches!(
            Game::from_board_string(&classic, Variant::Barrage, Rules::default()),
            Err(BoardStringError::TooMany { .. })
        ));
        let ok = |s: &str| Game::from_board_string(s, Variant::Classic, Rules::default());
        let empty: Vec<char> = Square::all()
            .map(|s| if s.is_lake() { '_' } else { 'A' })
            .collect();
        for (index, c) in [(0, 'b'), (0, 'Z'), (0, ' '), (0, '\u{e9}'), (99, 'a')] {
            let mut chars = empty.clone();
            chars[index] = c;
            let s: String = chars.into_iter().collect();
            assert!(
                matches!(ok(&s), Err(BoardStringError::BadChar { .. })),
                "{c:?} accepted"
            );
        }
        // A lake square holding a piece, and a lake mark off the lakes.
        let mut chars = empty.clone();
        chars[42] = 'L';
        let s: String = chars.into_iter().collect();
        assert!(matches!(ok(&s), Err(BoardStringError::LakeExpected { .. })));
        let mut chars = empty.clone();
        chars[0] = '_';
        let s: String = chars.into_iter().collect();
        assert!(matches!(ok(&s), Err(BoardStringError::NotALake { .. })));
        // Length counts characters, not bytes; 101 characters are refused.
        let mut long: String = empty.iter().collect();
        long.push('A');
        assert!(matches!(ok(&long), Err(BoardStringError::Length(101))));
        assert!(matches!(ok(""), Err(BoardStringError::Length(0))));
    }
}
