//! What a change to a game answers ([`Answered`]: [`Written`] or
//! [`Replayed`]), the request's [`Idempotency`], and [`commit`], the one
//! transaction of a change that creates a game (a new game, a rematch).
//! Changes to an existing game take the write pipeline
//! (`games::pipeline`, docs/architecture.md, "The write pipeline").

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use diesel::Connection;
use serde::Serialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::error::GameError;
use super::notices::{self, Notice};
use super::pipeline::{self, refers_to_a_missing_user, whose_account_is_gone};
use super::Context;
use crate::db::{self, DbConnection, LostConnection, StoreError};
use crate::storage::idempotency::{self as keys, IdempotencyRow};
use crate::storage::to_db_time;

pub use super::pipeline::IDEMPOTENCY_TTL_HOURS;
/// Longest accepted `Idempotency-Key`.
pub const IDEMPOTENCY_KEY_MAX: usize = 200;
/// Attempts before a write that keeps losing races gives up.
const MAX_ATTEMPTS: usize = 8;

/// A change that committed: the command's answer, and the game it changed
/// with its new version (for the answer's ETag).
#[derive(Debug, Clone)]
pub struct Written<T> {
    pub value: T,
    pub game_id: Uuid,
    pub version: i64,
}

/// An answer stored under an `Idempotency-Key`, sent again as it was.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The status the first answer had (chosen by the HTTP layer).
    pub status: u16,
    /// The JSON text of the first answer.
    pub body: String,
    /// The game the answer was about and its version then.
    pub game: Option<(Uuid, i64)>,
}

/// What a command answers: a fresh change, or a replay.
#[derive(Debug, Clone)]
pub enum Answered<T> {
    Written(Written<T>),
    Replayed(Replayed),
}

/// An `Idempotency-Key`, what the request looked like, and how its answer
/// reads on the wire (chosen by the HTTP layer, stored with the answer so
/// that a replay is the first answer, byte for byte): the status of a
/// success, and the status and body of a refusal.
#[derive(Debug, Clone)]
pub struct Idempotency {
    pub key: String,
    pub fingerprint: String,
    pub status: u16,
    pub refusal: fn(&GameError) -> (u16, String),
}

impl Idempotency {
    /// `request` names the operation (method and path); `body` is the
    /// parsed request body (`()` for none), so equal bodies in different
    /// spellings count as the same request.
    pub fn new(
        key: &str,
        request: &str,
        body: &impl Serialize,
        status: u16,
        refusal: fn(&GameError) -> (u16, String),
    ) -> Result<Idempotency, GameError> {
        let key = key.trim();
        if key.is_empty() || key.len() > IDEMPOTENCY_KEY_MAX || !key.bytes().all(is_visible) {
            return Err(GameError::Unreadable(format!(
                "Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} visible ASCII characters"
            )));
        }
        let body = serde_json::to_vec(body).map_err(GameError::internal)?;
        let digest = Sha256::digest(&body);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Idempotency {
            key: key.to_owned(),
            fingerprint: format!("{request} {hex}"),
            status,
            refusal,
        })
    }
}

fn is_visible(byte: u8) -> bool {
    (0x20..0x7f).contains(&byte)
}

/// The work of one attempt: what changed, who to tell.
#[derive(Debug)]
pub struct Change<T> {
    pub value: T,
    pub game_id: Uuid,
    pub version: i64,
    pub notices: Vec<Notice>,
}

/// Why an attempt did not commit.
#[derive(Debug)]
pub enum Failed {
    /// Refused: nothing was written.
    Refused(GameError),
    /// Someone else changed the game between our read and our write.
    Lost,
}

impl From<GameError> for Failed {
    fn from(error: GameError) -> Self {
        match error {
            GameError::Store(error) => error.into(),
            error => Failed::Refused(error),
        }
    }
}

impl From<StoreError> for Failed {
    fn from(error: StoreError) -> Self {
        match error {
            // PostgreSQL ended the attempt in a deadlock (or a
            // serialization failure): its statement or transaction was
            // rolled back whole, so nothing of it was written, and it is
            // tried again from a read now, as after a lost race. A
            // deletion's renaming of an account in its games can deadlock
            // with a join of one of them (docs/storage.md, "Lock order").
            StoreError::Conflict(_) => Failed::Lost,
            error => Failed::Refused(GameError::Store(error)),
        }
    }
}

impl LostConnection for Failed {
    fn lost_connection(&self) -> bool {
        matches!(self, Failed::Refused(error) if error.lost_connection())
    }
}

impl From<diesel::result::Error> for Failed {
    fn from(error: diesel::result::Error) -> Self {
        Failed::Refused(error.into())
    }
}

