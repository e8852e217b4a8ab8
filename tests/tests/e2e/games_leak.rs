//! The leak check: every answer a player or a spectator receives during a
//! whole game (views, histories, board pictures, exported records) is
//! scanned for ranks they may not know, and the raw bytes Red and a
//! spectator receive are shown not to depend on Blue's hidden ranks (nor,
//! with `silent_defense`, on the rank of a defender that won).

use domain::rng::SplitMix64;
use domain::{Color, Game, Move, Rules, Setup, Variant, Viewer};
use serde_json::{json, Value};

use crate::harness::{TestApp, TestUser};
use crate::notifications::{create_webhook, Receiver};
use crate::support::*;

/// Seed 31: a classic game ending with a flag capture at ply 94.
const SEED: u64 = 31;
const PLIES: u32 = 94;

/// What one viewer received, as raw text, in order.
#[derive(Debug, Default, PartialEq)]
struct Transcript(Vec<String>);

impl Transcript {
    fn push(&mut self, game_id: &str, text: String) {
        self.0.push(text.replace(game_id, "<game>"));
    }
}

async fn get_text(app: &TestApp, path: &str, user: &TestUser) -> (Value, String) {
    let text = get_body(app, path, user).await;
    (serde_json::from_str(&text).unwrap(), text)
}

/// The body of a GET as `user` (asserting 200), as text.
async fn get_body(app: &TestApp, path: &str, user: &TestUser) -> String {
    let response = app.get(path, Some(&user.access_token)).await;
    assert_eq!(response.status().as_u16(), 200, "GET {path}");
    response.text().await.unwrap()
}

/// Everything the three viewers see at this point of the game; Red's and
/// the spectator's raw answers go into their transcripts.
async fn look(
    app: &TestApp,
    game: &Match,
    spectator: &TestUser,
    records: &[domain::MoveRecord],
    red_log: &mut Transcript,
    spectator_log: &mut Transcript,
) {
    for (user, viewer) in [
        (&game.red, Viewer::Player(Color::Red)),
        (&game.blue, Viewer::Player(Color::Blue)),
        (spectator, Viewer::Spectator),
    ] {
        let (view, text) = get_text(app, &game.path(""), user).await;
        scan_view(&view, &game.local, viewer);
        let (history, history_text) = get_text(app, &game.path("/moves"), user).await;
        let expected: Vec<Value> = records
            .iter()
            .map(|r| serde_json::to_value(game.local.move_view(r, viewer)).unwrap())
            .collect();
        assert_eq!(history["moves"], json!(expected));
        // The picture holds what the view holds; the record, the history
        // and the setups the viewer may know (only the viewer's own).
        let svg = get_body(app, &game.path("/board.svg"), user).await;
        crate::pictures::check_svg_against_view(&svg, &view);
        let (record, record_text) = get_text(app, &game.path("/export"), user).await;
        assert_eq!(record["moves"], history["moves"]);
        for color in Color::ALL {
            let known = viewer == Viewer::Player(color);
            assert_eq!(
                record["setups"][color.name()].is_string(),
                known,
                "{viewer:?} {color}"
            );
        }
        let gravon = get_body(app, &game.path("/export?format=gravon"), user).await;
        assert!(
            !gravon.contains("<field"),
            "{viewer:?} gets the starting position"
        );
        let log = match viewer {
            Viewer::Player(Color::Red) => &mut *red_log,
            Viewer::Spectator => &mut *spectator_log,
            Viewer::Player(Color::Blue) => continue,
        };
        log.push(&game.id, text);
        log.push(&game.id, history_text);
        log.push(&game.id, svg);
        log.push(&game.id, record_text);
        log.push(&game.id, gravon);
    }
    // Red also tries a refused move each time (out of turn, or from a lake).
    let response = app
        .post_json(
            &game.path("/moves"),
            Some(&game.red.access_token),
            &json!({"from": "c5", "to": "c4"}),
        )
        .await;
    assert!(response.status().is_client_error());
    red_log.push(&game.id, response.text().await.unwrap());
}

