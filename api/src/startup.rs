//! Building and running the server: used by `main` and by the end-to-end
//! tests, which start the real thing on port 0.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Instant;

use actix_cors::Cors;
use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServerHandle, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::{DefaultHeaders, ErrorHandlerResponse, ErrorHandlers};
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer, ResponseError};
use chrono::Duration;
use tracing::Instrument;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::auth::password;
use crate::auth::sessions::EndedSessions;
use crate::auth::tokens::TokenService;
use crate::clock::Clock;
use crate::config::{self, Config, CorsOrigins};
use crate::db::{self, DbPool};
use crate::error::{ApiError, BoxError, ProblemKind, PROBLEM_JSON};
use crate::events::{self, Notifier};
use crate::rate_limit::RateLimiter;
use crate::routes;
use crate::routes::extract::{path_error, query_error};
use crate::state::AppState;
use crate::stop::{RequestsDone, StopBudget};
use crate::telemetry;

mod docs;

pub use docs::{openapi_document, RouteTable, ServedDocs};

/// Where Swagger UI and the OpenAPI document are served.
pub const DOCS_PATH: &str = "/docs";
pub const OPENAPI_JSON_PATH: &str = "/api-docs/openapi.json";

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot open the database {database}: {source}")]
    Database { database: String, source: BoxError },
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Other(BoxError),
}

/// A built server, bound to its port, not yet running.
pub struct Application {
    port: u16,
    server: Server,
    /// `GET /metrics` on its own address (`METRICS_BIND_ADDRESS`): the
    /// port it listens on and its server's handle.
    metrics: Option<(u16, ServerHandle)>,
    pool: DbPool,
    notifier: Notifier,
    games: crate::games::Context,
    /// The outbox's task, and how it learns the requests are done.
    outbox: tokio::task::JoinHandle<()>,
    requests_done: RequestsDone,
    budget: StopBudget,
}

