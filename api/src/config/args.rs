//! The command line: every flag with its environment variable, parsed and
//! range-checked by its clap value parser, and resolved into a [`Config`].

use std::ffi::OsStr;
use std::net::SocketAddr;
use std::path::PathBuf;

use chrono::Duration;
use clap::builder::{EnumValueParser, PossibleValue, RangedU64ValueParser, TypedValueParser};
use clap::{value_parser, ArgAction};

use super::secret_file::{beside, load_or_create, load_or_create_secret, secret_file_for};
use super::{
    defaults, Config, ConfigError, CorsOrigins, DatabaseUrl, LogFormat, Secret, SmtpSettings,
    SqliteSynchronous, GENERATED_VAPID_FILE, MIN_JWT_SECRET_BYTES,
};
use crate::outbound::web_push::VapidKey;

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

    /// Serve GET /metrics on this address instead of BIND_ADDRESS, so that
    /// it need not be public (docs/metrics.md)
    #[arg(long, env = "METRICS_BIND_ADDRESS", global = true, value_parser = socket_address)]
    pub metrics_bind_address: Option<SocketAddr>,

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

    /// PostgreSQL only: connections the HTTP workers keep, shared evenly
    /// among them (at least one each), for a change's one statement
    /// without a blocking thread (0..=1000; 0: writes use the pool)
    #[arg(long, env = "DATABASE_WRITE_CONNECTIONS", global = true,
          default_value_t = defaults::DATABASE_WRITE_CONNECTIONS,
          value_parser = trimmed(value_parser!(u32).range(0..=1000)))]
    pub database_write_connections: u32,

    /// PostgreSQL read replicas, comma-separated postgres:// URLs, for the
    /// reads that tolerate a little lag (docs/deploy.md, "Read replicas")
    #[arg(
        long,
        env = "DATABASE_REPLICA_URL",
        global = true,
        hide_env_values = true
    )]
    pub database_replica_url: Option<String>,

    /// The most a replica may lag behind the primary and still be read,
    /// in milliseconds (100..=60000)
    #[arg(long, env = "DATABASE_REPLICA_MAX_LAG_MILLIS", global = true,
          default_value_t = defaults::DATABASE_REPLICA_MAX_LAG_MILLIS,
          value_parser = trimmed(value_parser!(u64).range(100..=60_000)))]
    pub database_replica_max_lag_millis: u64,

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

    /// Seconds a stop (SIGTERM) may take: requests in flight finish,
    /// streams end with a reconnect hint, outbox deliveries in flight are
    /// handed back, then the process exits 0 [default: 30]
    #[arg(long, env = "SHUTDOWN_GRACE_SECONDS", global = true,
          value_parser = trimmed(value_parser!(u64).range(0..=3600)))]
    pub shutdown_grace_seconds: Option<u64>,

    /// The older name of SHUTDOWN_GRACE_SECONDS, still read when that is
    /// unset
    #[arg(long, env = "SHUTDOWN_TIMEOUT_SECONDS", global = true, hide = true,
          value_parser = trimmed(value_parser!(u64).range(0..=3600)))]
    pub shutdown_timeout_seconds: Option<u64>,

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

    /// Vacation days each player gets every calendar year (0..=366)
    #[arg(long, env = "VACATION_DAYS_PER_YEAR", global = true,
          default_value_t = defaults::VACATION_DAYS_PER_YEAR,
          value_parser = trimmed(value_parser!(u32).range(0..=366)))]
    pub vacation_days_per_year: u32,

    /// Unused vacation days carried into the next year, at most (0..=366)
    #[arg(long, env = "VACATION_CARRY_OVER_DAYS", global = true,
          default_value_t = defaults::VACATION_CARRY_OVER_DAYS,
          value_parser = trimmed(value_parser!(u32).range(0..=366)))]
    pub vacation_carry_over_days: u32,

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

    /// The VAPID private key Web Push is signed with: base64url of the
    /// 32-byte P-256 scalar. With SQLite one is generated and kept beside
    /// the database when unset; with PostgreSQL, unset turns Web Push off
    #[arg(long, env = "VAPID_PRIVATE_KEY", global = true, hide_env_values = true)]
    pub vapid_private_key: Option<String>,

    /// Where the operator can be reached, sent with every Web Push
    /// (`mailto:` or `https:` URL)
    #[arg(long, env = "VAPID_SUBJECT", global = true, value_parser = vapid_subject)]
    pub vapid_subject: Option<String>,

    /// Let webhooks and push endpoints use plain http and loopback or
    /// private addresses (local development and tests only)
    #[arg(long, env = "OUTBOUND_ALLOW_PRIVATE_NETWORKS", global = true,
          action = ArgAction::Set, default_value_t = false, value_parser = switch)]
    pub outbound_allow_private_networks: bool,

    /// Milliseconds between two looks for deliveries to make, when the
    /// last look found none
    #[arg(long, env = "OUTBOX_POLL_MILLIS", global = true,
          default_value_t = defaults::OUTBOX_POLL_MILLIS,
          value_parser = trimmed(value_parser!(u64).range(10..=60_000)))]
    pub outbox_poll_millis: u64,

    /// The SMTP relay e-mail is sent through: `smtps://user:password@host:465`,
    /// `smtp://user:password@host:587?tls=required` (STARTTLS) or
    /// `smtp://host:25` (no TLS). Unset: no e-mail
    #[arg(long, env = "SMTP_URL", global = true, hide_env_values = true)]
    pub smtp_url: Option<String>,

    /// The sender of every e-mail: `Stratego <games@example.org>`
    #[arg(long, env = "SMTP_FROM", global = true)]
    pub smtp_from: Option<String>,

    /// The address players reach this server at (`https://stratego.example.org`),
    /// for the links in e-mail; needed with SMTP_URL
    #[arg(long, env = "PUBLIC_URL", global = true, value_parser = public_url)]
    pub public_url: Option<String>,
}

