//! The JSON of a game's view, byte for byte what serde_json writes for
//! [`GameView`], written faster: the board and the legal moves (most of a
//! view) from names encoded once, the rest by serde_json. Encoding the
//! views a move sends was the largest single cost of a move in the server
//! (BENCHMARKS.md, twenty-first measurement).
//!
//! Nothing here decides what a viewer may see: it writes the view the
//! domain built for them, field by field. Each struct written here is
//! taken apart whole, so a field added to one stops the build until it is
//! written too; the tests (`encode_tests.rs`), and in debug builds every
//! view written (so every end-to-end test), check the bytes against
//! serde_json's.

use std::sync::OnceLock;

use domain::{Color, Move, Piece, PieceView, Square};
use serde::Serialize;

use super::answers::{GameView, MoveAnswer};
use super::decide::Answer;

/// An answer the routes send as JSON: by serde_json, or for the answers
/// holding a view, by [`write_view`].
pub trait AnswerJson: Serialize {
    /// Appends the answer's JSON to `out`.
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, self)
    }
}

impl AnswerJson for GameView {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        write_view(self, out)
    }
}

impl AnswerJson for MoveAnswer {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        // `back_from_vacation` is not sent.
        let MoveAnswer {
            move_,
            game,
            back_from_vacation: _,
        } = self;
        out.extend_from_slice(b"{\"move\":");
        serde_json::to_writer(&mut *out, move_)?;
        out.extend_from_slice(b",\"game\":");
        write_view(game, out)?;
        out.push(b'}');
        Ok(())
    }
}

impl AnswerJson for Answer {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        // Untagged: each answer is written as its content alone.
        match self {
            Answer::View(view) => view.write_json(out),
            Answer::Move(answer) => answer.write_json(out),
            Answer::Nothing => serde_json::to_writer(out, self),
        }
    }
}

/// The JSON of the names a board is written with (not the usernames of
/// `answers::Names`), each as serde_json writes it, quotes included,
/// encoded once by serde_json itself.
struct Encoded {
    colors: [Box<[u8]>; 2],
    pieces: [Box<[u8]>; 12],
    /// By [`Square::index`].
    squares: Vec<Box<[u8]>>,
    /// Every `u8`, for piece ids and strengths.
    numbers: Vec<Box<[u8]>>,
}

fn json<T: Serialize>(value: &T) -> Option<Box<[u8]>> {
    serde_json::to_vec(value).ok().map(Vec::into_boxed_slice)
}

impl Encoded {
    fn make() -> Option<Encoded> {
        let mut colors: [Box<[u8]>; 2] = Default::default();
        for color in Color::ALL {
            colors[color.index()] = json(&color)?;
        }
        let mut pieces: [Box<[u8]>; 12] = Default::default();
        for piece in Piece::ALL {
            pieces[piece.index()] = json(&piece)?;
        }
        let mut squares = vec![Box::default(); 100];
        for index in 0..100u8 {
            let square = Square::from_index(index)?;
            *squares.get_mut(square.index())? = json(&square)?;
        }
        let numbers = (0..=u8::MAX).map(|n| json(&n)).collect::<Option<_>>()?;
        Some(Encoded {
            colors,
            pieces,
            squares,
            numbers,
        })
    }

