//! `history`: the moves played so far, each as the caller may see it.

use domain::{MoveRecord, MoveView};
use uuid::Uuid;

use super::answers::MoveHistory;
use super::error::GameError;
use super::record::GameRecord;
use super::view::read_settled;
use super::Context;
use crate::db::DbConnection;
use crate::storage::games as store;

/// Two statements: the game, then its log.
pub async fn history(
    ctx: &Context,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<MoveHistory, GameError> {
    read_settled(ctx, game_id, move |conn, record, _| {
        Ok(MoveHistory {
            game_id: record.id,
            version: record.version,
            moves: moves_of(conn, record, viewer)?,
        })
    })
    .await
}

/// Every move of the game's log as `viewer` may see it, in order (none
/// before play starts).
pub(super) fn moves_of(
    conn: &mut DbConnection,
    record: &GameRecord,
    viewer: Option<Uuid>,
) -> Result<Vec<MoveView>, GameError> {
    let who = record.viewer(viewer);
    let mut moves = Vec::new();
    if let Some(game) = record.game() {
        for row in store::actions(conn, &record.id.to_string())? {
            if let Some(text) = &row.record {
                let logged: MoveRecord = serde_json::from_str(text).map_err(GameError::internal)?;
                moves.push(game.move_view(&logged, who));
            }
        }
    }
    Ok(moves)
}
