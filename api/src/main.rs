//! `api`: serve (default), migrate, or print the OpenAPI document.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use api::clock::SystemClock;
use api::config::{self, ServerArgs};
use api::{db, openapi_document, telemetry, Application};

#[derive(Debug, Parser)]
#[command(
    name = "api",
    version,
    about = "Stratego by correspondence: the REST server",
    long_about = "Stratego by correspondence: the REST server.\n\nEvery option can also be \
                  set through the environment variable named in brackets. Without \
                  DATABASE_URL the server keeps its data in ./stratego.db (SQLite)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    server: ServerArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP server (the default)
    Serve,
    /// Apply pending database migrations and exit
    Migrate,
    /// Print the OpenAPI document as YAML (or write it to a file)
    Openapi {
        /// Write to this file instead of standard output
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Exit 0 if the server at BIND_ADDRESS answers 200 on /healthz (for
    /// container health checks; needs no curl in the image)
    Healthcheck {
        /// Path to probe
        #[arg(long, default_value = "/healthz")]
        path: String,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => return fail(config::clap_error_line(&e)),
    };
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(&cli.server),
        Command::Migrate => migrate(&cli.server),
        Command::Openapi { output } => print_openapi(output),
        Command::Healthcheck { path } => healthcheck(cli.server.bind_address, &path),
    }
}

/// Start-up failures are one line on standard error and a non-zero exit.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {}", db::one_line(&message.to_string()));
    ExitCode::from(2)
}

fn serve(args: &ServerArgs) -> ExitCode {
    let resolved = match args.resolve() {
        Ok(resolved) => resolved,
        Err(e) => return fail(e),
    };
    let config = resolved.config;
    telemetry::init(&config.log_level, config.log_format);
    if let Some((file, created)) = &resolved.generated_secret_file {
        if *created {
            tracing::warn!(
                file = %file.display(),
                "JWT_SECRET is unset: generated a random signing secret and saved it (mode 0600) \
                 in {}; set JWT_SECRET to choose your own",
                file.display()
            );
        } else {
            tracing::info!(file = %file.display(), "JWT_SECRET is unset: using the saved secret in {}", file.display());
        }
    }
    if let Some((file, created)) = &resolved.generated_vapid_file {
        if *created {
            tracing::warn!(
                file = %file.display(),
                "VAPID_PRIVATE_KEY is unset: generated a Web Push key and saved it (mode 0600) \
                 in {}; browsers subscribed with it stay valid while the file is kept",
                file.display()
            );
        } else {
            tracing::info!(file = %file.display(), "VAPID_PRIVATE_KEY is unset: using the saved Web Push key in {}", file.display());
        }
    }
    if config.vapid_private_key.is_none() {
        tracing::warn!("VAPID_PRIVATE_KEY is unset: Web Push is off (webhooks still work)");
    } else if config.vapid_subject == api::config::defaults::VAPID_SUBJECT {
        tracing::warn!("VAPID_SUBJECT is unset: push services may refuse Web Push without a real mailto: or https: contact");
    }
    match &config.smtp {
        // The relay is the operator's own choice: the address policy of
        // user-given URLs does not apply to it. Its URL may hold a
        // password, so it is never logged.
        Some(smtp) => {
            tracing::info!(from = %smtp.from, public_url = %smtp.public_url, "e-mail is on: digests and codes go through the SMTP_URL relay")
        }
        None => tracing::info!("SMTP_URL is unset: e-mail is off"),
    }
    if config.outbound_allow_private_networks {
        tracing::warn!("OUTBOUND_ALLOW_PRIVATE_NETWORKS is on: webhooks and push endpoints may reach loopback and private addresses over plain http; never in production");
    }
    let result = actix_web::rt::System::new().block_on(async move {
        let app = Application::build(config, Arc::new(SystemClock))
            .await
            .map_err(|e| e.to_string())?;
        app.run_until_stopped().await.map_err(|e| e.to_string())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

fn migrate(args: &ServerArgs) -> ExitCode {
    let database = match args.database.resolve() {
        Ok(database) => database,
        Err(e) => return fail(e),
    };
    telemetry::init(&args.log_level, args.log_format);
    let run = || -> Result<usize, api::error::BoxError> {
        let pool = db::pool(
            &database,
            1,
            std::time::Duration::from_secs(10),
            args.sqlite_synchronous,
        )?;
        let mut conn = pool.get()?;
        db::migrate(&mut conn)
    };
    match run() {
        Ok(applied) => {
            println!("{applied} migration(s) applied to {}", database.redacted());
            ExitCode::SUCCESS
        }
        Err(e) => fail(format!(
            "migrating {}: {}",
            database.redacted(),
            db::with_tls_context(&database, e)
        )),
    }
}

fn print_openapi(output: Option<PathBuf>) -> ExitCode {
    let yaml = match api::openapi::openapi_yaml(&openapi_document()) {
        Ok(yaml) => yaml,
        Err(e) => return fail(format!("cannot render the OpenAPI document: {e}")),
    };
    match output {
        None => {
            print!("{yaml}");
            ExitCode::SUCCESS
        }
        Some(path) => match std::fs::write(&path, yaml) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(format!("cannot write {}: {e}", path.display())),
        },
    }
}

fn healthcheck(mut address: std::net::SocketAddr, path: &str) -> ExitCode {
    use std::io::{Read, Write};
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, TcpStream};
    use std::time::Duration;

    // A server bound to every interface is reached on loopback.
    if address.ip().is_unspecified() {
        address.set_ip(match address.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        });
    }
    let timeout = Duration::from_secs(3);
    let probe = || -> std::io::Result<String> {
        let mut stream = TcpStream::connect_timeout(&address, timeout)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
        )?;
        let mut head = [0u8; 64];
        let read = stream.read(&mut head)?;
        Ok(String::from_utf8_lossy(&head[..read]).into_owned())
    };
    match probe() {
        Ok(answer) if answer.starts_with("HTTP/1.1 200") => ExitCode::SUCCESS,
        Ok(answer) => fail(format!(
            "{address}{path} answered {}",
            answer.lines().next().unwrap_or("nothing")
        )),
        Err(e) => fail(format!("{address}{path}: {e}")),
    }
}
