//! Move latency and throughput against a running server (the figures in
//! BENCHMARKS.md, "Moves: latency by ply, and throughput").
//!
//! ```text
//! move-load --address 127.0.0.1:8080 --games 3 --plies 1000 --concurrency 1,4,16
//! ```
//!
//! It registers two accounts, then:
//!
//! 1. Latency by ply: plays `--games` games one after the other, each up to
//!    `--plies` plies (rules with `max_plies` null, so only the board can
//!    end a game; a game that ends early is replaced by a new one, at most
//!    `3 * games` games in all). Each ply is what a client does: `GET
//!    /games/{id}` as the player to move, pick one of its `legal_moves`,
//!    `POST /games/{id}/moves` with `expected_version`. Moves are random
//!    but avoid attacks while a non-attacking move exists, so that games
//!    last. The POST latencies are reported in windows of `--window` plies
//!    (p50 / p95 / max over all games), so a move at ply 1,000 can be
//!    compared with one at ply 10.
//! 2. Throughput: for each N of `--concurrency`, N threads each play their
//!    own fresh game for `--throughput-plies` plies at full speed; reports
//!    moves per second (each move also costs its GET) and the POST latency.
//!    Each game has its own two accounts (registered before the clock
//!    starts: the server needs REGISTER_RATE_LIMIT >= 2 + 2 * N), unless
//!    `--shared-players` makes every game one between the same two.
//!
//! Every request must succeed (a 409 or 422 stops the run with the
//! answer): with one client per game nobody else changes the game. Plain
//! blocking HTTP/1.1 keep-alive connections on loopback, one per thread;
//! every loop is bounded, and the run stops by itself.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::ExitCode;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{json, Value};

#[derive(Debug, Parser)]
#[command(name = "move-load")]
struct Args {
    /// The server's address (loopback only)
    #[arg(long, default_value = "127.0.0.1:8080")]
    address: String,
    /// Games to play (one after the other) for the latency-by-ply figures
    /// (0 to skip; at most 100)
    #[arg(long, default_value_t = 3)]
    games: usize,
    /// Plies per latency game (at most 10000)
    #[arg(long, default_value_t = 1000)]
    plies: usize,
    /// Plies per latency window
    #[arg(long, default_value_t = 50)]
    window: usize,
    /// Concurrent games for the throughput figures, comma-separated
    /// (each at most 64; the flag with no value skips them)
    #[arg(long, default_value = "1,4,16", value_delimiter = ',', num_args = 0..)]
    concurrency: Vec<usize>,
    /// In the throughput runs, all games are between the same two accounts
    /// (by default each game has its own pair, registered before timing;
    /// the server then needs REGISTER_RATE_LIMIT >= 2 + 2 * the largest N)
    #[arg(long)]
    shared_players: bool,
    /// Plies per game in the throughput runs (at most 10000)
    #[arg(long, default_value_t = 200)]
    throughput_plies: usize,
    /// The server's process id: the throughput runs then also report the
    /// CPU time the server process used (Linux, /proc)
    #[arg(long)]
    server_pid: Option<u32>,
    /// Seed of the move choices and setups
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    let address: SocketAddr = args
        .address
        .parse()
        .map_err(|e| format!("--address: {e}"))?;
    if !address.ip().is_loopback() {
        return Err("--address must be a loopback address".into());
    }
    if args.games > 100
        || args.plies > 10_000
        || args.throughput_plies > 10_000
        || args.window == 0
        || args.concurrency.iter().any(|&n| n == 0 || n > 64)
    {
        return Err(
            "limits: games <= 100, plies and throughput-plies <= 10000, window >= 1, \
             1 <= concurrency <= 64"
                .into(),
        );
    }
    let players = Arc::new(register_pair(&mut Http::new(address), 0)?);
    println!(
        "registered {} (red) and {} (blue)",
        players.red.name, players.blue.name
    );
    if args.games > 0 {
        latency_by_ply(args, address, &players)?;
    }
    for &n in &args.concurrency {
        throughput(args, address, &players, n)?;
    }
    Ok(())
}

