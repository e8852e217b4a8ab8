//! Ending a session or an account while requests of it are in flight on
//! another server process (docs/accounts.md, "Ending sessions and
//! rotation"; SECURITY.md). Two real server processes share one database,
//! on each backend:
//!
//! - a thief rotates a stolen refresh token in a tight loop on one process
//!   while its owner ends their sessions on the other (logout with the
//!   stolen token, logging out everywhere, a password change, a deletion):
//!   the thief's chain always dies, nothing answers 5xx, and afterwards no
//!   refresh token is valid in a family that was ended or of an account
//!   that was deleted;
//! - an account is deleted while its clients create and join games on the
//!   other process, and another player joins its newest open games: when
//!   the deletion has answered and those requests are done, no game of the
//!   account is left running, with no restart;
//! - a validly signed token of an account that does not exist is 401
//!   `unauthorized` on every endpoint;
//! - a join that PostgreSQL ends in a deadlock (as with a deletion that
//!   renames the account in a game created a moment before) is tried
//!   again, not answered 503.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use api::config::DatabaseUrl;
use diesel::{Connection, PgConnection, RunQueryDsl, SqliteConnection};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::harness::{assert_problem, TestDatabase, TestUser, PASSWORD};
use crate::process::ServerProcess;
use crate::support::Server;

/// Trials of each kind of ending, on each backend. Before the rotation and
/// the endings took the account's row first, about four in five trials
/// left the thief's chain alive, so six fail with near certainty.
const TRIALS: usize = 6;
/// Rotations the thief makes before the owner ends the session: the ending
/// then lands in the middle of the loop.
const HEAD_START: usize = 3;
/// How long the thief keeps trying after the ending has answered.
const AFTER_THE_END: Duration = Duration::from_secs(3);

/// Access tokens live 10 s, as in the attack this reproduces.
fn start(database: &TestDatabase) -> ServerProcess {
    ServerProcess::start_with(
        database,
        &[
            ("ACCESS_TOKEN_TTL_SECONDS", "10"),
            ("SHUTDOWN_TIMEOUT_SECONDS", "1"),
        ],
    )
}

