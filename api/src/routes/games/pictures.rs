//! `/games/{id}/board.svg` and `board.png`: the board as a picture, drawn
//! from the caller's view (docs/pictures-and-records.md).

use actix_web::http::header;
use actix_web::{get, web, HttpRequest, HttpResponse};
use domain::Color;
use uuid::Uuid;

use crate::error::ApiError;
use crate::games::answers::GameView;
use crate::games::requests::{PictureQuery, PngQuery};
use crate::games::{self, answers, picture, raster};
use crate::routes::AuthUser;
use crate::state::AppState;

/// The caller's view of game `id`, the side to draw at the bottom, and the
/// `ETag` of the picture of that `kind` (`svg`, `png@2`) from that side.
async fn seen(
    state: &AppState,
    id: Uuid,
    user: &AuthUser,
    orientation: Option<Color>,
    kind: &str,
) -> Result<(GameView, Color, String), ApiError> {
    let (view, version) = games::view::view(&state.games, id, Some(user.id)).await?;
    let bottom = orientation.unwrap_or_else(|| picture::default_bottom(&view));
    let representation = format!("{kind}:{}", bottom.name());
    let tag = answers::representation_etag(id, version, Some(user.id), &representation);
    Ok((view, bottom, tag))
}

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
    let (view, bottom, tag) =
        seen(&state, id.into_inner(), &user, query.orientation, "svg").await?;
    Ok(super::conditional(&req, &tag, |mut response| {
        response
            .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
            .body(picture::board_svg(&view, bottom))
    }))
}

/// The same picture as a PNG, rasterized on the server, for clients that
/// cannot show SVG (chat and mail previews). `scale` sets the pixels per
/// picture unit (0.25 to 4; at 1 the PNG is 900 by 712 pixels).
#[utoipa::path(
    tag = "games",
    operation_id = "get_board_png",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
        PngQuery,
    ),
    responses(
        (status = 200, description = "The board as the caller may see it",
         content_type = "image/png", body = inline(crate::games::docs::PngImage),
         headers(("ETag" = String, description = "Tag of this picture (game, version, viewer, orientation and scale)"))),
        (status = 304, description = "Not modified since the ETag in If-None-Match"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/games/{id}/board.png")]
pub async fn board_png(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    query: web::Query<PngQuery>,
) -> Result<HttpResponse, ApiError> {
    let scale = query.scale.unwrap_or(1.0);
    if !raster::SCALES.contains(&scale) {
        return Err(ApiError::bad_request(format!(
            "query parameter `scale`: {scale} is not accepted; expected 0.25 to 4"
        )));
    }
    let kind = format!("png@{scale}");
    let (view, bottom, tag) =
        seen(&state, id.into_inner(), &user, query.orientation, &kind).await?;
    if super::names_tag(&req, &tag) {
        return Ok(super::conditional(&req, &tag, |mut r| r.finish()));
    }
    // Rasterizing takes milliseconds of CPU: off the async workers.
    let svg = picture::board_svg(&view, bottom);
    let png = web::block(move || raster::png(&svg, scale))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    Ok(super::conditional(&req, &tag, |mut response| {
        response
            .insert_header((header::CONTENT_TYPE, "image/png"))
            .body(png)
    }))
}
