//! `board.svg`: the board drawn for one caller (docs/pictures-and-records.md).
//!
//! The picture is drawn from the caller's [`GameView`] and nothing else, so
//! it can show no more than the JSON view does: a piece whose rank the
//! caller may not know is a blank back in its owner's color, because the
//! view has no rank to draw. Plain SVG 1.1: a `viewBox` (it scales to any
//! size), generic font families only, no scripts, no external resources.

use std::fmt::Write;

use domain::{Color, MoveView, Outcome, Piece, PieceView, Square};

use super::answers::GameView;
use super::record::reason_name;
use super::record::Status;
use super::xml::escape;

/// Side of one square, in picture units.
const CELL: i32 = 60;
/// Space left of the board (rank numbers) and above it (the header).
const LEFT: i32 = 36;
const TOP: i32 = 72;
/// Where the side panel (captured pieces, last battle) starts.
const PANEL: i32 = LEFT + 10 * CELL + 28;
const WIDTH: i32 = PANEL + 236;
const HEIGHT: i32 = TOP + 10 * CELL + 40;
/// Side of a captured piece's tile, and how many fit in a row.
const TILE: i32 = 26;
const TILES_PER_ROW: i32 = 8;

const BOARD: &str = "#d8c795";
const GRID: &str = "#8a7a4f";
const LAKE: &str = "#6fa8d6";
const LAST_MOVE: &str = "#f4d03f";
const BATTLE: &str = "#e67e22";

/// The fill of a piece of `color`.
const fn fill(color: Color) -> &'static str {
    match color {
        Color::Red => "#b8322a",
        Color::Blue => "#2760a8",
    }
}

const fn color_title(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Blue => "Blue",
    }
}

/// The color drawn at the bottom when the caller names none: the caller's
/// own, Red for a spectator.
pub fn default_bottom(view: &GameView) -> Color {
    view.you.unwrap_or(Color::Red)
}

/// The large label of a known piece: its modern strength (10 .. 1), or
/// `B` / `F`.
fn big_label(piece: Piece) -> String {
    piece
        .strength()
        .map_or_else(|| piece.old_number().to_owned(), |s| s.to_string())
}

/// Top-left corner of `square` in the picture, with `bottom` nearest the
/// viewer (Red at the bottom: `a1` bottom left; Blue: `a1` top right).
fn corner(square: Square, bottom: Color) -> (i32, i32) {
    let file = i32::from(square.file());
    let rank = i32::from(square.rank()) - 1;
    let (column, row) = match bottom {
        Color::Red => (file, 9 - rank),
        Color::Blue => (9 - file, rank),
    };
    (LEFT + column * CELL, TOP + row * CELL)
}

fn centre(square: Square, bottom: Color) -> (i32, i32) {
    let (x, y) = corner(square, bottom);
    (x + CELL / 2, y + CELL / 2)
}

/// The player's name for the header (`Red` for an open seat).
fn player_name(view: &GameView, color: Color) -> String {
    let seat = match color {
        Color::Red => &view.header.players.red,
        Color::Blue => &view.header.players.blue,
    };
    seat.as_ref()
        .map_or_else(|| "(open seat)".to_owned(), |p| escape(&p.username))
}

/// One line saying where the game stands: whose turn, or how it ended.
fn status_line(view: &GameView) -> String {
    match (view.header.status, view.header.result, view.header.turn) {
        (Status::Waiting, _, _) => "Waiting for an opponent".to_owned(),
        (Status::Setup, _, _) => {
            let done = |d: bool| if d { "in" } else { "not in yet" };
            format!(
                "Setup: Red's {}, Blue's {}",
                done(view.header.setup_done.red),
                done(view.header.setup_done.blue)
            )
        }
        (Status::Aborted, _, _) => "Aborted before play".to_owned(),
        (_, Some(result), _) => {
            let how = reason_name(result.reason).replace('_', " ");
            match result.winner {
                Some(winner) => format!("{} wins ({how})", color_title(winner)),
                None => format!("Draw ({how})"),
            }
        }
        (_, None, Some(turn)) => format!("{} to move · ply {}", color_title(turn), view.header.ply),
        (_, None, None) => String::new(),
    }
}

fn header(svg: &mut String, view: &GameView) {
    let _ = write!(
        svg,
        r##"<text x="{LEFT}" y="28" font-size="20" font-weight="bold" fill="#222">{} <tspan fill="{}">(Red)</tspan> vs {} <tspan fill="{}">(Blue)</tspan></text>"##,
        player_name(view, Color::Red),
        fill(Color::Red),
        player_name(view, Color::Blue),
        fill(Color::Blue),
    );
    let live_turn = view
        .header
        .turn
        .filter(|_| view.header.status == Status::Playing);
    let mut x = LEFT;
    if let Some(turn) = live_turn {
        let _ = write!(
            svg,
            r##"<circle class="turn" data-color="{}" cx="{}" cy="51" r="8" fill="{}" stroke="#222"/>"##,
            turn.name(),
            LEFT + 8,
            fill(turn)
        );
        x += 24;
    }
    let _ = write!(
        svg,
        r##"<text class="status" x="{x}" y="57" font-size="16" fill="#333">{}</text>"##,
        status_line(view)
    );
}

