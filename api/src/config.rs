//! Configuration: command-line flags, each backed by an environment variable.
//!
//! Everything arrives as text and is checked here, once, so a bad value stops
//! the server at start-up with a single line naming the variable at fault.

use std::fmt;
use std::io::{ErrorKind, Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use base64::Engine;
use chrono::Duration;
use rand::RngCore;

/// The shortest JWT secret accepted, in bytes (HS256 wants at least 256 bits).
pub const MIN_JWT_SECRET_BYTES: usize = 32;
/// Where the embedded database lives when `DATABASE_URL` is unset.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./stratego.db";
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

/// Which cross-origin callers may use the API from a browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Any origin (`*`): fine for a bearer-token API without cookies.
    Any,
    /// Exactly these origins (`scheme://host[:port]`); empty means none.
    List(Vec<String>),
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
    /// How long a request waits for a database connection before 503.
    pub database_timeout: std::time::Duration,
    /// Login attempts allowed per minute, per client address and per username.
    pub login_attempts_per_minute: u32,
    /// Registrations allowed per minute per client address.
    pub register_attempts_per_minute: u32,
    pub max_body_bytes: usize,
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
}

impl Config {
    /// A configuration with every optional setting at its default.
    pub fn new(database: DatabaseUrl, jwt_secret: Secret) -> Self {
        Self {
            bind_address: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database,
            jwt_secret,
            jwt_issuer: "stratego".to_owned(),
            jwt_audience: "stratego-api".to_owned(),
            access_token_ttl: Duration::minutes(15),
            refresh_token_ttl: Duration::days(30),
            cors_origins: CorsOrigins::List(Vec::new()),
            log_level: "info".to_owned(),
            log_format: LogFormat::Text,
            database_pool_size: 10,
            database_timeout: std::time::Duration::from_secs(3),
            login_attempts_per_minute: 10,
            register_attempts_per_minute: 10,
            max_body_bytes: 64 * 1024,
            trust_proxy_headers: false,
            workers: None,
            shutdown_timeout_seconds: 30,
            max_streams_per_user: 5,
            sse_keepalive_seconds: 15,
            deadline_reminder_percent: 25,
            reminder_interval_seconds: 60,
            deadline_sweep_seconds: 30,
            event_retention_days: 90,
        }
    }
}

/// The database setting, shared by `serve` and `migrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArgs {
    /// Database URL: postgres://user:pass@host/db, or sqlite://path/to/file.db
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true,
          default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
}

impl DatabaseArgs {
    pub fn resolve(&self) -> Result<DatabaseUrl, ConfigError> {
        DatabaseUrl::parse(&self.database_url)
    }
}

