//! Ending sessions (logout, logout everywhere, a password change), and
//! deleting an account: what each does to tokens, logins and games
//! (docs/accounts.md).

use std::time::{Duration, Instant};

use reqwest::{Response, StatusCode};
use serde_json::{json, Value};

use crate::harness::{assert_problem, test_config, TestApp, TestUser, PASSWORD};
use crate::support::{
    create_game, feed, game_view, get_json, join_game, place_setup, seated_game, start_game, types,
};

/// A second login of `user`: another session, another token pair.
async fn second_session(app: &TestApp, user: &TestUser) -> TestUser {
    let response = app.login(&user.username, &user.password).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    TestUser {
        access_token: body["access_token"].as_str().unwrap().to_owned(),
        refresh_token: body["refresh_token"].as_str().unwrap().to_owned(),
        ..user.clone()
    }
}

async fn me(app: &TestApp, token: &str) -> Response {
    app.get("/api/v1/me", Some(token)).await
}

async fn refresh(app: &TestApp, refresh_token: &str) -> Response {
    let body = json!({"refresh_token": refresh_token});
    app.post_json("/api/v1/auth/refresh", None, &body).await
}

async fn send(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> Response {
    let mut request = app.client.request(method, app.url(path)).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.unwrap()
}

async fn end_sessions(app: &TestApp, token: &str) -> Response {
    send(
        app,
        reqwest::Method::DELETE,
        "/api/v1/me/sessions",
        token,
        None,
    )
    .await
}

pub async fn delete_account(app: &TestApp, user: &TestUser, password: &str) -> Response {
    let body = json!({"password": password});
    send(
        app,
        reqwest::Method::DELETE,
        "/api/v1/me",
        &user.access_token,
        Some(body),
    )
    .await
}

async fn change_password(app: &TestApp, token: &str, current: &str, new: &str) -> Response {
    let body = json!({"current_password": current, "new_password": new});
    send(
        app,
        reqwest::Method::PUT,
        "/api/v1/me/password",
        token,
        Some(body),
    )
    .await
}

/// A refused token says so with the bearer challenge, and the session's end.
async fn assert_session_ended(response: Response) {
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = assert_problem(response, 401, "unauthorized").await;
    assert_eq!(challenge.as_deref(), Some("Bearer error=\"invalid_token\""));
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("session has ended"),
        "{body}"
    );
}

