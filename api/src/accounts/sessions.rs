//! Sessions: a login and its refresh tokens (one family), the access tokens
//! issued with them, and ending sessions (docs/accounts.md).

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::answers::TokenPair;
use super::{AccountError, Context};
use crate::auth::sessions::EndedSessions;
use crate::auth::tokens;
use crate::db::{self, DbConnection, DbPool, StoreError};
use crate::events;
use crate::events::Notifier;
use crate::storage::refresh_tokens::{self, RefreshTokenRow};
use crate::storage::users::{self, RowLock};
use crate::storage::{from_db_time, to_db_time};

/// A refresh token just recorded, and the session it belongs to.
pub(super) struct NewRefresh {
    pub token: String,
    pub session: Uuid,
}

/// Records a refresh token for `user_id`: the first of a new session, or
/// the successor in `session`.
pub(super) fn record_refresh(
    conn: &mut DbConnection,
    ctx: &Context,
    user_id: &str,
    session: Option<Uuid>,
) -> Result<NewRefresh, AccountError> {
    let now = ctx.clock.now();
    let session = session.unwrap_or_else(Uuid::new_v4);
    let (token, hash) = tokens::new_refresh_token();
    refresh_tokens::insert(
        conn,
        &RefreshTokenRow {
            id: Uuid::new_v4().to_string(),
            user_id: user_id.to_owned(),
            family_id: session.to_string(),
            token_hash: hash,
            created_at: to_db_time(now),
            expires_at: to_db_time(now + ctx.refresh_ttl),
            used_at: None,
            revoked_at: None,
        },
    )?;
    Ok(NewRefresh { token, session })
}

/// The pair to send for a refresh token just recorded (for a live
/// account, which this process then knows: `auth::known`).
pub(super) fn token_pair(
    ctx: &Context,
    user_id: Uuid,
    username: &str,
    refresh: NewRefresh,
) -> Result<TokenPair, AccountError> {
    ctx.known.remember(user_id);
    Ok(TokenPair {
        access_token: ctx
            .tokens
            .issue(user_id, username, refresh.session)
            .map_err(AccountError::internal)?,
        refresh_token: refresh.token,
        token_type: "Bearer",
        expires_in: ctx.tokens.access_ttl_seconds(),
        refresh_expires_in: ctx.refresh_ttl.num_seconds(),
    })
}

/// Ends session `family` (inside the caller's transaction): its refresh
/// tokens are revoked and the other processes told. Returns the session
/// id to record here once the transaction has committed.
pub(super) fn end_session(
    conn: &mut DbConnection,
    family: &str,
    now: DateTime<Utc>,
) -> Result<Option<Uuid>, AccountError> {
    refresh_tokens::revoke_family(conn, family, to_db_time(now))?;
    announce(conn, std::slice::from_ref(&family.to_owned())).map(|mut ended| ended.pop())
}

/// Ends every session of `user_id` (inside the caller's transaction).
/// Returns the session ids to record here once it has committed.
pub(super) fn end_every_session(
    conn: &mut DbConnection,
    user_id: &str,
    now: DateTime<Utc>,
) -> Result<Vec<Uuid>, AccountError> {
    let families = refresh_tokens::revoke_all_of_user(conn, user_id, to_db_time(now))?;
    announce(conn, &families)
}

fn announce(conn: &mut DbConnection, families: &[String]) -> Result<Vec<Uuid>, AccountError> {
    let mut ended = Vec::with_capacity(families.len());
    for family in families {
        // A family id that is not a UUID was never put in a token.
        if let Ok(session) = Uuid::parse_str(family) {
            events::announce_session_ended(conn, session)?;
            ended.push(session);
        }
    }
    Ok(ended)
}

/// Log out everywhere: ends every session of the caller, this one
/// included. Its access tokens are refused from now on, in every process.
pub async fn end_all(ctx: &Context, user_id: Uuid) -> Result<(), AccountError> {
    let now = ctx.clock.now();
    let ended = db::run_write_retrying::<_, AccountError, _>(&ctx.pool, move |conn| {
        let user_id = user_id.to_string();
        users::live(conn, &user_id, RowLock::Sessions)?;
        end_every_session(conn, &user_id, now)
    })
    .await?;
    record_ended(ctx, &ended);
    tracing::info!(user_id = %user_id, sessions = ended.len(), "every session ended");
    Ok(())
}

/// Records, in this process, sessions whose ending has committed.
pub(super) fn record_ended(ctx: &Context, sessions: &[Uuid]) {
    for session in sessions {
        ctx.ended.end_now(*session);
    }
}

/// Reads the sessions ended within the last access-token lifetime into
/// `ended`: at start, before serving, and whenever the notification
/// connection was re-established (announcements may have been missed).
pub async fn load_ended(pool: &DbPool, ended: &EndedSessions) -> Result<usize, StoreError> {
    let since = to_db_time(ended.horizon());
    let rows = db::run(pool, move |conn| {
        Ok(refresh_tokens::revoked_since(conn, since)?)
    })
    .await?;
    let mut loaded = 0;
    for (family, at) in rows {
        if let Ok(session) = Uuid::parse_str(&family) {
            ended.end(session, from_db_time(at));
            loaded += 1;
        }
    }
    Ok(loaded)
}

const RELOAD_RETRY: std::time::Duration = std::time::Duration::from_secs(2);

/// Keeps `ended` current across reconnects of the notification connection
/// (see [`load_ended`]); ends with the notifier.
pub fn spawn_reloader(pool: DbPool, ended: std::sync::Arc<EndedSessions>, notifier: Notifier) {
    let mut reconnects = notifier.reconnects();
    tokio::spawn(async move {
        let shutdown = notifier.shutdown_signal();
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                changed = reconnects.changed() => if changed.is_err() { return },
                () = &mut shutdown => return,
            }
            // Until it succeeds: a missed announcement must not stay missed.
            while let Err(error) = load_ended(&pool, &ended).await {
                tracing::warn!(%error, "cannot re-read the ended sessions; retrying");
                tokio::select! {
                    () = tokio::time::sleep(RELOAD_RETRY) => {}
                    () = &mut shutdown => return,
                }
            }
        }
    });
}
