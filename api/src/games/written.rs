//! Every change to a game is one transaction run by [`commit`]:
//! (1) a repeated `Idempotency-Key` is answered from the stored answer,
//! (2) the command does its work (load, decide with `domain`, versioned
//! write with the action log), (3) its events are recorded, (4) the answer
//! is stored under the key. After the commit the notifier wakes this
//! process's waiters and announces the change and the events to the other
//! processes (docs/architecture.md, "Telling the other processes"). A
//! versioned write that lost a race
//! rolls everything back and the whole thing runs again on the fresh state.
//! On SQLite the first attempt may load and decide before the transaction
//! ([`commit_planned`]); its versioned write keeps that safe. On
//! PostgreSQL a change may be one read and one statement
//! that writes all of it ([`commit_alone`]).
//! See docs/architecture.md.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::error::GameError;
use super::notices::{self, Notice};
use super::Context;
use crate::db::{self, DbConnection, LostConnection, StoreError};
use crate::events::NewEvent;
use crate::storage::idempotency::{self as keys, IdempotencyRow};
use crate::storage::users::{self, RowLock};
use crate::storage::{from_db_time, to_db_time};

/// How long an idempotency key is remembered.
pub const IDEMPOTENCY_TTL_HOURS: i64 = 24;
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

/// An `Idempotency-Key`, what the request looked like, and the status its
/// answer will be sent with (stored with it).
#[derive(Debug, Clone)]
pub struct Idempotency {
    pub key: String,
    pub fingerprint: String,
    pub status: u16,
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
        Failed::Refused(error)
    }
}