/// Every server setting as given on the command line or in the environment.
#[derive(Debug, Clone, clap::Args)]
pub struct ServerArgs {
    /// Address and port to listen on
    #[arg(
        long,
        env = "BIND_ADDRESS",
        global = true,
        default_value = "127.0.0.1:8080"
    )]
    pub bind_address: String,

    #[command(flatten)]
    pub database: DatabaseArgs,

    /// Secret for signing access tokens (at least 32 bytes). Required with
    /// PostgreSQL; with SQLite a random one is generated and kept in a file
    /// beside the database when unset.
    #[arg(long, env = "JWT_SECRET", global = true, hide_env_values = true)]
    pub jwt_secret: Option<String>,

    /// `iss` claim written into and required from access tokens
    #[arg(long, env = "JWT_ISSUER", global = true, default_value = "stratego")]
    pub jwt_issuer: String,

    /// `aud` claim written into and required from access tokens
    #[arg(
        long,
        env = "JWT_AUDIENCE",
        global = true,
        default_value = "stratego-api"
    )]
    pub jwt_audience: String,

    /// Access token lifetime in seconds (10..=86400)
    #[arg(
        long,
        env = "ACCESS_TOKEN_TTL_SECONDS",
        global = true,
        default_value = "900"
    )]
    pub access_token_ttl_seconds: String,

    /// Refresh token lifetime in seconds (longer than the access token's)
    #[arg(
        long,
        env = "REFRESH_TOKEN_TTL_SECONDS",
        global = true,
        default_value = "2592000"
    )]
    pub refresh_token_ttl_seconds: String,

    /// Comma-separated browser origins allowed by CORS (e.g.
    /// https://play.example.org), or `*`; empty allows none
    #[arg(long, env = "CORS_ALLOWED_ORIGINS", global = true, default_value = "")]
    pub cors_allowed_origins: String,

    /// Log filter, e.g. `info` or `api=debug,actix_web=info`
    #[arg(long, env = "LOG_LEVEL", global = true, default_value = "info")]
    pub log_level: String,

    /// Log format: `text` or `json`
    #[arg(long, env = "LOG_FORMAT", global = true, default_value = "text")]
    pub log_format: String,

    /// Maximum number of pooled database connections (1..=1000)
    #[arg(long, env = "DATABASE_POOL_SIZE", global = true, default_value = "10")]
    pub database_pool_size: String,

    /// Seconds a request waits for a database connection before answering 503
    #[arg(
        long,
        env = "DATABASE_TIMEOUT_SECONDS",
        global = true,
        default_value = "3"
    )]
    pub database_timeout_seconds: String,

    /// Login attempts allowed per minute per client address and per username
    #[arg(long, env = "LOGIN_RATE_LIMIT", global = true, default_value = "10")]
    pub login_rate_limit: String,

    /// Registrations allowed per minute per client address
    #[arg(long, env = "REGISTER_RATE_LIMIT", global = true, default_value = "10")]
    pub register_rate_limit: String,

    /// Largest accepted request body in bytes
    #[arg(long, env = "MAX_BODY_BYTES", global = true, default_value = "65536")]
    pub max_body_bytes: String,

    /// Trust Forwarded / X-Forwarded-For for the client address (behind a proxy)
    #[arg(
        long,
        env = "TRUST_PROXY_HEADERS",
        global = true,
        default_value = "false"
    )]
    pub trust_proxy_headers: String,

    /// Number of HTTP worker threads (default: one per core)
    #[arg(long, env = "WORKERS", global = true)]
    pub workers: Option<String>,

    /// Seconds to let in-flight requests finish after SIGTERM
    #[arg(
        long,
        env = "SHUTDOWN_TIMEOUT_SECONDS",
        global = true,
        default_value = "30"
    )]
    pub shutdown_timeout_seconds: String,

    /// Open event/game streams (Server-Sent Events) allowed per user and
    /// server process; one more answers 429 `too_many_streams`
    #[arg(long, env = "MAX_STREAMS_PER_USER", global = true, default_value = "5")]
    pub max_streams_per_user: String,

    /// Seconds between keep-alive comments on idle streams
    #[arg(
        long,
        env = "SSE_KEEPALIVE_SECONDS",
        global = true,
        default_value = "15"
    )]
    pub sse_keepalive_seconds: String,

    /// Send `deadline_soon` when less than this percentage of the move time
    /// is left (1..=99)
    #[arg(
        long,
        env = "DEADLINE_REMINDER_PERCENT",
        global = true,
        default_value = "25"
    )]
    pub deadline_reminder_percent: String,

    /// Seconds between two looks for games whose reminder is due
    #[arg(
        long,
        env = "REMINDER_INTERVAL_SECONDS",
        global = true,
        default_value = "60"
    )]
    pub reminder_interval_seconds: String,

    /// Seconds between two sweeps that end games whose deadline passed
    #[arg(
        long,
        env = "DEADLINE_SWEEP_SECONDS",
        global = true,
        default_value = "30"
    )]
    pub deadline_sweep_seconds: String,

    /// Days an event stays in the feed before it is deleted (each user's
    /// newest event is kept)
    #[arg(
        long,
        env = "EVENT_RETENTION_DAYS",
        global = true,
        default_value = "90"
    )]
    pub event_retention_days: String,
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
    /// Checks every value; the first bad one is reported in one line.
    pub fn resolve(&self) -> Result<Resolved, ConfigError> {
        let bind_address: SocketAddr = self.bind_address.trim().parse().map_err(|_| {
            ConfigError::new(format!(
                "BIND_ADDRESS: {:?} is not an address like 127.0.0.1:8080",
                self.bind_address
            ))
        })?;
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

        let jwt_issuer = non_empty("JWT_ISSUER", &self.jwt_issuer)?;
        let jwt_audience = non_empty("JWT_AUDIENCE", &self.jwt_audience)?;
        let access = number::<i64>(
            "ACCESS_TOKEN_TTL_SECONDS",
            &self.access_token_ttl_seconds,
            10,
            86_400,
        )?;
        let refresh = number::<i64>(
            "REFRESH_TOKEN_TTL_SECONDS",
            &self.refresh_token_ttl_seconds,
            60,
            366 * 86_400,
        )?;
        if refresh <= access {
            return Err(ConfigError::new(
                "REFRESH_TOKEN_TTL_SECONDS must be longer than ACCESS_TOKEN_TTL_SECONDS",
            ));
        }
        let cors_origins = parse_origins(&self.cors_allowed_origins)?;
        let log_level = self.log_level.trim().to_owned();
        if tracing_subscriber::EnvFilter::try_new(&log_level).is_err() || log_level.is_empty() {
            return Err(ConfigError::new(format!(
                "LOG_LEVEL: {:?} is not a filter like `info` or `api=debug`",
                self.log_level
            )));
        }
        let log_format = match self.log_format.trim().to_ascii_lowercase().as_str() {
            "text" => LogFormat::Text,
            "json" => LogFormat::Json,
            _ => {
                return Err(ConfigError::new(format!(
                    "LOG_FORMAT: {:?} must be `text` or `json`",
                    self.log_format
                )))
            }
        };
        let workers = match &self.workers {
            None => None,
            Some(text) if text.trim().is_empty() => None,
            Some(text) => Some(number::<usize>("WORKERS", text, 1, 1024)?),
        };

        Ok(Resolved {
            config: Config {
                bind_address,
                database,
                jwt_secret,
                jwt_issuer,
                jwt_audience,
                access_token_ttl: Duration::seconds(access),
                refresh_token_ttl: Duration::seconds(refresh),
                cors_origins,
                log_level,
                log_format,
                database_pool_size: number(
                    "DATABASE_POOL_SIZE",
                    &self.database_pool_size,
                    1,
                    1000,
                )?,
                database_timeout: std::time::Duration::from_secs(number(
                    "DATABASE_TIMEOUT_SECONDS",
                    &self.database_timeout_seconds,
                    1,
                    300,
                )?),
                login_attempts_per_minute: number(
                    "LOGIN_RATE_LIMIT",
                    &self.login_rate_limit,
                    1,
                    100_000,
                )?,
                register_attempts_per_minute: number(
                    "REGISTER_RATE_LIMIT",
                    &self.register_rate_limit,
                    1,
                    100_000,
                )?,
                max_body_bytes: number(
                    "MAX_BODY_BYTES",
                    &self.max_body_bytes,
                    1024,
                    16 * 1024 * 1024,
                )?,
                trust_proxy_headers: boolean("TRUST_PROXY_HEADERS", &self.trust_proxy_headers)?,
                workers,
                shutdown_timeout_seconds: number(
                    "SHUTDOWN_TIMEOUT_SECONDS",
                    &self.shutdown_timeout_seconds,
                    0,
                    3600,
                )?,
                max_streams_per_user: number(
                    "MAX_STREAMS_PER_USER",
                    &self.max_streams_per_user,
                    1,
                    1000,
                )?,
                sse_keepalive_seconds: number(
                    "SSE_KEEPALIVE_SECONDS",
                    &self.sse_keepalive_seconds,
                    1,
                    300,
                )?,
                deadline_reminder_percent: number(
                    "DEADLINE_REMINDER_PERCENT",
                    &self.deadline_reminder_percent,
                    1,
                    99,
                )?,
                reminder_interval_seconds: number(
                    "REMINDER_INTERVAL_SECONDS",
                    &self.reminder_interval_seconds,
                    1,
                    86_400,
                )?,
                deadline_sweep_seconds: number(
                    "DEADLINE_SWEEP_SECONDS",
                    &self.deadline_sweep_seconds,
                    1,
                    86_400,
                )?,
                event_retention_days: number(
                    "EVENT_RETENTION_DAYS",
                    &self.event_retention_days,
                    1,
                    3650,
                )?,
            },
            generated_secret_file,
        })
    }
}

