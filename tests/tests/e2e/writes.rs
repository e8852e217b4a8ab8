//! Writes without a blocking thread (docs/storage.md): on PostgreSQL a
//! change decided from the game its view just read is written by the HTTP
//! worker itself, its one statement sent on a connection of its own. These
//! tests hold what a user relies on: the move is made once and answered as
//! before, only once it is committed, a connection the database ended costs
//! no failed move, the bound on connections holds under many moves at once,
//! and the setting turns the path off.

use domain::{Rules, Variant};

use crate::harness::TestApp;
use crate::support::*;

const COUNT: &str = "SELECT count(*)::bigint AS n FROM pg_stat_activity \
                     WHERE datname = current_database() AND application_name = $1";

/// The workers' write connections open now (their `application_name`).
async fn write_connections(app: &TestApp) -> i64 {
    pg_number(app, COUNT, api::db::WRITE_CONNECTIONS_NAME).await
}

/// The game's version, as a player's view shows it now.
async fn version_seen(app: &TestApp, game: &Match) -> i64 {
    game_view(app, &game.id, &game.red).await["version"]
        .as_i64()
        .unwrap()
}

/// Runs `sql` on the test's PostgreSQL database.
async fn pg_execute(app: &TestApp, sql: &'static str) {
    use diesel::connection::SimpleConnection;
    let pool = app.pool.clone();
    tokio::task::spawn_blocking(move || pool.get().unwrap().batch_execute(sql).unwrap())
        .await
        .unwrap();
}

/// The move to play now in `game`, with its view read first, as every
/// client does; the statements the move sent on the workers' own
/// connections, and its answer.
async fn view_and_move(app: &TestApp, game: &mut Match) -> (u64, serde_json::Value) {
    let user = game.user(game.local.turn()).clone();
    assert_eq!(
        game_view(app, &game.id, &user).await["version"],
        game.version
    );
    let m = game.local.legal_moves()[0];
    let before = app.statements_sent_async();
    let answer = play(app, game, m, None).await;
    (app.statements_sent_async() - before, answer)
}

