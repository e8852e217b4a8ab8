//! The bot opponents (docs/bots.md): listed without a token, nobody can
//! log in as one or take its name; a user challenges each bot and plays a
//! whole game through the API, the bot answering every move, draw offer
//! and setup by itself; on PostgreSQL two servers on one database answer
//! each bot move exactly once; a claim left by a stopped server runs out
//! and the move is made after all.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::contract::Contract;
use crate::harness::{assert_problem, test_config, TestApp, TestUser, PASSWORD};
use crate::support::{
    create_game, game_view, place_setup, play_move, post_ok, relogin, sweep, Server,
};

/// Generous: a bot answers in milliseconds here; this only stops a test
/// that would otherwise wait forever.
const PATIENCE: Duration = Duration::from_secs(60);

/// Waits (long polls) until game `id` passes `version`; returns the view
/// and how long it took.
async fn after_version(
    app: &impl Server,
    id: &str,
    user: &TestUser,
    version: i64,
) -> (Value, Duration) {
    let started = Instant::now();
    loop {
        let path = format!("/api/v1/games/{id}?wait_for_version={version}&wait=5");
        let response = app.get_as(&path, user).await;
        assert_eq!(response.status(), 200);
        let view: Value = response.json().await.unwrap();
        if view["version"].as_i64().unwrap() > version {
            return (view, started.elapsed());
        }
        assert!(
            started.elapsed() < PATIENCE,
            "nobody answered in game {id} after version {version}: {view}"
        );
    }
}

/// `user` challenges a bot with `body`; waits until the bot has accepted
/// and placed its setup (`bot_color`'s), and returns the game and its view.
async fn challenge(
    app: &impl Server,
    user: &TestUser,
    body: &Value,
    bot_color: &str,
) -> (String, Value) {
    let id = create_game(app, user, body).await;
    let mut view = game_view(app, &id, user).await;
    while view["setup_done"][bot_color] != true {
        let version = view["version"].as_i64().unwrap();
        view = after_version(app, &id, user, version).await.0;
    }
    (id, view)
}

/// A legal move from `view` (an attack when there is one), with the
/// view's version as `expected_version`.
fn pick_move(view: &Value, pick: usize) -> Value {
    let moves = view["legal_moves"].as_array().unwrap();
    let theirs = |square: &Value| {
        view["board"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| &p["square"] == square && p["color"] != view["you"])
    };
    let attacks: Vec<&Value> = moves.iter().filter(|m| theirs(&m["to"])).collect();
    let chosen = if attacks.is_empty() {
        &moves[pick % moves.len()]
    } else {
        attacks[pick % attacks.len()]
    };
    json!({"from": chosen["from"], "to": chosen["to"], "expected_version": view["version"]})
}

/// What a whole game against a bot showed.
struct Played {
    id: String,
    view: Value,
    /// How long each bot answer took to arrive (for the report only).
    answers: Vec<Duration>,
}

/// `user` challenges `bot` (playing `color`), places a random setup and
/// plays legal moves from the view (attacks first) until the game ends;
/// every bot answer must be exactly one new version.
async fn play_against(
    app: &impl Server,
    user: &TestUser,
    bot: &str,
    color: &str,
    variant: &str,
    rules: Value,
) -> Played {
    let body = json!({"variant": variant, "color": color, "opponent": bot,
                      "days_per_move": 3, "rules": rules});
    // The bot accepts and places its setup: two versions, on its own.
    let bot_color = if color == "red" { "blue" } else { "red" };
    let (id, view) = challenge(app, user, &body, bot_color).await;
    assert_eq!(view["status"], "setup", "{view}");
    assert_eq!(
        view["version"], 3,
        "created, accepted, the bot's setup: {view}"
    );
    let mut view = place_setup(app, &id, user, 5).await;
    let mut answers = Vec::new();
    let mut pick = 0;
    while view["result"].is_null() {
        let version = view["version"].as_i64().unwrap();
        if view["legal_moves"].is_array() {
            let answer = post_ok(
                app,
                &format!("/api/v1/games/{id}/moves"),
                user,
                &pick_move(&view, pick),
                200,
            )
            .await;
            pick += 7;
            view = answer["game"].clone();
            assert_eq!(view["version"], version + 1, "{view}");
            continue;
        }
        // The bot's turn: exactly one move, by the bot.
        let (next, took) = after_version(app, &id, user, version).await;
        assert_eq!(next["version"], version + 1, "one answer per turn: {next}");
        assert_ne!(next["last_move"]["color"], view["you"], "{next}");
        answers.push(took);
        view = next;
    }
    assert_eq!(view["status"], "finished", "{view}");
    Played { id, view, answers }
}