/// Plays `moves` in a game with these setups, recording what Red and the
/// spectator receive; stops before the game ends.
async fn transcript(
    app: &TestApp,
    red: &TestUser,
    blue: &TestUser,
    spectator: &TestUser,
    blue_setup: &Setup,
    moves: &[Move],
) -> (Transcript, Transcript, Match) {
    let id = seated_game(app, red, blue, Variant::Classic, &Rules::default()).await;
    let path = format!("/api/v1/games/{id}/setup");
    post_ok(app, &path, red, &json!({"random": true, "seed": SEED}), 200).await;
    let placement = serde_json::to_value(blue_setup.to_placement()).unwrap();
    post_ok(app, &path, blue, &json!({"placement": placement}), 200).await;
    let red_setup = Setup::random(Variant::Classic, Color::Red, SEED);
    let local = Game::new(
        Variant::Classic,
        Rules::default(),
        red_setup,
        blue_setup.clone(),
    )
    .unwrap();
    let version = game_view(app, &id, red).await["version"].as_i64().unwrap();
    let mut game = Match {
        id,
        red: red.clone(),
        blue: blue.clone(),
        local,
        version,
    };
    let (mut red_log, mut spectator_log) = (Transcript::default(), Transcript::default());
    let mut records = Vec::new();
    look(
        app,
        &game,
        spectator,
        &records,
        &mut red_log,
        &mut spectator_log,
    )
    .await;
    for &m in moves {
        let mover = game.local.turn();
        let answer = play(app, &mut game, m, None).await;
        records.push(*game.local.full_truth().last_move().unwrap());
        assert!(!game.local.is_finished());
        if mover == Color::Red {
            red_log.push(&game.id, answer.to_string());
        }
        look(
            app,
            &game,
            spectator,
            &records,
            &mut red_log,
            &mut spectator_log,
        )
        .await;
    }
    (red_log, spectator_log, game)
}

/// The fixed setups with Red's a4 (marshal) and a3 (captain) swapped, and
/// Blue's a7 holding `defender` (swapped with where that piece stood).
fn placements(defender: &str) -> (Value, Value) {
    let mut red = fixed_placement(Color::Red);
    red["a4"] = json!("captain");
    red["a3"] = json!("marshal");
    let mut blue = fixed_placement(Color::Blue);
    let from = blue
        .as_object()
        .unwrap()
        .iter()
        .find(|(_, piece)| *piece == defender)
        .map(|(square, _)| square.clone())
        .unwrap();
    let displaced = blue["a7"].clone();
    blue[from.as_str()] = displaced;
    blue["a7"] = json!(defender);
    (red, blue)
}

