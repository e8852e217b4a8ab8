//! Configuration: command-line flags, each backed by an environment variable.
//!
//! Everything arrives as text and is parsed here, once, by each flag's clap
//! value parser, so a bad value stops the server at start-up with a single
//! line naming the variable at fault.
//!
//! This file holds the validated configuration and its values; `args` the
//! flags and their parsers, `secret_file` the JWT secret generated beside an
//! SQLite database.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

use chrono::Duration;

mod args;
mod secret_file;

pub use args::{clap_error_line, DatabaseArgs, OrUnset, Resolved, ServerArgs};
pub use secret_file::{beside, load_or_create, load_or_create_secret, secret_file_for};

/// The shortest JWT secret accepted, in bytes (HS256 wants at least 256 bits).
pub const MIN_JWT_SECRET_BYTES: usize = 32;
/// Name of the generated secret file, kept beside an SQLite database.
pub const GENERATED_SECRET_FILE: &str = ".stratego-secret";
/// Name of the generated VAPID key file, kept beside an SQLite database.
pub const GENERATED_VAPID_FILE: &str = ".stratego-vapid-key";

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
    pub const DATABASE_READ_CONNECTIONS: u32 = 1;
    pub const DATABASE_WRITE_CONNECTIONS: u32 = 16;
    pub const DATABASE_TIMEOUT_SECONDS: u64 = 3;
    pub const SQLITE_SYNCHRONOUS: SqliteSynchronous = SqliteSynchronous::Full;
    pub const LOGIN_RATE_LIMIT: u32 = 10;
    pub const REGISTER_RATE_LIMIT: u32 = 10;
    pub const MAX_BODY_BYTES: usize = 64 * 1024;
    pub const REQUEST_BODY_TIMEOUT_SECONDS: u64 = 10;
    pub const KEEP_ALIVE_SECONDS: u64 = 5;
    pub const TRUST_PROXY_HEADERS: bool = false;
    pub const SHUTDOWN_GRACE_SECONDS: u64 = 30;
    pub const DATABASE_REPLICA_MAX_LAG_MILLIS: u64 = 1000;
    pub const MAX_STREAMS_PER_USER: usize = 5;
    pub const SSE_KEEPALIVE_SECONDS: u64 = 15;
    pub const DEADLINE_REMINDER_PERCENT: u32 = 25;
    pub const VACATION_DAYS_PER_YEAR: u32 = 30;
    pub const VACATION_CARRY_OVER_DAYS: u32 = 10;
    pub const REMINDER_INTERVAL_SECONDS: u64 = 60;
    pub const DEADLINE_SWEEP_SECONDS: u64 = 30;
    pub const EVENT_RETENTION_DAYS: u32 = 90;
    pub const BOT_THINK_MILLIS: u64 = 500;
    pub const BOT_RESCAN_SECONDS: u64 = 30;
    pub const OUTBOX_POLL_MILLIS: u64 = 500;
    /// A subject that says nothing: push services may refuse it, so an
    /// operator sets VAPID_SUBJECT (the log warns).
    pub const VAPID_SUBJECT: &str = "mailto:operator@stratego.invalid";
}

/// The complete, validated configuration of one server.
#[derive(Debug, Clone)]
pub struct Config {
    pub bind_address: SocketAddr,
    /// Where `GET /metrics` is served instead of `bind_address`, if set.
    pub metrics_bind_address: Option<SocketAddr>,
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
    /// PostgreSQL: connections the HTTP workers keep for writes of one
    /// statement that take no blocking thread, shared evenly among them
    /// (at least one each; 0: writes use the pool; docs/storage.md,
    /// "Writes without a blocking thread").
    pub database_write_connections: u32,
    /// Read replicas' `postgres://` URLs (docs/deploy.md, "Read replicas").
    pub database_replicas: Vec<String>,
    /// The most a replica may lag and still be read.
    pub database_replica_max_lag: std::time::Duration,
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
    pub shutdown_grace_seconds: u64,
    /// Open event/game streams (SSE) allowed per user, per server process.
    pub max_streams_per_user: usize,
    /// Seconds between keep-alive comments on an idle stream.
    pub sse_keepalive_seconds: u64,
    /// `deadline_soon` is sent when less than this percentage of the move
    /// time is left.
    pub deadline_reminder_percent: u32,
    /// The vacation days players get (docs/lifecycle.md, "Vacation").
    pub vacation: domain::vacation::Allowance,
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
    /// The VAPID private key Web Push is signed with (base64url of the
    /// P-256 scalar); `None`: Web Push is off (docs/notifications.md).
    pub vapid_private_key: Option<Secret>,
    /// The `sub` of VAPID tokens: a `mailto:` or `https:` URL where the
    /// operator can be reached.
    pub vapid_subject: String,
    /// Deliveries may go to loopback and private addresses, and over plain
    /// `http` (local development and tests only).
    pub outbound_allow_private_networks: bool,
    /// How often each process looks for deliveries to make when it found
    /// none the last time.
    pub outbox_poll: std::time::Duration,
    /// E-mail, when an SMTP relay is configured.
    pub smtp: Option<SmtpSettings>,
}

/// The SMTP relay e-mail goes through (docs/notifications.md, "E-mail").
#[derive(Debug, Clone)]
pub struct SmtpSettings {
    /// `smtp://` or `smtps://` URL, credentials included.
    pub url: Secret,
    /// The sender of every message.
    pub from: String,
    /// The server's public base URL, for links (no trailing slash).
    pub public_url: String,
}

impl Config {
    /// A configuration with every optional setting at its default.
    pub fn new(database: DatabaseUrl, jwt_secret: Secret) -> Self {
        Self {
            bind_address: defaults::BIND_ADDRESS,
            metrics_bind_address: None,
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
            database_write_connections: defaults::DATABASE_WRITE_CONNECTIONS,
            database_replicas: Vec::new(),
            database_replica_max_lag: std::time::Duration::from_millis(
                defaults::DATABASE_REPLICA_MAX_LAG_MILLIS,
            ),
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
            shutdown_grace_seconds: defaults::SHUTDOWN_GRACE_SECONDS,
            max_streams_per_user: defaults::MAX_STREAMS_PER_USER,
            sse_keepalive_seconds: defaults::SSE_KEEPALIVE_SECONDS,
            deadline_reminder_percent: defaults::DEADLINE_REMINDER_PERCENT,
            vacation: domain::vacation::Allowance {
                days_per_year: defaults::VACATION_DAYS_PER_YEAR,
                carry_over_max: defaults::VACATION_CARRY_OVER_DAYS,
            },
            reminder_interval_seconds: defaults::REMINDER_INTERVAL_SECONDS,
            deadline_sweep_seconds: defaults::DEADLINE_SWEEP_SECONDS,
            event_retention_days: defaults::EVENT_RETENTION_DAYS,
            bot_think_millis: defaults::BOT_THINK_MILLIS,
            bot_rescan_seconds: defaults::BOT_RESCAN_SECONDS,
            vapid_private_key: None,
            vapid_subject: defaults::VAPID_SUBJECT.to_owned(),
            outbound_allow_private_networks: false,
            outbox_poll: std::time::Duration::from_millis(defaults::OUTBOX_POLL_MILLIS),
            smtp: None,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

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
}
