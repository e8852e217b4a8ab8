//! `/games`: create, list, join, decline, abort, setups, moves, the
//! per-caller view, history and stream, resignation and draws. Handlers
//! parse the request (body, path, headers), call one command or query of
//! `crate::games`, and turn its typed answer or `GameError` into HTTP
//! (docs/architecture.md).
//!
//! Every endpoint needs a bearer token; anyone authenticated may watch any
//! game (a spectator's view holds only public information).

mod pictures;
mod records;
mod stream;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpRequest, HttpResponse, HttpResponseBuilder, ResponseError};
use domain::{Piece, Placement, Rescue, Square};
use serde::Serialize;
use utoipa_actix_web::service_config::ServiceConfig;
use uuid::Uuid;

use crate::error::ApiError;
use crate::games::answers::{self, GameView, MoveAnswer, MoveHistory};
use crate::games::encode::AnswerJson;
use crate::games::list::GamePage;
use crate::games::play::MoveInput;
use crate::games::requests::{
    CreateGameRequest, DrawRequest, JsonObject, ListQuery, MoveRequest, RematchRequest,
    SetupRequest, ViewQuery,
};
use crate::games::setup::SetupSource;
use crate::games::step::Precondition;
use crate::games::{self, Answered, Caller, GameError, Idempotency};
use crate::openapi::{
    GameCommandRefusals, GameConflict, GameUnprocessable, MoveRejected, SetupRejected, StaleIfMatch,
};
use crate::routes::extract::{self, OptionalJson, WaitParam};
use crate::routes::AuthUser;
use crate::state::AppState;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(create_game)
        .service(list_games)
        .service(get_game)
        .service(join_game)
        .service(decline_game)
        .service(abort_game)
        .service(place_setup)
        .service(play_move)
        .service(list_moves)
        .service(resign_game)
        .service(draw_game)
        .service(offer_rematch)
        .service(stream::stream_game)
        .service(pictures::board_svg)
        .service(pictures::board_png)
        .service(records::export_game);
}

/// Default wait of a long poll (`wait_for_version`), in seconds.
const DEFAULT_WAIT_SECONDS: u64 = 30;

fn caller(user: &AuthUser) -> Caller {
    Caller {
        id: user.id,
        name: user.username.clone(),
    }
}

/// The request's `Idempotency-Key`, with what the request looked like and
/// the status a success is answered with.
fn idempotency(
    req: &HttpRequest,
    body: &impl Serialize,
    success: StatusCode,
) -> Result<Option<Idempotency>, ApiError> {
    let Some(value) = req.headers().get("idempotency-key") else {
        return Ok(None);
    };
    let key = value.to_str().unwrap_or_default();
    let request = format!("{} {}", req.method(), req.path());
    Ok(Some(Idempotency::new(
        key,
        &request,
        body,
        success.as_u16(),
        refusal_on_the_wire,
    )?))
}

/// A command on a game named by its id alone, with no body (join,
/// decline, abort, resign): the id and the request's key.
fn id_only(
    req: &HttpRequest,
    id: web::Path<Uuid>,
    success: StatusCode,
) -> Result<(Uuid, Option<Idempotency>), ApiError> {
    Ok((id.into_inner(), idempotency(req, &(), success)?))
}

/// What a game view with its legal moves takes as JSON, with room to spare
/// (about 8 KB for a classic game in play).
const VIEW_JSON_BYTES: usize = 12 * 1024;

/// `value` as the JSON body of `response`, written into one buffer of
/// [`VIEW_JSON_BYTES`] instead of a string grown by doubling, which was
/// 6% of a move's instructions (BENCHMARKS.md, "Instructions per request"),
/// a view the fast way (`games::encode`).
fn json_body(mut response: HttpResponseBuilder, value: &impl AnswerJson) -> HttpResponse {
    let mut body = Vec::with_capacity(VIEW_JSON_BYTES);
    match value.write_json(&mut body) {
        Ok(()) => response
            .insert_header((header::CONTENT_TYPE, "application/json"))
            .body(body),
        Err(error) => ApiError::internal(error).error_response(),
    }
}

