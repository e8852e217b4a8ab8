//! Stops and rolling restarts (docs/deploy.md, "Restarts"): SIGTERM lets
//! the requests in flight finish and exits 0 within the grace; two
//! processes behind one front, restarted one after the other while
//! players move, lose no acknowledged move and answer no 5xx; the
//! outbox's deliveries in flight are handed back at a stop, not left to
//! wait out their lease.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};

use crate::harness::{TestDatabase, TestUser};
use crate::notifications::{Receiver, HOLD};
use crate::process::ServerProcess;
use crate::support::*;

/// The grace the processes of these tests are given.
const GRACE_SECONDS: u64 = 10;

/// A front like a load balancer's, at the TCP level: each connection goes
/// to the first of the backends, taken in turn, that accepts it; one that
/// refuses (stopped, not yet started) is passed over.
struct Front {
    address: SocketAddr,
    backends: Arc<Mutex<Vec<SocketAddr>>>,
}

impl Front {
    async fn start(backends: Vec<SocketAddr>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let backends = Arc::new(Mutex::new(backends));
        let shared = backends.clone();
        tokio::spawn(async move {
            let turn = AtomicUsize::new(0);
            while let Ok((mut client, _)) = listener.accept().await {
                let candidates = shared.lock().unwrap().clone();
                let first = turn.fetch_add(1, Ordering::Relaxed);
                tokio::spawn(async move {
                    for i in 0..candidates.len() {
                        let backend = candidates[(first + i) % candidates.len()];
                        if let Ok(mut upstream) = TcpStream::connect(backend).await {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                            return;
                        }
                    }
                });
            }
        });
        Self { address, backends }
    }

    fn set(&self, backends: Vec<SocketAddr>) {
        *self.backends.lock().unwrap() = backends;
    }
}

fn socket(process: &ServerProcess) -> SocketAddr {
    process
        .address
        .trim_start_matches("http://")
        .parse()
        .unwrap()
}

/// What the players saw through the front.
#[derive(Default)]
struct Seen {
    /// Answers with a 5xx status, as `status path`.
    server_errors: Mutex<Vec<String>>,
    /// Requests that got no answer at all (and were sent again).
    resent: AtomicUsize,
    /// Moves answered 200.
    acknowledged: AtomicUsize,
}

/// A client as a careful app is written: each request is sent again, with
/// the same `Idempotency-Key`, when no answer came back.
struct Player {
    client: reqwest::Client,
    base: String,
    user: TestUser,
}