/// Plays the silent-defense game with this defender on a7; returns what
/// Red, the spectator and Blue received. Red's webhook `hook` receives
/// Red's notifications (whose payloads Web Push and the e-mail digest are
/// made of too).
async fn silent_defense_transcripts(
    app: &TestApp,
    red: &TestUser,
    blue: &TestUser,
    spectator: &TestUser,
    defender: &str,
    hook: &Receiver,
) -> (Transcript, Transcript, Transcript) {
    let delivered = hook.received().len();
    let rules = Rules {
        silent_defense: true,
        ..Rules::default()
    };
    let red_events = last_id(app, red).await;
    let id = seated_game(app, red, blue, domain::Variant::Classic, &rules).await;
    let (red_setup, blue_setup) = placements(defender);
    let setup = format!("/api/v1/games/{id}/setup");
    post_ok(app, &setup, red, &json!({"placement": red_setup}), 200).await;
    let started = post_ok(app, &setup, blue, &json!({"placement": blue_setup}), 200).await;
    assert_eq!(started["status"], "playing");
    // Red's webhook is told "your move" now and after each of Blue's
    // moves; each is awaited before the next move, so none is made stale
    // by a newer one before it is sent.
    let mut told = delivered + 1;
    hook.wait_for(told).await;
    let (mut red_log, mut spectator_log, mut blue_log) = (
        Transcript::default(),
        Transcript::default(),
        Transcript::default(),
    );
    let moves = [
        (red, "a4", "a5"),
        (blue, "j7", "j6"),
        (red, "a5", "a6"),
        (blue, "j6", "j7"),
        (red, "a6", "a7"), // captain attacks the hidden defender and loses
        (blue, "j7", "j6"),
    ];
    for (user, from, to) in moves {
        let path = format!("/api/v1/games/{id}/moves");
        let answer = post_ok(app, &path, user, &json!({"from": from, "to": to}), 200).await;
        if user.id == red.id {
            red_log.push(&id, answer.to_string());
        } else {
            told += 1;
            hook.wait_for(told).await;
        }
        for (viewer, log) in [
            (red, &mut red_log),
            (spectator, &mut spectator_log),
            (blue, &mut blue_log),
        ] {
            for tail in [
                "",
                "/moves",
                "/export",
                "/export?format=gravon",
                "/board.svg",
            ] {
                let seen = get_body(app, &format!("/api/v1/games/{id}{tail}"), viewer).await;
                log.push(&id, seen);
            }
            // The PNG too, byte for byte.
            let png = app
                .get(
                    &format!("/api/v1/games/{id}/board.png"),
                    Some(&viewer.access_token),
                )
                .await;
            assert_eq!(png.status().as_u16(), 200);
            let png = png.bytes().await.unwrap();
            log.push(
                &id,
                base64::Engine::encode(&base64::engine::general_purpose::STANDARD, png),
            );
        }
        // A refused move of Red's (a bomb; out of turn or not).
        let refused = app
            .post_json(
                &path,
                Some(&red.access_token),
                &json!({"from": "e4", "to": "e5"}),
            )
            .await;
        assert!(refused.status().is_client_error());
        red_log.push(&id, refused.text().await.unwrap());
    }
    // Red's events of this game, without their ids.
    let events = poll(app, red, red_events, 0).await;
    for event in events["events"].as_array().unwrap() {
        let mut event = event.clone();
        event["id"] = Value::Null;
        red_log.push(&id, event.to_string());
    }
    // What Red's webhook was sent, in order.
    let sent = hook.received();
    assert_eq!(sent.len(), delivered + 4);
    for delivery in &sent[delivered..] {
        red_log.push(&id, String::from_utf8_lossy(&delivery.body).into_owned());
    }
    (red_log, spectator_log, blue_log)
}

