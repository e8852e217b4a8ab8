//! The OpenAPI description: document-wide parts (info, security scheme,
//! problem schema, shared error responses). Paths are collected from the
//! route registrations themselves (utoipa-actix-web), so a route cannot be
//! served without being described.

use serde::Serialize;
use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{Modify, OpenApi, ToSchema};

use crate::error::{ApiError, ProblemKind, PROBLEM_JSON};

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
`GET /api/v1/games/{id}?wait_for_version=<version>`, then move again until `result` is set.",
        license(name = "MIT"),
    ),
    modifiers(&BearerScheme, &ProblemTypes),
    components(
        schemas(ProblemDocument, crate::games::docs::SetupProblemDoc),
        responses(
            BadRequest, Unauthorized, Forbidden, WrongPassword, NotFound, UnprocessableEntity,
            PayloadTooLarge, UnsupportedMediaType, TooManyRequests, UsernameTaken, SetupNameTaken,
            ServiceUnavailable, InternalError,
            TooManyStreams, GameConflict, MoveRejected, SetupRejected, GameUnprocessable,
            StaleIfMatch, UserNotFound
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
        (name = "players", description = "Ratings (Glicko-2, one per variant), the leaderboard \
            and public profiles: join date, ratings over time, finished and current games"),
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

/// An RFC 9457 problem document. Some problems add extension members
/// (e.g. `retry_after`, or a list of setup problems).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Problem, example = json!({
    "type": "/problems/illegal-move", "title": "Illegal move", "status": 422,
    "detail": "a scout cannot pass through the lake at d5", "code": "illegal_move"}))]
pub struct ProblemDocument {
    /// URI reference naming the problem kind, e.g. `/problems/not-found`
    #[serde(rename = "type")]
    pub type_uri: String,
    /// Short summary of the problem kind
    pub title: String,
    /// The HTTP status code
    pub status: u16,
    /// What went wrong with this request
    pub detail: String,
    /// Stable machine-readable code
    #[schema(schema_with = problem_code_schema)]
    pub code: String,
}

fn problem_code_schema() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(ProblemKind::ALL.iter().map(|k| k.code())))
}

/// Describes one error response: its status text, the problem schema and an
/// example body exactly as the server would send it.
pub fn problem_response(
    kind: ProblemKind,
    status: u16,
    description: &str,
    example_detail: &str,
) -> RefOr<Response> {
    let status_code =
        actix_web::http::StatusCode::from_u16(status).unwrap_or_else(|_| kind.status());
    let example = example_extensions(ApiError::new(kind, example_detail), kind, status)
        .with_status(status_code)
        .body();
    let mut builder = ResponseBuilder::new().description(description).content(
        PROBLEM_JSON,
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name(problem_schema(kind, status))))
            .example(Some(example))
            .build(),
    );
    match kind {
        ProblemKind::RateLimited
        | ProblemKind::TooManyStreams
        | ProblemKind::ServiceUnavailable => {
            builder = builder.header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(Some(Schema::Object(
                        ObjectBuilder::new().schema_type(Type::Integer).build(),
                    )))
                    .description(Some("Seconds to wait before trying again"))
                    .build(),
            );
        }
        ProblemKind::Unauthorized => {
            builder = builder.header(
                "WWW-Authenticate",
                HeaderBuilder::new()
                    .schema(Some(Schema::Object(
                        ObjectBuilder::new().schema_type(Type::String).build(),
                    )))
                    .description(Some("`Bearer`, or `Bearer error=\"invalid_token\"`"))
                    .build(),
            );
        }
        _ => {}
    }
    builder.build().into()
}

/// The schema of an error response: `Problem`, or a problem with the typed
/// extension members that kind carries.
fn problem_schema(kind: ProblemKind, status: u16) -> &'static str {
    match (kind, status) {
        (
            ProblemKind::IllegalMove
            | ProblemKind::TwoSquareRule
            | ProblemKind::MoreSquaresRule
            | ProblemKind::NotYourTurn
            | ProblemKind::WrongPhase,
            _,
        ) => "MoveRefusal",
        (ProblemKind::InvalidSetup, _) => "SetupRefusal",
        (ProblemKind::ValidationFailed, 422) => "ValidationProblem",
        (ProblemKind::RateLimited, _) => "RateLimitedProblem",
        (ProblemKind::TooManyStreams, _) => "TooManyStreamsProblem",
        _ => "Problem",
    }
}

/// The extension members of an example, as the server sends them.
fn example_extensions(error: ApiError, kind: ProblemKind, status: u16) -> ApiError {
    match (kind, status) {
        (ProblemKind::IllegalMove, _) => error.with_extension("reason", "through_lake"),
        (ProblemKind::InvalidSetup, _) => error.with_extension(
            "problems",
            serde_json::json!([{"problem": "outside_zone", "square": "a5"},
                {"problem": "wrong_count", "piece": "scout", "expected": 8, "found": 7}]),
        ),
        (ProblemKind::RateLimited, _) => error.with_extension("retry_after", 42),
        (ProblemKind::TooManyStreams, _) => error
            .with_extension("max_streams", 5)
            .with_extension("retry_after", 15),
        _ => error,
    }
}

