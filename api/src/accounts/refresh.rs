//! `refresh` (a new pair for a refresh token, which is spent) and `logout`
//! (the refresh token's session ends).

use uuid::Uuid;

use super::answers::{TokenPair, UserView};
use super::sessions::{end_session, record_ended, record_refresh, token_pair, NewRefresh};
use super::{AccountError, Context, RefreshRefusal, REFRESH_TOKEN_MAX};
use crate::auth::tokens;
use crate::db;
use crate::storage::refresh_tokens;
use crate::storage::users::{self, RowLock, UserRow};
use crate::storage::{from_db_time, to_db_time};

enum Outcome {
    Rotated {
        user: UserRow,
        refresh: NewRefresh,
    },
    Refused(RefreshRefusal),
    /// Presented again: the session ended (to record once committed).
    Reused(Option<Uuid>),
}

/// Exchanges a refresh token for a new pair. The presented token stops
/// working; presenting a spent token again ends its whole session, so a
/// stolen token is useless once either party has used it.
pub async fn refresh(ctx: &Context, presented: &str) -> Result<TokenPair, AccountError> {
    if presented.is_empty() || presented.len() > REFRESH_TOKEN_MAX {
        return Err(AccountError::Refresh(RefreshRefusal::Unknown));
    }
    let hash = tokens::hash_refresh_token(presented);
    let for_db = ctx.clone();
    let outcome = db::run_write_retrying::<_, AccountError, _>(&ctx.pool, move |conn| {
        let now = for_db.clock.now();
        let Some(found) = refresh_tokens::find_by_hash(conn, &hash)? else {
            return Ok(Outcome::Refused(RefreshRefusal::Unknown));
        };
        // The account's row before its tokens, as every ending of a
        // session takes them; then the token again, as it is now that
        // no other change to the account's sessions is under way.
        let live = users::live(conn, &found.user_id, RowLock::Sessions)?;
        let Some(row) = refresh_tokens::find_by_hash(conn, &hash)? else {
            return Ok(Outcome::Refused(RefreshRefusal::Unknown));
        };
        let Some(user) = live.filter(|_| row.revoked_at.is_none()) else {
            return Ok(Outcome::Refused(RefreshRefusal::Revoked));
        };
        let reused = row.used_at.is_some();
        if !reused && from_db_time(row.expires_at) <= now {
            return Ok(Outcome::Refused(RefreshRefusal::Expired));
        }
        // Under the account's lock nobody else can spend it meanwhile;
        // `mark_used` failing would still be reuse.
        if reused || !refresh_tokens::mark_used(conn, &row.id, to_db_time(now))? {
            return Ok(Outcome::Reused(end_session(conn, &row.family_id, now)?));
        }
        let session = Uuid::parse_str(&row.family_id).map_err(AccountError::internal)?;
        let refresh = record_refresh(conn, &for_db, &user.id, Some(session))?;
        Ok(Outcome::Rotated { user, refresh })
    })
    .await?;

    match outcome {
        Outcome::Rotated { user, refresh } => {
            let view = UserView::from_row(&user)?;
            token_pair(ctx, view.id, &view.username, refresh)
        }
        Outcome::Refused(refusal) => Err(AccountError::Refresh(refusal)),
        Outcome::Reused(ended) => {
            record_ended(ctx, ended.as_slice());
            tracing::warn!("refresh token reused; its session was ended");
            Err(AccountError::Refresh(RefreshRefusal::Reused))
        }
    }
}

/// Ends the session of a refresh token: its refresh tokens and its access
/// tokens stop working. Says nothing about whether the token was live. A
/// token already spent by a rotation ends its session all the same: it is
/// reuse, and the whole family ends (docs/accounts.md).
pub async fn logout(ctx: &Context, presented: &str) -> Result<(), AccountError> {
    if presented.is_empty() || presented.len() > REFRESH_TOKEN_MAX {
        return Ok(());
    }
    let hash = tokens::hash_refresh_token(presented);
    let now = ctx.clock.now();
    let (ended, reused) = db::run_write_retrying::<_, AccountError, _>(&ctx.pool, move |conn| {
        let Some(row) = refresh_tokens::find_by_hash(conn, &hash)? else {
            return Ok((None, false));
        };
        // The account's row first (see `refresh`): a rotation under way
        // commits before this, and its new token is revoked below.
        users::live(conn, &row.user_id, RowLock::Sessions)?;
        let reused = row.used_at.is_some() && row.revoked_at.is_none();
        Ok((end_session(conn, &row.family_id, now)?, reused))
    })
    .await?;
    if reused {
        tracing::warn!("logout with a refresh token already spent; its session was ended");
    }
    record_ended(ctx, ended.as_slice());
    Ok(())
}
