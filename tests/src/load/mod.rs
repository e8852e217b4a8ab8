//! The load generator of `BENCHMARKS.md` (issue 9): what a move and a view
//! cost under concurrent load, beside what the database alone can do
//! (`bench/run.sh` runs pgbench next to it). The binary is
//! `tests/src/bin/load.rs`; the smoke test `tests/tests/e2e/load.rs` runs the
//! same code against an in-process server.
//!
//! A run, against a server that is already listening (loopback only):
//!
//! 1. Setup (not timed): registers two accounts per client (the server needs
//!    `REGISTER_RATE_LIMIT` >= 2 x clients per minute). With `notify`, a
//!    minimal HTTP receiver then starts on loopback, and every account
//!    registers a webhook and a Web Push subscription that point at it
//!    (`receiver.rs`). The receiver counts what the server's outbox
//!    delivers; the report says how much came during the move phase. The
//!    server must allow loopback targets
//!    (`OUTBOUND_ALLOW_PRIVATE_NETWORKS=true`) and have a VAPID key.
//! 2. Long games (`long_games` > 0): that many clients, each with its own
//!    game, play at full speed until their game passes `long_plies` plies
//!    (or `long_seconds` pass). The move latencies of the games that got
//!    there are split into plies < [`EARLY_PLIES`] and plies >
//!    `late_from`: the same games, early and late. Every game is started
//!    (not timed) before any is played. The games play in two cohorts:
//!    the second starts playing when a game of the first passes
//!    `late_from`, so that the first cohort's late moves are played at the
//!    same time as the second's early ones, and each kind is measured
//!    once alone and once beside the other cohort. A machine that is
//!    slower for a minute then slows early and late moves alike, where
//!    one cohort would charge it all to whichever came first.
//! 3. Moves: `clients` clients at once, each playing its own game between
//!    its own two accounts, for `move_seconds` or until `max_moves` moves
//!    were made in all. One ply is what a real client does: `GET
//!    /api/v1/games/{id}` as the player to move, a random legal move from
//!    its `legal_moves` (seeded; a move that attacks nothing is preferred
//!    while there is one, so that games last), `POST
//!    /api/v1/games/{id}/moves` with `expected_version`. A game that ends is
//!    replaced by a new one (create, join, two random setups).
//! 4. Views: the same clients read the view of their last game (as either
//!    player in turn) for `view_seconds`.
//!
//! Every answer must be 2xx: anything else (or no answer) is an error,
//! counted, and the first few are kept with the exact request. Nobody but
//! its own client touches a game, so a correct server gives none. Each
//! client has its own keep-alive connection. Latency is from sending the
//! request to the last byte of the answer. With `pid`, the server's resident
//! memory (`VmHWM`, `VmRSS`) and CPU time are read from `/proc`.
//!
//! Here: the options, the report's figures and the run itself. The parts:
//! `client.rs` (the HTTP client and the error count), `play.rs` (accounts,
//! games started and played, the view phase), `machine.rs` (memory and CPU
//! time from `/proc`), `receiver.rs` (the notification receiver and the
//! channels) and `report.rs` (the tables printed).

mod client;
mod machine;
mod play;
mod receiver;
mod report;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use client::{Client, Errors};
pub use machine::proc_status;
use machine::Cpu;
use play::{long_games, play_game, read_views, register_pairs, Limit, Played};
use receiver::{register_channels, Receiver};
pub use receiver::{Deliveries, Notify};
pub use report::{compare, table, Pgbench};

/// Moves below this ply are the "early" ones of the long games.
pub const EARLY_PLIES: u32 = 100;
/// A client that has seen this many errors stops.
const CLIENT_ERROR_LIMIT: u64 = 50;

/// What to run. [`Options::check`] enforces the bounds.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server (a loopback address).
    pub address: SocketAddr,
    /// Concurrent clients in the move and view phases (1-256).
    pub clients: usize,
    /// Length of the move phase (at most 600 s).
    pub move_seconds: f64,
    /// The move phase also ends after this many moves (at most 10,000,000).
    pub max_moves: u64,
    /// Length of the view phase (0 skips it; at most 600 s).
    pub view_seconds: f64,
    /// Games played to `long_plies` before the move phase (0-16).
    pub long_games: usize,
    /// Plies each long game must pass (at most 10,000).
    pub long_plies: u32,
    /// Moves after this ply are the "late" ones of the long games.
    pub late_from: u32,
    /// Bound of the long-game phase (at most 600 s).
    pub long_seconds: f64,
    /// Seed of the setups and of the move choices.
    pub seed: u64,
    /// The server's process id, for its memory and CPU time.
    pub pid: Option<u32>,
    /// Give every account a webhook and a push subscription to a receiver
    /// on loopback, and count the deliveries (`receiver.rs`).
    pub notify: bool,
}

