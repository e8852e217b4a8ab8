//! Registration, login, token refresh and logout: HTTP in and out; the work
//! is in `crate::accounts`.

use std::fmt;

use actix_web::http::StatusCode;
use actix_web::{post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::accounts::{self, Registered, TokenPair};
use crate::error::ApiError;
use crate::games::requests::JsonObject;
use crate::state::AppState;

pub use crate::accounts::UserView;
pub use crate::accounts::{PASSWORD_MAX, PASSWORD_MIN};
pub use crate::username::{USERNAME_MAX, USERNAME_MIN};

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(register_user)
        .service(login_user)
        .service(refresh_token)
        .service(logout_user);
}

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

impl From<Credentials> for accounts::Credentials {
    fn from(c: Credentials) -> Self {
        Self {
            username: c.username,
            password: c.password,
        }
    }
}

/// A refresh token, for `/auth/refresh` and `/auth/logout`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"refresh_token": "3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs"}))]
pub struct RefreshRequest {
    pub refresh_token: String,
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

/// Answers carrying tokens are never stored by caches.
fn no_store(
    mut builder: actix_web::HttpResponseBuilder,
    body: impl serde::Serialize,
) -> HttpResponse {
    builder
        .insert_header(("Cache-Control", "no-store"))
        .json(body)
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
    let address = client_address(&req, state.config.trust_proxy_headers);
    let registered: Registered = accounts::register::register(
        &state.accounts,
        body.into_inner().into_inner().into(),
        &address,
    )
    .await?;
    Ok(no_store(HttpResponse::Created(), registered))
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
    let address = client_address(&req, state.config.trust_proxy_headers);
    let pair: TokenPair = accounts::login::login(
        &state.accounts,
        body.into_inner().into_inner().into(),
        &address,
    )
    .await?;
    Ok(no_store(HttpResponse::Ok(), pair))
}

/// Exchange a refresh token for a new pair.
///
/// The presented token stops working (rotation). Presenting an already used
/// token again ends the whole session (every token descended from the same
/// login, access tokens included), so a stolen token is useless once either
/// party has used it.
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
    let pair = accounts::refresh::refresh(&state.accounts, &presented).await?;
    Ok(no_store(HttpResponse::Ok(), pair))
}

/// Log out: end the session of a refresh token.
///
/// Its refresh tokens and its access tokens stop working.
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
    accounts::refresh::logout(&state.accounts, &presented).await?;
    Ok(HttpResponse::build(StatusCode::NO_CONTENT).finish())
}