/// Declares a reusable error response for `#[utoipa::path(responses(...))]`:
/// `(status = 409, response = crate::openapi::UsernameTaken)`. Register each
/// one in `ApiDoc`'s `components(responses(...))`.
#[macro_export]
macro_rules! problem_response {
    ($(#[$meta:meta])* $name:ident, $kind:expr, $status:literal, $description:literal, $example:literal) => {
        $(#[$meta])*
        pub struct $name;

        impl<'r> utoipa::ToResponse<'r> for $name {
            fn response() -> (&'r str, utoipa::openapi::RefOr<utoipa::openapi::response::Response>) {
                (
                    stringify!($name),
                    $crate::openapi::problem_response($kind, $status, $description, $example),
                )
            }
        }
    };
}

problem_response!(
    BadRequest,
    ProblemKind::ValidationFailed,
    400,
    "The request cannot be read: malformed JSON, a wrong type, or a bad parameter",
    "the body is not valid JSON: EOF while parsing an object at line 1 column 12"
);
problem_response!(
    Unauthorized,
    ProblemKind::Unauthorized,
    401,
    "Missing, malformed, expired or otherwise invalid credentials",
    "the access token has expired"
);
problem_response!(
    Forbidden,
    ProblemKind::Forbidden,
    403,
    "Authenticated, but not allowed to do this",
    "only the players of this game may do that"
);
problem_response!(
    WrongPassword,
    ProblemKind::Forbidden,
    403,
    "The password given to confirm the change is wrong",
    "the password is wrong"
);
problem_response!(
    SetupNameTaken,
    ProblemKind::SetupNameTaken,
    409,
    "You already have a saved setup of this name for this variant",
    "you already have a saved duel setup named \"fortress\""
);
problem_response!(
    NotFound,
    ProblemKind::NotFound,
    404,
    "No such resource",
    "no such game"
);
problem_response!(
    UserNotFound,
    ProblemKind::NotFound,
    404,
    "No live account has this username (a deleted account has no profile)",
    "no user is named ann"
);
problem_response!(
    UnprocessableEntity,
    ProblemKind::ValidationFailed,
    422,
    "The request is well-formed but a value is out of range or unknown fields are present",
    "username must be 3 to 32 characters of A-Z, a-z, 0-9, _ and -"
);
problem_response!(
    PayloadTooLarge,
    ProblemKind::PayloadTooLarge,
    413,
    "The request body is larger than the server accepts",
    "the request body exceeds 65536 bytes"
);
problem_response!(
    UnsupportedMediaType,
    ProblemKind::UnsupportedMediaType,
    415,
    "The body must be sent as application/json",
    "the request body must be application/json"
);
problem_response!(
    TooManyRequests,
    ProblemKind::RateLimited,
    429,
    "Too many attempts; wait as long as Retry-After says",
    "too many attempts; retry in 42 seconds"
);
problem_response!(
    UsernameTaken,
    ProblemKind::UsernameTaken,
    409,
    "The username is already registered (names are unique regardless of case)",
    "this username is already taken"
);
problem_response!(
    ServiceUnavailable,
    ProblemKind::ServiceUnavailable,
    503,
    "The database is unreachable; try again shortly",
    "the database is unavailable; try again shortly"
);
problem_response!(
    InternalError,
    ProblemKind::InternalError,
    500,
    "An unexpected server error (details are only in the server log)",
    "the server failed to handle this request"
);
problem_response!(
    TooManyStreams,
    ProblemKind::TooManyStreams,
    429,
    "The caller already has the maximum number of open streams on this server \
     (MAX_STREAMS_PER_USER, default 5); close one, then retry after Retry-After \
     seconds",
    "at most 5 streams may be open at once; close one first"
);

/// The answers every command on one game named by its id shares besides
/// its success (join, decline, abort, resign, rematch): listed once, used
/// as `responses((status = 200, ...), GameCommandRefusals)`.
pub struct GameCommandRefusals;

impl utoipa::IntoResponses for GameCommandRefusals {
    fn responses() -> std::collections::BTreeMap<String, RefOr<Response>> {
        fn named<T: utoipa::ToResponse<'static>>(status: u16) -> (String, RefOr<Response>) {
            let name = T::response().0;
            (
                status.to_string(),
                RefOr::Ref(Ref::from_response_name(name)),
            )
        }
        [
            named::<BadRequest>(400),
            named::<Unauthorized>(401),
            named::<Forbidden>(403),
            named::<NotFound>(404),
            named::<GameConflict>(409),
            named::<GameUnprocessable>(422),
            named::<ServiceUnavailable>(503),
        ]
        .into_iter()
        .collect()
    }
}

problem_response!(
    GameConflict,
    ProblemKind::WrongPhase,
    409,
    "Not possible now: `wrong_phase` (e.g. a move before play starts or after it ended, \
     a draw answer without an offer, joining a full game), `not_your_turn`, or \
     `version_conflict` (a stale `expected_version`)",
    "play has not started yet"
);
problem_response!(
    MoveRejected,
    ProblemKind::IllegalMove,
    422,
    "The move breaks a rule: `illegal_move`, `two_square_rule` or `more_squares_rule` \
     (with `since_ply`: where the position it would bring back stood); or `validation_failed` \
     (a bad square or piece name), or `idempotency_key_reused`",
    "a scout cannot pass through the lake at d5"
);
problem_response!(
    SetupRejected,
    ProblemKind::InvalidSetup,
    422,
    "`invalid_setup`: the setup is refused as a whole; the `problems` member lists every \
     problem (`unknown_piece`, `bad_square`, `outside_zone`, `lake`, `duplicate_square`, \
     `wrong_count`). Also `validation_failed` for a body that is neither a placement nor \
     a random request, or `idempotency_key_reused`",
    "the setup has 2 problems: a5 is outside your setup zone; the army has 8 scout piece(s), \
     the setup has 7"
);
problem_response!(
    GameUnprocessable,
    ProblemKind::ValidationFailed,
    422,
    "`validation_failed` (a value out of range, an unknown user or field) or \
     `idempotency_key_reused` (the same Idempotency-Key with another request)",
    "days_per_move must be between 1 and 14, not 30"
);
problem_response!(
    StaleIfMatch,
    ProblemKind::VersionConflict,
    412,
    "`version_conflict`: `If-Match` does not carry the current ETag of the game",
    "If-Match does not name the current version of the game; reload it"
);

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
        event_union(schemas);
        split_union(schemas, "SetupProblem", "problem", "SetupProblem");
        problem_schemas(schemas);
        setup_request(schemas);
        closed_strings(schemas);
        examples::add(schemas);
        title_union_members(schemas);
    }
    operations(&mut value, bad_request_example);
    response_headers(&mut value);
    links(&mut value);
    header_parameters(&mut value, header_schema);
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

