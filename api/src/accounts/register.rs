//! `register`: a new account, logged in.

use uuid::Uuid;

use super::answers::{Registered, UserView};
use super::sessions::{record_refresh, token_pair};
use super::{
    is_valid_username, password_length_ok, AccountError, Context, Credentials, FieldProblem,
    PASSWORD_RULE,
};
use crate::auth::password;
use crate::db;
use crate::storage::to_db_time;
use crate::storage::users::{self, UserRow};

/// Checks a new username and password (sent as `password_field`),
/// reporting every problem at once.
pub(super) fn check_new(
    username: Option<&str>,
    password: &str,
    password_field: &'static str,
) -> Result<(), AccountError> {
    let mut problems = Vec::new();
    if username.is_some_and(|name| !is_valid_username(name)) {
        problems.push(FieldProblem {
            field: "username",
            message: "must be 3 to 32 characters of A-Z, a-z, 0-9, _ and -",
        });
    }
    if !password_length_ok(password) {
        problems.push(FieldProblem {
            field: password_field,
            message: PASSWORD_RULE,
        });
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(AccountError::Invalid(problems))
    }
}

/// Creates an account for `credentials`, from client `address` (the rate
/// limit's key), and starts its first session.
pub async fn register(
    ctx: &Context,
    credentials: Credentials,
    address: &str,
) -> Result<Registered, AccountError> {
    ctx.register_limiter
        .hit(&ctx.pool, &format!("ip:{address}"), ctx.clock.now())
        .await?
        .map_err(AccountError::RateLimited)?;
    check_new(
        Some(&credentials.username),
        &credentials.password,
        "password",
    )?;

    let password_hash = password::hash_blocking(credentials.password).await?;
    let user = UserRow {
        id: Uuid::new_v4().to_string(),
        username_key: users::username_key(&credentials.username),
        username: credentials.username,
        password_hash,
        created_at: to_db_time(ctx.clock.now()),
        deleted_at: None,
    };
    let for_db = ctx.clone();
    let (user, refresh) = db::run_write::<_, AccountError, _>(&ctx.pool, move |conn| {
        if !users::insert(conn, &user)? {
            return Err(AccountError::UsernameTaken);
        }
        let refresh = record_refresh(conn, &for_db, &user.id, None)?;
        Ok((user, refresh))
    })
    .await?;

    let view = UserView::from_row(&user)?;
    let pair = token_pair(ctx, view.id, &view.username, refresh)?;
    tracing::info!(user_id = %view.id, "account registered");
    Ok(Registered {
        user: view,
        access_token: pair.access_token,
        refresh_token: pair.refresh_token,
        token_type: pair.token_type,
        expires_in: pair.expires_in,
        refresh_expires_in: pair.refresh_expires_in,
    })
}
