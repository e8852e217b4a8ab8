//! The OpenAPI description: document-wide parts (info, security scheme,
//! problem schema, shared error responses). Paths are collected from the
//! route registrations themselves (utoipa-actix-web), so a route cannot be
//! served without being described.
//!
//! This file holds the document itself and its final assembly ([`finish`]);
//! the parts it is made of live beside it: `problems` (the problem schema
//! and the shared error responses), `unions` (unions as discriminated
//! `oneOf`s of named schemas), `operations` (what each operation gets:
//! summaries, headers, 400 examples, stream frames), `links` (where an
//! answer leads next), `examples` (written examples of the main answers)
//! and `yaml` (the document as committed).

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::error::{ApiError, ProblemKind};

mod examples;
mod flatten;
mod links;
mod operations;
mod problems;
mod unions;
mod webhooks;
mod yaml;

pub use problems::{
    problem_response, BadRequest, Forbidden, GameCommandRefusals, GameConflict, GameUnprocessable,
    InternalError, MoveRejected, NotFound, PayloadTooLarge, ProblemDocument, ServiceUnavailable,
    SetupNameTaken, SetupRejected, StaleIfMatch, TooManyRequests, TooManyStreams,
    TournamentConflict, Unauthorized, UnprocessableEntity, UnsupportedMediaType, UserNotFound,
    UsernameTaken, VacationBusy, VacationRefused, WrongPassword,
};
pub use yaml::openapi_yaml;

/// Name of the bearer security scheme; handlers say `security(("bearer" = []))`.
pub const BEARER: &str = "bearer";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Stratego by correspondence",
        description = "Play Stratego by correspondence: accounts, games, secret setups and moves, \
                       with every view filtered for its viewer.\n\n\
## Play your first game\n\n\
1. `POST /api/v1/auth/register` with `{\"username\": \"ann\", \"password\": \"correct horse\"}`; \
keep `access_token` and send it as `Authorization: Bearer <token>` (in Swagger UI: \
*Authorize*). A second user registers the same way.\n\
2. Ann: `POST /api/v1/games` with `{\"variant\": \"duel\", \"opponent\": \"bo\"}` (or no \
`opponent` for an open seat). `GET /api/v1/variants` lists the armies and setup zones. \
Nobody to play with? Challenge a bot instead (`\"opponent\": \"bot-tactician\"`, or \
`bot-random`; `GET /api/v1/bots` lists them): it accepts \
at once (step 3) and places its own setup, then answers every move within seconds.\n\
3. Bo: `POST /api/v1/games/{id}/join`.\n\
4. Each player: `POST /api/v1/games/{id}/setup` with `{\"random\": true}` (or a `placement`).\n\
5. The player whose view has `legal_moves` moves: `POST /api/v1/games/{id}/moves` with \
`{\"from\": \"b4\", \"to\": \"b5\", \"expected_version\": <version of the view>}`.\n\
6. Wait for the opponent with `GET /api/v1/events?after=<last_id>&wait=60`, or \
`GET /api/v1/games/{id}?wait_for_version=<version>`, then move again until `result` is set.\n\n\
Or play in the browser: the reference web client at [/play/](/play/) uses this API only \
(docs/web-client.md).",
        license(name = "MIT"),
    ),
    modifiers(&BearerScheme, &ProblemTypes),
    components(
        schemas(
            ProblemDocument,
            crate::games::docs::SetupProblemDoc,
            crate::notifications::notice::Notice
        ),
        responses(
            BadRequest, Unauthorized, Forbidden, WrongPassword, NotFound, UnprocessableEntity,
            PayloadTooLarge, UnsupportedMediaType, TooManyRequests, UsernameTaken, SetupNameTaken,
            ServiceUnavailable, InternalError,
            TooManyStreams, GameConflict, MoveRejected, SetupRejected, GameUnprocessable,
            StaleIfMatch, UserNotFound, VacationRefused, VacationBusy, TournamentConflict
        )
    ),
    tags(
        (name = "accounts", description = "Registration, login, tokens and sessions; \
            changing the password, logging out everywhere, deleting the account"),
        (name = "games", description = "Games: create or join, place a secret setup, move, \
            resign or agree a draw. Every view is computed for its caller (player or spectator) \
            and never holds a rank the caller may not know."),
        (name = "setups", description = "Your setup library: named setups per variant, \
            saved once and used in any game (`{\"saved\": name}`), on either side. Only you see \
            them."),
        (name = "events", description = "Notifications: the durable per-user event feed by \
            long polling or Server-Sent Events, and live game streams. Event ids increase by \
            one per recipient; resume with `after` / `Last-Event-ID`."),
        (name = "notifications", description = "Reaching you outside the app: signed \
            webhooks to your own backend, Web Push to your browsers, and per event the \
            channels it goes to. Deliveries are made after the change, never inside a request, \
            and never carry a rank."),
        (name = "players", description = "Ratings (Glicko-2, one per variant), the leaderboard \
            and public profiles: join date, ratings over time, finished and current games"),
        (name = "tournaments", description = "Round robins and Swiss tournaments: create \
            one, join it, start it; its games are ordinary games, paired round by round, \
            with standings and tie-breaks"),
        (name = "operations", description = "Health and readiness probes"),
    )
)]
pub struct ApiDoc;

