//! The information audit: random games over every variant and many rule
//! options, played through the API. At every ply each player and a
//! spectator read the game, and each of them watches the game's stream;
//! every view and every stream frame is checked against the full truth
//! (a rank is shown only when it is the viewer's own, revealed, or the game
//! is over), every ETag is shown to depend on nothing but the game, its
//! version and the viewer, every refusal is checked for ranks, and at the
//! end every history and every event is checked against what its reader
//! could know at that ply.

use domain::rng::SplitMix64;
use domain::{Color, MoveRecord, Piece, Rules, Variant, Viewer};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::harness::{TestApp, TestUser};
use crate::support::*;

/// Plies played at most per game (enough for many battles and reveals).
const MAX_PLIES: u32 = 60;

fn rule_options() -> Vec<(&'static str, Rules)> {
    vec![
        ("default", Rules::default()),
        (
            "silent defense",
            Rules {
                silent_defense: true,
                ..Rules::default()
            },
        ),
        (
            "aggressor advantage, no scout strike",
            Rules {
                aggressor_advantage: true,
                scout_strike_after_move: false,
                ..Rules::default()
            },
        ),
        (
            "rescue",
            Rules {
                rescue: true,
                ..Rules::default()
            },
        ),
        ("tournament", Rules::tournament()),
        (
            "ply caps",
            Rules {
                two_square_limit: 2,
                max_plies_without_battle: Some(25),
                max_plies: Some(50),
                ..Rules::default()
            },
        ),
    ]
}

#[derive(Debug, Default)]
struct Counts {
    games: usize,
    plies: usize,
    views: usize,
    refusals: usize,
    history_moves: usize,
    events: usize,
    stream_frames: usize,
}

/// Every piece name, to look for in texts that must not carry one.
fn piece_names() -> Vec<&'static str> {
    Piece::ALL.iter().map(|p| p.name()).collect()
}

/// A refusal must not name a rank: its text is about squares and rules.
fn scan_refusal(text: &str) {
    let body: Value = serde_json::from_str(text).unwrap();
    let detail = body["detail"].as_str().unwrap_or_default().to_lowercase();
    for name in piece_names() {
        assert!(!detail.contains(name), "a refusal names a rank: {text}");
    }
}

/// What each of the three readers sees now.
async fn look(app: &TestApp, game: &Match, spectator: &TestUser, counts: &mut Counts) {
    for (user, viewer) in [
        (&game.red, Viewer::Player(Color::Red)),
        (&game.blue, Viewer::Player(Color::Blue)),
        (spectator, Viewer::Spectator),
    ] {
        let response = app.get(&game.path(""), Some(&user.access_token)).await;
        assert_eq!(response.status(), 200);
        let tag = response.headers()["etag"].to_str().unwrap().to_owned();
        let view: Value = response.json().await.unwrap();
        let game_id = Uuid::parse_str(&game.id).unwrap();
        let reader = Uuid::parse_str(&user.id).unwrap();
        let version = view["version"].as_i64().unwrap();
        assert_eq!(
            tag,
            api::games::answers::etag(game_id, version, Some(reader)),
            "the ETag depends on something else"
        );
        scan_view(&view, &game.local, viewer);
        counts.views += 1;
    }
    // The player not on turn tries to move; the refusal says nothing.
    if !game.local.is_finished() {
        let waiting = game.user(game.local.turn().opponent());
        let response = app
            .post_json(
                &game.path("/moves"),
                Some(&waiting.access_token),
                &json!({"from": "a4", "to": "a5"}),
            )
            .await;
        assert!(response.status().is_client_error());
        scan_refusal(&response.text().await.unwrap());
        counts.refusals += 1;
    }
}

/// One move as `reader` received it, against the record of the ply: the
/// moving piece's rank only if the reader owns it or it became public in
/// that ply or before; the defender's likewise; or everything once the game
/// was over (`finished`).
fn scan_move(shown: &Value, record: &MoveRecord, reader: Viewer, finished: bool) {
    let owns = |color: Color| reader == Viewer::Player(color);
    let mover_known = finished || owns(record.color) || record.piece_revealed;
    assert_eq!(
        shown["piece"].is_string(),
        mover_known,
        "{reader:?}: {shown}"
    );
    if let Some(battle) = record.battle {
        let defender_known = finished || owns(record.color.opponent()) || battle.defender_revealed;
        let defender = &shown["battle"]["defender"];
        assert_eq!(defender.is_string(), defender_known, "{reader:?}: {shown}");
    } else {
        assert!(shown["battle"].is_null(), "{shown}");
    }
}

/// Every event in `user`'s feed, page after page.
async fn whole_feed(app: &TestApp, user: &TestUser) -> Vec<Value> {
    let mut events = Vec::new();
    let mut after = 0;
    loop {
        let page = poll(app, user, after, 0).await;
        let batch = page["events"].as_array().unwrap();
        let Some(last) = batch.last() else {
            return events;
        };
        after = last["id"].as_i64().unwrap();
        events.extend(batch.iter().cloned());
    }
}