impl Application {
    /// Opens the pool, runs pending migrations, binds the listener (port 0
    /// picks a free port) and prepares the HTTP server.
    pub async fn build(config: Config, clock: Arc<dyn Clock>) -> Result<Self, StartupError> {
        let database = config.database.redacted();
        let db_error = |source: BoxError| StartupError::Database {
            database: database.clone(),
            source: db::with_tls_context(&config.database, source),
        };
        let pool = db::pool(
            &config.database,
            config.database_pool_size,
            config.database_timeout,
            config.sqlite_synchronous,
        )
        .map_err(&db_error)?
        .with_worker_connections(
            &config.database,
            config.workers.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            }),
            config.database_read_connections as usize,
            config.database_write_connections as usize,
        )
        .with_replicas(replicas(&config)?);
        let migration_pool = pool.clone();
        let applied = web::block(move || -> Result<usize, BoxError> {
            let mut conn = migration_pool.get()?;
            db::migrate(&mut conn)
        })
        .await
        .map_err(|e| StartupError::Other(e.to_string().into()))?
        .map_err(&db_error)?;
        if applied > 0 {
            tracing::info!(applied, "database migrations applied");
        }

        let dummy_password_hash = password::dummy_hash_blocking()
            .await
            .map_err(|e| StartupError::Other(e.to_string().into()))?;
        let tokens = Arc::new(
            TokenService::new(&config, clock.clone())
                .map_err(|e| StartupError::Other(e.to_string().into()))?,
        );
        // Sessions that ended within one access-token lifetime, before any
        // request is served (docs/accounts.md).
        let ended = Arc::new(EndedSessions::new(config.access_token_ttl, clock.clone()));
        crate::accounts::sessions::load_ended(&pool, &ended)
            .await
            .map_err(|e| db_error(e.into()))?;

        let listener =
            TcpListener::bind(config.bind_address).map_err(|source| StartupError::Bind {
                address: config.bind_address.to_string(),
                source,
            })?;
        let local = listener.local_addr().map_err(|source| StartupError::Bind {
            address: config.bind_address.to_string(),
            source,
        })?;

        let window = Duration::minutes(1);
        let notifier = Notifier::start(&config);
        notifier.record_ended_sessions_in(ended.clone());
        crate::accounts::sessions::spawn_reloader(pool.clone(), ended.clone(), notifier.clone());
        let games = crate::games::Context {
            pool: pool.clone(),
            clock: clock.clone(),
            notifier: notifier.clone(),
            recent: Arc::new(crate::games::recent::RecentGames::new(
                crate::games::recent::BUDGET_BYTES,
                clock.clone(),
            )),
            vacation: config.vacation,
            games_ended: Arc::default(),
        };
        let accounts = crate::accounts::Context {
            pool: pool.clone(),
            clock: clock.clone(),
            tokens,
            ended,
            known: Arc::new(crate::auth::known::KnownUsers::new()),
            refresh_ttl: config.refresh_token_ttl,
            login_limiter: Arc::new(RateLimiter::new(
                "login",
                config.login_attempts_per_minute,
                window,
            )),
            register_limiter: Arc::new(RateLimiter::new(
                "register",
                config.register_attempts_per_minute,
                window,
            )),
            dummy_password_hash: dummy_password_hash.into(),
            games: games.clone(),
        };
        // A deletion interrupted by a stop left games running: end them.
        match crate::accounts::delete::finish_interrupted(&games).await {
            Ok(0) => {}
            Ok(ended) => tracing::info!(games = ended, "ended the games of deleted accounts"),
            Err(error) => tracing::warn!(%error, "cannot end the games of deleted accounts yet"),
        }
        let outbox = crate::notifications::outbox::Outbox::from_config(&config)
            .map_err(|e| StartupError::Other(e.to_string().into()))?;
        let state = web::Data::new(AppState {
            pool: pool.clone(),
            clock: clock.clone(),
            notifier: notifier.clone(),
            config: config.clone(),
            games,
            accounts,
            outbox: outbox.clone(),
        });
        // Background work, each with just what it needs; all of it ends
        // when the notifier shuts down.
        tokio::spawn(events::end_streams_on_signal(notifier.clone()));
        crate::games::reminders::ReminderTask {
            pool: pool.clone(),
            clock: clock.clone(),
            notifier: notifier.clone(),
            every: std::time::Duration::from_secs(config.reminder_interval_seconds),
            percent: config.deadline_reminder_percent,
            retention_days: config.event_retention_days,
        }
        .spawn();
        crate::games::bot_worker::spawn(
            state.games.clone(),
            crate::games::bot_worker::BotSettings {
                think: std::time::Duration::from_millis(config.bot_think_millis),
                rescan: std::time::Duration::from_secs(config.bot_rescan_seconds),
            },
        );
        let budget = StopBudget::of(config.shutdown_grace_seconds);
        let requests_done = RequestsDone::default();
        let outbox = crate::notifications::outbox::spawn(
            pool.clone(),
            clock.clone(),
            notifier.clone(),
            outbox,
            budget.hand_back_after,
            requests_done.clone(),
        )
        .map_err(|e| StartupError::Other(e.to_string().into()))?;
        crate::replication::spawn(
            pool.clone(),
            config.database_replica_max_lag,
            notifier.clone(),
        );
        crate::games::clock::spawn_sweep(
            state.games.clone(),
            std::time::Duration::from_secs(config.deadline_sweep_seconds),
        );
        crate::tournaments::worker::spawn(
            state.games.clone(),
            std::time::Duration::from_secs(config.deadline_sweep_seconds),
        );

        let metrics = match config.metrics_bind_address {
            None => None,
            Some(address) => Some(serve_metrics(address, state.clone())?),
        };
        let app_state = state.clone();
        let docs = ServedDocs::made_aside().map_err(StartupError::Other)?;
        let mut server = HttpServer::new(move || {
            // Called on each worker's thread as it starts.
            db::mark_http_worker();
            build_app(app_state.clone(), &docs)
        })
        .listen(listener)
        .map_err(|source| StartupError::Bind {
            address: local.to_string(),
            source,
        })?
        .shutdown_timeout(budget.requests_seconds)
        .keep_alive(if config.keep_alive.is_zero() {
            actix_web::http::KeepAlive::Disabled
        } else {
            actix_web::http::KeepAlive::Timeout(config.keep_alive)
        });
        if let Some(workers) = config.workers {
            server = server.workers(workers);
        }
        let server = server.run();
        tracing::info!(
            address = %local,
            database = %config.database.redacted(),
            "listening on http://{local}; Swagger UI at http://{local}{DOCS_PATH}/"
        );
        Ok(Self {
            port: local.port(),
            server,
            metrics,
            pool,
            notifier,
            games: state.games.clone(),
            outbox,
            requests_done,
            budget,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port `GET /metrics` is served on when `METRICS_BIND_ADDRESS` is
    /// set (0 there picks a free one).
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics.as_ref().map(|(port, _)| *port)
    }

    /// A handle to stop the server (`handle.stop(true).await` is graceful).
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// The game service the server runs (tests may run a bot's look or
    /// the clock's sweep with it, as the server's own tasks do).
    pub fn games(&self) -> crate::games::Context {
        self.games.clone()
    }

    /// The pool the server uses (tests may inspect the database with it).
    pub fn pool(&self) -> DbPool {
        self.pool.clone()
    }

    /// Serves until stopped: SIGTERM or SIGINT, or a [`ServerHandle`].
    /// The stop takes at most `SHUTDOWN_GRACE_SECONDS`, shared as
    /// [`StopBudget`] says.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let result = self.server.await;
        if let Some((_, metrics)) = &self.metrics {
            metrics.stop(true).await;
        }
        self.requests_done.mark();
        // Stops the background tasks and the LISTEN thread, which first
        // sends the announcements still waiting; the outbox finishes its
        // pass or hands it back.
        let after = self.budget.after_requests;
        let notifier = self.notifier.clone();
        let finish = tokio::task::spawn_blocking(move || notifier.finish(after));
        let outbox = self.outbox;
        if tokio::time::timeout(after, futures_util::future::join(finish, outbox))
            .await
            .is_err()
        {
            tracing::warn!("stopping: the outbox did not finish in time; its leases run out");
        }
        tracing::info!("server stopped");
        result
    }
}