/// Part 1: `games` games of up to `plies` plies, latencies by ply window.
fn latency_by_ply(args: &Args, address: SocketAddr, players: &Players) -> Result<(), String> {
    let mut http = Http::new(address);
    let mut rng = SplitMix64::new(args.seed);
    // by_ply[p - 1]: the POST latencies of ply p over all games.
    let mut by_ply: Vec<Vec<Duration>> = vec![Vec::new(); args.plies];
    let mut views: Vec<Duration> = Vec::new();
    let mut complete = 0;
    let started = Instant::now();
    for attempt in 0..args.games * 3 {
        if complete == args.games {
            break;
        }
        let id = start_game(&mut http, players, &mut rng)?;
        let game = play(&mut http, players, &id, args.plies, &mut rng)?;
        for (ply, latency) in game.moves.iter().enumerate() {
            by_ply[ply].push(*latency);
        }
        views.extend(&game.views);
        println!(
            "game {} ({id}): {} plies, {}",
            attempt + 1,
            game.moves.len(),
            game.ended.as_deref().unwrap_or("still playing")
        );
        if game.moves.len() == args.plies {
            complete += 1;
        }
    }
    let total: usize = by_ply.iter().map(Vec::len).sum();
    println!(
        "latency by ply: {complete} of {} games reached ply {}; {total} moves in {:.1?}",
        args.games,
        args.plies,
        started.elapsed()
    );
    println!("  plies        moves   POST p50   POST p95   POST max");
    for (i, window) in by_ply.chunks(args.window).enumerate() {
        let mut samples: Vec<Duration> = window.iter().flatten().copied().collect();
        if samples.is_empty() {
            continue;
        }
        let first = i * args.window + 1;
        let last = first + window.len() - 1;
        let (p50, p95, max) = percentiles(&mut samples);
        println!(
            "  {first:>4}-{last:<4} {:>10} {:>10} {:>10} {:>10}",
            samples.len(),
            ms(p50),
            ms(p95),
            ms(max)
        );
    }
    let (p50, p95, max) = percentiles(&mut views);
    println!(
        "  GET /games/{{id}} (view with legal moves), all plies: p50 {} p95 {} max {}",
        ms(p50),
        ms(p95),
        ms(max)
    );
    Ok(())
}

/// Part 2: `n` games at once, each on its own thread and connection.
fn throughput(
    args: &Args,
    address: SocketAddr,
    players: &Arc<Players>,
    n: usize,
) -> Result<(), String> {
    let barrier = Arc::new(Barrier::new(n + 1));
    let mut threads = Vec::with_capacity(n);
    for thread in 0..n {
        let shared = args.shared_players.then(|| Arc::clone(players));
        let barrier = Arc::clone(&barrier);
        let plies = args.throughput_plies;
        let seed = args.seed ^ ((n as u64) << 32) ^ thread as u64;
        threads.push(std::thread::spawn(move || {
            let mut http = Http::new(address);
            let mut rng = SplitMix64::new(seed);
            // Registering and setting up are not timed; every thread starts
            // playing at once (also after a failure, so nobody waits forever).
            let ready = match shared {
                Some(players) => Ok(players),
                None => register_pair(&mut http, thread + 1).map(Arc::new),
            }
            .and_then(|players| Ok((start_game(&mut http, &players, &mut rng)?, players)));
            barrier.wait();
            let (id, players) = ready?;
            play(&mut http, &players, &id, plies, &mut rng)
        }));
    }
    barrier.wait();
    let started = Instant::now();
    let cpu_before = (
        cpu_seconds("self"),
        args.server_pid.map(|p| cpu_seconds(&p.to_string())),
    );
    let mut moves = Vec::new();
    let mut error = None;
    for thread in threads {
        match thread.join() {
            Ok(Ok(game)) => moves.extend(game.moves),
            Ok(Err(e)) => error = error.or(Some(e)),
            Err(_) => error = error.or(Some("a client thread panicked".to_owned())),
        }
    }
    let elapsed = started.elapsed();
    let client_cpu = cpu_seconds("self")? - cpu_before.0?;
    let server_cpu = match (args.server_pid, cpu_before.1) {
        (Some(pid), Some(before)) => Some(cpu_seconds(&pid.to_string())? - before?),
        _ => None,
    };
    if let Some(e) = error {
        return Err(e);
    }
    let count = moves.len();
    let (p50, p95, max) = percentiles(&mut moves);
    let pairs = if args.shared_players {
        "one pair of players for all"
    } else {
        "one pair of players each"
    };
    println!(
        "throughput with {n} concurrent game(s), {pairs}: {count} moves in {:.2} s = {:.0} moves/s \
         (each move = 1 GET + 1 POST); POST p50 {} p95 {} max {}",
        elapsed.as_secs_f64(),
        count as f64 / elapsed.as_secs_f64(),
        ms(p50),
        ms(p95),
        ms(max)
    );
    let per_move = |seconds: f64| seconds * 1000.0 / count.max(1) as f64;
    let server = server_cpu
        .map(|s| format!("server process {s:.2} s ({:.2} ms per move), ", per_move(s)))
        .unwrap_or_default();
    println!(
        "  CPU time meanwhile: {server}this client {client_cpu:.2} s ({:.2} ms per move), \
         of {:.2} s x 2 cores",
        per_move(client_cpu),
        elapsed.as_secs_f64()
    );
    Ok(())
}

