//! Accounts: register, login, refresh rotation and reuse detection, logout,
//! /me, and every way authentication can fail.

use base64::Engine;
use chrono::Duration;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{assert_problem, spawn_app_with, TestApp, PASSWORD};
use crate::support::get_json;

fn b64(value: &Value) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value.to_string())
}

fn decode_part(part: &str) -> Value {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

async fn me_status(app: &TestApp, token: &str) -> Value {
    assert_problem(
        app.get("/api/v1/me", Some(token)).await,
        401,
        "unauthorized",
    )
    .await
}

async fn refresh(app: &TestApp, token: &str) -> reqwest::Response {
    app.post_json(
        "/api/v1/auth/refresh",
        None,
        &json!({"refresh_token": token}),
    )
    .await
}

backend_tests! {
    /// A token that outlived its account (the user row is gone) is refused
    /// with 401 on the game routes too, as on /me, not a 500 from the
    /// database's foreign keys; nothing is written.
    async fn a_token_of_an_account_that_is_gone_answers_401(app) {
        let ann = app.register_user("gone_ann").await;
        let bo = app.register_user("gone_bo").await;
        let open = crate::support::create_game(&app, &bo, &json!({})).await;
        let id = ann.id.clone();
        api::db::run(&app.pool, move |conn| {
            use diesel::prelude::*;
            use api::schema::users;
            diesel::delete(users::table.filter(users::id.eq(id))).execute(conn)?;
            Ok(())
        })
        .await
        .unwrap();
        let token = Some(ann.access_token.as_str());
        let created = app.post_json("/api/v1/games", token, &json!({})).await;
        assert_problem(created, 401, "unauthorized").await;
        let joined = app
            .post_json(&format!("/api/v1/games/{open}/join"), token, &json!({}))
            .await;
        assert_problem(joined, 401, "unauthorized").await;
        assert_problem(app.get("/api/v1/me", token).await, 401, "unauthorized").await;
        // The open game is untouched: still waiting, still version 1.
        let view = crate::support::game_view(&app, &open, &bo).await;
        assert_eq!(view["status"], "waiting");
        assert_eq!(view["version"], 1);
    }

    async fn register_returns_the_user_and_working_tokens(app) {
        let response = app.register("ann", PASSWORD).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        assert_eq!(response.headers()["cache-control"], "no-store");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["user"]["username"], "ann");
        let id = body["user"]["id"].as_str().unwrap();
        assert!(uuid::Uuid::parse_str(id).is_ok());
        let created = body["user"]["created_at"].as_str().unwrap();
        let created = chrono::DateTime::parse_from_rfc3339(created).unwrap();
        assert_eq!(created.offset().local_minus_utc(), 0);
        assert_eq!(body["token_type"], "Bearer");
        assert_eq!(body["expires_in"], 900);
        assert!(body["refresh_token"].as_str().unwrap().len() >= 43);
        assert!(!body.to_string().contains(PASSWORD));

        let me = app.get("/api/v1/me", body["access_token"].as_str()).await;
        assert_eq!(me.status(), StatusCode::OK);
        let me: Value = me.json().await.unwrap();
        assert_eq!(me, body["user"]);
    }

    async fn access_tokens_are_pinned_hs256_jwts_with_issuer_and_audience(app) {
        let user = app.register_user("ann").await;
        let parts: Vec<&str> = user.access_token.split('.').collect();
        assert_eq!(parts.len(), 3);
        let header = decode_part(parts[0]);
        assert_eq!(header["alg"], "HS256");
        let claims = decode_part(parts[1]);
        assert_eq!(claims["sub"], user.id.as_str());
        assert_eq!(claims["iss"], "stratego");
        assert_eq!(claims["aud"], "stratego-api");
        let now = app.now().timestamp();
        assert_eq!(claims["exp"].as_i64().unwrap(), now + 900);
    }

    async fn usernames_are_unique_regardless_of_case(app) {
        app.register_user("Ann_1").await;
        let body = assert_problem(app.register("aNN_1", "another password").await, 409, "username_taken").await;
        assert!(body["detail"].as_str().unwrap().contains("taken"));
        // Login is case-insensitive too and keeps the registered spelling.
        let login = app.login("ANN_1", PASSWORD).await;
        assert_eq!(login.status(), StatusCode::OK);
        let token: Value = login.json().await.unwrap();
        let me: Value = app.get("/api/v1/me", token["access_token"].as_str()).await.json().await.unwrap();
        assert_eq!(me["username"], "Ann_1");
    }

    async fn registration_validates_username_and_password(app) {
        for (username, password, field) in [
            ("ab", PASSWORD, "username"),
            ("a".repeat(33).as_str(), PASSWORD, "username"),
            ("ann smith", PASSWORD, "username"),
            ("änn", PASSWORD, "username"),
            ("ann", "short", "password"),
            ("ann", "x".repeat(129).as_str(), "password"),
        ] {
            let body = assert_problem(app.register(username, password).await, 422, "validation_failed").await;
            let errors = body["errors"].as_array().unwrap();
            assert_eq!(errors.len(), 1, "{body}");
            assert_eq!(errors[0]["field"], field, "{body}");
            assert!(!body.to_string().contains(password) || password.len() < 8, "{body}");
        }
        // Every problem at once.
        let body = assert_problem(app.register("a", "b").await, 422, "validation_failed").await;
        assert_eq!(body["errors"].as_array().unwrap().len(), 2);
        // Boundaries are accepted.
        assert_eq!(app.register("a-_", "12345678").await.status(), StatusCode::CREATED);
        assert_eq!(app.register(&"Z".repeat(32), &"p".repeat(128)).await.status(), StatusCode::CREATED);
        // Nothing was stored for the rejected names.
        assert_eq!(app.login("ann", PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
    }

    async fn unknown_and_missing_fields_are_rejected(app) {
        let body = assert_problem(
            app.post_json("/api/v1/auth/register", None,
                &json!({"username": "ann", "password": PASSWORD, "admin": true})).await,
            422, "validation_failed").await;
        assert!(body["detail"].as_str().unwrap().contains("admin"), "{body}");
        let body = assert_problem(
            app.post_json("/api/v1/auth/register", None, &json!({"username": "ann"})).await,
            422, "validation_failed").await;
        assert!(body["detail"].as_str().unwrap().contains("password"), "{body}");
        assert_eq!(app.login("ann", PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
    }

    async fn login_returns_a_token_pair(app) {
        let user = app.register_user("ann").await;
        let response = app.login("ann", PASSWORD).await;
        assert_eq!(response.status(), StatusCode::OK);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["token_type"], "Bearer");
        assert_eq!(body["expires_in"], 900);
        assert_ne!(body["refresh_token"], user.refresh_token.as_str());
        let me: Value = app.get("/api/v1/me", body["access_token"].as_str()).await.json().await.unwrap();
        assert_eq!(me["id"], user.id.as_str());
    }

    async fn wrong_password_and_unknown_user_answer_alike(app) {
        app.register_user("ann").await;
        let wrong_password = assert_problem(app.login("ann", "wrong password").await, 401, "unauthorized").await;
        let unknown_user = assert_problem(app.login("bob", PASSWORD).await, 401, "unauthorized").await;
        assert_eq!(wrong_password, unknown_user);
    }

    async fn refresh_rotates_and_reuse_revokes_the_whole_session(app) {
        let user = app.register_user("ann").await;
        let first = refresh(&app, &user.refresh_token).await;
        assert_eq!(first.status(), StatusCode::OK);
        let first: Value = first.json().await.unwrap();
        let second_token = first["refresh_token"].as_str().unwrap().to_owned();
        assert_ne!(second_token, user.refresh_token);
        let me = app.get("/api/v1/me", first["access_token"].as_str()).await;
        assert_eq!(me.status(), StatusCode::OK);

        // The rotated token keeps working once...
        let second = refresh(&app, &second_token).await;
        assert_eq!(second.status(), StatusCode::OK);
        let second: Value = second.json().await.unwrap();
        let third_token = second["refresh_token"].as_str().unwrap().to_owned();

        // ...but presenting a spent token again is theft: the session dies.
        let body = assert_problem(refresh(&app, &user.refresh_token).await, 401, "unauthorized").await;
        assert!(body["detail"].as_str().unwrap().contains("already used"), "{body}");
        assert_problem(refresh(&app, &third_token).await, 401, "unauthorized").await;

        // Other sessions (another login) are untouched.
        let login: Value = app.login("ann", PASSWORD).await.json().await.unwrap();
        let other = refresh(&app, login["refresh_token"].as_str().unwrap()).await;
        assert_eq!(other.status(), StatusCode::OK);
    }

    async fn unknown_and_expired_refresh_tokens_are_refused(app) {
        let user = app.register_user("ann").await;
        assert_problem(refresh(&app, "not-a-real-token").await, 401, "unauthorized").await;
        assert_problem(refresh(&app, "").await, 401, "unauthorized").await;
        app.clock.advance(Duration::days(30));
        let body = assert_problem(refresh(&app, &user.refresh_token).await, 401, "unauthorized").await;
        assert!(body["detail"].as_str().unwrap().contains("expired"), "{body}");
    }

    async fn logout_revokes_the_refresh_token(app) {
        let user = app.register_user("ann").await;
        let other: Value = app.login("ann", PASSWORD).await.json().await.unwrap();
        let response = app.post_json("/api/v1/auth/logout", None,
            &json!({"refresh_token": user.refresh_token})).await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        assert!(response.bytes().await.unwrap().is_empty());
        assert_problem(refresh(&app, &user.refresh_token).await, 401, "unauthorized").await;
        // Logging out twice, or with an unknown token, reveals nothing.
        let again = app.post_json("/api/v1/auth/logout", None,
            &json!({"refresh_token": user.refresh_token})).await;
        assert_eq!(again.status(), StatusCode::NO_CONTENT);
        let unknown = app.post_json("/api/v1/auth/logout", None,
            &json!({"refresh_token": "nope"})).await;
        assert_eq!(unknown.status(), StatusCode::NO_CONTENT);
        // The other session still works.
        let still = refresh(&app, other["refresh_token"].as_str().unwrap()).await;
        assert_eq!(still.status(), StatusCode::OK);
    }

    async fn me_requires_a_bearer_token(app) {
        let response = app.get("/api/v1/me", None).await;
        assert_eq!(response.headers()["www-authenticate"], "Bearer");
        assert_problem(response, 401, "unauthorized").await;
        for header in ["Basic YW5uOnB3", "Bearer", "Bearer ", "Token abc", "bearer not.a.jwt", "Bearer a.b"] {
            let response = app.client.get(app.url("/api/v1/me"))
                .header("Authorization", header).send().await.unwrap();
            assert_eq!(response.headers()["www-authenticate"], "Bearer error=\"invalid_token\"", "{header}");
            assert_problem(response, 401, "unauthorized").await;
        }
    }

    async fn expired_access_tokens_are_refused(app) {
        let user = app.register_user("ann").await;
        app.clock.advance(Duration::seconds(899));
        assert_eq!(app.get("/api/v1/me", Some(&user.access_token)).await.status(), StatusCode::OK);
        app.clock.advance(Duration::seconds(1));
        let body = me_status(&app, &user.access_token).await;
        assert!(body["detail"].as_str().unwrap().contains("expired"), "{body}");
    }

    async fn tampered_and_unsigned_tokens_are_refused(app) {
        let user = app.register_user("ann").await;
        let parts: Vec<&str> = user.access_token.split('.').collect();

        // Claims changed after signing.
        let mut claims = decode_part(parts[1]);
        claims["sub"] = json!(uuid::Uuid::new_v4().to_string());
        let forged = format!("{}.{}.{}", parts[0], b64(&claims), parts[2]);
        me_status(&app, &forged).await;

        // Signature altered.
        let mut signature = parts[2].to_owned();
        let last = signature.pop().unwrap();
        signature.push(if last == 'A' { 'B' } else { 'A' });
        me_status(&app, &format!("{}.{}.{signature}", parts[0], parts[1])).await;

        // `alg: none`, with and without a signature part.
        let none = b64(&json!({"alg": "none", "typ": "JWT"}));
        me_status(&app, &format!("{none}.{}.", parts[1])).await;
        me_status(&app, &format!("{none}.{}", parts[1])).await;
        me_status(&app, &format!("{none}.{}.{}", parts[1], parts[2])).await;

        // Another HMAC algorithm than the pinned one.
        let hs512 = b64(&json!({"alg": "HS512", "typ": "JWT"}));
        me_status(&app, &format!("{hs512}.{}.{}", parts[1], parts[2])).await;
    }

    async fn tokens_from_another_secret_audience_or_issuer_are_refused(app) {
        let backend = app.backend;
        let other_secret = spawn_app_with(backend, |c| {
            c.jwt_secret = api::config::Secret::new("another-secret-another-secret-0123456789");
        }).await;
        let other_audience = spawn_app_with(backend, |c| c.jwt_audience = "someone-else".into()).await;
        let other_issuer = spawn_app_with(backend, |c| c.jwt_issuer = "someone-else".into()).await;
        for (label, other) in [("secret", &other_secret), ("audience", &other_audience), ("issuer", &other_issuer)] {
            let stranger = other.register_user("ann").await;
            let parts: Vec<&str> = stranger.access_token.split('.').collect();
            let claims = decode_part(parts[1]);
            if label == "audience" {
                assert_eq!(claims["aud"], "someone-else");
            }
            let body = me_status(&app, &stranger.access_token).await;
            assert!(body["detail"].as_str().unwrap().contains("invalid"), "{label}: {body}");
        }
    }

    async fn logins_are_rate_limited(app, config = |c| c.login_attempts_per_minute = 3) {
        app.register_user("ann").await;
        for _ in 0..3 {
            assert_problem(
                app.login("ann", "wrong password").await,
                401,
                "unauthorized",
            )
            .await;
        }
        let response = app.login("ann", PASSWORD).await;
        let retry_after: u64 = response.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&retry_after), "{retry_after}");
        let body = assert_problem(response, 429, "rate_limited").await;
        assert_eq!(body["retry_after"], retry_after);

        // The limit is per username too: another address cannot be faked
        // here, but another username from the same address is also counted
        // against the address, so it is refused as well.
        assert_problem(app.login("bob", PASSWORD).await, 429, "rate_limited").await;

        // A minute later the window has passed.
        app.clock.advance(Duration::seconds(60));
        assert_eq!(app.login("ann", PASSWORD).await.status(), StatusCode::OK);
    }

    /// On PostgreSQL a login or a challenge naming a user with a NUL
    /// character once answered 500 (the database refuses such strings).
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
}

postgres_tests! {
    /// Two processes on one database share one allowance: attempts on
    /// either count against the same window (SECURITY.md, "Rate limits").
    async fn two_processes_share_one_login_allowance(
        app, config = |c| c.login_attempts_per_minute = 4
    ) {
        app.register_user("shared_ann").await;
        let replica = crate::support::Replica::start_with(&app, |c| c.login_attempts_per_minute = 4).await;
        for n in 0..4 {
            let response = if n % 2 == 0 {
                app.login("shared_ann", "wrong password").await
            } else {
                replica.login("shared_ann", "wrong password").await
            };
            assert_problem(response, 401, "unauthorized").await;
        }
        // The fifth, on either process, is over the allowance of 4.
        assert_problem(replica.login("shared_ann", PASSWORD).await, 429, "rate_limited").await;
        assert_problem(app.login("shared_ann", PASSWORD).await, 429, "rate_limited").await;
        app.clock.advance(Duration::seconds(60));
        assert_eq!(replica.login("shared_ann", PASSWORD).await.status(), StatusCode::OK);
        replica.stop().await;
    }
}
