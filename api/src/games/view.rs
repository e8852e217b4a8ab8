//! `view`: the game as one caller may see it, with its version.

use uuid::Uuid;

use super::answers::{game_view, GameView};
use super::error::GameError;
use super::fetch::{load, load_with_names};
use super::{clock, Context};
use crate::db;

/// The game as `viewer` (a user, or `None` for an anonymous spectator) may
/// see it, with its version: one statement (the game with the names it
/// mentions). A game found past its deadline is ended first, then read
/// again, so that no answer depends on when the sweep last ran.
pub async fn view(
    ctx: &Context,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<(GameView, i64), GameError> {
    let now = ctx.clock.now();
    let read = move |conn: &mut db::DbConnection| {
        let (record, names) = load_with_names(conn, game_id)?;
        Ok::<_, GameError>(
            (!record.is_overdue(now)).then(|| (game_view(&record, &names, viewer), record.version)),
        )
    };
    if let Some(found) = db::run_as(&ctx.pool, read).await? {
        return Ok(found);
    }
    clock::expire(&ctx.pool, now, game_id, Some(&ctx.notifier)).await?;
    db::run_as(&ctx.pool, move |conn| {
        let (record, names) = load_with_names(conn, game_id)?;
        Ok((game_view(&record, &names, viewer), record.version))
    })
    .await
}

/// The current version of a game (for long polls).
pub async fn version_of(ctx: &Context, game_id: Uuid) -> Result<i64, GameError> {
    db::run_as(&ctx.pool, move |conn| Ok(load(conn, game_id)?.version)).await
}
