//! The one error type of the HTTP layer and its single mapping to
//! RFC 9457 `application/problem+json`.
//!
//! Handlers return `Result<_, ApiError>`. Client mistakes are
//! [`ApiError::Problem`]s built from a [`ProblemKind`] (which fixes the
//! stable `code`, the `type` URI, the title and the usual status); server
//! faults keep their cause for the logs only and answer with a fixed text.
//!
//! The conversions of the lower layers' errors (the game service's
//! refusals among them) into an `ApiError` are in `mapping.rs`.

use std::error::Error as StdError;
use std::fmt;

use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use serde_json::{Map, Value};

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

pub use crate::db::BoxError;

mod mapping;

/// Every kind of problem the API reports. The `code` strings are part of the
/// public contract (docs/errors.md): never rename one.
///
/// To add a kind: add a variant here and one arm in each `match` below; the
/// unit tests at the bottom then list its JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    ValidationFailed,
    Unauthorized,
    Forbidden,
    NotFound,
    MethodNotAllowed,
    PayloadTooLarge,
    RequestTimeout,
    UnsupportedMediaType,
    NotYourTurn,
    WrongPhase,
    IllegalMove,
    TwoSquareRule,
    MoreSquaresRule,
    InvalidSetup,
    VersionConflict,
    IdempotencyKeyReused,
    RateLimited,
    TooManyStreams,
    UsernameTaken,
    SetupNameTaken,
    AlreadyOnVacation,
    VacationBudgetExceeded,
    TournamentFull,
    NotEnoughPlayers,
    ServiceUnavailable,
    InternalError,
}

impl ProblemKind {
    pub const ALL: [ProblemKind; 26] = [
        Self::ValidationFailed,
        Self::Unauthorized,
        Self::Forbidden,
        Self::NotFound,
        Self::MethodNotAllowed,
        Self::PayloadTooLarge,
        Self::RequestTimeout,
        Self::UnsupportedMediaType,
        Self::NotYourTurn,
        Self::WrongPhase,
        Self::IllegalMove,
        Self::TwoSquareRule,
        Self::MoreSquaresRule,
        Self::InvalidSetup,
        Self::VersionConflict,
        Self::IdempotencyKeyReused,
        Self::RateLimited,
        Self::TooManyStreams,
        Self::UsernameTaken,
        Self::SetupNameTaken,
        Self::AlreadyOnVacation,
        Self::VacationBudgetExceeded,
        Self::TournamentFull,
        Self::NotEnoughPlayers,
        Self::ServiceUnavailable,
        Self::InternalError,
    ];