/// The read replicas of `DATABASE_REPLICA_URL`, each with a pool of its
/// own (half the primary's, at least two connections) whose requests wait
/// half as long, so that a lost replica leaves time to read the primary.
fn replicas(config: &Config) -> Result<db::Replicas, StartupError> {
    let mut pools = Vec::new();
    for (i, url) in config.database_replicas.iter().enumerate() {
        let pool = db::pool(
            &config::DatabaseUrl::Postgres(url.clone()),
            (config.database_pool_size / 2).max(2),
            (config.database_timeout / 2).max(std::time::Duration::from_millis(500)),
            config.sqlite_synchronous,
        )
        .map_err(|source| StartupError::Database {
            database: format!("replica {}", i + 1),
            source,
        })?;
        pools.push(pool);
    }
    if !pools.is_empty() {
        tracing::info!(
            replicas = pools.len(),
            max_lag_ms = config.database_replica_max_lag.as_millis() as u64,
            "read replicas configured: each is read once a check finds it streaming and within the lag allowed"
        );
    }
    Ok(db::Replicas::new(pools, config.database_replica_max_lag))
}

/// Unknown paths answer 404, known paths with another method 405 + `Allow`.
async fn fallback(
    req: HttpRequest,
    routes: web::Data<RouteTable>,
) -> Result<HttpResponse, ApiError> {
    match routes.allowed(req.path()) {
        Some(methods) => {
            let allow = methods
                .iter()
                .map(Method::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            let mut error = ApiError::new(
                ProblemKind::MethodNotAllowed,
                format!("{} is not allowed here; use {allow}", req.method()),
            );
            if let Ok(value) = HeaderValue::from_str(&allow) {
                error = error.with_header(header::ALLOW, value);
            }
            Err(error)
        }
        None => Err(ApiError::not_found(format!(
            "no such resource: {}",
            req.path()
        ))),
    }
}

/// Turns any error answer that is not already a problem document (from
/// actix itself, CORS, the Swagger UI service) into one, so no error is ever
/// an HTML page or an empty body.
fn problem_for_stray_error<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(PROBLEM_JSON));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let preflight = res.request().method() == Method::OPTIONS
        && res
            .request()
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let error = match status {
        s if preflight && s.is_client_error() => {
            let configured = res
                .request()
                .app_data::<web::Data<AppState>>()
                .is_some_and(|state| match &state.config.cors_origins {
                    CorsOrigins::Any => true,
                    CorsOrigins::List(list) => !list.is_empty(),
                });
            let detail = if configured {
                "CORS preflight refused: this origin (or a requested method or header) is not \
                 allowed; browsers may call the API only from the origins listed in \
                 CORS_ALLOWED_ORIGINS"
            } else {
                "CORS preflight refused: no origin may call the API from a browser, because \
                 CORS_ALLOWED_ORIGINS is empty; set it to the frontend's origins \
                 (e.g. https://play.example) or to *"
            };
            ApiError::bad_request(detail).with_status(s)
        }
        StatusCode::NOT_FOUND => ApiError::not_found("no such resource"),
        StatusCode::METHOD_NOT_ALLOWED => ApiError::new(
            ProblemKind::MethodNotAllowed,
            "this method is not allowed here",
        ),
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            ProblemKind::PayloadTooLarge,
            "the request body is too large",
        ),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::new(
            ProblemKind::UnsupportedMediaType,
            "the request body must be application/json",
        ),
        StatusCode::UNAUTHORIZED => ApiError::unauthorized("authentication is required"),
        StatusCode::FORBIDDEN => ApiError::forbidden("this request is not allowed"),
        StatusCode::SERVICE_UNAVAILABLE => ApiError::unavailable("service unavailable"),
        s if s.is_server_error() => ApiError::internal(format!("unhandled {s} response")),
        s => ApiError::bad_request(format!(
            "the request was rejected: {}",
            s.canonical_reason().unwrap_or("bad request")
        ))
        .with_status(s),
    };
    let (req, _) = res.into_parts();
    let response = ServiceResponse::new(req, error.error_response());
    Ok(ErrorHandlerResponse::Response(
        response.map_into_right_body(),
    ))
}

