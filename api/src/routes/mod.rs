//! Every endpoint, registered through utoipa-actix-web so that each one is
//! in the OpenAPI document. One module per resource.
//!
//! To add a resource: write `routes/<name>.rs` with handlers carrying both
//! `#[utoipa::path(...)]` and an actix method macro, plus a
//! `pub fn configure(cfg: &mut ServiceConfig)` that calls `cfg.service(..)`
//! for each handler; then add `pub mod <name>;` below and one
//! `.configure(<name>::configure)` line in [`api_v1`].

pub mod auth;
pub mod auth_user;
pub mod body;
pub mod bots;
pub mod events;
pub mod extract;
pub mod games;
pub mod health;
pub mod me;
pub mod metrics;
pub mod notifications;
pub mod players;
pub mod problems;
pub mod setups;
pub mod tournaments;
pub mod vacation;
pub mod variants;

pub use auth_user::AuthUser;

use utoipa_actix_web::service_config::ServiceConfig;

/// Prefix of every API path.
pub const API_PREFIX: &str = "/api/v1";

/// Registers every documented route.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.configure(health::configure);
    cfg.configure(problems::configure);
    cfg.service(utoipa_actix_web::scope(API_PREFIX).configure(api_v1));
}

/// Routes under `/api/v1`.
///
/// The order is the one Swagger UI lists them in within each tag: that of
/// a first game (register, log in, look at the variants and the bots,
/// create, join, set up, move ...).
fn api_v1(cfg: &mut ServiceConfig) {
    cfg.configure(auth::configure);
    cfg.configure(me::configure);
    cfg.configure(vacation::configure);
    cfg.configure(setups::configure);
    cfg.configure(notifications::configure);
    cfg.configure(events::configure);
    cfg.configure(variants::configure);
    cfg.configure(bots::configure);
    cfg.configure(games::configure);
    cfg.configure(players::configure);
    cfg.configure(tournaments::configure);
}

/// The 400 example each operation can really get (none reads a JSON body
/// but the POSTs that take one, which keep the generic example).
pub fn bad_request_example(operation: &str) -> Option<crate::error::ApiError> {
    let last_event_id = "Last-Event-ID must be an event id (a whole number, 0 or more)";
    match operation {
        "get_game" | "list_events" => extract::wait(Some(90), 0).err(),
        "list_games" => Some(crate::error::ApiError::bad_request(format!(
            "limit must be between 1 and {}",
            crate::games::list::MAX_PAGE
        ))),
        "get_leaderboard" => Some(crate::error::ApiError::bad_request(format!(
            "limit must be between 1 and {}",
            crate::players::leaderboard::MAX_PAGE
        ))),
        "list_user_ratings" | "list_user_games" => Some(crate::error::ApiError::bad_request(
            "cursor is not a next_cursor of this listing",
        )),
        "stream_events" | "stream_game" => Some(crate::error::ApiError::bad_request(last_event_id)),
        "list_moves" => Some(crate::error::ApiError::bad_request(
            "game id `42` is not a UUID",
        )),
        "join_game" | "decline_game" | "abort_game" | "resign_game" => {
            Some(crate::error::ApiError::bad_request(format!(
                "Idempotency-Key must be 1 to {} visible ASCII characters",
                crate::games::written::IDEMPOTENCY_KEY_MAX
            )))
        }
        _ => None,
    }
}

/// What a header parameter's value must be where its type alone does not
/// say it (the document is finished with these): the server refuses any
/// other value with 400 `validation_failed`.
pub fn header_schema(name: &str) -> Option<serde_json::Value> {
    let key_max = crate::games::written::IDEMPOTENCY_KEY_MAX;
    match name {
        // Visible ASCII, spaces only inside (the server trims the ends).
        "Idempotency-Key" => Some(serde_json::json!({
            "type": "string",
            "minLength": 1,
            "maxLength": key_max,
            "pattern": format!("^[!-~]([ -~]{{0,{}}}[!-~])?$", key_max - 2),
        })),
        "Last-Event-ID" => Some(serde_json::json!({
            "type": "integer",
            "format": "int64",
            "minimum": 0,
        })),
        _ => None,
    }
}
