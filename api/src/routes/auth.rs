//! Registration, login, token refresh and logout.

use std::fmt;

use actix_web::http::StatusCode;
use actix_web::{post, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;
use uuid::Uuid;

use crate::auth::{password, tokens};
use crate::db::{self, DbConnection};
use crate::error::{ApiError, ProblemKind};
use crate::games::requests::JsonObject;
use crate::state::AppState;
use crate::storage::refresh_tokens::{self, RefreshTokenRow};
use crate::storage::users::{self, UserRow};
use crate::storage::{from_db_time, to_db_time};

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(register_user)
        .service(login_user)
        .service(refresh_token)
        .service(logout_user);
}

pub use crate::username::{USERNAME_MAX, USERNAME_MIN};
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
/// Longest string accepted where a refresh token is expected.
const REFRESH_TOKEN_MAX: usize = 256;

/// Username and password.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"username": "ann", "password": "correct horse battery"}))]
pub struct Credentials {
    /// 3-32 characters of A-Z, a-z, 0-9, `_` and `-`; unique regardless of case
    #[schema(min_length = 3, max_length = 32, pattern = "^[A-Za-z0-9_-]{3,32}$")]
    pub username: String,
    /// 8-128 characters
    #[schema(min_length = 8, max_length = 128, format = Password)]
    pub password: String,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"[redacted]")
            .finish()
    }
}

/// A refresh token, for `/auth/refresh` and `/auth/logout`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"refresh_token": "3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs"}))]
pub struct RefreshRequest {
    pub refresh_token: String,
}

/// A user account as others may see it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11", "username": "ann",
                           "created_at": "2026-11-29T19:00:00Z"}))]
pub struct UserView {
    pub id: Uuid,
    pub username: String,
    pub created_at: DateTime<Utc>,
}

impl UserView {
    pub fn from_row(row: &UserRow) -> Result<Self, ApiError> {
        Ok(Self {
            id: Uuid::parse_str(&row.id).map_err(ApiError::internal)?,
            username: row.username.clone(),
            created_at: from_db_time(row.created_at),
        })
    }
}

/// A fresh access token and refresh token.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({"access_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl",
    "refresh_token": "3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs", "token_type": "Bearer",
    "expires_in": 900, "refresh_expires_in": 2592000}))]
pub struct TokenPair {
    /// JWT for `Authorization: Bearer`
    pub access_token: String,
    /// Single-use token for `/auth/refresh`; store it safely
    pub refresh_token: String,
    /// Always `Bearer`
    #[schema(example = "Bearer")]
    pub token_type: &'static str,
    /// Seconds until the access token expires
    pub expires_in: i64,
    /// Seconds until the refresh token expires
    pub refresh_expires_in: i64,
}

/// The new account and its first tokens.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({"user": {"id": "6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11", "username": "ann",
    "created_at": "2026-11-29T19:00:00Z"},
    "access_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl",
    "refresh_token": "3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs", "token_type": "Bearer",
    "expires_in": 900, "refresh_expires_in": 2592000}))]
pub struct Registered {
    pub user: UserView,
    pub access_token: String,
    pub refresh_token: String,
    #[schema(example = "Bearer")]
    pub token_type: &'static str,
    pub expires_in: i64,
    pub refresh_expires_in: i64,
}

/// Whether `name` could be a username (3-32 characters of `A-Z a-z 0-9 _ -`).
/// A name that cannot be one is never looked up: no account has it, and
/// PostgreSQL refuses some strings (a NUL character) outright.
fn is_valid_username(name: &str) -> bool {
    crate::username::Username::is_valid(name)
}

/// Checks a username and password for registration, reporting every
/// problem at once (as `errors` in the problem document).
fn validate_new_account(credentials: &Credentials) -> Result<(), ApiError> {
    let mut errors = Vec::new();
    if !is_valid_username(&credentials.username) {
        errors.push(json!({"field": "username",
            "message": "must be 3 to 32 characters of A-Z, a-z, 0-9, _ and -"}));
    }
    let length = credentials.password.chars().count();
    if !(PASSWORD_MIN..=PASSWORD_MAX).contains(&length) {
        errors.push(json!({"field": "password", "message": "must be 8 to 128 characters"}));
    }
    if errors.is_empty() {
        return Ok(());
    }
    let detail = errors
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e["field"].as_str().unwrap_or(""),
                e["message"].as_str().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    Err(ApiError::validation(detail).with_extension("errors", errors))
}

/// The client address used as a rate-limit key.
fn client_address(req: &HttpRequest, trust_proxy_headers: bool) -> String {
    let raw = if trust_proxy_headers {
        req.connection_info()
            .realip_remote_addr()
            .map(str::to_owned)
    } else {
        req.peer_addr().map(|addr| addr.ip().to_string())
    };
    let raw = raw.unwrap_or_else(|| "unknown".to_owned());
    raw.parse::<std::net::SocketAddr>()
        .map(|addr| addr.ip().to_string())
        .unwrap_or(raw)
}

