//! Configuration: command-line flags, each backed by an environment variable.
//!
//! Everything arrives as text and is parsed here, once, by each flag's clap
//! value parser, so a bad value stops the server at start-up with a single
//! line naming the variable at fault.

use std::ffi::OsStr;
use std::fmt;
use std::io::{ErrorKind, Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use base64::Engine;
use chrono::Duration;
use clap::builder::{EnumValueParser, PossibleValue, RangedU64ValueParser, TypedValueParser};
use clap::{value_parser, ArgAction};
use rand::RngCore;

/// The shortest JWT secret accepted, in bytes (HS256 wants at least 256 bits).
pub const MIN_JWT_SECRET_BYTES: usize = 32;
/// Name of the generated secret file, kept beside an SQLite database.
pub const GENERATED_SECRET_FILE: &str = ".stratego-secret";

/// A configuration value that was rejected; the message is one line.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

impl ConfigError {
    fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

/// A secret string whose `Debug` output never shows the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

/// Which database the server talks to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseUrl {
    /// A libpq connection URL (`postgres://...`).
    Postgres(String),
    /// A file path for the embedded SQLite database.
    Sqlite(PathBuf),
}

impl DatabaseUrl {
    pub fn parse(url: &str) -> Result<Self, ConfigError> {
        let url = url.trim();
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Self::Postgres(url.to_owned()));
        }
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .ok_or_else(|| {
                ConfigError::new(
                    "DATABASE_URL must start with postgres://, postgresql:// or sqlite://",
                )
            })?;
        if path.is_empty() || path.contains(":memory:") || path.starts_with("file:") {
            return Err(ConfigError::new(
                "DATABASE_URL: sqlite:// needs a file path, e.g. sqlite://./stratego.db",
            ));
        }
        Ok(Self::Sqlite(PathBuf::from(path)))
    }

    /// A description safe for logs: the PostgreSQL password is masked.
    pub fn redacted(&self) -> String {
        match self {
            Self::Sqlite(path) => format!("sqlite://{}", path.display()),
            Self::Postgres(url) => redact_url_password(url),
        }
    }
}

fn redact_url_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "postgres://[redacted]".to_owned();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((credentials, host)) => {
            let user = credentials.split(':').next().unwrap_or_default();
            let masked = if credentials.contains(':') {
                format!("{user}:***")
            } else {
                user.to_owned()
            };
            format!("{scheme}://{masked}@{host}{tail}")
        }
        None => url.to_owned(),
    }
}

/// Log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// How the embedded SQLite database syncs to disk at each commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SqliteSynchronous {
    /// Every commit reaches the disk before it is acknowledged: a power
    /// loss cannot take back an acknowledged move.
    Full,
    /// Faster; a power loss (not a crash of the server) may lose the last
    /// commits.
    Normal,
}

impl SqliteSynchronous {
    /// The `PRAGMA synchronous` value.
    pub fn pragma(self) -> &'static str {
        match self {
            SqliteSynchronous::Full => "FULL",
            SqliteSynchronous::Normal => "NORMAL",
        }
    }
}

/// Which cross-origin callers may use the API from a browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Any origin (`*`): fine for a bearer-token API without cookies.
    Any,
    /// Exactly these origins (`scheme://host[:port]`); empty means none.
    List(Vec<String>),
}

/// The default of every optional setting, in one place: the flags of
/// [`ServerArgs`] take them (and `--help` shows them), [`Config::new`]
/// starts from them, and a test holds the README's configuration table to
/// them.
pub mod defaults {
    use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

    use super::{LogFormat, SqliteSynchronous};

    pub const BIND_ADDRESS: SocketAddr =
        SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 8080));
    /// Where the embedded database lives when `DATABASE_URL` is unset.
    pub const DATABASE_URL: &str = "sqlite://./stratego.db";
    pub const JWT_ISSUER: &str = "stratego";
    pub const JWT_AUDIENCE: &str = "stratego-api";
    pub const ACCESS_TOKEN_TTL_SECONDS: i64 = 15 * 60;
    pub const REFRESH_TOKEN_TTL_SECONDS: i64 = 30 * 86_400;
    /// No origin is allowed.
    pub const CORS_ALLOWED_ORIGINS: &str = "";
    pub const LOG_LEVEL: &str = "info";
    pub const LOG_FORMAT: LogFormat = LogFormat::Text;
    pub const DATABASE_POOL_SIZE: u32 = 10;
    pub const DATABASE_READ_CONNECTIONS: u32 = 2;
    pub const DATABASE_TIMEOUT_SECONDS: u64 = 3;
    pub const SQLITE_SYNCHRONOUS: SqliteSynchronous = SqliteSynchronous::Full;
    pub const LOGIN_RATE_LIMIT: u32 = 10;
    pub const REGISTER_RATE_LIMIT: u32 = 10;
    pub const MAX_BODY_BYTES: usize = 64 * 1024;
    pub const REQUEST_BODY_TIMEOUT_SECONDS: u64 = 10;
    pub const KEEP_ALIVE_SECONDS: u64 = 5;
    pub const TRUST_PROXY_HEADERS: bool = false;
    pub const SHUTDOWN_TIMEOUT_SECONDS: u64 = 30;
    pub const MAX_STREAMS_PER_USER: usize = 5;
    pub const SSE_KEEPALIVE_SECONDS: u64 = 15;
    pub const DEADLINE_REMINDER_PERCENT: u32 = 25;
    pub const REMINDER_INTERVAL_SECONDS: u64 = 60;
    pub const DEADLINE_SWEEP_SECONDS: u64 = 30;
    pub const EVENT_RETENTION_DAYS: u32 = 90;
    pub const BOT_THINK_MILLIS: u64 = 500;
    pub const BOT_RESCAN_SECONDS: u64 = 30;
}