    fn get() -> Option<&'static Encoded> {
        static ENCODED: OnceLock<Option<Encoded>> = OnceLock::new();
        ENCODED.get_or_init(Encoded::make).as_ref()
    }

    fn square(&self, square: Square) -> serde_json::Result<&[u8]> {
        use serde::ser::Error;
        self.squares
            .get(square.index())
            .map(|name| &name[..])
            .ok_or_else(|| serde_json::Error::custom("a square off the board"))
    }

    fn number(&self, n: u8) -> &[u8] {
        &self.numbers[usize::from(n)]
    }

    fn piece(&self, out: &mut Vec<u8>, piece: &PieceView) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"id\":");
        out.extend_from_slice(self.number(piece.id.get()));
        out.extend_from_slice(b",\"square\":");
        out.extend_from_slice(self.square(piece.square)?);
        out.extend_from_slice(b",\"color\":");
        out.extend_from_slice(&self.colors[piece.color.index()]);
        out.extend_from_slice(b",\"piece\":");
        match piece.piece {
            Some(rank) => out.extend_from_slice(&self.pieces[rank.index()]),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"strength\":");
        match piece.strength {
            Some(strength) => out.extend_from_slice(self.number(strength)),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(if piece.revealed {
            b",\"revealed\":true"
        } else {
            b",\"revealed\":false"
        });
        out.extend_from_slice(if piece.moved {
            b",\"moved\":true}"
        } else {
            b",\"moved\":false}"
        });
        Ok(())
    }

    fn a_move(&self, out: &mut Vec<u8>, the_move: &Move) -> serde_json::Result<()> {
        let Move { from, to } = the_move;
        out.extend_from_slice(b"{\"from\":");
        out.extend_from_slice(self.square(*from)?);
        out.extend_from_slice(b",\"to\":");
        out.extend_from_slice(self.square(*to)?);
        out.push(b'}');
        Ok(())
    }
}

/// Writes `items` as a JSON array, each by `item`.
fn array<T>(
    out: &mut Vec<u8>,
    items: &[T],
    mut item: impl FnMut(&mut Vec<u8>, &T) -> serde_json::Result<()>,
) -> serde_json::Result<()> {
    out.push(b'[');
    for (i, each) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item(out, each)?;
    }
    out.push(b']');
    Ok(())
}

/// Appends `,"name":` and `value` as serde_json writes it.
fn member<T: Serialize>(out: &mut Vec<u8>, name: &[u8], value: &T) -> serde_json::Result<()> {
    out.extend_from_slice(name);
    serde_json::to_writer(&mut *out, value)
}

/// Appends the JSON of `view` to `out`: the bytes `serde_json::to_writer`
/// would append.
pub fn write_view(view: &GameView, out: &mut Vec<u8>) -> serde_json::Result<()> {
    let start = out.len();
    let written = write_fast(view, out);
    debug_assert!(
        written.is_err() || serde_json::to_vec(view).is_ok_and(|expected| out[start..] == expected),
        "the view's JSON differs from serde_json's: {}",
        String::from_utf8_lossy(&out[start..]),
    );
    if written.is_err() {
        out.truncate(start);
        return serde_json::to_writer(out, view);
    }
    Ok(())
}

/// [`write_view`], or an error (with `out` partly written) if the names
/// could not be encoded or the header did not come out as an object.
fn write_fast(view: &GameView, out: &mut Vec<u8>) -> serde_json::Result<()> {
    use serde::ser::Error;
    let GameView {
        header,
        you,
        board,
        captured,
        last_move,
        legal_moves,
        draw_offer,
        rescues_used,
        plies_without_battle,
        deadline,
        clocks,
    } = view;
    let encoded = Encoded::get().ok_or_else(|| serde_json::Error::custom("no encoded names"))?;
    // The header's members open the view (it is flattened into it): its
    // object, without the closing brace, then the view's own members.
    let start = out.len();
    serde_json::to_writer(&mut *out, header)?;
    if out.len() <= start + 2 || out.pop() != Some(b'}') {
        return Err(serde_json::Error::custom(
            "the header is not an object with members",
        ));
    }
    member(out, b",\"you\":", you)?;
    out.extend_from_slice(b",\"board\":");
    array(out, board, |out, piece| encoded.piece(out, piece))?;
    member(out, b",\"captured\":", captured)?;
    member(out, b",\"last_move\":", last_move)?;
    if let Some(moves) = legal_moves {
        out.extend_from_slice(b",\"legal_moves\":");
        array(out, moves, |out, the_move| encoded.a_move(out, the_move))?;
    }
    member(out, b",\"draw_offer\":", draw_offer)?;
    member(out, b",\"rescues_used\":", rescues_used)?;
    member(out, b",\"plies_without_battle\":", plies_without_battle)?;
    member(out, b",\"deadline\":", deadline)?;
    member(out, b",\"clocks\":", clocks)?;
    out.push(b'}');
    Ok(())
}

#[cfg(test)]
#[path = "encode_tests.rs"]
mod tests;
