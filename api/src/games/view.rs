//! `view`: the game as one caller may see it, with its version; and the
//! read every per-caller query shares ([`read_current`]).

use std::sync::Arc;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::answers::{game_view, GameView, Names};
use super::clocks::{view_prefix, LiveClocks};
use super::error::GameError;
use super::fetch::{load, load_with_names, row_with_names, row_with_names_async};
use super::record::GameRecord;
use super::{clock, encode, Context};
use crate::db::{self, DbConnection};
use crate::storage::games::GameRow;

/// The game as `viewer` (a user, or `None` for an anonymous spectator) may
/// see it, with its version: one statement (the game with the names it
/// mentions).
pub async fn view(
    ctx: &Context,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<(GameView, i64), GameError> {
    let now = ctx.clock.now();
    read_current(ctx, game_id, move |_, record, names| {
        Ok((game_view(record, names, viewer, now), record.version))
    })
    .await
}

/// [`view`] encoded as the JSON the API sends, with its version. The
/// encoded view is kept (`recent`) without its clocks and sent again,
/// with the clocks as of the answer (`clocks`), without decoding the
/// game, building or encoding its view, while the game is at the same
/// version and shows the same usernames; the game is read either way (one
/// statement, without a blocking thread where the HTTP worker has a
/// PostgreSQL connection of its own or a SQLite connection is idle:
/// docs/storage.md, "Reads without a blocking thread").
pub async fn view_json(
    ctx: &Context,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<(Bytes, i64), GameError> {
    let recent = Arc::clone(&ctx.recent);
    let now = ctx.clock.now();
    let cached = {
        let recent = Arc::clone(&recent);
        move |row: &GameRow, names: &Names| {
            let seat = viewer.and_then(|u| GameRecord::color_in_row(row, u));
            let prefix = recent.view(game_id, seat, row.version, names)?;
            let body = LiveClocks::of_row(row)?.at(now).finish(&prefix).ok()?;
            Some((Bytes::from(body), row.version))
        }
    };
    let build = move |record: &GameRecord, names: &Names| {
        let seat = viewer.and_then(|u| record.color_of(u));
        // One buffer that holds a view with its legal moves.
        let mut body = Vec::with_capacity(12 * 1024);
        encode::write_view(&game_view(record, names, viewer, now), &mut body)
            .map_err(GameError::internal)?;
        let body = Bytes::from(body);
        // Kept without its clocks, which are written for every answer.
        if let Some(cut) = view_prefix(&body) {
            recent.keep_view(record.id, seat, record.version, names, body.slice(..cut));
        }
        Ok((body, record.version))
    };
    if let Some(found) = row_with_names_async(&ctx.pool, game_id).await {
        let (row, names) = found?;
        if let Some((answer, decoded)) =
            answer_row(&row, &names, now, &cached, |record| build(record, &names))?
        {
            // The viewer may change the game next (`recent`).
            ctx.recent.keep_game(game_id, row, names, decoded);
            return Ok(answer);
        }
    }
    read_current_or_cached(ctx, game_id, cached, move |_, record, names| {
        build(record, names)
    })
    .await
}

/// Game `game_id` as it stands now, turned into an answer by `read` (which
/// may read more, such as the move log, on the same connection). A game
/// found past its deadline is ended first, then read again, so that no
/// answer depends on when the sweep last ran.
pub(super) async fn read_current<T, F>(
    ctx: &Context,
    game_id: Uuid,
    read: F,
) -> Result<T, GameError>
where
    F: Fn(&mut DbConnection, &GameRecord, &Names) -> Result<T, GameError> + Clone + Send + 'static,
    T: Send + 'static,
{
    read_current_or_cached(ctx, game_id, |_: &GameRow, _: &Names| None, read).await
}

/// [`read_current`] for a game that may be finished: a finished game never
/// changes again, so a read replica that has it finished answers exactly
/// as the primary would, to anyone (every piece is known by then; docs/
/// deploy.md, "Read replicas"). A game the replica does not have finished
/// (or not at all yet), or no replica fit to read, is read from the
/// primary.
pub(super) async fn read_settled<T, F>(
    ctx: &Context,
    game_id: Uuid,
    read: F,
) -> Result<T, GameError>
where
    F: Fn(&mut DbConnection, &GameRecord, &Names) -> Result<T, GameError> + Clone + Send + 'static,
    T: Send + 'static,
{
    let on_replica = read.clone();
    let settled = db::on_replica(&ctx.pool, db::Freshness::MayLag, move |conn| {
        let (record, names) = load_with_names(conn, game_id)?;
        if !record.game().is_some_and(domain::Game::is_finished) {
            return Ok::<_, GameError>(None);
        }
        on_replica(conn, &record, &names).map(Some)
    })
    .await
    .flatten();
    match settled {
        Some(answer) => Ok(answer),
        None => read_current(ctx, game_id, read).await,
    }
}

/// What the stored `row` answers at `now`: `cached`'s answer, offered the
/// row without decoding it while its deadline is ahead (so the game cannot
/// be overdue), else `build`'s from the decoded game, given back with it;
/// `None` if the game is past its deadline (the clock must end it first).
fn answer_row<T, K>(
    row: &GameRow,
    names: &Names,
    now: DateTime<Utc>,
    cached: &K,
    build: impl FnOnce(&GameRecord) -> Result<T, GameError>,
) -> Result<Option<(T, Option<GameRecord>)>, GameError>
where
    K: Fn(&GameRow, &Names) -> Option<T>,
{
    if GameRecord::row_in_time(row, now) {
        if let Some(answer) = cached(row, names) {
            return Ok(Some((answer, None)));
        }
    }
    let record = GameRecord::from_row(row)?;
    if record.is_overdue(now) {
        return Ok(None);
    }
    let answer = build(&record)?;
    Ok(Some((answer, Some(record))))
}

/// [`read_current`], but first offering the stored row to `cached` (as
/// [`answer_row`] does).
async fn read_current_or_cached<T, K, F>(
    ctx: &Context,
    game_id: Uuid,
    cached: K,
    read: F,
) -> Result<T, GameError>
where
    K: Fn(&GameRow, &Names) -> Option<T> + Send + 'static,
    F: Fn(&mut DbConnection, &GameRecord, &Names) -> Result<T, GameError> + Clone + Send + 'static,
    T: Send + 'static,
{
    let now = ctx.clock.now();
    let first = read.clone();
    let recent = Arc::clone(&ctx.recent);
    let fresh = move |conn: &mut DbConnection| {
        let (row, names) = row_with_names(conn, game_id)?;
        let answer = answer_row(&row, &names, now, &cached, |record| {
            first(conn, record, &names)
        })?;
        Ok::<_, GameError>(answer.map(|(answer, decoded)| {
            // The reader may change the game next (`recent`).
            recent.keep_game(game_id, row, names, decoded);
            answer
        }))
    };
    if let Some(found) = db::run_as(&ctx.pool, fresh).await? {
        return Ok(found);
    }
    clock::expire(ctx, game_id).await?;
    db::run_as(&ctx.pool, move |conn| {
        let (record, names) = load_with_names(conn, game_id)?;
        read(conn, &record, &names)
    })
    .await
}

/// The current version of a game (for long polls).
pub async fn version_of(ctx: &Context, game_id: Uuid) -> Result<i64, GameError> {
    db::run_as(&ctx.pool, move |conn| Ok(load(conn, game_id)?.version)).await
}
