//! Opens many Server-Sent Event streams to a running server and reports the
//! server's resident memory (the figure in BENCHMARKS.md).
//!
//! ```text
//! sse-load --address 127.0.0.1:8080 --pid <server pid> --connections 1000 --users 200
//! ```
//!
//! With `--tokens-file F --register-only`, it only registers the accounts
//! and writes their access tokens to F; a later run with `--tokens-file F`
//! reuses them. That way the streams can be measured on a freshly started
//! server (same database and JWT_SECRET) whose memory holds nothing from
//! the argon2 hashing of the registrations.
//!
//! Registers `users` accounts (the server needs REGISTER_RATE_LIMIT >= users
//! and MAX_STREAMS_PER_USER >= connections / users), reads the server's
//! VmRSS from /proc/<pid>/status, opens `connections` streams to
//! `/api/v1/events/stream` (each checked for a 200 `text/event-stream`
//! answer and its first chunk), holds them for `hold` seconds, and reads
//! VmRSS again. Plain blocking sockets on loopback, one thread, bounded.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;

#[derive(Debug, Parser)]
#[command(name = "sse-load")]
struct Args {
    /// The server's address (loopback only)
    #[arg(long, default_value = "127.0.0.1:8080")]
    address: String,
    /// The server's process id (to read its memory)
    #[arg(long)]
    pid: u32,
    /// Streams to open (at most 10000)
    #[arg(long, default_value_t = 1000)]
    connections: usize,
    /// Accounts to spread the streams over
    #[arg(long, default_value_t = 200)]
    users: usize,
    /// Seconds to hold the streams open before measuring
    #[arg(long, default_value_t = 5)]
    hold: u64,
    /// Read access tokens from this file (one per line) if it exists;
    /// otherwise register the users and write their tokens to it
    #[arg(long)]
    tokens_file: Option<std::path::PathBuf>,
    /// Stop after registering (with --tokens-file)
    #[arg(long)]
    register_only: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let address: std::net::SocketAddr = args
        .address
        .parse()
        .map_err(|e| format!("--address: {e}"))?;
    if !address.ip().is_loopback() {
        return Err("--address must be a loopback address".into());
    }
    if args.connections > 10_000 || args.users == 0 || args.users > args.connections.max(1) {
        return Err("need 1 <= users <= connections <= 10000".into());
    }
    let tokens = match &args.tokens_file {
        Some(file) if file.exists() => std::fs::read_to_string(file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .lines()
            .map(str::to_owned)
            .filter(|line| !line.is_empty())
            .collect(),
        _ => {
            let tokens = register(args, &address)?;
            if let Some(file) = &args.tokens_file {
                std::fs::write(file, tokens.join("\n"))
                    .map_err(|e| format!("{}: {e}", file.display()))?;
            }
            tokens
        }
    };
    if tokens.is_empty() {
        return Err("no tokens".into());
    }
    if args.register_only {
        return Ok(());
    }
    std::thread::sleep(Duration::from_secs(1));
    let before = rss_kib(args.pid)?;
    println!(
        "server VmRSS before streams: {} KiB ({:.1} MiB)",
        before,
        mib(before)
    );

    let started = Instant::now();
    let mut streams = Vec::with_capacity(args.connections);
    for i in 0..args.connections {
        let mut stream = TcpStream::connect(address).map_err(|e| format!("connect: {e}"))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|e| e.to_string())?;
        let request = format!(
            "GET /api/v1/events/stream HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\
             Authorization: Bearer {}\r\n\r\n",
            tokens[i % tokens.len()]
        );
        stream
            .write_all(request.as_bytes())
            .map_err(|e| format!("send: {e}"))?;
        // The head and the first chunk (`retry:`) of the stream.
        let mut head = Vec::new();
        let mut buffer = [0u8; 1024];
        while !String::from_utf8_lossy(&head).contains("retry:") {
            let read = stream
                .read(&mut buffer)
                .map_err(|e| format!("stream {i}: {e}"))?;
            if read == 0 {
                return Err(format!(
                    "stream {i} closed: {}",
                    String::from_utf8_lossy(&head)
                ));
            }
            head.extend_from_slice(&buffer[..read]);
        }
        let text = String::from_utf8_lossy(&head);
        if !text.starts_with("HTTP/1.1 200") || !text.contains("text/event-stream") {
            return Err(format!("stream {i}: unexpected answer: {text}"));
        }
        streams.push(stream);
    }
    println!(
        "opened {} streams in {:.1?}",
        streams.len(),
        started.elapsed()
    );
    std::thread::sleep(Duration::from_secs(args.hold));
    let after = rss_kib(args.pid)?;
    println!(
        "server VmRSS with {} open streams: {} KiB ({:.1} MiB); {:.1} KiB per stream above the baseline",
        streams.len(),
        after,
        mib(after),
        (after.saturating_sub(before)) as f64 / streams.len().max(1) as f64
    );
    drop(streams);
    Ok(())
}

fn register(args: &Args, address: &std::net::SocketAddr) -> Result<Vec<String>, String> {
    let run_id = std::process::id();
    let mut tokens = Vec::with_capacity(args.users);
    let started = Instant::now();
    for i in 0..args.users {
        let body = serde_json::json!({"username": format!("load{run_id}x{i}"),
                                      "password": "load-test-password"})
        .to_string();
        let request = format!(
            "POST /api/v1/auth/register HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let answer = exchange(address, &request)?;
        let json = answer
            .split_once("\r\n\r\n")
            .map(|(_, body)| body)
            .ok_or("no body in the register answer")?;
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|e| format!("register answer: {e}: {answer}"))?;
        let token = value["access_token"]
            .as_str()
            .ok_or_else(|| format!("no access_token: {answer}"))?;
        tokens.push(token.to_owned());
    }
    println!(
        "registered {} users in {:.1?}",
        args.users,
        started.elapsed()
    );
    Ok(tokens)
}

fn exchange(address: &std::net::SocketAddr, request: &str) -> Result<String, String> {
    let mut stream = TcpStream::connect(address).map_err(|e| format!("connect: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("send: {e}"))?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| format!("receive: {e}"))?;
    Ok(answer)
}

fn rss_kib(pid: u32) -> Result<u64, String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("/proc/{pid}/status: {e}"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| "no VmRSS line".to_owned())
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}
