//! The load generator of `BENCHMARKS.md` (issue 9): what a move and a view
//! cost under concurrent load, beside what the database alone can do
//! (`bench/run.sh` runs pgbench next to it). The binary is
//! `tests/src/bin/load.rs`; the smoke test `tests/tests/e2e/load.rs` runs the
//! same code against an in-process server.
//!
//! A run, against a server that is already listening (loopback only):
//!
//! 1. Setup (not timed): registers two accounts per client (the server needs
//!    `REGISTER_RATE_LIMIT` >= 2 x clients per minute).
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

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Moves below this ply are the "early" ones of the long games.
pub const EARLY_PLIES: u32 = 100;
/// How many failed requests are kept with their request and answer.
const ERROR_SAMPLES: usize = 5;
/// A client that has seen this many errors stops.
const CLIENT_ERROR_LIMIT: u64 = 50;
/// New games a long-game client may start before giving up.
const LONG_GAME_ATTEMPTS: usize = 5;

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

/// Two accounts; the first of a pair creates every game of the pair (and
/// plays Red).
struct Pair {
    red: String,
    blue: String,
    blue_name: String,
}

async fn register_pairs(
    base: &str,
    options: &Options,
    errors: &Arc<Errors>,
) -> Result<Vec<Arc<Pair>>, String> {
    let run = format!(
        "ld{}x{}",
        std::process::id() % 100_000,
        unix_seconds() % 100_000
    );
    let mut pairs = Vec::with_capacity(options.clients);
    // A few at a time: password hashing is deliberately slow.
    let indexes: Vec<usize> = (0..options.clients).collect();
    for chunk in indexes.chunks(4) {
        let mut tasks = tokio::task::JoinSet::new();
        for &index in chunk {
            let client = Client::new(base, errors, "setup")?;
            let run = run.clone();
            tasks.spawn(async move {
                let red = register(&client, &format!("{run}r{index}")).await?;
                let blue_name = format!("{run}b{index}");
                let blue = register(&client, &blue_name).await?;
                Some((
                    index,
                    Pair {
                        red,
                        blue,
                        blue_name,
                    },
                ))
            });
        }
        while let Some(result) = tasks.join_next().await {
            match result {
                Ok(Some(pair)) => pairs.push(pair),
                Ok(None) => {}
                Err(e) => return Err(format!("registering: {e}")),
            }
        }
    }
    if pairs.len() < options.clients {
        let first = errors.samples().into_iter().next().unwrap_or_default();
        return Err(format!(
            "only {} of {} pairs of accounts registered (REGISTER_RATE_LIMIT must allow {} a \
             minute): {first}",
            pairs.len(),
            options.clients,
            2 * options.clients
        ));
    }
    pairs.sort_by_key(|(index, _)| *index);
    Ok(pairs.into_iter().map(|(_, pair)| Arc::new(pair)).collect())
}

/// Registers `name`; returns its access token.
async fn register(client: &Client, name: &str) -> Option<String> {
    let body = json!({"username": name, "password": "load-password-load"});
    let answer = client
        .call("POST", "/api/v1/auth/register", None, Some(&body))
        .await?
        .0;
    answer["access_token"].as_str().map(str::to_owned)
}