fn json_error(error: actix_web::error::JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError as E;
    let api_error = match &error {
        E::OverflowKnownLength { limit, .. } | E::Overflow { limit } => ApiError::new(
            ProblemKind::PayloadTooLarge,
            format!("the request body exceeds {limit} bytes"),
        ),
        E::ContentType => ApiError::new(
            ProblemKind::UnsupportedMediaType,
            "the request body must be application/json",
        ),
        E::Payload(payload) if routes::body::is_late_body(payload) => ApiError::new(
            ProblemKind::RequestTimeout,
            "the request body did not arrive in full in time (REQUEST_BODY_TIMEOUT_SECONDS)",
        ),
        E::Deserialize(json) => describe_json_error(json),
        other => ApiError::bad_request(format!("the request body could not be read: {other}")),
    };
    api_error.into()
}

/// Explains a JSON error without echoing values from the body (which may
/// hold a password): only field names and positions are repeated.
fn describe_json_error(error: &serde_json::Error) -> ApiError {
    use serde_json::error::Category;
    let message = error.to_string();
    let position = format!("at line {} column {}", error.line(), error.column());
    match error.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            ApiError::bad_request(format!("the body is not valid JSON {position}"))
        }
        Category::Data => {
            let safe = [
                "unknown field",
                "missing field",
                "duplicate field",
                "unknown variant",
            ]
            .iter()
            .any(|prefix| message.starts_with(prefix));
            if safe {
                ApiError::validation(message)
            } else {
                ApiError::validation(format!(
                    "a value has the wrong type or is out of range {position}"
                ))
            }
        }
    }
}

fn cors(origins: &CorsOrigins) -> Cors {
    let cors = match origins {
        CorsOrigins::Any => Cors::default().allow_any_origin(),
        CorsOrigins::List(list) => {
            let list = list.clone();
            // Browsers send `Origin` on same-origin POSTs too (Swagger UI at
            // /docs does): those are always fine, whatever the list says.
            Cors::default().allowed_origin_fn(move |origin, head| {
                let Ok(origin) = origin.to_str() else {
                    return false;
                };
                list.iter()
                    .any(|allowed| allowed.eq_ignore_ascii_case(origin))
                    || is_same_origin(origin, head)
            })
        }
    };
    cors.allowed_methods(["GET", "POST", "PUT", "PATCH", "DELETE"])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::IF_MATCH,
            header::IF_NONE_MATCH,
            header::HeaderName::from_static("idempotency-key"),
            header::HeaderName::from_static(telemetry::REQUEST_ID_HEADER),
        ])
        .expose_headers([
            header::ETAG,
            header::RETRY_AFTER,
            header::LOCATION,
            header::WWW_AUTHENTICATE,
            header::HeaderName::from_static(telemetry::REQUEST_ID_HEADER),
        ])
        .max_age(3600)
}

/// Whether `origin` (`scheme://host[:port]`) names the host the request was
/// sent to.
fn is_same_origin(origin: &str, head: &actix_web::dev::RequestHead) -> bool {
    let Some(host) = head
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
    else {
        return false;
    };
    origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(|authority| authority.eq_ignore_ascii_case(host))
}

/// The complete application for one worker: routes, documentation,
/// extractor settings, fallbacks and middleware.
/// Serves `GET /metrics` alone on `address` (one worker, no signals of
/// its own: it stops after the API's server, `run_until_stopped`).
fn serve_metrics(
    address: std::net::SocketAddr,
    state: web::Data<AppState>,
) -> Result<(u16, ServerHandle), StartupError> {
    let bind_error = |source| StartupError::Bind {
        address: address.to_string(),
        source,
    };
    let listener = TcpListener::bind(address).map_err(bind_error)?;
    let port = listener.local_addr().map_err(bind_error)?.port();
    let server = HttpServer::new(move || {
        App::new().app_data(state.clone()).route(
            routes::metrics::METRICS_PATH,
            web::get().to(routes::metrics::metrics),
        )
    })
    .listen(listener)
    .map_err(bind_error)?
    .workers(1)
    .disable_signals()
    .run();
    let handle = server.handle();
    tokio::spawn(server);
    tracing::info!(address = %address, port, "metrics served on their own address");
    Ok((port, handle))
}

