//! Smoke test of the load generator of BENCHMARKS.md (`e2e::load`, the
//! `load` binary): a short run at low concurrency against the in-process
//! server on SQLite must make moves and views, reach the end of its long
//! game, and see no failed request.

use std::net::SocketAddr;

use e2e::load::{self, Options};

use crate::harness::{spawn_app_with, Backend};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_load_run_has_no_errors() {
    let app = spawn_app_with(Backend::Sqlite, |_| {}).await;
    let address: SocketAddr = app.address.trim_start_matches("http://").parse().unwrap();
    let options = Options {
        clients: 3,
        // Bounded by counts, not by time: the deadlines only stop a run
        // that hangs, so a loaded machine cannot make this test fail.
        move_seconds: 120.0,
        max_moves: 30,
        view_seconds: 1.0,
        // Two: one in each cohort (the second starts once the first
        // passed `late_from`, `e2e::load`'s module docs); both must get to
        // the end.
        long_games: 2,
        long_plies: 120,
        late_from: 100,
        long_seconds: 120.0,
        // The server runs in this process.
        pid: Some(std::process::id()),
        ..Options::new(address)
    };
    let report = load::run(&options, |_| {}).await.unwrap();
    let table = load::table(&report);
    println!("{table}");
    assert_eq!(report.errors, 0, "{table}");
    let moves = &report.rows[0];
    assert_eq!(moves.kind, "POST /games/{id}/moves");
    assert!(moves.latency.count >= 30, "{table}");
    assert!(report.views_per_second > 0.0, "{table}");
    assert!(report.games_started >= 3, "{table}");
    let long = &report.long_games;
    assert_eq!((long.reached, long.max_ply), (2, 120), "{table}");
    assert_eq!(long.early.count, 2 * 99, "{table}");
    assert_eq!(long.late.count, 2 * 20, "{table}");
    assert!(report.server.peak_rss_kib > 0, "{table}");
}