/// Sends a command's answer: a fresh one as JSON with the `ETag` of the
/// caller's view it contains, or a replayed one as it was first sent (a
/// refusal as the problem document it was).
fn respond<T: AnswerJson>(answered: Answered<T>, success: StatusCode, user: Uuid) -> HttpResponse {
    match answered {
        Answered::Written(written) => {
            let mut response = HttpResponse::build(success);
            response
                .insert_header((header::CACHE_CONTROL, "private, no-cache"))
                .insert_header((
                    header::ETAG,
                    answers::etag(written.game_id, written.version, Some(user)),
                ));
            json_body(response, &written.value)
        }
        Answered::Replayed(replayed) => {
            let status = StatusCode::from_u16(replayed.status).unwrap_or(success);
            let mut response = HttpResponse::build(status);
            if status.is_client_error() {
                response
                    .insert_header((header::CONTENT_TYPE, crate::error::PROBLEM_JSON))
                    .insert_header((header::CACHE_CONTROL, "no-store"));
            } else {
                response
                    .insert_header((header::CONTENT_TYPE, "application/json"))
                    .insert_header((header::CACHE_CONTROL, "private, no-cache"));
                if let Some((game_id, version)) = replayed.game {
                    response
                        .insert_header((header::ETAG, answers::etag(game_id, version, Some(user))));
                }
            }
            response.body(replayed.body)
        }
    }
}

/// Turns a command's result into the response (a refusal sent with an
/// `Idempotency-Key` was stored under it, as [`refusal_on_the_wire`]
/// renders it, by the command itself).
fn finish<T: AnswerJson>(
    user: Uuid,
    result: Result<Answered<T>, GameError>,
    success: StatusCode,
) -> Result<HttpResponse, ApiError> {
    Ok(respond(result?, success, user))
}

/// How a refused command reads on the wire: its status and problem
/// document, as stored under its `Idempotency-Key` and sent again to a
/// retry with the key.
fn refusal_on_the_wire(refusal: &GameError) -> (u16, String) {
    let error = ApiError::game_refusal(refusal);
    (error.status_code().as_u16(), error.body_text())
}

/// Create a game: an open seat anyone may take, or a challenge to a named user.
#[utoipa::path(
    tag = "games",
    operation_id = "create_game",
    security(("bearer" = [])),
    request_body = CreateGameRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe: the same key and body return the first answer")),
    responses(
        (status = 201, description = "The new game, as its creator sees it", body = GameView,
         headers(("ETag" = String, description = "Tag of this view"))),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = GameUnprocessable),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/games")]
pub async fn create_game(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<CreateGameRequest>>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner().into_inner();
    let idem = idempotency(&req, &body, StatusCode::CREATED)?;
    let result = games::create::create(&state.games, &caller(&user), body, idem.clone()).await;
    finish(user.id, result, StatusCode::CREATED)
}

/// List games: filter by `status`, your games (`mine`), or the games waiting
/// for you (`my_turn`, nearest deadline first); pages via `cursor`.
#[utoipa::path(
    tag = "games",
    operation_id = "list_games",
    security(("bearer" = [])),
    params(ListQuery),
    responses(
        (status = 200, description = "A page of games (public facts only)", body = GamePage),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/games")]
pub async fn list_games(
    user: AuthUser,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> Result<web::Json<GamePage>, ApiError> {
    Ok(web::Json(
        games::list::list(&state.games, user.id, query.into_inner()).await?,
    ))
}

/// The game as the caller may see it (a player's view, or a spectator's).
/// Sends an `ETag`; `If-None-Match` with it answers 304 while nothing
/// changed. `wait_for_version=n` holds the answer until the version passes
/// `n` (long polling, at most `wait` seconds).
#[utoipa::path(
    tag = "games",
    operation_id = "get_game",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
        ViewQuery,
        WaitParam<DEFAULT_WAIT_SECONDS>,
    ),
    responses(
        (status = 200, description = "The caller's view", body = GameView,
         headers(("ETag" = String, description = "Tag of this view (game, version and viewer)"))),
        (status = 304, description = "Not modified since the ETag in If-None-Match"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/games/{id}")]
pub async fn get_game(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    query: web::Query<ViewQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let wait = extract::wait(query.wait, DEFAULT_WAIT_SECONDS)?;
    if let Some(after) = query.wait_for_version {
        // Subscribe before reading, so no change can slip in between.
        let waiter = state.notifier.wait_for_game_version(id, after, wait);
        if games::view::version_of(&state.games, id).await? <= after {
            let _waiting = crate::metrics::Open::new(&crate::metrics::METRICS.long_polls);
            waiter.await;
        }
    }
    let (view, version) = games::view::view_json(&state.games, id, Some(user.id)).await?;
    let tag = answers::etag(id, version, Some(user.id));
    Ok(conditional(&req, &tag, |mut response| {
        response
            .insert_header((header::CONTENT_TYPE, "application/json"))
            .body(view)
    }))
}

/// Whether the request's `If-None-Match` names `tag`.
fn names_tag(req: &HttpRequest, tag: &str) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| answers::tag_matches(v, tag))
}

/// The answer to a GET of a representation tagged `tag`: 304 without a body
/// when `If-None-Match` names the tag, otherwise 200 with what `render`
/// writes; `Cache-Control: private, no-cache` and the `ETag` either way.
fn conditional(
    req: &HttpRequest,
    tag: &str,
    render: impl FnOnce(HttpResponseBuilder) -> HttpResponse,
) -> HttpResponse {
    let unchanged = names_tag(req, tag);
    let mut response = if unchanged {
        HttpResponse::build(StatusCode::NOT_MODIFIED)
    } else {
        HttpResponse::Ok()
    };
    response.insert_header((header::CACHE_CONTROL, "private, no-cache"));
    if let Ok(value) = HeaderValue::from_str(tag) {
        response.insert_header((header::ETAG, value));
    }
    if unchanged {
        response.finish()
    } else {
        render(response)
    }
}

/// The moves played so far, each as the caller may see it.
#[utoipa::path(
    tag = "games",
    operation_id = "list_moves",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The move history", body = MoveHistory),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/games/{id}/moves")]
