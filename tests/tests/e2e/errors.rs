//! Every error path answers application/problem+json with a stable code:
//! unknown routes, wrong methods, malformed JSON, unknown fields, bodies
//! that are not JSON objects, oversized bodies, wrong content types.

use domain::Rules;
use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{assert_problem, PASSWORD};
use crate::support::*;

backend_tests! {
    async fn unknown_routes_are_404_problems(app) {
        for path in ["/", "/nope", "/api/v1", "/api/v1/nothing/here", "/api/v2/me"] {
            assert_problem(app.get(path, None).await, 404, "not_found").await;
        }
    }

    async fn wrong_methods_are_405_problems_with_allow(app) {
        let response = app.get("/api/v1/auth/login", None).await;
        assert_eq!(response.headers()["allow"], "POST");
        assert_problem(response, 405, "method_not_allowed").await;
        let response = app.client.put(app.url("/api/v1/me")).send().await.unwrap();
        assert_eq!(response.headers()["allow"], "GET, DELETE");
        assert_problem(response, 405, "method_not_allowed").await;
        let response = app.post_json("/healthz", None, &json!({})).await;
        assert_problem(response, 405, "method_not_allowed").await;
    }

    async fn malformed_json_is_a_400_problem(app) {
        for body in ["{", "not json", "", "{\"username\": \"ann\", \"password\": }"] {
            let response = app.client.post(app.url("/api/v1/auth/register"))
                .header("content-type", "application/json")
                .body(body).send().await.unwrap();
            assert_problem(response, 400, "validation_failed").await;
        }
    }

    async fn wrong_types_are_422_problems_that_do_not_echo_values(app) {
        let response = app.post_json("/api/v1/auth/login", None,
            &json!({"username": "ann", "password": 987654321})).await;
        let body = assert_problem(response, 422, "validation_failed").await;
        assert!(!body.to_string().contains("987654321"), "{body}");
        let response = app.post_json("/api/v1/auth/login", None, &json!("ann")).await;
        assert_problem(response, 422, "validation_failed").await;
    }

    async fn wrong_content_types_are_415_problems(app) {
        let body = json!({"username": "ann", "password": PASSWORD}).to_string();
        let response = app.client.post(app.url("/api/v1/auth/register"))
            .header("content-type", "text/plain").body(body.clone()).send().await.unwrap();
        assert_problem(response, 415, "unsupported_media_type").await;
        let response = app.client.post(app.url("/api/v1/auth/register"))
            .body(body.clone()).send().await.unwrap();
        assert_problem(response, 415, "unsupported_media_type").await;
        let response = app.client.post(app.url("/api/v1/auth/register"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("username=ann&password=correct+horse+battery").send().await.unwrap();
        assert_problem(response, 415, "unsupported_media_type").await;
        // Nothing was registered.
        assert_eq!(app.login("ann", PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
    }

    async fn every_answer_carries_a_request_id(app) {
        let ok = app.get("/healthz", None).await;
        let id = ok.headers()["x-request-id"].to_str().unwrap().to_owned();
        assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
        let error = app.get("/nope", None).await;
        assert!(error.headers().contains_key("x-request-id"));
        let echoed = app.client.get(app.url("/healthz"))
            .header("x-request-id", "lb-1234.abc").send().await.unwrap();
        assert_eq!(echoed.headers()["x-request-id"], "lb-1234.abc");
        let replaced = app.client.get(app.url("/healthz"))
            .header("x-request-id", "<script>").send().await.unwrap();
        assert_ne!(replaced.headers()["x-request-id"], "<script>");
    }

    async fn oversized_bodies_are_413_problems(app, config = |c| c.max_body_bytes = 1024) {
        let huge = json!({"username": "ann", "password": "p".repeat(4096)});
        let body = assert_problem(
            app.post_json("/api/v1/auth/register", None, &huge).await,
            413,
            "payload_too_large",
        )
        .await;
        assert!(body["detail"].as_str().unwrap().contains("1024"), "{body}");
        assert_eq!(
            app.login("ann", PASSWORD).await.status(),
            StatusCode::UNAUTHORIZED
        );
    }

    /// Request bodies that are JSON arrays were once read as structs (serde
    /// fills the fields in order, so `["a4", "a5"]` played a move and
    /// `["name", "password"]` registered an account).
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
}

backend_tests! {
    /// A problem's `type` URI answers: a page explaining it, without a token.
    async fn problem_types_resolve_to_their_explanation(app) {
        let response = app.post_json("/api/v1/games", None, &serde_json::json!({})).await;
        let problem = assert_problem(response, 401, "unauthorized").await;
        let page = app.get(problem["type"].as_str().unwrap(), None).await;
        assert_eq!(page.status(), 200);
        for kind in api::ProblemKind::ALL {
            let page = app.get(&kind.type_uri(), None).await;
            assert_eq!(page.status(), 200, "{}", kind.type_uri());
            assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
            let text = page.text().await.unwrap();
            assert!(text.contains(kind.code()) && text.contains(kind.title()), "{text}");
        }
        let unknown = app.get("/problems/no-such-thing", None).await;
        assert_problem(unknown, 404, "not_found").await;
    }
}
