//! The caller's own account.

use actix_web::{get, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::db;
use crate::error::ApiError;
use crate::routes::auth::UserView;
use crate::routes::AuthUser;
use crate::state::AppState;
use crate::storage::users;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_me);
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
    let id = user.id.to_string();
    let row = db::run(&state.pool, move |conn| Ok(users::find_by_id(conn, &id)?)).await?;
    let row = row.ok_or_else(|| ApiError::invalid_token("the account no longer exists"))?;
    Ok(web::Json(UserView::from_row(&row)?))
}
