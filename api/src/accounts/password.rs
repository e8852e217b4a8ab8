//! `change_password`: a new password, confirmed with the current one. Every
//! session of the account ends; the caller gets a new one.

use uuid::Uuid;

use super::answers::TokenPair;
use super::register::check_new;
use super::sessions::{end_every_session, record_ended, record_refresh, token_pair};
use super::{password_length_ok, AccountError, Context};
use crate::auth::password;
use crate::db;
use crate::storage::users::{self, UserRow};

/// The live account `user_id`, after checking `password` against it (with
/// attempts limited per account: a stolen access token alone must not allow
/// guessing the password).
pub(super) async fn confirm(
    ctx: &Context,
    user_id: Uuid,
    password: String,
) -> Result<UserRow, AccountError> {
    ctx.login_limiter
        .hit(&ctx.pool, &format!("account:{user_id}"), ctx.clock.now())
        .await?
        .map_err(AccountError::RateLimited)?;
    let id = user_id.to_string();
    let user =
        db::run_as::<_, AccountError, _>(&ctx.pool, move |conn| Ok(users::find_by_id(conn, &id)?))
            .await?
            .filter(|user| user.deleted_at.is_none())
            .ok_or(AccountError::AccountGone)?;
    let plausible = password_length_ok(&password);
    let ok = password::verify_blocking(password, user.password_hash.clone()).await?;
    if !(ok && plausible) {
        tracing::info!(user_id = %user_id, "password confirmation refused");
        return Err(AccountError::WrongPassword);
    }
    Ok(user)
}

pub async fn change_password(
    ctx: &Context,
    user_id: Uuid,
    current: String,
    new: String,
) -> Result<TokenPair, AccountError> {
    check_new(None, &new, "new_password")?;
    let user = confirm(ctx, user_id, current).await?;
    let hash = password::hash_blocking(new).await?;
    let now = ctx.clock.now();
    let for_db = ctx.clone();
    let (ended, refresh) = db::run_write_retrying::<_, AccountError, _>(&ctx.pool, move |conn| {
        // Its first statement takes the account's row, before any of
        // its tokens (docs/accounts.md).
        if !users::set_password_hash(conn, &user.id, &hash)? {
            return Err(AccountError::AccountGone);
        }
        let ended = end_every_session(conn, &user.id, now)?;
        let refresh = record_refresh(conn, &for_db, &user.id, None)?;
        Ok((ended, refresh))
    })
    .await?;
    record_ended(ctx, &ended);
    tracing::info!(user_id = %user_id, sessions = ended.len(), "password changed");
    token_pair(ctx, user_id, &user.username, refresh)
}