/// The complete, validated configuration of one server.
#[derive(Debug, Clone)]
pub struct Config {
    pub bind_address: SocketAddr,
    pub database: DatabaseUrl,
    pub jwt_secret: Secret,
    pub jwt_issuer: String,
    pub jwt_audience: String,
    pub access_token_ttl: Duration,
    pub refresh_token_ttl: Duration,
    pub cors_origins: CorsOrigins,
    pub log_level: String,
    pub log_format: LogFormat,
    pub database_pool_size: u32,
    /// PostgreSQL: connections each HTTP worker keeps for reads of games
    /// that take no blocking thread (0: reads use the pool; docs/storage.md,
    /// "Reads without a blocking thread").
    pub database_read_connections: u32,
    /// How long a request may wait for the database (a connection, then its
    /// work) before 503 (docs/architecture.md, "When the database fails").
    pub database_timeout: std::time::Duration,
    /// Durability of the embedded SQLite database (ignored on PostgreSQL).
    pub sqlite_synchronous: SqliteSynchronous,
    /// Login attempts allowed per minute, per client address and per username.
    pub login_attempts_per_minute: u32,
    /// Registrations allowed per minute per client address.
    pub register_attempts_per_minute: u32,
    pub max_body_bytes: usize,
    /// The longest a request body may take to arrive, counted from its
    /// headers; past it the request answers 408 and the connection closes.
    pub request_body_timeout: std::time::Duration,
    /// How long an idle keep-alive connection stays open; zero turns
    /// keep-alive off.
    pub keep_alive: std::time::Duration,
    /// Take the client address from `Forwarded`/`X-Forwarded-For` (only
    /// behind a proxy that sets them).
    pub trust_proxy_headers: bool,
    /// HTTP worker threads; `None` means one per core.
    pub workers: Option<usize>,
    pub shutdown_timeout_seconds: u64,
    /// Open event/game streams (SSE) allowed per user, per server process.
    pub max_streams_per_user: usize,
    /// Seconds between keep-alive comments on an idle stream.
    pub sse_keepalive_seconds: u64,
    /// `deadline_soon` is sent when less than this percentage of the move
    /// time is left.
    pub deadline_reminder_percent: u32,
    /// Seconds between two looks for games whose reminder is due.
    pub reminder_interval_seconds: u64,
    /// Seconds between two sweeps for games whose deadline passed.
    pub deadline_sweep_seconds: u64,
    /// Events older than this many days are deleted (each user's newest
    /// event is always kept, so event ids keep increasing).
    pub event_retention_days: u32,
    /// The most a bot thinks about one move, in milliseconds.
    pub bot_think_millis: u64,
    /// Seconds between two safety looks for games waiting for a bot (a
    /// bot is woken at once by the games it plays; see docs/bots.md).
    pub bot_rescan_seconds: u64,
}

impl Config {
    /// A configuration with every optional setting at its default.
    pub fn new(database: DatabaseUrl, jwt_secret: Secret) -> Self {
        Self {
            bind_address: defaults::BIND_ADDRESS,
            database,
            jwt_secret,
            jwt_issuer: defaults::JWT_ISSUER.to_owned(),
            jwt_audience: defaults::JWT_AUDIENCE.to_owned(),
            access_token_ttl: Duration::seconds(defaults::ACCESS_TOKEN_TTL_SECONDS),
            refresh_token_ttl: Duration::seconds(defaults::REFRESH_TOKEN_TTL_SECONDS),
            cors_origins: CorsOrigins::List(Vec::new()),
            log_level: defaults::LOG_LEVEL.to_owned(),
            log_format: defaults::LOG_FORMAT,
            database_pool_size: defaults::DATABASE_POOL_SIZE,
            database_read_connections: defaults::DATABASE_READ_CONNECTIONS,
            database_timeout: std::time::Duration::from_secs(defaults::DATABASE_TIMEOUT_SECONDS),
            sqlite_synchronous: defaults::SQLITE_SYNCHRONOUS,
            login_attempts_per_minute: defaults::LOGIN_RATE_LIMIT,
            register_attempts_per_minute: defaults::REGISTER_RATE_LIMIT,
            max_body_bytes: defaults::MAX_BODY_BYTES,
            request_body_timeout: std::time::Duration::from_secs(
                defaults::REQUEST_BODY_TIMEOUT_SECONDS,
            ),
            keep_alive: std::time::Duration::from_secs(defaults::KEEP_ALIVE_SECONDS),
            trust_proxy_headers: defaults::TRUST_PROXY_HEADERS,
            workers: None,
            shutdown_timeout_seconds: defaults::SHUTDOWN_TIMEOUT_SECONDS,
            max_streams_per_user: defaults::MAX_STREAMS_PER_USER,
            sse_keepalive_seconds: defaults::SSE_KEEPALIVE_SECONDS,
            deadline_reminder_percent: defaults::DEADLINE_REMINDER_PERCENT,
            reminder_interval_seconds: defaults::REMINDER_INTERVAL_SECONDS,
            deadline_sweep_seconds: defaults::DEADLINE_SWEEP_SECONDS,
            event_retention_days: defaults::EVENT_RETENTION_DAYS,
            bot_think_millis: defaults::BOT_THINK_MILLIS,
            bot_rescan_seconds: defaults::BOT_RESCAN_SECONDS,
        }
    }
}