/// `snake_case` to `PascalCase`.
fn pascal(tag: &str) -> String {
    tag.split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// A `oneOf` of `refs`, discriminated by `property` (`tag` -> schema name).
fn discriminated(property: &str, variants: &[(String, String)]) -> serde_json::Value {
    let refs: Vec<serde_json::Value> = variants
        .iter()
        .map(|(_, name)| serde_json::json!({"$ref": schema_ref(name)}))
        .collect();
    let mapping: serde_json::Map<String, serde_json::Value> = variants
        .iter()
        .map(|(tag, name)| (tag.clone(), serde_json::Value::String(schema_ref(name))))
        .collect();
    serde_json::json!({
        "oneOf": refs,
        "discriminator": {"propertyName": property, "mapping": mapping},
    })
}

/// The value of a single-value `enum` property (a serde tag).
fn tag_of(variant: &serde_json::Value, property: &str) -> Option<String> {
    variant
        .pointer(&format!("/properties/{property}/enum/0"))
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
}

/// Every schema a `oneOf` names gets its name as `title`: Swagger UI shows a
/// union's members by title (without one, as `#0 object`, `#1 object`, ...).
/// Generators name a component by its key, which is the same.
fn title_union_members(schemas: &mut Schemas) {
    let members: Vec<String> = schemas
        .values()
        .filter_map(|schema| schema["oneOf"].as_array())
        .flatten()
        .filter_map(|member| member["$ref"].as_str())
        .filter_map(|reference| reference.strip_prefix(&schema_ref("")))
        .map(str::to_owned)
        .collect();
    for name in members {
        if let Some(schema) = schemas
            .get_mut(&name)
            .and_then(serde_json::Value::as_object_mut)
        {
            schema
                .entry("title")
                .or_insert_with(|| serde_json::Value::String(name.clone()));
        }
    }
}

/// `Event` (on the wire: `id`, `created_at` and a payload tagged by `type`)
/// as one named schema per event type, each complete, in a `oneOf`
/// discriminated by `type`. The payload union `EventPayload` (an `allOf`
/// of a `oneOf` and an object, which generators cannot read) goes away.
fn event_union(schemas: &mut Schemas) {
    let (Some(payload), Some(event)) = (schemas.remove("EventPayload"), schemas.get("Event"))
    else {
        return;
    };
    let common = event
        .pointer("/allOf/1/properties")
        .cloned()
        .unwrap_or_default();
    let description = event.get("description").cloned();
    let example = event.get("example").cloned();
    let mut variants = Vec::new();
    for variant in payload["oneOf"].as_array().into_iter().flatten() {
        let Some(tag) = tag_of(variant, "type") else {
            continue;
        };
        let name = format!("{}Event", pascal(&tag));
        let mut properties = serde_json::Map::new();
        properties.insert("id".into(), common["id"].clone());
        properties.insert(
            "type".into(),
            serde_json::json!({"type": "string", "enum": [tag]}),
        );
        properties.insert("created_at".into(), common["created_at"].clone());
        let mut required = vec![
            serde_json::json!("id"),
            serde_json::json!("type"),
            serde_json::json!("created_at"),
        ];
        if let Some(own) = variant["properties"].as_object() {
            for (key, schema) in own {
                if key != "type" {
                    properties.insert(key.clone(), schema.clone());
                }
            }
        }
        for key in variant["required"].as_array().into_iter().flatten() {
            if key != "type" {
                required.push(key.clone());
            }
        }
        let mut schema = serde_json::json!({
            "type": "object",
            "required": required,
            "properties": properties,
        });
        if let Some(text) = variant.get("description") {
            schema["description"] = text.clone();
        }
        schemas.insert(name.clone(), schema);
        variants.push((tag, name));
    }
    let mut union = discriminated("type", &variants);
    if let Some(description) = description {
        union["description"] = description;
    }
    if let Some(example) = example {
        union["example"] = example;
    }
    schemas.insert("Event".into(), union);
}

/// A union serialized with an internal `tag` (utoipa writes a `oneOf` of
/// inline objects): each variant becomes the named schema
/// `<Tag><suffix>`, and the union a discriminated `oneOf` of them.
fn split_union(schemas: &mut Schemas, union: &str, tag: &str, suffix: &str) {
    let Some(schema) = schemas.get(union).cloned() else {
        return;
    };
    let mut variants = Vec::new();
    for variant in schema["oneOf"].as_array().into_iter().flatten() {
        let Some(value) = tag_of(variant, tag) else {
            return;
        };
        let name = format!("{}{suffix}", pascal(&value));
        schemas.insert(name.clone(), variant.clone());
        variants.push((value, name));
    }
    let mut split = discriminated(tag, &variants);
    for member in ["description", "example"] {
        if let Some(value) = schema.get(member) {
            split[member] = value.clone();
        }
    }
    schemas.insert(union.into(), split);
}

/// The problem documents that carry extension members, each a complete
/// object schema (the standard members of `Problem` and its own).
fn problem_schemas(schemas: &mut Schemas) {
    let Some(base) = schemas.get("Problem").cloned() else {
        return;
    };
    schemas.insert(
        "FieldError".into(),
        serde_json::json!({
            "type": "object",
            "description": "One broken rule of a registration or a new password.",
            "required": ["field", "message"],
            "properties": {
                "field": {"type": "string", "enum": ["username", "password", "new_password"]},
                "message": {"type": "string", "description": "What the value must be"},
            },
        }),
    );
    let variants = [
        (
            "MoveRefusal",
            "A refused move or game action. Refusals decided by the rules engine \
             (`illegal_move`, `two_square_rule`, `more_squares_rule`, `not_your_turn`, \
             and `wrong_phase` for a finished game or a draw action) carry `reason`; \
             `more_squares_rule` also carries `since_ply`.",
            "reason",
            serde_json::json!({
                "type": "string",
                // Every reason the rules engine names (domain/src/error.rs).
                "enum": domain::ActionError::all_kinds().collect::<Vec<_>>(),
                "description": "Why the rules engine refused (docs/errors.md); absent \
                    on refusals of the server's own checks (`version_conflict`, a \
                    phase check, `validation_failed`, `idempotency_key_reused`)",
            }),
            false,
        ),
        (
            "SetupRefusal",
            "A refused setup: `invalid_setup` lists every problem found.",
            "problems",
            serde_json::json!({
                "type": "array",
                "items": {"$ref": schema_ref("SetupProblem")},
                "description": "Entry problems in the order sent, then wrong counts in \
                    piece order; absent on other codes (`validation_failed`, \
                    `idempotency_key_reused`)",
            }),
            false,
        ),
        (
            "ValidationProblem",
            "A request with a wrong value. A refused registration lists every broken \
             rule in `errors`.",
            "errors",
            serde_json::json!({
                "type": "array",
                "items": {"$ref": schema_ref("FieldError")},
                "description": "Every broken account rule (registration only); absent \
                    otherwise",
            }),
            false,
        ),
        (
            "RateLimitedProblem",
            "Too many attempts (`rate_limited`).",
            "retry_after",
            serde_json::json!({
                "type": "integer",
                "minimum": 1,
                "description": "Whole seconds until the window reopens (as `Retry-After`)",
            }),
            true,
        ),
        (
            "TooManyStreamsProblem",
            "Too many open streams (`too_many_streams`).",
            "max_streams",
            serde_json::json!({
                "type": "integer",
                "minimum": 1,
                "description": "The per-user limit of open streams (MAX_STREAMS_PER_USER)",
            }),
            true,
        ),
    ];
    for (name, description, member, schema, required) in variants {
        let mut problem = base.clone();
        problem["description"] = serde_json::Value::String(description.into());
        if let Some(object) = problem.as_object_mut() {
            object.remove("example");
        }
        problem["properties"][member] = schema;
        if name == "MoveRefusal" {
            problem["properties"]["since_ply"] = serde_json::json!({
                "type": "integer",
                "minimum": 0,
                "description": "With `more_squares_rule` only: the ply at which the \
                    position the move would bring back stood; absent otherwise",
            });
        }
        let mut members = vec![member];
        if name == "TooManyStreamsProblem" {
            problem["properties"]["retry_after"] = serde_json::json!({
                "type": "integer",
                "minimum": 1,
                "description": "Whole seconds (as `Retry-After`) within which a stream \
                    the caller closed frees its slot: the keep-alive interval \
                    (SSE_KEEPALIVE_SECONDS)",
            });
            members.push("retry_after");
        }
        if required {
            if let Some(list) = problem["required"].as_array_mut() {
                list.extend(members.into_iter().map(serde_json::Value::from));
            }
        }
        schemas.insert(name.into(), problem);
    }
}

/// `SetupRequest` as what the server accepts: a placement, a random setup
/// or a saved one; exactly one (`{}` is refused).
fn setup_request(schemas: &mut Schemas) {
    let Some(request) = schemas.get("SetupRequest").cloned() else {
        return;
    };
    let property = |name: &str| request["properties"][name].clone();
    let mut placement = property("placement");
    placement["type"] = serde_json::json!("object");
    // (propertyNames cannot be a $ref in utoipa's model: the Square schema
    // inline.)
    placement["propertyNames"] = serde_json::json!({
        "type": "string",
        "pattern": crate::games::docs::SQUARE_PATTERN,
    });
    let mut random = property("random");
    random["type"] = serde_json::json!("boolean");
    random["enum"] = serde_json::json!([true]);
    let mut seed = property("seed");
    seed["type"] = serde_json::json!(["integer", "null"]);
    schemas.insert(
        "PlacementSetup".into(),
        serde_json::json!({
            "type": "object",
            "description": "Your whole army by square, inside your own setup zone.",
            "required": ["placement"],
            "properties": {"placement": placement},
            "additionalProperties": false,
            "example": {"placement": {"a1": "flag", "b1": "bomb"}},
        }),
    );
    schemas.insert(
        "RandomSetup".into(),
        serde_json::json!({
            "type": "object",
            "description": "A valid random setup placed by the server; `seed` makes it \
                reproducible.",
            "required": ["random"],
            "properties": {"random": random, "seed": seed},
            "additionalProperties": false,
            "example": {"random": true, "seed": 7},
        }),
    );
    let mut saved = property("saved");
    saved["type"] = serde_json::json!("string");
    saved["minLength"] = serde_json::json!(1);
    saved["maxLength"] = serde_json::json!(crate::games::library::NAME_MAX);
    schemas.insert(
        "SavedSetupChoice".into(),
        serde_json::json!({
            "type": "object",
            "description": "One of your saved setups (`/me/setups`) for the game's variant, \
                by name; turned for Blue.",
            "required": ["saved"],
            "properties": {"saved": saved},
            "additionalProperties": false,
            "example": {"saved": "fortress"},
        }),
    );
    let mut union = serde_json::json!({
        "oneOf": [
            {"$ref": schema_ref("PlacementSetup")},
            {"$ref": schema_ref("RandomSetup")},
            {"$ref": schema_ref("SavedSetupChoice")},
        ],
    });
    for member in ["description", "example"] {
        if let Some(value) = request.get(member) {
            union[member] = value.clone();
        }
    }
    schemas.insert("SetupRequest".into(), union);
}

/// Strings that only ever hold one of a few values.
fn closed_strings(schemas: &mut Schemas) {
    let closed = [
        ("ProbeStatus", "status", serde_json::json!(["ok", "ready"])),
        ("TokenPair", "token_type", serde_json::json!(["Bearer"])),
        ("Registered", "token_type", serde_json::json!(["Bearer"])),
    ];
    for (schema, property, values) in closed {
        if let Some(target) = schemas
            .get_mut(schema)
            .and_then(|s| s.pointer_mut(&format!("/properties/{property}")))
        {
            target["enum"] = values;
        }
    }
}

/// Operations whose success answer carries the `ETag` of the caller's view.
const TAGGED: [&str; 9] = [
    "create_game",
    "get_game",
    "join_game",
    "decline_game",
    "abort_game",
    "place_setup",
    "play_move",
    "resign_game",
    "draw_game",
];

fn header(description: &str) -> serde_json::Value {
    serde_json::json!({"schema": {"type": "string"}, "description": description})
}

/// What every answer has: `X-Request-Id` on every response, a 500 on
/// every operation; and the `ETag` of every answer that sends one.
fn response_headers(doc: &mut serde_json::Value) {
    let request_id = header(
        "The request's id (the client's own, if it sent a valid one): quote it \
         when reporting a problem; the server's logs carry it",
    );
    let add = |response: &mut serde_json::Value, name: &str, value: &serde_json::Value| {
        if response.get("$ref").is_none() {
            response["headers"][name] = value.clone();
        }
    };
    if let Some(responses) = doc
        .pointer_mut("/components/responses")
        .and_then(serde_json::Value::as_object_mut)
    {
        for response in responses.values_mut() {
            add(response, "X-Request-Id", &request_id);
        }
    }
    for operation in operations_mut(doc) {
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let Some(responses) = operation
            .get_mut("responses")
            .and_then(serde_json::Value::as_object_mut)
        else {
            continue;
        };
        responses
            .entry("500")
            .or_insert_with(|| serde_json::json!({"$ref": "#/components/responses/InternalError"}));
        for (status, response) in responses.iter_mut() {
            add(response, "X-Request-Id", &request_id);
            let success = status.starts_with('2') || status == "304";
            if success && TAGGED.contains(&id.as_str()) && response["headers"].get("ETag").is_none()
            {
                add(
                    response,
                    "ETag",
                    &header("Tag of the caller's view of the game (send it as If-None-Match or If-Match)"),
                );
            }
        }
    }
}

/// A short plain summary per operation; the text the code gives (its doc
/// comment's first paragraph) opens the description instead.
const SUMMARIES: [(&str, &str); 31] = [
    ("register_user", "Create an account"),
    ("login_user", "Log in"),
    ("refresh_token", "Refresh the tokens"),
    ("logout_user", "Log out"),
    ("get_me", "Get your account"),
    ("create_game", "Create a game"),
    ("list_games", "List games"),
    ("get_game", "Get a game"),
    ("list_moves", "List the moves played"),
    ("join_game", "Join a game"),
    ("decline_game", "Decline a challenge"),
    ("abort_game", "Abort a game"),
    ("place_setup", "Place your setup"),
    ("play_move", "Play a move"),
    ("resign_game", "Resign"),
    ("draw_game", "Offer, accept or decline a draw"),
    ("list_variants", "List the variants"),
    ("list_bots", "List the bots"),
    ("list_events", "List your events"),
    ("stream_events", "Stream your events"),
    ("stream_game", "Stream a game"),
    ("get_board_svg", "Draw the board (SVG)"),
    ("get_board_png", "Draw the board (PNG)"),
    ("export_game", "Export the game record"),
    ("get_leaderboard", "Get a leaderboard"),
    ("get_user", "Get a player's profile"),
    ("list_user_ratings", "List a player's ratings over time"),
    ("list_user_games", "List a player's finished games"),
    ("get_health", "Liveness probe"),
    ("get_readiness", "Readiness probe"),
    ("get_problem", "Explain a problem type"),
];

/// Where the values of a success answer lead next, as OpenAPI links from
/// (operation, status) to an operation: a new game's id to joining it,
/// a view's first legal move to playing it, a token pair to refreshing it.
/// For readers, and for tools that test sequences of calls (the contract
/// fuzzing of `.ci/fuzz` follows them from a new game to its moves).
/// Links to a game: (source, status, name, target, the game id, description).
#[rustfmt::skip]
const GAME_LINKS: [(&str, &str, &str, &str, &str, &str); 25] = [
    ("create_game", "201", "Join", "join_game", ID, "Take the open seat or accept"),
    ("create_game", "201", "Decline", "decline_game", ID, "Decline the challenge"),
    ("create_game", "201", "Abort", "abort_game", ID, "Withdraw the game"),
    ("join_game", "200", "PlaceSetup", "place_setup", ID, "Place a setup"),
    ("place_setup", "200", "PlaceSetup", "place_setup", ID, "Place (or replace) a setup"),
    ("get_game", "200", "Draw", "draw_game", ID, "Offer or answer a draw"),
    ("get_game", "200", "Resign", "resign_game", ID, "Resign"),
    ("play_move", "200", "GetGame", "get_game", MOVED, "The game after the move"),
    ("play_move", "200", "ListMoves", "list_moves", MOVED, "The history after the move"),
    ("create_game", "201", "GetGame", "get_game", ID, VIEW),
    ("create_game", "201", "ListMoves", "list_moves", ID, HISTORY),
    ("create_game", "201", "StreamGame", "stream_game", ID, FOLLOW),
    ("join_game", "200", "GetGame", "get_game", ID, VIEW),
    ("join_game", "200", "ListMoves", "list_moves", ID, HISTORY),
    ("join_game", "200", "StreamGame", "stream_game", ID, FOLLOW),
    ("place_setup", "200", "GetGame", "get_game", ID, VIEW),
    ("place_setup", "200", "ListMoves", "list_moves", ID, HISTORY),
    ("place_setup", "200", "StreamGame", "stream_game", ID, FOLLOW),
    ("draw_game", "200", "GetGame", "get_game", ID, VIEW),
    ("draw_game", "200", "ListMoves", "list_moves", ID, HISTORY),
    ("draw_game", "200", "StreamGame", "stream_game", ID, FOLLOW),
    ("resign_game", "200", "GetGame", "get_game", ID, VIEW),
    ("resign_game", "200", "ListMoves", "list_moves", ID, HISTORY),
    ("resign_game", "200", "StreamGame", "stream_game", ID, FOLLOW),
    ("get_game", "200", "StreamGame", "stream_game", ID, FOLLOW),
];
const ID: &str = "$response.body#/id";
const MOVED: &str = "$response.body#/game/id";
const VIEW: &str = "The game as the caller sees it now";
const HISTORY: &str = "The history of the game";
const FOLLOW: &str = "Follow the game";

/// Links that pass a token pair on: (source, status, name, target, description).
#[rustfmt::skip]
const TOKEN_LINKS: [(&str, &str, &str, &str, &str); 5] = [
    (
        "register_user",
        "201",
        "Refresh",
        "refresh_token",
        "Refresh the first tokens",
    ),
    (
        "login_user",
        "200",
        "Refresh",
        "refresh_token",
        "Refresh the tokens",
    ),
    (
        "login_user",
        "200",
        "Logout",
        "logout_user",
        "End this session",
    ),
    (
        "refresh_token",
        "200",
        "Refresh",
        "refresh_token",
        "Refresh the new tokens",
    ),
    (
        "refresh_token",
        "200",
        "Logout",
        "logout_user",
        "End this session",
    ),
];

fn link_table() -> Vec<(&'static str, &'static str, &'static str, serde_json::Value)> {
    use serde_json::json;
    let mut table = Vec::new();
    for (source, status, name, target, id, description) in GAME_LINKS {
        let link = json!({"operationId": target, "parameters": {"path.id": id},
                          "description": description});
        table.push((source, status, name, link));
    }
    let first_move = json!({
        "operationId": "play_move",
        "parameters": {"path.id": ID},
        "requestBody": {
            "from": "$response.body#/legal_moves/0/from",
            "to": "$response.body#/legal_moves/0/to",
            "expected_version": "$response.body#/version",
        },
        "description": "Play the first of the legal moves (present on the caller's turn)",
    });
    table.push(("get_game", "200", "PlayMove", first_move));
    for (source, status, name, target, description) in TOKEN_LINKS {
        // (`parameters` empty but present: utoipa's `Link` requires it.)
        let link = json!({"operationId": target, "parameters": {},
                          "requestBody": {"refresh_token": "$response.body#/refresh_token"},
                          "description": description});
        table.push((source, status, name, link));
    }
    table
}

fn links(doc: &mut serde_json::Value) {
    let table = link_table();
    for operation in operations_mut(doc) {
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        for (source, status, name, link) in &table {
            if *source == id && operation["responses"][*status].is_object() {
                operation["responses"][*status]["links"][*name] = link.clone();
            }
        }
    }
}

/// Header parameters as the server reads them: a header is sent or not,
/// so its schema has no `null`; and the values it takes, where the routes
/// say more than the type.
fn header_parameters(doc: &mut serde_json::Value, header_schema: HeaderSchemas) {
    for operation in operations_mut(doc) {
        let parameters = operation
            .get_mut("parameters")
            .and_then(serde_json::Value::as_array_mut);
        for parameter in parameters.into_iter().flatten() {
            if parameter["in"] != "header" {
                continue;
            }
            let name = parameter["name"].as_str().unwrap_or_default().to_owned();
            let schema = &mut parameter["schema"];
            if let Some(types) = schema["type"].as_array() {
                let types: Vec<serde_json::Value> =
                    types.iter().filter(|t| *t != "null").cloned().collect();
                schema["type"] = match types.as_slice() {
                    [one] => one.clone(),
                    _ => serde_json::Value::Array(types),
                };
            }
            if let Some(serde_json::Value::Object(members)) = header_schema(&name) {
                for (key, value) in members {
                    schema[key] = value;
                }
            }
        }
    }
}

/// Every operation of the document.
fn operations_mut(doc: &mut serde_json::Value) -> impl Iterator<Item = &mut serde_json::Value> {
    doc.get_mut("paths")
        .and_then(serde_json::Value::as_object_mut)
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(serde_json::Value::as_object_mut)
        .flat_map(|item| item.values_mut())
}

/// Summaries, and the 400 examples that fit each operation.
fn operations(doc: &mut serde_json::Value, bad_request_example: BadRequestExamples) {
    let bad_request = doc
        .pointer("/components/responses/BadRequest")
        .cloned()
        .unwrap_or_default();
    let event_types: Vec<serde_json::Value> = doc
        .pointer("/components/schemas/Event/discriminator/mapping")
        .and_then(serde_json::Value::as_object)
        .map(|mapping| mapping.keys().map(|k| k.as_str().into()).collect())
        .unwrap_or_default();
    for operation in operations_mut(doc) {
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if let Some((_, summary)) = SUMMARIES.iter().find(|(op, _)| *op == id) {
            let old = operation["summary"].as_str().unwrap_or_default().to_owned();
            let description = match operation["description"].as_str() {
                Some(rest) => format!("{old}\n\n{rest}"),
                None => old,
            };
            operation["summary"] = serde_json::Value::String((*summary).into());
            operation["description"] = serde_json::Value::String(description);
        }
        let frames = match id.as_str() {
            "stream_events" => Some((
                "Event",
                event_types.clone(),
                "the event's id",
                "Server-Sent Events: `retry: 3000`, then one frame per event: `id: <event id>`, \
                 `event: <its type>`, `data: <the event as one line of JSON, schema Event>`; \
                 `: keep-alive` comments while idle",
            )),
            "stream_game" => Some((
                "GameView",
                vec![serde_json::json!("game")],
                "the game's version",
                "Server-Sent Events: `retry: 3000`, then one frame per version: `id: <version>`, \
                 `event: game`, `data: <the caller's view as one line of JSON, schema \
                 GameView>`; `: keep-alive` comments while idle",
            )),
            _ => None,
        };
        if let Some((schema, events, id_description, description)) = frames {
            let content = &mut operation["responses"]["200"]["content"]["text/event-stream"];
            if content.is_object() {
                content["description"] = serde_json::Value::String(description.into());
                content["schema"] = sse_frame(schema, events, id_description);
            }
        }
        if let (Some(error), true) = (
            bad_request_example(&id),
            operation["responses"]["400"].is_object(),
        ) {
            let mut response = bad_request.clone();
            response["description"] = serde_json::Value::String(
                "A parameter or header cannot be read (`validation_failed`)".into(),
            );
            response["content"][PROBLEM_JSON]["example"] = error.body();
            operation["responses"]["400"] = response;
        }
    }
}

/// One frame of a stream, as a Server-Sent Events reader parses it: its
/// `id`, its `event` name and its `data`, one line of JSON of `schema`.
/// OpenAPI 3.1 has no keyword for the items of a stream (3.2 adds
/// `itemSchema`); tools read a `text/event-stream` schema as describing one
/// event (docs/api.md, "Server-Sent Events").
fn sse_frame(
    schema: &str,
    events: Vec<serde_json::Value>,
    id_description: &str,
) -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "description": "One event of the stream (the `retry:` line and `: keep-alive` \
            comments carry no data and are not events)",
        "required": ["id", "event", "data"],
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9]+$", "description": id_description},
            "event": {"type": "string", "enum": events},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"$ref": schema_ref(schema)},
            },
        },
    })
}