fn non_empty(name: &str, value: &str) -> Result<String, ConfigError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(ConfigError::new(format!("{name} must not be empty")));
    }
    Ok(value.to_owned())
}

fn number<T>(name: &str, text: &str, min: T, max: T) -> Result<T, ConfigError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    match text.trim().parse::<T>() {
        Ok(value) if value >= min && value <= max => Ok(value),
        _ => Err(ConfigError::new(format!(
            "{name}: {text:?} must be a whole number from {min} to {max}"
        ))),
    }
}

fn boolean(name: &str, text: &str) -> Result<bool, ConfigError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err(ConfigError::new(format!(
            "{name}: {text:?} must be true or false"
        ))),
    }
}

fn parse_origins(text: &str) -> Result<CorsOrigins, ConfigError> {
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
            return Err(ConfigError::new(format!(
                "CORS_ALLOWED_ORIGINS: {item:?} is not an origin like https://example.org (or use `*` alone)"
            )));
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
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ServerArgs,
    }

    fn args(extra: &[&str]) -> ServerArgs {
        let mut argv = vec!["api"];
        argv.extend_from_slice(extra);
        Cli::try_parse_from(argv).unwrap().args
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
            (
                "--refresh-token-ttl-seconds=61",
                "REFRESH_TOKEN_TTL_SECONDS",
            ),
            ("--cors-allowed-origins=example.org", "CORS_ALLOWED_ORIGINS"),
            ("--log-format=xml", "LOG_FORMAT"),
            ("--log-level=[[[", "LOG_LEVEL"),
            ("--database-pool-size=0", "DATABASE_POOL_SIZE"),
            ("--trust-proxy-headers=maybe", "TRUST_PROXY_HEADERS"),
            ("--database-url=redis://x", "DATABASE_URL"),
        ] {
            let mut argv = vec![SECRET];
            if !flag.starts_with("--database-url") {
                argv.push("--database-url=postgres://h/d");
            }
            argv.push(flag);
            let err = args(&argv).resolve().map(|_| ());
            let message = err.expect_err(flag).to_string();
            assert!(message.contains(variable), "{flag}: {message}");
            assert!(!message.contains('\n'), "{flag}: {message}");
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
