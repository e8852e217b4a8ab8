//! `AuthUser`: put it in a handler's arguments and the handler only runs for
//! a request with a valid `Authorization: Bearer <access token>`.

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpRequest};
use uuid::Uuid;

use crate::error::ApiError;
use crate::state::AppState;

/// The caller, as proven by the access token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthUser {
    pub id: Uuid,
    pub username: String,
    /// The session (login) the token belongs to.
    pub session: Uuid,
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(authenticate(req))
    }
}

fn authenticate(req: &HttpRequest) -> Result<AuthUser, ApiError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::internal("application state is missing"))?;
    let value = req.headers().get(header::AUTHORIZATION).ok_or_else(|| {
        ApiError::unauthorized("this endpoint needs an Authorization: Bearer token")
    })?;
    let token = value
        .to_str()
        .ok()
        .and_then(|v| {
            let (scheme, token) = v.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        })
        .filter(|token| !token.is_empty())
        .ok_or_else(|| {
            ApiError::invalid_token("the Authorization header must be `Bearer <token>`")
        })?;
    let identity = state.accounts.tokens.verify(token)?;
    // In memory: no round trip (docs/accounts.md).
    if state.accounts.ended.has_ended(identity.session) {
        return Err(ApiError::invalid_token(
            "this session has ended (logged out); log in again",
        ));
    }
    Ok(AuthUser {
        id: identity.user_id,
        username: identity.username,
        session: identity.session,
    })
}