/// Written examples of the main answers, from a real game: a duel played
/// a few random plies by the rules engine, seen by Red.
mod examples {
    use domain::rng::SplitMix64;
    use domain::{Action, Color, Rules, Variant, Viewer};
    use serde_json::{json, Value};

    use super::Schemas;

    const GAME: &str = "0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10";
    const GAME_2: &str = "5d0c3f9a-1b2e-4c7d-8e9f-a0b1c2d3e4f5";
    const ANN: &str = "6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11";
    const BO: &str = "2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08";

    /// The views of a duel after a few plies: (Red's view, the moves as
    /// Red saw them, the last move as the mover saw it).
    fn played() -> Option<(Value, Vec<Value>, Value)> {
        let mut game = domain::playout::random_game(Variant::Duel, Rules::default(), 7).ok()?;
        let mut rng = SplitMix64::new(3);
        let mut history = Vec::new();
        let mut last = Value::Null;
        for _ in 0..6 {
            let moves = game.legal_moves();
            if moves.is_empty() || game.is_finished() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let color = game.turn();
            let applied = game
                .apply(
                    color,
                    Action::Move {
                        from: m.from,
                        to: m.to,
                        rescue: None,
                    },
                )
                .ok()?;
            let record = applied.record?;
            history.push(
                serde_json::to_value(game.move_view(&record, Viewer::Player(Color::Red))).ok()?,
            );
            last = serde_json::to_value(game.move_view(&record, Viewer::Player(color))).ok()?;
        }
        let view = serde_json::to_value(game.view(Viewer::Player(Color::Red))).ok()?;
        Some((view, history, last))
    }

