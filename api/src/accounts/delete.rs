//! `delete`: the account goes, confirmed with its password
//! (docs/accounts.md). Its row stays so that games keep their players, but
//! its name and password are erased and it can no longer log in; every
//! session ends; every game not yet over ends as the player's own
//! resignation, abort or declined challenge.

use uuid::Uuid;

use super::password::confirm;
use super::sessions::{end_every_session, record_ended};
use super::{AccountError, Context};
use crate::db::{self, StoreError};
use crate::games::{self, Caller};
use crate::storage::channels;
use crate::storage::games as game_store;
use crate::storage::setups;
use crate::storage::to_db_time;
use crate::storage::users::{self, UserTombstone};

use crate::username::DELETED_USERNAME as DELETED_NAME;

pub async fn delete(ctx: &Context, user_id: Uuid, password: String) -> Result<(), AccountError> {
    let user = confirm(ctx, user_id, password).await?;
    let now = ctx.clock.now();
    let ended = db::run_write_retrying::<_, AccountError, _>(&ctx.pool, move |conn| {
        let tombstone = UserTombstone {
            username: DELETED_NAME,
            username_key: format!("deleted:{}", user.id),
            password_hash: "",
        };
        // Game rows, then the user's row, then its tokens and its
        // library: the lock order of every write (docs/storage.md,
        // "Lock order"). From its commit on, no game takes the account
        // in (the games' triggers) and no session of it is refreshed.
        game_store::lock_all_of_user(conn, &user.id)?;
        if !users::mark_deleted(conn, &user.id, &tombstone, to_db_time(now))? {
            return Err(AccountError::AccountGone);
        }
        // The library is the account's own: nobody else ever sees it.
        setups::delete_all_of_user(conn, &user.id)?;
        // So are its channels: nothing is sent for it any more.
        channels::delete_all_of_user(conn, &user.id)?;
        end_every_session(conn, &user.id, now)
    })
    .await?;
    record_ended(ctx, &ended);
    ctx.known.forget(user_id);
    tracing::info!(user_id = %user_id, sessions = ended.len(), "account deleted");
    let left = leave_games(&ctx.games, user_id).await?;
    tracing::info!(user_id = %user_id, games = left, "deleted account left its games");
    Ok(())
}

/// Ends every game not yet over of deleted account `user_id`; returns how
/// many changed.
async fn leave_games(ctx: &games::Context, user_id: Uuid) -> Result<usize, AccountError> {
    let id = user_id.to_string();
    let ids = db::run(&ctx.pool, move |conn| {
        Ok(game_store::not_over_of_user(conn, &id)?)
    })
    .await?;
    let mut left = 0;
    for game_id in ids.iter().filter_map(|id| Uuid::parse_str(id).ok()) {
        left += usize::from(leave_one(ctx, user_id, game_id).await?);
    }
    Ok(left)
}

/// Deleted account `user_id` leaves `game_id`. Only a lost database stops
/// the caller: one game that cannot be ended must not keep the others
/// running ([`finish_interrupted`] takes it up again at the next start).
async fn leave_one(
    ctx: &games::Context,
    user_id: Uuid,
    game_id: Uuid,
) -> Result<bool, AccountError> {
    let caller = Caller {
        id: user_id,
        name: DELETED_NAME.to_owned(),
    };
    match games::leave::leave(ctx, &caller, game_id).await {
        Ok(changed) => Ok(changed),
        Err(games::GameError::Store(StoreError::Unavailable(cause))) => {
            Err(AccountError::Store(StoreError::Unavailable(cause)))
        }
        Err(error) => {
            tracing::error!(%error, game_id = %game_id, "a deleted account's game did not end");
            Ok(false)
        }
    }
}

/// Ends the games a deletion left running (the server stopped in between,
/// or another process let a game start in that moment). Run at start.
pub async fn finish_interrupted(ctx: &games::Context) -> Result<usize, AccountError> {
    let mut total = 0;
    loop {
        let rows = db::run(&ctx.pool, |conn| {
            Ok(game_store::not_over_with_deleted_user(conn, 100)?)
        })
        .await?;
        let before = total;
        for (game_id, user_id) in rows {
            if let (Ok(game_id), Ok(user_id)) =
                (Uuid::parse_str(&game_id), Uuid::parse_str(&user_id))
            {
                total += usize::from(leave_one(ctx, user_id, game_id).await?);
            }
        }
        // Nothing more changed: done (or only games that cannot end).
        if total == before {
            return Ok(total);
        }
    }
}
