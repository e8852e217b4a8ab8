//! The server under test: [`spawn_app_with`] starts it in-process on port 0
//! with a fresh database and a manual clock; [`backend_tests!`] and
//! [`postgres_tests!`] declare the tests that get one; [`assert_problem`]
//! checks error answers. Helpers for games and events are in `support.rs`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use api::clock::{Clock, ManualClock};
use api::config::{Config, DatabaseUrl, Secret};
use api::db::DbPool;
use api::Application;
use chrono::{DateTime, Utc};
use diesel::{Connection, PgConnection, RunQueryDsl};
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};

pub const TEST_JWT_SECRET: &str = "e2e-secret-e2e-secret-e2e-secret-0123456789";
pub const PASSWORD: &str = "correct horse battery";

/// Which database a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Declares tests that run on every backend. Each `async fn name(app)`
/// becomes a module `name` with two tests, `sqlite` and `postgres`, each
/// getting a fresh server on a fresh database.
/// `async fn name(app, config = <expr>)` first applies `<expr>`, anything
/// callable as `FnOnce(&mut Config)`, to [`test_config`].
///
/// ```ignore
/// backend_tests! {
///     async fn me_needs_a_token(app) {
///         let response = app.get("/api/v1/me", None).await;
///         assert_problem(response, 401, "unauthorized").await;
///     }
///
///     async fn small_bodies_only(app, config = |c| c.max_body_bytes = 1024) {
///         // ...
///     }
/// }
/// ```
///
/// Whether the PostgreSQL half runs is decided when the tests are built
/// (`tests/build.rs`), so that it can never pass without running:
///
/// - with `TEST_DATABASE_URL` set, the build sets the `e2e_postgres` cfg
///   and every `postgres` test runs on a database of its own, created on
///   that server (and dropped afterwards);
/// - without it, each `postgres` test is `#[ignore]`d, which `cargo test`
///   reports as "ignored" (not "ok"); `--ignored` runs them anyway, and
///   then they fail, saying that the URL is missing;
/// - without it while `CI` is set (to anything non-empty), the build fails
///   with a message saying why: CI cannot go green without PostgreSQL.
///
/// Cargo rebuilds the tests whenever either variable changes.
macro_rules! backend_tests {
    () => {};
    // A fresh, empty database of each backend, for tests that start server
    // processes of their own.
    (
        $(#[$meta:meta])*
        async fn $name:ident($database:ident: TestDatabase) $body:block
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn body($database: $crate::harness::TestDatabase) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                body($crate::harness::TestDatabase::sqlite()).await;
            }

            postgres_test! {
                body($crate::harness::TestDatabase::postgres()).await;
            }
        }

        backend_tests! { $($rest)* }
    };
    ($(#[$meta:meta])* async fn $name:ident($app:ident) $body:block $($rest:tt)*) => {
        backend_tests! {
            $(#[$meta])* async fn $name($app, config = |_| {}) $body
            $($rest)*
        }
    };
    (
        $(#[$meta:meta])*
        async fn $name:ident($app:ident, config = $config:expr) $body:block
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn body($app: $crate::harness::TestApp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let backend = $crate::harness::Backend::Sqlite;
                body($crate::harness::spawn_app_with(backend, $config).await).await;
            }

            postgres_test! {
                let backend = $crate::harness::Backend::Postgres;
                body($crate::harness::spawn_app_with(backend, $config).await).await;
            }
        }

        backend_tests! { $($rest)* }
    };
}

/// Declares tests that only make sense on PostgreSQL (several servers on
/// one database, a database that goes away, migrations reverted): each
/// becomes a module `name` with one test, `postgres`, run or ignored
/// exactly like the `postgres` half of [`backend_tests!`]. Three forms:
/// `async fn name(app)` and `async fn name(app, config = <expr>)` get a
/// server as there; `async fn name(database: TestDatabase)` gets only a
/// fresh, empty database (for tests that start server processes).
macro_rules! postgres_tests {
    () => {};
    ($(#[$meta:meta])* async fn $name:ident($app:ident) $body:block $($rest:tt)*) => {
        postgres_tests! {
            $(#[$meta])* async fn $name($app, config = |_| {}) $body
            $($rest)*
        }
    };
    (
        $(#[$meta:meta])*
        async fn $name:ident($app:ident, config = $config:expr) $body:block
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            postgres_test! {
                let backend = $crate::harness::Backend::Postgres;
                let $app = $crate::harness::spawn_app_with(backend, $config).await;
                $body
            }
        }

        postgres_tests! { $($rest)* }
    };
    (
        $(#[$meta:meta])*
        async fn $name:ident($database:ident: TestDatabase) $body:block
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            postgres_test! {
                let $database = $crate::harness::TestDatabase::postgres();
                $body
            }
        }

        postgres_tests! { $($rest)* }
    };
}

/// The one `postgres` test function of a module, ignored unless the tests
/// were built with `TEST_DATABASE_URL` (see [`backend_tests!`]).
macro_rules! postgres_test {
    ($($body:tt)*) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        #[cfg_attr(
            not(e2e_postgres),
            ignore = "set TEST_DATABASE_URL to run the PostgreSQL tests"
        )]
        async fn postgres() {
            $($body)*
        }
    };
}

