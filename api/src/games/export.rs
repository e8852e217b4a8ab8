//! `export`: the game as a record file, as the caller may know it
//! (docs/pictures-and-records.md): our JSON record, or the Gravon XML that
//! other Stratego programs read. Both are built from per-viewer pieces the
//! domain makes (`Setups::known_to`, `Game::move_view`), so a record holds
//! an opponent's setup only once the game is over.

use std::fmt::Write;

use domain::{Color, EndReason, Game, MoveView, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::answers::{GameHeader, Names};
use super::docs::{ColorDoc, MoveViewDoc};
use super::error::GameError;
use super::history::moves_of;
use super::record::GameRecord;
use super::view::read_settled;
use super::xml::escape;
use super::Context;
use crate::db::DbConnection;

/// The formats of `GET /games/{id}/export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// Our own record, as JSON (`GameExport`)
    #[default]
    Json,
    /// The Gravon archive's XML (docs/pictures-and-records.md)
    Gravon,
}

impl ExportFormat {
    pub const fn name(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Gravon => "gravon",
        }
    }
}

/// Each player's setup as the caller may know it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExportSetups {
    /// 100 characters, `a1` .. `j10`: this player's pieces (Red `B`..`M`,
    /// Blue `N`..`Y`), `A` for every other square, `_` for the lakes.
    /// `null` while the caller may not know it (an opponent's setup before
    /// the game is over) or before it is placed.
    #[schema(required = true)]
    pub red: Option<String>,
    #[schema(required = true)]
    pub blue: Option<String>,
}

/// A game record as the caller may know it: the players, the setups, every
/// move with its battle, and the result. Once the game is over it is the
/// full record; while it runs an opponent's setup is `null` and the moves
/// show only the ranks the caller could know right after each of them.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": "0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10", "variant": "duel",
    "rules": {"two_square_limit": 3, "scout_strike_after_move": true, "aggressor_advantage": false,
        "silent_defense": false, "rescue": false, "max_plies": null,
        "max_plies_without_battle": null, "more_squares_rule": false},
    "status": "finished", "version": 7, "ply": 2, "turn": "red",
    "players": {"red": {"id": "6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11", "username": "ann", "deleted": false},
                "blue": {"id": "2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08", "username": "bob", "deleted": false}},
    "creator": {"id": "6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11", "username": "ann", "deleted": false},
    "opponent": null, "days_per_move": 3, "time_control": {"type": "per_move", "days": 3},
    "rated": false, "tournament": null, "result": {"winner": "red", "reason": "resignation"},
    "setup_done": {"red": true, "blue": true},
    "created_at": "2026-11-30T10:00:00Z", "updated_at": "2026-12-01T09:30:00Z", "you": "red",
    "setups": {"red": "MBBCDDEEKLAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA__AA__AAAA__AA__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
               "blue": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA__AA__AAAA__AA__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAXWQQPPONNY"},
    "moves": [
        {"ply": 1, "color": "red", "from": "e1", "to": "e2", "piece": "scout", "battle": null, "rescue": null},
        {"ply": 2, "color": "blue", "from": "a10", "to": "a9", "piece": "marshal", "battle": null, "rescue": null}]}))]
pub struct GameExport {
    #[serde(flatten)]
    pub header: GameHeader,
    /// The caller's color; `null` for a spectator.
    #[schema(value_type = Option<ColorDoc>, required = true)]
    pub you: Option<Color>,
    pub setups: ExportSetups,
    /// Every move of the game, in order (resignations, draws and timeouts
    /// are not moves: `result` tells how the game ended).
    #[schema(value_type = Vec<MoveViewDoc>)]
    pub moves: Vec<MoveView>,
}