/// The history of a finished game: plies 1, 2, .. with the colors taking
/// turns (no move twice, none missing).
async fn assert_history_alternates(app: &impl Server, played: &Played, user: &TestUser) {
    let history =
        crate::support::get_json(app, &format!("/api/v1/games/{}/moves", played.id), user).await;
    let moves = history["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, played.view["ply"].as_u64().unwrap());
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i + 1, "{m}");
        if i > 0 {
            assert_ne!(
                m["color"],
                moves[i - 1]["color"],
                "ply {} repeats a color",
                i + 1
            );
        }
    }
}

backend_tests! {
    async fn bots_are_listed_without_a_token(app) {
        let response = app.get("/api/v1/bots", None).await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "public, max-age=3600");
        let body: Value = response.json().await.unwrap();
        Contract::new().check("list_bots", 200, &body);
        let bots = body["bots"].as_array().unwrap();
        let names: Vec<&str> = bots.iter().map(|b| b["username"].as_str().unwrap()).collect();
        assert_eq!(names, ["bot-random", "bot-tactician"]);
        for bot in bots {
            assert!(bot["description"].as_str().is_some_and(|d| d.len() > 20), "{bot}");
        }
        assert!(bots[0]["strength"].as_u64() < bots[1]["strength"].as_u64(), "{body}");
    }

    async fn nobody_logs_in_as_a_bot_or_takes_its_name(app) {
        for name in ["bot-random", "bot-tactician"] {
            for password in [PASSWORD, "", "!bot: no password matches"] {
                assert_problem(app.login(name, password).await, 401, "unauthorized").await;
            }
            assert_problem(app.register(name, PASSWORD).await, 409, "username_taken").await;
        }
    }

    /// A whole game against each bot, in every variant between them, with
    /// the bot as Blue and as Red, and with a ruleset other than the
    /// default: the bot accepts, sets up and answers every move.
    async fn a_user_plays_whole_games_against_each_bot(app, config = |c| c.bot_think_millis = 200) {
        let ann = app.register_user("ann").await;
        let capped = json!({"max_plies": 80});
        let tournament = json!({"max_plies": 60, "more_squares_rule": true,
                                "silent_defense": true, "aggressor_advantage": true});
        for (bot, color, variant, rules) in [
            ("bot-random", "red", "duel", capped.clone()),
            ("bot-tactician", "red", "classic", capped.clone()),
            ("bot-tactician", "blue", "barrage", tournament),
            ("bot-random", "blue", "classic", capped),
        ] {
            let played = play_against(&app, &ann, bot, color, variant, rules).await;
            assert!(!played.view["result"]["reason"].is_null(), "{}", played.view);
            assert!(!played.answers.is_empty(), "{bot} never moved");
            assert_history_alternates(&app, &played, &ann).await;
            let slowest = played.answers.iter().max().unwrap();
            println!("{bot} in {variant}: {} answers, slowest arrived after {slowest:?}",
                     played.answers.len());
        }
    }

    /// A bot offered a draw answers it: the random bot declines, and the
    /// offer is gone; the game goes on.
    async fn a_bot_answers_a_draw_offer(app) {
        let ann = app.register_user("ann").await;
        let body = json!({"variant": "duel", "color": "red", "opponent": "bot-random"});
        let (id, _) = challenge(&app, &ann, &body, "blue").await;
        let view = place_setup(&app, &id, &ann, 3).await;
        assert_eq!(view["turn"], "red");
        let path = format!("/api/v1/games/{id}/draw");
        let offered = post_ok(&app, &path, &ann, &json!({"action": "offer"}), 200).await;
        assert_eq!(offered["draw_offer"], "red");
        let version = offered["version"].as_i64().unwrap();
        let (answered, _) = after_version(&app, &id, &ann, version).await;
        assert_eq!(answered["draw_offer"], Value::Null, "{answered}");
        assert_eq!(answered["status"], "playing");
        assert_eq!(answered["turn"], "red", "declining is not a move");
        assert!(answered["legal_moves"].is_array());
    }

    /// A server that claimed a bot's move and stopped leaves a claim behind:
    /// a look of the bot makes no move while it holds (and the bot does not
    /// lose on time meanwhile), and once it has run out the next look
    /// (every second here) makes the move.
    async fn a_claim_left_by_a_stopped_server_runs_out(app, config = |c| c.bot_rescan_seconds = 1) {
        let mut ann = app.register_user("ann").await;
        let body = json!({"variant": "barrage", "color": "red", "opponent": "bot-tactician"});
        let (id, _) = challenge(&app, &ann, &body, "blue").await;
        let view = place_setup(&app, &id, &ann, 9).await;
        let turn = view["version"].as_i64().unwrap() + 1;
        // A server claims the version Ann's move will make, then stops.
        claim(&app, &id, turn, chrono::Duration::hours(1)).await;
        play_move(&app, &id, &ann, 0).await;
        // One look of the bot, as its worker makes them: nothing to do
        // while another server's claim holds.
        let bot = api::games::bots::BOTS
            .into_iter()
            .find(|bot| bot.username == "bot-tactician")
            .unwrap();
        let settings = api::games::bot_worker::BotSettings {
            think: Duration::from_millis(50),
            rescan: Duration::from_secs(1),
        };
        let actions = api::games::bot_worker::serve(&app.games, &bot, settings).await;
        assert_eq!(actions.unwrap(), 0, "the bot moved under another's claim");
        let waiting = game_view(&app, &id, &ann).await;
        assert_eq!(waiting["version"], turn, "someone moved under another's claim: {waiting}");
        assert_eq!(waiting["turn"], "blue");
        // Meanwhile its deadline passes: a bot never loses on time.
        app.clock.advance(chrono::Duration::days(4));
        relogin(&app, &mut ann).await;
        assert_eq!(sweep(&app).await, 0, "the sweep ended a game on a bot's turn");
        let late = game_view(&app, &id, &ann).await;
        assert_eq!(late["status"], "playing", "{late}");
        assert_eq!(late["version"], turn);
        // The claim runs out.
        claim(&app, &id, turn, chrono::Duration::hours(-2)).await;
        let (moved, _) = after_version(&app, &id, &ann, turn).await;
        assert_eq!(moved["version"], turn + 1, "{moved}");
        assert_eq!(moved["last_move"]["color"], "blue");
    }
}

