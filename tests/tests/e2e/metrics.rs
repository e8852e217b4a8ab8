//! `GET /metrics` (docs/metrics.md), read by a Prometheus text parser:
//! requests by route template and status class with their latency, the
//! pool, the caches, the streams and long polls, the outbox, the
//! background tasks; and `METRICS_BIND_ADDRESS` moving it off the API's
//! address. (The metrics are the test process's, shared by every server
//! it runs: these tests compare before and after, never absolute values.)

use std::time::Duration;

use openmetrics_parser::prometheus::parse_prometheus;
use openmetrics_parser::{MetricsExposition, PrometheusType, PrometheusValue};

use crate::harness::{test_config, TestDatabase};
use crate::support::*;

type Scrape = MetricsExposition<PrometheusType, PrometheusValue>;

async fn scrape(client: &reqwest::Client, url: &str) -> Scrape {
    let response = client.get(url).send().await.unwrap();
    assert_eq!(response.status(), 200, "{url}");
    let kind = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let text = response.text().await.unwrap();
    parse_prometheus(&text).unwrap_or_else(|e| panic!("{e:?} in\n{text}"))
}

/// The sum of the samples of family `metric` whose labels include
/// `labels` (a histogram's: its count; 0 when there is none).
fn value(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    let Some(family) = scrape.families.get(metric) else {
        return 0.0;
    };
    family
        .iter_samples()
        .filter(|s| {
            let set = s.get_labelset().unwrap();
            labels
                .iter()
                .all(|(k, v)| set.get_label_value(k) == Some(*v))
        })
        .map(|s| match &s.value {
            PrometheusValue::Unknown(n) | PrometheusValue::Gauge(n) => n.as_f64(),
            PrometheusValue::Counter(c) => c.value.as_f64(),
            PrometheusValue::Histogram(h) => h.count.unwrap_or(0) as f64,
            PrometheusValue::Summary(_) => 0.0,
        })
        .sum()
}

fn has(scrape: &Scrape, metric: &str) -> bool {
    scrape.families.contains_key(metric)
}

/// Every label value of every sample.
fn label_values(scrape: &Scrape) -> Vec<String> {
    scrape
        .families
        .values()
        .flat_map(|family| family.iter_samples())
        .flat_map(|s| {
            s.get_labelset()
                .unwrap()
                .iter_values()
                .cloned()
                .collect::<Vec<_>>()
        })
        .collect()
}

