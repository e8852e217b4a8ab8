//! `/leaderboard` and `/users/{username}`: the ratings ladder and public
//! profiles (docs/ratings.md). Handlers parse the query, call one query of
//! `crate::players`, and render its answer or refusal.
//!
//! Every endpoint needs a bearer token, as watching games does; everything
//! answered is public to any logged-in user.

use actix_web::{get, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::db;
use crate::error::ApiError;
use crate::games::list::GamePage;
use crate::players::leaderboard::{self, Leaderboard, LeaderboardQuery};
use crate::players::profile::{self, GamesQuery, HistoryQuery, Profile, RatingHistory};
use crate::routes::AuthUser;
use crate::state::AppState;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_leaderboard)
        .service(get_user)
        .service(list_user_ratings)
        .service(list_user_games);
}

/// A variant's leaderboard: players whose rating is settled (deviation
/// below 110) and who finished a rated game in the variant in the last 90
/// days, best rating first; pages via `cursor`.
#[utoipa::path(
    tag = "players",
    operation_id = "get_leaderboard",
    security(("bearer" = [])),
    params(LeaderboardQuery),
    responses(
        (status = 200, description = "A page of the leaderboard", body = Leaderboard),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/leaderboard")]
pub async fn get_leaderboard(
    user: AuthUser,
    state: web::Data<AppState>,
    query: web::Query<LeaderboardQuery>,
) -> Result<web::Json<Leaderboard>, ApiError> {
    let freshness = state.pool.freshness_for(user.id);
    Ok(web::Json(
        leaderboard::leaderboard(&state.games, query.into_inner(), freshness).await?,
    ))
}

/// A player's profile: join date, rating and rated games per variant,
/// and the games they play now (as a spectator sees them). A deleted
/// account has none (404).
#[utoipa::path(
    tag = "players",
    operation_id = "get_user",
    security(("bearer" = [])),
    params(("username" = String, Path, description = "The player's username")),
    responses(
        (status = 200, description = "The profile", body = Profile),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::UserNotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/users/{username}")]
pub async fn get_user(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<web::Json<Profile>, ApiError> {
    let name = path.into_inner();
    let freshness = freshness(&state, &user, &name);
    Ok(web::Json(
        profile::profile(&state.games, name, freshness).await?,
    ))
}

/// A player's rating after each rated game (points over time), oldest
/// first, variant by variant; pages via `cursor`.
#[utoipa::path(
    tag = "players",
    operation_id = "list_user_ratings",
    security(("bearer" = [])),
    params(("username" = String, Path, description = "The player's username"), HistoryQuery),
    responses(
        (status = 200, description = "A page of rating points", body = RatingHistory),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::UserNotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/users/{username}/ratings")]
pub async fn list_user_ratings(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<HistoryQuery>,
) -> Result<web::Json<RatingHistory>, ApiError> {
    let name = path.into_inner();
    let freshness = freshness(&state, &user, &name);
    Ok(web::Json(
        profile::ratings(&state.games, name, query.into_inner(), freshness).await?,
    ))
}

/// A player's finished games (rated or not), the most recently ended
/// first; pages via `cursor`.
#[utoipa::path(
    tag = "players",
    operation_id = "list_user_games",
    security(("bearer" = [])),
    params(("username" = String, Path, description = "The player's username"), GamesQuery),
    responses(
        (status = 200, description = "A page of finished games (public facts only)", body = GamePage),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::UserNotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/users/{username}/games")]
pub async fn list_user_games(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<GamesQuery>,
) -> Result<web::Json<GamePage>, ApiError> {
    let name = path.into_inner();
    let freshness = freshness(&state, &user, &name);
    Ok(web::Json(
        profile::finished_games(&state.games, name, query.into_inner(), freshness).await?,
    ))
}

/// A player's own profile and lists are read from the primary, as is
/// anything read by a player who wrote through this process lately
/// (docs/deploy.md, "Read replicas").
fn freshness(state: &AppState, user: &AuthUser, name: &str) -> db::Freshness {
    if name.to_lowercase() == user.username.to_lowercase() {
        db::Freshness::Primary
    } else {
        state.pool.freshness_for(user.id)
    }
}