/// Phase 2: `long_games` clients, each playing games until one passes
/// `long_plies`.
async fn long_games(
    base: &str,
    options: &Options,
    pairs: &[Arc<Pair>],
    errors: &Arc<Errors>,
) -> LongGames {
    // Every game starts before any is played (not timed): a start (create,
    // join, two setups) costs the server many moves' worth, and one made
    // while the others play would weigh on whichever plies it met, the
    // first cohort's late ones when the second cohort started at the gate.
    let mut ready = Vec::new();
    for (index, pair) in pairs.iter().cycle().take(options.long_games).enumerate() {
        let Ok(client) = Client::new(base, errors, "long games") else {
            continue;
        };
        let mut rng = SplitMix64(mix(options.seed, 1, index as u64));
        let began = Instant::now();
        // None: it is started again when its client plays.
        let first = start_game(&client, pair, &mut rng).await.map(|id| {
            let mut played = Played::default();
            played.started(&id, began.elapsed());
            (id, played)
        });
        ready.push((index, client, Arc::clone(pair), rng, first));
    }
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(options.long_seconds);
    let budget = Arc::new(AtomicU64::new(0));
    // The first cohort opens the gate of the second (module docs); a gate
    // whose first cohort all ended without opening it opens by being
    // dropped.
    let first_cohort = options.long_games.div_ceil(2);
    let (gate, _) = tokio::sync::watch::channel(false);
    let gate = Arc::new(gate);
    let mut tasks = tokio::task::JoinSet::new();
    for (index, client, pair, mut rng, mut first) in ready {
        let budget = Arc::clone(&budget);
        let plies = options.long_plies;
        let late_from = options.late_from;
        let (opens, mut waits) = if index < first_cohort {
            (Some(Arc::clone(&gate)), None)
        } else {
            (None, Some(gate.subscribe()))
        };
        tasks.spawn(async move {
            if let Some(gate) = waits.as_mut() {
                // Err: every opener is gone; play anyway.
                let _ = gate.wait_for(|open| *open).await;
            }
            let limit = Limit {
                deadline,
                budget: &budget,
                max_moves: u64::MAX,
                plies,
                opens: opens.as_deref().map(|gate| (gate, late_from)),
            };
            // Games that ended early are dropped: only one that got to
            // `plies` gives early and late moves of the same game.
            let mut best = Played::default();
            for _ in 0..LONG_GAME_ATTEMPTS {
                let played = match first.take() {
                    Some((id, mut played)) => {
                        play_started(&client, &pair, &id, &mut rng, &limit, &mut played).await;
                        played
                    }
                    None => {
                        let mut played = Played::default();
                        play_game(&client, &pair, &mut rng, &limit, &mut played).await;
                        played
                    }
                };
                let reached = played.moves.last().map_or(0, |(ply, _)| *ply);
                let best_ply = best.moves.last().map_or(0, |(ply, _)| *ply);
                if reached >= best_ply {
                    best = played;
                }
                if reached >= plies || limit.over() || client.errors_seen() >= CLIENT_ERROR_LIMIT {
                    break;
                }
            }
            best
        });
    }
    drop(gate);
    let mut result = LongGames {
        wanted: options.long_games,
        plies: options.long_plies,
        late_from: options.late_from,
        ..LongGames::default()
    };
    let mut early = Vec::new();
    let mut late = Vec::new();
    while let Some(Ok(played)) = tasks.join_next().await {
        let reached = played.moves.last().map_or(0, |(ply, _)| *ply);
        result.max_ply = result.max_ply.max(reached);
        if reached >= options.long_plies {
            result.reached += 1;
            for &(ply, took) in &played.moves {
                if ply < EARLY_PLIES {
                    early.push(took);
                } else if ply > options.late_from {
                    late.push(took);
                }
            }
        }
    }
    result.seconds = started.elapsed().as_secs_f64();
    result.early = Latency::of(&mut early, result.seconds);
    result.late = Latency::of(&mut late, result.seconds);
    let ratio = |late: f64, early: f64| if early > 0.0 { late / early } else { 0.0 };
    result.p50_ratio = ratio(result.late.p50_ms, result.early.p50_ms);
    result.p99_ratio = ratio(result.late.p99_ms, result.early.p99_ms);
    result
}

/// When a client stops playing.
struct Limit<'a> {
    deadline: Instant,
    /// Moves started by all clients of the phase.
    budget: &'a AtomicU64,
    max_moves: u64,
    /// A game stops after this ply.
    plies: u32,
    /// Opened once a move of this client passes the ply (long games).
    opens: Option<(&'a tokio::sync::watch::Sender<bool>, u32)>,
}

impl Limit<'_> {
    fn over(&self) -> bool {
        Instant::now() >= self.deadline || self.budget.load(Ordering::Relaxed) >= self.max_moves
    }

    /// Takes one move from the budget; false when the phase is over.
    fn take(&self) -> bool {
        Instant::now() < self.deadline
            && self.budget.fetch_add(1, Ordering::Relaxed) < self.max_moves
    }
}

/// What a client did.
#[derive(Default)]
struct Played {
    /// (ply, POST latency) of every move.
    moves: Vec<(u32, Duration)>,
    /// GET latency before each move.
    views: Vec<Duration>,
    /// Latency of each game start (create + join + 2 setups).
    starts: Vec<Duration>,
    games_started: u64,
    games_ended: u64,
    /// The game played last (for the view phase).
    last_game: Option<String>,
}

impl Played {
    /// Game `id` was started, which took `took`.
    fn started(&mut self, id: &str, took: Duration) {
        self.starts.push(took);
        self.games_started += 1;
        self.last_game = Some(id.to_owned());
    }
}

/// Starts a game for `pair` and plays it until it ends, `limit` says stop,
/// or a request fails.
async fn play_game(
    client: &Client,
    pair: &Pair,
    rng: &mut SplitMix64,
    limit: &Limit<'_>,
    played: &mut Played,
) {
    let began = Instant::now();
    let Some(id) = start_game(client, pair, rng).await else {
        tokio::time::sleep(Duration::from_millis(20)).await;
        return;
    };
    played.started(&id, began.elapsed());
    play_started(client, pair, &id, rng, limit, played).await;
}