/// Records a refresh token for a user (new login: new family) and returns
/// the pair to send.
fn new_session(
    conn: &mut DbConnection,
    state: &AppState,
    user_id: &str,
    family_id: Option<&str>,
) -> Result<(String, i64), ApiError> {
    let now = state.clock.now();
    let (token, hash) = tokens::new_refresh_token();
    refresh_tokens::insert(
        conn,
        &RefreshTokenRow {
            id: Uuid::new_v4().to_string(),
            user_id: user_id.to_owned(),
            family_id: family_id.map_or_else(|| Uuid::new_v4().to_string(), str::to_owned),
            token_hash: hash,
            created_at: to_db_time(now),
            expires_at: to_db_time(now + state.config.refresh_token_ttl),
            used_at: None,
            revoked_at: None,
        },
    )?;
    Ok((token, state.config.refresh_token_ttl.num_seconds()))
}

fn token_pair(
    state: &AppState,
    user_id: Uuid,
    username: &str,
    refresh: (String, i64),
) -> Result<TokenPair, ApiError> {
    Ok(TokenPair {
        access_token: state
            .tokens
            .issue(user_id, username)
            .map_err(ApiError::internal)?,
        refresh_token: refresh.0,
        token_type: "Bearer",
        expires_in: state.tokens.access_ttl_seconds(),
        refresh_expires_in: refresh.1,
    })
}

/// Create an account and log it in.
#[utoipa::path(
    tag = "accounts",
    operation_id = "register_user",
    request_body = Credentials,
    responses(
        (status = 201, description = "Account created; the first tokens", body = Registered),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 409, response = crate::openapi::UsernameTaken),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 429, response = crate::openapi::TooManyRequests),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/auth/register")]
pub async fn register_user(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<Credentials>>,
) -> Result<HttpResponse, ApiError> {
    let credentials = body.into_inner().into_inner();
    let address = client_address(&req, state.config.trust_proxy_headers);
    state
        .register_limiter
        .hit(&format!("ip:{address}"), state.clock.now())
        .map_err(ApiError::rate_limited)?;
    validate_new_account(&credentials)?;

    let password_hash = password::hash_blocking(credentials.password).await?;
    let now = state.clock.now();
    let user = UserRow {
        id: Uuid::new_v4().to_string(),
        username_key: users::username_key(&credentials.username),
        username: credentials.username,
        password_hash,
        created_at: to_db_time(now),
    };
    let state_for_db = state.clone();
    let (user, refresh) = db::run_as::<_, ApiError, _>(&state.pool, move |conn| {
        db::write_transaction(conn, |conn| {
            if !users::insert(conn, &user)? {
                return Err(ApiError::new(
                    ProblemKind::UsernameTaken,
                    "this username is already taken",
                ));
            }
            let refresh = new_session(conn, &state_for_db, &user.id, None)?;
            Ok((user, refresh))
        })
    })
    .await?;

    let view = UserView::from_row(&user)?;
    let pair = token_pair(&state, view.id, &view.username, refresh)?;
    tracing::info!(user_id = %view.id, "account registered");
    Ok(HttpResponse::Created()
        .insert_header(("Cache-Control", "no-store"))
        .json(Registered {
            user: view,
            access_token: pair.access_token,
            refresh_token: pair.refresh_token,
            token_type: pair.token_type,
            expires_in: pair.expires_in,
            refresh_expires_in: pair.refresh_expires_in,
        }))
}

/// Log in with username and password.
///
/// A wrong username and a wrong password get the same answer, in the same
/// time. Attempts are limited per client address and per username.
#[utoipa::path(
    tag = "accounts",
    operation_id = "login_user",
    request_body = Credentials,
    responses(
        (status = 200, description = "Logged in; a new token pair", body = TokenPair),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 429, response = crate::openapi::TooManyRequests),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/auth/login")]
pub async fn login_user(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<Credentials>>,
) -> Result<HttpResponse, ApiError> {
    let credentials = body.into_inner().into_inner();
    let now = state.clock.now();
    let address = client_address(&req, state.config.trust_proxy_headers);
    let name_key: String = users::username_key(&credentials.username)
        .chars()
        .take(64)
        .collect();
    state
        .login_limiter
        .hit(&format!("ip:{address}"), now)
        .and_then(|()| state.login_limiter.hit(&format!("user:{name_key}"), now))
        .map_err(ApiError::rate_limited)?;

    let username = credentials.username.clone();
    // Unusable names and over-long passwords are never looked up; they are
    // refused exactly like an unknown user (same answer, same hashing work).
    let lookup = credentials.password.chars().count() <= PASSWORD_MAX
        && is_valid_username(&credentials.username);
    let found = if lookup {
        db::run_as::<_, ApiError, _>(&state.pool, move |conn| {
            Ok(users::find_by_username(conn, &username)?)
        })
        .await?
    } else {
        None
    };
    // Unknown users are checked against a dummy hash so the answer takes as
    // long as for a known user with a wrong password.
    let stored_hash = found.as_ref().map_or_else(
        || state.dummy_password_hash.clone(),
        |u| u.password_hash.clone(),
    );
    let password_ok = password::verify_blocking(credentials.password, stored_hash).await?;
    let user = match found {
        Some(user) if password_ok => user,
        _ => {
            tracing::info!("login refused");
            return Err(ApiError::unauthorized("invalid username or password"));
        }
    };

    let state_for_db = state.clone();
    let user_id = user.id.clone();
    let refresh = db::run_as::<_, ApiError, _>(&state.pool, move |conn| {
        new_session(conn, &state_for_db, &user_id, None)
    })
    .await?;
    let view = UserView::from_row(&user)?;
    let pair = token_pair(&state, view.id, &view.username, refresh)?;
    tracing::info!(user_id = %view.id, "logged in");
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(pair))
}

