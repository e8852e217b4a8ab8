//! Smoke test of the load generator of BENCHMARKS.md (`e2e::load`, the
//! `load` binary): a short run at low concurrency against the in-process
//! server on SQLite must make moves and views, reach the end of its long
//! game, and see no failed request; and with `notify`, on each backend,
//! the outbox must deliver to the tool's receiver while the moves run.

use std::net::SocketAddr;
use std::time::Duration;

use e2e::load::{self, Options};

use crate::harness::{spawn_app_with, Backend, TestApp};

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

fn address_of(app: &TestApp) -> SocketAddr {
    app.address.trim_start_matches("http://").parse().unwrap()
}

/// What `bench/notifications.sh` gives the server: deliveries may go to
/// loopback over http, Web Push has a key; and a short outbox poll.
fn notifications_to_loopback(config: &mut api::config::Config) {
    config.outbound_allow_private_networks = true;
    config.outbox_poll = Duration::from_millis(50);
    let key = api::outbound::web_push::VapidKey::generate().to_base64url();
    config.vapid_private_key = Some(api::config::Secret::new(key));
}

backend_tests! {
    async fn a_load_run_with_notifications_is_delivered_while_it_moves(
        app, config = notifications_to_loopback
    ) {
        let options = Options {
            clients: 3,
            // Bounded by the count; the time only stops a run that hangs.
            move_seconds: 120.0,
            max_moves: 300,
            view_seconds: 1.0,
            long_games: 0,
            notify: true,
            ..Options::new(address_of(&app))
        };
        let report = load::run(&options, |_| {}).await.unwrap();
        let table = load::table(&report);
        println!("{table}");
        assert_eq!(report.errors, 0, "{table}");
        let notify = report.notify.as_ref().unwrap();
        // One of each for each of the 6 accounts, or the run had failed.
        assert_eq!((notify.webhooks, notify.subscriptions), (6, 6), "{table}");
        // Every move tells the player to move next ("your_move", on by
        // default on both channels): the outbox delivered some of them
        // while the moves were timed, and both kinds by the end.
        assert!(notify.during_moves.total() > 0, "{table}");
        assert!(notify.in_all.webhook > 0, "{table}");
        assert!(notify.in_all.push > 0, "{table}");
        assert_eq!(notify.in_all.refused, 0, "{table}");
        assert!(table.contains("notifications: 6 webhooks"), "{table}");
    }
}
