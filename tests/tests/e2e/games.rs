//! Games: creating, joining, setups, views, and every rejected request
//! leaving the game unchanged.

use domain::{Color, Rules, Setup, Square, Variant, Viewer};
use serde_json::{json, Value};

use crate::harness::{assert_problem, TestApp, TestUser};
use crate::support::*;

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn mv(from: &str, to: &str) -> domain::Move {
    domain::Move {
        from: sq(from),
        to: sq(to),
    }
}

/// Asserts that the game looks exactly as before to `user` (same version,
/// same board, same everything).
async fn assert_unchanged(app: &TestApp, id: &str, user: &TestUser, before: &Value) {
    let now = game_view(app, id, user).await;
    assert_eq!(now["version"], before["version"], "version moved");
    assert_eq!(&now, before, "the game changed");
}

backend_tests! {
    async fn an_open_game_goes_from_waiting_to_playing(app) {
        let (ann, bo) = two_users(&app, "open").await;
        let carl = app.register_user("open_carl").await;
        let created = post_ok(&app, "/api/v1/games", &ann,
            &json!({"variant": "classic", "color": "blue", "days_per_move": 2}), 201).await;
        assert_eq!(created["status"], "waiting");
        assert_eq!(created["version"], 1);
        assert_eq!(created["you"], "blue");
        assert_eq!(created["players"]["blue"]["username"], "open_red");
        assert!(created["players"]["red"].is_null());
        assert_eq!(created["rules"], serde_json::to_value(Rules::default()).unwrap());
        assert_eq!(created["days_per_move"], 2);
        assert!(created["board"].as_array().unwrap().is_empty());
        assert!(created.get("legal_moves").is_none());
        let id = created["id"].as_str().unwrap().to_owned();

        // Listed as waiting, for anyone.
        let list = get_json(&app, "/api/v1/games?status=waiting", &carl).await;
        assert!(list["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()));

        let joined = post_ok(&app, &format!("/api/v1/games/{id}/join"), &bo, &json!({}), 200).await;
        assert_eq!(joined["status"], "setup");
        assert_eq!(joined["version"], 2);
        assert_eq!(joined["you"], "red");
        let deadline: chrono::DateTime<chrono::Utc> =
            joined["deadline"].as_str().unwrap().parse().unwrap();
        assert_eq!(deadline, app.now() + chrono::Duration::days(2));

        // Blue (ann) places first; the board shows only her own pieces.
        let setup = format!("/api/v1/games/{id}/setup");
        let view = post_ok(&app, &setup, &ann,
            &json!({"placement": fixed_placement(Color::Blue)}), 200).await;
        assert_eq!(view["status"], "setup");
        assert_eq!(view["setup_done"], json!({"red": false, "blue": true}));
        let board = view["board"].as_array().unwrap();
        assert_eq!(board.len(), 40);
        assert!(board.iter().all(|p| p["color"] == "blue" && p["piece"].is_string()));
        assert_eq!(board[0]["square"], "a7");
        // Red sees none of Blue's setup; a spectator sees nothing at all.
        let red_view = game_view(&app, &id, &bo).await;
        assert!(red_view["board"].as_array().unwrap().is_empty(), "{red_view}");
        assert_eq!(red_view["setup_done"], json!({"red": false, "blue": true}));
        let spectator = game_view(&app, &id, &carl).await;
        assert!(spectator["board"].as_array().unwrap().is_empty());
        assert!(spectator["you"].is_null());

        // Replacing a setup is fine until both are in.
        post_ok(&app, &setup, &ann, &json!({"random": true, "seed": 3}), 200).await;
        let mine = game_view(&app, &id, &ann).await;
        let random_blue = Setup::random(Variant::Classic, Color::Blue, 3);
        let first = &mine["board"][0];
        assert_eq!(first["square"], random_blue.pieces()[0].0.to_string());
        assert_eq!(first["piece"], json!(random_blue.pieces()[0].1));

        // Red's setup starts play.
        let started = post_ok(&app, &setup, &bo,
            &json!({"placement": fixed_placement(Color::Red)}), 200).await;
        assert_eq!(started["status"], "playing");
        assert_eq!(started["turn"], "red");
        assert_eq!(started["ply"], 0);
        let legal = started["legal_moves"].as_array().unwrap();
        assert!(!legal.is_empty());
        let local = domain::Game::new(Variant::Classic, Rules::default(),
            fixed_setup(Color::Red), random_blue).unwrap();
        assert_view_matches(&started, &local, Viewer::Player(Color::Red));
        // Blue, not on turn, gets no legal moves; the spectator sees no rank.
        let blue_view = game_view(&app, &id, &ann).await;
        assert!(blue_view.get("legal_moves").is_none());
        assert_view_matches(&blue_view, &local, Viewer::Player(Color::Blue));
        let spectator = game_view(&app, &id, &carl).await;
        assert_view_matches(&spectator, &local, Viewer::Spectator);
        assert!(spectator["board"].as_array().unwrap().iter().all(|p| p["piece"].is_null()));
        // Setups are final now.
        let response = app.post_json(&setup, Some(&bo.access_token),
            &json!({"random": true, "seed": 1})).await;
        assert_problem(response, 409, "wrong_phase").await;
        assert_unchanged(&app, &id, &bo, &started).await;
    }

    async fn challenges_are_accepted_declined_or_cancelled(app) {
        let (ann, bo) = two_users(&app, "chal").await;
        let carl = app.register_user("chal_carl").await;
        let created = post_ok(&app, "/api/v1/games", &ann,
            &json!({"opponent": "CHAL_BLUE", "color": "red"}), 201).await;
        assert_eq!(created["opponent"]["username"], "chal_blue");
        let id = created["id"].as_str().unwrap().to_owned();

        // Only the challenged user may take the seat or decline.
        let before = game_view(&app, &id, &ann).await;
        let r = app.post_json(&format!("/api/v1/games/{id}/join"), Some(&carl.access_token), &json!({})).await;
        assert_problem(r, 403, "forbidden").await;
        let r = app.post_json(&format!("/api/v1/games/{id}/decline"), Some(&carl.access_token), &json!({})).await;
        assert_problem(r, 403, "forbidden").await;
        // Joining one's own game is refused.
        let r = app.post_json(&format!("/api/v1/games/{id}/join"), Some(&ann.access_token), &json!({})).await;
        assert_problem(r, 403, "forbidden").await;
        assert_unchanged(&app, &id, &ann, &before).await;

        // The challenged user sees it among their games.
        let mine = get_json(&app, "/api/v1/games?mine=true", &bo).await;
        assert_eq!(mine["games"][0]["id"], id.as_str());

        let declined = post_ok(&app, &format!("/api/v1/games/{id}/decline"), &bo, &json!({}), 200).await;
        assert_eq!(declined["status"], "aborted");
        assert_eq!(declined["version"], 2);
        let r = app.post_json(&format!("/api/v1/games/{id}/join"), Some(&bo.access_token), &json!({})).await;
        assert_problem(r, 409, "wrong_phase").await;

        // A challenge cancelled by its creator.
        let created = post_ok(&app, "/api/v1/games", &ann, &json!({"opponent": "chal_blue"}), 201).await;
        let id2 = created["id"].as_str().unwrap().to_owned();
        let aborted = post_ok(&app, &format!("/api/v1/games/{id2}/abort"), &ann, &json!({}), 200).await;
        assert_eq!(aborted["status"], "aborted");

        // Accepted: the game goes to setup; a full game cannot be joined.
        let created = post_ok(&app, "/api/v1/games", &ann, &json!({"opponent": "chal_blue"}), 201).await;
        let id3 = created["id"].as_str().unwrap().to_owned();
        let joined = post_ok(&app, &format!("/api/v1/games/{id3}/join"), &bo, &json!({}), 200).await;
        assert_eq!(joined["status"], "setup");
        let before = game_view(&app, &id3, &ann).await;
        let r = app.post_json(&format!("/api/v1/games/{id3}/join"), Some(&carl.access_token), &json!({})).await;
        assert_problem(r, 409, "wrong_phase").await;
        // Either player may abort during setup; a spectator may not.
        let r = app.post_json(&format!("/api/v1/games/{id3}/abort"), Some(&carl.access_token), &json!({})).await;
        assert_problem(r, 403, "forbidden").await;
        assert_unchanged(&app, &id3, &ann, &before).await;
        let aborted = post_ok(&app, &format!("/api/v1/games/{id3}/abort"), &bo, &json!({}), 200).await;
        assert_eq!(aborted["status"], "aborted");
        assert_eq!(aborted["version"], 3);

        // Bad creation requests.
        for (body, code, status) in [
            (json!({"opponent": "nobody_here"}), "validation_failed", 422),
            (json!({"opponent": "chal_red"}), "validation_failed", 422),
            (json!({"days_per_move": 0}), "validation_failed", 422),
            (json!({"days_per_move": 15}), "validation_failed", 422),
            (json!({"variant": "chess"}), "validation_failed", 422),
            (json!({"rules": {"two_square_limit": 11}}), "validation_failed", 422),
            (json!({"rules": {"castling": true}}), "validation_failed", 422),
            (json!({"color": "green"}), "validation_failed", 422),
        ] {
            let r = app.post_json("/api/v1/games", Some(&ann.access_token), &body).await;
            assert_problem(r, status, code).await;
        }
        let r = app.post_json("/api/v1/games", None, &json!({})).await;
        assert_problem(r, 401, "unauthorized").await;
        let r = app.get(&format!("/api/v1/games/{}", uuid::Uuid::new_v4()), Some(&ann.access_token)).await;
        assert_problem(r, 404, "not_found").await;
    }

    async fn bad_setups_are_refused_whole(app) {
        let (ann, bo) = two_users(&app, "bad").await;
        let carl = app.register_user("bad_carl").await;
        let id = seated_game(&app, &ann, &bo, Variant::Classic, &Rules::default()).await;
        let path = format!("/api/v1/games/{id}/setup");
        let before = game_view(&app, &id, &ann).await;

        let good = fixed_placement(Color::Red);
        let mut outside = good.clone();
        let flag = outside.as_object_mut().unwrap().remove("a1").unwrap();
        outside["a5"] = flag;
        let mut lake = good.clone();
        let spy = lake.as_object_mut().unwrap().remove("g1").unwrap();
        lake["c5"] = spy;
        let mut unknown = good.clone();
        unknown["a1"] = json!("dragon");
        let mut missing = good.clone();
        missing.as_object_mut().unwrap().remove("j4");
        let mut bad_square = good.clone();
        let s = bad_square.as_object_mut().unwrap().remove("b4").unwrap();
        bad_square["z9"] = s;
        let mut blue_zone = good.clone();
        let s = blue_zone.as_object_mut().unwrap().remove("c4").unwrap();
        blue_zone["c7"] = s;
        let cases: Vec<(Value, &[&str])> = vec![
            (outside, &["outside_zone"]),
            (lake, &["lake"]),
            (unknown, &["unknown_piece", "wrong_count"]),
            (missing, &["wrong_count"]),
            (bad_square, &["bad_square"]),
            (blue_zone, &["outside_zone"]),
            (json!({}), &["wrong_count"]),
        ];
        for (placement, expected) in cases {
            let r = app.post_json(&path, Some(&ann.access_token), &json!({"placement": placement})).await;
            let body = assert_problem(r, 422, "invalid_setup").await;
            let problems: Vec<&str> = body["problems"].as_array().unwrap().iter()
                .map(|p| p["problem"].as_str().unwrap()).collect();
            for want in expected {
                assert!(problems.contains(want), "{want} in {body}");
            }
            assert_unchanged(&app, &id, &ann, &before).await;
        }
        // A duplicate square (the same key twice in the JSON text).
        let text = r#"{"placement": {"a1": "flag", "a1": "bomb"}}"#;
        let r = post_raw(&app, &path, Some(&ann.access_token), text).await;
        let body = assert_problem(r, 422, "invalid_setup").await;
        assert!(body["problems"].as_array().unwrap().iter().any(|p| p["problem"] == "duplicate_square"), "{body}");
        // Neither form, both forms, random false.
        for body in [json!({}), json!({"random": false}),
                     json!({"random": true, "placement": good.clone()})] {
            let r = app.post_json(&path, Some(&ann.access_token), &body).await;
            assert_problem(r, 422, "validation_failed").await;
        }
        // Not a player.
        let r = app.post_json(&path, Some(&carl.access_token), &json!({"random": true})).await;
        assert_problem(r, 403, "forbidden").await;
        assert_unchanged(&app, &id, &ann, &before).await;
        assert_eq!(game_view(&app, &id, &bo).await["setup_done"], json!({"red": false, "blue": false}));
    }

    async fn rejected_moves_change_nothing(app) {
        let (ann, bo) = two_users(&app, "rej").await;
        let carl = app.register_user("rej_carl").await;
        // Before play starts.
        let id = seated_game(&app, &ann, &bo, Variant::Classic, &Rules::default()).await;
        let before = game_view(&app, &id, &ann).await;
        let r = app.post_json(&format!("/api/v1/games/{id}/moves"), Some(&ann.access_token),
            &json!({"from": "a4", "to": "a5"})).await;
        assert_problem(r, 409, "wrong_phase").await;
        let r = app.post_json(&format!("/api/v1/games/{id}/resign"), Some(&ann.access_token), &json!({})).await;
        assert_problem(r, 409, "wrong_phase").await;
        assert_unchanged(&app, &id, &ann, &before).await;

        let mut game = fixed_match(&app, ann.clone(), bo.clone(), Rules::default()).await;
        let moves = game.path("/moves");
        let red_before = game_view(&app, &game.id, &ann).await;
        let blue_before = game_view(&app, &game.id, &bo).await;
        let cases: Vec<(&TestUser, Value, u16, &str, Option<&str>)> = vec![
            (&bo, json!({"from": "a7", "to": "a6"}), 409, "not_your_turn", None),
            (&carl, json!({"from": "a4", "to": "a5"}), 403, "forbidden", None),
            (&ann, json!({"from": "a5", "to": "a6"}), 422, "illegal_move", Some("no_piece")), // empty square
            (&ann, json!({"from": "c5", "to": "c4"}), 422, "illegal_move", Some("no_piece")), // lake square
            (&ann, json!({"from": "a7", "to": "a6"}), 422, "illegal_move", Some("not_your_piece")), // opponent's piece
            (&ann, json!({"from": "a3", "to": "a4"}), 422, "illegal_move", Some("own_piece")), // onto own piece
            (&ann, json!({"from": "b4", "to": "a5"}), 422, "illegal_move", Some("diagonal")), // diagonal
            (&ann, json!({"from": "a4", "to": "a6"}), 422, "illegal_move", Some("too_far")), // too long
            (&ann, json!({"from": "b4", "to": "b8"}), 422, "illegal_move", Some("blocked")), // through a piece
            (&ann, json!({"from": "c4", "to": "c7"}), 422, "illegal_move", Some("through_lake")), // through a lake
            (&ann, json!({"from": "e4", "to": "e5"}), 422, "illegal_move", Some("immovable")), // bomb
            (&ann, json!({"from": "a1", "to": "a2"}), 422, "illegal_move", Some("immovable")), // flag
            (&ann, json!({"from": "k4", "to": "k5"}), 422, "validation_failed", None), // bad square name
            (&ann, json!({"from": "a4", "to": "a11"}), 422, "validation_failed", None),
            (&ann, json!({"from": "a4", "to": "a5",
                          "rescue": {"piece": "captain", "square": "a2"}}), 422, "illegal_move", Some("rescue_disabled")),
            (&ann, json!({"from": "a4", "to": "a5", "expected_version": game.version - 1}), 409, "version_conflict", None),
            (&ann, json!({"from": "a4"}), 422, "validation_failed", None),
        ];
        for (user, body, status, code, reason) in cases {
            let r = app.post_json(&moves, Some(&user.access_token), &body).await;
            let problem = assert_problem(r, status, code).await;
            if let Some(reason) = reason {
                assert_eq!(problem["reason"], reason, "{body}");
            }
            let detail = problem["detail"].as_str().unwrap();
            // A refusal names squares and the caller's own pieces only.
            for hidden in ["marshal", "general", "colonel", "flag", "bomb"] {
                if user.id == bo.id || user.id == carl.id {
                    assert!(!detail.contains(hidden), "{detail}");
                }
            }
            assert_unchanged(&app, &game.id, &ann, &red_before).await;
            assert_unchanged(&app, &game.id, &bo, &blue_before).await;
        }
        // A stale If-Match answers 412.
        let r = app.client.post(app.url(&moves)).bearer_auth(&ann.access_token)
            .header("if-match", "\"0123456789abcdef\"")
            .json(&json!({"from": "a4", "to": "a5"})).send().await.unwrap();
        assert_problem(r, 412, "version_conflict").await;
        // A draw accept without an offer.
        let r = app.post_json(&game.path("/draw"), Some(&bo.access_token), &json!({"action": "accept"})).await;
        assert_problem(r, 409, "wrong_phase").await;
        let r = app.post_json(&game.path("/draw"), Some(&bo.access_token), &json!({"action": "maybe"})).await;
        assert_problem(r, 422, "validation_failed").await;
        assert_unchanged(&app, &game.id, &ann, &red_before).await;

        // The two-square rule: a4-a5, a5-a4, a4-a5, and a5-a4 again is refused.
        play(&app, &mut game, mv("a4", "a5"), None).await;
        play(&app, &mut game, mv("j7", "j6"), None).await;
        play(&app, &mut game, mv("a5", "a4"), None).await;
        play(&app, &mut game, mv("j6", "j7"), None).await;
        play(&app, &mut game, mv("a4", "a5"), None).await;
        play(&app, &mut game, mv("j7", "j6"), None).await;
        let before = game_view(&app, &game.id, &ann).await;
        let r = app.post_json(&moves, Some(&ann.access_token), &json!({"from": "a5", "to": "a4"})).await;
        assert_problem(r, 422, "two_square_rule").await;
        assert_unchanged(&app, &game.id, &ann, &before).await;
        assert!(!before["legal_moves"].as_array().unwrap().contains(&json!({"from": "a5", "to": "a4"})));

        // After the game ends: no more moves.
        let resigned = post_ok(&app, &game.path("/resign"), &bo, &json!({}), 200).await;
        assert_eq!(resigned["status"], "finished");
        assert_eq!(resigned["result"], json!({"winner": "red", "reason": "resignation"}));
        let r = app.post_json(&moves, Some(&ann.access_token), &json!({"from": "a5", "to": "a6"})).await;
        assert_problem(r, 409, "wrong_phase").await;
        let r = app.post_json(&game.path("/resign"), Some(&ann.access_token), &json!({})).await;
        assert_problem(r, 409, "wrong_phase").await;
        assert_unchanged(&app, &game.id, &bo, &resigned).await;
        // Every piece is revealed to everyone now.
        let spectator = game_view(&app, &game.id, &carl).await;
        assert!(spectator["board"].as_array().unwrap().iter()
            .all(|p| p["piece"].is_string() && p["revealed"] == true));
    }

    /// A challenged user who had already accepted was once told they were
    /// not the challenged user (403) when declining, instead of
    /// `wrong_phase`.
    async fn an_accepted_challenge_cannot_be_declined(app) {
        let (ann, bo) = two_users(&app, "acc").await;
        let carl = app.register_user("acc_carl").await;
        let created = post_ok(&app, "/api/v1/games", &ann,
            &json!({"opponent": bo.username, "color": "red"}), 201).await;
        let id = created["id"].as_str().unwrap().to_owned();
        let joined = post_ok(&app, &format!("/api/v1/games/{id}/join"), &bo, &json!({}), 200).await;
        assert_eq!(joined["status"], "setup");
        let before = game_view(&app, &id, &bo).await;

        // Bo is the challenged user: the phase is wrong, not the person.
        let response = app.post_json(&format!("/api/v1/games/{id}/decline"),
            Some(&bo.access_token), &json!({})).await;
        let problem = assert_problem(response, 409, "wrong_phase").await;
        assert!(problem["detail"].as_str().unwrap().contains("abort"), "{problem}");
        // Anyone else is still refused as a stranger to the challenge.
        for user in [&ann, &carl] {
            let response = app.post_json(&format!("/api/v1/games/{id}/decline"),
                Some(&user.access_token), &json!({})).await;
            assert_problem(response, 403, "forbidden").await;
        }
        assert_eq!(game_view(&app, &id, &bo).await, before);

        // Once play has started, the same.
        let path = format!("/api/v1/games/{id}/setup");
        post_ok(&app, &path, &ann, &json!({"random": true, "seed": 1}), 200).await;
        let started = post_ok(&app, &path, &bo, &json!({"random": true, "seed": 2}), 200).await;
        assert_eq!(started["status"], "playing");
        let response = app.post_json(&format!("/api/v1/games/{id}/decline"),
            Some(&bo.access_token), &json!({})).await;
        assert_problem(response, 409, "wrong_phase").await;
        assert_eq!(game_view(&app, &id, &bo).await["version"], started["version"]);
    }

    /// A spectator's move naming a stale `expected_version` (or `If-Match`)
    /// once got 409/412 instead of 403.
    async fn a_spectators_move_is_forbidden_whatever_version_it_names(app) {
        let (red, blue) = two_users(&app, "spv").await;
        let carl = app.register_user("spv_carl").await;
        let game = fixed_match(&app, red.clone(), blue.clone(), Rules::default()).await;
        let before = game_view(&app, &game.id, &red).await;
        let version = before["version"].as_i64().unwrap();
        let path = game.path("/moves");
        for expected in [Some(version), Some(version - 1), Some(version + 7), None] {
            let mut body = json!({"from": "a4", "to": "a5"});
            if let Some(v) = expected {
                body["expected_version"] = json!(v);
            }
            let response = app.post_json(&path, Some(&carl.access_token), &body).await;
            assert_problem(response, 403, "forbidden").await;
        }
        for tag in ["\"stale\"", "*"] {
            let response = app.client.post(app.url(&path)).bearer_auth(&carl.access_token)
                .header("if-match", tag).json(&json!({"from": "a4", "to": "a5"}))
                .send().await.unwrap();
            assert_problem(response, 403, "forbidden").await;
        }
        assert_eq!(game_view(&app, &game.id, &red).await, before);
        // The players still get their precondition answers.
        let response = app.post_json(&path, Some(&red.access_token),
            &json!({"from": "a4", "to": "a5", "expected_version": version - 1})).await;
        assert_problem(response, 409, "version_conflict").await;
        let response = app.client.post(app.url(&path)).bearer_auth(&red.access_token)
            .header("if-match", "\"stale\"").json(&json!({"from": "a4", "to": "a5"}))
            .send().await.unwrap();
        assert_problem(response, 412, "version_conflict").await;
        assert_eq!(game_view(&app, &game.id, &red).await, before);
    }
}
