//! The compact stored forms of a [`Game`] and a [`Setup`]: the same
//! content as their JSON documents (`crate::state`, `SetupRepr`), written
//! as bytes in hex after a short tag, so that a stored game is about 640
//! characters instead of 8 KB and reads back without parsing JSON. Reading
//! one back goes through the same checks as the JSON documents. The layout
//! is described in docs/storage.md.

use crate::game::{EndReason, GameResult, PieceId};
use crate::record::{BattleRecord, MoveRecord, Outcome};
use crate::state::{GameState, PositionHash, StateError, StoredChase, StoredMove, StoredPiece};
use crate::view::ByColor;
use crate::{Color, Game, Piece, Rescue, Rules, Setup, Square, Variant};

/// The tag a compact stored game starts with (content of format 2).
pub(crate) const GAME_TAG: &str = "g2:";
/// The tag a compact stored setup starts with.
pub(crate) const SETUP_TAG: &str = "s1:";

/// The byte that says "none" where a square, color or record may be absent.
const NONE: u8 = 0xFF;

const REASONS: [EndReason; 7] = [
    EndReason::FlagCaptured,
    EndReason::NoMoves,
    EndReason::Resignation,
    EndReason::Timeout,
    EndReason::DrawAgreed,
    EndReason::BothImmobile,
    EndReason::MoveLimit,
];

const OUTCOMES: [Outcome; 3] = [
    Outcome::AttackerWins,
    Outcome::DefenderWins,
    Outcome::BothLose,
];

/// The position of `value` in `all` (a list of every value of its type).
fn index_of<T: PartialEq>(all: &[T], value: &T) -> u8 {
    all.iter().position(|v| v == value).unwrap_or(0) as u8
}

/// The value at `index` in `all`, or an error naming `what`.
fn pick<T: Copy>(all: &[T], index: u8, what: &str) -> Read<T> {
    match all.get(index as usize) {
        Some(&v) => Ok(v),
        None => bad(&format!("bad {what}")),
    }
}

/// Bytes, written in order.
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn flag(&mut self, v: bool) {
        self.u8(u8::from(v));
    }
    fn color(&mut self, c: Option<Color>) {
        self.u8(c.map_or(NONE, |c| c.index() as u8));
    }
    fn square(&mut self, s: Square) {
        self.u8(s.index() as u8);
    }
    fn piece(&mut self, p: Piece) {
        self.u8(p.index() as u8);
    }
    fn id(&mut self, id: PieceId) {
        self.u8(id.get());
    }
    /// A list of at most 255 items: its length, then each item.
    fn list<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.u8(u8::try_from(items.len()).unwrap_or(u8::MAX));
        for i in items.iter().take(u8::MAX as usize) {
            item(self, i);
        }
    }
    fn option<T>(&mut self, value: Option<&T>, item: impl FnOnce(&mut Self, &T)) {
        match value {
            None => self.u8(0),
            Some(v) => {
                self.u8(1);
                item(self, v);
            }
        }
    }
    /// `tag` followed by the bytes in lower-case hex.
    fn finish(self, tag: &str) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = String::with_capacity(tag.len() + 2 * self.0.len());
        text.push_str(tag);
        for b in self.0 {
            text.push(HEX[(b >> 4) as usize] as char);
            text.push(HEX[(b & 15) as usize] as char);
        }
        text
    }
}

/// Bytes, read in order; every read checks what it finds.
struct Reader<'a> {
    bytes: &'a [u8],
}

type Read<T> = Result<T, StateError>;

fn bad<T>(what: &str) -> Read<T> {
    Err(StateError::new(format!("compact form: {what}")))
}

impl<'a> Reader<'a> {
    /// The bytes of `text` after `tag` (hex, two digits a byte).
    fn open(text: &str, tag: &str, buffer: &'a mut Vec<u8>) -> Read<Reader<'a>> {
        let Some(hex) = text.strip_prefix(tag) else {
            return bad("unknown tag");
        };
        let hex = hex.as_bytes();
        if hex.len() % 2 != 0 {
            return bad("odd number of hex digits");
        }
        let digit = |c: u8| match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            _ => bad("not a hex digit"),
        };
        buffer.clear();
        buffer.reserve(hex.len() / 2);
        for pair in hex.chunks_exact(2) {
            buffer.push(digit(pair[0])? << 4 | digit(pair[1])?);
        }
        Ok(Reader { bytes: buffer })
    }

