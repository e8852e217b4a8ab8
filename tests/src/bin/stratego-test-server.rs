//! The real server as a separate OS process, for end-to-end tests that need
//! more than one server process on one database (and for benchmarks).
//!
//! It takes exactly the configuration of the `api` binary (flags or
//! environment: DATABASE_URL, JWT_SECRET, BIND_ADDRESS, ...), uses the
//! system clock, and prints one line `STRATEGO_TEST_SERVER_PORT=<port>` on
//! standard output once it listens (so BIND_ADDRESS may use port 0).
//! SIGTERM/SIGINT stop it gracefully.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;

use api::clock::SystemClock;
use api::config::ServerArgs;
use api::{telemetry, Application};

#[derive(Debug, Parser)]
#[command(name = "stratego-test-server")]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match cli.server.resolve() {
        Ok(resolved) => resolved.config,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    telemetry::init(&config.log_level, config.log_format);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = runtime.block_on(async move {
        let app = Application::build(config, Arc::new(SystemClock))
            .await
            .map_err(|e| e.to_string())?;
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "STRATEGO_TEST_SERVER_PORT={}", app.port())
            .and_then(|()| stdout.flush())
            .map_err(|e| e.to_string())?;
        drop(stdout);
        app.run_until_stopped().await.map_err(|e| e.to_string())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // One line, as the `api` binary says it (libpq's messages span
        // several).
        Err(e) => {
            eprintln!("error: {}", api::db::one_line(&e));
            ExitCode::from(1)
        }
    }
}
