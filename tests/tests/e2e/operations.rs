//! Probes, documentation, CORS, and surviving a database outage.

use diesel::{Connection, PgConnection, RunQueryDsl};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::assert_problem;

backend_tests! {
    async fn healthz_and_readyz_answer(app) {
        let health = app.get("/healthz", None).await;
        assert_eq!(health.status(), StatusCode::OK);
        assert_eq!(health.json::<Value>().await.unwrap(), json!({"status": "ok"}));
        let ready = app.get("/readyz", None).await;
        assert_eq!(ready.status(), StatusCode::OK);
        assert_eq!(ready.json::<Value>().await.unwrap(), json!({"status": "ready"}));
    }

    async fn docs_serve_swagger_ui_from_vendored_assets(app) {
        let page = app.get("/docs", None).await;
        assert_eq!(page.status(), StatusCode::OK);
        assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        let html = page.text().await.unwrap();
        assert!(html.contains("swagger-ui"), "{html}");
        assert!(!html.contains("http://") && !html.contains("https://unpkg"), "assets must be local: {html}");
        let init = app.get("/docs/swagger-initializer.js", None).await.text().await.unwrap();
        assert!(init.contains("/api-docs/openapi.json"), "{init}");
        let bundle = app.get("/docs/swagger-ui-bundle.js", None).await;
        assert_eq!(bundle.status(), StatusCode::OK);
    }

    async fn the_served_openapi_document_is_the_generated_one(app) {
        let served = app.get("/api-docs/openapi.json", None).await;
        assert_eq!(served.status(), StatusCode::OK);
        let served: Value = served.json().await.unwrap();
        let generated = serde_json::to_value(api::openapi_document()).unwrap();
        assert_eq!(served, generated);
    }
}