fn squares(svg: &mut String, bottom: Color) {
    let size = 10 * CELL;
    let _ = write!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{size}" height="{size}" fill="{BOARD}"/>"#
    );
    for square in Square::all().filter(|s| s.is_lake()) {
        let (x, y) = corner(square, bottom);
        let _ = write!(
            svg,
            r#"<rect class="lake" data-square="{}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{LAKE}"/>"#,
            square.name().as_str()
        );
    }
    for i in 0..=10 {
        let at = i * CELL;
        let _ = write!(
            svg,
            r#"<line x1="{}" y1="{TOP}" x2="{}" y2="{}" stroke="{GRID}"/><line x1="{LEFT}" y1="{}" x2="{}" y2="{}" stroke="{GRID}"/>"#,
            LEFT + at,
            LEFT + at,
            TOP + size,
            TOP + at,
            LEFT + size,
            TOP + at,
        );
    }
}

/// Files under the board and ranks to its left, in the board's orientation.
fn coordinates(svg: &mut String, bottom: Color) {
    for index in 0..10u8 {
        let Some(file) = Square::from_file_rank(index, 1) else {
            continue;
        };
        let (x, _) = centre(file, bottom);
        let letter = char::from(b'a' + index);
        let _ = write!(
            svg,
            r##"<text class="file" x="{x}" y="{}" font-size="16" text-anchor="middle" fill="#333">{letter}</text>"##,
            TOP + 10 * CELL + 24
        );
        let Some(rank) = Square::from_file_rank(0, index + 1) else {
            continue;
        };
        let (_, y) = centre(rank, bottom);
        let _ = write!(
            svg,
            r##"<text class="rank" x="{}" y="{}" font-size="16" text-anchor="middle" fill="#333">{}</text>"##,
            LEFT / 2,
            y + 6,
            index + 1
        );
    }
}

/// The last move's squares, a line between them, and a ring where a battle
/// was fought.
fn last_move(svg: &mut String, last: &MoveView, bottom: Color) {
    for square in [last.from, last.to] {
        let (x, y) = corner(square, bottom);
        let _ = write!(
            svg,
            r#"<rect class="last-move" data-square="{}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{LAST_MOVE}" fill-opacity="0.7"/>"#,
            square.name().as_str()
        );
    }
    let ((x1, y1), (x2, y2)) = (centre(last.from, bottom), centre(last.to, bottom));
    let _ = write!(
        svg,
        r#"<line class="last-move-path" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{BATTLE}" stroke-width="4" stroke-linecap="round" stroke-opacity="0.8"/><circle cx="{x1}" cy="{y1}" r="6" fill="{BATTLE}"/>"#
    );
}

fn battle_ring(svg: &mut String, last: &MoveView, bottom: Color) {
    if last.battle.is_some() {
        let (x, y) = centre(last.to, bottom);
        let _ = write!(
            svg,
            r#"<circle class="last-battle" data-square="{}" cx="{x}" cy="{y}" r="{}" fill="none" stroke="{BATTLE}" stroke-width="5"/>"#,
            last.to.name().as_str(),
            CELL / 2 - 2
        );
    }
}