/// Plays game `id`, already started for `pair`, as [`play_game`] does.
async fn play_started(
    client: &Client,
    pair: &Pair,
    id: &str,
    rng: &mut SplitMix64,
    limit: &Limit<'_>,
    played: &mut Played,
) {
    let view_path = format!("/api/v1/games/{id}");
    let move_path = format!("/api/v1/games/{id}/moves");
    let mut red_to_move = true;
    let mut failures = 0;
    while failures < 3 {
        if !limit.take() {
            return;
        }
        let token = if red_to_move { &pair.red } else { &pair.blue };
        let Some((bytes, took)) = client.send("GET", &view_path, Some(token), None).await else {
            failures += 1;
            continue;
        };
        let Some(view) = client.parse::<PlyView>(&format!("GET {view_path}"), &bytes) else {
            return;
        };
        played.views.push(took);
        if view.status != "playing" {
            played.games_ended += 1;
            return;
        }
        let ply = view.ply + 1;
        if ply > limit.plies {
            return;
        }
        let Some((from, to)) = pick_move(&view, rng) else {
            // Our turn but no legal move: the server should have ended
            // the game. Count it as a failure of the view.
            client.failed(
                &format!("GET {view_path}"),
                "",
                "200 but no legal move while playing",
                &String::from_utf8_lossy(&bytes),
            );
            return;
        };
        let body = json!({"from": from, "to": to, "expected_version": view.version});
        let Some((bytes, took)) = client
            .send("POST", &move_path, Some(token), Some(&body))
            .await
        else {
            failures += 1;
            continue;
        };
        let Some(answer) = client.parse::<MoveAnswer>(&format!("POST {move_path}"), &bytes) else {
            return;
        };
        failures = 0;
        played.moves.push((ply, took));
        if let Some((gate, late_from)) = limit.opens {
            if ply > late_from && !*gate.borrow() {
                gate.send_replace(true);
            }
        }
        if answer.game.status != "playing" {
            played.games_ended += 1;
            return;
        }
        red_to_move = answer.game.turn == Some("red");
    }
}

/// What a ply reads of the mover's view; the rest of the answer is checked
/// to be JSON and skipped, without building it.
#[derive(Deserialize)]
struct PlyView<'a> {
    #[serde(borrow)]
    status: &'a str,
    ply: u32,
    version: i64,
    #[serde(borrow)]
    you: Option<&'a str>,
    #[serde(borrow)]
    board: Vec<BoardPiece<'a>>,
    #[serde(borrow, default)]
    legal_moves: Vec<LegalMove<'a>>,
}

#[derive(Deserialize)]
struct BoardPiece<'a> {
    #[serde(borrow)]
    square: &'a str,
    #[serde(borrow)]
    color: &'a str,
}

#[derive(Deserialize)]
struct LegalMove<'a> {
    #[serde(borrow)]
    from: &'a str,
    #[serde(borrow)]
    to: &'a str,
}

/// What a ply reads of the answer to its move.
#[derive(Deserialize)]
struct MoveAnswer<'a> {
    #[serde(borrow)]
    game: GameBrief<'a>,
}

#[derive(Deserialize)]
struct GameBrief<'a> {
    #[serde(borrow)]
    status: &'a str,
    #[serde(borrow)]
    turn: Option<&'a str>,
}

/// What the view phase reads of a view: whose it is.
#[derive(Deserialize)]
struct Seen<'a> {
    #[serde(borrow)]
    you: Option<&'a str>,
}

/// Creates a game between the pair, seats Blue and places two random
/// setups; returns its id (Red to move).
async fn start_game(client: &Client, pair: &Pair, rng: &mut SplitMix64) -> Option<String> {
    let create = json!({"variant": "classic", "color": "red", "opponent": pair.blue_name,
                        "days_per_move": 14, "rules": {"max_plies": null}});
    let (game, _) = client
        .call("POST", "/api/v1/games", Some(&pair.red), Some(&create))
        .await?;
    let id = game["id"].as_str()?.to_owned();
    client
        .call(
            "POST",
            &format!("/api/v1/games/{id}/join"),
            Some(&pair.blue),
            None,
        )
        .await?;
    for token in [&pair.red, &pair.blue] {
        let setup = json!({"random": true, "seed": rng.next_u64() % 1_000_000});
        client
            .call(
                "POST",
                &format!("/api/v1/games/{id}/setup"),
                Some(token),
                Some(&setup),
            )
            .await?;
    }
    Some(id)
}