impl Options {
    /// Defaults: 32 clients, 20 s of moves, 20 s of views, 4 long games of
    /// 1,100 plies.
    pub fn new(address: SocketAddr) -> Self {
        Self {
            address,
            clients: 32,
            move_seconds: 20.0,
            max_moves: 10_000_000,
            view_seconds: 20.0,
            long_games: 4,
            long_plies: 1_100,
            late_from: 1_000,
            long_seconds: 180.0,
            seed: 1,
            pid: None,
            notify: false,
        }
    }

    pub fn check(&self) -> Result<(), String> {
        if !self.address.ip().is_loopback() {
            return Err(format!("{}: only loopback addresses", self.address));
        }
        let seconds = |s: f64| (0.0..=600.0).contains(&s);
        if !(1..=256).contains(&self.clients)
            || !seconds(self.move_seconds)
            || !seconds(self.view_seconds)
            || !seconds(self.long_seconds)
            || self.max_moves > 10_000_000
            || self.long_games > 16
            || self.long_plies > 10_000
            || self.late_from >= self.long_plies.max(1)
        {
            return Err(
                "limits: 1 <= clients <= 256; phases at most 600 s; max moves at most \
                 10,000,000; long games at most 16, of at most 10,000 plies; late-from below \
                 long-plies"
                    .into(),
            );
        }
        Ok(())
    }
}

/// Latency figures of one kind of request, in milliseconds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Latency {
    pub count: u64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Latency {
    fn of(samples: &mut [Duration], seconds: f64) -> Self {
        if samples.is_empty() {
            return Self::default();
        }
        samples.sort_unstable();
        let rank = |p: f64| {
            let index = (p * samples.len() as f64).ceil() as usize;
            millis(samples[index.clamp(1, samples.len()) - 1])
        };
        Self {
            count: samples.len() as u64,
            per_second: if seconds > 0.0 {
                samples.len() as f64 / seconds
            } else {
                0.0
            },
            p50_ms: rank(0.50),
            p90_ms: rank(0.90),
            p99_ms: rank(0.99),
            max_ms: millis(samples[samples.len() - 1]),
        }
    }
}

/// One row of the report: a kind of request in a phase.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    pub phase: String,
    pub kind: String,
    #[serde(flatten)]
    pub latency: Latency,
}

/// The long games: early against late moves of the same games.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct LongGames {
    pub wanted: usize,
    pub plies: u32,
    pub late_from: u32,
    /// Games that passed `plies`.
    pub reached: usize,
    /// The highest ply any long game reached.
    pub max_ply: u32,
    pub seconds: f64,
    pub early: Latency,
    pub late: Latency,
    /// p50 of the late moves over p50 of the early ones (0 when either is
    /// missing).
    pub p50_ratio: f64,
    pub p99_ratio: f64,
}

/// The server process as seen from `/proc` (all zero without a pid).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Server {
    pub pid: Option<u32>,
    pub rss_start_kib: u64,
    pub rss_end_kib: u64,
    /// Peak resident memory over the process's life (`VmHWM`).
    pub peak_rss_kib: u64,
    /// Server CPU time (user + system) per move in the move phase (its GET
    /// included), and per view in the view phase.
    pub cpu_ms_per_move: f64,
    pub cpu_ms_per_view: f64,
    /// Server CPU use during the move phase, in cores (2.0 = both cores).
    pub cpu_cores_moves: f64,
    pub cpu_cores_views: f64,
}

/// Where the CPU went while the clients ran: this load generator, and the
/// whole machine (all processes: server, load generator, the database and
/// anything else running), in cores (2.0 = two cores busy).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Machine {
    pub cores: usize,
    pub client_cores_moves: f64,
    pub client_cores_views: f64,
    pub busy_cores_moves: f64,
    pub busy_cores_views: f64,
}

/// A run's results (`--json` prints this).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Report {
    pub clients: usize,
    pub seed: u64,
    pub setup_seconds: f64,
    pub move_seconds: f64,
    pub view_seconds: f64,
    pub moves_per_second: f64,
    pub views_per_second: f64,
    pub move_p99_ms: f64,
    pub view_p99_ms: f64,
    pub rows: Vec<Row>,
    pub games_started: u64,
    pub games_ended: u64,
    /// The highest ply reached in the move phase.
    pub max_ply: u32,
    pub long_games: LongGames,
    pub server: Server,
    #[serde(default)]
    pub machine: Machine,
    /// Failed requests (any non-2xx answer, or none): must be 0.
    pub errors: u64,
    /// The first few failures: the request and what came back.
    pub error_samples: Vec<String>,
    /// The notifications received (`notify` on).
    #[serde(default)]
    pub notify: Option<Notify>,
}

