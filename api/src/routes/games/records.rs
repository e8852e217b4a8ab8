//! `/games/{id}/export`: the game record as the caller may know it, as our
//! JSON or as Gravon XML (docs/pictures-and-records.md).

use actix_web::http::header;
use actix_web::{get, web, HttpRequest, HttpResponse};
use uuid::Uuid;

use crate::error::ApiError;
use crate::games::export::{self, ExportFormat, GameExport};
use crate::games::requests::ExportQuery;
use crate::games::{self, answers};
use crate::routes::AuthUser;
use crate::state::AppState;

/// The game record as the caller may know it: players, setups (as
/// 100-character board strings), every move with its battle, and the
/// result; everything once the game is over. `format=gravon` answers the
/// Gravon archive's XML instead, which other Stratego programs read. Sent
/// as an attachment; `ETag` / `If-None-Match` as for the view.
#[utoipa::path(
    tag = "games",
    operation_id = "export_game",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
        ExportQuery,
    ),
    responses(
        (status = 200, description = "The record: JSON (`format=json`) or Gravon XML (`format=gravon`)",
         content(
             (GameExport = "application/json"),
             (String = "application/xml"),
         ),
         headers(
             ("ETag" = String, description = "Tag of this record (game, version, viewer and format)"),
             ("Content-Disposition" = String, description = "attachment; filename=\"stratego-<id>.json\" (or .xml)"),
         )),
        (status = 304, description = "Not modified since the ETag in If-None-Match"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/games/{id}/export")]
pub async fn export_game(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let format = query.format.unwrap_or_default();
    let record = games::export::export(&state.games, id, Some(user.id)).await?;
    let tag = answers::representation_etag(
        id,
        record.header.version,
        Some(user.id),
        &format!("export:{}", format.name()),
    );
    let (content_type, extension) = match format {
        ExportFormat::Json => ("application/json", "json"),
        ExportFormat::Gravon => ("application/xml", "xml"),
    };
    Ok(super::conditional(&req, &tag, |mut response| {
        response
            .insert_header((header::CONTENT_TYPE, content_type))
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"stratego-{id}.{extension}\""),
            ));
        match format {
            ExportFormat::Json => response.json(&record),
            ExportFormat::Gravon => response.body(export::gravon(&record)),
        }
    }))
}