/// Phase 4: reads the view of `game` as each player in turn until
/// `deadline`; returns the latencies.
async fn read_views(
    client: &Client,
    pair: &Pair,
    game: Option<String>,
    deadline: Instant,
) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let Some(id) = game else {
        return latencies;
    };
    let path = format!("/api/v1/games/{id}");
    let mut red = true;
    while Instant::now() < deadline && client.errors_seen() < CLIENT_ERROR_LIMIT {
        let token = if red { &pair.red } else { &pair.blue };
        red = !red;
        let Some((bytes, took)) = client.send("GET", &path, Some(token), None).await else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        match client.parse::<Seen>(&format!("GET {path}"), &bytes) {
            // Each client reads its own game: a view without `you` would
            // be a spectator's, a mistake of this tool.
            Some(Seen { you: None }) => {
                client.failed(
                    &format!("GET {path}"),
                    "",
                    "200 but a spectator's view",
                    &String::from_utf8_lossy(&bytes),
                );
                return latencies;
            }
            Some(_) => latencies.push(took),
            None => return latencies,
        }
    }
    latencies
}

/// A random legal move from the view, not an attack if there is another.
fn pick_move(view: &PlyView<'_>, rng: &mut SplitMix64) -> Option<(String, String)> {
    let me = view.you?;
    let enemy_at = |square: &str| {
        view.board
            .iter()
            .any(|p| p.square == square && p.color != me)
    };
    let quiet: Vec<&LegalMove> = view
        .legal_moves
        .iter()
        .filter(|m| !enemy_at(m.to))
        .collect();
    let pool: Vec<&LegalMove> = if quiet.is_empty() {
        view.legal_moves.iter().collect()
    } else {
        quiet
    };
    if pool.is_empty() {
        return None;
    }
    let chosen = pool[rng.below(pool.len())];
    Some((chosen.from.to_owned(), chosen.to.to_owned()))
}

/// One simulated client: its own keep-alive connection, and the shared
/// error count.
///
/// The client speaks plain HTTP/1.1 itself (one request at a time on one
/// connection, `Content-Length` or chunked answers), so that what it costs
/// per request is close to what pgbench's client costs per transaction: a
/// general HTTP client library (reqwest) cost more CPU per view than the
/// server did (BENCHMARKS.md).
struct Client {
    address: SocketAddr,
    connection: tokio::sync::Mutex<Option<BufReader<TcpStream>>>,
    errors: Arc<Errors>,
    phase: &'static str,
    seen: AtomicU64,
}

/// How long one request may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest answer the client reads.
const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;

impl Client {
    fn new(base: &str, errors: &Arc<Errors>, phase: &'static str) -> Result<Self, String> {
        let address = base
            .strip_prefix("http://")
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("not an http://address:port base: {base}"))?;
        Ok(Self {
            address,
            connection: tokio::sync::Mutex::new(None),
            errors: Arc::clone(errors),
            phase,
            seen: AtomicU64::new(0),
        })
    }

    /// Counts a failed request (and keeps it if it is among the first).
    fn failed(&self, request: &str, body: &str, status: &str, answer: &str) {
        self.seen.fetch_add(1, Ordering::Relaxed);
        self.errors
            .record(self.phase, request, body, status, answer);
    }

    fn errors_seen(&self) -> u64 {
        self.seen.load(Ordering::Relaxed)
    }

    /// Sends one request; the JSON answer and the time from sending to its
    /// last byte, or `None` (the error recorded) unless it is 2xx JSON.
    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Option<(Value, Duration)> {
        let (bytes, took) = self.send(method, path, token, body).await?;
        let value = self.parse(&format!("{method} {path}"), &bytes)?;
        Some((value, took))
    }

    /// Reads a 2xx answer as `T` (the error recorded if it is not that
    /// JSON).
    fn parse<'a, T: Deserialize<'a>>(&self, request: &str, bytes: &'a [u8]) -> Option<T> {
        match serde_json::from_slice(bytes) {
            Ok(value) => Some(value),
            Err(e) => {
                self.failed(
                    request,
                    "",
                    &format!("2xx, not the JSON expected: {e}"),
                    &String::from_utf8_lossy(bytes),
                );
                None
            }
        }
    }

    /// Sends one request; the answer's body and the time from sending to
    /// its last byte, or `None` (the error recorded) unless it is 2xx.
    async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Option<(Vec<u8>, Duration)> {
        let text = body.map(Value::to_string).unwrap_or_default();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\n",
            self.address
        );
        if let Some(token) = token {
            request.push_str("Authorization: Bearer ");
            request.push_str(token);
            request.push_str("\r\n");
        }
        if body.is_some() || method != "GET" {
            request.push_str("Content-Type: application/json\r\nContent-Length: ");
            request.push_str(&text.len().to_string());
            request.push_str("\r\n");
        }
        request.push_str("\r\n");
        request.push_str(&text);
        let what = format!("{method} {path}");
        let mut connection = self.connection.lock().await;
        let sent = Instant::now();
        let outcome = tokio::time::timeout(
            REQUEST_TIMEOUT,
            exchange(
                &mut connection,
                self.address,
                request.as_bytes(),
                method == "GET",
            ),
        )
        .await
        .unwrap_or_else(|_| Err(format!("no answer within {REQUEST_TIMEOUT:?}")));
        let took = sent.elapsed();
        if outcome.is_err() {
            // Whatever is left on the connection is not to be trusted.
            *connection = None;
        }
        match outcome {
            Err(e) => {
                self.failed(&what, &text, &e, "");
                None
            }
            Ok((status, bytes)) if !(200..300).contains(&status) => {
                self.failed(
                    &what,
                    &text,
                    &status.to_string(),
                    &String::from_utf8_lossy(&bytes),
                );
                None
            }
            Ok((_, bytes)) => Some((bytes, took)),
        }
    }
}