    fn game_view(view: &Value) -> Value {
        let mut example = json!({
            "id": GAME, "variant": "duel", "rules": Rules::default(), "status": "playing",
            "version": 9, "you": "red",
            "players": {"red": {"id": ANN, "username": "ann", "deleted": false},
                        "blue": {"id": BO, "username": "bo", "deleted": false}},
            "deadline": "2026-12-04T10:00:00Z",
            "setup_done": {"red": true, "blue": true},
            "days_per_move": 3, "rated": true,
            "creator": {"id": ANN, "username": "ann", "deleted": false},
            "opponent": {"id": BO, "username": "bo", "deleted": false},
            "created_at": "2026-12-01T09:00:00Z", "updated_at": "2026-12-01T10:00:00Z",
        });
        for member in [
            "ply",
            "turn",
            "board",
            "captured",
            "last_move",
            "result",
            "draw_offer",
            "rescues_used",
            "plies_without_battle",
        ] {
            example[member] = view[member].clone();
        }
        if let Some(moves) = view.get("legal_moves").filter(|m| !m.is_null()) {
            example["legal_moves"] = moves.clone();
        }
        example
    }

    pub(super) fn add(schemas: &mut Schemas) {
        let Some((view, history, last)) = played() else {
            return;
        };
        let game = game_view(&view);
        let summary = json!({
            "id": GAME, "variant": "duel", "rules": Rules::default(), "status": "playing",
            "version": 9, "ply": game["ply"], "turn": game["turn"], "players": game["players"],
            "creator": game["creator"], "opponent": game["opponent"], "days_per_move": 3,
            "rated": true,
            "deadline": game["deadline"], "result": null,
            "setup_done": game["setup_done"], "created_at": game["created_at"],
            "updated_at": game["updated_at"],
        });
        let examples = [
            ("GameView", game.clone()),
            ("MoveAnswer", json!({"move": last, "game": game})),
            (
                "MoveHistory",
                json!({"game_id": GAME, "version": 9, "moves": history}),
            ),
            (
                "GamePage",
                json!({"games": [summary.clone()], "next_cursor": null}),
            ),
            (
                "Leaderboard",
                json!({"variant": "classic", "max_deviation": 110.0, "active_days": 90,
                       "entries": [
                    {"rank": 1, "user_id": ANN, "username": "ann", "rating": 1612.4,
                     "deviation": 84.2, "games": 31, "last_game_at": "2026-11-30T18:00:00Z"},
                    {"rank": 2, "user_id": BO, "username": "bo", "rating": 1544.9,
                     "deviation": 97.5, "games": 22, "last_game_at": "2026-12-01T08:15:00Z"},
                ], "next_cursor": "bHw0NjE4M..."}),
            ),
            (
                "Profile",
                json!({"id": ANN, "username": "ann", "joined_at": "2026-09-14T12:00:00Z",
                       "ratings": [
                    {"variant": "classic", "rating": 1612.4, "deviation": 84.2,
                     "volatility": 0.0599, "settled": true, "games": 31, "wins": 18,
                     "losses": 10, "draws": 3, "last_game_at": "2026-11-30T18:00:00Z"},
                    {"variant": "duel", "rating": 1478.0, "deviation": 212.7,
                     "volatility": 0.06, "settled": false, "games": 2, "wins": 0,
                     "losses": 1, "draws": 1, "last_game_at": "2026-10-02T09:30:00Z"},
                ], "current_games": [summary]}),
            ),
            (
                "RatingHistory",
                json!({"username": "ann", "points": [
                    {"variant": "classic", "number": 1, "game_id": GAME,
                     "at": "2026-09-20T10:00:00Z", "rating": 1662.3, "deviation": 290.3,
                     "volatility": 0.06},
                    {"variant": "classic", "number": 2, "game_id": GAME_2,
                     "at": "2026-09-27T16:40:00Z", "rating": 1601.8, "deviation": 254.1,
                     "volatility": 0.06},
                ], "next_cursor": null}),
            ),
            (
                "EventPage",
                json!({"events": [
                {"id": 41, "created_at": "2026-12-01T09:30:00Z", "type": "game_started",
                 "game_id": GAME},
                {"id": 42, "created_at": "2026-12-01T10:00:00Z", "type": "your_turn",
                 "game_id": GAME, "ply": game["ply"], "opponent_move": history.last()},
            ], "last_id": 42}),
            ),
        ];
        for (name, example) in examples {
            if let Some(schema) = schemas.get_mut(name) {
                schema["example"] = example;
            }
        }
    }
}