/// The database setting, shared by `serve` and `migrate`.
///
/// Checked by [`DatabaseArgs::resolve`] rather than by clap, whose messages
/// repeat the value: a PostgreSQL URL may hold a password.
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArgs {
    /// Database URL: postgres://user:pass@host/db, or sqlite://path/to/file.db
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true,
          default_value = defaults::DATABASE_URL)]
    pub database_url: String,
}

impl DatabaseArgs {
    pub fn resolve(&self) -> Result<DatabaseUrl, ConfigError> {
        DatabaseUrl::parse(&self.database_url)
    }
}

/// A setting that may also be given empty (`WORKERS=`), meaning unset.
/// (An alias, so that clap takes `Option<OrUnset<T>>` as an optional flag
/// whose parser yields `Option<T>`.)
pub type OrUnset<T> = Option<T>;

/// Every server setting as given on the command line or in the environment.
///
/// Each value is parsed and range-checked by its clap value parser, so a bad
/// one is refused before anything starts, in one line naming the flag and
/// its variable (see [`clap_error_line`]). Only what needs more than one
/// setting (or must not be echoed) is left to [`ServerArgs::resolve`].
#[derive(Debug, Clone, clap::Args)]
pub struct ServerArgs {
    /// Address and port to listen on
    #[arg(long, env = "BIND_ADDRESS", global = true,
          default_value_t = defaults::BIND_ADDRESS,
          value_parser = socket_address)]
    pub bind_address: SocketAddr,

    #[command(flatten)]
    pub database: DatabaseArgs,

    /// Secret for signing access tokens (at least 32 bytes). Required with
    /// PostgreSQL; with SQLite a random one is generated and kept in a file
    /// beside the database when unset.
    #[arg(long, env = "JWT_SECRET", global = true, hide_env_values = true)]
    pub jwt_secret: Option<String>,

    /// `iss` claim written into and required from access tokens
    #[arg(long, env = "JWT_ISSUER", global = true,
          default_value = defaults::JWT_ISSUER, value_parser = non_empty)]
    pub jwt_issuer: String,

    /// `aud` claim written into and required from access tokens
    #[arg(long, env = "JWT_AUDIENCE", global = true,
          default_value = defaults::JWT_AUDIENCE, value_parser = non_empty)]
    pub jwt_audience: String,

    /// Access token lifetime in seconds (10..=86400)
    #[arg(long, env = "ACCESS_TOKEN_TTL_SECONDS", global = true,
          default_value_t = defaults::ACCESS_TOKEN_TTL_SECONDS,
          value_parser = trimmed(value_parser!(i64).range(10..=86_400)))]
    pub access_token_ttl_seconds: i64,

    /// Refresh token lifetime in seconds (longer than the access token's)
    #[arg(long, env = "REFRESH_TOKEN_TTL_SECONDS", global = true,
          default_value_t = defaults::REFRESH_TOKEN_TTL_SECONDS,
          value_parser = trimmed(value_parser!(i64).range(60..=366 * 86_400)))]
    pub refresh_token_ttl_seconds: i64,

    /// Comma-separated browser origins allowed by CORS (e.g.
    /// https://play.example.org), or `*`; empty allows none
    #[arg(long, env = "CORS_ALLOWED_ORIGINS", global = true,
          default_value = defaults::CORS_ALLOWED_ORIGINS, value_parser = parse_origins)]
    pub cors_allowed_origins: CorsOrigins,

    /// Log filter, e.g. `info` or `api=debug,actix_web=info`
    #[arg(long, env = "LOG_LEVEL", global = true,
          default_value = defaults::LOG_LEVEL, value_parser = log_filter)]
    pub log_level: String,

    /// Log format
    #[arg(long, env = "LOG_FORMAT", global = true, value_enum, ignore_case = true,
          default_value_t = defaults::LOG_FORMAT,
          value_parser = trimmed(EnumValueParser::<LogFormat>::new()))]
    pub log_format: LogFormat,

    /// SQLite only: `full` (every acknowledged commit is on disk) or `normal`
    /// (faster; a power loss may lose the last commits)
    #[arg(long, env = "SQLITE_SYNCHRONOUS", global = true, value_enum, ignore_case = true,
          default_value_t = defaults::SQLITE_SYNCHRONOUS,
          value_parser = trimmed(EnumValueParser::<SqliteSynchronous>::new()))]
    pub sqlite_synchronous: SqliteSynchronous,

    /// Maximum number of pooled database connections (1..=1000)
    #[arg(long, env = "DATABASE_POOL_SIZE", global = true,
          default_value_t = defaults::DATABASE_POOL_SIZE,
          value_parser = trimmed(value_parser!(u32).range(1..=1000)))]
    pub database_pool_size: u32,

    /// PostgreSQL only: connections each HTTP worker keeps for reads of
    /// games without a blocking thread (0..=100; 0: reads use the pool)
    #[arg(long, env = "DATABASE_READ_CONNECTIONS", global = true,
          default_value_t = defaults::DATABASE_READ_CONNECTIONS,
          value_parser = trimmed(value_parser!(u32).range(0..=100)))]
    pub database_read_connections: u32,

    /// Seconds a request may wait for the database (a connection, then its
    /// work) before answering 503
    #[arg(long, env = "DATABASE_TIMEOUT_SECONDS", global = true,
          default_value_t = defaults::DATABASE_TIMEOUT_SECONDS,
          value_parser = trimmed(value_parser!(u64).range(1..=300)))]
    pub database_timeout_seconds: u64,

    /// Login attempts allowed per minute per client address and per username
    #[arg(long, env = "LOGIN_RATE_LIMIT", global = true,
          default_value_t = defaults::LOGIN_RATE_LIMIT,
          value_parser = trimmed(value_parser!(u32).range(1..=100_000)))]
    pub login_rate_limit: u32,

    /// Registrations allowed per minute per client address
    #[arg(long, env = "REGISTER_RATE_LIMIT", global = true,
          default_value_t = defaults::REGISTER_RATE_LIMIT,
          value_parser = trimmed(value_parser!(u32).range(1..=100_000)))]
    pub register_rate_limit: u32,

    /// Largest accepted request body in bytes
    #[arg(long, env = "MAX_BODY_BYTES", global = true,
          default_value_t = defaults::MAX_BODY_BYTES,
          value_parser = trimmed(RangedU64ValueParser::<usize>::new().range(1024..=16 * 1024 * 1024)))]
    pub max_body_bytes: usize,

    /// Seconds a request body may take to arrive in full after its headers;
    /// past it the request answers 408 `request_timeout` (1..=3600)
    #[arg(long, env = "REQUEST_BODY_TIMEOUT_SECONDS", global = true,
          default_value_t = defaults::REQUEST_BODY_TIMEOUT_SECONDS,
          value_parser = trimmed(value_parser!(u64).range(1..=3600)))]
    pub request_body_timeout_seconds: u64,

    /// Seconds an idle keep-alive connection stays open; 0 closes each
    /// connection after its answer (0..=3600)
    #[arg(long, env = "KEEP_ALIVE_SECONDS", global = true,
          default_value_t = defaults::KEEP_ALIVE_SECONDS,
          value_parser = trimmed(value_parser!(u64).range(0..=3600)))]
    pub keep_alive_seconds: u64,

    /// Trust Forwarded / X-Forwarded-For for the client address (behind a proxy)
    #[arg(long, env = "TRUST_PROXY_HEADERS", global = true, action = ArgAction::Set,
          default_value_t = defaults::TRUST_PROXY_HEADERS, value_parser = switch)]
    pub trust_proxy_headers: bool,

    /// Number of HTTP worker threads (default: one per core)
    #[arg(long, env = "WORKERS", global = true,
          value_parser = or_unset(RangedU64ValueParser::<usize>::new().range(1..=1024)))]
    pub workers: Option<OrUnset<usize>>,

    /// Seconds to let in-flight requests finish after SIGTERM
    #[arg(long, env = "SHUTDOWN_TIMEOUT_SECONDS", global = true,
          default_value_t = defaults::SHUTDOWN_TIMEOUT_SECONDS,
          value_parser = trimmed(value_parser!(u64).range(0..=3600)))]
    pub shutdown_timeout_seconds: u64,

    /// Open event/game streams (Server-Sent Events) allowed per user and
    /// server process; one more answers 429 `too_many_streams`
    #[arg(long, env = "MAX_STREAMS_PER_USER", global = true,
          default_value_t = defaults::MAX_STREAMS_PER_USER,
          value_parser = trimmed(RangedU64ValueParser::<usize>::new().range(1..=1000)))]
    pub max_streams_per_user: usize,

    /// Seconds between keep-alive comments on idle streams
    #[arg(long, env = "SSE_KEEPALIVE_SECONDS", global = true,
          default_value_t = defaults::SSE_KEEPALIVE_SECONDS,
          value_parser = trimmed(value_parser!(u64).range(1..=300)))]
    pub sse_keepalive_seconds: u64,

    /// Send `deadline_soon` when less than this percentage of the move time
    /// is left (1..=99)
    #[arg(long, env = "DEADLINE_REMINDER_PERCENT", global = true,
          default_value_t = defaults::DEADLINE_REMINDER_PERCENT,
          value_parser = trimmed(value_parser!(u32).range(1..=99)))]
    pub deadline_reminder_percent: u32,

    /// Seconds between two looks for games whose reminder is due
    #[arg(long, env = "REMINDER_INTERVAL_SECONDS", global = true,
          default_value_t = defaults::REMINDER_INTERVAL_SECONDS,
          value_parser = trimmed(value_parser!(u64).range(1..=86_400)))]
    pub reminder_interval_seconds: u64,

    /// Seconds between two sweeps that end games whose deadline passed
    #[arg(long, env = "DEADLINE_SWEEP_SECONDS", global = true,
          default_value_t = defaults::DEADLINE_SWEEP_SECONDS,
          value_parser = trimmed(value_parser!(u64).range(1..=86_400)))]
    pub deadline_sweep_seconds: u64,

    /// Days an event stays in the feed before it is deleted (each user's
    /// newest event is kept)
    #[arg(long, env = "EVENT_RETENTION_DAYS", global = true,
          default_value_t = defaults::EVENT_RETENTION_DAYS,
          value_parser = trimmed(value_parser!(u32).range(1..=3650)))]
    pub event_retention_days: u32,

    /// The most a bot thinks about one move, in milliseconds
    #[arg(long, env = "BOT_THINK_MILLIS", global = true,
          default_value_t = defaults::BOT_THINK_MILLIS,
          value_parser = trimmed(value_parser!(u64).range(1..=60_000)))]
    pub bot_think_millis: u64,

    /// Seconds between two safety looks for games waiting for a bot
    #[arg(long, env = "BOT_RESCAN_SECONDS", global = true,
          default_value_t = defaults::BOT_RESCAN_SECONDS,
          value_parser = trimmed(value_parser!(u64).range(1..=3600)))]
    pub bot_rescan_seconds: u64,
}