/// Sends `request` on the kept connection (opening one if there is none)
/// and reads the answer: its status and body. A kept connection that the
/// server had closed is replaced once and the request sent again on the
/// new one, but only when the server cannot have acted on it: the request
/// could not be written, or it is a `GET`. A `POST` that got no answer is
/// an error, never sent twice.
async fn exchange(
    connection: &mut Option<BufReader<TcpStream>>,
    address: SocketAddr,
    request: &[u8],
    idempotent: bool,
) -> Result<(u16, Vec<u8>), String> {
    for attempt in 0..2 {
        let reused = connection.is_some();
        let stream = match connection {
            Some(stream) => stream,
            None => {
                let stream = TcpStream::connect(address)
                    .await
                    .map_err(|e| format!("connect to {address}: {e}"))?;
                stream
                    .set_nodelay(true)
                    .map_err(|e| format!("nodelay: {e}"))?;
                connection.insert(BufReader::with_capacity(64 * 1024, stream))
            }
        };
        match read_answer(stream, request).await {
            Ok((status, body, keep)) => {
                if !keep {
                    *connection = None;
                }
                return Ok((status, body));
            }
            Err(Answer::NotSent(_)) if reused && attempt == 0 => *connection = None,
            Err(Answer::NothingYet(_)) if reused && attempt == 0 && idempotent => {
                *connection = None;
            }
            Err(Answer::NotSent(e) | Answer::NothingYet(e) | Answer::Broken(e)) => {
                *connection = None;
                return Err(e);
            }
        }
    }
    Err("the connection closed twice before an answer".to_owned())
}

/// Why no answer was read.
enum Answer {
    /// The request could not be written (a closed keep-alive connection).
    NotSent(String),
    /// The request was written, and not one byte of an answer came back.
    NothingYet(String),
    /// The answer broke off, or was not HTTP.
    Broken(String),
}