backend_tests! {
    async fn logout_ends_the_access_tokens_of_its_session_only(app) {
        let ann = app.register_user("ann").await;
        let phone = second_session(&app, &ann).await;
        let body = json!({"refresh_token": ann.refresh_token});
        let response = app.post_json("/api/v1/auth/logout", None, &body).await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        // The access token of the logged-out session is refused at once,
        // long before it would expire; the other session goes on.
        assert_session_ended(me(&app, &ann.access_token).await).await;
        assert_eq!(me(&app, &phone.access_token).await.status(), StatusCode::OK);
        assert_eq!(refresh(&app, &phone.refresh_token).await.status(), StatusCode::OK);
    }

    async fn logging_out_everywhere_ends_every_session(app) {
        let ann = app.register_user("ann").await;
        let phone = second_session(&app, &ann).await;
        let bo = app.register_user("bob").await;
        let response = end_sessions(&app, &phone.access_token).await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        for token in [&ann.access_token, &phone.access_token] {
            assert_session_ended(me(&app, token).await).await;
        }
        for token in [&ann.refresh_token, &phone.refresh_token] {
            let body = assert_problem(refresh(&app, token).await, 401, "unauthorized").await;
            assert_eq!(body["detail"], "the refresh token has been revoked");
        }
        // Nothing else is touched, and logging in again works.
        assert_eq!(me(&app, &bo.access_token).await.status(), StatusCode::OK);
        let again = second_session(&app, &ann).await;
        assert_eq!(get_json(&app, "/api/v1/me", &again).await["username"], "ann");
        // Without a token there is nothing to end.
        let response = app.client.delete(app.url("/api/v1/me/sessions")).send().await.unwrap();
        assert_problem(response, 401, "unauthorized").await;
    }

    async fn a_reused_refresh_token_ends_the_access_token_of_its_session(app) {
        let ann = app.register_user("ann").await;
        assert_eq!(refresh(&app, &ann.refresh_token).await.status(), StatusCode::OK);
        // The thief (or the owner) presents the spent token again.
        assert_problem(refresh(&app, &ann.refresh_token).await, 401, "unauthorized").await;
        assert_session_ended(me(&app, &ann.access_token).await).await;
    }

    async fn a_password_change_needs_the_password_and_ends_every_other_session(app) {
        let ann = app.register_user("ann").await;
        let phone = second_session(&app, &ann).await;
        let new_password = "a much better password";

        let body = assert_problem(
            change_password(&app, &ann.access_token, "not the password", new_password).await,
            403,
            "forbidden",
        )
        .await;
        assert_eq!(body["detail"], "the password is wrong");
        let body = assert_problem(
            change_password(&app, &ann.access_token, PASSWORD, "short").await,
            422,
            "validation_failed",
        )
        .await;
        assert_eq!(body["errors"][0]["field"], "new_password", "{body}");
        // Refused attempts changed nothing.
        assert_eq!(me(&app, &phone.access_token).await.status(), StatusCode::OK);
        assert_eq!(app.login("ann", PASSWORD).await.status(), StatusCode::OK);

        let response = change_password(&app, &ann.access_token, PASSWORD, new_password).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["cache-control"], "no-store");
        let pair: Value = response.json().await.unwrap();
        let fresh = pair["access_token"].as_str().unwrap();
        assert_eq!(me(&app, fresh).await.status(), StatusCode::OK);
        for token in [&ann.access_token, &phone.access_token] {
            assert_session_ended(me(&app, token).await).await;
        }
        assert_problem(refresh(&app, &phone.refresh_token).await, 401, "unauthorized").await;
        let fresh_refresh = pair["refresh_token"].as_str().unwrap();
        assert_eq!(refresh(&app, fresh_refresh).await.status(), StatusCode::OK);
        assert_problem(app.login("ann", PASSWORD).await, 401, "unauthorized").await;
        assert_eq!(app.login("ann", new_password).await.status(), StatusCode::OK);
    }

    async fn a_deleted_account_leaves_every_game_and_can_no_longer_log_in(app) {
        let ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let cy = app.register_user("cyd").await;
        let dee = app.register_user("dee").await;
        // In play (ann is Red), in setup, waiting for anyone, a challenge
        // to ann, and one already finished.
        let playing = start_game(&app, &ann, &bo, 3).await;
        let setup = seated_game(&app, &dee, &ann, domain::Variant::Classic,
                                &domain::Rules::default()).await;
        let open = create_game(&app, &ann, &json!({"variant": "classic"})).await;
        let challenge = create_game(&app, &cy, &json!({"opponent": "ann"})).await;
        let finished = start_game(&app, &bo, &ann, 3).await;
        let path = format!("/api/v1/games/{finished}/resign");
        assert_eq!(app.post_json(&path, Some(&ann.access_token), &json!({})).await.status(),
                   StatusCode::OK);
        let before = game_view(&app, &playing, &bo).await;

        // The wrong password changes nothing.
        let body = assert_problem(delete_account(&app, &ann, "not the password").await, 403,
                                  "forbidden").await;
        assert_eq!(body["detail"], "the password is wrong");
        assert_eq!(game_view(&app, &playing, &bo).await["version"], before["version"]);
        assert_eq!(me(&app, &ann.access_token).await.status(), StatusCode::OK);

        let response = delete_account(&app, &ann, PASSWORD).await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);

        // Every session ended; the account cannot log in.
        assert_session_ended(me(&app, &ann.access_token).await).await;
        assert_problem(refresh(&app, &ann.refresh_token).await, 401, "unauthorized").await;
        assert_problem(app.login("ann", PASSWORD).await, 401, "unauthorized").await;

        // The game in play was resigned: Bo won, and was told.
        let view = game_view(&app, &playing, &bo).await;
        assert_eq!(view["status"], "finished", "{view}");
        assert_eq!(view["result"]["winner"], "blue");
        assert_eq!(view["result"]["reason"], "resignation");
        assert_eq!(view["version"], before["version"].as_i64().unwrap() + 1);
        assert_eq!(view["players"]["red"]["username"], "[deleted]");
        assert_eq!(view["players"]["red"]["deleted"], true);
        assert_eq!(view["players"]["blue"]["deleted"], false);
        assert!(types(&feed(&app, &bo).await).contains(&"game_finished"));
        // The others ended before play.
        assert_eq!(game_view(&app, &setup, &dee).await["status"], "aborted");
        assert_eq!(game_view(&app, &open, &bo).await["status"], "aborted");
        assert_eq!(game_view(&app, &challenge, &cy).await["status"], "aborted");
        assert!(types(&feed(&app, &cy).await).contains(&"challenge_declined"));
        assert!(types(&feed(&app, &dee).await).contains(&"game_aborted"));
        // The finished game keeps its record, with the player shown deleted.
        let view = game_view(&app, &finished, &bo).await;
        assert_eq!(view["result"]["winner"], "red");
        assert_eq!(view["players"]["blue"]["username"], "[deleted]");
        let history = get_json(&app, &format!("/api/v1/games/{finished}/moves"), &bo).await;
        assert!(history["moves"].is_array(), "{history}");

        // The name is free again, for a new and different account.
        let again = app.register_user("ann").await;
        assert_ne!(again.id, ann.id);
        assert_eq!(game_view(&app, &finished, &bo).await["players"]["blue"]["username"],
                   "[deleted]");
        // A new game with the new account is not touched by anything above.
        let fresh = create_game(&app, &again, &json!({"variant": "classic"})).await;
        join_game(&app, &fresh, &bo).await;
        place_setup(&app, &fresh, &bo, 3).await;
        assert_eq!(game_view(&app, &fresh, &again).await["status"], "setup");
    }
}

