//! Every state-changing request goes through [`run`]: one transaction that
//! (1) answers a repeated `Idempotency-Key` from the stored answer, (2) does
//! the work (load, decide with `domain`, versioned write, action log),
//! (3) records the events, (4) stores the answer under the key. A versioned
//! write that lost a race rolls everything back and the whole thing runs
//! again on the fresh state (a request that named a version then fails with
//! `version_conflict`, because the work compares versions first).

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::HttpRequest;
use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::events::{self, Notice};
use crate::db::{self, DbConnection};
use crate::error::{ApiError, ProblemKind};
use crate::state::AppState;
use crate::storage::games::{self as store, IdempotencyRow};
use crate::storage::{from_db_time, to_db_time};

/// How long an idempotency key is remembered.
pub const IDEMPOTENCY_TTL_HOURS: i64 = 24;
/// Longest accepted `Idempotency-Key`.
pub const IDEMPOTENCY_KEY_MAX: usize = 200;
/// Attempts before a write that keeps losing races gives up.
const MAX_ATTEMPTS: usize = 8;

/// What the client gets.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
}

impl Answer {
    pub fn ok(body: impl Serialize) -> Result<Answer, ApiError> {
        Self::with_status(StatusCode::OK, body)
    }

    pub fn with_status(status: StatusCode, body: impl Serialize) -> Result<Answer, ApiError> {
        Ok(Answer {
            status,
            body: serde_json::to_value(body).map_err(ApiError::internal)?,
        })
    }
}

/// The result of one successful piece of work.
#[derive(Debug)]
pub struct Change {
    pub answer: Answer,
    /// The game that changed and its new version.
    pub game: Option<(Uuid, i64)>,
    /// Who to tell what.
    pub notices: Vec<Notice>,
}

/// Why a transaction did not commit.
#[derive(Debug)]
pub enum WriteError {
    /// Refused: the answer to send (nothing was written).
    Api(ApiError),
    /// Someone else changed the game between our read and our write.
    Conflict,
}

impl From<ApiError> for WriteError {
    fn from(error: ApiError) -> Self {
        WriteError::Api(error)
    }
}

impl From<diesel::result::Error> for WriteError {
    fn from(error: diesel::result::Error) -> Self {
        WriteError::Api(error.into())
    }
}

/// An `Idempotency-Key` and what the request looked like.
#[derive(Debug, Clone)]
pub struct Idempotency {
    pub key: String,
    pub fingerprint: String,
}

impl Idempotency {
    /// Reads the header; `body` is the parsed request body (`()` for none),
    /// so equal bodies in different spellings count as the same request.
    pub fn from_request(
        req: &HttpRequest,
        body: &impl Serialize,
    ) -> Result<Option<Idempotency>, ApiError> {
        let Some(value) = req.headers().get("idempotency-key") else {
            return Ok(None);
        };
        let key = value
            .to_str()
            .ok()
            .map(str::trim)
            .filter(|k| !k.is_empty() && k.len() <= IDEMPOTENCY_KEY_MAX)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} visible ASCII characters"
                ))
            })?;
        let body = serde_json::to_vec(body).map_err(ApiError::internal)?;
        let digest = Sha256::digest(&body);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Some(Idempotency {
            key: key.to_owned(),
            fingerprint: format!("{} {} {hex}", req.method(), req.path()),
        }))
    }
}

type Work = dyn Fn(&mut DbConnection, DateTime<Utc>) -> Result<Change, WriteError> + Send + Sync;

