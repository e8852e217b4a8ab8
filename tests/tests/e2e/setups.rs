//! The setup library (docs/setups.md): saving, validation, limits, privacy,
//! and a saved setup used in a game on either side.

use domain::{Color, Rules, Setup, Variant};
use reqwest::{Method, Response, StatusCode};
use serde_json::{json, Value};

use crate::harness::{assert_problem, TestApp, TestUser};
use crate::support::*;

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    user: &TestUser,
    body: Option<Value>,
) -> Response {
    let mut request = app
        .client
        .request(method, app.url(path))
        .bearer_auth(&user.access_token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.unwrap()
}

/// A valid duel placement for `color` (a seeded random one).
fn duel(color: Color, seed: u64) -> Value {
    serde_json::to_value(Setup::random(Variant::Duel, color, seed).to_placement()).unwrap()
}

async fn save(app: &TestApp, user: &TestUser, body: Value) -> Response {
    send(app, Method::POST, "/api/v1/me/setups", user, Some(body)).await
}

backend_tests! {
    async fn setups_are_saved_validated_listed_replaced_and_deleted(app) {
        let ann = app.register_user("ann").await;
        let response = save(&app, &ann, json!({"name": " fortress ", "variant": "duel",
                                               "placement": duel(Color::Red, 1)})).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        let saved: Value = response.json().await.unwrap();
        assert_eq!(saved["name"], "fortress");
        assert_eq!(saved["placement"], duel(Color::Red, 1));
        let id = saved["id"].as_str().unwrap().to_owned();

        // Every problem at once, as for a game setup.
        let mut broken = duel(Color::Red, 2);
        broken["a5"] = json!("scout");
        broken["c5"] = json!("dragon");
        let body = assert_problem(
            save(&app, &ann, json!({"name": "broken", "variant": "duel", "placement": broken})).await,
            422, "invalid_setup").await;
        assert!(body["problems"].as_array().unwrap().len() >= 2, "{body}");
        // The same name twice in a variant; fine in another variant.
        assert_problem(save(&app, &ann, json!({"name": "fortress", "variant": "duel",
                                                "placement": duel(Color::Red, 3)})).await,
                       409, "setup_name_taken").await;
        let barrage = serde_json::to_value(
            Setup::random(Variant::Barrage, Color::Red, 4).to_placement()).unwrap();
        assert_eq!(save(&app, &ann, json!({"name": "fortress", "variant": "barrage",
                                           "placement": barrage})).await.status(),
                   StatusCode::CREATED);
        assert_problem(save(&app, &ann, json!({"name": "", "variant": "duel",
                                                "placement": duel(Color::Red, 5)})).await,
                       422, "validation_failed").await;
        // Written on Blue's ranks, stored as for Red.
        let response = save(&app, &ann, json!({"name": "from blue", "variant": "duel",
                                               "color": "blue", "placement": duel(Color::Blue, 6)})).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        let turned: Value = response.json().await.unwrap();
        let expected = serde_json::to_value(
            Setup::random(Variant::Duel, Color::Blue, 6).turned().to_placement()).unwrap();
        assert_eq!(turned["placement"], expected);

        let list = get_json(&app, "/api/v1/me/setups?variant=duel", &ann).await;
        let names: Vec<&str> = list["setups"].as_array().unwrap().iter()
            .map(|s| s["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["fortress", "from blue"]);
        assert_eq!(get_json(&app, "/api/v1/me/setups", &ann).await["setups"].as_array().unwrap().len(), 3);

        let path = format!("/api/v1/me/setups/{id}");
        let response = send(&app, Method::PUT, &path, &ann, Some(json!({
            "name": "fortress 2", "variant": "duel", "placement": duel(Color::Red, 7)}))).await;
        assert_eq!(response.status(), StatusCode::OK);
        let replaced = get_json(&app, &path, &ann).await;
        assert_eq!(replaced["name"], "fortress 2");
        assert_eq!(replaced["placement"], duel(Color::Red, 7));
        assert_problem(send(&app, Method::PUT, &path, &ann, Some(json!({
            "name": "from blue", "variant": "duel", "placement": duel(Color::Red, 7)}))).await,
            409, "setup_name_taken").await;

        assert_eq!(send(&app, Method::DELETE, &path, &ann, None).await.status(), StatusCode::NO_CONTENT);
        assert_problem(send(&app, Method::GET, &path, &ann, None).await, 404, "not_found").await;
        assert_problem(send(&app, Method::DELETE, &path, &ann, None).await, 404, "not_found").await;
    }

    async fn nobody_reaches_another_players_library(app) {
        let ann = app.register_user("ann").await;
        let eve = app.register_user("eve").await;
        let saved: Value = save(&app, &ann, json!({"name": "secret", "variant": "duel",
                                                   "placement": duel(Color::Red, 9)})).await
            .json().await.unwrap();
        let path = format!("/api/v1/me/setups/{}", saved["id"].as_str().unwrap());
        // Eve cannot read, replace or delete it: it does not exist for her.
        assert_problem(send(&app, Method::GET, &path, &eve, None).await, 404, "not_found").await;
        assert_problem(send(&app, Method::PUT, &path, &eve, Some(json!({
            "name": "mine", "variant": "duel", "placement": duel(Color::Red, 10)}))).await,
            404, "not_found").await;
        assert_problem(send(&app, Method::DELETE, &path, &eve, None).await, 404, "not_found").await;
        assert!(get_json(&app, "/api/v1/me/setups", &eve).await["setups"].as_array().unwrap().is_empty());
        // Nor use it by name in her games.
        let id = seated_game(&app, &eve, &ann, Variant::Duel, &Rules::default()).await;
        let before = game_view(&app, &id, &eve).await["version"].clone();
        let setup = format!("/api/v1/games/{id}/setup");
        assert_problem(app.post_json(&setup, Some(&eve.access_token), &json!({"saved": "secret"})).await,
                       422, "validation_failed").await;
        assert_eq!(game_view(&app, &id, &eve).await["version"], before);
        // Ann's is untouched.
        let again = get_json(&app, &path, &ann).await;
        assert_eq!(again["name"], "secret");
        assert_eq!(again["placement"], duel(Color::Red, 9));
        // Without a token: 401.
        let response = app.client.get(app.url("/api/v1/me/setups")).send().await.unwrap();
        assert_problem(response, 401, "unauthorized").await;
    }

    /// A refusal decided before the game is read (no saved setup by that
    /// name; a game refused from its request alone) is stored under the
    /// request's key as every refusal is: the retry is refused the same
    /// way even once the setup is saved, and the key stays the first
    /// request's.
    async fn refusals_before_the_game_is_read_are_kept_under_the_key(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let id = seated_game(&app, &ann, &bob, Variant::Duel, &Rules::default()).await;
        let path = format!("/api/v1/games/{id}/setup");
        let keyed = |path: String, body: Value| {
            app.client.post(app.url(&path)).bearer_auth(&ann.access_token)
                .header("idempotency-key", "before-the-game").json(&body).send()
        };
        let first = keyed(path.clone(), json!({"saved": "wall"})).await.unwrap();
        assert_eq!(first.status().as_u16(), 422);
        let first = first.bytes().await.unwrap();
        let before = game_view(&app, &id, &ann).await;
        save(&app, &ann, json!({"name": "wall", "variant": "duel", "placement": duel(Color::Red, 3)})).await;
        let retry = keyed(path.clone(), json!({"saved": "wall"})).await.unwrap();
        assert_eq!(retry.status().as_u16(), 422);
        assert_eq!(retry.bytes().await.unwrap(), first, "the retry was not the first answer");
        assert_eq!(game_view(&app, &id, &ann).await, before, "the retry placed the setup");
        // Without the key the setup is placed.
        post_ok(&app, &path, &ann, &json!({"saved": "wall"}), 200).await;

        let games = "/api/v1/games".to_owned();
        let refused = app.client.post(app.url(&games)).bearer_auth(&bob.access_token)
            .header("idempotency-key", "bad-create")
            .json(&json!({"variant": "duel", "days_per_move": 99})).send().await.unwrap();
        assert_problem(refused, 422, "validation_failed").await;
        let other = app.client.post(app.url(&games)).bearer_auth(&bob.access_token)
            .header("idempotency-key", "bad-create")
            .json(&json!({"variant": "duel"})).send().await.unwrap();
        assert_problem(other, 422, "idempotency_key_reused").await;
    }

    async fn a_saved_setup_is_used_on_either_side(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let placement = duel(Color::Red, 11);
        save(&app, &ann, json!({"name": "wall", "variant": "duel", "placement": placement})).await;
        // Ann as Red, then as Blue.
        for (red, blue, ann_color) in [(&ann, &bob, Color::Red), (&bob, &ann, Color::Blue)] {
            let id = seated_game(&app, red, blue, Variant::Duel, &Rules::default()).await;
            let path = format!("/api/v1/games/{id}/setup");
            let view = post_ok(&app, &path, &ann, &json!({"saved": "wall"}), 200).await;
            let expected = Setup::random(Variant::Duel, Color::Red, 11).for_color(ann_color);
            let mine: Vec<(String, String)> = view["board"].as_array().unwrap().iter()
                .filter(|p| p["color"] == json!(ann_color))
                .map(|p| (p["square"].as_str().unwrap().to_owned(), p["piece"].as_str().unwrap().to_owned()))
                .collect();
            let mut want: Vec<(String, String)> = expected.pieces().iter()
                .map(|(s, p)| (s.to_string(), p.name().to_owned())).collect();
            want.sort();
            let mut got = mine.clone();
            got.sort();
            assert_eq!(got, want, "as {ann_color:?}");
            // Bob sees none of its ranks.
            let other = game_view(&app, &id, &bob).await;
            assert!(other["board"].as_array().unwrap().iter()
                .filter(|p| p["color"] == json!(ann_color)).all(|p| p["piece"].is_null()), "{other}");
        }
        // A name that is not in the library for this variant.
        let id = seated_game(&app, &ann, &bob, Variant::Classic, &Rules::default()).await;
        let path = format!("/api/v1/games/{id}/setup");
        let body = assert_problem(app.post_json(&path, Some(&ann.access_token), &json!({"saved": "wall"})).await,
                                  422, "validation_failed").await;
        assert!(body["detail"].as_str().unwrap().contains("classic"), "{body}");
        // One source at a time.
        assert_problem(app.post_json(&path, Some(&ann.access_token),
                                     &json!({"saved": "wall", "random": true})).await,
                       422, "validation_failed").await;
    }

    async fn the_library_has_a_limit(app) {
        let ann = app.register_user("ann").await;
        for i in 0..50 {
            let response = save(&app, &ann, json!({"name": format!("s{i}"), "variant": "duel",
                                                   "placement": duel(Color::Red, i)})).await;
            assert_eq!(response.status(), StatusCode::CREATED);
        }
        let body = assert_problem(save(&app, &ann, json!({"name": "one more", "variant": "duel",
                                                           "placement": duel(Color::Red, 99)})).await,
                                  422, "validation_failed").await;
        assert!(body["detail"].as_str().unwrap().contains("50"), "{body}");
    }
}

backend_tests! {
    async fn a_rematch_swaps_the_colors_and_is_offered_once(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let eve = app.register_user("eve").await;
        let rules = json!({"silent_defense": true, "two_square_limit": 5});
        let body = json!({"variant": "barrage", "color": "red", "opponent": "bob",
                          "days_per_move": 2, "rules": rules});
        let id = create_game(&app, &ann, &body).await;
        let path = format!("/api/v1/games/{id}/rematch");
        // Not before the end.
        join_game(&app, &id, &bob).await;
        assert_problem(app.post_json(&path, Some(&bob.access_token), &json!({})).await,
                       409, "wrong_phase").await;
        place_setup(&app, &id, &ann, 1).await;
        place_setup(&app, &id, &bob, 2).await;
        post_ok(&app, &format!("/api/v1/games/{id}/resign"), &ann, &json!({}), 200).await;
        // Only a player may offer it.
        assert_problem(app.post_json(&path, Some(&eve.access_token), &json!({})).await,
                       403, "forbidden").await;

        let offered = post_ok(&app, &path, &bob, &json!({}), 201).await;
        let new_id = offered["id"].as_str().unwrap().to_owned();
        assert_ne!(new_id, id);
        assert_eq!(offered["status"], "waiting");
        assert_eq!(offered["variant"], "barrage");
        assert_eq!(offered["days_per_move"], 2);
        assert_eq!(offered["rules"]["silent_defense"], true);
        assert_eq!(offered["rules"]["two_square_limit"], 5);
        // Bob was Blue; now he is Red, and Ann is challenged.
        assert_eq!(offered["players"]["red"]["id"], json!(bob.id));
        assert!(offered["players"]["blue"].is_null());
        let events = feed(&app, &ann).await;
        let offer = events.iter().find(|e| e["type"] == "rematch_offered").expect("an offer");
        assert_eq!(offer["game_id"], json!(new_id));
        assert_eq!(offer["rematch_of"], json!(id));
        assert_eq!(offer["from"], "bob");
        // Once per game, whoever asks; a refused offer creates no game.
        let games_of = |user: &TestUser| {
            let user = user.clone();
            let app = &app;
            async move {
                get_json(app, "/api/v1/games?mine=true&limit=100", &user).await["games"]
                    .as_array().unwrap().len()
            }
        };
        let (ann_games, bob_games) = (games_of(&ann).await, games_of(&bob).await);
        for user in [&ann, &bob, &eve] {
            let refused = app.post_json(&path, Some(&user.access_token), &json!({})).await;
            let (status, code) = if user.id == eve.id { (403, "forbidden") } else { (409, "wrong_phase") };
            assert_problem(refused, status, code).await;
        }
        assert_eq!((games_of(&ann).await, games_of(&bob).await), (ann_games, bob_games));
        assert_eq!(game_view(&app, &id, &ann).await["status"], "finished");
        // Ann accepts by joining: she is Blue now.
        let joined = join_game(&app, &new_id, &ann).await;
        assert_eq!(joined["players"]["blue"]["id"], json!(ann.id));
        assert_eq!(joined["players"]["red"]["id"], json!(bob.id));
    }
}