/// Watches `path` as `user` in the background: every frame's data, until
/// the frame of version `last` (once it is known) has come.
fn watch(
    app: &TestApp,
    path: String,
    user: &TestUser,
    last: tokio::sync::watch::Receiver<i64>,
) -> tokio::task::JoinHandle<Vec<String>> {
    let request = app
        .client
        .get(app.url(&path))
        .bearer_auth(&user.access_token);
    tokio::spawn(async move {
        let mut reader = SseReader::new(request.send().await.unwrap());
        let mut frames = Vec::new();
        let mut seen = 0;
        while seen < *last.borrow() || *last.borrow() == 0 {
            let wait = std::time::Duration::from_millis(500);
            match tokio::time::timeout(wait, reader.next_frame(FRAME_LIMIT)).await {
                Ok(Some(frame)) => {
                    assert_eq!(frame.event.as_deref(), Some("game"));
                    seen = frame.id.as_deref().unwrap().parse().unwrap();
                    frames.push(frame.data);
                }
                Ok(None) => break,
                Err(_) => {}
            }
        }
        frames
    })
}

#[allow(clippy::too_many_arguments)]
async fn audit_game(
    app: &TestApp,
    red: &TestUser,
    blue: &TestUser,
    spectator: &TestUser,
    variant: Variant,
    rules: Rules,
    seed: u64,
    counts: &mut Counts,
) {
    let mut game = random_match(app, red.clone(), blue.clone(), variant, rules, seed).await;
    let readers = [
        (&game.red, Viewer::Player(Color::Red)),
        (&game.blue, Viewer::Player(Color::Blue)),
        (spectator, Viewer::Spectator),
    ];
    let (last_version, last) = tokio::sync::watch::channel(0);
    let watchers: Vec<_> = readers
        .iter()
        .map(|(user, viewer)| {
            let watcher = watch(app, game.path("/stream"), user, last.clone());
            (watcher, *viewer)
        })
        .collect();
    // The truth at every version, for the frames.
    let mut truths = vec![(game.version, game.local.clone())];
    let mut records: Vec<MoveRecord> = Vec::new();
    let mut rng = SplitMix64::new(seed);
    look(app, &game, spectator, counts).await;
    while !game.local.is_finished() && records.len() < MAX_PLIES as usize {
        let legal = game.local.legal_moves();
        let m = legal[rng.below(legal.len())];
        play(app, &mut game, m, None).await;
        records.push(*game.local.full_truth().last_move().unwrap());
        truths.push((game.version, game.local.clone()));
        look(app, &game, spectator, counts).await;
    }
    counts.games += 1;
    counts.plies += records.len();
    last_version.send_replace(game.version);

    // Every frame of every stream: the view of its reader at its version.
    for (watcher, viewer) in watchers {
        let frames = watcher.await.unwrap();
        assert!(!frames.is_empty(), "{viewer:?} saw no frame");
        for data in frames {
            let view: Value = serde_json::from_str(&data).unwrap();
            let version = view["version"].as_i64().unwrap();
            let (_, truth) = truths
                .iter()
                .find(|(v, _)| *v == version)
                .unwrap_or_else(|| panic!("a frame of unknown version {version}"));
            scan_view(&view, truth, viewer);
            counts.stream_frames += 1;
        }
    }

    // The histories, read now (after the end every rank is public).
    let finished = game.local.is_finished();
    for (user, viewer) in [
        (&game.red, Viewer::Player(Color::Red)),
        (&game.blue, Viewer::Player(Color::Blue)),
        (spectator, Viewer::Spectator),
    ] {
        let history = get_json(app, &game.path("/moves"), user).await;
        let moves = history["moves"].as_array().unwrap();
        assert_eq!(moves.len(), records.len());
        for (shown, record) in moves.iter().zip(&records) {
            scan_move(shown, record, viewer, finished);
            counts.history_moves += 1;
        }
    }
    // Each player's events about this game: a move in `your_turn` as it
    // stood when sent (before the end, so no rank became public by it).
    for (user, color) in [(&game.red, Color::Red), (&game.blue, Color::Blue)] {
        for event in whole_feed(app, user).await {
            if event["game_id"] != json!(game.id) {
                continue;
            }
            counts.events += 1;
            if event["type"] == "your_turn" && !event["opponent_move"].is_null() {
                let shown = &event["opponent_move"];
                let ply = shown["ply"].as_u64().unwrap() as usize;
                scan_move(shown, &records[ply - 1], Viewer::Player(color), false);
            }
            if event["type"] == "game_finished" {
                assert!(finished);
            }
        }
    }
}

backend_tests! {
    // A stream's slot is freed when the server next writes to it (a
    // keep-alive at the latest); one game after another opens more.
    async fn no_reader_learns_a_rank_it_may_not_know(app, config = |c| c.max_streams_per_user = 64) {
        let (red, blue) = two_users(&app, "audit").await;
        let spectator = app.register_user("audit_watch").await;
        let mut counts = Counts::default();
        let mut seed = 7_000;
        for variant in Variant::ALL {
            for (_, rules) in rule_options() {
                seed += 1;
                audit_game(&app, &red, &blue, &spectator, variant, rules, seed, &mut counts).await;
            }
        }
        eprintln!("audit: {counts:?}");
        assert_eq!(counts.games, Variant::ALL.len() * rule_options().len());
        assert!(counts.plies > 500 && counts.events > 300, "{counts:?}");
        assert!(counts.stream_frames > 3 * counts.games, "{counts:?}");
    }
}
