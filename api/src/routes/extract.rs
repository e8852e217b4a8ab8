//! Path and query values that are not what the API accepts: 400
//! `validation_failed`, in the API's own words, naming the parameter and
//! what it accepts.
//!
//! What a parameter accepts is read from the OpenAPI document the server
//! serves ([`ParameterTable`]), so an error message and the documentation
//! cannot disagree. The handlers keep `web::Path` / `web::Query`; actix
//! calls [`path_error`] and [`query_error`] (installed in `startup`) when one
//! cannot be read.
//!
//! `wait` (long polling) has the same bounds and the same refusal on every
//! endpoint that takes it: [`wait`], documented by [`WaitParam`].

use std::collections::HashMap;
use std::time::Duration;

use actix_web::error::{PathError, QueryPayloadError};
use actix_web::{web, HttpRequest};
use serde_json::Value;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::Required;
use utoipa::IntoParams;

use crate::error::ApiError;

/// The longest wait of a long poll (`wait`), in seconds, on every endpoint.
pub const MAX_WAIT_SECONDS: u64 = 60;

/// A value is echoed in an error up to this many characters.
const MAX_ECHOED_CHARS: usize = 40;

/// The `wait` query parameter of a long poll whose default is `DEFAULT`
/// seconds: one description for every endpoint that takes it.
pub struct WaitParam<const DEFAULT: u64>;

impl<const DEFAULT: u64> IntoParams for WaitParam<DEFAULT> {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let schema = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(0u64))
            .maximum(Some(MAX_WAIT_SECONDS))
            .default(Some(Value::from(DEFAULT)));
        let description = format!(
            "Long poll: seconds to hold the request while there is nothing new, a whole \
             number from 0 (answer at once) to {MAX_WAIT_SECONDS}; default {DEFAULT}. \
             Any other value answers 400 `validation_failed`."
        );
        vec![ParameterBuilder::new()
            .name("wait")
            .parameter_in(parameter_in().unwrap_or(ParameterIn::Query))
            .required(Required::False)
            .description(Some(description))
            .schema(Some(schema))
            // Swagger UI's "Try it out" fills in the example: answer at once.
            .example(Some(Value::from(0)))
            .build()]
    }
}

/// How long a long poll may hold the request: `seconds`, or the endpoint's
/// `default_seconds`; more than [`MAX_WAIT_SECONDS`] is refused.
pub fn wait(seconds: Option<u64>, default_seconds: u64) -> Result<Duration, ApiError> {
    let seconds = seconds.unwrap_or(default_seconds);
    if seconds > MAX_WAIT_SECONDS {
        let accepted = Accepts::Integer {
            min: Some(0),
            max: i64::try_from(MAX_WAIT_SECONDS).ok(),
        };
        return Err(invalid_value(
            "query parameter `wait`",
            &seconds.to_string(),
            &accepted,
        ));
    }
    Ok(Duration::from_secs(seconds))
}

/// What one parameter accepts, as its OpenAPI schema says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepts {
    Integer { min: Option<i64>, max: Option<i64> },
    Boolean,
    Uuid,
    OneOf(Vec<String>),
    Anything,
}

impl Accepts {
    /// Reads a parameter's `schema` (following a `$ref` into `doc`).
    fn from_schema(schema: &Value, doc: &Value) -> Self {
        let schema = match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => reference
                .strip_prefix('#')
                .and_then(|pointer| doc.pointer(pointer))
                .unwrap_or(&Value::Null),
            None => schema,
        };
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            return Self::OneOf(
                values
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            );
        }
        let type_name = match schema.get("type") {
            Some(Value::Array(types)) => types
                .iter()
                .filter_map(Value::as_str)
                .find(|t| *t != "null"),
            Some(other) => other.as_str(),
            None => None,
        };
        match (type_name, schema.get("format").and_then(Value::as_str)) {
            (Some("integer"), _) => Self::Integer {
                min: schema.get("minimum").and_then(Value::as_i64),
                max: schema.get("maximum").and_then(Value::as_i64),
            },
            (Some("boolean"), _) => Self::Boolean,
            (Some("string"), Some("uuid")) => Self::Uuid,
            _ => Self::Anything,
        }
    }

    fn admits(&self, value: &str) -> bool {
        match self {
            Self::Integer { min, max } => value.parse::<i128>().is_ok_and(|n| {
                min.is_none_or(|min| n >= i128::from(min))
                    && max.is_none_or(|max| n <= i128::from(max))
            }),
            Self::Boolean => matches!(value, "true" | "false"),
            Self::Uuid => uuid::Uuid::parse_str(value).is_ok(),
            Self::OneOf(values) => values.iter().any(|v| v == value),
            Self::Anything => true,
        }
    }

    /// What to send instead, e.g. "a whole number from 1 to 100".
    fn describe(&self) -> String {
        match self {
            Self::Integer {
                min: Some(min),
                max: Some(max),
            } => format!("a whole number from {min} to {max}"),
            Self::Integer {
                min: Some(min),
                max: None,
            } => format!("a whole number, {min} or more"),
            Self::Integer { min: None, max } => match max {
                Some(max) => format!("a whole number up to {max}"),
                None => "a whole number".to_owned(),
            },
            Self::Boolean => "`true` or `false`".to_owned(),
            Self::Uuid => "a UUID".to_owned(),
            Self::OneOf(values) => format!("one of {}", quoted_list(values)),
            Self::Anything => "another value".to_owned(),
        }
    }
}

