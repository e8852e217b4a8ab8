//! `AuthUser`: put it in a handler's arguments and the handler only runs for
//! a request with a valid `Authorization: Bearer <access token>`.

use std::future::{ready, Ready};

use futures_util::future::{Either, LocalBoxFuture};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpRequest};
use uuid::Uuid;

use crate::db;
use crate::error::ApiError;
use crate::state::AppState;
use crate::storage::users::{self, RowLock};

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
    type Future =
        Either<Ready<Result<Self, ApiError>>, LocalBoxFuture<'static, Result<Self, ApiError>>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        match authenticate(req) {
            Ok(Checked::Known(user)) => Either::Left(ready(Ok(user))),
            Ok(Checked::Unknown(user, accounts)) => {
                Either::Right(Box::pin(look_up(user, *accounts)))
            }
            Err(error) => Either::Left(ready(Err(error))),
        }
    }
}

/// A valid token, and whether this process already knows its account.
enum Checked {
    Known(AuthUser),
    Unknown(AuthUser, Box<crate::accounts::Context>),
}

fn authenticate(req: &HttpRequest) -> Result<Checked, ApiError> {
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
    let user = AuthUser {
        id: identity.user_id,
        username: identity.username,
        session: identity.session,
    };
    // Read-your-writes with replicas: a writer reads the primary for a
    // while (docs/deploy.md, "Read replicas").
    if !matches!(
        *req.method(),
        actix_web::http::Method::GET
            | actix_web::http::Method::HEAD
            | actix_web::http::Method::OPTIONS
    ) {
        state.pool.note_writer(user.id);
    }
    if state.accounts.known.contains(user.id) {
        Ok(Checked::Known(user))
    } else {
        Ok(Checked::Unknown(user, Box::new(state.accounts.clone())))
    }
}

/// The first request of an account this process does not know yet: one
/// read, then the account is known, or the token is refused as every token
/// of an account that does not exist is, on every endpoint.
async fn look_up(user: AuthUser, accounts: crate::accounts::Context) -> Result<AuthUser, ApiError> {
    let id = user.id.to_string();
    let live = db::run(&accounts.pool, move |conn| {
        Ok(users::live(conn, &id, RowLock::None)?.is_some())
    })
    .await?;
    if !live {
        return Err(ApiError::invalid_token("this account no longer exists"));
    }
    accounts.known.remember(user.id);
    Ok(user)
}