async fn send(
    server: &ServerProcess,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = server.client().request(method, server.at(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn refresh(server: &ServerProcess, token: &str) -> (StatusCode, Value) {
    let body = json!({"refresh_token": token});
    send(
        server,
        Method::POST,
        "/api/v1/auth/refresh",
        None,
        Some(body),
    )
    .await
}

#[derive(Debug, Clone, Copy)]
enum Ending {
    /// `POST /auth/logout` with the stolen token, already rotated by the
    /// thief: reuse, so the whole family ends.
    LogoutWithTheStolenToken,
    LogoutEverywhere,
    PasswordChange,
    Deletion,
}

impl Ending {
    async fn run(self, server: &ServerProcess, owner: &TestUser) -> StatusCode {
        let token = Some(owner.access_token.as_str());
        let (status, body) = match self {
            Ending::LogoutWithTheStolenToken => {
                let body = json!({"refresh_token": owner.refresh_token});
                send(
                    server,
                    Method::POST,
                    "/api/v1/auth/logout",
                    None,
                    Some(body),
                )
                .await
            }
            Ending::LogoutEverywhere => {
                send(server, Method::DELETE, "/api/v1/me/sessions", token, None).await
            }
            Ending::PasswordChange => {
                let body =
                    json!({"current_password": PASSWORD, "new_password": "a-new-passphrase"});
                send(
                    server,
                    Method::PUT,
                    "/api/v1/me/password",
                    token,
                    Some(body),
                )
                .await
            }
            Ending::Deletion => {
                let body = json!({"password": PASSWORD});
                send(server, Method::DELETE, "/api/v1/me", token, Some(body)).await
            }
        };
        let expected = match self {
            Ending::PasswordChange => StatusCode::OK,
            _ => StatusCode::NO_CONTENT,
        };
        assert_eq!(status, expected, "{self:?}: {body}");
        status
    }
}

/// What the thief had when its loop ended.
struct Loot {
    refresh_token: String,
    access_token: Option<String>,
    rotations: usize,
    /// The loop ended on a refusal (401), not on the time limit.
    refused: bool,
}

/// Rotates `stolen` on `server` until refused or told to stop; counts
/// rotations into `done`. Any answer but 200 or 401 fails the test.
async fn thief(
    server: Arc<ServerProcess>,
    stolen: String,
    done: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
) -> Loot {
    let mut loot = Loot {
        refresh_token: stolen,
        access_token: None,
        rotations: 0,
        refused: false,
    };
    while !stop.load(Ordering::Acquire) {
        let (status, body) = refresh(&server, &loot.refresh_token).await;
        match status {
            StatusCode::OK => {
                loot.refresh_token = body["refresh_token"].as_str().unwrap().to_owned();
                loot.access_token = Some(body["access_token"].as_str().unwrap().to_owned());
                loot.rotations += 1;
                done.store(loot.rotations, Ordering::Release);
            }
            StatusCode::UNAUTHORIZED => {
                assert_eq!(body["code"], "unauthorized", "{body}");
                loot.refused = true;
                return loot;
            }
            other => panic!("a refresh answered {other}: {body}"),
        }
    }
    loot
}

/// Refresh tokens still valid (neither spent nor revoked) in a family that
/// has a revoked token, or of a deleted account.
fn live_tokens_of_ended_sessions(database: &TestDatabase) -> i64 {
    const SQL: &str = "SELECT COUNT(*) AS n FROM refresh_tokens t \
        WHERE t.revoked_at IS NULL AND t.used_at IS NULL AND ( \
            EXISTS (SELECT 1 FROM refresh_tokens r \
                    WHERE r.family_id = t.family_id AND r.revoked_at IS NOT NULL) \
            OR t.user_id IN (SELECT id FROM users WHERE deleted_at IS NOT NULL))";
    count(database, SQL)
}

/// The one number `sql` selects, as `n`.
#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

fn count(database: &TestDatabase, sql: &str) -> i64 {
    match database.url() {
        DatabaseUrl::Postgres(url) => count_on(&mut PgConnection::establish(&url).unwrap(), sql),
        DatabaseUrl::Sqlite(path) => {
            let mut conn = SqliteConnection::establish(&path.display().to_string()).unwrap();
            diesel::sql_query(sql)
                .get_result::<Count>(&mut conn)
                .unwrap()
                .n
        }
    }
}

fn count_on(conn: &mut PgConnection, sql: &str) -> i64 {
    diesel::sql_query(sql).get_result::<Count>(conn).unwrap().n
}

async fn register(server: &ServerProcess, name: &str) -> TestUser {
    server.register(name).await
}

/// [`TRIALS`] races of a thief's loop against the owner's `kind` of ending.
async fn thief_against(database: TestDatabase, kind: Ending) {
    let owners_side = start(&database);
    let thieves_side = Arc::new(start(&database));
    let postgres = matches!(database, TestDatabase::Postgres { .. });
    {
        for trial in 0..TRIALS {
            let owner = register(&owners_side, &format!("owner{trial}")).await;
            let done = Arc::new(AtomicUsize::new(0));
            let stop = Arc::new(AtomicBool::new(false));
            let loop_ = tokio::spawn(thief(
                thieves_side.clone(),
                owner.refresh_token.clone(),
                done.clone(),
                stop.clone(),
            ));
            let until = Instant::now() + Duration::from_secs(20);
            while done.load(Ordering::Acquire) < HEAD_START {
                assert!(Instant::now() < until, "the thief made no rotations");
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            kind.run(&owners_side, &owner).await;
            let ended = Instant::now();
            let stopper = {
                let stop = stop.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(AFTER_THE_END).await;
                    stop.store(true, Ordering::Release);
                })
            };
            let loot = loop_.await.unwrap();
            stopper.abort();
            assert!(
                loot.refused,
                "{kind:?}, trial {trial}: the thief still refreshed {:?} after the \
                 ending answered ({} rotations in all)",
                ended.elapsed(),
                loot.rotations
            );
            // Its last refresh token is refused on both processes.
            for server in [&owners_side, &*thieves_side] {
                let (status, body) = refresh(server, &loot.refresh_token).await;
                assert_eq!(status, StatusCode::UNAUTHORIZED, "{kind:?}: {body}");
            }
            // Its last access token: refused where the session ended
            // and, on PostgreSQL, told to every process at once.
            if let Some(access) = &loot.access_token {
                let mut servers = vec![&owners_side];
                if postgres {
                    servers.push(&*thieves_side);
                }
                for server in servers {
                    let until = Instant::now() + Duration::from_secs(5);
                    loop {
                        let (status, body) =
                            send(server, Method::GET, "/api/v1/me", Some(access), None).await;
                        if status == StatusCode::UNAUTHORIZED {
                            assert_eq!(body["code"], "unauthorized", "{body}");
                            break;
                        }
                        assert!(
                            Instant::now() < until,
                            "{kind:?}: the thief's access token still works: {body}"
                        );
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                }
            }
        }
    }
    assert_eq!(
        live_tokens_of_ended_sessions(&database),
        0,
        "refresh tokens are still valid in ended sessions"
    );
}

backend_tests! {
    async fn a_stolen_chain_dies_with_a_logout_by_the_stolen_token(database: TestDatabase) {
        thief_against(database, Ending::LogoutWithTheStolenToken).await;
    }

    async fn a_stolen_chain_dies_with_logging_out_everywhere(database: TestDatabase) {
        thief_against(database, Ending::LogoutEverywhere).await;
    }

    async fn a_stolen_chain_dies_with_a_password_change(database: TestDatabase) {
        thief_against(database, Ending::PasswordChange).await;
    }

    async fn a_stolen_chain_dies_with_the_accounts_deletion(database: TestDatabase) {
        thief_against(database, Ending::Deletion).await;
    }

    async fn a_deleted_account_keeps_no_game_made_while_it_was_deleted(database: TestDatabase) {
        const TRIALS: usize = 3;
        const OPEN_GAMES: usize = 40;
        let deleting_side = start(&database);
        let playing_side = Arc::new(start(&database));
        for trial in 0..TRIALS {
            let host = register(&deleting_side, &format!("host{trial}")).await;
            let mut open = Vec::new();
            for _ in 0..OPEN_GAMES {
                let (status, body) = send(
                    &deleting_side,
                    Method::POST,
                    "/api/v1/games",
                    Some(&host.access_token),
                    Some(json!({})),
                )
                .await;
                assert_eq!(status, StatusCode::CREATED, "{body}");
                open.push(body["id"].as_str().unwrap().to_owned());
            }
            let open = Arc::new(open);
            let leaver = register(&deleting_side, &format!("leaver{trial}")).await;
            let made = Arc::new(AtomicUsize::new(0));
            let created = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
            let finished = Arc::new(AtomicUsize::new(0));
            // The host takes the seats of the account's newest open games
            // meanwhile, until the account's clients are done.
            let guest = {
                let server = playing_side.clone();
                let token = host.access_token.clone();
                let created = created.clone();
                let finished = finished.clone();
                tokio::spawn(async move {
                    let until = Instant::now() + Duration::from_secs(30);
                    while finished.load(Ordering::Acquire) < 4 {
                        assert!(Instant::now() < until, "the account's clients never stopped");
                        let newest = created.lock().unwrap().last().cloned();
                        let Some(id) = newest else {
                            tokio::task::yield_now().await;
                            continue;
                        };
                        let path = format!("/api/v1/games/{id}/join");
                        let (status, body) =
                            send(&server, Method::POST, &path, Some(&token), Some(json!({}))).await;
                        // Joined (or already in it: 403), or the game was
                        // taken, ended or is the open game of an account
                        // deleted just now.
                        assert!(
                            [200, 403, 409].contains(&status.as_u16()),
                            "a join of the account's game answered {status}: {body}"
                        );
                    }
                })
            };
            // Two clients create open games and two take the host's seats,
            // each until the server refuses the account.
            let mut clients = Vec::new();
            for client in 0..4 {
                let server = playing_side.clone();
                let token = leaver.access_token.clone();
                let open = open.clone();
                let made = made.clone();
                let created = created.clone();
                let finished = finished.clone();
                clients.push(tokio::spawn(async move {
                    let until = Instant::now() + Duration::from_secs(30);
                    for round in 0.. {
                        assert!(Instant::now() < until, "the deleted account kept writing");
                        let (status, body) = if client < 2 {
                            let body = Some(json!({}));
                            send(&server, Method::POST, "/api/v1/games", Some(&token), body).await
                        } else {
                            let id = &open[(round * 2 + client) % open.len()];
                            let path = format!("/api/v1/games/{id}/join");
                            send(&server, Method::POST, &path, Some(&token), Some(json!({}))).await
                        };
                        match status.as_u16() {
                            200 | 201 => {
                                made.fetch_add(1, Ordering::AcqRel);
                                if status == StatusCode::CREATED {
                                    let id = body["id"].as_str().unwrap().to_owned();
                                    created.lock().unwrap().push(id);
                                }
                            }
                            401 => {
                                assert_eq!(body["code"], "unauthorized", "{body}");
                                finished.fetch_add(1, Ordering::AcqRel);
                                return;
                            }
                            // A seat another client of the account took.
                            403 | 409 => {}
                            _ => panic!("a write of the account answered {status}: {body}"),
                        }
                    }
                }));
            }
            let until = Instant::now() + Duration::from_secs(20);
            while made.load(Ordering::Acquire) < 4 {
                assert!(Instant::now() < until, "the account's clients made nothing");
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            let (status, body) = send(
                &deleting_side,
                Method::DELETE,
                "/api/v1/me",
                Some(&leaver.access_token),
                Some(json!({"password": PASSWORD})),
            )
            .await;
            assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
            for client in clients {
                client.await.unwrap();
            }
            guest.await.unwrap();
            let sql = format!(
                "SELECT COUNT(*) AS n FROM games \
                 WHERE status IN ('waiting', 'setup', 'playing') \
                 AND '{id}' IN (creator_id, red_user_id, blue_user_id, challenged_user_id)",
                id = leaver.id
            );
            assert_eq!(
                count(&database, &sql),
                0,
                "trial {trial}: games of the deleted account are still running \
                 ({} writes were made before the deletion)",
                made.load(Ordering::Acquire)
            );
        }
    }
}

backend_tests! {
    async fn a_token_of_an_account_that_does_not_exist_is_refused_everywhere(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let game = crate::support::start_game(&app, &ann, &bob, 1).await;
        let before = crate::support::game_view(&app, &game, &ann).await;
        let config = crate::harness::test_config(app.database().url());
        let tokens =
            api::auth::tokens::TokenService::new(&config, Arc::new(api::clock::SystemClock))
                .unwrap();
        let ghost = tokens
            .issue(Uuid::new_v4(), "ghost", Uuid::new_v4())
            .unwrap();
        let requests: Vec<(Method, String, Option<Value>)> = vec![
            (Method::GET, "/api/v1/me".into(), None),
            (Method::GET, "/api/v1/games".into(), None),
            (Method::POST, "/api/v1/games".into(), Some(json!({}))),
            (Method::GET, format!("/api/v1/games/{game}"), None),
            (Method::POST, format!("/api/v1/games/{game}/resign"), Some(json!({}))),
            (Method::POST, format!("/api/v1/games/{game}/join"), Some(json!({}))),
            (Method::GET, "/api/v1/me/setups".into(), None),
            (Method::DELETE, "/api/v1/me/sessions".into(), None),
            (Method::GET, "/api/v1/events".into(), None),
        ];
        for (method, path, body) in requests {
            let mut request = app.client.request(method.clone(), app.url(&path)).bearer_auth(&ghost);
            if let Some(body) = body {
                request = request.json(&body);
            }
            let response = request.send().await.unwrap();
            let problem = assert_problem(response, 401, "unauthorized").await;
            assert!(
                problem["detail"].as_str().unwrap().contains("no longer exists"),
                "{method} {path}: {problem}"
            );
        }
        // The game was not touched: the same version, the same view.
        let after = crate::support::game_view(&app, &game, &ann).await;
        assert_eq!(after["status"], "playing", "{after}");
        assert_eq!(after["version"], before["version"], "{after}");
        assert_eq!(after, before);
    }
}

backend_tests! {
    /// The moment a deletion commits, before it has ended the account's
    /// games: a move, a draw offer and a resignation of the account that
    /// were already past authentication (its session not yet known to have
    /// ended) are refused with 401, even one decided from the game as this
    /// process had just read it, and the game stays exactly as it was.
    async fn a_deleted_account_acts_in_none_of_its_games(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let game = crate::support::start_game(&app, &ann, &bob, 3).await;
        // Ann's view: the game as this process keeps it, to decide from.
        let view = crate::support::game_view(&app, &game, &ann).await;
        let before = crate::support::game_view(&app, &game, &bob).await;
        // What the deletion's transaction does to the account (and, by its
        // trigger, to the game's kept names); its sessions and its games
        // are left as they were at that instant.
        let id = ann.id.clone();
        api::db::run(&app.pool, move |conn| {
            use api::schema::users;
            use diesel::prelude::*;
            diesel::update(users::table.filter(users::id.eq(&id)))
                .set((
                    users::deleted_at.eq(diesel::dsl::now),
                    users::username.eq("[deleted]"),
                    users::username_key.eq(format!("deleted:{id}")),
                ))
                .execute(conn)?;
            Ok(())
        })
        .await
        .unwrap();
        let legal = &view["legal_moves"][0];
        let path = |what: &str| format!("/api/v1/games/{game}/{what}");
        let requests = [
            (
                path("moves"),
                json!({"from": legal["from"], "to": legal["to"],
                       "expected_version": view["version"]}),
            ),
            (path("draw"), json!({"action": "offer"})),
            (path("resign"), json!({})),
        ];
        for (path, body) in requests {
            let response = app.post_json(&path, Some(&ann.access_token), &body).await;
            let problem = assert_problem(response, 401, "unauthorized").await;
            assert!(
                problem["detail"].as_str().unwrap().contains("no longer exists"),
                "{path}: {problem}"
            );
        }
        let after = crate::support::game_view(&app, &game, &bob).await;
        assert_eq!(after["version"], before["version"], "{after}");
        assert_eq!(after["status"], "playing", "{after}");
        assert_eq!(after["board"], before["board"], "{after}");
    }
}

postgres_tests! {
    /// A join that PostgreSQL ends in a deadlock wrote nothing, and is
    /// tried again from a read rather than answered 503 (docs/storage.md,
    /// "Lock order"). A transaction takes the creator's account row, as a
    /// deletion does before it renames the account in its games, waits
    /// until the join holds the game and asks for that row (the join's
    /// trigger), and then asks for the game. Its own deadlock check is put
    /// off, so that PostgreSQL ends the join's statement, not it.
    async fn a_join_that_loses_a_deadlock_is_tried_again(app) {
        let ann = app.register_user("deadlock_ann").await;
        let bob = app.register_user("deadlock_bob").await;
        let game = crate::support::create_game(&app, &ann, &json!({})).await;
        let DatabaseUrl::Postgres(url) = app.database().url() else {
            panic!("a PostgreSQL test on another database");
        };
        let (locked, holding) = std::sync::mpsc::channel();
        let blocker = {
            let (ann_id, game) = (ann.id.clone(), game.clone());
            std::thread::spawn(move || -> Result<usize, String> {
                use diesel::connection::SimpleConnection;
                use diesel::sql_types::Text;
                let mut conn = PgConnection::establish(&url).unwrap();
                conn.batch_execute("SET deadlock_timeout = '30s'; BEGIN").unwrap();
                diesel::sql_query("SELECT id FROM users WHERE id = $1 FOR UPDATE")
                    .bind::<Text, _>(&ann_id)
                    .execute(&mut conn)
                    .unwrap();
                locked.send(()).unwrap();
                let mut watcher = PgConnection::establish(&url).unwrap();
                let until = Instant::now() + Duration::from_secs(20);
                while count_on(&mut watcher, WAITING_FOR_A_LOCK) == 0 {
                    assert!(Instant::now() < until, "the join never waited for the account");
                    std::thread::sleep(Duration::from_millis(5));
                }
                let took_the_game = diesel::sql_query(
                    "UPDATE games SET updated_at = updated_at WHERE id = $1",
                )
                .bind::<Text, _>(&game)
                .execute(&mut conn)
                .map_err(|error| error.to_string());
                conn.batch_execute("ROLLBACK").unwrap();
                took_the_game
            })
        };
        tokio::task::spawn_blocking(move || holding.recv().unwrap()).await.unwrap();
        let path = format!("/api/v1/games/{game}/join");
        let joined = app.post_json(&path, Some(&bob.access_token), &json!({})).await;
        let status = joined.status();
        let body: Value = joined.json().await.unwrap();
        // The join was the one PostgreSQL ended: the other transaction got
        // the game it held.
        assert_eq!(blocker.join().unwrap(), Ok(1), "the join did not lose the deadlock");
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["status"], "setup", "{body}");
        assert_eq!(body["version"], 2, "{body}");
    }
}

/// Other connections to this database waiting for a lock now.
const WAITING_FOR_A_LOCK: &str = "SELECT count(*)::bigint AS n FROM pg_stat_activity \
    WHERE datname = current_database() AND wait_event_type = 'Lock' \
    AND pid <> pg_backend_pid()";