    /// The stable machine-readable `code`.
    pub fn code(self) -> &'static str {
        match self {
            Self::ValidationFailed => "validation_failed",
            Self::Unauthorized => "unauthorized",
            Self::Forbidden => "forbidden",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::PayloadTooLarge => "payload_too_large",
            Self::RequestTimeout => "request_timeout",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::NotYourTurn => "not_your_turn",
            Self::WrongPhase => "wrong_phase",
            Self::IllegalMove => "illegal_move",
            Self::TwoSquareRule => "two_square_rule",
            Self::MoreSquaresRule => "more_squares_rule",
            Self::InvalidSetup => "invalid_setup",
            Self::VersionConflict => "version_conflict",
            Self::IdempotencyKeyReused => "idempotency_key_reused",
            Self::RateLimited => "rate_limited",
            Self::TooManyStreams => "too_many_streams",
            Self::UsernameTaken => "username_taken",
            Self::SetupNameTaken => "setup_name_taken",
            Self::AlreadyOnVacation => "already_on_vacation",
            Self::VacationBudgetExceeded => "vacation_budget_exceeded",
            Self::TournamentFull => "tournament_full",
            Self::NotEnoughPlayers => "not_enough_players",
            Self::ServiceUnavailable => "service_unavailable",
            Self::InternalError => "internal_error",
        }
    }

    /// A short, fixed, human-readable summary (RFC 9457 `title`).
    pub fn title(self) -> &'static str {
        match self {
            Self::ValidationFailed => "Validation failed",
            Self::Unauthorized => "Unauthorized",
            Self::Forbidden => "Forbidden",
            Self::NotFound => "Not found",
            Self::MethodNotAllowed => "Method not allowed",
            Self::PayloadTooLarge => "Payload too large",
            Self::RequestTimeout => "Request timeout",
            Self::UnsupportedMediaType => "Unsupported media type",
            Self::NotYourTurn => "Not your turn",
            Self::WrongPhase => "Wrong phase",
            Self::IllegalMove => "Illegal move",
            Self::TwoSquareRule => "Two-square rule",
            Self::MoreSquaresRule => "More-squares rule",
            Self::InvalidSetup => "Invalid setup",
            Self::VersionConflict => "Version conflict",
            Self::IdempotencyKeyReused => "Idempotency key reused",
            Self::RateLimited => "Too many requests",
            Self::TooManyStreams => "Too many open streams",
            Self::UsernameTaken => "Username taken",
            Self::SetupNameTaken => "Setup name taken",
            Self::AlreadyOnVacation => "Already on vacation",
            Self::VacationBudgetExceeded => "Not enough vacation left",
            Self::TournamentFull => "Tournament full",
            Self::NotEnoughPlayers => "Not enough players",
            Self::ServiceUnavailable => "Service unavailable",
            Self::InternalError => "Internal error",
        }
    }

    /// The usual status; a few kinds have a second one (`validation_failed`
    /// is 400 or 422, `version_conflict` 409 or 412), set with
    /// [`ApiError::with_status`].
    pub fn status(self) -> StatusCode {
        match self {
            Self::ValidationFailed => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::NotYourTurn
            | Self::WrongPhase
            | Self::VersionConflict
            | Self::UsernameTaken
            | Self::SetupNameTaken
            | Self::AlreadyOnVacation
            | Self::VacationBudgetExceeded
            | Self::TournamentFull
            | Self::NotEnoughPlayers => StatusCode::CONFLICT,
            Self::IllegalMove
            | Self::TwoSquareRule
            | Self::MoreSquaresRule
            | Self::InvalidSetup
            | Self::IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            Self::RateLimited | Self::TooManyStreams => StatusCode::TOO_MANY_REQUESTS,
            Self::ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The RFC 9457 `type`: a relative URI reference per kind.
    pub fn type_uri(self) -> String {
        format!("/problems/{}", self.code().replace('_', "-"))
    }
}

/// A problem to report to the client.
#[derive(Debug, Clone)]
pub struct Problem {
    pub kind: ProblemKind,
    pub status: StatusCode,
    pub detail: String,
    /// RFC 9457 extension members, e.g. a list of setup problems.
    pub extensions: Map<String, Value>,
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

/// The error type of every handler.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The client's request cannot be served as asked; the detail is shown.
    #[error("{}", DisplayProblem(.0))]
    Problem(Box<Problem>),
    /// A dependency (the database) is unreachable: 503, cause logged only.
    #[error("service unavailable: {0}")]
    Unavailable(#[source] BoxError),
    /// A bug or an unexpected failure: 500, cause logged only.
    #[error("internal error: {0}")]
    Internal(#[source] BoxError),
}

struct DisplayProblem<'a>(&'a Problem);

impl fmt::Display for DisplayProblem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.0.kind.code(),
            self.0.status.as_u16(),
            self.0.detail
        )
    }
}

impl ApiError {
    /// A problem of `kind` with its usual status.
    pub fn new(kind: ProblemKind, detail: impl Into<String>) -> Self {
        Self::Problem(Box::new(Problem {
            kind,
            status: kind.status(),
            detail: detail.into(),
            extensions: Map::new(),
            headers: Vec::new(),
        }))
    }

    /// 422 `validation_failed`: well-formed input with a bad value.
    pub fn validation(detail: impl Into<String>) -> Self {
        Self::new(ProblemKind::ValidationFailed, detail)
    }