/// Runs the whole load; `progress` gets a line per phase.
pub async fn run(options: &Options, progress: impl Fn(&str)) -> Result<Report, String> {
    options.check()?;
    let errors = Arc::new(Errors::new());
    let base = format!("http://{}", options.address);
    let mut report = Report {
        clients: options.clients,
        seed: options.seed,
        ..Report::default()
    };
    report.server.pid = options.pid;
    if let Some(pid) = options.pid {
        report.server.rss_start_kib = proc_status(pid, "VmRSS:")?;
    }

    // 1. Accounts: one pair per client (the long games reuse the first).
    let started = Instant::now();
    progress(&format!("registering {} accounts", 2 * options.clients));
    let pairs = register_pairs(&base, options, &errors).await?;

    // Notification channels, all to a receiver of ours.
    let receiver = if options.notify {
        let receiver = Receiver::start().await?;
        progress(&format!(
            "notifications: a webhook and a push subscription for each of {} accounts, to \
             127.0.0.1:{}",
            2 * options.clients,
            receiver.port()
        ));
        let (webhooks, subscriptions) =
            register_channels(&base, &pairs, receiver.port(), &errors).await?;
        report.notify = Some(Notify {
            webhooks,
            subscriptions,
            ..Notify::default()
        });
        Some(receiver)
    } else {
        None
    };
    report.setup_seconds = started.elapsed().as_secs_f64();

    // 2. Long games.
    if options.long_games > 0 {
        progress(&format!(
            "long games: {} games to ply {}",
            options.long_games, options.long_plies
        ));
        report.long_games = long_games(&base, options, &pairs, &errors).await;
    }

    // 3. Moves.
    progress(&format!(
        "moves: {} clients for {} s",
        options.clients, options.move_seconds
    ));
    let cpu_before = Cpu::now(options.pid)?;
    let delivered_before = receiver.as_ref().map(Receiver::deliveries);
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(options.move_seconds);
    let budget = Arc::new(AtomicU64::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, pair) in pairs.iter().enumerate() {
        let client = Client::new(&base, &errors, "moves")?;
        let pair = Arc::clone(pair);
        let budget = Arc::clone(&budget);
        let seed = mix(options.seed, 2, index as u64);
        let max_moves = options.max_moves;
        tasks.spawn(async move {
            let mut rng = SplitMix64(seed);
            let mut played = Played::default();
            let limit = Limit {
                deadline,
                budget: &budget,
                max_moves,
                plies: u32::MAX,
                opens: None,
            };
            let mut attempts = 0;
            while !limit.over() && client.errors_seen() < CLIENT_ERROR_LIMIT && attempts < 100_000 {
                attempts += 1;
                play_game(&client, &pair, &mut rng, &limit, &mut played).await;
            }
            (index, played)
        });
    }
    let mut played = Vec::with_capacity(options.clients);
    while let Some(result) = tasks.join_next().await {
        played.push(result.map_err(|e| format!("a move client failed: {e}"))?);
    }
    // In client order: client i reads its own game in the view phase.
    played.sort_by_key(|(index, _)| *index);
    let played: Vec<Played> = played.into_iter().map(|(_, p)| p).collect();
    report.move_seconds = started.elapsed().as_secs_f64();
    let cpu = Cpu::now(options.pid)?.minus(&cpu_before);
    let move_cpu = cpu.server;
    if let (Some(receiver), Some(before), Some(notify)) =
        (&receiver, &delivered_before, &mut report.notify)
    {
        notify.during_moves = receiver.deliveries().since(before);
    }
    report.machine.cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    report.machine.client_cores_moves = cpu.client / report.move_seconds.max(1e-9);
    report.machine.busy_cores_moves = cpu.machine / report.move_seconds.max(1e-9);

    let seconds = report.move_seconds;
    let mut moves: Vec<Duration> = played
        .iter()
        .flat_map(|p| p.moves.iter().map(|(_, d)| *d))
        .collect();
    let mut before_move: Vec<Duration> = played.iter().flat_map(|p| p.views.clone()).collect();
    let mut starts: Vec<Duration> = played.iter().flat_map(|p| p.starts.clone()).collect();
    report.games_started = played.iter().map(|p| p.games_started).sum();
    report.games_ended = played.iter().map(|p| p.games_ended).sum();
    report.max_ply = played
        .iter()
        .flat_map(|p| p.moves.iter().map(|(ply, _)| *ply))
        .max()
        .unwrap_or(0);
    let move_latency = Latency::of(&mut moves, seconds);
    report.moves_per_second = move_latency.per_second;
    report.move_p99_ms = move_latency.p99_ms;
    if move_latency.count > 0 {
        report.server.cpu_ms_per_move = move_cpu * 1000.0 / move_latency.count as f64;
    }
    report.server.cpu_cores_moves = move_cpu / seconds.max(1e-9);
    report
        .rows
        .push(row("moves", "POST /games/{id}/moves", move_latency));
    report.rows.push(row(
        "moves",
        "GET /games/{id} (before each move)",
        Latency::of(&mut before_move, seconds),
    ));
    report.rows.push(row(
        "moves",
        "new game (create, join, 2 setups)",
        Latency::of(&mut starts, seconds),
    ));

    // 4. Views of the games just played.
    if options.view_seconds > 0.0 {
        progress(&format!(
            "views: {} clients for {} s",
            options.clients, options.view_seconds
        ));
        let cpu_before = Cpu::now(options.pid)?;
        let started = Instant::now();
        let deadline = started + Duration::from_secs_f64(options.view_seconds);
        let mut tasks = tokio::task::JoinSet::new();
        for (index, pair) in pairs.iter().enumerate() {
            let client = Client::new(&base, &errors, "views")?;
            let pair = Arc::clone(pair);
            let game = played.get(index).and_then(|p| p.last_game.clone());
            tasks.spawn(async move { read_views(&client, &pair, game, deadline).await });
        }
        let mut views = Vec::new();
        while let Some(result) = tasks.join_next().await {
            views.extend(result.map_err(|e| format!("a view client failed: {e}"))?);
        }
        report.view_seconds = started.elapsed().as_secs_f64();
        let cpu = Cpu::now(options.pid)?.minus(&cpu_before);
        let view_cpu = cpu.server;
        report.machine.client_cores_views = cpu.client / report.view_seconds.max(1e-9);
        report.machine.busy_cores_views = cpu.machine / report.view_seconds.max(1e-9);
        let latency = Latency::of(&mut views, report.view_seconds);
        report.views_per_second = latency.per_second;
        report.view_p99_ms = latency.p99_ms;
        if latency.count > 0 {
            report.server.cpu_ms_per_view = view_cpu * 1000.0 / latency.count as f64;
        }
        report.server.cpu_cores_views = view_cpu / report.view_seconds.max(1e-9);
        report.rows.push(row("views", "GET /games/{id}", latency));
    }

    let long = &report.long_games;
    if long.wanted > 0 {
        report.rows.push(row(
            "long games",
            &format!("POST move, ply < {EARLY_PLIES}"),
            long.early.clone(),
        ));
        report.rows.push(row(
            "long games",
            &format!("POST move, ply > {}", long.late_from),
            long.late.clone(),
        ));
    }
    if let Some(pid) = options.pid {
        report.server.rss_end_kib = proc_status(pid, "VmRSS:")?;
        report.server.peak_rss_kib = proc_status(pid, "VmHWM:")?;
    }
    if let (Some(receiver), Some(notify)) = (&receiver, &mut report.notify) {
        notify.in_all = receiver.deliveries();
    }
    report.errors = errors.count.load(Ordering::Relaxed);
    report.error_samples = errors.samples();
    Ok(report)
}

