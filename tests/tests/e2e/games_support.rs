//! Helpers for the game tests: start a game in a few calls, play moves
//! chosen with the `domain` crate, and keep a local copy of the full truth
//! to compare the server's answers with.

#![allow(dead_code)]

use domain::rng::SplitMix64;
use domain::{Action, Color, Game, Move, Rescue, Rules, Setup, Variant, Viewer};
use reqwest::Response;
use serde_json::{json, Value};

use crate::harness::{TestApp, TestUser};

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
/// token's lifetime).
pub async fn login_again(app: &TestApp, user: &TestUser) -> TestUser {
    let response = app.login(&user.username, &user.password).await;
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.unwrap();
    TestUser {
        access_token: body["access_token"].as_str().unwrap().to_owned(),
        refresh_token: body["refresh_token"].as_str().unwrap().to_owned(),
        ..user.clone()
    }
}

/// POSTs `body` and returns the JSON answer, asserting the status.
pub async fn post_ok(
    app: &TestApp,
    path: &str,
    user: &TestUser,
    body: &Value,
    status: u16,
) -> Value {
    let response = app.post_json(path, Some(&user.access_token), body).await;
    assert_eq!(response.status().as_u16(), status, "POST {path} {body}");
    response.json().await.unwrap()
}

pub async fn get_json(app: &TestApp, path: &str, user: &TestUser) -> Value {
    let response = app.get(path, Some(&user.access_token)).await;
    assert_eq!(response.status().as_u16(), 200, "GET {path}");
    response.json().await.unwrap()
}

/// Creates a game with `red` as Red and seats `blue`; returns its id.
pub async fn seated_game(
    app: &TestApp,
    red: &TestUser,
    blue: &TestUser,
    variant: Variant,
    rules: &Rules,
) -> String {
    let created = post_ok(
        app,
        "/api/v1/games",
        red,
        &json!({"variant": variant, "rules": rules, "color": "red", "days_per_move": 3}),
        201,
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let joined = post_ok(
        app,
        &format!("/api/v1/games/{id}/join"),
        blue,
        &json!({}),
        200,
    )
    .await;
    assert_eq!(joined["status"], "setup");
    id
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
    let path = format!("/api/v1/games/{id}/setup");
    post_ok(
        app,
        &path,
        &red,
        &json!({"random": true, "seed": seed}),
        200,
    )
    .await;
    let view = post_ok(
        app,
        &path,
        &blue,
        &json!({"random": true, "seed": seed}),
        200,
    )
    .await;
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

/// The status and body of a response, for checks on rejected requests.
pub async fn text_of(response: Response) -> (u16, String) {
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// Runs the deadline sweep once, as the background task does (the test
/// harness parks the background task, so only the test sweeps).
pub async fn sweep(app: &TestApp) -> usize {
    use api::clock::Clock;
    api::games::clock::sweep_overdue(&app.pool, app.clock.now(), None)
        .await
        .unwrap()
}
