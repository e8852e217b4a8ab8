//! Read replicas (docs/deploy.md, "Read replicas"), against a real
//! streaming standby the test makes with `pg_basebackup`: the reads that
//! tolerate lag go to it, a writer reads their own writes, a replica too
//! far behind or gone is passed over, and no request fails meanwhile.

use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, RunQueryDsl};
use serde_json::{json, Value};

use crate::cluster::Cluster;
use crate::harness::{spawn_app_on, TestApp, TestDatabase, TestUser};
use crate::support::*;

fn replica_reads() -> u64 {
    api::metrics::METRICS
        .replica_reads
        .with_label_values(&["replica"])
        .get()
}

/// Waits (bounded) until the one replica is read, or passed over.
async fn until_fit(app: &TestApp, fit: bool) {
    let until = Instant::now() + Duration::from_secs(30);
    while app.pool.replicas()[0].is_fit() != fit {
        assert!(Instant::now() < until, "the replica never became fit={fit}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `GET path` as `user`: 200 and its body (never a 5xx).
async fn read(app: &TestApp, path: &str, user: &TestUser) -> Value {
    get_json(app, path, user).await
}

fn current_games(profile: &Value) -> usize {
    profile["current_games"].as_array().unwrap().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streaming_replica_serves_lagging_reads_and_is_passed_over_when_behind_or_gone() {
    let test = "the read-replica test";
    let Some(primary) = Cluster::start(test) else {
        return;
    };
    let database = TestDatabase::postgres_on(primary.admin_url());
    let name = database.postgres_parts().unwrap().1.to_owned();
    let Some(standby) = Cluster::standby_of(&primary, test) else {
        return;
    };
    let replica_url = format!("postgres://postgres@127.0.0.1:{}/{name}", standby.port());
    let app = spawn_app_on(database, |c| {
        c.database_replicas = vec![replica_url.clone()];
        c.database_replica_max_lag = Duration::from_millis(1000);
    })
    .await;
    until_fit(&app, true).await;

    let (ann, bob) = two_users(&app, "rep").await;
    let carol = app.register_user("rep_carol").await;
    let id = start_game(&app, &ann, &bob, 3).await;
    play_move(&app, &id, &ann, 1).await;
    post_ok(
        &app,
        &format!("/api/v1/games/{id}/resign"),
        &bob,
        &json!({}),
        200,
    )
    .await;

    // Carol has written nothing: her reads of others go to the replica,
    // and say what the primary says once it has caught up.
    let before = replica_reads();
    let until = Instant::now() + Duration::from_secs(30);
    let history = loop {
        let history = read(&app, &format!("/api/v1/games/{id}/moves"), &carol).await;
        if replica_reads() > before {
            break history;
        }
        assert!(
            Instant::now() < until,
            "the finished game's history never came from the replica"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(history["moves"].as_array().unwrap().len(), 1, "{history}");
    let before = replica_reads();
    read(&app, "/api/v1/users/rep_red", &carol).await;
    read(&app, "/api/v1/users/rep_red/games", &carol).await;
    read(&app, "/api/v1/leaderboard?variant=classic", &carol).await;
    assert_eq!(
        replica_reads(),
        before + 3,
        "profile, games and leaderboard from the replica"
    );

    // Ann writes: her next reads, and her own profile, come from the primary.
    let before = replica_reads();
    let other = create_game(
        &app,
        &ann,
        &json!({"variant": "classic", "color": "red",
                                                 "opponent": "rep_blue", "days_per_move": 3}),
    )
    .await;
    let own = read(&app, "/api/v1/users/rep_red", &ann).await;
    assert!(
        own["current_games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == other),
        "{own}"
    );
    read(&app, "/api/v1/users/rep_blue", &ann).await;
    read(&app, "/api/v1/leaderboard?variant=classic", &ann).await;
    assert_eq!(replica_reads(), before, "a writer reads the primary");

    // A replica that stops replaying falls behind and is passed over: what
    // Carol reads then is the primary's, the newest.
    let mut standby_admin = PgConnection::establish(&format!(
        "postgres://postgres@127.0.0.1:{}/postgres",
        standby.port()
    ))
    .unwrap();
    diesel::sql_query("SELECT pg_wal_replay_pause()")
        .execute(&mut standby_admin)
        .unwrap();
    let seen = current_games(&read(&app, "/api/v1/users/rep_red", &carol).await);
    create_game(
        &app,
        &ann,
        &json!({"variant": "classic", "color": "blue",
                                    "opponent": "rep_blue", "days_per_move": 3}),
    )
    .await;
    until_fit(&app, false).await;
    let now = read(&app, "/api/v1/users/rep_red", &carol).await;
    assert_eq!(
        current_games(&now),
        seen + 1,
        "read from the primary: {now}"
    );
    diesel::sql_query("SELECT pg_wal_replay_resume()")
        .execute(&mut standby_admin)
        .unwrap();
    until_fit(&app, true).await;
    drop(standby_admin);

    // The replica goes away: every read is still answered (from the
    // primary), the first one included, and the replica is passed over.
    standby.pg_stop("immediate");
    for _ in 0..10 {
        read(&app, "/api/v1/users/rep_red", &carol).await;
        read(&app, &format!("/api/v1/games/{id}/export"), &carol).await;
        read(&app, "/api/v1/leaderboard?variant=classic", &carol).await;
    }
    until_fit(&app, false).await;
    // And it is read again once it is back.
    standby.pg_start();
    until_fit(&app, true).await;
    let before = replica_reads();
    read(&app, "/api/v1/users/rep_red", &carol).await;
    assert_eq!(replica_reads(), before + 1, "the replica is read again");
}