/// Runs `work` for `user` as described in the module documentation, then
/// notifies listeners after the commit.
pub async fn run<F>(
    state: &AppState,
    user: Uuid,
    idempotency: Option<Idempotency>,
    work: F,
) -> Result<Answer, ApiError>
where
    F: Fn(&mut DbConnection, DateTime<Utc>) -> Result<Change, WriteError> + Send + Sync + 'static,
{
    let work: Arc<Work> = Arc::new(work);
    for _ in 0..MAX_ATTEMPTS {
        let work = work.clone();
        let key = idempotency.clone();
        let now = state.clock.now();
        let outcome = db::run(&state.pool, move |conn| {
            Ok(db::write_transaction(conn, |conn| {
                attempt(conn, now, user, key.as_ref(), work.as_ref())
            }))
        })
        .await?;
        match outcome {
            Ok(change) => {
                events::notify(state, &change);
                return Ok(change.answer);
            }
            Err(WriteError::Api(error)) => {
                if let Some(idem) = &idempotency {
                    remember_refusal(state, user, idem, &error).await;
                }
                return Err(error);
            }
            Err(WriteError::Conflict) => continue,
        }
    }
    Err(ApiError::new(
        ProblemKind::VersionConflict,
        "the game kept changing while this request was handled; try again",
    ))
}

/// Stores a refusal (a 4xx problem) under the request's key, so that a
/// retry with the same key gets the same answer even if the game has changed
/// since (e.g. a move refused as `not_your_turn` stays refused). Failing to
/// store it is only logged: the refusal itself changed nothing.
async fn remember_refusal(state: &AppState, user: Uuid, idem: &Idempotency, error: &ApiError) {
    let ApiError::Problem(problem) = error else {
        return;
    };
    if !problem.status.is_client_error() || problem.kind == ProblemKind::IdempotencyKeyReused {
        return;
    }
    let row = IdempotencyRow {
        user_id: user.to_string(),
        idempotency_key: idem.key.clone(),
        fingerprint: idem.fingerprint.clone(),
        response_status: i32::from(problem.status.as_u16()),
        response_body: error.body_text(),
        created_at: to_db_time(state.clock.now()),
    };
    let stored = db::run(&state.pool, move |conn| {
        db::write_transaction(conn, |conn| {
            store::insert_idempotency(conn, &row).map_err(ApiError::from)
        })
    })
    .await;
    if let Err(error) = stored {
        tracing::warn!(%error, "could not remember a refused idempotent request");
    }
}

fn attempt(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    user: Uuid,
    idempotency: Option<&Idempotency>,
    work: &Work,
) -> Result<Change, WriteError> {
    let user_id = user.to_string();
    if let Some(idem) = idempotency {
        if let Some(stored) = store::find_idempotency(conn, &user_id, &idem.key)? {
            let expired =
                from_db_time(stored.created_at) + Duration::hours(IDEMPOTENCY_TTL_HOURS) <= now;
            if expired {
                store::delete_idempotency(conn, &user_id, &idem.key)?;
            } else if stored.fingerprint == idem.fingerprint {
                let status = u16::try_from(stored.response_status)
                    .ok()
                    .and_then(|s| StatusCode::from_u16(s).ok())
                    .unwrap_or(StatusCode::OK);
                let body = serde_json::from_str(&stored.response_body)
                    .map_err(|e| WriteError::Api(ApiError::internal(e)))?;
                return Ok(Change {
                    answer: Answer { status, body },
                    game: None,
                    notices: Vec::new(),
                });
            } else {
                return Err(WriteError::Api(ApiError::new(
                    ProblemKind::IdempotencyKeyReused,
                    "this Idempotency-Key was already used for a different request",
                )));
            }
        }
    }
    let change = work(conn, now)?;
    events::record(conn, now, &change.notices)?;
    if let Some(idem) = idempotency {
        let row = IdempotencyRow {
            user_id,
            idempotency_key: idem.key.clone(),
            fingerprint: idem.fingerprint.clone(),
            response_status: i32::from(change.answer.status.as_u16()),
            response_body: change.answer.body.to_string(),
            created_at: to_db_time(now),
        };
        if !store::insert_idempotency(conn, &row)? {
            // A concurrent request with the same key committed first: run
            // again, and the stored answer (or the mismatch) comes out.
            return Err(WriteError::Conflict);
        }
    }
    Ok(change)
}
