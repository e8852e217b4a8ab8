//! Found in review: request bodies that are JSON arrays were read as
//! structs (serde fills the fields in order, so `["a4", "a5"]` played a
//! move and `["name", "password"]` registered an account), and a challenged
//! user who had already accepted was told they were not the challenged user
//! (403) when declining, instead of `wrong_phase`; on PostgreSQL a login
//! or a challenge naming a user with a NUL character answered 500 (the
//! database refuses such strings); a spectator's move naming a stale
//! `expected_version` (or `If-Match`) got 409/412 instead of 403; a setup
//! retried with the same `Idempotency-Key` and the same placement, its
//! squares listed in another order, was refused as `idempotency_key_reused`.
//! Also: a race for one open seat has exactly one winner.

use domain::Rules;
use serde_json::{json, Value};

use crate::harness::{assert_problem, TestApp, TestUser};
use crate::support::*;

/// POSTs `{}` to `path` as each user at the same time; (status, body) each.
async fn post_all_at_once(app: &TestApp, path: &str, users: &[TestUser]) -> Vec<(u16, Value)> {
    let mut tasks = Vec::new();
    for user in users {
        let request = app
            .client
            .post(app.url(path))
            .bearer_auth(&user.access_token)
            .json(&json!({}));
        tasks.push(tokio::spawn(async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap())
        }));
    }
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.unwrap());
    }
    answers
}

