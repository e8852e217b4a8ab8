//! A database that stops answering, or refuses connections, never leaves a
//! request hanging: each answers 503 `service_unavailable` with
//! `Retry-After`, within the `DATABASE_TIMEOUT_SECONDS` bound, and the
//! server recovers by itself once the database is back. The faults come
//! from a proxy between the server and PostgreSQL (`proxy.rs`), so the
//! shared PostgreSQL server is never disturbed; the suite that stops and
//! freezes a real PostgreSQL cluster of its own is `faults.rs`.
//!
//! The assertions on time are only "answered at all before a generous
//! deadline": without the bounds, these requests wait as long as the fault
//! lasts (here: longer than the deadline).

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{assert_problem, spawn_app_on, TestApp, TestDatabase, TestUser};
use crate::proxy::Proxy;

/// How long a test waits for any one answer. Far above each bound the
/// server is configured with; without them, the requests would hang for as
/// long as the fault is held, which is longer than this.
const ANSWER_DEADLINE: Duration = Duration::from_secs(20);

async fn app_through(proxy: &Proxy, database: TestDatabase, timeout: Duration) -> TestApp {
    let (admin_url, name) = database.postgres_parts().unwrap();
    let proxied = proxy.url_through(&crate::harness::with_database_name(admin_url, name));
    spawn_app_on(database, |c| {
        c.database = api::config::DatabaseUrl::Postgres(proxied);
        c.database_timeout = timeout;
    })
    .await
}

/// A game of `user`'s, viewed twice, so that the HTTP workers hold read
/// connections of their own when the fault starts.
async fn viewed_game(app: &TestApp, user: &TestUser) -> String {
    let create = json!({"variant": "classic", "color": "red", "days_per_move": 3});
    let created = app
        .post_json("/api/v1/games", Some(&user.access_token), &create)
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let id = created.json::<serde_json::Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for _ in 0..2 {
        let view = app
            .get(&format!("/api/v1/games/{id}"), Some(&user.access_token))
            .await;
        assert_eq!(view.status(), StatusCode::OK);
    }
    id
}

/// The answers to requests sent together while the fault holds: a move's
/// worth of reads and writes, a game's view (read on a worker's own
/// connection while the database answers) and the readiness probe.
async fn requests_during_fault(
    app: &TestApp,
    user: &TestUser,
    game: &str,
) -> Vec<(String, reqwest::Response)> {
    let client = reqwest::Client::builder()
        .timeout(ANSWER_DEADLINE)
        .build()
        .unwrap();
    let send = |method: reqwest::Method, path: &str, body: Option<serde_json::Value>| {
        let mut request = client
            .request(method.clone(), app.url(path))
            .bearer_auth(&user.access_token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let label = format!("{method} {path}");
        async move {
            let answer = request.send().await.unwrap_or_else(|e| {
                panic!("{label} got no answer before the deadline while the database failed: {e}")
            });
            (label, answer)
        }
    };
    let create = json!({"variant": "classic", "color": "red", "days_per_move": 3});
    let view = format!("/api/v1/games/{game}");
    let (a, b, c, d, e, f) = tokio::join!(
        send(reqwest::Method::GET, "/readyz", None),
        send(reqwest::Method::GET, "/api/v1/me", None),
        send(reqwest::Method::GET, "/api/v1/games", None),
        send(reqwest::Method::POST, "/api/v1/games", Some(create.clone())),
        send(reqwest::Method::POST, "/api/v1/games", Some(create)),
        send(reqwest::Method::GET, &view, None),
    );
    vec![a, b, c, d, e, f]
}

async fn assert_all_unavailable(answers: Vec<(String, reqwest::Response)>) {
    for (label, answer) in answers {
        assert!(
            answer.headers().contains_key("retry-after"),
            "{label}: {:?}",
            answer.headers()
        );
        assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE, "{label}");
        assert_problem(answer, 503, "service_unavailable").await;
    }
}

