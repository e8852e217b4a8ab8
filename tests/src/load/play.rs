//! The load's games: accounts registered in pairs, games started and
//! played move by move (the move picked at random), the long games, and the
//! view phase.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;

use super::client::{Client, Errors};
use super::{mix, unix_seconds, Latency, LongGames, Options, SplitMix64};
use super::{CLIENT_ERROR_LIMIT, EARLY_PLIES};

/// New games a long-game client may start before giving up.
const LONG_GAME_ATTEMPTS: usize = 5;

/// Two accounts; the first of a pair creates every game of the pair (and
/// plays Red).
pub(super) struct Pair {
    /// The access tokens of the two accounts.
    pub(super) red: String,
    pub(super) blue: String,
    blue_name: String,
}

pub(super) async fn register_pairs(
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
pub(super) async fn long_games(
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
pub(super) struct Limit<'a> {
    pub(super) deadline: Instant,
    /// Moves started by all clients of the phase.
    pub(super) budget: &'a AtomicU64,
    pub(super) max_moves: u64,
    /// A game stops after this ply.
    pub(super) plies: u32,
    /// Opened once a move of this client passes the ply (long games).
    pub(super) opens: Option<(&'a tokio::sync::watch::Sender<bool>, u32)>,
}

impl Limit<'_> {
    pub(super) fn over(&self) -> bool {
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
pub(super) struct Played {
    /// (ply, POST latency) of every move.
    pub(super) moves: Vec<(u32, Duration)>,
    /// GET latency before each move.
    pub(super) views: Vec<Duration>,
    /// Latency of each game start (create + join + 2 setups).
    pub(super) starts: Vec<Duration>,
    pub(super) games_started: u64,
    pub(super) games_ended: u64,
    /// The game played last (for the view phase).
    pub(super) last_game: Option<String>,
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
pub(super) async fn play_game(
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

/// Whose view `bytes` is, as its `"you"` member says (`Some("red")`,
/// `Some("blue")`; `None`: a spectator's, or no view), read where the
/// member stands (after the game's header, before the board) without
/// parsing the rest of the view. Parsing all of it, as the move phase
/// must to choose a move, cost this tool more CPU a view than the server
/// spent answering it (BENCHMARKS.md, "Twenty-second measurement"), on
/// the cores the server and PostgreSQL share with it. The server writes
/// its JSON compact, and no member of the header is named `you` (a quote
/// inside a string is escaped, so no username can spell the member); a
/// view that stopped being so would show here as errors, as in the
/// end-to-end load test (`tests/tests/e2e/load.rs`). What this no longer
/// checks is the rest of each view: the move phase parses every view it
/// moves from.
fn seat_of(bytes: &[u8]) -> Option<&'static str> {
    const MEMBER: &[u8] = b"\"you\":";
    let at = bytes.windows(MEMBER.len()).position(|w| w == MEMBER)?;
    let value = &bytes[at + MEMBER.len()..];
    [("red", &b"\"red\""[..]), ("blue", &b"\"blue\""[..])]
        .into_iter()
        .find(|(_, quoted)| value.starts_with(quoted))
        .map(|(seat, _)| seat)
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
pub(super) async fn read_views(
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
        let (token, seat) = if red {
            (&pair.red, "red")
        } else {
            (&pair.blue, "blue")
        };
        red = !red;
        let Some((bytes, took)) = client.send("GET", &path, Some(token), None).await else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        // Each client reads its own game as each of its players in turn:
        // a view of the other seat, or a spectator's, would be a mistake
        // of the server or of this tool.
        if seat_of(&bytes) != Some(seat) {
            client.failed(
                &format!("GET {path}"),
                "",
                &format!("200 but not {seat}'s view"),
                &String::from_utf8_lossy(&bytes),
            );
            return latencies;
        }
        latencies.push(took);
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

#[cfg(test)]
mod tests {
    use super::seat_of;

    #[test]
    fn the_seat_is_read_from_the_views_you() {
        let view = |you: &str| {
            format!(
                r#"{{"id":"g","players":{{"red":{{"username":"you"}},"blue":{{"username":"red"}}}},{you}"board":[{{"square":"a1","rank":"bomb"}}]}}"#
            )
        };
        assert_eq!(seat_of(view(r#""you":"red","#).as_bytes()), Some("red"));
        assert_eq!(seat_of(view(r#""you":"blue","#).as_bytes()), Some("blue"));
        assert_eq!(seat_of(view(r#""you":null,"#).as_bytes()), None);
        assert_eq!(seat_of(view("").as_bytes()), None);
        assert_eq!(seat_of(view(r#""you":"redd","#).as_bytes()), None);
        // A username that spells the member is escaped in the header.
        let escaped =
            r#"{"players":{"red":{"username":"x\",\"you\":\"blue"}},"you":"red","board":[]}"#;
        assert_eq!(seat_of(escaped.as_bytes()), Some("red"));
        assert_eq!(seat_of(b""), None);
    }
}