/// Runs `work` for `user` in one write transaction (`db::run_write`): a
/// stored answer under the request's key is replayed; else `work` creates
/// what it creates, and its answer is stored under the key and its events
/// recorded, in the same transaction; a refusal rolls back what `work`
/// did and is stored under the key alone. After the commit the notifier
/// wakes this process's waiters and tells the other processes.
pub async fn commit<T, F>(
    ctx: &Context,
    user: Uuid,
    idempotency: Option<Idempotency>,
    work: F,
) -> Result<Answered<T>, GameError>
where
    T: Serialize + Send + 'static,
    F: Fn(&mut DbConnection, DateTime<Utc>) -> Result<Change<T>, Failed> + Send + Sync + 'static,
{
    let work = Arc::new(work);
    for _ in 0..MAX_ATTEMPTS {
        let work = work.clone();
        let idem = idempotency.clone();
        let now = ctx.clock.now();
        let outcome = db::run_write(&ctx.pool, move |conn| {
            attempt(conn, now, user, idem.as_ref(), |conn, now| work(conn, now))
        })
        .await;
        match outcome {
            Ok(Attempted::Replayed(replayed)) => return Ok(Answered::Replayed(replayed)),
            Ok(Attempted::Written(change)) => {
                return Ok(Answered::Written(pipeline::announce(ctx, change)))
            }
            Ok(Attempted::Refused(refusal)) => return Err(refusal),
            Err(Failed::Refused(error)) if refers_to_a_missing_user(&error) => {
                return Err(whose_account_is_gone(ctx, user).await)
            }
            Err(Failed::Refused(error)) => return Err(error),
            Err(Failed::Lost) => continue,
        }
    }
    Err(GameError::KeptChanging)
}

enum Attempted<T> {
    Replayed(Replayed),
    Written(Change<T>),
    /// Refused, and stored under the key if there is one.
    Refused(GameError),
}

fn attempt<T: Serialize>(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    user: Uuid,
    idempotency: Option<&Idempotency>,
    work: impl FnOnce(&mut DbConnection, DateTime<Utc>) -> Result<Change<T>, Failed>,
) -> Result<Attempted<T>, Failed> {
    let stored = match idempotency {
        Some(idem) => pipeline::stored_answer(conn, idem, user, now)?,
        None => pipeline::Stored::None,
    };
    let replaces = match stored {
        pipeline::Stored::Answer(Ok(replayed)) => return Ok(Attempted::Replayed(replayed)),
        pipeline::Stored::Answer(Err(refusal)) => return Ok(Attempted::Refused(refusal)),
        pipeline::Stored::Expired => Some(pipeline::expired_before(now)),
        pipeline::Stored::None => None,
    };
    // In a savepoint: a refusal rolls back what `work` did, and only the
    // key is kept.
    let change = match conn.transaction(|conn| work(conn, now)) {
        Ok(change) => change,
        Err(Failed::Refused(refusal)) if !matches!(refusal, GameError::Store(_)) => {
            if let Some(idem) = idempotency.filter(|_| pipeline::remembered(&refusal)) {
                let row = pipeline::refusal_row(idem, user, &refusal, now);
                if let Some(expired) = replaces {
                    keys::delete_expired(conn, &row.user_id, &row.idempotency_key, expired)?;
                }
                if !keys::insert(conn, &row)? {
                    return Err(Failed::Lost);
                }
            }
            return Ok(Attempted::Refused(refusal));
        }
        Err(failed) => return Err(failed),
    };
    // The key before the events, as in every change (docs/storage.md,
    // "Lock order").
    if let Some(idem) = idempotency {
        let row = pipeline::answer_row(idem, user, &change, now)?;
        if let Some(expired) = replaces {
            keys::delete_expired(conn, &row.user_id, &row.idempotency_key, expired)?;
        }
        if !keys::insert(conn, &row)? {
            // A concurrent request with the same key committed first: run
            // again, and the stored answer (or the mismatch) comes out.
            return Err(Failed::Lost);
        }
    }
    notices::record(conn, now, &change.notices)?;
    Ok(Attempted::Written(change))
}

/// A stored answer, to be sent again as it was.
pub(super) fn replayed(stored: IdempotencyRow) -> Replayed {
    let game = stored
        .game_id
        .as_deref()
        .and_then(|id| Uuid::parse_str(id).ok())
        .zip(stored.game_version);
    Replayed {
        status: u16::try_from(stored.response_status).unwrap_or(200),
        body: stored.response_body,
        game,
    }
}

/// Forgets idempotency keys older than their time to live.
pub async fn purge_idempotency_keys(
    pool: &db::DbPool,
    now: DateTime<Utc>,
) -> Result<usize, StoreError> {
    let before = to_db_time(now - Duration::hours(IDEMPOTENCY_TTL_HOURS));
    db::run_write(pool, move |conn| Ok(keys::purge(conn, before)?)).await
}
