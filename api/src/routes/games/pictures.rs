//! `/games/{id}/board.svg`: the board as a picture, drawn from the caller's
//! view (docs/pictures-and-records.md).

use actix_web::http::header;
use actix_web::{get, web, HttpRequest, HttpResponse};
use uuid::Uuid;

use crate::error::ApiError;
use crate::games::requests::PictureQuery;
use crate::games::{self, answers, picture};
use crate::routes::AuthUser;
use crate::state::AppState;

/// The board as the caller may see it, as SVG: hidden ranks are blank backs
/// in their owner's color; own and revealed pieces carry their name and both
/// numberings; the last move and battle are marked, the captured pieces
/// listed beside the board. The caller's side is at the bottom unless
/// `orientation` says otherwise. `ETag` / `If-None-Match` as for the view.
#[utoipa::path(
    tag = "games",
    operation_id = "get_board_svg",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
        PictureQuery,
    ),
    responses(
        (status = 200, description = "The board as the caller may see it",
         content_type = "image/svg+xml", body = String,
         headers(("ETag" = String, description = "Tag of this picture (game, version, viewer and orientation)"))),
        (status = 304, description = "Not modified since the ETag in If-None-Match"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/games/{id}/board.svg")]
pub async fn board_svg(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let (view, version) = games::view::view(&state.games, id, Some(user.id)).await?;
    let bottom = query
        .orientation
        .unwrap_or_else(|| picture::default_bottom(&view));
    let tag = answers::representation_etag(
        id,
        version,
        Some(user.id),
        &format!("svg:{}", bottom.name()),
    );
    Ok(super::conditional(&req, &tag, |mut response| {
        response
            .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
            .body(picture::board_svg(&view, bottom))
    }))
}
