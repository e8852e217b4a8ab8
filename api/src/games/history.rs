//! `history`: the moves played so far, each as the caller may see it.

use domain::MoveRecord;
use uuid::Uuid;

use super::answers::MoveHistory;
use super::error::GameError;
use super::fetch::load;
use super::{clock, Context};
use crate::db;
use crate::storage::games as store;

pub async fn history(
    ctx: &Context,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<MoveHistory, GameError> {
    clock::settle(ctx, game_id).await?;
    db::run_as(&ctx.pool, move |conn| {
        let record = load(conn, game_id)?;
        let who = record.viewer(viewer);
        let mut moves = Vec::new();
        if let Some(game) = record.game() {
            for row in store::actions(conn, &game_id.to_string())? {
                if let Some(text) = &row.record {
                    let logged: MoveRecord =
                        serde_json::from_str(text).map_err(GameError::internal)?;
                    moves.push(game.move_view(&logged, who));
                }
            }
        }
        Ok(MoveHistory {
            game_id,
            version: record.version,
            moves,
        })
    })
    .await
}
