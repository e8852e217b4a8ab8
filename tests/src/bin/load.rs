//! Load generator: moves and views at a given concurrency against a running
//! server, with latency percentiles, errors and the server's memory (see
//! `e2e::load` and BENCHMARKS.md).
//!
//! ```text
//! load --address 127.0.0.1:8080 --clients 32 --move-seconds 20 --view-seconds 20 --pid $PID
//! load --address 127.0.0.1:8080 --json > run.json
//! load --address 127.0.0.1:8080 --notify --long-games 0 --view-seconds 0
//! load compare --report PostgreSQL=pg.json --report SQLite=sqlite.json --tpcb 512 --select-only 9000 --tpcb-p99-ms 40
//! ```
//!
//! Loopback addresses only; every phase is bounded in time and count, and the
//! run stops by itself. Exits 1 when any request failed.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use e2e::load::{self, Options, Pgbench, Report};

#[derive(Debug, Parser)]
#[command(name = "load", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Prints one table from saved `--json` reports and pgbench's figures.
    Compare(CompareArgs),
}

#[derive(Debug, Args)]
struct RunArgs {
    /// The server's address (loopback only)
    #[arg(long, default_value = "127.0.0.1:8080")]
    address: SocketAddr,
    /// Concurrent clients (1-256)
    #[arg(long, default_value_t = 32)]
    clients: usize,
    /// Seconds of moves (at most 600)
    #[arg(long, default_value_t = 20.0)]
    move_seconds: f64,
    /// The move phase also stops after this many moves
    #[arg(long, default_value_t = 10_000_000)]
    max_moves: u64,
    /// Seconds of views (0 skips them; at most 600)
    #[arg(long, default_value_t = 20.0)]
    view_seconds: f64,
    /// Games played past --long-plies before the move phase, for the
    /// latency of early against late moves (0 skips them; at most 16)
    #[arg(long, default_value_t = 4)]
    long_games: usize,
    /// Plies each long game must pass
    #[arg(long, default_value_t = 1_100)]
    long_plies: u32,
    /// Moves after this ply are the late ones (early: ply < 100)
    #[arg(long, default_value_t = 1_000)]
    late_from: u32,
    /// Bound of the long-game phase, in seconds
    #[arg(long, default_value_t = 180.0)]
    long_seconds: f64,
    /// Seed of setups and move choices
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The server's process id: report its peak RSS and CPU time (/proc)
    #[arg(long)]
    pid: Option<u32>,
    /// Give every account a webhook and a Web Push subscription to a
    /// receiver this tool starts on loopback, and report the deliveries
    /// it gets (the server needs OUTBOUND_ALLOW_PRIVATE_NETWORKS=true and
    /// a VAPID key)
    #[arg(long)]
    notify: bool,
    /// Print the report as JSON (the table then goes to stderr, as does
    /// the progress either way)
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct CompareArgs {
    /// NAME=FILE of a `--json` report, one per column
    #[arg(long = "report", required = true)]
    reports: Vec<String>,
    /// pgbench TPC-B-like tps
    #[arg(long, default_value_t = 0.0)]
    tpcb: f64,
    /// pgbench select-only tps
    #[arg(long, default_value_t = 0.0)]
    select_only: f64,
    /// p99 latency of pgbench's TPC-B-like transactions, in ms
    #[arg(long, default_value_t = 0.0)]
    tpcb_p99_ms: f64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Compare(args)) => compare(&args),
        None => run(&cli.run),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &RunArgs) -> Result<ExitCode, String> {
    let options = Options {
        address: args.address,
        clients: args.clients,
        move_seconds: args.move_seconds,
        max_moves: args.max_moves,
        view_seconds: args.view_seconds,
        long_games: args.long_games,
        long_plies: args.long_plies,
        late_from: args.late_from,
        long_seconds: args.long_seconds,
        seed: args.seed,
        pid: args.pid,
        notify: args.notify,
    };
    options.check()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    let report = runtime.block_on(load::run(&options, |line| eprintln!("load: {line}")))?;
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        println!("{text}");
        eprint!("{}", load::table(&report));
    } else {
        print!("{}", load::table(&report));
    }
    if report.errors > 0 {
        for sample in &report.error_samples {
            eprintln!("load: failed: {sample}");
        }
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn compare(args: &CompareArgs) -> Result<ExitCode, String> {
    let mut reports = Vec::new();
    for spec in &args.reports {
        let (name, file) = spec
            .split_once('=')
            .ok_or_else(|| format!("--report {spec}: expected NAME=FILE"))?;
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let report: Report = serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
        reports.push((name.to_owned(), report));
    }
    let columns: Vec<(&str, &Report)> = reports.iter().map(|(n, r)| (n.as_str(), r)).collect();
    let pgbench = Pgbench {
        tpcb: args.tpcb,
        select_only: args.select_only,
        tpcb_p99_ms: args.tpcb_p99_ms,
    };
    print!("{}", load::compare(&columns, pgbench));
    Ok(ExitCode::SUCCESS)
}