postgres_tests! {
    /// A deletion interrupted after the account was marked (the server
    /// stopped before it left its games) is finished when a server starts.
    async fn a_server_finishes_an_interrupted_deletion_at_start(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let playing = start_game(&app, &ann, &bob, 3).await;
        let id = ann.id.clone();
        api::db::run(&app.pool, move |conn| {
            use api::schema::users;
            use diesel::prelude::*;
            diesel::update(users::table.filter(users::id.eq(id)))
                .set((
                    users::deleted_at.eq(diesel::dsl::now),
                    users::username.eq("[deleted]"),
                ))
                .execute(conn)?;
            Ok(())
        })
        .await
        .unwrap();
        assert_eq!(game_view(&app, &playing, &bob).await["status"], "playing");
        let replica = Replica::start(&app).await;
        let view = game_view(&app, &playing, &bob).await;
        assert_eq!(view["status"], "finished", "{view}");
        assert_eq!(view["result"]["reason"], "resignation");
        assert_eq!(view["result"]["winner"], "blue");
        replica.stop().await;
    }

    /// Another server on the same database refuses the tokens of a session
    /// ended here, told through the notification channel (no round trip
    /// on its requests), and one started afterwards reads it at start.
    async fn other_replicas_refuse_an_ended_session(app) {
        let ann = app.register_user("ann").await;
        let replica = Replica::start(&app).await;
        assert_eq!(replica.me(&ann.access_token).await, StatusCode::OK);

        assert_eq!(end_sessions(&app, &ann.access_token).await.status(),
                   StatusCode::NO_CONTENT);
        let deadline = Instant::now() + Duration::from_secs(10);
        while replica.me(&ann.access_token).await == StatusCode::OK {
            assert!(Instant::now() < deadline, "the other replica never heard of it");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(replica.me(&ann.access_token).await, StatusCode::UNAUTHORIZED);

        let late = Replica::start(&app).await;
        assert_eq!(late.me(&ann.access_token).await, StatusCode::UNAUTHORIZED);
        replica.stop().await;
        late.stop().await;
    }
}

/// A second server process on the test's database, in this process
/// (also used by ratings.rs).
pub struct Replica {
    pub address: String,
    handle: api::ServerHandle,
    pub client: reqwest::Client,
}

impl Replica {
    pub async fn start(app: &TestApp) -> Self {
        let config = test_config(app.database().url());
        let application = api::Application::build(config, app.clock.clone())
            .await
            .expect("the replica starts");
        let address = format!("http://127.0.0.1:{}", application.port());
        let handle = application.handle();
        tokio::spawn(application.run_until_stopped());
        Self {
            address,
            handle,
            client: reqwest::Client::new(),
        }
    }

    async fn me(&self, token: &str) -> StatusCode {
        self.client
            .get(format!("{}/api/v1/me", self.address))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .status()
    }

    pub async fn stop(self) {
        self.handle.stop(true).await;
    }
}
