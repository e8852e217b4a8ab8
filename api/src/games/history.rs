//! `history`: the moves played so far, each as the caller may see it.

use domain::MoveRecord;
use uuid::Uuid;

use super::answers::MoveHistory;
use super::error::GameError;
use super::fetch::load;
use super::record::GameRecord;
use super::{clock, Context};
use crate::db::{self, DbConnection};
use crate::storage::games as store;

pub async fn history(
    ctx: &Context,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<MoveHistory, GameError> {
    let now = ctx.clock.now();
    // Two statements: the game, then its log. A game found past its
    // deadline is ended first, then read again.
    let read = move |conn: &mut DbConnection| {
        let record = load(conn, game_id)?;
        if record.is_overdue(now) {
            return Ok(None);
        }
        moves_of(conn, &record, viewer).map(Some)
    };
    if let Some(history) = db::run_as(&ctx.pool, read).await? {
        return Ok(history);
    }
    clock::expire(&ctx.pool, now, game_id, Some(&ctx.notifier)).await?;
    db::run_as(&ctx.pool, move |conn| {
        let record = load(conn, game_id)?;
        moves_of(conn, &record, viewer)
    })
    .await
}

pub(super) fn moves_of(
    conn: &mut DbConnection,
    record: &GameRecord,
    viewer: Option<Uuid>,
) -> Result<MoveHistory, GameError> {
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
    Ok(MoveHistory {
        game_id: record.id,
        version: record.version,
        moves,
    })
}