postgres_tests! {
    /// A move after its view: one statement, on a write connection of
    /// the worker's own, and the game is at its next version, stored.
    async fn a_move_after_its_view_is_written_by_its_worker(app) {
        let (red, blue) = two_users(&app, "own").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 11).await;
        let before = game.version;
        let (sent, answer) = view_and_move(&app, &mut game).await;
        assert_eq!(sent, 1, "the move was not written on a worker's connection");
        assert_eq!(answer["game"]["version"], before + 1);
        assert_eq!(version_seen(&app, &game).await, before + 1);
        assert!(write_connections(&app).await >= 1);
    }

    /// Connections the database ended (an administrator, a restart) are
    /// found closed before a write is sent on them: the moves that follow
    /// are made on new connections, none fails, each once.
    async fn a_lost_write_connection_costs_no_failed_move(app) {
        let (red, blue) = two_users(&app, "lostw").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 12).await;
        for _ in 0..4 {
            assert_eq!(view_and_move(&app, &mut game).await.0, 1);
        }
        assert!(write_connections(&app).await >= 1);
        pg_number(
            &app,
            "SELECT count(pg_terminate_backend(pid))::bigint AS n FROM pg_stat_activity \
             WHERE datname = current_database() AND application_name = $1",
            api::db::WRITE_CONNECTIONS_NAME,
        )
        .await;
        let mut gone = false;
        for _ in 0..100 {
            if write_connections(&app).await == 0 {
                gone = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(gone, "the write connections did not end");
        for _ in 0..6 {
            let before = game.version;
            let (sent, answer) = view_and_move(&app, &mut game).await;
            assert_eq!(answer["game"]["version"], before + 1, "{answer}");
            assert_eq!(sent, 1, "the move was not written on a new connection");
            assert_eq!(version_seen(&app, &game).await, before + 1);
        }
        assert!(write_connections(&app).await >= 1);
    }

    /// The statement's row (how many games it updated) comes before its
    /// commit: here a check deferred to the commit fails after the row,
    /// and the whole change is rolled back. The move is not answered as
    /// made, the game did not move, and once the failure is gone the same
    /// move is made.
    async fn a_commit_that_fails_after_the_statements_row_is_not_a_move_made(app) {
        let (red, blue) = two_users(&app, "after").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 14).await;
        assert_eq!(view_and_move(&app, &mut game).await.0, 1);
        pg_execute(
            &app,
            "CREATE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN RAISE EXCEPTION 'events refused by the test'; END $$; \
             CREATE CONSTRAINT TRIGGER refuse_events AFTER INSERT ON events \
             DEFERRABLE INITIALLY DEFERRED \
             FOR EACH ROW EXECUTE FUNCTION refuse_events();",
        )
        .await;
        let user = game.user(game.local.turn()).clone();
        assert_eq!(game_view(&app, &game.id, &user).await["version"], game.version);
        let m = game.local.legal_moves()[0];
        let before = app.statements_sent_async();
        let answer = app
            .post_json(
                &game.path("/moves"),
                Some(&user.access_token),
                &move_body(m, None, Some(game.version)),
            )
            .await;
        assert_eq!(app.statements_sent_async() - before, 1, "not written by its worker");
        let status = answer.status().as_u16();
        let body = answer.text().await.unwrap();
        assert_eq!(status, 500, "{body}");
        assert!(!body.contains("refused by the test"), "{body}");
        assert_eq!(version_seen(&app, &game).await, game.version, "the game moved");

        pg_execute(&app, "DROP TRIGGER refuse_events ON events").await;
        let before = game.version;
        let (sent, answer) = view_and_move(&app, &mut game).await;
        assert_eq!(sent, 1);
        assert_eq!(answer["game"]["version"], before + 1, "{answer}");
        assert_eq!(version_seen(&app, &game).await, before + 1);
    }

    /// Many moves at once in many games, each after its view, with two
    /// write connections for the process (one a worker): all are made,
    /// and no more connections are opened than that.
    async fn the_write_connections_stay_within_their_bound(app, config = |c| {
        c.database_write_connections = 2;
    }) {
        let mut games = Vec::new();
        for seed in 0..12u64 {
            let (red, blue) = two_users(&app, &format!("boundw{seed}")).await;
            games.push(
                random_match(&app, red, blue, Variant::Classic, Rules::default(), 40 + seed).await,
            );
        }
        let before = app.statements_sent_async();
        let mut moves = tokio::task::JoinSet::new();
        for (i, game) in games.iter().enumerate() {
            let user = game.user(game.local.turn()).clone();
            let m = game.local.legal_moves()[0];
            let view = app
                .client
                .get(app.url(&game.path("")))
                .bearer_auth(&user.access_token);
            let play = app
                .client
                .post(app.url(&game.path("/moves")))
                .bearer_auth(&user.access_token)
                .json(&move_body(m, None, Some(game.version)));
            moves.spawn(async move {
                assert_eq!(view.send().await.unwrap().status().as_u16(), 200);
                let answer = play.send().await.unwrap();
                let status = answer.status().as_u16();
                let body: serde_json::Value = answer.json().await.unwrap();
                assert_eq!(status, 200, "{body}");
                (i, m, body)
            });
        }
        while let Some(done) = moves.join_next().await {
            let (i, m, body) = done.unwrap();
            let game = &mut games[i];
            game.moved(game.local.turn(), m);
            assert_eq!(body["game"]["version"], game.version, "{body}");
        }
        for game in &games {
            assert_eq!(version_seen(&app, game).await, game.version);
        }
        // 12 views and 12 moves (a move whose game changed meanwhile
        // would go the usual way): moves went on the workers' own
        // connections.
        assert!(app.statements_sent_async() - before > 12, "no move used a write connection");
        let open = write_connections(&app).await;
        assert!((1..=2).contains(&open), "{open} write connections");
    }

    /// `DATABASE_WRITE_CONNECTIONS=0`: moves are written through the pool,
    /// and no write connection is opened.
    async fn no_write_connections_when_switched_off(app, config = |c| {
        c.database_write_connections = 0;
    }) {
        let (red, blue) = two_users(&app, "offw").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 13).await;
        let before = game.version;
        let (sent, answer) = view_and_move(&app, &mut game).await;
        assert_eq!(sent, 0, "a move was written on a worker's connection");
        assert_eq!(answer["game"]["version"], before + 1);
        assert_eq!(write_connections(&app).await, 0);
    }
}