/// What [`ServerArgs::resolve`] produced, plus anything worth logging once
/// logging is up.
#[derive(Debug)]
pub struct Resolved {
    pub config: Config,
    /// Set when a JWT secret was generated (or read back) from this file.
    pub generated_secret_file: Option<(PathBuf, bool)>,
}

impl ServerArgs {
    /// The configuration: every value was parsed by clap already; what is
    /// left is the database, the JWT secret and the checks that involve two
    /// settings.
    pub fn resolve(&self) -> Result<Resolved, ConfigError> {
        let database = self.database.resolve()?;

        let mut generated_secret_file = None;
        let jwt_secret = match (&self.jwt_secret, &database) {
            (Some(secret), _) => Secret::new(secret.clone()),
            (None, DatabaseUrl::Postgres(_)) => {
                return Err(ConfigError::new(format!(
                    "JWT_SECRET is required with PostgreSQL (at least {MIN_JWT_SECRET_BYTES} bytes)"
                )))
            }
            (None, DatabaseUrl::Sqlite(path)) => {
                let file = secret_file_for(path);
                let (secret, created) = load_or_create_secret(&file)?;
                generated_secret_file = Some((file, created));
                secret
            }
        };
        if jwt_secret.expose().len() < MIN_JWT_SECRET_BYTES {
            return Err(ConfigError::new(format!(
                "JWT_SECRET must be at least {MIN_JWT_SECRET_BYTES} bytes long"
            )));
        }
        if self.refresh_token_ttl_seconds <= self.access_token_ttl_seconds {
            return Err(ConfigError::new(
                "REFRESH_TOKEN_TTL_SECONDS must be longer than ACCESS_TOKEN_TTL_SECONDS",
            ));
        }

        Ok(Resolved {
            config: Config {
                bind_address: self.bind_address,
                database,
                jwt_secret,
                jwt_issuer: self.jwt_issuer.clone(),
                jwt_audience: self.jwt_audience.clone(),
                access_token_ttl: Duration::seconds(self.access_token_ttl_seconds),
                refresh_token_ttl: Duration::seconds(self.refresh_token_ttl_seconds),
                cors_origins: self.cors_allowed_origins.clone(),
                log_level: self.log_level.clone(),
                log_format: self.log_format,
                database_pool_size: self.database_pool_size,
                database_read_connections: self.database_read_connections,
                database_timeout: std::time::Duration::from_secs(self.database_timeout_seconds),
                sqlite_synchronous: self.sqlite_synchronous,
                login_attempts_per_minute: self.login_rate_limit,
                register_attempts_per_minute: self.register_rate_limit,
                max_body_bytes: self.max_body_bytes,
                request_body_timeout: std::time::Duration::from_secs(
                    self.request_body_timeout_seconds,
                ),
                keep_alive: std::time::Duration::from_secs(self.keep_alive_seconds),
                trust_proxy_headers: self.trust_proxy_headers,
                workers: self.workers.flatten(),
                shutdown_timeout_seconds: self.shutdown_timeout_seconds,
                max_streams_per_user: self.max_streams_per_user,
                sse_keepalive_seconds: self.sse_keepalive_seconds,
                deadline_reminder_percent: self.deadline_reminder_percent,
                reminder_interval_seconds: self.reminder_interval_seconds,
                deadline_sweep_seconds: self.deadline_sweep_seconds,
                event_retention_days: self.event_retention_days,
                bot_think_millis: self.bot_think_millis,
                bot_rescan_seconds: self.bot_rescan_seconds,
            },
            generated_secret_file,
        })
    }
}