backend_tests! {
    async fn request_bodies_must_be_json_objects(app) {
        let (red, blue) = two_users(&app, "arr").await;
        let rules = Rules { rescue: true, ..Rules::default() };
        let game = fixed_match(&app, red.clone(), blue.clone(), rules).await;
        let before = game_view(&app, &game.id, &red).await;
        assert_eq!(before["turn"], "red");
        assert!(before["legal_moves"].as_array().unwrap()
            .contains(&json!({"from": "a4", "to": "a5"})));

        // A move, a draw offer, a setup and a game as arrays of field values.
        let token = Some(red.access_token.as_str());
        for (path, body) in [
            (game.path("/moves"), r#"["a4", "a5"]"#),
            (game.path("/moves"), r#"["a4", "a5", null, null]"#),
            (game.path("/moves"), r#"{"from": "a4", "to": "a5", "rescue": ["captain", "a1"]}"#),
            (game.path("/draw"), r#"["offer"]"#),
            (game.path("/setup"), r#"[null, true, 7]"#),
        ] {
            let response = post_raw(&app, &path, token, body).await;
            assert_problem(response, 422, "validation_failed").await;
        }
        let after = game_view(&app, &game.id, &red).await;
        assert_eq!(after, before, "a refused body changed the game");

        // The same move as an object is fine (and a null rescue is no rescue).
        let moved = post_raw(&app, &game.path("/moves"), token,
            r#"{"from": "a4", "to": "a5", "rescue": null}"#).await;
        assert_eq!(moved.status().as_u16(), 200);

        // Creating games: the body and `rules` must be objects.
        let created_before = get_json(&app, "/api/v1/games?mine=true", &red).await;
        for body in [r#"["duel"]"#, r#"[]"#, r#"{"rules": [5]}"#] {
            let response = post_raw(&app, "/api/v1/games", token, body).await;
            assert_problem(response, 422, "validation_failed").await;
        }
        let created_after = get_json(&app, "/api/v1/games?mine=true", &red).await;
        assert_eq!(created_after["games"], created_before["games"], "a game was created");
        let created = post_raw(&app, "/api/v1/games", token, r#"{"rules": {"two_square_limit": 5}}"#).await;
        assert_eq!(created.status().as_u16(), 201);

        // Accounts: no registration, login, refresh or logout from arrays.
        let response = post_raw(&app, "/api/v1/auth/register", None,
            r#"["arr_carl", "correct horse battery"]"#).await;
        assert_problem(response, 422, "validation_failed").await;
        let response = app.login("arr_carl", "correct horse battery").await;
        assert_problem(response, 401, "unauthorized").await;
        let response = post_raw(&app, "/api/v1/auth/login", None,
            &json!([red.username, red.password]).to_string()).await;
        assert_problem(response, 422, "validation_failed").await;
        let response = post_raw(&app, "/api/v1/auth/refresh", None,
            &json!([red.refresh_token]).to_string()).await;
        assert_problem(response, 422, "validation_failed").await;
        let response = post_raw(&app, "/api/v1/auth/logout", None,
            &json!([red.refresh_token]).to_string()).await;
        assert_problem(response, 422, "validation_failed").await;
        // The refresh token still works: neither call above touched it.
        let response = app.post_json("/api/v1/auth/refresh", None,
            &json!({"refresh_token": red.refresh_token})).await;
        assert_eq!(response.status().as_u16(), 200);
    }

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

    async fn of_several_users_racing_for_one_open_seat_exactly_one_wins(app) {
        let ann = app.register_user("race_ann").await;
        let mut racers = Vec::new();
        for i in 0..4 {
            racers.push(app.register_user(&format!("race_{i}")).await);
        }
        let created = post_ok(&app, "/api/v1/games", &ann, &json!({"color": "red"}), 201).await;
        let id = created["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/games/{id}/join");
        let answers = post_all_at_once(&app, &path, &racers).await;
        let winners: Vec<usize> = (0..answers.len()).filter(|&i| answers[i].0 == 200).collect();
        assert_eq!(winners.len(), 1, "{answers:?}");
        for (status, body) in &answers {
            if *status != 200 {
                assert_eq!(*status, 409, "{body}");
                assert_eq!(body["code"], "wrong_phase", "{body}");
            }
        }
        let winner = &racers[winners[0]];
        let game = game_view(&app, &id, &ann).await;
        assert_eq!(game["version"], 2);
        assert_eq!(game["status"], "setup");
        assert_eq!(game["players"]["blue"]["id"], winner.id.as_str());
        assert_eq!(game["players"]["red"]["id"], ann.id.as_str());
    }

    async fn names_that_cannot_be_usernames_are_not_looked_up(app) {
        let ann = app.register_user("nul_ann").await;
        for name in ["nul\u{0}ann", "nul_ann\u{0}", "\u{0}"] {
            // Login: the same 401 as for any unknown user.
            let response = app.login(name, "correct horse battery").await;
            let problem = assert_problem(response, 401, "unauthorized").await;
            assert_eq!(problem["detail"], "invalid username or password");
            // A challenge: no such user.
            let response = app.post_json("/api/v1/games", Some(&ann.access_token),
                &json!({"opponent": name})).await;
            assert_problem(response, 422, "validation_failed").await;
        }
        // Nothing was created, and the real account still logs in.
        let mine = get_json(&app, "/api/v1/games?mine=true", &ann).await;
        assert!(mine["games"].as_array().unwrap().is_empty());
        let response = app.login("nul_ann", &ann.password).await;
        assert_eq!(response.status().as_u16(), 200);
    }

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

    async fn a_setup_retry_may_list_its_squares_in_any_order(app) {
        let (red, blue) = two_users(&app, "ord").await;
        let id = seated_game(&app, &red, &blue, domain::Variant::Classic, &Rules::default()).await;
        let path = format!("/api/v1/games/{id}/setup");
        let placement = fixed_placement(domain::Color::Red);
        let entries: Vec<(String, Value)> = placement.as_object().unwrap()
            .iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        // The request body as text, members in the given order.
        let text = |pairs: &[(String, Value)]| {
            let members: Vec<String> = pairs.iter()
                .map(|(square, piece)| format!("{}: {piece}", json!(square)))
                .collect();
            format!(r#"{{"placement": {{{}}}}}"#, members.join(", "))
        };
        let reversed: Vec<(String, Value)> = entries.iter().rev().cloned().collect();
        let send = |body: String| {
            app.client.post(app.url(&path)).bearer_auth(&red.access_token)
                .header("idempotency-key", "setup-once")
                .header("content-type", "application/json").body(body).send()
        };
        let first = send(text(&entries)).await.unwrap();
        assert_eq!(first.status().as_u16(), 200);
        let first: Value = first.json().await.unwrap();
        let again = send(text(&reversed)).await.unwrap();
        assert_eq!(again.status().as_u16(), 200, "a reordered retry is the same request");
        assert_eq!(again.json::<Value>().await.unwrap(), first);
        assert_eq!(game_view(&app, &id, &red).await["version"], first["version"]);
        // Another placement under the same key is still refused.
        let mut swapped = entries.clone();
        let (a, b) = (swapped[0].1.clone(), swapped[39].1.clone());
        assert_ne!(a, b);
        swapped[0].1 = b;
        swapped[39].1 = a;
        let response = send(text(&swapped)).await.unwrap();
        assert_problem(response, 422, "idempotency_key_reused").await;
        assert_eq!(game_view(&app, &id, &red).await["version"], first["version"]);
    }
}
