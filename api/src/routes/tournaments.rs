//! Tournaments (docs/tournaments.md): `/tournaments`.

use actix_web::{delete, get, post, web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;
use uuid::Uuid;

use crate::error::ApiError;
use crate::games::requests::JsonObject;
use crate::games::Caller;
use crate::routes::extract::OptionalJson;
use crate::routes::AuthUser;
use crate::state::AppState;
use crate::tournaments::commands::{self, LIST_LIMIT};
use crate::tournaments::view::TournamentStatus;
use crate::tournaments::{CreateTournament, JoinTournament, TournamentList, TournamentView};

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(create_tournament)
        .service(list_tournaments)
        .service(get_tournament)
        .service(join_tournament)
        .service(leave_tournament)
        .service(start_tournament)
        .service(delete_tournament);
}

fn caller(user: &AuthUser) -> Caller {
    Caller {
        id: user.id,
        name: user.username.clone(),
    }
}

/// Create a tournament
///
/// You organise it: you start it (or it starts at `starts_at`), and you
/// play in it only if you join it too. A round robin pairs everyone with
/// everyone at once; a Swiss tournament pairs `rounds` rounds by score,
/// each when the last game of the one before ends.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "create_tournament",
    security(("bearer" = [])),
    request_body = CreateTournament,
    responses(
        (status = 201, description = "The new tournament, open", body = TournamentView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/tournaments")]
pub async fn create_tournament(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<CreateTournament>>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner().into_inner();
    let view = commands::create(&state.games, &caller(&user), request).await?;
    Ok(HttpResponse::Created().json(view))
}

/// Filters and paging of `GET /tournaments`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TournamentQuery {
    /// Only tournaments with this status
    pub status: Option<TournamentStatus>,
    /// 1-50, default 50
    #[param(minimum = 1, maximum = 50)]
    pub limit: Option<i64>,
    /// The id of the last tournament of the previous page
    pub before: Option<Uuid>,
}

/// Tournaments
///
/// Newest first, 50 at most a page; the next page starts `before` the
/// last one's id.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "list_tournaments",
    security(("bearer" = [])),
    params(TournamentQuery),
    responses(
        (status = 200, description = "Tournaments", body = TournamentList),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/tournaments")]
pub async fn list_tournaments(
    _user: AuthUser,
    state: web::Data<AppState>,
    query: web::Query<TournamentQuery>,
) -> Result<web::Json<TournamentList>, ApiError> {
    let query = query.into_inner();
    let limit = match query.limit {
        None => LIST_LIMIT,
        Some(n) if (1..=LIST_LIMIT).contains(&n) => n,
        Some(n) => {
            return Err(ApiError::bad_request(format!(
                "limit must be between 1 and {LIST_LIMIT}, not {n}"
            )))
        }
    };
    Ok(web::Json(
        commands::list(&state.games, query.status, query.before, limit).await?,
    ))
}

/// A tournament
///
/// Its settings, players, rounds (each game with its result) and
/// standings with their tie-breaks.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "get_tournament",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/tournaments/{id}")]
pub async fn get_tournament(
    _user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<web::Json<TournamentView>, ApiError> {
    Ok(web::Json(
        commands::get(&state.games, id.into_inner()).await?,
    ))
}

/// Join a tournament
///
/// While it is open. The organiser may enter a bot instead, with
/// `{"bot": "bot-tactician"}`.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "join_tournament",
    security(("bearer" = [])),
    request_body(content = Option<JoinTournament>, description = "Optional: a bot to enter"),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = crate::openapi::TournamentConflict),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/tournaments/{id}/join")]
pub async fn join_tournament(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    body: OptionalJson<JsonObject<JoinTournament>>,
) -> Result<web::Json<TournamentView>, ApiError> {
    let body = body.0.map(JsonObject::into_inner).unwrap_or_default();
    Ok(web::Json(
        commands::join(&state.games, &caller(&user), id.into_inner(), body).await?,
    ))
}

/// Leave a tournament
///
/// Before it starts, you are off the list. Once it runs, you withdraw:
/// your games not yet over are forfeited (resigned, or aborted as your
/// loss before play) and you are not paired again; your results stay in
/// the standings, marked `withdrawn`. The organiser may withdraw a bot
/// they entered with `{"bot": ...}`.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "leave_tournament",
    security(("bearer" = [])),
    request_body(content = Option<JoinTournament>, description = "Optional: a bot to withdraw"),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = crate::openapi::TournamentConflict),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/tournaments/{id}/leave")]
pub async fn leave_tournament(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    body: OptionalJson<JsonObject<JoinTournament>>,
) -> Result<web::Json<TournamentView>, ApiError> {
    let body = body.0.map(JsonObject::into_inner).unwrap_or_default();
    Ok(web::Json(
        commands::leave(&state.games, &caller(&user), id.into_inner(), body).await?,
    ))
}

/// Start a tournament
///
/// The organiser only, with at least 3 players (a Swiss tournament: more
/// players than rounds). A round robin's games all start now; a Swiss
/// tournament's first round is paired by rating. Every player is told
/// (`tournament_started`, with their games).
#[utoipa::path(
    tag = "tournaments",
    operation_id = "start_tournament",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The tournament, running", body = TournamentView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = crate::openapi::TournamentConflict),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/tournaments/{id}/start")]
pub async fn start_tournament(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<web::Json<TournamentView>, ApiError> {
    Ok(web::Json(
        commands::start(&state.games, &caller(&user), id.into_inner()).await?,
    ))
}

/// Delete a tournament
///
/// The organiser only, before it starts.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "delete_tournament",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = crate::openapi::TournamentConflict),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[delete("/tournaments/{id}")]
pub async fn delete_tournament(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    commands::delete(&state.games, &caller(&user), id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