/// A piece: a rounded tile in its owner's color; with its rank when the
/// caller may know it (large: the modern strength; corner: the 1961
/// number; below: the name), blank otherwise.
fn piece(svg: &mut String, shown: &PieceView, bottom: Color) {
    let (x, y) = corner(shown.square, bottom);
    let _ = write!(
        svg,
        r#"<g class="piece" data-square="{}" data-color="{}""#,
        shown.square.name().as_str(),
        shown.color.name()
    );
    if let Some(rank) = shown.piece {
        let _ = write!(svg, r#" data-piece="{}""#, rank.name());
    }
    let _ = write!(
        svg,
        r##"><rect x="{}" y="{}" width="{}" height="{}" rx="7" fill="{}" stroke="#1b1b1b" stroke-width="1.5"/>"##,
        x + 5,
        y + 5,
        CELL - 10,
        CELL - 10,
        fill(shown.color)
    );
    match shown.piece {
        Some(rank) => {
            let _ = write!(
                svg,
                r#"<text x="{}" y="{}" font-size="22" font-weight="bold" text-anchor="middle" fill="white">{}</text>"#,
                x + CELL / 2,
                y + 34,
                big_label(rank)
            );
            if rank.strength().is_some() {
                let _ = write!(
                    svg,
                    r#"<text x="{}" y="{}" font-size="10" fill="white">{}</text>"#,
                    x + 9,
                    y + 17,
                    rank.old_number()
                );
            }
            let _ = write!(
                svg,
                r#"<text x="{}" y="{}" font-size="9" text-anchor="middle" fill="white">{}</text>"#,
                x + CELL / 2,
                y + 49,
                rank.name()
            );
        }
        None => {
            // The back of the piece: an inner frame, nothing to read.
            let _ = write!(
                svg,
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="none" stroke="white" stroke-opacity="0.45" stroke-width="2"/>"#,
                x + 12,
                y + 12,
                CELL - 24,
                CELL - 24
            );
        }
    }
    if shown.revealed {
        // The owner's opponent knows this rank.
        let _ = write!(
            svg,
            r##"<circle class="revealed-mark" cx="{}" cy="{}" r="4" fill="white" stroke="#1b1b1b"/>"##,
            x + CELL - 12,
            y + 12
        );
    }
    svg.push_str("</g>");
}

/// The captured pieces of each color, as small tiles, beside the board.
fn captured(svg: &mut String, view: &GameView) -> i32 {
    let mut y = TOP + 4;
    for color in Color::ALL {
        let lost = view.captured.get(color);
        let _ = write!(
            svg,
            r##"<text x="{PANEL}" y="{}" font-size="15" font-weight="bold" fill="#222">{} lost: {}</text>"##,
            y + 12,
            color_title(color),
            lost.len()
        );
        y += 22;
        for (i, rank) in (0i32..).zip(lost) {
            let tx = PANEL + (i % TILES_PER_ROW) * (TILE + 3);
            let ty = y + (i / TILES_PER_ROW) * (TILE + 3);
            let _ = write!(svg, r#"<g class="captured" data-color="{}""#, color.name());
            if let Some(rank) = rank {
                let _ = write!(svg, r#" data-piece="{}""#, rank.name());
            }
            let _ = write!(
                svg,
                r##"><rect x="{tx}" y="{ty}" width="{TILE}" height="{TILE}" rx="4" fill="{}" stroke="#1b1b1b"/>"##,
                fill(color)
            );
            if let Some(rank) = rank {
                let _ = write!(
                    svg,
                    r#"<text x="{}" y="{}" font-size="12" font-weight="bold" text-anchor="middle" fill="white">{}</text>"#,
                    tx + TILE / 2,
                    ty + 18,
                    big_label(*rank)
                );
            }
            svg.push_str("</g>");
        }
        let rows = (i32::try_from(lost.len()).unwrap_or(0) + TILES_PER_ROW - 1) / TILES_PER_ROW;
        y += rows.max(1) * (TILE + 3) + 16;
    }
    y
}

/// The last battle in words, each rank as the caller may know it.
fn battle_text(svg: &mut String, last: &MoveView, y: i32) {
    let Some(battle) = last.battle else {
        return;
    };
    let name = |rank: Option<Piece>| rank.map_or("unknown piece", Piece::name);
    let outcome = match battle.outcome {
        Outcome::AttackerWins => "attacker wins",
        Outcome::DefenderWins => "defender wins",
        Outcome::BothLose => "both lose",
    };
    let lines = [
        format!("Last battle on {}:", last.to.name().as_str()),
        format!("{} {}", color_title(last.color), name(battle.attacker)),
        format!(
            "vs {} {}",
            color_title(last.color.opponent()),
            name(battle.defender)
        ),
        outcome.to_owned(),
    ];
    for (i, line) in (0i32..).zip(lines) {
        let _ = write!(
            svg,
            r##"<text class="battle-text" x="{PANEL}" y="{}" font-size="14" fill="#333">{line}</text>"##,
            y + 16 + i * 18
        );
    }
}

/// The picture of `view` with `bottom`'s side nearest the viewer.
pub fn board_svg(view: &GameView, bottom: Color) -> String {
    let mut svg = String::with_capacity(24 * 1024);
    let _ = write!(
        svg,
        r#"<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" role="img"><title>Stratego: {} (Red) vs {} (Blue). {}</title>"#,
        player_name(view, Color::Red),
        player_name(view, Color::Blue),
        status_line(view)
    );
    let _ = write!(
        svg,
        r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#f6f1e4"/>"##
    );
    header(&mut svg, view);
    squares(&mut svg, bottom);
    if let Some(last) = &view.last_move {
        last_move(&mut svg, last, bottom);
    }
    coordinates(&mut svg, bottom);
    for shown in &view.board {
        piece(&mut svg, shown, bottom);
    }
    if let Some(last) = &view.last_move {
        battle_ring(&mut svg, last, bottom);
    }
    let below = captured(&mut svg, view);
    if let Some(last) = &view.last_move {
        battle_text(&mut svg, last, below);
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn corners_follow_the_orientation() {
        let a1 = Square::from_file_rank(0, 1).unwrap();
        assert_eq!(corner(a1, Color::Red), (LEFT, TOP + 9 * CELL));
        assert_eq!(corner(a1, Color::Blue), (LEFT + 9 * CELL, TOP));
    }
}
