//! `view`: the game as one caller may see it, with its version.

use uuid::Uuid;

use super::answers::{game_view, GameView};
use super::error::GameError;
use super::fetch::{load, names_for};
use super::{clock, Context};
use crate::db;

/// The game as `viewer` (a user, or `None` for an anonymous spectator) may
/// see it, with its version. An overdue game is ended first.
pub async fn view(
    ctx: &Context,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<(GameView, i64), GameError> {
    clock::settle(ctx, game_id).await?;
    db::run_as(&ctx.pool, move |conn| {
        let record = load(conn, game_id)?;
        let names = names_for(conn, &[&record])?;
        Ok((game_view(&record, &names, viewer), record.version))
    })
    .await
}

/// The current version of a game (for long polls).
pub async fn version_of(ctx: &Context, game_id: Uuid) -> Result<i64, GameError> {
    db::run_as(&ctx.pool, move |conn| Ok(load(conn, game_id)?.version)).await
}