pub async fn list_moves(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<web::Json<MoveHistory>, ApiError> {
    Ok(web::Json(
        games::history::history(&state.games, id.into_inner(), Some(user.id)).await?,
    ))
}

/// Take the open seat, or accept a challenge addressed to you.
#[utoipa::path(
    tag = "games",
    operation_id = "join_game",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe"),
    ),
    responses(
        (status = 200, description = "The game, now in setup", body = GameView),
        GameCommandRefusals,
    )
)]
#[post("/games/{id}/join")]
pub async fn join_game(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let (id, idem) = id_only(&req, id, StatusCode::OK)?;
    let result = games::join::join(&state.games, &caller(&user), id, idem.clone()).await;
    finish(user.id, result, StatusCode::OK)
}

/// Decline a challenge addressed to you; the game ends `aborted`.
#[utoipa::path(
    tag = "games",
    operation_id = "decline_game",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe"),
    ),
    responses(
        (status = 200, description = "The game, aborted", body = GameView),
        GameCommandRefusals,
    )
)]
#[post("/games/{id}/decline")]
pub async fn decline_game(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let (id, idem) = id_only(&req, id, StatusCode::OK)?;
    let result = games::decline::decline(&state.games, &caller(&user), id, idem.clone()).await;
    finish(user.id, result, StatusCode::OK)
}

/// Abort a game before play starts (either player; the creator cancels a
/// challenge this way).
#[utoipa::path(
    tag = "games",
    operation_id = "abort_game",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe"),
    ),
    responses(
        (status = 200, description = "The game, aborted", body = GameView),
        GameCommandRefusals,
    )
)]
#[post("/games/{id}/abort")]
pub async fn abort_game(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let (id, idem) = id_only(&req, id, StatusCode::OK)?;
    let result = games::abort::abort(&state.games, &caller(&user), id, idem.clone()).await;
    finish(user.id, result, StatusCode::OK)
}

/// Place (or replace) your secret setup: the whole army inside your own
/// zone, or `{"random": true, "seed": n}`. Play starts when both are in.
#[utoipa::path(
    tag = "games",
    operation_id = "place_setup",
    security(("bearer" = [])),
    request_body = SetupRequest,
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe"),
    ),
    responses(
        (status = 200, description = "The game; your setup is on your board", body = GameView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = GameConflict),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = SetupRejected),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/games/{id}/setup")]
pub async fn place_setup(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    body: web::Json<JsonObject<SetupRequest>>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let body = body.into_inner().into_inner();
    // A JSON object is unordered: the same placement with its squares in
    // another order is the same request for `Idempotency-Key`.
    let canonical = SetupRequest {
        placement: body.placement.as_ref().map(|placement| {
            let mut entries = placement.entries().to_vec();
            entries.sort();
            Placement::from_pairs(entries)
        }),
        ..body.clone()
    };
    let idem = idempotency(&req, &canonical, StatusCode::OK)?;
    const EITHER: &str = "send one of a placement, {\"random\": true} or {\"saved\": name}";
    let source = match (body.placement, body.random, body.seed, body.saved) {
        (Some(placement), None, None, None) => SetupSource::Placement(placement),
        (None, Some(true), seed, None) => SetupSource::Random(seed.unwrap_or_else(rand::random)),
        (None, None, None, Some(name)) => SetupSource::Saved(name),
        (None, Some(false), _, None) => {
            return Err(ApiError::validation(
                "random must be true (or send a placement)",
            ))
        }
        (None, None, None, None) => {
            return Err(ApiError::validation(format!(
                "{EITHER}, e.g. {{\"placement\": {{\"a1\": \"flag\", ...}}}}"
            )))
        }
        _ => return Err(ApiError::validation(format!("{EITHER}, not several"))),
    };
    let result =
        games::setup::place_setup(&state.games, &caller(&user), id, source, idem.clone()).await;
    finish(user.id, result, StatusCode::OK)
}