/// User + system CPU seconds of process `pid` ("self" for this one).
fn cpu_seconds(pid: &str) -> Result<f64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // The fields after the command name (which is in parentheses and may
    // hold spaces): state is field 3, utime 14, stime 15.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .ok_or("no command name in /proc/*/stat")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| -> Result<f64, String> {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .ok_or_else(|| "bad /proc/*/stat".to_owned())
    };
    // Clock ticks: 100 per second on Linux.
    Ok((ticks(11)? + ticks(12)?) / 100.0)
}

/// Two accounts; Red is the creator of every game.
struct Players {
    red: Player,
    blue: Player,
}

struct Player {
    name: String,
    token: String,
}

/// Registers pair number `pair` of this run.
fn register_pair(http: &mut Http, pair: usize) -> Result<Players, String> {
    let run = format!(
        "mv{}x{}p{pair}",
        std::process::id(),
        unix_seconds() % 100_000
    );
    let mut register = |color: &str| -> Result<Player, String> {
        let name = format!("{run}{color}");
        let body = json!({"username": name, "password": "move-load-password"});
        let answer = http.call("POST", "/api/v1/auth/register", None, Some(&body), 201)?;
        let token = answer["access_token"]
            .as_str()
            .ok_or("no access_token in the register answer")?
            .to_owned();
        Ok(Player { name, token })
    };
    Ok(Players {
        red: register("r")?,
        blue: register("b")?,
    })
}

/// Creates a game between the two players, seats Blue and places two
/// random setups; returns its id (Red to move).
fn start_game(http: &mut Http, players: &Players, rng: &mut SplitMix64) -> Result<String, String> {
    let create = json!({"variant": "classic", "color": "red", "opponent": players.blue.name,
                        "days_per_move": 14, "rules": {"max_plies": null}});
    let game = http.call(
        "POST",
        "/api/v1/games",
        Some(&players.red.token),
        Some(&create),
        201,
    )?;
    let id = game["id"].as_str().ok_or("no game id")?.to_owned();
    http.call(
        "POST",
        &format!("/api/v1/games/{id}/join"),
        Some(&players.blue.token),
        None,
        200,
    )?;
    let mut status = Value::Null;
    for player in [&players.red, &players.blue] {
        let setup = json!({"random": true, "seed": rng.next_u64() % 1_000_000});
        let view = http.call(
            "POST",
            &format!("/api/v1/games/{id}/setup"),
            Some(&player.token),
            Some(&setup),
            200,
        )?;
        status = view["status"].clone();
    }
    if status != "playing" {
        return Err(format!("game {id} did not start: {status}"));
    }
    Ok(id)
}

/// What one game gave: the POST latency of each ply, the GET latencies,
/// and how it ended (if it did).
struct Played {
    moves: Vec<Duration>,
    views: Vec<Duration>,
    ended: Option<String>,
}