/// Writes a claim on `game` at `version` that holds for `hold` from now
/// (negative: it ran out), as a server process would have.
async fn claim(app: &TestApp, game: &str, version: i64, hold: chrono::Duration) {
    use api::schema::bot_claims;
    use diesel::prelude::*;
    let pool = app.pool.clone();
    let game = game.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut conn = pool.get().unwrap();
        let until = api::storage::to_db_time(chrono::Utc::now() + hold);
        diesel::delete(bot_claims::table.filter(bot_claims::game_id.eq(&game)))
            .execute(&mut *conn)
            .unwrap();
        diesel::insert_into(bot_claims::table)
            .values((
                bot_claims::game_id.eq(&game),
                bot_claims::version.eq(version),
                bot_claims::claimed_until.eq(until),
            ))
            .execute(&mut *conn)
            .unwrap();
    })
    .await
    .unwrap();
}

/// A second server on the test's database, in this process.
struct Replica {
    handle: api::ServerHandle,
}

impl Replica {
    async fn start(app: &TestApp) -> Self {
        let application =
            api::Application::build(test_config(app.database().url()), app.clock.clone())
                .await
                .expect("the replica starts");
        let handle = application.handle();
        tokio::spawn(application.run_until_stopped());
        Self { handle }
    }

    async fn stop(self) {
        self.handle.stop(true).await;
    }
}

postgres_tests! {
    /// Two servers on one database both hear of every change in a bot's
    /// games; each bot move is still made once: every turn of the bot is
    /// one new version, and the history alternates without a repeat.
    async fn two_servers_answer_each_bot_move_once(app) {
        let replica = Replica::start(&app).await;
        let ann = app.register_user("ann").await;
        for (bot, variant) in [("bot-tactician", "classic"), ("bot-random", "barrage")] {
            let played = play_against(&app, &ann, bot, "red", variant,
                                      json!({"max_plies": 120})).await;
            assert_history_alternates(&app, &played, &ann).await;
            let actions = count_actions(&app, &played.id).await;
            assert_eq!(actions, played.view["ply"].as_i64().unwrap(),
                       "one logged action per ply, no extra move: {}", played.view);
        }
        replica.stop().await;
    }
}

/// The rows of game `id`'s action log.
async fn count_actions(app: &TestApp, id: &str) -> i64 {
    use api::schema::game_actions;
    use diesel::prelude::*;
    let pool = app.pool.clone();
    let id = id.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut conn = pool.get().unwrap();
        game_actions::table
            .filter(game_actions::game_id.eq(&id))
            .count()
            .get_result(&mut *conn)
            .unwrap()
    })
    .await
    .unwrap()
}
