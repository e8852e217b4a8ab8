//! `GET /bots`: the bot opponents anyone may challenge (docs/bots.md).

use actix_web::{get, HttpResponse};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::games::bots::{self, BotList};

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list_bots);
}

/// The bots: challenge one with `"opponent": "<username>"` in `POST /games`.
///
/// Needs no token. A bot accepts a challenge at once, in every variant and
/// ruleset, places its setup, answers each move within a few seconds and
/// answers draw offers. The answer only changes with a new server version.
#[utoipa::path(
    tag = "games",
    operation_id = "list_bots",
    responses(
        (status = 200, description = "Every bot, weakest first", body = BotList),
    )
)]
#[get("/bots")]
pub async fn list_bots() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .json(bots::list())
}
