//! The caller's setup library: `/me/setups` (docs/setups.md).

use actix_web::{delete, get, post, put, web, HttpResponse};
use domain::{Color, Placement, Variant};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;
use uuid::Uuid;

use crate::error::ApiError;
use crate::games::docs::{ColorDoc, PieceDoc, SquareDoc, VariantDoc};
use crate::games::library::{self, NewSetup, SavedSetup};
use crate::games::requests::JsonObject;
use crate::routes::AuthUser;
use crate::state::AppState;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(save_setup)
        .service(list_setups)
        .service(get_setup)
        .service(replace_setup)
        .service(delete_setup);
}

/// A setup to save: its name, variant and placement.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "fortress", "variant": "duel", "placement": {
    "a1": "flag", "b1": "bomb", "c1": "bomb", "d1": "spy", "e1": "scout", "f1": "scout",
    "g1": "miner", "h1": "miner", "i1": "general", "j1": "marshal"}}))]
pub struct SetupToSave {
    /// 1-40 characters; unique among your setups of the variant
    #[schema(min_length = 1, max_length = 40)]
    pub name: String,
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    /// The side the placement is written for (default `red`: ranks 1-4, or
    /// 1-3 in duel); it is stored as for Red either way
    #[serde(default)]
    #[schema(value_type = Option<ColorDoc>)]
    pub color: Option<Color>,
    /// Your whole army by square, validated exactly like a game setup
    #[schema(value_type = std::collections::HashMap<SquareDoc, PieceDoc>)]
    pub placement: Placement,
}

impl From<SetupToSave> for NewSetup {
    fn from(s: SetupToSave) -> Self {
        Self {
            name: s.name,
            variant: s.variant,
            color: s.color.unwrap_or(Color::Red),
            placement: s.placement,
        }
    }
}

/// Your saved setups.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"setups": [{"id": "0b8e4c1a-3f6d-4e7a-9c2b-5d1e8f7a6b40",
    "name": "fortress", "variant": "duel", "placement": {"a1": "flag", "b1": "bomb",
    "c1": "bomb", "d1": "spy", "e1": "scout", "f1": "scout", "g1": "miner", "h1": "miner",
    "i1": "general", "j1": "marshal"},
    "created_at": "2026-11-30T10:00:00Z", "updated_at": "2026-11-30T10:00:00Z"}]}))]
pub struct SetupList {
    pub setups: Vec<SavedSetup>,
}

/// Which setups to list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SetupQuery {
    /// Only setups of this variant
    #[param(value_type = Option<VariantDoc>)]
    pub variant: Option<Variant>,
}

/// Save a setup
///
/// Validated like a game setup (every problem at once, as `invalid_setup`).
/// At most 50 setups per user. Only you ever see your setups; use one in a
/// game with `POST /games/{id}/setup {"saved": "<name>"}`.
#[utoipa::path(
    tag = "setups",
    operation_id = "save_setup",
    security(("bearer" = [])),
    request_body = SetupToSave,
    responses(
        (status = 201, description = "Saved", body = SavedSetup),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 409, response = crate::openapi::SetupNameTaken),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::SetupRejected),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/me/setups")]
pub async fn save_setup(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<SetupToSave>>,
) -> Result<HttpResponse, ApiError> {
    let new = body.into_inner().into_inner().into();
    let saved = library::save(&state.pool, user.id, new, state.clock.now()).await?;
    Ok(HttpResponse::Created().json(saved))
}

/// Your saved setups
///
/// Ordered by variant and name.
#[utoipa::path(
    tag = "setups",
    operation_id = "list_setups",
    security(("bearer" = [])),
    params(SetupQuery),
    responses(
        (status = 200, description = "Your setups", body = SetupList),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me/setups")]
pub async fn list_setups(
    user: AuthUser,
    state: web::Data<AppState>,
    query: web::Query<SetupQuery>,
) -> Result<web::Json<SetupList>, ApiError> {
    let setups = library::list(&state.pool, user.id, query.variant).await?;
    Ok(web::Json(SetupList { setups }))
}

/// One of your saved setups
///
/// Someone else's setup is `not_found`, like one that does not exist.
#[utoipa::path(
    tag = "setups",
    operation_id = "get_setup",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The setup's id")),
    responses(
        (status = 200, description = "The setup", body = SavedSetup),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me/setups/{id}")]
pub async fn get_setup(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<web::Json<SavedSetup>, ApiError> {
    Ok(web::Json(
        library::get(&state.pool, user.id, id.into_inner()).await?,
    ))
}

/// Replace a saved setup
///
/// Its name, variant and placement, validated as when saving.
#[utoipa::path(
    tag = "setups",
    operation_id = "replace_setup",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The setup's id")),
    request_body = SetupToSave,
    responses(
        (status = 200, description = "Replaced", body = SavedSetup),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = crate::openapi::SetupNameTaken),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::SetupRejected),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[put("/me/setups/{id}")]
pub async fn replace_setup(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    body: web::Json<JsonObject<SetupToSave>>,
) -> Result<web::Json<SavedSetup>, ApiError> {
    let new = body.into_inner().into_inner().into();
    let now = state.clock.now();
    Ok(web::Json(
        library::replace(&state.pool, user.id, id.into_inner(), new, now).await?,
    ))
}

/// Delete a saved setup
///
/// Games that used it keep their setups.
#[utoipa::path(
    tag = "setups",
    operation_id = "delete_setup",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The setup's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[delete("/me/setups/{id}")]
pub async fn delete_setup(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    library::delete(&state.pool, user.id, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
