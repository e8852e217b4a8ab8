//! The problems of the document: the `Problem` schema, the shared error
//! responses (with examples exactly as the server sends them), the answers
//! every command on a game shares, and the problem documents that carry
//! extension members.

use serde::Serialize;
use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::ToSchema;

use super::{schema_ref, Schemas};
use crate::error::{ApiError, ProblemKind, PROBLEM_JSON};

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
    VacationRefused,
    ProblemKind::VacationBudgetExceeded,
    409,
    "The vacation cannot start: `vacation_budget_exceeded` (no day left, or more \
     `days` asked for than remain; `remaining_days` says how many do) or \
     `already_on_vacation`; or `version_conflict` (it kept changing: try again)",
    "10 days asked for, but only 4 remain this year"
);
problem_response!(
    VacationBusy,
    ProblemKind::VersionConflict,
    409,
    "`version_conflict`: your vacation kept changing while this request was handled \
     (another request, or the sweep ending it); try again",
    "the game kept changing while this request was handled; try again"
);
problem_response!(
    TournamentConflict,
    ProblemKind::WrongPhase,
    409,
    "The tournament cannot do this now: `wrong_phase` (it has started or is over, \
     or you are already in it, or not in it), `tournament_full` (`max_players` says \
     how many it takes), `not_enough_players` (to start), or `version_conflict` \
     (it kept changing: try again)",
    "the tournament has started: it takes no more players"
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

/// The problem documents that carry extension members, each a complete
/// object schema (the standard members of `Problem` and its own).
pub(super) fn problem_schemas(schemas: &mut Schemas) {
    let Some(base) = schemas.get("Problem").cloned() else {
        return;
    };
    schemas.insert(
        "FieldError".into(),
        serde_json::json!({
            "type": "object",
            "description": "One broken rule of a registration, a new password, a \
                webhook or a push subscription.",
            "required": ["field", "message"],
            "properties": {
                "field": {"type": "string", "enum": ["username", "password", "new_password",
                    "url", "endpoint", "keys.p256dh", "keys.auth", "expirationTime"]},
                "reason": {"type": "string", "description": "A stable short code (webhooks \
                    and push subscriptions): `not_https`, `private_address`, \
                    `internal_name`, `credentials_in_url`, `unresolvable`, `invalid_url`, \
                    `too_long`, `not_on_curve`, `wrong_length`, `not_base64url`, \
                    `expired`, ..."},
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
                "description": "Every broken rule (registration, password change, \
                    webhooks, push subscriptions); absent otherwise",
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