/// Writes the request and reads one answer: status, body, and whether the
/// connection may be used again.
async fn read_answer(
    stream: &mut BufReader<TcpStream>,
    request: &[u8],
) -> Result<(u16, Vec<u8>, bool), Answer> {
    let broken = |what: &str| Answer::Broken(what.to_owned());
    if let Err(e) = stream.get_mut().write_all(request).await {
        return Err(Answer::NotSent(format!("sending: {e}")));
    }
    let mut line = String::new();
    match stream.read_line(&mut line).await {
        Ok(0) => return Err(Answer::NothingYet("closed before answering".to_owned())),
        Err(e) if line.is_empty() => {
            return Err(Answer::NothingYet(format!("reading the answer: {e}")))
        }
        Err(e) => return Err(Answer::Broken(format!("reading the status line: {e}"))),
        Ok(_) => {}
    }
    let status: u16 = line
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| Answer::Broken(format!("not an HTTP/1.1 status line: {line:?}")))?;
    let (mut length, mut chunked, mut keep) = (None, false, true);
    loop {
        line.clear();
        let read = stream
            .read_line(&mut line)
            .await
            .map_err(|e| Answer::Broken(format!("reading the headers: {e}")))?;
        if read == 0 {
            return Err(broken("closed in the headers"));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(Answer::Broken(format!("not a header: {header:?}")));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| Answer::Broken(format!("Content-Length {value:?}")))?,
            );
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.eq_ignore_ascii_case("chunked");
        } else if name.eq_ignore_ascii_case("connection") {
            keep = !value.eq_ignore_ascii_case("close");
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            stream
                .read_line(&mut line)
                .await
                .map_err(|e| Answer::Broken(format!("reading a chunk: {e}")))?;
            let size = usize::from_str_radix(line.trim_end().split(';').next().unwrap_or(""), 16)
                .map_err(|_| Answer::Broken(format!("chunk size {line:?}")))?;
            if body.len() + size > MAX_ANSWER_BYTES {
                return Err(broken("answer too large"));
            }
            let start = body.len();
            body.resize(start + size + 2, 0);
            stream
                .read_exact(&mut body[start..])
                .await
                .map_err(|e| Answer::Broken(format!("reading a chunk: {e}")))?;
            if body.get(start + size..) != Some(&b"\r\n"[..]) {
                return Err(broken("a chunk not followed by CRLF (or trailers)"));
            }
            body.truncate(start + size);
            if size == 0 {
                break;
            }
        }
    } else if let Some(length) = length {
        if length > MAX_ANSWER_BYTES {
            return Err(broken("answer too large"));
        }
        body.resize(length, 0);
        stream
            .read_exact(&mut body)
            .await
            .map_err(|e| Answer::Broken(format!("reading the body: {e}")))?;
    } else if status != 204 && status != 304 {
        return Err(broken("an answer with neither Content-Length nor chunks"));
    }
    Ok((status, body, keep))
}

/// All clients' failed requests.
struct Errors {
    started: Instant,
    count: AtomicU64,
    samples: Mutex<Vec<String>>,
}

impl Errors {
    fn new() -> Self {
        Self {
            started: Instant::now(),
            count: AtomicU64::new(0),
            samples: Mutex::new(Vec::new()),
        }
    }

    fn record(&self, phase: &str, request: &str, body: &str, status: &str, answer: &str) {
        self.count.fetch_add(1, Ordering::Relaxed);
        let Ok(mut samples) = self.samples.lock() else {
            return;
        };
        if samples.len() < ERROR_SAMPLES {
            let mut answer = answer.to_owned();
            if answer.len() > 600 {
                let mut end = 600;
                while !answer.is_char_boundary(end) {
                    end -= 1;
                }
                answer.truncate(end);
                answer.push_str("...");
            }
            let body = if body.is_empty() {
                String::new()
            } else {
                format!(" {body}")
            };
            samples.push(format!(
                "[{phase}, {:.3} s into the run] {request}{body} -> {status}: {answer}",
                self.started.elapsed().as_secs_f64()
            ));
        }
    }

    fn samples(&self) -> Vec<String> {
        self.samples.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// A `kB` field of `/proc/<pid>/status`, e.g. `VmHWM:`.
pub fn proc_status(pid: u32, field: &str) -> Result<u64, String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("/proc/{pid}/status: {e}"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .ok_or_else(|| format!("no {field} in /proc/{pid}/status"))
}

/// CPU seconds used so far: by the server process (0 without a pid), by
/// this process, and by the whole machine.
struct Cpu {
    server: f64,
    client: f64,
    machine: f64,
}

impl Cpu {
    fn now(pid: Option<u32>) -> Result<Self, String> {
        Ok(Self {
            server: match pid {
                Some(pid) => process_cpu(&pid.to_string())?,
                None => 0.0,
            },
            client: process_cpu("self")?,
            machine: machine_cpu()?,
        })
    }

    fn minus(&self, before: &Cpu) -> Cpu {
        Cpu {
            server: self.server - before.server,
            client: self.client - before.client,
            machine: self.machine - before.machine,
        }
    }
}

/// User + system CPU seconds of process `pid` ("self": this one).
fn process_cpu(pid: &str) -> Result<f64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // After the command name (in parentheses, may hold spaces): utime and
    // stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        // Clock ticks: 100 per second on Linux.
        (Some(user), Some(system)) => Ok((user + system) / 100.0),
        _ => Err(format!("bad /proc/{pid}/stat")),
    }
}