/// The server's public base URL: `http(s)://host[:port][/path]`, kept
/// without a trailing slash.
fn public_url(value: &str) -> Result<String, String> {
    let parsed = url::Url::parse(value.trim()).map_err(|e| format!("is not a URL: {e}"))?;
    let ok = matches!(parsed.scheme(), "http" | "https")
        && parsed.host().is_some()
        && parsed.username().is_empty()
        && parsed.password().is_none()
        && parsed.query().is_none()
        && parsed.fragment().is_none();
    // The parsed form, not the text given: the parser drops tabs and line
    // breaks, which must not reach a mail header.
    ok.then(|| parsed.as_str().trim_end_matches('/').to_owned())
        .ok_or_else(|| "must be an http(s) URL without credentials, query or fragment".to_owned())
}

/// A VAPID subject: a `mailto:` address or an `https:` URL (RFC 8292).
fn vapid_subject(value: &str) -> Result<String, String> {
    let value = value.trim();
    let ok = match value.split_once(':') {
        Some(("mailto", rest)) => rest.contains('@') && !rest.contains(char::is_whitespace),
        Some(("https", rest)) => rest.starts_with("//") && rest.len() > 2,
        _ => false,
    };
    ok.then(|| value.to_owned())
        .ok_or_else(|| "must be a mailto: address or an https: URL".to_owned())
}

/// What [`ServerArgs::resolve`] produced, plus anything worth logging once
/// logging is up.
#[derive(Debug)]
pub struct Resolved {
    pub config: Config,
    /// Set when a JWT secret was generated (or read back) from this file.
    pub generated_secret_file: Option<(PathBuf, bool)>,
    /// Set when a VAPID key was generated (or read back) from this file.
    pub generated_vapid_file: Option<(PathBuf, bool)>,
}