    fn take<const N: usize>(&mut self) -> Read<[u8; N]> {
        let Some((head, rest)) = self.bytes.split_first_chunk::<N>() else {
            return bad("ends too early");
        };
        self.bytes = rest;
        Ok(*head)
    }
    fn u8(&mut self) -> Read<u8> {
        Ok(self.take::<1>()?[0])
    }
    fn u32(&mut self) -> Read<u32> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn u64(&mut self) -> Read<u64> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    fn flag(&mut self) -> Read<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => bad("a flag is neither 0 nor 1"),
        }
    }
    fn color(&mut self) -> Read<Option<Color>> {
        match self.u8()? {
            NONE => Ok(None),
            c => pick(&Color::ALL, c, "color").map(Some),
        }
    }
    fn some_color(&mut self) -> Read<Color> {
        self.color()?.map_or_else(|| bad("a color is missing"), Ok)
    }
    fn square(&mut self) -> Read<Square> {
        square(self.u8()?)
    }
    fn piece(&mut self) -> Read<Piece> {
        pick(&Piece::ALL, self.u8()?, "piece")
    }
    fn id(&mut self) -> Read<PieceId> {
        PieceId::from_raw(self.u8()?).map_or_else(|| bad("bad piece id"), Ok)
    }
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Read<T>) -> Read<Vec<T>> {
        let n = self.u8()? as usize;
        if n > self.bytes.len() {
            return bad("a list is longer than what is left");
        }
        // Collected by hand: collecting the `Result`s would lose the
        // length and grow the vector by doubling.
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(item(self)?);
        }
        Ok(items)
    }
    fn option<T>(&mut self, item: impl FnOnce(&mut Self) -> Read<T>) -> Read<Option<T>> {
        if self.flag()? {
            item(self).map(Some)
        } else {
            Ok(None)
        }
    }
    fn end(&self) -> Read<()> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            bad("bytes left over")
        }
    }
}

fn square(index: u8) -> Read<Square> {
    Square::from_index(index).map_or_else(|| bad("bad square"), Ok)
}

fn write_rules(w: &mut Writer, r: &Rules) {
    w.u8(r.two_square_limit);
    let flags = [
        r.scout_strike_after_move,
        r.aggressor_advantage,
        r.silent_defense,
        r.rescue,
        r.more_squares_rule,
    ];
    w.u8(flags
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &on)| acc | u8::from(on) << i));
    w.option(r.max_plies.as_ref(), |w, &n| w.u32(n));
    w.option(r.max_plies_without_battle.as_ref(), |w, &n| w.u32(n));
}

fn read_rules(r: &mut Reader<'_>) -> Read<Rules> {
    let two_square_limit = r.u8()?;
    let flags = r.u8()?;
    if flags >> 5 != 0 {
        return bad("unknown rule flags");
    }
    let on = |i: u8| flags & (1 << i) != 0;
    Ok(Rules {
        two_square_limit,
        scout_strike_after_move: on(0),
        aggressor_advantage: on(1),
        silent_defense: on(2),
        rescue: on(3),
        more_squares_rule: on(4),
        max_plies: r.option(Reader::u32)?,
        max_plies_without_battle: r.option(Reader::u32)?,
    })
}

fn write_record(w: &mut Writer, m: &MoveRecord) {
    w.u32(m.ply);
    w.color(Some(m.color));
    w.square(m.from);
    w.square(m.to);
    w.piece(m.piece);
    w.id(m.piece_id);
    w.flag(m.piece_revealed);
    w.option(m.battle.as_ref(), |w, b| {
        w.piece(b.defender);
        w.id(b.defender_id);
        w.flag(b.defender_revealed);
        w.u8(index_of(&OUTCOMES, &b.outcome));
    });
    w.option(m.rescue.as_ref(), |w, r| {
        w.piece(r.piece);
        w.square(r.square);
    });
}

fn read_record(r: &mut Reader<'_>) -> Read<MoveRecord> {
    Ok(MoveRecord {
        ply: r.u32()?,
        color: r.some_color()?,
        from: r.square()?,
        to: r.square()?,
        piece: r.piece()?,
        piece_id: r.id()?,
        piece_revealed: r.flag()?,
        battle: r.option(|r| {
            Ok(BattleRecord {
                defender: r.piece()?,
                defender_id: r.id()?,
                defender_revealed: r.flag()?,
                outcome: pick(&OUTCOMES, r.u8()?, "outcome")?,
            })
        })?,
        rescue: r.option(|r| {
            Ok(Rescue {
                piece: r.piece()?,
                square: r.square()?,
            })
        })?,
    })
}

fn write_pair<T>(w: &mut Writer, pair: &ByColor<T>, mut item: impl FnMut(&mut Writer, &T)) {
    item(w, &pair.red);
    item(w, &pair.blue);
}