pub fn build_app(
    state: web::Data<AppState>,
    docs: &ServedDocs,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let max_body = state.config.max_body_bytes;
    let body_timeout = state.config.request_body_timeout;
    // On the API's own address unless METRICS_BIND_ADDRESS says elsewhere.
    let metrics_here = state.config.metrics_bind_address.is_none();
    let cors = cors(&state.config.cors_origins);
    // The routes register through utoipa's wrapper, which also gathers
    // their documentation; that copy is dropped: the document served is
    // the one made once (`ServedDocs`).
    let (app, _) = App::new()
        .into_utoipa_app()
        .app_data(state)
        .app_data(
            web::JsonConfig::default()
                .limit(max_body)
                .error_handler(json_error),
        )
        .app_data(web::PayloadConfig::default().limit(max_body))
        .app_data(web::QueryConfig::default().error_handler(query_error))
        .app_data(web::PathConfig::default().error_handler(path_error))
        .configure(routes::configure)
        .split_for_parts();
    let json = docs.json.clone();
    app.app_data(docs.routes.clone())
        .app_data(docs.parameters.clone())
        .route(
            OPENAPI_JSON_PATH,
            web::get().to(move || {
                let json = json.clone();
                async move {
                    HttpResponse::Ok()
                        .content_type(header::ContentType::json())
                        .body(json)
                }
            }),
        )
        .service(web::resource(DOCS_PATH).route(web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header((header::LOCATION, "/docs/"))
                .finish()
        })))
        .service(
            SwaggerUi::new("/docs/{_:.*}").config(
                utoipa_swagger_ui::Config::new([OPENAPI_JSON_PATH])
                    .persist_authorization(true)
                    .display_operation_id(true),
            ),
        )
        .configure(crate::play::configure)
        .configure(move |cfg| {
            if metrics_here {
                cfg.route(
                    routes::metrics::METRICS_PATH,
                    web::get().to(routes::metrics::metrics),
                );
            }
        })
        .default_service(web::to(fallback))
        .wrap(
            DefaultHeaders::new()
                .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
                .add((header::REFERRER_POLICY, "no-referrer")),
        )
        .wrap(cors)
        .wrap(ErrorHandlers::new().default_handler(problem_for_stray_error))
        .wrap_fn(move |mut req, srv| {
            use actix_web::dev::Service;
            let started = Instant::now();
            routes::body::bound_body_read(&mut req, body_timeout);
            let request_id = telemetry::request_id(&req);
            let span = telemetry::request_span(&req, &request_id);
            let response = span.in_scope(|| srv.call(req));
            async move {
                let mut res = response.await?;
                if res.status() == StatusCode::REQUEST_TIMEOUT {
                    // The rest of the late body may still be on its way:
                    // this connection cannot carry another request.
                    res.response_mut()
                        .head_mut()
                        .set_connection_type(actix_web::http::ConnectionType::Close);
                }
                Ok(telemetry::finish(res, &request_id, started))
            }
            .instrument(span)
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn route_table_tells_wrong_method_from_unknown_path() {
        let table = RouteTable::from_openapi(&openapi_document());
        assert_eq!(
            table.allowed("/api/v1/auth/login"),
            Some(vec![Method::POST])
        );
        assert_eq!(
            table.allowed("/api/v1/me"),
            Some(vec![Method::GET, Method::DELETE])
        );
        assert_eq!(
            table.allowed("/api/v1/me/password"),
            Some(vec![Method::PUT])
        );
        assert_eq!(table.allowed("/api/v1/nothing"), None);
    }

    #[test]
    fn json_errors_never_echo_values() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Body {
            password: String,
        }
        let err = serde_json::from_str::<Body>(r#"{"password": 12345678}"#).unwrap_err();
        let body = describe_json_error(&err).body().to_string();
        assert!(!body.contains("12345678"), "{body}");
        let err = serde_json::from_str::<Body>(r#"{"password": "x""#).unwrap_err();
        assert_eq!(
            describe_json_error(&err).status_code(),
            StatusCode::BAD_REQUEST
        );
    }
}
