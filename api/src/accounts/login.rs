//! `login`: a new session for a username and password.

use super::answers::{TokenPair, UserView};
use super::sessions::{record_refresh, token_pair};
use super::{is_valid_username, AccountError, Context, Credentials, PASSWORD_MAX};
use crate::auth::password;
use crate::db;
use crate::storage::users::{self, RowLock};

/// Logs in from client `address`. A wrong username and a wrong password get
/// the same answer after the same hashing work. Attempts are limited per
/// address and per username.
pub async fn login(
    ctx: &Context,
    credentials: Credentials,
    address: &str,
) -> Result<TokenPair, AccountError> {
    let now = ctx.clock.now();
    let name_key: String = users::username_key(&credentials.username)
        .chars()
        .take(64)
        .collect();
    ctx.login_limiter
        .hit(&ctx.pool, &format!("ip:{address}"), now)
        .await?
        .map_err(AccountError::RateLimited)?;
    ctx.login_limiter
        .hit(&ctx.pool, &format!("user:{name_key}"), now)
        .await?
        .map_err(AccountError::RateLimited)?;

    let username = credentials.username.clone();
    // Unusable names and over-long passwords are never looked up; they are
    // refused exactly like an unknown user (same answer, same hashing work).
    let lookup = credentials.password.chars().count() <= PASSWORD_MAX
        && is_valid_username(&credentials.username);
    let found = if lookup {
        db::run_as::<_, AccountError, _>(&ctx.pool, move |conn| {
            Ok(users::find_by_username(conn, &username)?)
        })
        .await?
    } else {
        None
    };
    let stored_hash = found.as_ref().map_or_else(
        || ctx.dummy_password_hash.to_string(),
        |u| u.password_hash.clone(),
    );
    let password_ok = password::verify_blocking(credentials.password, stored_hash).await?;
    let user = match found {
        Some(user) if password_ok => user,
        _ => {
            tracing::info!("login refused");
            return Err(AccountError::BadCredentials);
        }
    };

    let for_db = ctx.clone();
    let user_id = user.id.clone();
    let verified = user.password_hash.clone();
    let refresh = db::run_write_retrying::<_, AccountError, _>(&ctx.pool, move |conn| {
        // The account's row before its tokens (docs/accounts.md). A
        // deletion or a password change that committed since the
        // password was checked wins: its ending of every session must
        // not be followed by a session opened with the old password.
        let unchanged = users::live(conn, &user_id, RowLock::Sessions)?
            .is_some_and(|now| now.password_hash == verified);
        if !unchanged {
            return Err(AccountError::BadCredentials);
        }
        record_refresh(conn, &for_db, &user_id, None)
    })
    .await?;
    let view = UserView::from_row(&user)?;
    tracing::info!(user_id = %view.id, "logged in");
    token_pair(ctx, view.id, &view.username, refresh)
}