enum RefreshOutcome {
    Rotated {
        user: UserRow,
        refresh: (String, i64),
    },
    Unknown,
    Expired,
    Revoked,
    Reused,
}

/// Exchange a refresh token for a new pair.
///
/// The presented token stops working (rotation). Presenting an already used
/// token again revokes every token descended from the same login, so a stolen
/// token is useless once either party has used it.
#[utoipa::path(
    tag = "accounts",
    operation_id = "refresh_token",
    request_body = RefreshRequest,
    responses(
        (status = 200, description = "A new token pair; the old refresh token is spent", body = TokenPair),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/auth/refresh")]
pub async fn refresh_token(
    state: web::Data<AppState>,
    body: web::Json<JsonObject<RefreshRequest>>,
) -> Result<HttpResponse, ApiError> {
    let presented = body.into_inner().into_inner().refresh_token;
    if presented.is_empty() || presented.len() > REFRESH_TOKEN_MAX {
        return Err(ApiError::unauthorized("invalid refresh token"));
    }
    let hash = tokens::hash_refresh_token(&presented);
    let state_for_db = state.clone();
    let outcome = db::run_as::<_, ApiError, _>(&state.pool, move |conn| {
        db::write_transaction(conn, |conn| {
            let now = state_for_db.clock.now();
            let Some(row) = refresh_tokens::find_by_hash(conn, &hash)? else {
                return Ok(RefreshOutcome::Unknown);
            };
            if row.revoked_at.is_some() {
                return Ok(RefreshOutcome::Revoked);
            }
            let reused = row.used_at.is_some();
            if !reused && from_db_time(row.expires_at) <= now {
                return Ok(RefreshOutcome::Expired);
            }
            // `mark_used` failing means a concurrent request spent it first.
            if reused || !refresh_tokens::mark_used(conn, &row.id, to_db_time(now))? {
                refresh_tokens::revoke_family(conn, &row.family_id, to_db_time(now))?;
                return Ok(RefreshOutcome::Reused);
            }
            let Some(user) = users::find_by_id(conn, &row.user_id)? else {
                return Ok(RefreshOutcome::Unknown);
            };
            let refresh = new_session(conn, &state_for_db, &user.id, Some(&row.family_id))?;
            Ok(RefreshOutcome::Rotated { user, refresh })
        })
    })
    .await?;

    match outcome {
        RefreshOutcome::Rotated { user, refresh } => {
            let view = UserView::from_row(&user)?;
            let pair = token_pair(&state, view.id, &view.username, refresh)?;
            Ok(HttpResponse::Ok()
                .insert_header(("Cache-Control", "no-store"))
                .json(pair))
        }
        RefreshOutcome::Unknown => Err(ApiError::unauthorized("invalid refresh token")),
        RefreshOutcome::Expired => Err(ApiError::unauthorized("the refresh token has expired")),
        RefreshOutcome::Revoked => {
            Err(ApiError::unauthorized("the refresh token has been revoked"))
        }
        RefreshOutcome::Reused => {
            tracing::warn!("refresh token reused; its session was revoked");
            Err(ApiError::unauthorized(
                "this refresh token was already used; the session has been revoked, log in again",
            ))
        }
    }
}

/// Log out: revoke a refresh token (and the session it belongs to).
///
/// Answers 204 whether or not the token was live, as RFC 7009 does for
/// token revocation, so the answer reveals nothing about a token.
#[utoipa::path(
    tag = "accounts",
    operation_id = "logout_user",
    request_body = RefreshRequest,
    responses(
        (status = 204, description = "The refresh token no longer works"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/auth/logout")]
pub async fn logout_user(
    state: web::Data<AppState>,
    body: web::Json<JsonObject<RefreshRequest>>,
) -> Result<HttpResponse, ApiError> {
    let presented = body.into_inner().into_inner().refresh_token;
    if !presented.is_empty() && presented.len() <= REFRESH_TOKEN_MAX {
        let hash = tokens::hash_refresh_token(&presented);
        let now = to_db_time(state.clock.now());
        db::run_as::<_, ApiError, _>(&state.pool, move |conn| {
            if let Some(row) = refresh_tokens::find_by_hash(conn, &hash)? {
                refresh_tokens::revoke_family(conn, &row.family_id, now)?;
            }
            Ok(())
        })
        .await?;
    }
    Ok(HttpResponse::build(StatusCode::NO_CONTENT).finish())
}