impl ServerArgs {
    /// The configuration: every value was parsed by clap already; what is
    /// left is the database, the JWT secret and the checks that involve two
    /// settings.
    /// The replicas' URLs: PostgreSQL ones, and only beside a PostgreSQL
    /// primary. Messages never repeat a URL (it may hold a password).
    fn replicas(&self, primary: &DatabaseUrl) -> Result<Vec<String>, ConfigError> {
        let Some(list) = &self.database_replica_url else {
            return Ok(Vec::new());
        };
        let urls: Vec<String> = list
            .split(',')
            .map(str::trim)
            .filter(|url| !url.is_empty())
            .map(str::to_owned)
            .collect();
        if urls.is_empty() {
            return Ok(urls);
        }
        if !matches!(primary, DatabaseUrl::Postgres(_)) {
            return Err(ConfigError::new(
                "DATABASE_REPLICA_URL needs a PostgreSQL DATABASE_URL",
            ));
        }
        for (i, url) in urls.iter().enumerate() {
            if !matches!(DatabaseUrl::parse(url), Ok(DatabaseUrl::Postgres(_))) {
                return Err(ConfigError::new(format!(
                    "DATABASE_REPLICA_URL: replica {} is not a postgres:// URL",
                    i + 1
                )));
            }
        }
        Ok(urls)
    }

    pub fn resolve(&self) -> Result<Resolved, ConfigError> {
        let database = self.database.resolve()?;
        let replicas = self.replicas(&database)?;

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
        let mut generated_vapid_file = None;
        let vapid_private_key = match (&self.vapid_private_key, &database) {
            (Some(key), _) => Some(Secret::new(key.trim().to_owned())),
            (None, DatabaseUrl::Postgres(_)) => None,
            (None, DatabaseUrl::Sqlite(path)) => {
                let file = beside(path, GENERATED_VAPID_FILE);
                let fresh = || VapidKey::generate().to_base64url();
                let (key, created) = load_or_create(&file, "VAPID_PRIVATE_KEY", fresh, |key| {
                    VapidKey::from_base64url(key)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                })?;
                generated_vapid_file = Some((file, created));
                Some(key)
            }
        };
        if let Some(key) = &vapid_private_key {
            VapidKey::from_base64url(key.expose())
                .map_err(|e| ConfigError::new(format!("VAPID_PRIVATE_KEY: {e}")))?;
        }
        let smtp = match (&self.smtp_url, &self.smtp_from, &self.public_url) {
            (None, _, _) => None,
            (Some(url), Some(from), Some(public_url)) => Some(SmtpSettings {
                url: Secret::new(url.trim().to_owned()),
                from: from.trim().to_owned(),
                public_url: public_url.clone(),
            }),
            (Some(_), _, _) => return Err(ConfigError::new(
                "SMTP_URL needs SMTP_FROM (the sender) and PUBLIC_URL (for the links in e-mail)",
            )),
        };
        if self.refresh_token_ttl_seconds <= self.access_token_ttl_seconds {
            return Err(ConfigError::new(
                "REFRESH_TOKEN_TTL_SECONDS must be longer than ACCESS_TOKEN_TTL_SECONDS",
            ));
        }

        Ok(Resolved {
            config: Config {
                bind_address: self.bind_address,
                metrics_bind_address: self.metrics_bind_address,
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
                database_write_connections: self.database_write_connections,
                database_replicas: replicas,
                database_replica_max_lag: std::time::Duration::from_millis(
                    self.database_replica_max_lag_millis,
                ),
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
                shutdown_grace_seconds: self
                    .shutdown_grace_seconds
                    .or(self.shutdown_timeout_seconds)
                    .unwrap_or(defaults::SHUTDOWN_GRACE_SECONDS),
                max_streams_per_user: self.max_streams_per_user,
                sse_keepalive_seconds: self.sse_keepalive_seconds,
                deadline_reminder_percent: self.deadline_reminder_percent,
                vacation: domain::vacation::Allowance {
                    days_per_year: self.vacation_days_per_year,
                    carry_over_max: self.vacation_carry_over_days,
                },
                reminder_interval_seconds: self.reminder_interval_seconds,
                deadline_sweep_seconds: self.deadline_sweep_seconds,
                event_retention_days: self.event_retention_days,
                bot_think_millis: self.bot_think_millis,
                bot_rescan_seconds: self.bot_rescan_seconds,
                vapid_private_key,
                vapid_subject: self
                    .vapid_subject
                    .clone()
                    .unwrap_or_else(|| defaults::VAPID_SUBJECT.to_owned()),
                outbound_allow_private_networks: self.outbound_allow_private_networks,
                outbox_poll: std::time::Duration::from_millis(self.outbox_poll_millis),
                smtp,
            },
            generated_secret_file,
            generated_vapid_file,
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

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