/// A clap error as one line, e.g. `invalid value '0' for
/// '--database-pool-size <DATABASE_POOL_SIZE>': 0 is not in 1..=1000` (the
/// value name is the variable's name): clap's first paragraph, which holds
/// the possible values of an enum; usage and tips are left out.
pub fn clap_error_line(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let line = text
        .trim_start()
        .lines()
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    match line.strip_prefix("error: ") {
        Some(rest) => rest.to_owned(),
        None => line,
    }
}

/// Runs `inner` on the value with surrounding white space removed (as an
/// environment file may leave it).
fn trimmed<P: TypedValueParser>(inner: P) -> Trimmed<P> {
    Trimmed(inner)
}

#[derive(Clone)]
struct Trimmed<P>(P);

impl<P: TypedValueParser> TypedValueParser for Trimmed<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let value = value.to_str().map_or(value, |text| OsStr::new(text.trim()));
        self.0.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        self.0.possible_values()
    }
}

/// Like [`trimmed`], but an empty value means "unset" (`None`).
fn or_unset<P: TypedValueParser>(inner: P) -> OrUnsetParser<P> {
    OrUnsetParser(inner)
}

#[derive(Clone)]
struct OrUnsetParser<P>(P);

impl<P: TypedValueParser> TypedValueParser for OrUnsetParser<P> {
    type Value = OrUnset<P::Value>;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        match value.to_str().map(str::trim) {
            Some("") => Ok(None),
            Some(text) => self.0.parse_ref(cmd, arg, OsStr::new(text)).map(Some),
            None => self.0.parse_ref(cmd, arg, value).map(Some),
        }
    }
}

