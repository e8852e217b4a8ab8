//! The real server as a separate OS process (the `stratego-test-server`
//! binary of this package): for tests that run several server processes
//! on one database, stop one with SIGTERM, or kill one with SIGKILL.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api::config::DatabaseUrl;
use serde_json::json;

use crate::harness::{TestDatabase, TestUser, PASSWORD, TEST_JWT_SECRET};
use crate::support::Server;

pub struct ServerProcess {
    child: Child,
    pub address: String,
    client: reqwest::Client,
    /// What the server has written on standard output (its log) so far.
    output: Arc<Mutex<Vec<String>>>,
}

impl ServerProcess {
    /// A server on `database` that may take `shutdown_grace_seconds` to
    /// stop after SIGTERM.
    pub fn start(database: &TestDatabase, shutdown_grace_seconds: u32) -> Self {
        let shutdown = shutdown_grace_seconds.to_string();
        Self::start_with(database, &[("SHUTDOWN_GRACE_SECONDS", &shutdown)])
    }

    /// A server on `database`, with these settings on top of the tests'
    /// usual ones (two workers, a pool of four, a quiet log).
    pub fn start_with(database: &TestDatabase, settings: &[(&str, &str)]) -> Self {
        let url = match database.url() {
            DatabaseUrl::Postgres(url) => url,
            DatabaseUrl::Sqlite(path) => format!("sqlite://{}", path.display()),
        };
        Self::start_on(&url, settings)
    }

    /// A server on `DATABASE_URL=url` (settings as [`Self::start_with`]).
    pub fn start_on(url: &str, settings: &[(&str, &str)]) -> Self {
        let mut child = command(url, settings)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the server process");
        // The server prints its port once it listens; keep draining its
        // output afterwards so that it never blocks on a full pipe.
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        let output = Arc::new(Mutex::new(Vec::new()));
        let kept = output.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(port) = line.strip_prefix("STRATEGO_TEST_SERVER_PORT=") {
                    let _ = sender.send(port.trim().to_owned());
                }
                kept.lock().unwrap().push(line);
            }
        });
        let port = receiver
            .recv_timeout(Duration::from_secs(120))
            .expect("the server process reports its port");
        Self {
            child,
            address: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(120))
                .build()
                .unwrap(),
            output,
        }
    }

    /// Starts a server on `DATABASE_URL=url` that must stop at start:
    /// waits (at most a minute) for it to exit without having listened,
    /// and returns its exit status and what it wrote on standard error.
    pub fn refused(url: &str, settings: &[(&str, &str)]) -> (std::process::ExitStatus, String) {
        let mut child = command(url, settings)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the server process");
        let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
            std::thread::spawn(move || {
                let mut text = String::new();
                let _ = pipe.read_to_string(&mut text);
                text
            })
        };
        let stdout = drain(Box::new(child.stdout.take().unwrap()));
        let stderr = drain(Box::new(child.stderr.take().unwrap()));
        let until = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() >= until {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the server did not stop at start");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let stdout = stdout.join().unwrap();
        assert!(
            !stdout.contains("STRATEGO_TEST_SERVER_PORT="),
            "the server listened: {stdout}"
        );
        (status, stderr.join().unwrap())
    }

    /// The log lines written so far.
    pub fn log(&self) -> Vec<String> {
        self.output.lock().unwrap().clone()
    }

    pub async fn register(&self, username: &str) -> TestUser {
        let response = self
            .client
            .post(self.at("/api/v1/auth/register"))
            .json(&json!({"username": username, "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        TestUser::registered(&response.json().await.unwrap())
    }

    /// Sends SIGTERM (through the `kill` utility: this crate has no
    /// unsafe code and no libc).
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill");
        assert!(status.success());
    }

    /// SIGKILL: the process ends at once, whatever it was doing.
    pub fn kill(&mut self) {
        self.child.kill().expect("SIGKILL the server process");
        self.child.wait().expect("reap the server process");
    }

    /// Waits (blocking, bounded) for the process to exit.
    pub fn wait_exit(&mut self, limit: Duration) -> std::process::ExitStatus {
        let until = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < until, "the server process did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Server for ServerProcess {
    fn client(&self) -> &reqwest::Client {
        &self.client
    }
    fn base(&self) -> &str {
        &self.address
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server process's command, with the tests' usual settings (two
/// workers, a pool of four, a quiet log) and `settings` on top.
fn command(url: &str, settings: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_stratego-test-server"));
    command
        .env("DATABASE_URL", url)
        .env("JWT_SECRET", TEST_JWT_SECRET)
        .env("BIND_ADDRESS", "127.0.0.1:0")
        .env("LOG_LEVEL", "warn")
        .env("WORKERS", "2")
        .env("DATABASE_POOL_SIZE", "4")
        .env("REGISTER_RATE_LIMIT", "1000");
    for (name, value) in settings {
        command.env(name, value);
    }
    command
}