    /// 400 `validation_failed`: input that cannot even be read.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::validation(detail).with_status(StatusCode::BAD_REQUEST)
    }

    /// 401 `unauthorized`, with the `WWW-Authenticate` challenge of RFC 6750.
    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(ProblemKind::Unauthorized, detail)
            .with_header(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))
    }

    /// 401 for a bearer token that was presented but is not acceptable.
    pub fn invalid_token(detail: impl Into<String>) -> Self {
        Self::new(ProblemKind::Unauthorized, detail).with_header(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer error=\"invalid_token\""),
        )
    }

    pub fn forbidden(detail: impl Into<String>) -> Self {
        Self::new(ProblemKind::Forbidden, detail)
    }

    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(ProblemKind::NotFound, detail)
    }

    /// 429 `rate_limited` with `Retry-After` in whole seconds.
    pub fn rate_limited(retry_after_seconds: u64) -> Self {
        let seconds = retry_after_seconds.max(1);
        Self::new(
            ProblemKind::RateLimited,
            format!("too many attempts; retry in {seconds} seconds"),
        )
        .with_retry_after(seconds)
    }

    /// 429 `too_many_streams`: `max_streams` open already. A closed stream
    /// frees its slot when the server next writes to it, a keep-alive at
    /// the latest, so `Retry-After` is the keep-alive interval
    /// (docs/errors.md).
    pub fn too_many_streams(max_streams: usize, keepalive_seconds: u64) -> Self {
        Self::new(
            ProblemKind::TooManyStreams,
            format!("at most {max_streams} streams may be open at once; close one first"),
        )
        .with_extension("max_streams", max_streams)
        .with_retry_after(keepalive_seconds.max(1))
    }

    /// `Retry-After` and the same number as `retry_after`.
    fn with_retry_after(self, seconds: u64) -> Self {
        self.with_header(header::RETRY_AFTER, HeaderValue::from(seconds))
            .with_extension("retry_after", seconds)
    }

    pub fn internal(cause: impl Into<BoxError>) -> Self {
        Self::Internal(cause.into())
    }

    pub fn unavailable(cause: impl Into<BoxError>) -> Self {
        Self::Unavailable(cause.into())
    }

    /// Overrides the status (for kinds with two statuses).
    pub fn with_status(mut self, status: StatusCode) -> Self {
        if let Self::Problem(problem) = &mut self {
            problem.status = status;
        }
        self
    }

    /// Attaches an RFC 9457 extension member. The standard members (`type`,
    /// `title`, `status`, `detail`, `code`) cannot be overwritten.
    pub fn with_extension(mut self, name: &str, value: impl Serialize) -> Self {
        if let Self::Problem(problem) = &mut self {
            if !RESERVED_MEMBERS.contains(&name) {
                let value = serde_json::to_value(value).unwrap_or(Value::Null);
                problem.extensions.insert(name.to_owned(), value);
            }
        }
        self
    }

    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        if let Self::Problem(problem) = &mut self {
            problem.headers.push((name, value));
        }
        self
    }

    /// The kind of problem this error answers with.
    pub fn kind(&self) -> ProblemKind {
        match self {
            Self::Problem(problem) => problem.kind,
            Self::Unavailable(_) => ProblemKind::ServiceUnavailable,
            Self::Internal(_) => ProblemKind::InternalError,
        }
    }

    /// The problem document as sent to the client, as a JSON value.
    pub fn body(&self) -> Value {
        serde_json::to_value(self.document()).unwrap_or(Value::Null)
    }

    /// The JSON text sent to the client (the same document as [`ApiError::body`]).
    pub fn body_text(&self) -> String {
        // A map of JSON values with string keys always serializes.
        serde_json::to_string(&self.document()).unwrap_or_default()
    }

    /// The one problem document both renderings are made from.
    fn document(&self) -> ProblemBody<'_> {
        let (kind, status, detail, extensions) = match self {
            Self::Problem(p) => (p.kind, p.status, p.detail.as_str(), Some(&p.extensions)),
            Self::Unavailable(_) => (
                ProblemKind::ServiceUnavailable,
                StatusCode::SERVICE_UNAVAILABLE,
                UNAVAILABLE_DETAIL,
                None,
            ),
            Self::Internal(_) => (
                ProblemKind::InternalError,
                StatusCode::INTERNAL_SERVER_ERROR,
                INTERNAL_DETAIL,
                None,
            ),
        };
        ProblemBody {
            type_uri: kind.type_uri(),
            title: kind.title(),
            status: status.as_u16(),
            detail,
            code: kind.code(),
            extensions,
        }
    }
}

/// An RFC 9457 problem document: the standard members first, in the RFC's
/// order, then the extensions.
#[derive(Serialize)]
struct ProblemBody<'a> {
    #[serde(rename = "type")]
    type_uri: String,
    title: &'static str,
    status: u16,
    detail: &'a str,
    code: &'static str,
    #[serde(flatten)]
    extensions: Option<&'a Map<String, Value>>,
}

const UNAVAILABLE_DETAIL: &str = "the database is unavailable; try again shortly";
const INTERNAL_DETAIL: &str = "the server failed to handle this request";

