//! The helpers the tests share (the server itself is in `harness.rs`):
//! requests as a user, games started in a few calls, moves chosen with the
//! `domain` crate against a local copy of the full truth, and the reminder
//! and deadline passes run by hand. The event feed (long polls and
//! Server-Sent Events) is in `event_feed.rs`, re-exported here so that
//! `use crate::support::*;` brings it too.

use domain::rng::SplitMix64;
use domain::{Action, Color, Game, Move, Rescue, Rules, Setup, Variant, Viewer};
use serde_json::{json, Value};

use crate::harness::{test_config, TestApp, TestUser};

pub use crate::event_feed::*;

// --- Talking to a server ------------------------------------------------

/// A server to talk to: one started in-process ([`TestApp`]) or a separate
/// server process (events_processes.rs). Only used inside this test crate,
/// so the futures' missing `Send` bound does not matter.
#[allow(async_fn_in_trait)]
pub trait Server {
    fn client(&self) -> &reqwest::Client;
    fn base(&self) -> &str;

    fn at(&self, path: &str) -> String {
        format!("{}{path}", self.base())
    }

    async fn get_as(&self, path: &str, user: &TestUser) -> reqwest::Response {
        self.client()
            .get(self.at(path))
            .bearer_auth(&user.access_token)
            .send()
            .await
            .unwrap()
    }

    async fn post_as(&self, path: &str, user: &TestUser, body: &Value) -> reqwest::Response {
        self.client()
            .post(self.at(path))
            .bearer_auth(&user.access_token)
            .json(body)
            .send()
            .await
            .unwrap()
    }
}

impl Server for TestApp {
    fn client(&self) -> &reqwest::Client {
        &self.client
    }
    fn base(&self) -> &str {
        &self.address
    }
}

/// POSTs `body` as `user` and returns the JSON answer, asserting the status.
pub async fn post_ok(
    app: &impl Server,
    path: &str,
    user: &TestUser,
    body: &Value,
    status: u16,
) -> Value {
    let response = app.post_as(path, user, body).await;
    assert_eq!(response.status().as_u16(), status, "POST {path} {body}");
    response.json().await.unwrap()
}

/// GETs `path` as `user`; asserts 200 and returns the JSON answer.
pub async fn get_json(app: &impl Server, path: &str, user: &TestUser) -> Value {
    let response = app.get_as(path, user).await;
    assert_eq!(response.status().as_u16(), 200, "GET {path}");
    response.json().await.unwrap()
}

