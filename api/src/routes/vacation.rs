//! The caller's vacation (docs/lifecycle.md, "Vacation"): read it, start
//! it, end it, and turn automatic vacation on or off.

use actix_web::{delete, get, post, put, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::error::ApiError;
use crate::games::requests::JsonObject;
use crate::games::vacation::{self, AutoVacation, StartVacation, VacationView};
use crate::routes::AuthUser;
use crate::state::AppState;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_vacation)
        .service(start_vacation)
        .service(end_vacation)
        .service(set_auto_vacation);
}

/// Your vacation
///
/// Whether you are on vacation, until when, and the days you have left
/// this year.
#[utoipa::path(
    tag = "accounts",
    operation_id = "get_vacation",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your vacation and budget", body = VacationView),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me/vacation")]
pub async fn get_vacation(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<VacationView>, ApiError> {
    Ok(web::Json(vacation::view(&state.games, user.id).await?))
}

/// Go on vacation
///
/// Your clock stops in every game of yours in progress, and in every game
/// that starts meanwhile, for `days` days (or until your vacation days run
/// out); your opponents are told (`vacation_started`). A move in any game,
/// or `DELETE`, ends it sooner. Each vacation costs at least one day;
/// each day or part of one is charged.
#[utoipa::path(
    tag = "accounts",
    operation_id = "start_vacation",
    security(("bearer" = [])),
    request_body = StartVacation,
    responses(
        (status = 201, description = "On vacation", body = VacationView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 409, response = crate::openapi::VacationRefused),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/me/vacation")]
pub async fn start_vacation(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<StartVacation>>,
) -> Result<actix_web::HttpResponse, ApiError> {
    let request = body.into_inner().into_inner();
    let view = vacation::start(&state.games, user.id, &user.username, request).await?;
    Ok(actix_web::HttpResponse::Created().json(view))
}

/// End your vacation
///
/// Your clocks run again from now; the days used are charged (at least
/// one). Without a vacation in progress, nothing changes.
#[utoipa::path(
    tag = "accounts",
    operation_id = "end_vacation",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Back from vacation", body = VacationView),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 409, response = crate::openapi::VacationBusy),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[delete("/me/vacation")]
pub async fn end_vacation(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<VacationView>, ApiError> {
    let ending = vacation::Ending::Player;
    Ok(web::Json(
        vacation::end(&state.games, user.id, &user.username, ending).await?,
    ))
}

/// Automatic vacation on or off
///
/// With it on, a clock of yours running out starts a vacation (while
/// vacation days remain) instead of losing the game.
#[utoipa::path(
    tag = "accounts",
    operation_id = "set_auto_vacation",
    security(("bearer" = [])),
    request_body = AutoVacation,
    responses(
        (status = 200, description = "Your vacation and budget", body = VacationView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 409, response = crate::openapi::VacationBusy),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[put("/me/vacation/auto")]
pub async fn set_auto_vacation(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<AutoVacation>>,
) -> Result<web::Json<VacationView>, ApiError> {
    let request = body.into_inner().into_inner();
    Ok(web::Json(
        vacation::set_auto(&state.games, user.id, request.auto).await?,
    ))
}