fn socket_address(text: &str) -> Result<SocketAddr, String> {
    text.trim()
        .parse()
        .map_err(|_| "not an address like 127.0.0.1:8080".to_owned())
}

fn non_empty(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("must not be empty".to_owned());
    }
    Ok(text.to_owned())
}

fn log_filter(text: &str) -> Result<String, String> {
    let filter = text.trim();
    if filter.is_empty() || tracing_subscriber::EnvFilter::try_new(filter).is_err() {
        return Err("not a filter like `info` or `api=debug`".to_owned());
    }
    Ok(filter.to_owned())
}

fn switch(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err("must be true or false".to_owned()),
    }
}

fn parse_origins(text: &str) -> Result<CorsOrigins, String> {
    let items: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if items == ["*"] {
        return Ok(CorsOrigins::Any);
    }
    let mut origins = Vec::with_capacity(items.len());
    for item in items {
        let rest = item
            .strip_prefix("https://")
            .or_else(|| item.strip_prefix("http://"));
        let valid = match rest {
            Some(host) => {
                !host.is_empty()
                    && !host.contains('/')
                    && host.chars().all(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')
                    })
            }
            None => false,
        };
        if !valid {
            return Err(format!(
                "{item:?} is not an origin like https://example.org (or use `*` alone)"
            ));
        }
        origins.push(item.to_owned());
    }
    Ok(CorsOrigins::List(origins))
}

/// The generated-secret file sits in the same directory as the database.
pub fn secret_file_for(database_file: &Path) -> PathBuf {
    let dir = database_file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    dir.join(GENERATED_SECRET_FILE)
}