/// POSTs a raw body with `content-type: application/json`.
pub async fn post_raw(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> reqwest::Response {
    let mut request = app
        .client
        .post(app.url(path))
        .header("content-type", "application/json")
        .body(body.to_owned());
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

// --- Users --------------------------------------------------------------

/// A fixed classic setup for Red, ranks 1-4 from a to j (Blue mirrors it on
/// ranks 10-7). Rank 4: a4 marshal, b4-d4 scouts, e4 bomb, f4-j4 scouts.
pub const CLASSIC_RANKS: [[&str; 10]; 4] = [
    [
        "flag", "bomb", "bomb", "bomb", "bomb", "bomb", "spy", "miner", "miner", "miner",
    ],
    [
        "miner",
        "miner",
        "sergeant",
        "sergeant",
        "sergeant",
        "sergeant",
        "lieutenant",
        "lieutenant",
        "lieutenant",
        "lieutenant",
    ],
    [
        "captain", "captain", "captain", "captain", "major", "major", "major", "colonel",
        "colonel", "general",
    ],
    [
        "marshal", "scout", "scout", "scout", "bomb", "scout", "scout", "scout", "scout", "scout",
    ],
];

const FILES: [char; 10] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

/// The fixed classic placement for `color` as JSON (`{"a1": "flag", ...}`).
pub fn fixed_placement(color: Color) -> Value {
    let mut placement = serde_json::Map::new();
    for (row, pieces) in CLASSIC_RANKS.iter().enumerate() {
        let rank = match color {
            Color::Red => row + 1,
            Color::Blue => 10 - row,
        };
        for (file, piece) in pieces.iter().enumerate() {
            placement.insert(format!("{}{rank}", FILES[file]), json!(piece));
        }
    }
    Value::Object(placement)
}

/// The fixed placement as a domain setup (for the local copy).
pub fn fixed_setup(color: Color) -> Setup {
    let placement: domain::Placement = serde_json::from_value(fixed_placement(color)).unwrap();
    placement.validate(Variant::Classic, color).unwrap()
}

/// A game between two users, with the full truth kept locally.
pub struct Match {
    pub id: String,
    pub red: TestUser,
    pub blue: TestUser,
    pub local: Game,
    pub version: i64,
}

impl Match {
    /// `color` made `m` (no rescue) on the server: the local copy follows.
    pub fn moved(&mut self, color: Color, m: Move) {
        let action = Action::Move {
            from: m.from,
            to: m.to,
            rescue: None,
        };
        self.local.apply(color, action).unwrap();
        self.version += 1;
    }

    pub fn user(&self, color: Color) -> &TestUser {
        match color {
            Color::Red => &self.red,
            Color::Blue => &self.blue,
        }
    }

    pub fn path(&self, tail: &str) -> String {
        format!("/api/v1/games/{}{tail}", self.id)
    }
}

/// Registers `ann`/`bo`-style users with this prefix.
pub async fn two_users(app: &TestApp, prefix: &str) -> (TestUser, TestUser) {
    let red = app.register_user(&format!("{prefix}_red")).await;
    let blue = app.register_user(&format!("{prefix}_blue")).await;
    (red, blue)
}

/// Logs `user` in again (after the test clock jumped past the access
/// token's lifetime); both of `user`'s tokens are replaced.
pub async fn relogin(app: &TestApp, user: &mut TestUser) {
    let response = app.login(&user.username, &user.password).await;
    assert_eq!(
        response.status().as_u16(),
        200,
        "login of {}",
        user.username
    );
    let body: Value = response.json().await.unwrap();
    user.access_token = body["access_token"].as_str().unwrap().to_owned();
    user.refresh_token = body["refresh_token"].as_str().unwrap().to_owned();
}

// --- Games ----------------------------------------------------------------

/// Creates a game as `creator` with this request body; asserts that it
/// waits for its opponent and returns its id.
pub async fn create_game(app: &impl Server, creator: &TestUser, body: &Value) -> String {
    let created = post_ok(app, "/api/v1/games", creator, body, 201).await;
    assert_eq!(created["status"], "waiting", "{created}");
    created["id"].as_str().unwrap().to_owned()
}

/// `user` takes the open seat of game `id` (or accepts its challenge);
/// asserts that the setup phase begins and returns the view.
pub async fn join_game(app: &impl Server, id: &str, user: &TestUser) -> Value {
    let path = format!("/api/v1/games/{id}/join");
    let joined = post_ok(app, &path, user, &json!({}), 200).await;
    assert_eq!(joined["status"], "setup", "{joined}");
    // The answer names the user who just sat down, as every later view does.
    let seated = ["red", "blue"]
        .map(|seat| &joined["players"][seat])
        .into_iter()
        .find(|player| player["id"] == user.id.as_str())
        .unwrap_or_else(|| panic!("{} is not seated: {joined}", user.username));
    assert_eq!(seated["username"], user.username.as_str(), "{joined}");
    joined
}

/// Creates an open game (3 days per move) with `red` as Red and seats
/// `blue`; returns its id.
pub async fn seated_game(
    app: &impl Server,
    red: &TestUser,
    blue: &TestUser,
    variant: Variant,
    rules: &Rules,
) -> String {
    let body = json!({"variant": variant, "rules": rules, "color": "red", "days_per_move": 3});
    let id = create_game(app, red, &body).await;
    join_game(app, &id, blue).await;
    id
}

/// Places the random setup of `seed` for `user`; returns the view.
pub async fn place_setup(app: &impl Server, id: &str, user: &TestUser, seed: u64) -> Value {
    let path = format!("/api/v1/games/{id}/setup");
    let body = json!({"random": true, "seed": seed});
    post_ok(app, &path, user, &body, 200).await
}

/// A classic game in which `red` challenged `blue`, who accepted; both
/// setups are in (random, seeded) and Red is to move. Returns the game id.
pub async fn start_game(app: &impl Server, red: &TestUser, blue: &TestUser, days: u32) -> String {
    let body = json!({"variant": "classic", "color": "red", "opponent": blue.username,
                      "days_per_move": days});
    let id = create_game(app, red, &body).await;
    join_game(app, &id, blue).await;
    place_setup(app, &id, red, 11).await;
    place_setup(app, &id, blue, 12).await;
    let view = game_view(app, &id, red).await;
    assert_eq!(view["status"], "playing");
    assert_eq!(view["turn"], "red");
    id
}

/// Game `id` as `user` sees it.
pub async fn game_view(app: &impl Server, id: &str, user: &TestUser) -> Value {
    get_json(app, &format!("/api/v1/games/{id}"), user).await
}

/// A game in play with both random setups from `seed` (exactly as
/// `domain::playout::random_game` builds them).
pub async fn random_match(
    app: &TestApp,
    red: TestUser,
    blue: TestUser,
    variant: Variant,
    rules: Rules,
    seed: u64,
) -> Match {
    let id = seated_game(app, &red, &blue, variant, &rules).await;
    place_setup(app, &id, &red, seed).await;
    let view = place_setup(app, &id, &blue, seed).await;
    assert_eq!(view["status"], "playing", "{view}");
    Match {
        id,
        red,
        blue,
        local: domain::playout::random_game(variant, rules, seed).unwrap(),
        version: view["version"].as_i64().unwrap(),
    }
}

/// A classic game in play with the fixed setups of [`CLASSIC_RANKS`].
pub async fn fixed_match(app: &TestApp, red: TestUser, blue: TestUser, rules: Rules) -> Match {
    let id = seated_game(app, &red, &blue, Variant::Classic, &rules).await;
    let path = format!("/api/v1/games/{id}/setup");
    post_ok(
        app,
        &path,
        &red,
        &json!({"placement": fixed_placement(Color::Red)}),
        200,
    )
    .await;
    let view = post_ok(
        app,
        &path,
        &blue,
        &json!({"placement": fixed_placement(Color::Blue)}),
        200,
    )
    .await;
    assert_eq!(view["status"], "playing", "{view}");
    Match {
        id,
        red,
        blue,
        local: Game::new(
            Variant::Classic,
            rules,
            fixed_setup(Color::Red),
            fixed_setup(Color::Blue),
        )
        .unwrap(),
        version: view["version"].as_i64().unwrap(),
    }
}

pub fn move_body(m: Move, rescue: Option<Rescue>, version: Option<i64>) -> Value {
    let mut body = json!({"from": m.from.to_string(), "to": m.to.to_string()});
    if let Some(r) = rescue {
        body["rescue"] = json!({"piece": r.piece, "square": r.square.to_string()});
    }
    if let Some(v) = version {
        body["expected_version"] = json!(v);
    }
    body
}

/// Posts a move by the player to move; asserts it is accepted, applies it
/// to the local copy, and checks the answer against the local truth: the
/// move and the board exactly as the domain shows them to the mover.
pub async fn play(app: &TestApp, game: &mut Match, m: Move, rescue: Option<Rescue>) -> Value {
    let color = game.local.turn();
    let response = app
        .post_json(
            &game.path("/moves"),
            Some(&game.user(color).access_token),
            &move_body(m, rescue, Some(game.version)),
        )
        .await;
    assert_eq!(response.status().as_u16(), 200, "move {m} by {color}");
    let answer: Value = response.json().await.unwrap();
    let applied = game
        .local
        .apply(
            color,
            Action::Move {
                from: m.from,
                to: m.to,
                rescue,
            },
        )
        .unwrap();
    let record = applied.record.unwrap();
    let mover = Viewer::Player(color);
    assert_eq!(
        answer["move"],
        serde_json::to_value(game.local.move_view(&record, mover)).unwrap()
    );
    assert_view_matches(&answer["game"], &game.local, mover);
    assert_eq!(answer["game"]["version"], game.version + 1);
    game.version += 1;
    answer
}

/// The parts of a view that come from the domain equal the domain's own
/// view for that viewer: the same pieces, ranks, captures and legal moves.
pub fn assert_view_matches(view: &Value, local: &Game, viewer: Viewer) {
    let truth = serde_json::to_value(local.view(viewer)).unwrap();
    for field in [
        "board",
        "captured",
        "last_move",
        "draw_offer",
        "result",
        "ply",
        "turn",
    ] {
        assert_eq!(view[field], truth[field], "field {field} for {viewer:?}");
    }
    assert_eq!(
        view.get("legal_moves").cloned().unwrap_or(Value::Null),
        truth["legal_moves"],
        "legal_moves for {viewer:?}"
    );
}

/// Checks one view against the full truth: every rank shown is one the
/// viewer may know (own piece, revealed, or the game is over), and every
/// rank the viewer may know is shown.
pub fn scan_view(view: &Value, truth: &Game, viewer: Viewer) {
    let finished = truth.is_finished();
    for shown in view["board"].as_array().unwrap() {
        let square = shown["square"].as_str().unwrap().parse().unwrap();
        let real = truth.full_truth().piece_on(square).unwrap();
        let own = viewer == Viewer::Player(real.color);
        if shown["piece"].is_string() {
            assert!(
                own || real.revealed || finished,
                "{viewer:?} sees the hidden {square}"
            );
            assert_eq!(shown["piece"], json!(real.piece));
        } else {
            assert!(
                !own && !real.revealed && !finished,
                "{viewer:?} misses {square}"
            );
            assert!(shown["strength"].is_null());
        }
    }
    assert_view_matches(view, truth, viewer);
}

/// Plays uniformly random legal moves (as `domain::playout::random_playout`
/// picks them from `seed`) until the game ends or `max_plies` were played.
pub async fn play_random(app: &TestApp, game: &mut Match, seed: u64, max_plies: u32) {
    let mut rng = SplitMix64::new(seed);
    let mut plies = 0;
    while !game.local.is_finished() && plies < max_plies {
        let moves = game.local.legal_moves();
        let m = moves[rng.below(moves.len())];
        play(app, game, m, None).await;
        plies += 1;
    }
}

/// Plays a legal move for `user` (who must be on turn): an attack when
/// there is one, otherwise a move picked by `pick`. Returns (from, to).
pub async fn play_move(
    app: &impl Server,
    id: &str,
    user: &TestUser,
    pick: usize,
) -> (String, String) {
    let view = game_view(app, id, user).await;
    let moves = view["legal_moves"].as_array().expect("legal moves on turn");
    assert!(!moves.is_empty());
    let me = view["you"].as_str().unwrap();
    let attacks: Vec<&Value> = moves
        .iter()
        .filter(|m| {
            view["board"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["square"] == m["to"] && p["color"].as_str() != Some(me))
        })
        .collect();
    let chosen = if attacks.is_empty() {
        &moves[pick % moves.len()]
    } else {
        attacks[pick % attacks.len()]
    };
    let from = chosen["from"].as_str().unwrap().to_owned();
    let to = chosen["to"].as_str().unwrap().to_owned();
    let response = app
        .post_as(
            &format!("/api/v1/games/{id}/moves"),
            user,
            &json!({"from": from, "to": to, "expected_version": view["version"]}),
        )
        .await;
    assert_eq!(response.status(), 200, "move {from}-{to}");
    (from, to)
}

// --- Passes run by hand -----------------------------------------------------

/// Runs the deadline sweep once, as the background task does (the test
/// configuration parks the background task, so only the test sweeps).
pub async fn sweep(app: &TestApp) -> usize {
    api::games::clock::sweep_overdue(&app.games, app.now())
        .await
        .unwrap()
}

// --- The stored log ---------------------------------------------------------

/// Replays the log of every game in play or finished and compares with the
/// stored state (loading never replays; this checks that it could).
pub async fn assert_logs_replay(app: &TestApp) -> usize {
    use api::schema::{game_actions, games};
    use api::storage::games::{ActionRow, GameRow};
    use diesel::prelude::*;
    let (rows, actions) = api::db::run_as::<_, api::ApiError, _>(&app.pool, |conn| {
        let rows: Vec<GameRow> = games::table
            .filter(games::state.is_not_null())
            .select(GameRow::as_select())
            .load(conn)?;
        let actions: Vec<ActionRow> = game_actions::table
            .order((game_actions::game_id, game_actions::seq))
            .select(ActionRow::as_select())
            .load(conn)?;
        Ok((rows, actions))
    })
    .await
    .unwrap();
    for row in &rows {
        let record = api::games::GameRecord::from_row(row).unwrap();
        let mut game = Game::new(
            record.variant,
            record.rules,
            record.setups.get(Color::Red).cloned().unwrap(),
            record.setups.get(Color::Blue).cloned().unwrap(),
        )
        .unwrap();
        let mut last_seq = 0;
        for action in actions.iter().filter(|a| a.game_id == row.id) {
            assert!(action.seq > last_seq && action.seq <= record.version);
            last_seq = action.seq;
            let color: Color = action.color.parse().unwrap();
            let act: Action = serde_json::from_str(&action.action).unwrap();
            let applied = game.apply(color, act).unwrap();
            let logged = action
                .record
                .as_deref()
                .map(|r| serde_json::from_str::<domain::MoveRecord>(r).unwrap());
            assert_eq!(applied.record, logged);
        }
        assert_eq!(Some(&game), record.game(), "game {}", row.id);
        assert_eq!(row.ply, game.ply() as i32);
    }
    rows.len()
}

/// Runs `sql` (one `bigint` column named `n`, `param` as its text `$1`)
/// on a PostgreSQL test's database.
pub async fn pg_number(app: &TestApp, sql: &'static str, param: &'static str) -> i64 {
    use diesel::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let pool = app.pool.clone();
    tokio::task::spawn_blocking(move || {
        let mut conn = pool.get().unwrap();
        let api::db::DbConnection::Postgresql(pg) = &mut *conn else {
            unreachable!("a PostgreSQL test")
        };
        diesel::sql_query(sql)
            .bind::<diesel::sql_types::Text, _>(param)
            .get_result::<N>(pg)
            .unwrap()
            .n
    })
    .await
    .unwrap()
}

/// Another server on `app`'s database.
pub struct Replica {
    url: String,
    /// Its game service, to run what its own tasks run.
    pub games: api::games::Context,
    client: reqwest::Client,
    /// Stops the server, and says when it has.
    stop: tokio::sync::oneshot::Sender<tokio::sync::oneshot::Sender<()>>,
}

impl Replica {
    pub async fn start(app: &TestApp) -> Replica {
        Replica::start_with(app, |_| {}).await
    }

    /// [`Replica::start`] with [`test_config`] changed by `customize`.
    pub async fn start_with(
        app: &TestApp,
        customize: impl FnOnce(&mut api::config::Config),
    ) -> Replica {
        let mut config = test_config(app.database().url());
        customize(&mut config);
        let replica = api::Application::build(config, app.clock.clone())
            .await
            .expect("the replica starts");
        let url = format!("http://127.0.0.1:{}", replica.port());
        let games = replica.games();
        let handle = replica.handle();
        tokio::spawn(replica.run_until_stopped());
        let (stop, told) = tokio::sync::oneshot::channel::<tokio::sync::oneshot::Sender<()>>();
        tokio::spawn(async move {
            if let Ok(done) = told.await {
                handle.stop(true).await;
                let _ = done.send(());
            }
        });
        Replica {
            url,
            games,
            client: reqwest::Client::new(),
            stop,
        }
    }

    pub async fn stop(self) {
        let (done, stopped) = tokio::sync::oneshot::channel();
        self.stop.send(done).unwrap();
        stopped.await.unwrap();
    }

    /// Logs in here: the answer as it came.
    pub async fn login(&self, username: &str, password: &str) -> reqwest::Response {
        self.client
            .post(format!("{}/api/v1/auth/login", self.url))
            .json(&json!({"username": username, "password": password}))
            .send()
            .await
            .unwrap()
    }

    /// GET `path` here as `user`; the JSON of a 200.
    pub async fn get(&self, path: &str, user: &TestUser) -> Value {
        let response = self
            .client
            .get(format!("{}{path}", self.url))
            .bearer_auth(&user.access_token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "GET {path} on the replica");
        response.json().await.unwrap()
    }

    /// DELETE `path` here as `user`; the JSON of a 200.
    pub async fn delete(&self, path: &str, user: &TestUser) -> Value {
        let response = self
            .client
            .delete(format!("{}{path}", self.url))
            .bearer_auth(&user.access_token)
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status().as_u16(),
            200,
            "DELETE {path} on the replica"
        );
        response.json().await.unwrap()
    }

    /// The player to move makes `m` here (the local copy follows).
    pub async fn play(&self, game: &mut Match, m: Move) {
        let color = game.local.turn();
        let response = self
            .client
            .post(format!("{}{}", self.url, game.path("/moves")))
            .bearer_auth(&game.user(color).access_token)
            .json(&move_body(m, None, Some(game.version)))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{m} on the replica");
        game.moved(color, m);
    }
}