fn row(phase: &str, kind: &str, latency: Latency) -> Row {
    Row {
        phase: phase.to_owned(),
        kind: kind.to_owned(),
        latency,
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// A seed for client `index` of phase `phase`.
fn mix(seed: u64, phase: u64, index: u64) -> u64 {
    SplitMix64(seed ^ (phase << 56) ^ index).next_u64()
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut samples: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        let latency = Latency::of(&mut samples, 10.0);
        assert_eq!(latency.count, 100);
        assert!((latency.per_second - 10.0).abs() < 1e-9);
        assert!((latency.p50_ms - 50.0).abs() < 1e-9);
        assert!((latency.p90_ms - 90.0).abs() < 1e-9);
        assert!((latency.p99_ms - 99.0).abs() < 1e-9);
        assert!((latency.max_ms - 100.0).abs() < 1e-9);
        assert_eq!(Latency::of(&mut [], 1.0).count, 0);
    }

    #[test]
    fn only_loopback_and_bounded() {
        let mut options = Options::new(SocketAddr::from(([127, 0, 0, 1], 8080)));
        assert!(options.check().is_ok());
        options.address = SocketAddr::from(([10, 0, 0, 1], 8080));
        assert!(options.check().is_err());
        options.address = SocketAddr::from(([127, 0, 0, 1], 8080));
        options.clients = 1000;
        assert!(options.check().is_err());
        options.clients = 1;
        options.move_seconds = 3600.0;
        assert!(options.check().is_err());
    }
}