/// Plays up to `plies` plies of game `id` for both sides.
fn play(
    http: &mut Http,
    players: &Players,
    id: &str,
    plies: usize,
    rng: &mut SplitMix64,
) -> Result<Played, String> {
    let view_path = format!("/api/v1/games/{id}");
    let move_path = format!("/api/v1/games/{id}/moves");
    let mut played = Played {
        moves: Vec::with_capacity(plies),
        views: Vec::with_capacity(plies),
        ended: None,
    };
    let mut turn = "red".to_owned();
    for _ in 0..plies {
        let player = if turn == "red" {
            &players.red
        } else {
            &players.blue
        };
        let (view, took) = http.timed("GET", &view_path, Some(&player.token), None, 200)?;
        played.views.push(took);
        let (from, to) = pick_move(&view, rng).ok_or_else(|| format!("no legal move: {view}"))?;
        let body = json!({"from": from, "to": to, "expected_version": view["version"]});
        let (answer, took) =
            http.timed("POST", &move_path, Some(&player.token), Some(&body), 200)?;
        played.moves.push(took);
        let game = &answer["game"];
        if game["status"] != "playing" {
            played.ended = Some(format!("ended: {}", game["result"]));
            break;
        }
        turn = game["turn"]
            .as_str()
            .ok_or("no turn in the view")?
            .to_owned();
    }
    Ok(played)
}

/// A random legal move from the view, not an attack if there is another.
fn pick_move(view: &Value, rng: &mut SplitMix64) -> Option<(String, String)> {
    let me = view["you"].as_str()?;
    let moves = view["legal_moves"].as_array()?;
    let board = view["board"].as_array()?;
    let enemy_at = |square: &Value| {
        board
            .iter()
            .any(|p| p["square"] == *square && p["color"].as_str() != Some(me))
    };
    let quiet: Vec<&Value> = moves.iter().filter(|m| !enemy_at(&m["to"])).collect();
    let pool: Vec<&Value> = if quiet.is_empty() {
        moves.iter().collect()
    } else {
        quiet
    };
    if pool.is_empty() {
        return None;
    }
    let chosen = pool[rng.below(pool.len())];
    Some((
        chosen["from"].as_str()?.to_owned(),
        chosen["to"].as_str()?.to_owned(),
    ))
}

/// One keep-alive HTTP/1.1 connection (reopened when the server closed it).
struct Http {
    address: SocketAddr,
    stream: Option<BufReader<TcpStream>>,
}

impl Http {
    fn new(address: SocketAddr) -> Self {
        Self {
            address,
            stream: None,
        }
    }

    /// Sends one request and returns the JSON answer, which must have
    /// status `expect`.
    fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        expect: u16,
    ) -> Result<Value, String> {
        self.timed(method, path, token, body, expect)
            .map(|(value, _)| value)
    }

    /// [`Http::call`], also returning the time from sending the request to
    /// the last byte of the answer (parsing the JSON is not included).
    fn timed(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        expect: u16,
    ) -> Result<(Value, Duration), String> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\n",
            self.address
        );
        if let Some(token) = token {
            request.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        if method == "POST" {
            request.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        request.push_str("\r\n");
        request.push_str(&body);
        // A reused connection may have been closed by the server while
        // idle: then (and only if nothing came back) try once more on a
        // new one. Nothing was processed in that case.
        let reused = self.stream.is_some();
        let mut sent = Instant::now();
        let (status, text) = match self.exchange(&request) {
            Err(Exchange::Unanswered(_)) if reused => {
                self.stream = None;
                sent = Instant::now();
                self.exchange(&request)
            }
            other => other,
        }
        .map_err(|e| format!("{method} {path}: {}", e.message()))?;
        let elapsed = sent.elapsed();
        if status != expect {
            return Err(format!(
                "{method} {path}: {status} (expected {expect}): {text}"
            ));
        }
        let value =
            serde_json::from_str(&text).map_err(|e| format!("{method} {path}: {e}: {text}"))?;
        Ok((value, elapsed))
    }

    fn exchange(&mut self, request: &str) -> Result<(u16, String), Exchange> {
        if self.stream.is_none() {
            let stream = TcpStream::connect(self.address)
                .map_err(|e| Exchange::Failed(format!("connect: {e}")))?;
            stream
                .set_read_timeout(Some(Duration::from_secs(30)))
                .map_err(|e| Exchange::Failed(e.to_string()))?;
            stream
                .set_nodelay(true)
                .map_err(|e| Exchange::Failed(e.to_string()))?;
            self.stream = Some(BufReader::new(stream));
        }
        let Some(reader) = self.stream.as_mut() else {
            return Err(Exchange::Failed("no connection".into()));
        };
        reader
            .get_mut()
            .write_all(request.as_bytes())
            .map_err(|e| Exchange::Unanswered(format!("send: {e}")))?;
        let mut status_line = String::new();
        match reader.read_line(&mut status_line) {
            Ok(0) => return Err(Exchange::Unanswered("connection closed".into())),
            Ok(_) => {}
            Err(e) => return Err(Exchange::Unanswered(format!("receive: {e}"))),
        }
        let result = read_rest(reader, &status_line);
        match &result {
            Ok((_, _, close)) if !close => {}
            _ => self.stream = None,
        }
        result.map(|(status, body, _)| (status, body))
    }
}