/// One documented parameter.
#[derive(Debug, Clone)]
struct Documented {
    name: String,
    /// The parameter's description, e.g. "Game id".
    description: Option<String>,
    accepts: Accepts,
}

/// The path and query parameters of every operation, as documented; in
/// the application data, for [`path_error`] and [`query_error`].
#[derive(Debug, Default)]
pub struct ParameterTable {
    /// By `"GET /api/v1/games/{id}"`: (path parameters, query parameters).
    operations: HashMap<String, (Vec<Documented>, Vec<Documented>)>,
}

impl ParameterTable {
    pub fn from_openapi(doc: &utoipa::openapi::OpenApi) -> Self {
        let doc = serde_json::to_value(doc).unwrap_or(Value::Null);
        let mut operations = HashMap::new();
        let paths = doc.get("paths").and_then(Value::as_object);
        for (path, item) in paths.into_iter().flatten() {
            for (method, operation) in item.as_object().into_iter().flatten() {
                let mut in_path = Vec::new();
                let mut in_query = Vec::new();
                let parameters = operation.get("parameters").and_then(Value::as_array);
                for parameter in parameters.into_iter().flatten() {
                    let Some(name) = parameter.get("name").and_then(Value::as_str) else {
                        continue;
                    };
                    let documented = Documented {
                        name: name.to_owned(),
                        description: parameter
                            .get("description")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        accepts: parameter
                            .get("schema")
                            .map_or(Accepts::Anything, |s| Accepts::from_schema(s, &doc)),
                    };
                    match parameter.get("in").and_then(Value::as_str) {
                        Some("path") => in_path.push(documented),
                        Some("query") => in_query.push(documented),
                        _ => {}
                    }
                }
                let key = format!("{} {path}", method.to_ascii_uppercase());
                operations.insert(key, (in_path, in_query));
            }
        }
        Self { operations }
    }

    fn for_request(&self, req: &HttpRequest) -> Option<&(Vec<Documented>, Vec<Documented>)> {
        let pattern = req.match_pattern()?;
        self.operations.get(&format!("{} {pattern}", req.method()))
    }
}

/// `PathConfig` error handler: names the segment that is not what the
/// route takes, e.g. "game id `not-a-uuid` is not a UUID".
pub fn path_error(error: PathError, req: &HttpRequest) -> actix_web::Error {
    let table = req.app_data::<web::Data<ParameterTable>>();
    let documented = table
        .and_then(|t| t.for_request(req))
        .map(|(in_path, _)| in_path.as_slice())
        .unwrap_or_default();
    let refused = req.match_info().iter().find_map(|(name, value)| {
        let parameter = documented.iter().find(|p| p.name == name)?;
        (!parameter.accepts.admits(value)).then_some((parameter, value))
    });
    let api_error = match refused {
        Some((parameter, value)) => {
            let label = match &parameter.description {
                Some(description) => lowercase_first(description),
                None => format!("path parameter `{}`", parameter.name),
            };
            match parameter.accepts {
                Accepts::Uuid => {
                    ApiError::bad_request(format!("{label} `{}` is not a UUID", echo(value)))
                }
                ref accepts => invalid_value(&label, value, accepts),
            }
        }
        None => {
            tracing::debug!(error = %error, "unexplained path error");
            ApiError::bad_request(format!("the path {} cannot be read", echo(req.path())))
        }
    };
    api_error.into()
}

/// `QueryConfig` error handler: names the parameter whose value is not
/// accepted and says what is, e.g. "query parameter `status`: `bogus` is
/// not accepted; expected one of `waiting`, `setup`, ...".
pub fn query_error(error: QueryPayloadError, req: &HttpRequest) -> actix_web::Error {
    query_problem(&error, req).into()
}

fn query_problem(error: &QueryPayloadError, req: &HttpRequest) -> ApiError {
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(web::Query::into_inner)
        .unwrap_or_default();
    let table = req.app_data::<web::Data<ParameterTable>>();
    let documented = table
        .and_then(|t| t.for_request(req))
        .map(|(_, in_query)| in_query.as_slice())
        .unwrap_or_default();
    for (name, value) in &pairs {
        if let Some(parameter) = documented.iter().find(|p| &p.name == name) {
            if !parameter.accepts.admits(value) {
                let label = format!("query parameter `{name}`");
                return invalid_value(&label, value, &parameter.accepts);
            }
        }
    }
    for (i, (name, _)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|(earlier, _)| earlier == name) {
            return ApiError::bad_request(format!(
                "query parameter `{}` is given more than once",
                echo(name)
            ));
        }
    }
    if let Some((name, _)) = pairs
        .iter()
        .find(|(name, _)| !documented.iter().any(|p| &p.name == name))
    {
        let names: Vec<String> = documented.iter().map(|p| p.name.clone()).collect();
        return ApiError::bad_request(format!(
            "unknown query parameter `{}`; accepted: {}",
            echo(name),
            quoted_list(&names)
        ));
    }
    tracing::debug!(error = %error, "unexplained query error");
    ApiError::bad_request("the query string cannot be read")
}