/// The configuration tests start from: defaults, port 0, a test secret,
/// small pool, two workers.
pub fn test_config(database: DatabaseUrl) -> Config {
    let mut config = Config::new(database, Secret::new(TEST_JWT_SECRET));
    config.bind_address = "127.0.0.1:0".parse().unwrap();
    config.database_pool_size = 4;
    config.workers = Some(2);
    config.shutdown_grace_seconds = 2;
    // Tests register many users from one address.
    config.register_attempts_per_minute = 1000;
    // Tests run the deadline sweep and the reminder pass by hand right after
    // moving the manual clock; a background pass landing in between would
    // do the work first and make "this pass ended exactly one game" flaky.
    // Tests of the background tasks themselves set a short interval.
    config.deadline_sweep_seconds = 86_400;
    config.reminder_interval_seconds = 86_400;
    // Bots are woken by their games' events; the slow safety look would
    // only add statements to the tests that count them.
    config.bot_rescan_seconds = 86_400;
    // The outbox looks once at start, then rests: its looks would only add
    // statements to the tests that count them. Tests of deliveries set a
    // short rest.
    config.outbox_poll = Duration::from_secs(86_400);
    config
}

/// Starts a server on a fresh database on `backend`, with [`test_config`]
/// after `customize` has changed it (the database is already filled in).
pub async fn spawn_app_with(backend: Backend, customize: impl FnOnce(&mut Config)) -> TestApp {
    let database = match backend {
        Backend::Sqlite => TestDatabase::sqlite(),
        Backend::Postgres => TestDatabase::postgres(),
    };
    spawn_app_on(database, customize).await
}

/// Starts a server on `database` (which the returned app owns and removes),
/// with [`test_config`] after `customize` has changed it (it may point the
/// server at the database through another address, e.g. a proxy).
pub async fn spawn_app_on(database: TestDatabase, customize: impl FnOnce(&mut Config)) -> TestApp {
    let backend = match database {
        TestDatabase::Sqlite(_) => Backend::Sqlite,
        TestDatabase::Postgres { .. } => Backend::Postgres,
    };
    let mut config = test_config(database.url());
    customize(&mut config);
    let clock = ManualClock::starting_now();
    let application = Application::build(config, clock.clone())
        .await
        .expect("the server starts");
    let port = application.port();
    let pool = application.pool();
    let games = application.games();
    let handle = application.handle();
    tokio::spawn(application.run_until_stopped());
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    TestApp {
        address: format!("http://127.0.0.1:{port}"),
        client,
        clock,
        backend,
        pool,
        games,
        handle,
        database,
    }
}

/// A fresh database, removed again when the test ends (also on panic).
pub enum TestDatabase {
    Sqlite(PathBuf),
    Postgres { admin_url: String, name: String },
}

impl TestDatabase {
    pub fn sqlite() -> Self {
        let path =
            std::env::temp_dir().join(format!("stratego-e2e-{}.db", uuid::Uuid::new_v4().simple()));
        Self::Sqlite(path)
    }

    /// A new database on the `TEST_DATABASE_URL` server. Only PostgreSQL
    /// tests call this, and those are ignored unless the tests were built
    /// with `TEST_DATABASE_URL` (see [`backend_tests!`]); without it at run
    /// time (`--ignored`, or a test binary run by hand) this fails the test.
    pub fn postgres() -> Self {
        let admin_url = std::env::var("TEST_DATABASE_URL")
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| {
                panic!(
                    "TEST_DATABASE_URL is not set: a PostgreSQL test needs it when the tests \
                     are built (else they are ignored) and when they run"
                )
            });
        Self::postgres_on(admin_url)
    }

    /// A new database on the PostgreSQL server of `admin_url`, where the
    /// user may create databases.
    pub fn postgres_on(admin_url: String) -> Self {
        let name = format!("stratego_e2e_{}", uuid::Uuid::new_v4().simple());
        let mut admin =
            PgConnection::establish(&admin_url).expect("the admin URL accepts connections");
        diesel::sql_query(format!("CREATE DATABASE \"{name}\""))
            .execute(&mut admin)
            .expect("create a test database");
        Self::Postgres { admin_url, name }
    }

    /// For PostgreSQL: the admin URL (`TEST_DATABASE_URL`) and the name of
    /// this database.
    pub fn postgres_parts(&self) -> Option<(&str, &str)> {
        match self {
            Self::Postgres { admin_url, name } => Some((admin_url, name)),
            Self::Sqlite(_) => None,
        }
    }

    pub fn url(&self) -> DatabaseUrl {
        match self {
            Self::Sqlite(path) => DatabaseUrl::Sqlite(path.clone()),
            Self::Postgres { admin_url, name } => {
                DatabaseUrl::Postgres(with_database_name(admin_url, name))
            }
        }
    }
}

