//! The edges of every request: a path id that is not a UUID, a query value
//! that is not accepted, and `wait` out of range all answer 400
//! `validation_failed` as application/problem+json, in the API's own words,
//! naming the parameter and what it accepts; `wait` alike on every endpoint.

use serde_json::{json, Value};

use crate::harness::{assert_problem, TestApp, TestUser};

/// Asserts a 400 `validation_failed` problem whose detail holds every one
/// of `words`; returns the detail.
async fn assert_refused(app: &TestApp, path: &str, user: &TestUser, words: &[&str]) -> String {
    let response = app.get(path, Some(&user.access_token)).await;
    let body = assert_problem(response, 400, "validation_failed").await;
    let detail = body["detail"].as_str().unwrap().to_owned();
    for word in words {
        assert!(detail.contains(word), "{path}: {detail:?} lacks {word:?}");
    }
    for framework in ["deserialize", "Path", "Query"] {
        assert!(!detail.contains(framework), "{path}: {detail:?}");
    }
    detail
}

async fn new_game(app: &TestApp, user: &TestUser) -> (String, i64) {
    let response = app
        .post_json("/api/v1/games", Some(&user.access_token), &json!({}))
        .await;
    assert_eq!(response.status().as_u16(), 201);
    let game: Value = response.json().await.unwrap();
    (
        game["id"].as_str().unwrap().to_owned(),
        game["version"].as_i64().unwrap(),
    )
}

backend_tests! {
    async fn a_path_id_that_is_not_a_uuid_is_a_400_in_our_words(app) {
        let ann = app.register_user("ann").await;
        let detail = assert_refused(&app, "/api/v1/games/not-a-uuid", &ann, &["game id"]).await;
        assert_eq!(detail, "game id `not-a-uuid` is not a UUID");
        for path in ["/api/v1/games/not-a-uuid/moves", "/api/v1/games/12345/stream"] {
            assert_refused(&app, path, &ann, &["game id", "is not a UUID"]).await;
        }
        let response = app
            .post_json("/api/v1/games/not-a-uuid/join", Some(&ann.access_token), &json!({}))
            .await;
        let body = assert_problem(response, 400, "validation_failed").await;
        assert_eq!(body["detail"], "game id `not-a-uuid` is not a UUID");
        // A well-formed id of no game is still 404.
        let missing = format!("/api/v1/games/{}", uuid::Uuid::new_v4());
        assert_problem(app.get(&missing, Some(&ann.access_token)).await, 404, "not_found").await;
    }

    async fn query_values_that_are_not_accepted_are_named_with_what_is(app) {
        let ann = app.register_user("ann").await;
        let detail = assert_refused(&app, "/api/v1/games?status=bogus", &ann,
            &["`status`", "`bogus`", "`waiting`", "`playing`", "`finished`"]).await;
        assert!(detail.starts_with("query parameter `status`: `bogus` is not accepted; expected one of"),
            "{detail}");
        let detail = assert_refused(&app, "/api/v1/games?limit=abc", &ann, &["`limit`"]).await;
        assert_eq!(detail,
            "query parameter `limit`: `abc` is not accepted; expected a whole number from 1 to 100");
        let detail = assert_refused(&app, "/api/v1/games?mine=maybe", &ann, &["`mine`"]).await;
        assert_eq!(detail,
            "query parameter `mine`: `maybe` is not accepted; expected `true` or `false`");
        assert_refused(&app, "/api/v1/games?my_turn=1&limit=5", &ann,
            &["`my_turn`", "`true` or `false`"]).await;
        assert_refused(&app, "/api/v1/events?after=x", &ann,
            &["`after`", "a whole number, 0 or more"]).await;
        let detail = assert_refused(&app, "/api/v1/events?colour=red", &ann,
            &["`after`", "`limit`", "`wait`"]).await;
        assert!(detail.starts_with("unknown query parameter `colour`; accepted: "), "{detail}");
        assert_refused(&app, "/api/v1/events/stream?after=soon", &ann, &["`after`"]).await;
        // The valid values still work.
        for path in ["/api/v1/games?status=playing&mine=true&limit=5", "/api/v1/events?after=0&limit=5"] {
            let response = app.get(path, Some(&ann.access_token)).await;
            assert_eq!(response.status().as_u16(), 200, "{path}");
        }
    }

    async fn wait_has_the_same_bounds_and_refusal_on_every_endpoint(app) {
        let ann = app.register_user("ann").await;
        let (id, version) = new_game(&app, &ann).await;
        let game = format!("/api/v1/games/{id}?wait_for_version={version}&");
        for bad in ["61", "3600", "abc", "-1"] {
            let on_events = assert_refused(&app, &format!("/api/v1/events?wait={bad}"), &ann,
                &["`wait`", "a whole number from 0 to 60"]).await;
            let on_game = assert_refused(&app, &format!("{game}wait={bad}"), &ann,
                &["`wait`", "a whole number from 0 to 60"]).await;
            assert_eq!(on_events, on_game, "wait={bad}");
        }
        // 0 answers at once on both, and 60 is the largest accepted.
        let response = app.get(&format!("{game}wait=0"), Some(&ann.access_token)).await;
        assert_eq!(response.status().as_u16(), 200);
        let response = app.get("/api/v1/events?after=0&wait=0", Some(&ann.access_token)).await;
        assert_eq!(response.status().as_u16(), 200);
        let later = format!("/api/v1/games/{id}?wait_for_version={}&wait=60", version - 1);
        let response = app.get(&later, Some(&ann.access_token)).await;
        assert_eq!(response.status().as_u16(), 200);
    }
}