/// Polls `/readyz` until it answers 200 (the server recovers by itself),
/// then checks the account is still there.
async fn assert_recovers(app: &TestApp, user: &TestUser) {
    let until = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let ready = app.get("/readyz", None).await.status();
        if ready == StatusCode::OK {
            break;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the server did not recover after the database came back ({ready})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let me = app.get("/api/v1/me", Some(&user.access_token)).await;
    assert_eq!(me.status(), StatusCode::OK);
}

postgres_tests! {
    /// PostgreSQL alive but silent (what SIGSTOP or a network black hole
    /// looks like): the requests that hold a pooled connection, those
    /// waiting for one and `/readyz` all answer 503 within the 1 s bound
    /// instead of waiting for the database; and once it answers again, the
    /// connections left behind mid-statement are not reused.
    async fn a_frozen_database_answers_503_within_the_bound(database: TestDatabase) {
        let (admin_url, _) = database.postgres_parts().unwrap();
        let proxy = Proxy::to_server_of(admin_url).await;
        let app = app_through(&proxy, database, Duration::from_secs(1)).await;
        let user = app.register_user("ann").await;
        assert_eq!(app.get("/readyz", None).await.status(), StatusCode::OK);
        let game = viewed_game(&app, &user).await;

        proxy.freeze();
        let answers = requests_during_fault(&app, &user, &game).await;
        assert_all_unavailable(answers).await;
        // A second round, while the first round's connections are still
        // stuck in their statements.
        assert_all_unavailable(requests_during_fault(&app, &user, &game).await).await;

        proxy.restore().await;
        assert_recovers(&app, &user).await;
        // Every request afterwards works (no connection is left mid-statement
        // in the pool, and none of the refused games was half-written).
        for _ in 0..20 {
            let games = app.get("/api/v1/games?mine=true", Some(&user.access_token)).await;
            assert_eq!(games.status(), StatusCode::OK);
        }
        let games: serde_json::Value = app
            .get("/api/v1/games?mine=true", Some(&user.access_token))
            .await
            .json()
            .await
            .unwrap();
        for game in games["games"].as_array().unwrap() {
            assert_eq!(game["status"], "waiting", "{game}");
        }
    }

    /// PostgreSQL refusing connections (stopped): 503 at once, not after the
    /// pool's wait for a connection, set here to 30 s, longer than the
    /// deadline of each answer.
    async fn a_database_refusing_connections_answers_503_at_once(database: TestDatabase) {
        let (admin_url, _) = database.postgres_parts().unwrap();
        let proxy = Proxy::to_server_of(admin_url).await;
        let app = app_through(&proxy, database, Duration::from_secs(30)).await;
        let user = app.register_user("ann").await;
        let game = viewed_game(&app, &user).await;

        proxy.refuse().await;
        // The first round finds the pooled connections dead, the second an
        // empty pool.
        assert_all_unavailable(requests_during_fault(&app, &user, &game).await).await;
        assert_all_unavailable(requests_during_fault(&app, &user, &game).await).await;

        proxy.restore().await;
        assert_recovers(&app, &user).await;
    }
}

postgres_tests! {
    /// Each pooled connection carries the request bound as PostgreSQL's own
    /// `statement_timeout`, so the database gives up on a statement nobody
    /// waits for any more.
    async fn pooled_connections_carry_the_statement_timeout(app, config = |c| {
        c.database_timeout = Duration::from_secs(2);
    }) {
        use diesel::RunQueryDsl;
        #[derive(diesel::QueryableByName)]
        struct Setting {
            #[diesel(sql_type = diesel::sql_types::Text)]
            statement_timeout: String,
        }
        let pool = app.pool.clone();
        let shown = tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().unwrap();
            let api::db::DbConnection::Postgresql(pg) = &mut *conn else {
                unreachable!("a PostgreSQL test")
            };
            diesel::sql_query("SHOW statement_timeout")
                .get_result::<Setting>(pg)
                .unwrap()
                .statement_timeout
        })
        .await
        .unwrap();
        assert_eq!(shown, "2s");
    }
}