/// Replaces the database name in a `postgres://` URL.
pub fn with_database_name(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("a postgres:// URL");
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let query = tail.find('?').map(|i| &tail[i..]).unwrap_or("");
    format!("{scheme}://{authority}/{name}{query}")
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        match self {
            Self::Sqlite(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
            }
            Self::Postgres { admin_url, name } => {
                if let Ok(mut admin) = PgConnection::establish(admin_url) {
                    let _ = diesel::sql_query(format!(
                        "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
                    ))
                    .execute(&mut admin);
                }
            }
        }
    }
}

/// A running server and a client for it.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`
    pub address: String,
    pub client: reqwest::Client,
    /// The server's clock: `app.clock.advance(chrono::Duration::days(3))`.
    pub clock: Arc<ManualClock>,
    pub backend: Backend,
    /// The server's own pool, to look into the database directly.
    pub pool: DbPool,
    /// The server's game service, to run what its own tasks run.
    pub games: api::games::Context,
    handle: api::ServerHandle,
    // Dropped after the server is told to stop (fields drop in order).
    database: TestDatabase,
}

impl TestApp {
    /// Statements the server has sent to its database so far.
    pub fn statements_sent(&self) -> u64 {
        api::db::statements_sent(&self.database.url())
    }

    /// The part of [`TestApp::statements_sent`] sent by the HTTP workers on
    /// their own connections (reads without a blocking thread).
    pub fn statements_sent_async(&self) -> u64 {
        api::db::statements_sent_async(&self.database.url())
    }

    /// The part of [`TestApp::statements_sent`] sent by SQLite's writing
    /// connection.
    pub fn statements_sent_by_writer(&self) -> u64 {
        api::db::statements_sent_by_writer(&self.database.url())
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        // Stop the server (its workers drop their pools) before the
        // database is removed. Waiting needs the multi-threaded runtime that
        // `backend_tests!` uses; elsewhere the stop is only requested.
        let stopped = self.handle.stop(false);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            if runtime.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread {
                tokio::task::block_in_place(|| runtime.block_on(stopped));
            }
        }
    }
}

/// A registered, logged-in user.
#[derive(Debug, Clone)]
pub struct TestUser {
    pub id: String,
    pub username: String,
    pub password: String,
    pub access_token: String,
    pub refresh_token: String,
}

impl TestApp {
    /// The database this server runs on.
    pub fn database(&self) -> &TestDatabase {
        &self.database
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// GET, with a bearer token when given.
    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut request = self.client.get(self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("the server answers")
    }

    /// POST a JSON body, with a bearer token when given.
    pub async fn post_json(&self, path: &str, token: Option<&str>, body: &Value) -> Response {
        let mut request = self.client.post(self.url(path)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("the server answers")
    }

    pub async fn register(&self, username: &str, password: &str) -> Response {
        self.post_json(
            "/api/v1/auth/register",
            None,
            &json!({"username": username, "password": password}),
        )
        .await
    }

    pub async fn login(&self, username: &str, password: &str) -> Response {
        self.post_json(
            "/api/v1/auth/login",
            None,
            &json!({"username": username, "password": password}),
        )
        .await
    }

    /// Registers `username` with [`PASSWORD`]; panics unless it succeeds.
    pub async fn register_user(&self, username: &str) -> TestUser {
        let response = self.register(username, PASSWORD).await;
        assert_eq!(
            response.status(),
            StatusCode::CREATED,
            "registering {username}"
        );
        TestUser::registered(&response.json().await.unwrap())
    }

    /// The server's (manual) clock's time.
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }
}

impl TestUser {
    /// The user of a registration's answer (registered with [`PASSWORD`]).
    pub fn registered(body: &Value) -> Self {
        Self {
            id: body["user"]["id"].as_str().unwrap().to_owned(),
            username: body["user"]["username"].as_str().unwrap().to_owned(),
            password: PASSWORD.to_owned(),
            access_token: body["access_token"].as_str().unwrap().to_owned(),
            refresh_token: body["refresh_token"].as_str().unwrap().to_owned(),
        }
    }
}

/// Asserts a problem+json answer with this status and code, with every
/// standard member present and consistent; returns the body.
pub async fn assert_problem(response: Response, status: u16, code: &str) -> Value {
    assert_eq!(response.status().as_u16(), status, "status for {code}");
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    assert_eq!(
        content_type, "application/problem+json",
        "content type for {code}"
    );
    let body: Value = response.json().await.expect("a JSON problem body");
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(
        body["type"],
        format!("/problems/{}", code.replace('_', "-")),
        "{body}"
    );
    assert!(
        body["title"].as_str().is_some_and(|t| !t.is_empty()),
        "{body}"
    );
    assert!(
        body["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{body}"
    );
    let text = body.to_string().to_lowercase();
    for leak in [
        "select ",
        "insert ",
        "panicked",
        "stack backtrace",
        "diesel",
        TEST_JWT_SECRET,
    ] {
        assert!(
            !text.contains(&leak.to_lowercase()),
            "problem leaks {leak:?}: {body}"
        );
    }
    body
}
