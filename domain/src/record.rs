//! What one ply did: the full truth ([`MoveRecord`], stored by the service)
//! and what a given viewer may see of it ([`MoveView`]).

use serde::{Deserialize, Serialize};

use crate::view::Seal;
use crate::{Color, Piece, PieceId, Rescue, Square, Viewer};

/// The result of a battle.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    AttackerWins,
    DefenderWins,
    BothLose,
}

/// The full truth about a battle. Never send it to a player as it is: use
/// [`MoveRecord::view_for`].
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleRecord {
    pub defender: Piece,
    pub defender_id: PieceId,
    /// Whether the defender's rank is known to the attacker's side after
    /// the battle (false only under `silent_defense`, when the attacker is
    /// not a scout and the defender's rank was not already revealed).
    pub defender_revealed: bool,
    pub outcome: Outcome,
}

/// The full truth about one ply, as stored in the append-only move log.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRecord {
    /// 1 for the first move of the game.
    pub ply: u32,
    pub color: Color,
    pub from: Square,
    pub to: Square,
    pub piece: Piece,
    pub piece_id: PieceId,
    /// Whether the opponent knows the moving piece's rank after this ply
    /// (it was revealed before, moved more than one square, or fought).
    pub piece_revealed: bool,
    pub battle: Option<BattleRecord>,
    /// The rescue made as part of this move, if any. The rescued piece comes
    /// back revealed, so this is public.
    pub rescue: Option<Rescue>,
}

/// A battle as one viewer may see it; a rank the viewer may not know is `None`.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize)]
pub struct BattleView {
    pub attacker: Option<Piece>,
    pub defender: Option<Piece>,
    pub outcome: Outcome,
    #[serde(skip)]
    pub(crate) seal: Seal,
}

/// One ply as one viewer may see it. Squares, the battle's outcome and any
/// rescue are public; ranks only when the viewer may know them.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MoveView {
    pub ply: u32,
    pub color: Color,
    pub from: Square,
    pub to: Square,
    /// The moving piece, if the viewer may know it.
    pub piece: Option<Piece>,
    pub battle: Option<BattleView>,
    pub rescue: Option<Rescue>,
    #[serde(skip)]
    pub(crate) seal: Seal,
}

impl MoveRecord {
    /// The move as `viewer` may see it. `game_finished`: once the game is
    /// over every rank is public. Callers outside the crate go through
    /// [`Game::move_view`](crate::Game::move_view), which knows whether the
    /// game is over.
    pub(crate) fn view_for(&self, viewer: Viewer, game_finished: bool) -> MoveView {
        let knows =
            |owner: Color, public: bool| game_finished || public || viewer == Viewer::Player(owner);
        let piece = knows(self.color, self.piece_revealed).then_some(self.piece);
        let battle = self.battle.map(|b| BattleView {
            attacker: piece,
            defender: knows(self.color.opponent(), b.defender_revealed).then_some(b.defender),
            outcome: b.outcome,
            seal: Seal::new(),
        });
        MoveView {
            ply: self.ply,
            color: self.color,
            from: self.from,
            to: self.to,
            piece,
            battle,
            rescue: self.rescue,
            seal: Seal::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn move_views_hide_what_they_must() {
        let record: MoveRecord = serde_json::from_value(json!({
            "ply": 16, "color": "blue", "from": "e8", "to": "e7", "piece": "captain",
            "piece_id": 74, "piece_revealed": true,
            "battle": {"defender": "major", "defender_id": 44, "defender_revealed": false,
                       "outcome": "defender_wins"},
            "rescue": null
        }))
        .unwrap();
        let for_blue = record.view_for(Viewer::Player(Color::Blue), false);
        assert_eq!(
            serde_json::to_value(for_blue).unwrap(),
            json!({"ply":16,"color":"blue","from":"e8","to":"e7","piece":"captain",
                   "battle":{"attacker":"captain","defender":null,"outcome":"defender_wins"},
                   "rescue":null})
        );
        let for_red = record.view_for(Viewer::Player(Color::Red), false);
        assert_eq!(for_red.battle.unwrap().defender, Some(Piece::Major));
        let spectator = record.view_for(Viewer::Spectator, false);
        assert_eq!(spectator.battle.unwrap().defender, None);
        let after_end = record.view_for(Viewer::Spectator, true);
        assert_eq!(after_end.battle.unwrap().defender, Some(Piece::Major));
    }
}