backend_tests! {
    async fn metrics_count_requests_by_route_and_show_the_server_inside(
        app, config = crate::notifications::outbound_to_loopback
    ) {
        let url = app.url("/metrics");
        let before = scrape(&app.client, &url).await;
        let route = [("method", "GET"), ("route", "/api/v1/games/{id}"), ("status", "2xx")];
        let missing = [("method", "GET"), ("route", "/api/v1/games/{id}"), ("status", "4xx")];
        let (red, blue) = two_users(&app, "metered").await;
        let game = start_game(&app, &red, &blue, 3).await;
        for _ in 0..3 {
            game_view(&app, &game, &red).await;
        }
        let unknown = app.get("/api/v1/games/00000000-0000-0000-0000-000000000000", Some(&red.access_token)).await;
        assert_eq!(unknown.status(), 404);
        // Any other method is "other": a client cannot make series at will.
        let brew = reqwest::Method::from_bytes(b"BREW").unwrap();
        app.client.request(brew, app.url("/api/v1/variants")).send().await.unwrap();
        // A long poll waiting shows as one.
        let polling = {
            let client = app.client.clone();
            let url = app.url("/api/v1/events?after=1000&wait=5");
            let token = red.access_token.clone();
            tokio::spawn(async move { client.get(url).bearer_auth(token).send().await })
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        let after = scrape(&app.client, &url).await;
        polling.abort();

        let counted = |s: &Scrape, labels: &[(&str, &str)]| value(s, "stratego_http_requests_total", labels);
        assert!(counted(&after, &route) - counted(&before, &route) >= 4.0, "views counted by template");
        assert!(counted(&after, &missing) - counted(&before, &missing) >= 1.0, "a 404 counted as 4xx");
        // Never a series per game id.
        assert!(!label_values(&after).iter().any(|v| v.contains(&game) || v == "BREW"));
        assert!(value(&after, "stratego_http_requests_total", &[("method", "other")]) >= 1.0);
        assert!(label_values(&after).iter().any(|v| v == "/api/v1/games/{id}/moves" || v == "/api/v1/games/{id}/setup"));
        let timed = |s: &Scrape| value(s, "stratego_http_request_duration_seconds",
            &[("method", "GET"), ("route", "/api/v1/games/{id}")]);
        assert!(timed(&after) - timed(&before) >= 4.0, "latency observed");
        assert!(value(&after, "stratego_long_polls_waiting", &[]) >= 1.0);
        for metric in [
            "stratego_db_pool_connections", "stratego_db_pool_waiting", "stratego_streams_open",
            "stratego_outbox_depth", "stratego_wakeups_total", "stratego_cache_lookups_total",
        ] {
            assert!(has(&after, metric), "{metric} missing");
        }
        assert!(value(&after, "stratego_db_pool_connections", &[("state", "idle")])
            + value(&after, "stratego_db_pool_connections", &[("state", "in_use")]) >= 1.0);
        assert!(value(&after, "stratego_wakeups_total", &[]) > value(&before, "stratego_wakeups_total", &[]));
        // The views looked for their game in the recent games, which now
        // hold it.
        let looked = |s: &Scrape| value(s, "stratego_cache_lookups_total", &[("lookup", "view")]);
        assert!(looked(&after) - looked(&before) >= 3.0, "view lookups counted");
        assert!(value(&after, "stratego_cache_bytes", &[]) > 0.0, "the recent games hold nothing");

        // A bot's move, and the outbox's passes, are counted.
        let bot_game = post_ok(&app, "/api/v1/games", &blue,
            &serde_json::json!({"variant": "duel", "opponent": "bot-random", "color": "blue"}), 201).await;
        let id = bot_game["id"].as_str().unwrap().to_owned();
        let moves = |s: &Scrape| value(s, "stratego_bot_moves_total", &[]);
        let outbox = |s: &Scrape| value(s, "stratego_sweeps_total", &[("task", "outbox")]);
        let mut placed = false;
        let started = std::time::Instant::now();
        loop {
            let view = game_view(&app, &id, &blue).await;
            if !placed && view["status"] == "setup" && view["setup_done"]["red"] == true {
                place_setup(&app, &id, &blue, 5).await;
                placed = true;
            }
            let now = scrape(&app.client, &url).await;
            if moves(&now) > moves(&after) && outbox(&now) > outbox(&after) {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "no bot move or outbox pass counted: {view}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// A server whose `GET /metrics` is on `METRICS_BIND_ADDRESS` only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_move_to_their_own_address() {
    let database = TestDatabase::sqlite();
    let mut config = test_config(database.url());
    config.metrics_bind_address = Some("127.0.0.1:0".parse().unwrap());
    let clock = api::clock::ManualClock::starting_now();
    let app = api::Application::build(config, clock)
        .await
        .expect("the server starts");
    let api_url = format!("http://127.0.0.1:{}", app.port());
    let metrics_url = format!("http://127.0.0.1:{}/metrics", app.metrics_port().unwrap());
    let handle = app.handle();
    let running = tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::new();
    let ready = client
        .get(format!("{api_url}/readyz"))
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status(), 200);
    let response = client
        .get(format!("{api_url}/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404, "not on the API's address");
    let scraped = scrape(&client, &metrics_url).await;
    assert!(
        value(
            &scraped,
            "stratego_http_requests_total",
            &[("route", "/readyz")]
        ) >= 1.0
    );
    handle.stop(true).await;
    running.await.unwrap().unwrap();
    // Stopped with the API's server.
    assert!(client.get(&metrics_url).send().await.is_err());
}