impl Player {
    async fn send(
        &self,
        seen: &Seen,
        build: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    ) -> (u16, Value) {
        for _ in 0..50 {
            match build(&self.client)
                .bearer_auth(&self.user.access_token)
                .send()
                .await
            {
                Ok(response) => {
                    let status = response.status().as_u16();
                    let url = response.url().path().to_owned();
                    let body = response.json().await.unwrap_or(Value::Null);
                    if status >= 500 {
                        seen.server_errors
                            .lock()
                            .unwrap()
                            .push(format!("{status} {url} {body}"));
                    }
                    return (status, body);
                }
                Err(_) => {
                    seen.resent.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
        panic!("no answer after 50 tries");
    }
}

/// Plays game `id` between `red` and `blue` until `done` (or its end):
/// returns the moves acknowledged, as `(ply, from, to)`.
async fn play(
    id: String,
    red: Player,
    blue: Player,
    seen: Arc<Seen>,
    done: Arc<std::sync::atomic::AtomicBool>,
) -> Vec<(i64, String, String)> {
    let mut acknowledged = Vec::new();
    let mut key = 0;
    while !done.load(Ordering::Relaxed) {
        let path = format!("{}/api/v1/games/{id}", red.base);
        let (status, view) = red.send(&seen, |c| c.get(&path)).await;
        if status != 200 {
            continue;
        }
        if view["status"] != "playing" {
            break;
        }
        let mover = if view["turn"] == "red" { &red } else { &blue };
        let path = format!("{}/api/v1/games/{id}", mover.base);
        let (_, view) = mover.send(&seen, |c| c.get(&path)).await;
        let Some(moves) = view["legal_moves"].as_array().filter(|m| !m.is_empty()) else {
            continue;
        };
        let chosen = &moves[acknowledged.len() * 7 % moves.len()];
        let body = json!({"from": chosen["from"], "to": chosen["to"],
                          "expected_version": view["version"]});
        key += 1;
        let idempotency = format!("{id}-{key}");
        let path = format!("{}/api/v1/games/{id}/moves", mover.base);
        let (status, answer) = mover
            .send(&seen, |c| {
                c.post(&path)
                    .header("Idempotency-Key", &idempotency)
                    .json(&body)
            })
            .await;
        if status == 200 {
            seen.acknowledged.fetch_add(1, Ordering::Relaxed);
            acknowledged.push((
                answer["move"]["ply"].as_i64().unwrap(),
                chosen["from"].as_str().unwrap().to_owned(),
                chosen["to"].as_str().unwrap().to_owned(),
            ));
        }
    }
    acknowledged
}

/// Sends SIGTERM and waits for the exit: 0, within the grace.
fn stop(process: &mut ServerProcess) -> Duration {
    let started = Instant::now();
    process.terminate();
    let status = process.wait_exit(Duration::from_secs(GRACE_SECONDS + 20));
    let took = started.elapsed();
    assert!(status.success(), "a clean exit: {status}");
    assert!(
        took <= Duration::from_secs(GRACE_SECONDS),
        "the stop took {took:?}, more than the grace"
    );
    took
}

/// Waits until `count` more moves were acknowledged (bounded).
async fn until_moves(seen: &Seen, count: usize) {
    let goal = seen.acknowledged.load(Ordering::Relaxed) + count;
    let until = Instant::now() + Duration::from_secs(60);
    while seen.acknowledged.load(Ordering::Relaxed) < goal {
        assert!(Instant::now() < until, "the players stopped moving");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn start(database: &TestDatabase) -> ServerProcess {
    let grace = GRACE_SECONDS.to_string();
    ServerProcess::start_with(database, &[("SHUTDOWN_GRACE_SECONDS", &grace)])
}

backend_tests! {
    async fn a_request_in_flight_at_sigterm_is_answered(database: TestDatabase) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut server = start(&database);
        let ann = server.register("ann").await;
        let bob = server.register("bob").await;
        let id = start_game(&server, &ann, &bob, 3).await;
        let view = game_view(&server, &id, &ann).await;
        let chosen = &view["legal_moves"][0];
        let body = json!({"from": chosen["from"], "to": chosen["to"]}).to_string();

        // A move whose body is still on its way when SIGTERM comes.
        let address = socket(&server);
        let mut request = TcpStream::connect(address).await.unwrap();
        let head = format!(
            "POST /api/v1/games/{id}/moves HTTP/1.1\r\nHost: {address}\r\n\
             Authorization: Bearer {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            ann.access_token,
            body.len()
        );
        let (first, rest) = body.split_at(body.len() / 2);
        request.write_all(head.as_bytes()).await.unwrap();
        request.write_all(first.as_bytes()).await.unwrap();
        // Time for the server to take the connection (a precondition, not
        // an assertion: a stop before that would refuse the request).
        tokio::time::sleep(Duration::from_millis(300)).await;
        let started = Instant::now();
        server.terminate();

        // The stop has begun once new connections are refused...
        let until = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(address).await.is_ok() {
            assert!(Instant::now() < until, "the stopping server still accepts connections");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // ... and the request in flight is still answered, in full.
        request.write_all(rest.as_bytes()).await.unwrap();
        let mut answer = String::new();
        request.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        let status = tokio::task::block_in_place(|| server.wait_exit(Duration::from_secs(30)));
        assert!(status.success(), "a clean exit: {status}");
        assert!(started.elapsed() <= Duration::from_secs(GRACE_SECONDS), "{:?}", started.elapsed());

        // The move is in the game, for the next process.
        let next = start(&database);
        let view = game_view(&next, &id, &ann).await;
        assert_eq!(view["ply"], 1, "{view}");
        assert_eq!(view["last_move"]["from"], chosen["from"], "{view}");
    }

    async fn a_rolling_restart_loses_no_acknowledged_move_and_answers_no_5xx(database: TestDatabase) {
        const GAMES: usize = 4;
        let mut one = start(&database);
        let mut two = start(&database);
        let front = Front::start(vec![socket(&one), socket(&two)]).await;
        let base = format!("http://{}", front.address);
        // Every request on a connection of its own, so that each goes to a
        // backend that accepts it, as a load balancer sends it.
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let seen = Arc::new(Seen::default());
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut games = Vec::new();
        for g in 0..GAMES {
            let red = one.register(&format!("red{g}")).await;
            let blue = one.register(&format!("blue{g}")).await;
            let id = start_game(&one, &red, &blue, 3).await;
            let player = |user: TestUser| Player { client: client.clone(), base: base.clone(), user };
            games.push((
                id.clone(),
                tokio::spawn(play(id, player(red.clone()), player(blue), seen.clone(), done.clone())),
                red,
            ));
        }
        until_moves(&seen, 20).await;

        // The first process stops while the players move; the front sends
        // everything to the other; a new first process takes its place.
        let took = stop(&mut one);
        eprintln!("first stop took {took:?}");
        front.set(vec![socket(&two)]);
        until_moves(&seen, 20).await;
        let three = start(&database);
        front.set(vec![socket(&two), socket(&three)]);
        until_moves(&seen, 20).await;
        // Then the second.
        let took = stop(&mut two);
        eprintln!("second stop took {took:?}");
        front.set(vec![socket(&three)]);
        until_moves(&seen, 20).await;
        let four = start(&database);
        front.set(vec![socket(&three), socket(&four)]);
        until_moves(&seen, 20).await;
        done.store(true, Ordering::Relaxed);

        let errors = seen.server_errors.lock().unwrap().clone();
        assert!(errors.is_empty(), "server errors: {errors:?}");
        let mut total = 0;
        for (id, task, red) in games {
            let acknowledged = task.await.unwrap();
            total += acknowledged.len();
            let history = get_json(&three, &format!("/api/v1/games/{id}/moves"), &red).await;
            let played: Vec<(i64, String, String)> = history["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["ply"].as_i64().unwrap(),
                        m["from"].as_str().unwrap().to_owned(),
                        m["to"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            // Every move answered 200 is in the history, at its ply, and
            // the history holds no move that was not answered.
            assert_eq!(played, acknowledged, "game {id}");
        }
        assert!(total >= 100, "{total} moves");
        eprintln!(
            "rolling restart: {total} moves acknowledged, {} requests sent again after no answer",
            seen.resent.load(Ordering::Relaxed)
        );
    }

    async fn a_stop_hands_deliveries_in_flight_back(database: TestDatabase) {
        let receiver = Receiver::start().await;
        let settings = [
            ("SHUTDOWN_GRACE_SECONDS", "4"),
            ("OUTBOUND_ALLOW_PRIVATE_NETWORKS", "true"),
            ("OUTBOX_POLL_MILLIS", "50"),
        ];
        let mut one = ServerProcess::start_with(&database, &settings);
        let ann = one.register("ann").await;
        let bob = one.register("bob").await;
        post_ok(&one, "/api/v1/me/webhooks", &bob, &json!({"url": receiver.url}), 201).await;
        // The receiver takes the first delivery and never answers it.
        receiver.answer_with(&[HOLD]);
        let id = start_game(&one, &ann, &bob, 3).await;
        play_move(&one, &id, &ann, 1).await;
        let held = receiver.wait_for(1).await;

        // The stop does not wait for the receiver: the delivery is handed
        // back, untried, and the process exits within its grace.
        let started = Instant::now();
        one.terminate();
        let status = one.wait_exit(Duration::from_secs(30));
        assert!(status.success(), "a clean exit: {status}");
        assert!(started.elapsed() <= Duration::from_secs(4), "{:?}", started.elapsed());

        // The next process sends it again at once (its lease would have
        // held it for a minute), under the same id, counted as one try.
        let two = ServerProcess::start_with(&database, &settings);
        let again = receiver.wait_for(held.len() + 1).await;
        let first = &held[0];
        let resent = again
            .iter()
            .skip(held.len())
            .find(|d| d.headers["webhook-id"] == first.headers["webhook-id"])
            .expect("the held delivery is sent again");
        assert_eq!(resent.body, first.body);
        assert!(started.elapsed() < Duration::from_secs(30), "sent again before the lease ran out");
        let hooks = get_json(&two, "/api/v1/me/webhooks", &bob).await;
        let hook = hooks["webhooks"][0]["id"].as_str().unwrap().to_owned();
        let deliveries =
            get_json(&two, &format!("/api/v1/me/webhooks/{hook}/deliveries"), &bob).await;
        let delivered = deliveries["deliveries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["id"].as_str() == Some(first.headers["webhook-id"].as_str()))
            .cloned()
            .unwrap_or_else(|| panic!("{deliveries}"));
        assert_eq!(delivered["state"], "delivered", "{deliveries}");
        assert_eq!(delivered["attempts"], 1, "{deliveries}");
    }
}