fn square(name: &str) -> Result<Square, ApiError> {
    name.parse::<Square>()
        .map_err(|e| ApiError::validation(e.to_string()))
}

/// Make a move. `expected_version` (or `If-Match` with the view's ETag)
/// refuses it if the game changed since the caller looked. Square names
/// that are not squares answer 422 `validation_failed`.
#[utoipa::path(
    tag = "games",
    operation_id = "play_move",
    security(("bearer" = [])),
    request_body = MoveRequest,
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-Match" = Option<String>, Header, description = "The ETag of the view the move was chosen on"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe"),
    ),
    responses(
        (status = 200, description = "The move as the mover sees it, and the mover's new view", body = MoveAnswer),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = GameConflict),
        (status = 412, response = StaleIfMatch),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = MoveRejected),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/games/{id}/moves")]
pub async fn play_move(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    body: web::Json<JsonObject<MoveRequest>>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let body = body.into_inner().into_inner();
    let idem = idempotency(&req, &body, StatusCode::OK)?;
    let rescue = match &body.rescue {
        None => None,
        Some(r) => Some(Rescue {
            piece: r.piece.parse::<Piece>().map_err(|_| {
                ApiError::validation(format!("rescue.piece: `{}` is not a piece name", r.piece))
            })?,
            square: square(&r.square)?,
        }),
    };
    let input = MoveInput {
        from: square(&body.from)?,
        to: square(&body.to)?,
        rescue,
    };
    let if_match = req
        .headers()
        .get(header::IF_MATCH)
        .map(|v| v.to_str().unwrap_or_default().to_owned());
    let precondition = match (body.expected_version, if_match) {
        (Some(version), _) => Some(Precondition::Version(version)),
        (None, Some(tag)) => Some(Precondition::Tag(tag)),
        (None, None) => None,
    };
    let result = games::play::play_move(
        &state.games,
        &caller(&user),
        id,
        input,
        precondition,
        idem.clone(),
    )
    .await;
    finish(user.id, result, StatusCode::OK)
}

/// Resign: the opponent wins (`resignation`).
#[utoipa::path(
    tag = "games",
    operation_id = "resign_game",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe"),
    ),
    responses(
        (status = 200, description = "The finished game", body = GameView),
        GameCommandRefusals,
    )
)]
#[post("/games/{id}/resign")]
pub async fn resign_game(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let (id, idem) = id_only(&req, id, StatusCode::OK)?;
    let result = games::resign::resign(&state.games, &caller(&user), id, idem.clone()).await;
    finish(user.id, result, StatusCode::OK)
}

/// Offer a rematch
///
/// After a finished game, either player may offer the other a new game with
/// the same variant and rules and the colors swapped: a challenge the
/// opponent joins or declines (event `rematch_offered`). One per game. The
/// time control is the finished game's unless the body (which may be left
/// out) names another.
#[utoipa::path(
    tag = "games",
    operation_id = "offer_rematch",
    security(("bearer" = [])),
    request_body(content = Option<RematchRequest>, description = "Optional: another time control"),
    params(
        ("id" = Uuid, Path, description = "The finished game"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe"),
    ),
    responses(
        (status = 201, description = "The new game, as its creator sees it", body = GameView,
         headers(("ETag" = String, description = "Tag of this view"))),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        GameCommandRefusals,
    )
)]
#[post("/games/{id}/rematch")]
pub async fn offer_rematch(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    body: OptionalJson<JsonObject<RematchRequest>>,
) -> Result<HttpResponse, ApiError> {
    let body = body.0.map(JsonObject::into_inner).unwrap_or_default();
    let idem = idempotency(&req, &body, StatusCode::CREATED)?;
    let id = id.into_inner();
    let result =
        games::rematch::rematch(&state.games, &caller(&user), id, body, idem.clone()).await;
    finish(user.id, result, StatusCode::CREATED)
}

/// Offer a draw, or accept or decline the opponent's offer (docs/rules.md: an
/// offer stands until answered or until the offerer moves).
#[utoipa::path(
    tag = "games",
    operation_id = "draw_game",
    security(("bearer" = [])),
    request_body = DrawRequest,
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe"),
    ),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = GameConflict),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = GameUnprocessable),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/games/{id}/draw")]
pub async fn draw_game(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
    body: web::Json<JsonObject<DrawRequest>>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let body = body.into_inner().into_inner();
    let idem = idempotency(&req, &body, StatusCode::OK)?;
    let result =
        games::draw::draw(&state.games, &caller(&user), id, body.action, idem.clone()).await;
    finish(user.id, result, StatusCode::OK)
}