/// The document as YAML, as committed in `openapi.yaml`: what
/// `to_yaml` writes, with every plain scalar that a YAML 1.1 parser
/// (PyYAML, ...) would load as a date or time quoted, so that every
/// parser reads exactly the served JSON.
pub fn openapi_yaml(doc: &utoipa::openapi::OpenApi) -> Result<String, String> {
    let yaml = doc.to_yaml().map_err(|e| e.to_string())?;
    let mut out = String::with_capacity(yaml.len() + 256);
    // Inside a block scalar (`|-`): lines indented more than its key.
    let mut block: Option<usize> = None;
    for line in yaml.lines() {
        let indent = line.len() - line.trim_start().len();
        if let Some(key_indent) = block {
            if line.trim().is_empty() || indent > key_indent {
                out.push_str(line);
                out.push('\n');
                continue;
            }
            block = None;
        }
        let trimmed = line.trim_end();
        if trimmed.ends_with('|')
            || trimmed.ends_with("|-")
            || trimmed.ends_with("|+")
            || trimmed.ends_with('>')
            || trimmed.ends_with(">-")
        {
            block = Some(indent);
        }
        out.push_str(&quote_timestamp(line));
        out.push('\n');
    }
    Ok(out)
}

/// `line` with its plain scalar value quoted if it looks like a YAML 1.1
/// timestamp (`2026-12-01`, `2026-12-01T10:00:00Z`).
fn quote_timestamp(line: &str) -> String {
    let mut start = line.len() - line.trim_start().len();
    while line[start..].starts_with("- ") {
        start += 2;
    }
    let value_start = match line[start..].find(": ") {
        Some(colon) => start + colon + 2,
        None => start,
    };
    let value = &line[value_start..];
    let bytes = value.as_bytes();
    let looks_like_date = bytes.len() >= 8
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && bytes[5].is_ascii_digit();
    if looks_like_date {
        format!("{}'{}'", &line[..value_start], value.replace('\'', "''"))
    } else {
        line.to_owned()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use std::collections::BTreeSet;

    use domain::{ActionError as A, IllegalMove as M, Piece, Square};

    /// One refusal of each kind the domain has. The matches have no
    /// catch-all: a new variant does not compile until it is listed here.
    fn every_refusal() -> Vec<A> {
        let s = Square::from_index(0).unwrap();
        let p = Piece::Scout;
        let moves = [
            M::NoPiece { from: s },
            M::NotYourPiece { from: s },
            M::Immovable { from: s, piece: p },
            M::SameSquare { square: s },
            M::Diagonal { from: s, to: s },
            M::Lake { to: s },
            M::TooFar {
                from: s,
                to: s,
                piece: p,
            },
            M::ThroughLake { lake: s },
            M::Blocked { square: s },
            M::OwnPiece { to: s },
            M::ScoutLongAttack { from: s, to: s },
            M::TwoSquareRule {
                from: s,
                to: s,
                limit: 3,
            },
            M::MoreSquaresRule {
                from: s,
                to: s,
                since_ply: 1,
            },
            M::RescueDisabled,
            M::RescueNotOnBackRow,
            M::RescueByScout,
            M::RescueBomb,
            M::RescueLimit,
            M::RescueSamePiece,
            M::RescueNotCaptured { piece: p },
            M::RescueSquare { square: s },
        ];
        for m in &moves {
            match m {
                M::NoPiece { .. }
                | M::NotYourPiece { .. }
                | M::Immovable { .. }
                | M::SameSquare { .. }
                | M::Diagonal { .. }
                | M::Lake { .. }
                | M::TooFar { .. }
                | M::ThroughLake { .. }
                | M::Blocked { .. }
                | M::OwnPiece { .. }
                | M::ScoutLongAttack { .. }
                | M::TwoSquareRule { .. }
                | M::MoreSquaresRule { .. }
                | M::RescueDisabled
                | M::RescueNotOnBackRow
                | M::RescueByScout
                | M::RescueBomb
                | M::RescueLimit
                | M::RescueSamePiece
                | M::RescueNotCaptured { .. }
                | M::RescueSquare { .. } => {}
            }
        }
        let mut all = vec![
            A::GameOver,
            A::NotYourTurn,
            A::TimeoutNotOnTurn,
            A::DrawAlreadyOffered,
            A::DrawOfferPending,
            A::NoDrawOffer,
            A::OwnDrawOffer,
        ];
        all.extend(moves.into_iter().map(A::Illegal));
        for a in &all {
            match a {
                A::GameOver
                | A::NotYourTurn
                | A::TimeoutNotOnTurn
                | A::Illegal(_)
                | A::DrawAlreadyOffered
                | A::DrawOfferPending
                | A::NoDrawOffer
                | A::OwnDrawOffer => {}
            }
        }
        all
    }

    #[test]
    fn the_reason_enum_is_every_kind_the_domain_can_produce() {
        let kinds: BTreeSet<&str> = every_refusal().iter().map(A::kind).collect();
        let doc = serde_json::to_value(crate::startup::openapi_document()).unwrap();
        let listed: BTreeSet<&str> = doc["components"]["schemas"]["MoveRefusal"]["properties"]
            ["reason"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(listed, kinds);
        assert_eq!(
            domain::ActionError::all_kinds().count(),
            kinds.len(),
            "a reason listed twice"
        );
    }
}
