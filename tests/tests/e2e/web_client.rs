//! The reference web client's files at /play/ (docs/web-client.md): built
//! into the binary, served with a strict Content-Security-Policy, loading
//! nothing from elsewhere. The page itself is played through in Chromium
//! by `.ci/browser/play.sh`.

use reqwest::StatusCode;
use serde_json::Value;

const FILES: [(&str, &str); 4] = [
    ("/play/", "text/html"),
    ("/play/app.js", "text/javascript"),
    ("/play/sw.js", "text/javascript"),
    ("/play/style.css", "text/css"),
];

backend_tests! {
    async fn play_redirects_to_the_page_in_the_service_workers_scope(app) {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let answer = client.get(app.url("/play")).send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::PERMANENT_REDIRECT);
        assert_eq!(answer.headers()["location"], "/play/");
    }

    async fn the_page_and_its_files_are_served_from_the_binary_and_load_nothing_from_elsewhere(app) {
        for (path, content_type) in FILES {
            let answer = app.get(path, None).await;
            assert_eq!(answer.status(), StatusCode::OK, "{path}");
            let headers = answer.headers().clone();
            assert!(headers["content-type"].to_str().unwrap().starts_with(content_type), "{path}");
            let policy = headers["content-security-policy"].to_str().unwrap();
            for rule in ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"] {
                assert!(policy.contains(rule), "{path}: {policy}");
            }
            assert_eq!(headers["cache-control"], "no-cache", "{path}");
            assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
            let body = answer.text().await.unwrap();
            assert!(!body.is_empty(), "{path}");
            assert!(
                !body.contains("http://") && !body.contains("https://") && !body.contains("//cdn"),
                "{path} names an address elsewhere"
            );

            // Unchanged: a 304 with the same ETag and no body.
            let etag = headers["etag"].to_str().unwrap().to_owned();
            assert!(etag.starts_with('"') && etag.len() == 34, "{etag}");
            let again = app
                .client
                .get(app.url(path))
                .header("If-None-Match", &etag)
                .send()
                .await
                .unwrap();
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
            assert_eq!(again.headers()["etag"], etag.as_str());
            assert!(again.bytes().await.unwrap().is_empty());
            let weak = app
                .client
                .get(app.url(path))
                .header("If-None-Match", format!("\"other\", W/{etag}"))
                .send()
                .await
                .unwrap();
            assert_eq!(weak.status(), StatusCode::NOT_MODIFIED, "{path}: weak comparison");
            let head = app.client.head(app.url(path)).send().await.unwrap();
            assert_eq!(head.status(), StatusCode::OK, "{path}: HEAD");
            assert_eq!(head.headers()["etag"], etag.as_str());
        }
        let page = app.get("/play/", None).await.text().await.unwrap();
        assert!(page.contains(r#"src="/play/app.js""#) && page.contains(r#"href="/play/style.css""#), "{page}");
        let missing = app.get("/play/nothing.js", None).await;
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    }

    async fn swagger_ui_links_the_web_client(app) {
        let document: Value = app.get("/api-docs/openapi.json", None).await.json().await.unwrap();
        let description = document["info"]["description"].as_str().unwrap();
        assert!(description.contains("[/play/](/play/)"), "{description}");
    }
}