enum Exchange {
    /// Nothing came back: the request may be sent again.
    Unanswered(String),
    Failed(String),
}

impl Exchange {
    fn message(&self) -> &str {
        match self {
            Exchange::Unanswered(m) | Exchange::Failed(m) => m,
        }
    }
}

/// Reads the headers and body after the status line; returns the status,
/// the body and whether the server closes the connection.
fn read_rest(
    reader: &mut BufReader<TcpStream>,
    status_line: &str,
) -> Result<(u16, String, bool), Exchange> {
    let failed = |e: std::io::Error| Exchange::Failed(format!("receive: {e}"));
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| Exchange::Failed(format!("bad status line {status_line:?}")))?;
    let mut length = None;
    let mut chunked = false;
    let mut close = false;
    for _ in 0..100 {
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(failed)? == 0 {
            return Err(Exchange::Failed("connection closed in the headers".into()));
        }
        let line = line.trim_end();
        if line.is_empty() {
            let body = if chunked {
                read_chunked(reader)?
            } else {
                let mut body = vec![0; length.unwrap_or(0)];
                reader.read_exact(&mut body).map_err(failed)?;
                body
            };
            let body = String::from_utf8(body)
                .map_err(|_| Exchange::Failed("answer is not UTF-8".into()))?;
            return Ok((status, body, close));
        }
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse().ok(),
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "connection" => close = value.eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    Err(Exchange::Failed("more than 100 header lines".into()))
}

fn read_chunked(reader: &mut BufReader<TcpStream>) -> Result<Vec<u8>, Exchange> {
    let failed = |e: std::io::Error| Exchange::Failed(format!("receive: {e}"));
    let mut body = Vec::new();
    for _ in 0..100_000 {
        let mut size_line = String::new();
        reader.read_line(&mut size_line).map_err(failed)?;
        let size = usize::from_str_radix(size_line.trim().split(';').next().unwrap_or(""), 16)
            .map_err(|_| Exchange::Failed(format!("bad chunk size {size_line:?}")))?;
        let mut chunk = vec![0; size + 2];
        reader.read_exact(&mut chunk).map_err(failed)?;
        if size == 0 {
            return Ok(body);
        }
        body.extend_from_slice(&chunk[..size]);
    }
    Err(Exchange::Failed("too many chunks".into()))
}

/// p50, p95 and max (nearest rank) of the samples; zeros when empty.
fn percentiles(samples: &mut [Duration]) -> (Duration, Duration, Duration) {
    if samples.is_empty() {
        return (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    }
    samples.sort_unstable();
    let rank = |p: f64| {
        let index = (p * samples.len() as f64).ceil() as usize;
        samples[index.clamp(1, samples.len()) - 1]
    };
    (rank(0.50), rank(0.95), samples[samples.len() - 1])
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        Self(seed)
    }

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