/// The record of game `game_id` as `viewer` may know it: two statements
/// (the game with its names, then its log).
pub async fn export(
    ctx: &Context,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<GameExport, GameError> {
    read_settled(ctx, game_id, move |conn, record, names| {
        build(conn, record, names, viewer)
    })
    .await
}

fn build(
    conn: &mut DbConnection,
    record: &GameRecord,
    names: &Names,
    viewer: Option<Uuid>,
) -> Result<GameExport, GameError> {
    let finished = record.game().is_some_and(Game::is_finished);
    let known = record.setups.known_to(record.viewer(viewer), finished);
    let board = |color: Color| known.get(color).as_ref().map(|s| s.board.clone());
    Ok(GameExport {
        header: GameHeader::of(record, names),
        you: viewer.and_then(|u| record.color_of(u)),
        setups: ExportSetups {
            red: board(Color::Red),
            blue: board(Color::Blue),
        },
        moves: moves_of(conn, record, viewer)?,
    })
}

/// A square as the Gravon archive spells it: files `A`..`K` without `J`,
/// ranks 1..10 (`e4` is `E4`, `j10` is `K10`).
fn gravon_square(square: domain::Square) -> String {
    const FILES: [char; 10] = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'K'];
    let file = FILES[usize::from(square.file()) % 10];
    format!("{file}{}", square.rank())
}

/// The archive's game type names.
const fn gravon_type(variant: Variant) -> &'static str {
    match variant {
        Variant::Classic => "classic",
        Variant::Barrage => "barrage",
        Variant::Duel => "duell",
    }
}

/// The archive's ending codes; a move limit has none of its own and is
/// written as the nearest one, the game clock running out.
const fn gravon_ending(reason: EndReason) -> u8 {
    match reason {
        EndReason::NoMoves => 0,
        EndReason::FlagCaptured => 1,
        EndReason::BothImmobile => 2,
        EndReason::Resignation => 3,
        EndReason::DrawAgreed => 4,
        EndReason::Timeout => 11,
        EndReason::MoveLimit => 12,
    }
}

/// The starting position as the archive's `field` holds it: both setups
/// in one board string, or `None` while the caller may not know both.
fn field(setups: &ExportSetups) -> Option<String> {
    let (red, blue) = (setups.red.as_ref()?, setups.blue.as_ref()?);
    Some(
        red.chars()
            .zip(blue.chars())
            .map(|(r, b)| if r == 'A' { b } else { r })
            .collect(),
    )
}

/// `record` as Gravon XML: the game type, the starting position (only once
/// the caller may know both setups), every move's squares, the players and,
/// once the game is over, the result.
pub fn gravon(record: &GameExport) -> String {
    let mut xml = String::with_capacity(4096 + 48 * record.moves.len());
    xml.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n");
    let _ = writeln!(
        xml,
        " <game type=\"{}\">",
        gravon_type(record.header.variant)
    );
    if let Some(content) = field(&record.setups) {
        let _ = writeln!(xml, "  <field content=\"{content}\"/>");
    }
    for (id, played) in (1u32..).zip(&record.moves) {
        let _ = writeln!(
            xml,
            "  <move id=\"{id}\" source=\"{}\" target=\"{}\"/>",
            gravon_square(played.from),
            gravon_square(played.to)
        );
    }
    for (id, seat) in [
        (1, &record.header.players.red),
        (2, &record.header.players.blue),
    ] {
        let name = seat.as_ref().map_or("", |p| p.username.as_str());
        let _ = writeln!(xml, "  <player id=\"{id}\">{}</player>", escape(name));
    }
    if let Some(result) = record.header.result {
        let winner = match result.winner {
            Some(Color::Red) => 1,
            Some(Color::Blue) => 2,
            None => 3,
        };
        let _ = writeln!(
            xml,
            "  <result type=\"{}\" winner=\"{winner}\"/>",
            gravon_ending(result.reason)
        );
    }
    xml.push_str(" </game>\n</stratego>\n");
    xml
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn squares_are_spelled_as_the_archive_does() {
        let name = |s: &str| gravon_square(s.parse().unwrap());
        assert_eq!(name("a1"), "A1");
        assert_eq!(name("e4"), "E4");
        assert_eq!(name("i7"), "I7");
        assert_eq!(name("j10"), "K10");
    }

    #[test]
    fn the_field_needs_both_setups() {
        let half = |c: char, from: usize| -> String {
            (0..100)
                .map(|i| {
                    if (from..from + 40).contains(&i) {
                        c
                    } else {
                        'A'
                    }
                })
                .collect()
        };
        let mut setups = ExportSetups {
            red: Some(half('L', 0)),
            blue: None,
        };
        assert_eq!(field(&setups), None);
        setups.blue = Some(half('X', 60));
        let both = field(&setups).unwrap();
        assert_eq!(&both[..40], "L".repeat(40));
        assert_eq!(&both[40..60], "A".repeat(20));
        assert_eq!(&both[60..], "X".repeat(40));
    }
}
