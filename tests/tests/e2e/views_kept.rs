//! The views a server keeps in memory (docs/storage.md, "Views kept in
//! memory"): a view read again at the same version is the same bytes, is
//! still only its own seat's, and a change made anywhere (another server on
//! the same database included) is seen at once.

use domain::{Color, Rules, Variant, Viewer};
use serde_json::Value;

use crate::harness::{TestApp, TestUser};
use crate::support::*;

/// The view of the game as `user`: its raw body and its JSON.
async fn read(app: &TestApp, path: &str, user: &TestUser) -> (String, Value) {
    let response = app.get(path, Some(&user.access_token)).await;
    assert_eq!(response.status().as_u16(), 200, "GET {path}");
    let text = response.text().await.unwrap();
    let view = serde_json::from_str(&text).unwrap();
    (text, view)
}

backend_tests! {
    /// Red, Blue and two spectators read each position twice, in an order
    /// that puts every seat's kept view beside the others': every answer
    /// holds only what its reader may know, a second read is the first one
    /// byte for byte, and the two spectators get the same view.
    async fn a_view_read_again_is_the_same_and_only_its_seats(app) {
        let (red, blue) = two_users(&app, "kept").await;
        let carol = app.register_user("kept_carol").await;
        let dave = app.register_user("kept_dave").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 17).await;
        let path = game.path("");
        for round in 0..12 {
            let readers = [
                (game.red.clone(), Viewer::Player(Color::Red)),
                (game.blue.clone(), Viewer::Player(Color::Blue)),
                (carol.clone(), Viewer::Spectator),
                (dave.clone(), Viewer::Spectator),
            ];
            let mut first = Vec::new();
            for (user, viewer) in &readers {
                let (text, view) = read(&app, &path, user).await;
                assert_eq!(view["version"], game.version, "round {round}");
                scan_view(&view, &game.local, *viewer);
                first.push(text);
            }
            for ((user, viewer), before) in readers.iter().zip(&first).rev() {
                let (text, view) = read(&app, &path, user).await;
                scan_view(&view, &game.local, *viewer);
                assert_eq!(&text, before, "{viewer:?} read again at round {round}");
            }
            assert_eq!(first[2], first[3], "two spectators, one view");
            assert_ne!(first[0], first[1], "Red's and Blue's views differ");
            if game.local.is_finished() {
                break;
            }
            play_random(&app, &mut game, round, 3).await;
        }
    }

    /// Before play: each player's kept view shows only that player's own
    /// setup, and the other player's setup arriving is seen at once.
    async fn a_kept_view_in_setup_shows_only_the_readers_setup(app) {
        let (red, blue) = two_users(&app, "keptsetup").await;
        let id = seated_game(&app, &red, &blue, Variant::Classic, &Rules::default()).await;
        let path = format!("/api/v1/games/{id}");
        place_setup(&app, &id, &red, 5).await;
        for _ in 0..2 {
            let (_, mine) = read(&app, &path, &red).await;
            let (_, theirs) = read(&app, &path, &blue).await;
            assert_eq!(mine["board"].as_array().unwrap().len(), 40);
            assert!(mine["board"].as_array().unwrap().iter().all(|p| p["color"] == "red"));
            assert_eq!(theirs["board"], serde_json::json!([]), "Blue sees Red's setup");
            assert_eq!(theirs["setup_done"]["red"], true);
        }
        place_setup(&app, &id, &blue, 6).await;
        let (_, now) = read(&app, &path, &red).await;
        assert_eq!(now["status"], "playing");
        assert_eq!(now["board"].as_array().unwrap().len(), 80);
    }

    /// A kept view is never sent past the game's deadline: the next read
    /// ends the game and shows its end, to both players.
    async fn a_kept_view_is_not_sent_once_the_deadline_passed(app) {
        let (red, blue) = two_users(&app, "keptlate").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 29).await;
        let m = game.local.legal_moves()[0];
        play(&app, &mut game, m, None).await;
        let path = game.path("");
        for user in [&game.red, &game.blue, &game.red, &game.blue] {
            let (_, view) = read(&app, &path, user).await;
            assert_eq!(view["status"], "playing");
        }
        // Blue had 3 days (the access tokens outlive them in tests).
        app.clock.advance(chrono::Duration::days(3));
        relogin(&app, &mut game.red).await;
        relogin(&app, &mut game.blue).await;
        for user in [&game.blue, &game.red] {
            let (_, view) = read(&app, &path, user).await;
            assert_eq!(view["status"], "finished", "{view}");
            assert_eq!(view["result"]["reason"], "timeout");
            assert_eq!(view["version"], game.version + 1);
        }
    }
}

postgres_tests! {
    /// A move made through another server on the same database is in the
    /// next view this server sends, though it kept the view before it.
    async fn a_change_through_another_server_is_seen_at_once(app) {
        let (red, blue) = two_users(&app, "keptreplica").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 23).await;
        let replica = Replica::start(&app).await;
        let path = game.path("");
        for ply in 0..6 {
            // Both players' views are kept here...
            for user in [&game.red, &game.blue] {
                let (_, view) = read(&app, &path, user).await;
                assert_eq!(view["version"], game.version, "ply {ply}");
            }
            // ... and the move is made on the other server.
            let m = game.local.legal_moves()[0];
            replica.play(&mut game, m).await;
            for (user, viewer) in [
                (&game.red, Viewer::Player(Color::Red)),
                (&game.blue, Viewer::Player(Color::Blue)),
            ] {
                let (_, view) = read(&app, &path, user).await;
                assert_eq!(view["version"], game.version, "ply {ply}, {viewer:?}");
                scan_view(&view, &game.local, viewer);
            }
        }
        replica.stop().await;
    }
}