/// Busy CPU seconds of the whole machine (all cores, not idle or iowait).
fn machine_cpu() -> Result<f64, String> {
    let stat = std::fs::read_to_string("/proc/stat").map_err(|e| format!("/proc/stat: {e}"))?;
    let ticks: Vec<f64> = stat
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("cpu "))
        .map(|rest| {
            rest.split_whitespace()
                .filter_map(|f| f.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    if ticks.len() < 8 {
        return Err("bad /proc/stat".into());
    }
    // user nice system idle iowait irq softirq steal (guest time is
    // already in user).
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7];
    Ok(busy / 100.0)
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

/// The human table of one run.
pub fn table(report: &Report) -> String {
    let mut out = String::new();
    let line = |out: &mut String, text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(
        &mut out,
        format!(
            "{} clients; moves {:.1} s, views {:.1} s; setup {:.1} s; seed {}",
            report.clients,
            report.move_seconds,
            report.view_seconds,
            report.setup_seconds,
            report.seed
        ),
    );
    line(
        &mut out,
        format!(
            "{:<11} {:<36} {:>8} {:>9} {:>8} {:>8} {:>8} {:>8}",
            "phase", "request", "count", "per s", "p50 ms", "p90 ms", "p99 ms", "max ms"
        ),
    );
    for row in &report.rows {
        let l = &row.latency;
        line(
            &mut out,
            format!(
                "{:<11} {:<36} {:>8} {:>9.1} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
                row.phase, row.kind, l.count, l.per_second, l.p50_ms, l.p90_ms, l.p99_ms, l.max_ms
            ),
        );
    }
    line(
        &mut out,
        format!(
            "move phase: {} games started, {} ended, highest ply {}",
            report.games_started, report.games_ended, report.max_ply
        ),
    );
    let long = &report.long_games;
    if long.wanted > 0 {
        line(
            &mut out,
            format!(
                "long games: {} of {} passed ply {} (highest {}) in {:.1} s; ply > {} vs ply < \
                 {EARLY_PLIES}: p50 x{:.2}, p99 x{:.2}",
                long.reached,
                long.wanted,
                long.plies,
                long.max_ply,
                long.seconds,
                long.late_from,
                long.p50_ratio,
                long.p99_ratio
            ),
        );
    }
    let server = &report.server;
    if let Some(pid) = server.pid {
        line(
            &mut out,
            format!(
                "server (pid {pid}): peak RSS {:.1} MiB (VmHWM), RSS {:.1} MiB at start, {:.1} \
                 MiB at end; CPU {:.3} ms per move (with its GET; {:.2} cores), {:.3} ms per view \
                 ({:.2} cores)",
                kib_to_mib(server.peak_rss_kib),
                kib_to_mib(server.rss_start_kib),
                kib_to_mib(server.rss_end_kib),
                server.cpu_ms_per_move,
                server.cpu_cores_moves,
                server.cpu_ms_per_view,
                server.cpu_cores_views
            ),
        );
    }
    let machine = &report.machine;
    line(
        &mut out,
        format!(
            "CPU in cores of {}: moves: load generator {:.2}, whole machine {:.2}; views: load \
             generator {:.2}, whole machine {:.2}",
            machine.cores,
            machine.client_cores_moves,
            machine.busy_cores_moves,
            machine.client_cores_views,
            machine.busy_cores_views
        ),
    );
    line(&mut out, format!("errors: {}", report.errors));
    for sample in &report.error_samples {
        line(&mut out, format!("  {sample}"));
    }
    out
}

fn kib_to_mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// pgbench's figures for the comparison table.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pgbench {
    /// TPC-B-like transactions per second.
    pub tpcb: f64,
    /// Select-only transactions per second (`-S`).
    pub select_only: f64,
    /// p99 latency of the TPC-B-like transactions (from pgbench's
    /// per-transaction log; 0 when not known).
    pub tpcb_p99_ms: f64,
}

/// ONE table for `bench/run.sh`: each backend's report beside pgbench.
pub fn compare(backends: &[(&str, &Report)], pgbench: Pgbench) -> String {
    let mut out = String::new();
    let mut header = format!("{:<34}", "");
    for (name, _) in backends {
        header.push_str(&format!(" {name:>14}"));
    }
    out.push_str(&header);
    out.push('\n');
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    type Cell = Box<dyn Fn(&Report) -> String>;
    let rows: Vec<(&str, Cell)> = vec![
        ("clients", Box::new(|r| r.clients.to_string())),
        (
            "moves/s (each with its GET)",
            Box::new(|r| format!("{:.0}", r.moves_per_second)),
        ),
        ("move p99 ms", Box::new(|r| format!("{:.2}", r.move_p99_ms))),
        (
            "views/s",
            Box::new(|r| format!("{:.0}", r.views_per_second)),
        ),
        ("view p99 ms", Box::new(|r| format!("{:.2}", r.view_p99_ms))),
        ("errors", Box::new(|r| r.errors.to_string())),
        (
            "server peak RSS MiB",
            Box::new(|r| format!("{:.1}", kib_to_mib(r.server.peak_rss_kib))),
        ),
        (
            "server CPU ms per move",
            Box::new(|r| format!("{:.3}", r.server.cpu_ms_per_move)),
        ),
        (
            "server CPU ms per view",
            Box::new(|r| format!("{:.3}", r.server.cpu_ms_per_view)),
        ),
        (
            "server CPU cores, moves / views",
            Box::new(|r| {
                format!(
                    "{:.2} / {:.2}",
                    r.server.cpu_cores_moves, r.server.cpu_cores_views
                )
            }),
        ),
        (
            "load tool CPU cores, moves / views",
            Box::new(|r| {
                format!(
                    "{:.2} / {:.2}",
                    r.machine.client_cores_moves, r.machine.client_cores_views
                )
            }),
        ),
        (
            "machine busy cores, moves / views",
            Box::new(|r| {
                format!(
                    "{:.2} / {:.2}",
                    r.machine.busy_cores_moves, r.machine.busy_cores_views
                )
            }),
        ),
        (
            "pgbench TPC-B tps",
            Box::new(move |_| format!("{:.0}", pgbench.tpcb)),
        ),
        (
            "pgbench TPC-B p99 ms",
            Box::new(move |_| format!("{:.2}", pgbench.tpcb_p99_ms)),
        ),
        (
            "pgbench select-only tps",
            Box::new(move |_| format!("{:.0}", pgbench.select_only)),
        ),
        (
            "moves/s / TPC-B tps",
            Box::new(move |r| format!("{:.2}", ratio(r.moves_per_second, pgbench.tpcb))),
        ),
        (
            "views/s / select-only tps",
            Box::new(move |r| format!("{:.3}", ratio(r.views_per_second, pgbench.select_only))),
        ),
        (
            "long games reached / wanted",
            Box::new(|r| format!("{}/{}", r.long_games.reached, r.long_games.wanted)),
        ),
        (
            "move p50 ply>1000 / ply<100",
            Box::new(|r| format!("{:.2}", r.long_games.p50_ratio)),
        ),
        (
            "move p99 ply>1000 / ply<100",
            Box::new(|r| format!("{:.2}", r.long_games.p99_ratio)),
        ),
    ];
    for (name, cell) in rows {
        let mut line = format!("{name:<34}");
        for (_, report) in backends {
            line.push_str(&format!(" {:>14}", cell(report)));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
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

    /// The client's HTTP: a sized answer, a chunked one, a kept
    /// connection the server closed (a GET sent again on a new one, a POST
    /// never), and a refusal counted as an error with its status.
    #[tokio::test]
    async fn the_client_reads_sized_and_chunked_answers_and_reconnects() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let answers: [&[&[u8]]; 2] = [
                &[
                    b"HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\n{\"you\":\"r\"}",
                    b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{\"yo\r\n8\r\nu\":null}\r\n0\r\n\r\n",
                ],
                &[b"HTTP/1.1 409 Conflict\r\ncontent-length: 2\r\n\r\n{}"],
            ];
            for connection in answers {
                let (mut socket, _) = listener.accept().await.unwrap();
                for answer in connection {
                    let mut request = [0u8; 1024];
                    let n = socket.read(&mut request).await.unwrap();
                    assert!(request[..n].ends_with(b"\r\n\r\n"), "one whole GET");
                    socket.write_all(answer).await.unwrap();
                }
                // Then the server closes this connection.
            }
            // Whether anyone connects again (the POST below must not).
            tokio::time::timeout(Duration::from_millis(300), listener.accept())
                .await
                .is_ok()
        });
        let errors = Arc::new(Errors::new());
        let client = Client::new(&format!("http://{address}"), &errors, "test").unwrap();
        let (first, _) = client.send("GET", "/a", Some("t"), None).await.unwrap();
        assert_eq!(first, br#"{"you":"r"}"#);
        let (second, _) = client.send("GET", "/b", None, None).await.unwrap();
        assert_eq!(second, br#"{"you":null}"#);
        assert_eq!(client.errors_seen(), 0);
        // The kept connection is closed now: the request goes again on a
        // new one, whose answer is a refusal.
        assert!(client.send("GET", "/c", None, None).await.is_none());
        assert_eq!(client.errors_seen(), 1);
        assert!(
            errors.samples()[0].contains("409"),
            "{:?}",
            errors.samples()
        );
        // Closed again: a POST the server may have acted on is an error,
        // and is not sent again.
        let body = json!({"from": "a4", "to": "a5"});
        assert!(client.send("POST", "/d", None, Some(&body)).await.is_none());
        assert_eq!(client.errors_seen(), 2);
        assert!(!server.await.unwrap(), "the POST was sent again");
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
