//! Every error path answers application/problem+json with a stable code:
//! unknown routes, wrong methods, malformed JSON, unknown fields, oversized
//! bodies, wrong content types.

use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{assert_problem, PASSWORD};

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
        let response = app.client.delete(app.url("/api/v1/me")).send().await.unwrap();
        assert_eq!(response.headers()["allow"], "GET");
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
}