impl From<StoreError> for Failed {
    fn from(error: StoreError) -> Self {
        Failed::Refused(error.into())
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

/// Runs `work` for `user` as described in the module documentation.
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
    let no_plan = None::<fn(&mut db::Idle<'_>, DateTime<Utc>) -> Option<()>>;
    commit_planned(ctx, user, idempotency, no_plan, move |conn, now, _| {
        work(conn, now)
    })
    .await
}

/// [`commit`] with the reading and deciding done before the write
/// transaction where that lets other writes go on meanwhile: where writes
/// have a connection of their own (SQLite, docs/storage.md, "Group commit
/// on SQLite"), the first attempt runs `plan` before its write waits for
/// its turn (`db::run_write_planned`), with a way to one of the pool's
/// connections (`db::Idle`: none if none is idle at once) for what it reads,
/// and `work` gets what it planned (`None`: nothing was planned, or it is
/// PostgreSQL; `work` does it all). `work` must write a plan only if what
/// it was made from is still so (a versioned write) and answer
/// [`Failed::Lost`] otherwise; the attempts after the first are not
/// planned, so they read inside the transaction and one stale read costs
/// one attempt, not all of them.
pub async fn commit_planned<T, P, G, F>(
    ctx: &Context,
    user: Uuid,
    idempotency: Option<Idempotency>,
    plan: Option<G>,
    work: F,
) -> Result<Answered<T>, GameError>
where
    T: Serialize + Send + 'static,
    P: Send + 'static,
    G: Fn(&mut db::Idle<'_>, DateTime<Utc>) -> Option<P> + Send + Sync + 'static,
    F: Fn(&mut DbConnection, DateTime<Utc>, Option<P>) -> Result<Change<T>, Failed>
        + Send
        + Sync
        + 'static,
{
    let plan = plan.map(Arc::new);
    let work = Arc::new(work);
    for tried in 0..MAX_ATTEMPTS {
        let work = work.clone();
        let key = idempotency.clone();
        let now = ctx.clock.now();
        let plan = plan
            .clone()
            .filter(|_| tried == 0)
            .map(|plan| move |idle: &mut db::Idle<'_>| plan(idle, now));
        let outcome = db::run_write_planned(&ctx.pool, plan, move |conn, planned| {
            attempt(conn, now, user, key.as_ref(), |conn, now| {
                work(conn, now, planned)
            })
        })
        .await;
        match outcome {
            Ok(Attempted::Replayed(replayed)) => return Ok(Answered::Replayed(replayed)),
            Ok(Attempted::Written(change, users)) => {
                return Ok(Answered::Written(announce(ctx, change, users)))
            }
            Err(Failed::Refused(error)) if refers_to_a_missing_user(&error) => {
                return Err(whose_account_is_gone(ctx, user).await)
            }
            Err(Failed::Refused(error)) => return Err(error),
            Err(Failed::Lost) => continue,
        }
    }
    Err(GameError::KeptChanging)
}

/// How a change writes itself as one statement ([`commit_alone`]).
pub trait WriteAlone {
    /// Writes the change with `events` and the answer under its key (if
    /// there is one) if the game is still at the version it was read at
    /// and the key still free; `Ok(false)` when not, and nothing was
    /// written.
    fn write_alone(
        &self,
        conn: &mut DbConnection,
        events: &[NewEvent],
        key: Option<&IdempotencyRow>,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
}

/// What [`commit_alone`] did.
enum Alone<T> {
    Written(Change<T>),
    Replayed(Replayed),
    /// Nothing: the change is to be committed as usual.
    Declined,
}

/// The first attempt of a change where one statement is a transaction of
/// its own (PostgreSQL; docs/storage.md, "A move in one statement"): a
/// stored answer under the request's `Idempotency-Key` is looked up (and
/// replayed), `work` reads and decides on a pooled connection, outside any
/// transaction, and hands back its write, which is then sent with the
/// change's events and the answer under its key as one statement. That
/// takes a move from five round trips (`BEGIN`, the read, the update, the
/// events, `COMMIT`; seven with a key) to two (three with a key).
///
/// `None`: nothing was written, and the caller commits as usual
/// ([`commit`]): on SQLite (whose writes share the writer's
/// transactions), when `work` answers `Ok(None)` (its write is more than
/// one statement), when the answer under the key has expired (it is
/// deleted in the transaction), or when the game changed or the key was
/// taken between the read and the write. A refusal is final, as it is in
/// [`commit`]: it was decided from the row just read (and the key is
/// looked up again first, as there).
pub async fn commit_alone<T, W, F>(
    ctx: &Context,
    user: Uuid,
    idempotency: Option<Idempotency>,
    work: F,
) -> Option<Result<Answered<T>, GameError>>
where
    T: Serialize + Send + 'static,
    W: WriteAlone,
    F: FnOnce(&mut DbConnection, DateTime<Utc>) -> Result<Option<(W, Change<T>)>, GameError>
        + Send
        + 'static,
{
    if !ctx.pool.is_postgres() {
        return None;
    }
    let now = ctx.clock.now();
    let outcome = db::run_as(&ctx.pool, move |conn| {
        let user_id = user.to_string();
        let idem = idempotency.as_ref();
        if let Some(idem) = idem {
            match keys::find(conn, &user_id, &idem.key)? {
                Some(stored) if expired(&stored, now) => return Ok(Alone::Declined),
                Some(stored) => return Ok(Alone::Replayed(stored_answer(stored, idem)?)),
                None => {}
            }
        }
        let (write, change) = match work(conn, now) {
            Ok(Some(decided)) => decided,
            Ok(None) => return Ok(Alone::Declined),
            // As in `attempt`: a retry that looked for its key just before
            // the first request committed gets the first answer.
            Err(refusal) if !matches!(refusal, GameError::Store(_)) => {
                if let Some(idem) = idem {
                    if let Some(stored) = keys::find(conn, &user_id, &idem.key)? {
                        return Ok(Alone::Replayed(stored_answer(stored, idem)?));
                    }
                }
                return Err(refusal);
            }
            Err(error) => return Err(error),
        };
        let events = notices::as_events(&change.notices)?;
        let key = idem
            .map(|idem| key_row(idem, user_id, &change, now))
            .transpose()?;
        if db::past_deadline() {
            // The caller was already told "unavailable": keep that true.
            return Err(GameError::Store(StoreError::Unavailable(
                "the request's deadline passed before the write".into(),
            )));
        }
        Ok(if write.write_alone(conn, &events, key.as_ref(), now)? {
            Alone::Written(change)
        } else {
            Alone::Declined
        })
    })
    .await;
    match outcome {
        Ok(Alone::Written(change)) => {
            let users = notices::recipients(&change.notices);
            Some(Ok(Answered::Written(announce(ctx, change, users))))
        }
        Ok(Alone::Replayed(replayed)) => Some(Ok(Answered::Replayed(replayed))),
        Ok(Alone::Declined) => None,
        Err(error) if refers_to_a_missing_user(&error) => {
            Some(Err(whose_account_is_gone(ctx, user).await))
        }
        Err(error) => Some(Err(error)),
    }
}

/// After the commit: wakes this process's waiters and tells the other
/// processes of the change and of the events of `users`.
fn announce<T>(ctx: &Context, change: Change<T>, users: Vec<Uuid>) -> Written<T> {
    // A change decided from what is kept of the game before could only
    // lose its race now.
    ctx.kept.forget_before(change.game_id, change.version);
    ctx.notifier.game_changed(change.game_id, change.version);
    for user in users {
        ctx.notifier.user_event(user);
    }
    Written {
        value: change.value,
        game_id: change.game_id,
        version: change.version,
    }
}

/// A write that names a user who does not exist: every user a change
/// writes is the caller or one it just looked up (the challenged user), so
/// it is the caller's account that is gone, deleted after their token was
/// issued.
fn refers_to_a_missing_user(error: &GameError) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    match error {
        GameError::Store(StoreError::Query(Error::DatabaseError(kind, info))) => {
            matches!(kind, DatabaseErrorKind::ForeignKeyViolation)
                // The games' triggers refuse to put a deleted account in a
                // game (docs/accounts.md, "Deleting an account").
                || info.message().starts_with("account deleted")
        }
        _ => false,
    }
}

/// The refusal for a change that named an account that does not exist or
/// was deleted: the caller's own (its token outlived it: 401), or another
/// account in the game (deleted meanwhile: the change is not possible).
async fn whose_account_is_gone(ctx: &Context, caller: Uuid) -> GameError {
    let id = caller.to_string();
    match db::run(&ctx.pool, move |conn| {
        Ok(users::live(conn, &id, RowLock::None)?.is_some())
    })
    .await
    {
        Ok(true) => GameError::wrong_phase("an account named in this game was deleted"),
        Ok(false) => GameError::AccountGone,
        Err(error) => GameError::Store(error),
    }
}

/// `work` in a write transaction. What it decided (done, refused, lost the
/// race) is the inner result; a lost connection is the outer error, so
/// that `db::run_as` sees it and drops the connection from the pool.
pub(super) fn transaction<T>(
    conn: &mut DbConnection,
    work: impl FnOnce(&mut DbConnection) -> Result<T, Failed>,
) -> Result<Result<T, Failed>, GameError> {
    match db::write_transaction(conn, work) {
        Err(Failed::Refused(error)) if error.lost_connection() => Err(error),
        decided => Ok(decided),
    }
}

enum Attempted<T> {
    Replayed(Replayed),
    /// The change, and the users it recorded events for.
    Written(Change<T>, Vec<Uuid>),
}

fn attempt<T: Serialize>(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    user: Uuid,
    idempotency: Option<&Idempotency>,
    work: impl FnOnce(&mut DbConnection, DateTime<Utc>) -> Result<Change<T>, Failed>,
) -> Result<Attempted<T>, Failed> {
    let user_id = user.to_string();
    if let Some(idem) = idempotency {
        if let Some(stored) = keys::find(conn, &user_id, &idem.key)? {
            if expired(&stored, now) {
                keys::delete(conn, &user_id, &idem.key)?;
            } else {
                return Ok(Attempted::Replayed(stored_answer(stored, idem)?));
            }
        }
    }
    let change = match work(conn, now) {
        Ok(change) => change,
        // A retry with the same key may have looked for the key just
        // before the first request committed, then read the game just
        // after (PostgreSQL reads each statement's newest commit): it
        // must get the first answer, not a refusal made stale by it.
        Err(Failed::Refused(refusal)) if !matches!(refusal, GameError::Store(_)) => {
            if let Some(idem) = idempotency {
                if let Some(stored) = keys::find(conn, &user_id, &idem.key)? {
                    return Ok(Attempted::Replayed(stored_answer(stored, idem)?));
                }
            }
            return Err(Failed::Refused(refusal));
        }
        Err(failed) => return Err(failed),
    };
    // The key before the events, as the one-statement write takes them
    // (`commit_alone`): the game's row, the key, then the recipients'
    // counters, so that the two ways cannot deadlock.
    if let Some(idem) = idempotency {
        let row = key_row(idem, user_id, &change, now)?;
        if !keys::insert(conn, &row)? {
            // A concurrent request with the same key committed first: run
            // again, and the stored answer (or the mismatch) comes out.
            return Err(Failed::Lost);
        }
    }
    let users = notices::record(conn, now, &change.notices)?;
    Ok(Attempted::Written(change, users))
}

/// Whether an answer stored under a key is past its time to live.
fn expired(stored: &IdempotencyRow, now: DateTime<Utc>) -> bool {
    from_db_time(stored.created_at) + Duration::hours(IDEMPOTENCY_TTL_HOURS) <= now
}

/// The answer stored under the request's key: the first answer, if it
/// was to the same request, else a refusal.
fn stored_answer(stored: IdempotencyRow, idem: &Idempotency) -> Result<Replayed, GameError> {
    if stored.fingerprint == idem.fingerprint {
        Ok(replayed(stored))
    } else {
        Err(GameError::KeyReused)
    }
}

/// `change`'s answer as it is stored under the request's key.
fn key_row<T: Serialize>(
    idem: &Idempotency,
    user_id: String,
    change: &Change<T>,
    now: DateTime<Utc>,
) -> Result<IdempotencyRow, GameError> {
    Ok(IdempotencyRow {
        user_id,
        idempotency_key: idem.key.clone(),
        fingerprint: idem.fingerprint.clone(),
        response_status: i32::from(idem.status),
        response_body: serde_json::to_string(&change.value).map_err(GameError::internal)?,
        game_id: Some(change.game_id.to_string()),
        game_version: Some(change.version),
        created_at: to_db_time(now),
    })
}

fn replayed(stored: IdempotencyRow) -> Replayed {
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

/// Stores a refusal under the request's key, so that a retry with the same
/// key gets the same answer even if the game has changed since (a move
/// refused as `not_your_turn` stays refused). `status` and `body` are the
/// problem as the HTTP layer sent it. Failing to store it is only logged:
/// the refusal itself changed nothing.
pub async fn remember_refusal(
    ctx: &Context,
    user: Uuid,
    idem: &Idempotency,
    status: u16,
    body: String,
) {
    let row = IdempotencyRow {
        user_id: user.to_string(),
        idempotency_key: idem.key.clone(),
        fingerprint: idem.fingerprint.clone(),
        response_status: i32::from(status),
        response_body: body,
        game_id: None,
        game_version: None,
        created_at: to_db_time(ctx.clock.now()),
    };
    let stored = db::run_as(&ctx.pool, move |conn| {
        db::write_transaction(conn, |conn| {
            keys::insert(conn, &row).map_err(StoreError::from)
        })
    })
    .await;
    if let Err(error) = stored {
        tracing::warn!(%error, "could not remember a refused idempotent request");
    }
}

/// Forgets idempotency keys older than their time to live.
pub async fn purge_idempotency_keys(
    pool: &db::DbPool,
    now: DateTime<Utc>,
) -> Result<usize, StoreError> {
    let before = to_db_time(now - Duration::hours(IDEMPOTENCY_TTL_HOURS));
    db::run(pool, move |conn| {
        db::write_transaction(conn, |conn| Ok(keys::purge(conn, before)?))
    })
    .await
}