fn read_pair<T>(
    r: &mut Reader<'_>,
    mut item: impl FnMut(&mut Reader<'_>) -> Read<T>,
) -> Read<ByColor<T>> {
    Ok(ByColor {
        red: item(r)?,
        blue: item(r)?,
    })
}

/// The bits of a piece's third byte: rank (4 bits), color, revealed, moved.
fn piece_bits(p: &StoredPiece) -> u8 {
    p.piece.index() as u8
        | (p.color.index() as u8) << 4
        | u8::from(p.revealed) << 5
        | u8::from(p.moved) << 6
}

impl Game {
    /// The game in its compact stored form (docs/storage.md): reads back
    /// with [`Game::from_compact`] to an equal game.
    pub fn to_compact(&self) -> String {
        let s = GameState::of(self);
        let mut w = Writer(Vec::with_capacity(320));
        w.u8(index_of(&Variant::ALL, &s.variant));
        write_rules(&mut w, &s.rules);
        w.color(Some(s.turn));
        w.u32(s.ply);
        w.u32(s.plies_without_battle);
        w.option(s.result.as_ref(), |w, result| {
            w.color(result.winner);
            w.u8(index_of(&REASONS, &result.reason));
        });
        w.color(s.draw_offer);
        w.list(&s.pieces, |w, p| {
            w.id(p.id);
            w.u8(p.square.map_or(NONE, |s| s.index() as u8));
            w.u8(piece_bits(p));
        });
        write_pair(&mut w, &s.captured, |w, ids| w.list(ids, |w, &id| w.id(id)));
        write_pair(&mut w, &s.recent_moves, |w, moves| {
            w.list(moves, |w, m| {
                w.id(m.piece);
                w.square(m.from);
                w.square(m.to);
            })
        });
        write_pair(&mut w, &s.rescuers, |w, ids| w.list(ids, |w, &id| w.id(id)));
        w.option(s.last_move.as_ref(), write_record);
        write_pair(&mut w, &s.chases, |w, chase| {
            w.option(chase.as_ref(), |w, c| {
                w.u32(c.since_ply);
                w.list(&c.positions, |w, p| w.u64(p.0));
                w.list(&c.evading, |w, &id| w.id(id));
            })
        });
        w.finish(GAME_TAG)
    }

    /// Reads a game written by [`Game::to_compact`], with every check a
    /// stored JSON document gets.
    pub fn from_compact(text: &str) -> Result<Game, StateError> {
        let mut buffer = Vec::new();
        let mut r = Reader::open(text, GAME_TAG, &mut buffer)?;
        let variant = pick(&Variant::ALL, r.u8()?, "variant")?;
        let rules = read_rules(&mut r)?;
        let turn = r.some_color()?;
        let ply = r.u32()?;
        let plies_without_battle = r.u32()?;
        let result = r.option(|r| {
            let winner = r.color()?;
            let reason = pick(&REASONS, r.u8()?, "end reason")?;
            Ok(GameResult { winner, reason })
        })?;
        let draw_offer = r.color()?;
        let pieces = r.list(|r| {
            let id = r.id()?;
            let square = match r.u8()? {
                NONE => None,
                s => Some(square(s)?),
            };
            let bits = r.u8()?;
            if bits >> 7 != 0 {
                return bad("unknown piece bits");
            }
            Ok(StoredPiece {
                id,
                color: Color::ALL[usize::from(bits >> 4 & 1)],
                piece: pick(&Piece::ALL, bits & 15, "piece")?,
                square,
                revealed: bits & 1 << 5 != 0,
                moved: bits & 1 << 6 != 0,
            })
        })?;
        let ids = |r: &mut Reader<'_>| r.list(Reader::id);
        let captured = read_pair(&mut r, ids)?;
        let recent_moves = read_pair(&mut r, |r| {
            r.list(|r| {
                Ok(StoredMove {
                    piece: r.id()?,
                    from: r.square()?,
                    to: r.square()?,
                })
            })
        })?;
        let rescuers = read_pair(&mut r, ids)?;
        let last_move = r.option(read_record)?;
        let chases = read_pair(&mut r, |r| {
            r.option(|r| {
                Ok(StoredChase {
                    since_ply: r.u32()?,
                    positions: r.list(|r| r.u64().map(PositionHash))?,
                    evading: r.list(Reader::id)?,
                })
            })
        })?;
        r.end()?;
        Game::try_from(GameState {
            format: crate::FORMAT_VERSION,
            variant,
            rules,
            turn,
            ply,
            plies_without_battle,
            result,
            draw_offer,
            pieces,
            captured,
            recent_moves,
            rescuers,
            last_move,
            chases,
        })
    }
}

impl Setup {
    /// The setup in its compact stored form (docs/storage.md).
    pub fn to_compact(&self) -> String {
        let mut w = Writer(Vec::with_capacity(84));
        w.u8(index_of(&Variant::ALL, &self.variant()));
        w.color(Some(self.color()));
        w.list(self.pieces(), |w, &(square, piece)| {
            w.square(square);
            w.piece(piece);
        });
        w.finish(SETUP_TAG)
    }

    /// Reads a setup written by [`Setup::to_compact`], validating it again
    /// as a placement is.
    pub fn from_compact(text: &str) -> Result<Setup, StateError> {
        let mut buffer = Vec::new();
        let mut r = Reader::open(text, SETUP_TAG, &mut buffer)?;
        let variant = pick(&Variant::ALL, r.u8()?, "variant")?;
        let color = r.some_color()?;
        let pieces = r.list(|r| Ok((r.square()?, r.piece()?)))?;
        r.end()?;
        Setup::checked(variant, color, &pieces)
            .map_err(|problems| StateError::new(format!("setup: {problems}")))
    }
}