/// Adds the bearer security scheme.
struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "The `access_token` of `POST /api/v1/auth/login` (or `/register`, \
                         `/refresh`), pasted as is: Swagger UI puts `Bearer ` in front. \
                         It lasts 15 minutes by default (ACCESS_TOKEN_TTL_SECONDS); after \
                         a 401, log in or refresh again.",
                    ))
                    .build(),
            ),
        );
    }
}

/// Appends the table of problem types (the `type` URIs) to the description.
struct ProblemTypes;

impl Modify for ProblemTypes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let mut text = String::from(
            "\n\nErrors are RFC 9457 `application/problem+json` documents (schema `Problem`) \
             with a stable `code`:\n\n| type | code | status | title |\n|---|---|---|---|\n",
        );
        for kind in ProblemKind::ALL {
            let status = match kind {
                ProblemKind::ValidationFailed => "400, 422".to_owned(),
                ProblemKind::VersionConflict => "409, 412".to_owned(),
                other => other.status().as_u16().to_string(),
            };
            text.push_str(&format!(
                "| `{}` | `{}` | {} | {} |\n",
                kind.type_uri(),
                kind.code(),
                status,
                kind.title()
            ));
        }
        let description = openapi.info.description.get_or_insert_with(String::new);
        description.push_str(&text);
    }
}

/// Final touches on the generated document, for what the derive macros
/// cannot say: unions as `oneOf` of named schemas with a `discriminator`
/// (so that client generators give every variant a type of its own).
/// Applied to the document exactly as it is served and committed.
/// The 400 problem an operation (by id) can really get, if it is not the
/// generic unreadable-body one (given by the routes, which know them).
pub type BadRequestExamples = fn(&str) -> Option<ApiError>;
/// The schema of a header parameter (by name), where its type alone does
/// not say what the server takes (given by the routes).
pub type HeaderSchemas = fn(&str) -> Option<serde_json::Value>;

pub fn finish(
    doc: utoipa::openapi::OpenApi,
    bad_request_example: BadRequestExamples,
    header_schema: HeaderSchemas,
) -> utoipa::openapi::OpenApi {
    let mut value = match serde_json::to_value(&doc) {
        Ok(value) => value,
        Err(error) => {
            tracing::error!(%error, "cannot finish the OpenAPI document");
            return doc;
        }
    };
    if let Some(schemas) = value
        .pointer_mut("/components/schemas")
        .and_then(serde_json::Value::as_object_mut)
    {
        flatten::inline(schemas, "GameHeader");
        unions::event_union(schemas);
        unions::split_union(schemas, "SetupProblem", "problem", "SetupProblem");
        unions::split_union(schemas, "TimeControl", "type", "TimeControl");
        unions::close_variants(schemas, "TimeControl");
        problems::problem_schemas(schemas);
        unions::setup_request(schemas);
        unions::closed_strings(schemas);
        examples::add(schemas);
        unions::title_union_members(schemas);
    }
    operations::operations(&mut value, bad_request_example);
    operations::response_headers(&mut value);
    links::links(&mut value);
    operations::header_parameters(&mut value, header_schema);
    webhooks::add(&mut value);
    match serde_json::from_value::<utoipa::openapi::OpenApi>(value) {
        Ok(mut finished) => {
            // A JSON value sorts its keys: give the paths back the order the
            // routes registered them in, which Swagger UI lists them in.
            let registered: Vec<&String> = doc.paths.paths.keys().collect();
            let rank = |path: &String| registered.iter().position(|p| *p == path);
            finished
                .paths
                .paths
                .sort_by(|a, _, b, _| rank(a).cmp(&rank(b)));
            finished
        }
        Err(error) => {
            tracing::error!(%error, "cannot finish the OpenAPI document");
            doc
        }
    }
}

type Schemas = serde_json::Map<String, serde_json::Value>;

fn schema_ref(name: &str) -> String {
    format!("#/components/schemas/{name}")
}