backend_tests! {
    async fn cors_grants_only_the_configured_origins(app, config = |c| {
        c.cors_origins = api::config::CorsOrigins::List(vec!["https://play.example".into()]);
    }) {
        let preflight = app
            .client
            .request(reqwest::Method::OPTIONS, app.url("/api/v1/me"))
            .header("Origin", "https://play.example")
            .header("Access-Control-Request-Method", "GET")
            .header("Access-Control-Request-Headers", "authorization")
            .send()
            .await
            .unwrap();
        assert_eq!(preflight.status(), StatusCode::OK);
        assert_eq!(
            preflight.headers()["access-control-allow-origin"],
            "https://play.example"
        );
        let allowed_headers = preflight.headers()["access-control-allow-headers"]
            .to_str()
            .unwrap()
            .to_lowercase();
        assert!(
            allowed_headers.contains("authorization"),
            "{allowed_headers}"
        );

        let simple = app
            .client
            .get(app.url("/healthz"))
            .header("Origin", "https://play.example")
            .send()
            .await
            .unwrap();
        assert_eq!(
            simple.headers()["access-control-allow-origin"],
            "https://play.example"
        );

        let foreign = app
            .client
            .get(app.url("/healthz"))
            .header("Origin", "https://evil.example")
            .send()
            .await
            .unwrap();
        assert!(!foreign
            .headers()
            .contains_key("access-control-allow-origin"));
        let refused = app
            .client
            .request(reqwest::Method::OPTIONS, app.url("/api/v1/me"))
            .header("Origin", "https://evil.example")
            .header("Access-Control-Request-Method", "GET")
            .send()
            .await
            .unwrap();
        assert!(!refused.headers().contains_key("access-control-allow-origin"));
        let refusal: Value = refused.json().await.unwrap();
        let detail = refusal["detail"].as_str().unwrap();
        assert!(detail.contains("CORS_ALLOWED_ORIGINS") && !detail.contains("empty"), "{detail}");
        if !foreign.status().is_success() {
            let content_type = foreign.headers()["content-type"]
                .to_str()
                .unwrap()
                .to_owned();
            assert_eq!(content_type, "application/problem+json");
        }
    }

    /// Without any configured origin, cross-origin callers get no CORS
    /// grant, while same-origin requests that carry `Origin` (Swagger UI's
    /// POSTs) still work.
    async fn without_configured_origins_cors_grants_nothing(app) {
        let same_origin = app
            .client
            .post(app.url("/api/v1/auth/register"))
            .header("Origin", app.address.as_str())
            .json(&json!({"username": "ann", "password": crate::harness::PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(same_origin.status(), StatusCode::CREATED);

        let foreign = app
            .client
            .get(app.url("/healthz"))
            .header("Origin", "https://evil.example")
            .send()
            .await
            .unwrap();
        assert!(!foreign
            .headers()
            .contains_key("access-control-allow-origin"));
        let preflight = app
            .client
            .request(reqwest::Method::OPTIONS, app.url("/api/v1/me"))
            .header("Origin", "https://evil.example")
            .header("Access-Control-Request-Method", "GET")
            .send()
            .await
            .unwrap();
        assert!(!preflight
            .headers()
            .contains_key("access-control-allow-origin"));
        assert_eq!(
            preflight.headers()["content-type"],
            "application/problem+json"
        );
        let refusal: Value = preflight.json().await.unwrap();
        let detail = refusal["detail"].as_str().unwrap();
        assert!(detail.contains("CORS_ALLOWED_ORIGINS") && detail.contains("empty"), "{detail}");
    }
}

postgres_tests! {
    /// PostgreSQL only (an embedded SQLite file cannot go away): while the
    /// database refuses connections the server answers 503 problems, and once
    /// it is back the server recovers by itself, data intact.
    async fn a_lost_database_answers_503_and_the_server_recovers(app, config = |c| {
        c.database_timeout = std::time::Duration::from_secs(1);
    }) {
        let user = app.register_user("ann").await;
        let (admin_url, name) = app.database().postgres_parts().unwrap();
        let mut admin = PgConnection::establish(admin_url).unwrap();

        diesel::sql_query(format!("ALTER DATABASE \"{name}\" ALLOW_CONNECTIONS false"))
            .execute(&mut admin)
            .unwrap();
        diesel::sql_query(format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        ))
        .execute(&mut admin)
        .unwrap();

        let ready = app.get("/readyz", None).await;
        assert!(ready.headers().contains_key("retry-after"));
        assert_problem(ready, 503, "service_unavailable").await;
        let me = app.get("/api/v1/me", Some(&user.access_token)).await;
        assert_problem(me, 503, "service_unavailable").await;
        assert_problem(
            app.login("ann", crate::harness::PASSWORD).await,
            503,
            "service_unavailable",
        )
        .await;

        diesel::sql_query(format!("ALTER DATABASE \"{name}\" ALLOW_CONNECTIONS true"))
            .execute(&mut admin)
            .unwrap();

        // A pooled connection that died with the database is found on use
        // and discarded, costing that one request its answer (api/src/db.rs):
        // at most one 503 per pooled connection, and the pool holds at most
        // `database_pool_size` (4 here). How many it holds depends on how
        // much ran at once before (the bots' worker looks at start-up).
        let mut unavailable = 0;
        while app.get("/readyz", None).await.status() != StatusCode::OK {
            unavailable += 1;
            assert!(unavailable <= 4, "still unavailable after {unavailable} requests");
        }
        let me = app.get("/api/v1/me", Some(&user.access_token)).await;
        assert_eq!(me.status(), StatusCode::OK);
        assert_eq!(me.json::<Value>().await.unwrap()["username"], "ann");
    }

    /// Every PostgreSQL migration reverts cleanly and applies again (the SQLite
    /// tree is checked the same way by a unit test in `api::db`).
    async fn postgres_migrations_revert_and_apply_again(app) {
        use api::db::{self, DbConnection, POSTGRES_MIGRATIONS};
        use diesel_migrations::MigrationHarness;

        let pool = app.pool.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().unwrap();
            let DbConnection::Postgresql(pg) = &mut *conn else {
                unreachable!("a PostgreSQL test")
            };
            // The app's background sweeps keep reading the tables a down
            // migration drops, and PostgreSQL may pick the migration as the
            // victim of the deadlock: that migration rolled back whole, and
            // reverting goes on from where it stopped.
            let reverted = pg.applied_migrations().unwrap().len();
            for attempt in 1.. {
                match pg.revert_all_migrations(POSTGRES_MIGRATIONS) {
                    Ok(_) => break,
                    Err(error) if attempt < 5 && error.to_string().contains("deadlock detected") => {}
                    Err(error) => panic!("reverting: {error}"),
                }
            }
            assert!(pg.applied_migrations().unwrap().is_empty(), "all reverted");
            assert!(reverted > 0);
            assert_eq!(db::migrate(&mut conn).unwrap(), reverted);
        })
        .await
        .unwrap();
        assert_eq!(app.get("/readyz", None).await.status(), StatusCode::OK);
    }
}