const RESERVED_MEMBERS: [&str; 6] = ["type", "title", "status", "detail", "code", "instance"];

/// Seconds a client should wait before retrying after a 503.
const UNAVAILABLE_RETRY_AFTER_SECONDS: u32 = 2;

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Problem(problem) => problem.status,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            Self::Problem(problem) => {
                tracing::debug!(code = problem.kind.code(), status = problem.status.as_u16(), detail = %problem.detail, "request rejected");
            }
            Self::Unavailable(cause) => {
                tracing::warn!(error = %ErrorChain(cause.as_ref()), "database unavailable");
            }
            Self::Internal(cause) => {
                tracing::error!(error = %ErrorChain(cause.as_ref()), "internal error");
            }
        }
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        response.insert_header((header::CACHE_CONTROL, "no-store"));
        match self {
            Self::Problem(problem) => {
                for (name, value) in &problem.headers {
                    response.append_header((name.clone(), value.clone()));
                }
            }
            Self::Unavailable(_) => {
                response.insert_header((header::RETRY_AFTER, UNAVAILABLE_RETRY_AFTER_SECONDS));
            }
            Self::Internal(_) => {}
        }
        response.body(self.body_text())
    }
}

/// Formats an error with its chain of causes, for logs.
pub struct ErrorChain<'a>(pub &'a (dyn StdError + 'static));

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use actix_web::body::MessageBody;
    use serde_json::json;

    fn body_of(error: &ApiError) -> Value {
        let response = error.error_response();
        let bytes = response.into_body().try_into_bytes().unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[test]
    fn every_kind_has_its_pinned_code_type_title_and_status() {
        let table: Vec<(&str, &str, &str, u16)> = ProblemKind::ALL
            .iter()
            .map(|k| {
                let uri: &'static str = Box::leak(k.type_uri().into_boxed_str());
                (k.code(), uri, k.title(), k.status().as_u16())
            })
            .collect();
        assert_eq!(
            table,
            vec![
                (
                    "validation_failed",
                    "/problems/validation-failed",
                    "Validation failed",
                    422
                ),
                (
                    "unauthorized",
                    "/problems/unauthorized",
                    "Unauthorized",
                    401
                ),
                ("forbidden", "/problems/forbidden", "Forbidden", 403),
                ("not_found", "/problems/not-found", "Not found", 404),
                (
                    "method_not_allowed",
                    "/problems/method-not-allowed",
                    "Method not allowed",
                    405
                ),
                (
                    "payload_too_large",
                    "/problems/payload-too-large",
                    "Payload too large",
                    413
                ),
                (
                    "request_timeout",
                    "/problems/request-timeout",
                    "Request timeout",
                    408
                ),
                (
                    "unsupported_media_type",
                    "/problems/unsupported-media-type",
                    "Unsupported media type",
                    415
                ),
                (
                    "not_your_turn",
                    "/problems/not-your-turn",
                    "Not your turn",
                    409
                ),
                ("wrong_phase", "/problems/wrong-phase", "Wrong phase", 409),
                (
                    "illegal_move",
                    "/problems/illegal-move",
                    "Illegal move",
                    422
                ),
                (
                    "two_square_rule",
                    "/problems/two-square-rule",
                    "Two-square rule",
                    422
                ),
                (
                    "more_squares_rule",
                    "/problems/more-squares-rule",
                    "More-squares rule",
                    422
                ),
                (
                    "invalid_setup",
                    "/problems/invalid-setup",
                    "Invalid setup",
                    422
                ),
                (
                    "version_conflict",
                    "/problems/version-conflict",
                    "Version conflict",
                    409
                ),
                (
                    "idempotency_key_reused",
                    "/problems/idempotency-key-reused",
                    "Idempotency key reused",
                    422
                ),
                (
                    "rate_limited",
                    "/problems/rate-limited",
                    "Too many requests",
                    429
                ),
                (
                    "too_many_streams",
                    "/problems/too-many-streams",
                    "Too many open streams",
                    429
                ),
                (
                    "username_taken",
                    "/problems/username-taken",
                    "Username taken",
                    409
                ),
                (
                    "setup_name_taken",
                    "/problems/setup-name-taken",
                    "Setup name taken",
                    409
                ),
                (
                    "already_on_vacation",
                    "/problems/already-on-vacation",
                    "Already on vacation",
                    409
                ),
                (
                    "vacation_budget_exceeded",
                    "/problems/vacation-budget-exceeded",
                    "Not enough vacation left",
                    409
                ),
                (
                    "tournament_full",
                    "/problems/tournament-full",
                    "Tournament full",
                    409
                ),
                (
                    "not_enough_players",
                    "/problems/not-enough-players",
                    "Not enough players",
                    409
                ),
                (
                    "service_unavailable",
                    "/problems/service-unavailable",
                    "Service unavailable",
                    503
                ),
                (
                    "internal_error",
                    "/problems/internal-error",
                    "Internal error",
                    500
                ),
            ]
        );
    }

    #[test]
    fn problem_json_matches_the_api_contract_example() {
        let error = ApiError::new(
            ProblemKind::IllegalMove,
            "a scout cannot pass through the lake at d5",
        );
        assert_eq!(
            body_of(&error),
            json!({"type": "/problems/illegal-move", "title": "Illegal move", "status": 422,
                   "detail": "a scout cannot pass through the lake at d5", "code": "illegal_move"})
        );
        let response = error.error_response();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            response.headers().get(header::CONTENT_TYPE).unwrap(),
            "application/problem+json"
        );
    }

    #[test]
    fn body_text_puts_the_standard_members_first() {
        let text = ApiError::new(ProblemKind::NotFound, "no such game")
            .with_extension("game_id", "x")
            .body_text();
        assert_eq!(
            text,
            r#"{"type":"/problems/not-found","title":"Not found","status":404,"detail":"no such game","code":"not_found","game_id":"x"}"#
        );
    }

    #[test]
    fn extensions_are_added_but_cannot_replace_standard_members() {
        let error = ApiError::new(ProblemKind::InvalidSetup, "3 problems")
            .with_extension("problems", vec!["a", "b"])
            .with_extension("code", "hijacked");
        assert_eq!(
            body_of(&error),
            json!({"type": "/problems/invalid-setup", "title": "Invalid setup", "status": 422,
                   "detail": "3 problems", "code": "invalid_setup", "problems": ["a", "b"]})
        );
    }

    #[test]
    fn second_statuses_keep_the_code() {
        let error = ApiError::new(ProblemKind::VersionConflict, "stale If-Match")
            .with_status(StatusCode::PRECONDITION_FAILED);
        let body = body_of(&error);
        assert_eq!(body["status"], 412);
        assert_eq!(body["code"], "version_conflict");
        assert_eq!(
            ApiError::bad_request("x").status_code(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            body_of(&ApiError::bad_request("x"))["code"],
            "validation_failed"
        );
    }

    #[test]
    fn rate_limited_carries_retry_after() {
        let error = ApiError::rate_limited(17);
        let response = error.error_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers().get(header::RETRY_AFTER).unwrap(), "17");
        assert_eq!(body_of(&error)["retry_after"], 17);
    }

    #[test]
    fn too_many_streams_carries_retry_after() {
        let error = ApiError::too_many_streams(5, 15);
        let response = error.error_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers().get(header::RETRY_AFTER).unwrap(), "15");
        let body = body_of(&error);
        assert_eq!(body["code"], "too_many_streams");
        assert_eq!(body["max_streams"], 5);
        assert_eq!(body["retry_after"], 15);
    }

    #[test]
    fn server_faults_hide_their_cause() {
        let error = ApiError::internal("SELECT * FROM users WHERE password_hash = 'x' panicked");
        let body = body_of(&error);
        assert_eq!(body["status"], 500);
        assert_eq!(body["code"], "internal_error");
        assert!(!body.to_string().contains("SELECT"));

        let error = ApiError::unavailable("could not connect to server: Connection refused");
        let response = error.error_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(response.headers().contains_key(header::RETRY_AFTER));
        let body = body_of(&error);
        assert_eq!(body["code"], "service_unavailable");
        assert!(!body.to_string().contains("refused"));
    }

    #[test]
    fn unauthorized_sends_a_bearer_challenge() {
        let response = ApiError::unauthorized("missing token").error_response();
        assert_eq!(
            response.headers().get(header::WWW_AUTHENTICATE).unwrap(),
            "Bearer"
        );
        let response = ApiError::invalid_token("expired").error_response();
        assert_eq!(
            response.headers().get(header::WWW_AUTHENTICATE).unwrap(),
            "Bearer error=\"invalid_token\""
        );
    }
}