/// Reads the secret kept in `file`, or creates the file (mode 0600) with a
/// fresh random secret. Returns the secret and whether it was just created.
pub fn load_or_create_secret(file: &Path) -> Result<(Secret, bool), ConfigError> {
    let unreadable = |e: std::io::Error| {
        ConfigError::new(format!(
            "JWT_SECRET is unset and the secret file {} cannot be used: {e}",
            file.display()
        ))
    };
    if let Some(dir) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(unreadable)?;
    }
    let mut bytes = [0u8; 48];
    rand::rng().fill_bytes(&mut bytes);
    let fresh = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);

    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(file) {
        Ok(mut handle) => {
            handle
                .write_all(fresh.as_bytes())
                .and_then(|()| handle.sync_all())
                .map_err(unreadable)?;
            Ok((Secret::new(fresh), true))
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            let mut text = String::new();
            std::fs::File::open(file)
                .and_then(|mut f| f.read_to_string(&mut text))
                .map_err(unreadable)?;
            let secret = text.trim().to_owned();
            if secret.len() < MIN_JWT_SECRET_BYTES {
                return Err(ConfigError::new(format!(
                    "the secret file {} holds fewer than {MIN_JWT_SECRET_BYTES} bytes; delete it or set JWT_SECRET",
                    file.display()
                )));
            }
            Ok((Secret::new(secret), false))
        }
        Err(e) => Err(unreadable(e)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use clap::{CommandFactory, FromArgMatches, Parser};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ServerArgs,
    }

    /// The arguments as clap parses them, with the environment ignored (so
    /// that a variable set where the tests run changes nothing); errors as
    /// `main` prints them.
    fn try_args(extra: &[&str]) -> Result<ServerArgs, String> {
        let mut argv = vec!["api"];
        argv.extend_from_slice(extra);
        let matches = Cli::command()
            .mut_args(|arg| arg.env(None::<&str>))
            .try_get_matches_from(argv)
            .map_err(|e| clap_error_line(&e))?;
        Cli::from_arg_matches(&matches)
            .map(|cli| cli.args)
            .map_err(|e| clap_error_line(&e))
    }

    fn args(extra: &[&str]) -> ServerArgs {
        try_args(extra).unwrap()
    }

    const SECRET: &str = "--jwt-secret=0123456789abcdef0123456789abcdef";

    #[test]
    fn database_urls_pick_the_backend() {
        assert_eq!(
            DatabaseUrl::parse("postgres://u:p@h/db").unwrap(),
            DatabaseUrl::Postgres("postgres://u:p@h/db".into())
        );
        assert_eq!(
            DatabaseUrl::parse("sqlite://./stratego.db").unwrap(),
            DatabaseUrl::Sqlite(PathBuf::from("./stratego.db"))
        );
        assert_eq!(
            DatabaseUrl::parse("sqlite:///var/lib/s.db").unwrap(),
            DatabaseUrl::Sqlite(PathBuf::from("/var/lib/s.db"))
        );
        assert!(DatabaseUrl::parse("mysql://x").is_err());
        assert!(DatabaseUrl::parse("sqlite://:memory:").is_err());
        assert!(DatabaseUrl::parse("sqlite://").is_err());
    }

    #[test]
    fn passwords_are_masked_in_logs() {
        let url = DatabaseUrl::Postgres("postgres://app:hunter2@db:5432/s?sslmode=require".into());
        let shown = url.redacted();
        assert!(!shown.contains("hunter2"), "{shown}");
        assert_eq!(shown, "postgres://app:***@db:5432/s?sslmode=require");
    }

    #[test]
    fn secret_debug_is_redacted() {
        let secret = Secret::new("super-secret-value");
        assert!(!format!("{secret:?}").contains("super"));
    }

    #[test]
    fn postgres_requires_a_secret() {
        let err = args(&["--database-url=postgres://localhost/x"])
            .resolve()
            .unwrap_err();
        assert!(err.to_string().contains("JWT_SECRET is required"));
        let err = args(&[
            "--database-url=postgres://localhost/x",
            "--jwt-secret=short",
        ])
        .resolve()
        .unwrap_err();
        assert!(err.to_string().contains("at least 32 bytes"));
        assert!(args(&["--database-url=postgres://localhost/x", SECRET])
            .resolve()
            .is_ok());
    }

    #[test]
    fn bad_values_are_reported_in_one_line_naming_the_variable() {
        for (flag, variable) in [
            ("--bind-address=nowhere", "BIND_ADDRESS"),
            ("--access-token-ttl-seconds=abc", "ACCESS_TOKEN_TTL_SECONDS"),
            ("--access-token-ttl-seconds=9", "ACCESS_TOKEN_TTL_SECONDS"),
            (
                "--refresh-token-ttl-seconds=61",
                "REFRESH_TOKEN_TTL_SECONDS",
            ),
            ("--cors-allowed-origins=example.org", "CORS_ALLOWED_ORIGINS"),
            ("--log-format=xml", "LOG_FORMAT"),
            ("--log-level=[[[", "LOG_LEVEL"),
            ("--jwt-issuer= ", "JWT_ISSUER"),
            ("--database-pool-size=0", "DATABASE_POOL_SIZE"),
            ("--database-timeout-seconds=301", "DATABASE_TIMEOUT_SECONDS"),
            ("--login-rate-limit=-1", "LOGIN_RATE_LIMIT"),
            ("--max-body-bytes=1023", "MAX_BODY_BYTES"),
            (
                "--request-body-timeout-seconds=0",
                "REQUEST_BODY_TIMEOUT_SECONDS",
            ),
            ("--keep-alive-seconds=3601", "KEEP_ALIVE_SECONDS"),
            ("--trust-proxy-headers=maybe", "TRUST_PROXY_HEADERS"),
            ("--workers=0", "WORKERS"),
            (
                "--shutdown-timeout-seconds=3601",
                "SHUTDOWN_TIMEOUT_SECONDS",
            ),
            ("--max-streams-per-user=1001", "MAX_STREAMS_PER_USER"),
            (
                "--deadline-reminder-percent=100",
                "DEADLINE_REMINDER_PERCENT",
            ),
            ("--event-retention-days=0", "EVENT_RETENTION_DAYS"),
            ("--database-url=redis://x", "DATABASE_URL"),
        ] {
            let mut argv = vec![SECRET];
            if !flag.starts_with("--database-url") {
                argv.push("--database-url=postgres://h/d");
            }
            argv.push(flag);
            let outcome = try_args(&argv).and_then(|a| a.resolve().map_err(|e| e.to_string()));
            let message = outcome.map(|_| ()).expect_err(flag);
            assert!(message.contains(variable), "{flag}: {message}");
            assert!(!message.contains('\n'), "{flag}: {message}");
        }
        let message = try_args(&["--log-format=xml"]).map(|_| ()).unwrap_err();
        assert!(message.contains("text, json"), "{message}");
    }

    #[test]
    fn values_are_trimmed_and_empty_ones_mean_unset_where_that_was_allowed() {
        let parsed = args(&[
            "--database-pool-size= 7 ",
            "--log-format= JSON ",
            "--trust-proxy-headers=",
            "--workers=",
            "--cors-allowed-origins=",
        ]);
        assert_eq!(parsed.database_pool_size, 7);
        assert_eq!(parsed.log_format, LogFormat::Json);
        assert!(!parsed.trust_proxy_headers);
        assert_eq!(parsed.workers, Some(None));
        assert_eq!(parsed.cors_allowed_origins, CorsOrigins::List(vec![]));
        assert_eq!(args(&["--workers=4"]).workers, Some(Some(4)));
        assert!(args(&["--trust-proxy-headers=on"]).trust_proxy_headers);
        for range_end in ["--workers=1024", "--shutdown-timeout-seconds=0"] {
            assert!(try_args(&[range_end]).is_ok(), "{range_end}");
        }
    }

    #[test]
    fn config_new_is_the_parsed_defaults() {
        let secret = "0123456789abcdef0123456789abcdef";
        let parsed = args(&["--database-url=postgres://h/d", SECRET])
            .resolve()
            .unwrap()
            .config;
        let new = Config::new(
            DatabaseUrl::Postgres("postgres://h/d".into()),
            Secret::new(secret),
        );
        assert_eq!(format!("{parsed:?}"), format!("{new:?}"));
        assert_eq!(parsed.jwt_secret, new.jwt_secret);
    }

    /// The rows of the README's configuration table: each variable with the
    /// default the table shows (`None` for a default in words, such as
    /// "one per core").
    fn documented_defaults() -> Vec<(String, Option<String>)> {
        let readme = include_str!("../../README.md");
        let section = readme
            .split("### Configuration")
            .nth(1)
            .expect("README.md has a configuration section");
        let quoted = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect()
        };
        let mut rows = Vec::new();
        for line in section.lines().skip_while(|l| !l.starts_with('|')) {
            if !line.starts_with('|') {
                break;
            }
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let (Some(names), Some(values)) = (cells.get(1), cells.get(2)) else {
                continue;
            };
            let names = quoted(names);
            if names.is_empty() {
                continue; // the header and its rule
            }
            let values = quoted(values);
            for (i, name) in names.into_iter().enumerate() {
                rows.push((name, values.get(i).cloned()));
            }
        }
        rows
    }

    #[test]
    fn the_readme_documents_every_variable_with_its_default() {
        let documented = documented_defaults();
        let command = Cli::command();
        let mut variables = Vec::new();
        for arg in command.get_arguments() {
            let Some(variable) = arg.get_env().and_then(|v| v.to_str()) else {
                continue;
            };
            variables.push(variable.to_owned());
            let default = arg
                .get_default_values()
                .first()
                .and_then(|v| v.to_str())
                .filter(|v| !v.is_empty())
                .map(str::to_owned);
            let row = documented
                .iter()
                .find(|(name, _)| name == variable)
                .unwrap_or_else(|| panic!("{variable} is missing from README.md"));
            assert_eq!(row.1, default, "README.md: default of {variable}");
        }
        for (name, _) in &documented {
            assert!(
                variables.contains(name),
                "README.md documents {name}, which is no setting"
            );
        }
    }
    #[test]
    fn origins_parse() {
        assert_eq!(parse_origins("").unwrap(), CorsOrigins::List(vec![]));
        assert_eq!(parse_origins("*").unwrap(), CorsOrigins::Any);
        assert_eq!(
            parse_origins("https://a.example, http://localhost:3000").unwrap(),
            CorsOrigins::List(vec![
                "https://a.example".into(),
                "http://localhost:3000".into()
            ])
        );
        assert!(parse_origins("https://a.example/path").is_err());
    }

    #[test]
    fn generated_secret_is_private_and_stable() {
        let dir = std::env::temp_dir().join(format!("stratego-cfg-{}", uuid::Uuid::new_v4()));
        let db = dir.join("stratego.db");
        let file = secret_file_for(&db);
        let (first, created) = load_or_create_secret(&file).unwrap();
        assert!(created);
        assert!(first.expose().len() >= MIN_JWT_SECRET_BYTES);
        let (second, created_again) = load_or_create_secret(&file).unwrap();
        assert!(!created_again);
        assert_eq!(first, second);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