/// The one wording of a refused value.
fn invalid_value(label: &str, value: &str, accepts: &Accepts) -> ApiError {
    ApiError::bad_request(format!(
        "{label}: `{}` is not accepted; expected {}",
        echo(value),
        accepts.describe()
    ))
}

/// A client's value as repeated in a message: shortened when long.
fn echo(value: &str) -> String {
    if value.chars().count() <= MAX_ECHOED_CHARS {
        return value.to_owned();
    }
    let mut short: String = value.chars().take(MAX_ECHOED_CHARS).collect();
    short.push('…');
    short
}

fn quoted_list(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A JSON body a request may leave out: `None` without a body (no
/// `Content-Length`, or 0, and no `Transfer-Encoding`); with one, read as
/// `web::Json` reads it, so a body that is there answers the same 400,
/// 413, 415 and 422 as on any other endpoint.
pub struct OptionalJson<T>(pub Option<T>);

impl<T: serde::de::DeserializeOwned + 'static> actix_web::FromRequest for OptionalJson<T> {
    type Error = actix_web::Error;
    type Future = futures_util::future::LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        use actix_web::http::header;
        let headers = req.headers();
        let has_body = headers.contains_key(header::TRANSFER_ENCODING)
            || headers
                .get(header::CONTENT_LENGTH)
                .is_some_and(|length| length.as_bytes() != b"0");
        if !has_body {
            return Box::pin(async { Ok(OptionalJson(None)) });
        }
        let json = web::Json::<T>::from_request(req, payload);
        Box::pin(async move { Ok(OptionalJson(Some(json.await?.into_inner()))) })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use actix_web::ResponseError;

    fn table() -> ParameterTable {
        ParameterTable::from_openapi(&crate::openapi_document())
    }

    fn query(table: &ParameterTable, key: &str, name: &str) -> Accepts {
        let (_, in_query) = &table.operations[key];
        in_query
            .iter()
            .find(|p| p.name == name)
            .unwrap()
            .accepts
            .clone()
    }

    #[test]
    fn accepted_values_come_from_the_openapi_document() {
        let table = table();
        let status = query(&table, "GET /api/v1/games", "status");
        let Accepts::OneOf(values) = &status else {
            panic!("{status:?}");
        };
        assert!(values.contains(&"playing".to_owned()), "{values:?}");
        assert_eq!(
            query(&table, "GET /api/v1/games", "limit"),
            Accepts::Integer {
                min: Some(1),
                max: Some(100)
            }
        );
        assert_eq!(query(&table, "GET /api/v1/games", "mine"), Accepts::Boolean);
        assert_eq!(
            query(&table, "GET /api/v1/events", "wait").describe(),
            "a whole number from 0 to 60"
        );
        assert_eq!(
            query(&table, "GET /api/v1/games/{id}", "wait"),
            query(&table, "GET /api/v1/events", "wait")
        );
    }

    #[test]
    fn every_path_parameter_is_documented_with_what_it_accepts() {
        let table = table();
        for (key, (in_path, _)) in &table.operations {
            for parameter in in_path {
                // Ids everywhere; a problem type's name is a word, and a
                // username any text (one that cannot be a name is 404).
                let expected = if key.ends_with("/problems/{name}") || parameter.name == "username"
                {
                    Accepts::Anything
                } else {
                    Accepts::Uuid
                };
                assert_eq!(parameter.accepts, expected, "{key} {}", parameter.name);
                assert!(parameter.description.is_some(), "{key} {}", parameter.name);
            }
        }
    }

    #[test]
    fn values_are_checked_as_documented() {
        let limit = Accepts::Integer {
            min: Some(1),
            max: Some(100),
        };
        assert!(limit.admits("100") && !limit.admits("0") && !limit.admits("abc"));
        assert!(Accepts::Boolean.admits("true") && !Accepts::Boolean.admits("maybe"));
        assert!(!Accepts::Uuid.admits("not-a-uuid"));
        assert_eq!(echo(&"x".repeat(100)).chars().count(), MAX_ECHOED_CHARS + 1);
    }

    #[test]
    fn wait_has_one_bound_and_one_wording() {
        assert_eq!(wait(None, 30).unwrap(), Duration::from_secs(30));
        assert_eq!(wait(Some(0), 30).unwrap(), Duration::ZERO);
        assert_eq!(wait(Some(60), 0).unwrap(), Duration::from_secs(60));
        let error = wait(Some(61), 0).unwrap_err();
        assert_eq!(
            error.status_code(),
            actix_web::http::StatusCode::BAD_REQUEST
        );
        assert_eq!(
            error.body()["detail"],
            "query parameter `wait`: `61` is not accepted; expected a whole number from 0 to 60"
        );
    }
}
