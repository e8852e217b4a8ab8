//! The caller's own account: read it, change its password, end every
//! session, delete it (docs/accounts.md).

use std::fmt;

use actix_web::{delete, get, put, web, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::accounts::{self, TokenPair, UserView};
use crate::error::ApiError;
use crate::games::requests::JsonObject;
use crate::routes::AuthUser;
use crate::state::AppState;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_me)
        .service(change_password)
        .service(end_sessions)
        .service(delete_me);
}

/// The account the access token belongs to.
#[utoipa::path(
    tag = "accounts",
    operation_id = "get_me",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's account", body = UserView),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me")]
pub async fn get_me(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<UserView>, ApiError> {
    Ok(web::Json(accounts::me::me(&state.accounts, user.id).await?))
}

/// The current password and the new one.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"current_password": "correct horse battery",
                           "new_password": "battery staple horse correct"}))]
pub struct PasswordChange {
    #[schema(format = Password)]
    pub current_password: String,
    /// 8-128 characters
    #[schema(min_length = 8, max_length = 128, format = Password)]
    pub new_password: String,
}

impl fmt::Debug for PasswordChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PasswordChange { [redacted] }")
    }
}

/// Change the password
///
/// Needs the current password. Every session of the account ends (other
/// devices must log in again; their access tokens are refused at once);
/// the answer is a new token pair for this one.
#[utoipa::path(
    tag = "accounts",
    operation_id = "change_password",
    security(("bearer" = [])),
    request_body = PasswordChange,
    responses(
        (status = 200, description = "Changed; every other session ended; a new token pair", body = TokenPair),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::WrongPassword),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 429, response = crate::openapi::TooManyRequests),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[put("/me/password")]
pub async fn change_password(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<PasswordChange>>,
) -> Result<HttpResponse, ApiError> {
    let change = body.into_inner().into_inner();
    let pair = accounts::password::change_password(
        &state.accounts,
        user.id,
        change.current_password,
        change.new_password,
    )
    .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(pair))
}

/// Log out everywhere
///
/// Ends every session of the account, this one included: all refresh
/// tokens stop working and all access tokens are refused from now on.
#[utoipa::path(
    tag = "accounts",
    operation_id = "end_sessions",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Every session has ended"),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[delete("/me/sessions")]
pub async fn end_sessions(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    accounts::sessions::end_all(&state.accounts, user.id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The password, to confirm deleting the account.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"password": "correct horse battery"}))]
pub struct DeleteAccount {
    #[schema(format = Password)]
    pub password: String,
}

impl fmt::Debug for DeleteAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DeleteAccount { [redacted] }")
    }
}

/// Delete the account
///
/// Needs the password. The name and password are erased and every session
/// ends. Games not yet over end as if the player had left them: a game in
/// play is resigned, a game before play aborted, a challenge declined.
/// Finished games keep their record; the player appears in them as
/// `[deleted]` with `deleted: true`. The username becomes free.
#[utoipa::path(
    tag = "accounts",
    operation_id = "delete_me",
    security(("bearer" = [])),
    request_body = DeleteAccount,
    responses(
        (status = 204, description = "The account is deleted"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::WrongPassword),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 429, response = crate::openapi::TooManyRequests),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[delete("/me")]
pub async fn delete_me(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<DeleteAccount>>,
) -> Result<HttpResponse, ApiError> {
    let password = body.into_inner().into_inner().password;
    accounts::delete::delete(&state.accounts, user.id, password).await?;
    Ok(HttpResponse::NoContent().finish())
}