backend_tests! {
    async fn no_answer_tells_a_hidden_rank(app) {
        let (red, blue) = two_users(&app, "leak").await;
        let spectator = app.register_user("leak_watch").await;
        // The moves of the whole game, chosen as random_playout does.
        let mut truth = domain::playout::random_game(Variant::Classic, Rules::default(), SEED).unwrap();
        let mut rng = SplitMix64::new(SEED);
        let mut moves = Vec::new();
        while !truth.is_finished() {
            let legal = truth.legal_moves();
            let m = legal[rng.below(legal.len())];
            truth.apply(truth.turn(), domain::Action::play(m.from, m.to)).unwrap();
            moves.push(m);
        }
        assert_eq!(moves.len() as u32, PLIES);
        let (last, before_end) = moves.split_last().unwrap();

        // Game A: the real setups.
        let blue_setup = Setup::random(Variant::Classic, Color::Blue, SEED);
        let (red_a, spectator_a, mut game_a) =
            transcript(&app, &red, &blue, &spectator, &blue_setup, before_end).await;

        // Blue's pieces that Red has never learned about, just before the end.
        let hidden: Vec<_> = game_a.local.full_truth().pieces()
            .filter(|p| p.color == Color::Blue && !p.revealed)
            .collect();
        // Permute their ranks: unmoved pieces among themselves (bombs and
        // the flag included), moved ones among themselves (all movable).
        // The public history stays identical; only secrets change.
        let mut placement: std::collections::BTreeMap<String, String> = blue_setup.pieces().iter()
            .map(|(s, p)| (s.to_string(), p.name().to_owned())).collect();
        let mut changed = 0;
        for moved in [false, true] {
            let group: Vec<_> = hidden.iter().filter(|p| p.moved == moved).collect();
            for (i, piece) in group.iter().enumerate() {
                let donor = group[(i + 1) % group.len()];
                let start = piece.id.starting_square().unwrap().to_string();
                if donor.piece != piece.piece {
                    changed += 1;
                }
                placement.insert(start, donor.piece.name().to_owned());
            }
        }
        assert!(changed >= 10, "the permutation changes many secrets ({changed})");
        let permuted = domain::Placement::from_pairs(placement).validate(Variant::Classic, Color::Blue).unwrap();
        assert_ne!(permuted, blue_setup);

        // Game B: same public history, other secrets.
        let (red_b, spectator_b, _) =
            transcript(&app, &red, &blue, &spectator, &permuted, before_end).await;
        assert_eq!(red_a.0.len(), red_b.0.len());
        for (i, (a, b)) in red_a.0.iter().zip(&red_b.0).enumerate() {
            assert_eq!(a, b, "Red's answer #{i} depends on Blue's hidden ranks");
        }
        assert_eq!(spectator_a.0.len(), spectator_b.0.len());
        for (i, (a, b)) in spectator_a.0.iter().zip(&spectator_b.0).enumerate() {
            assert_eq!(a, b, "the spectator's answer #{i} depends on hidden ranks");
        }
        assert!(red_a.0.len() > 300);

        // The last move ends game A; now everything is public, the
        // starting position included.
        let game_a_start = Game::new(
            Variant::Classic,
            Rules::default(),
            Setup::random(Variant::Classic, Color::Red, SEED),
            blue_setup.clone(),
        )
        .unwrap()
        .to_board_string();
        let answer = play(&app, &mut game_a, *last, None).await;
        assert_eq!(answer["game"]["result"]["reason"], "flag_captured");
        for user in [&red, &blue, &spectator] {
            let view = game_view(&app, &game_a.id, user).await;
            assert!(view["board"].as_array().unwrap().iter().all(|p| p["piece"].is_string()));
            let svg = get_body(&app, &game_a.path("/board.svg"), user).await;
            crate::pictures::check_svg_against_view(&svg, &view);
            let record = get_json(&app, &game_a.path("/export"), user).await;
            assert!(record["setups"]["red"].is_string() && record["setups"]["blue"].is_string());
            let gravon = get_body(&app, &game_a.path("/export?format=gravon"), user).await;
            assert!(gravon.contains(&format!("<field content=\"{}\"/>", game_a_start)));
        }
        // Lists carry no board at all.
        let list = get_json(&app, "/api/v1/games?mine=true", &red).await;
        for summary in list["games"].as_array().unwrap() {
            assert!(summary.get("board").is_none() && summary.get("captured").is_none());
        }
    }

    /// With `silent_defense`, two games with the same public history, in
    /// which the defender that beats Red's attacker is a marshal in one and
    /// a general in the other: everything Red and a spectator receive (move
    /// answers, views, histories, refused moves, events) is the same bytes
    /// in both games, and so is every notification sent to Red's webhook;
/// Blue, who owns the defender, sees the difference.
    async fn silent_defense_hides_the_defender_from_red_and_spectators(
        app, config = crate::notifications::outbound_to_loopback
    ) {
        let (red, blue) = two_users(&app, "silent").await;
        let spectator = app.register_user("silent_watch").await;
        let hook = Receiver::start().await;
        create_webhook(&app, &red, json!({"url": hook.url})).await;
        let (red_a, spectator_a, blue_a) =
            silent_defense_transcripts(&app, &red, &blue, &spectator, "marshal", &hook).await;
        let (red_b, spectator_b, blue_b) =
            silent_defense_transcripts(&app, &red, &blue, &spectator, "general", &hook).await;
        assert!(red_a.0.iter().any(|t| t.starts_with(r#"{"type":"your_move""#)), "{red_a:?}");

        // The battle happened, and Red lost it without learning the rank.
        let battle = red_a.0.iter().find(|t| t.contains("defender_wins")).unwrap();
        let battle: Value = serde_json::from_str(battle).unwrap();
        assert_eq!(battle["move"]["battle"]["attacker"], "captain");
        assert!(battle["move"]["battle"]["defender"].is_null(), "{battle}");
        assert!(red_a.0.len() > 20);

        assert_eq!(red_a.0.len(), red_b.0.len());
        for (i, (a, b)) in red_a.0.iter().zip(&red_b.0).enumerate() {
            assert_eq!(a, b, "Red's answer #{i} depends on the hidden defender");
        }
        assert_eq!(spectator_a, spectator_b, "the spectator learns the hidden defender");
        // Blue owns the defender: Blue's own answers do differ.
        assert_ne!(blue_a, blue_b);
        assert!(blue_a.0.iter().any(|t| t.contains(r#""defender":"marshal""#)));
        assert!(blue_b.0.iter().any(|t| t.contains(r#""defender":"general""#)));
    }
}
