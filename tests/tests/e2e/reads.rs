//! Reads without a blocking thread (docs/storage.md): on PostgreSQL each
//! HTTP worker reads games on connections of its own. These tests hold
//! what a user relies on: a view is right whichever way it was read, a lost
//! connection costs no failed request, the bound on connections holds, and
//! the setting turns the path off.

use domain::{Rules, Variant};
use reqwest::StatusCode;

use crate::harness::TestApp;
use crate::support::*;

/// The workers' read connections open now (their `application_name`).
async fn read_connections(app: &TestApp) -> i64 {
    pg_number(
        app,
        "SELECT count(*)::bigint AS n FROM pg_stat_activity \
         WHERE datname = current_database() AND application_name = $1",
        api::db::READ_CONNECTIONS_NAME,
    )
    .await
}

/// Ends the workers' read connections from the database's side, as an
/// administrator or a restart would, and waits until they are gone.
async fn kill_read_connections(app: &TestApp) {
    pg_number(
        app,
        "SELECT count(pg_terminate_backend(pid))::bigint AS n FROM pg_stat_activity \
         WHERE datname = current_database() AND application_name = $1",
        api::db::READ_CONNECTIONS_NAME,
    )
    .await;
    for _ in 0..100 {
        if read_connections(app).await == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the read connections did not end");
}

postgres_tests! {
    /// A connection the database ended is found on the next read: that
    /// view is asked again on a new connection of the worker's own (or
    /// through the pool) and shows the game as it is now.
    async fn a_lost_read_connection_costs_no_failed_view(app) {
        let (red, blue) = two_users(&app, "lost").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 5).await;
        let user = game.red.clone();
        let before = app.statements_sent_async();
        assert_eq!(game_view(&app, &game.id, &user).await["version"], game.version);
        assert_eq!(app.statements_sent_async() - before, 1);
        assert!(read_connections(&app).await >= 1);

        kill_read_connections(&app).await;
        // The game moves on meanwhile (moves are written through the pool).
        play_random(&app, &mut game, 9, 2).await;
        for _ in 0..4 {
            let answer = app
                .get(&format!("/api/v1/games/{}", game.id), Some(&user.access_token))
                .await;
            assert_eq!(answer.status(), StatusCode::OK);
            let view: serde_json::Value = answer.json().await.unwrap();
            assert_eq!(view["version"], game.version, "{view}");
        }
        // New connections were opened, and they read.
        let before = app.statements_sent_async();
        assert_eq!(game_view(&app, &game.id, &user).await["version"], game.version);
        assert_eq!(app.statements_sent_async() - before, 1, "the view used the pool");
        assert!(read_connections(&app).await >= 1);
    }

    /// At most `DATABASE_READ_CONNECTIONS` a worker, however many views
    /// come at once: the others wait for one, and all answer.
    async fn the_read_connections_stay_within_their_bound(app, config = |c| {
        c.database_read_connections = 1;
    }) {
        let (red, blue) = two_users(&app, "bound").await;
        let game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 6).await;
        let before = app.statements_sent_async();
        let mut views = tokio::task::JoinSet::new();
        for i in 0..48 {
            let user = if i % 2 == 0 { &game.red } else { &game.blue };
            let request = app
                .client
                .get(app.url(&format!("/api/v1/games/{}", game.id)))
                .bearer_auth(&user.access_token);
            views.spawn(async move { request.send().await.unwrap().status() });
        }
        while let Some(status) = views.join_next().await {
            assert_eq!(status.unwrap(), StatusCode::OK);
        }
        assert!(app.statements_sent_async() > before, "no view used a read connection");
        let open = read_connections(&app).await;
        // Two workers (`test_config`), one connection each at most.
        assert!((1..=2).contains(&open), "{open} read connections");
    }

    /// `DATABASE_READ_CONNECTIONS=0`: views are read through the pool, and
    /// no read connection is opened.
    async fn no_read_connections_when_switched_off(app, config = |c| {
        c.database_read_connections = 0;
    }) {
        let (red, blue) = two_users(&app, "off").await;
        let game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 7).await;
        let (before, async_before) = (app.statements_sent(), app.statements_sent_async());
        assert_eq!(game_view(&app, &game.id, &game.blue).await["version"], game.version);
        assert_eq!(app.statements_sent() - before, 1);
        assert_eq!(app.statements_sent_async(), async_before);
        assert_eq!(read_connections(&app).await, 0);
    }

    /// Views of several games at once, by both players, on one read
    /// connection a worker: the reads that wait are taken together (fewer
    /// statements than views), and each caller gets its own game, at its
    /// version, from its own seat; a game that does not exist is still
    /// "not found" among them.
    async fn reads_waiting_together_each_get_their_own_game(app, config = |c| {
        c.database_read_connections = 1;
    }) {
        let mut games = Vec::new();
        for seed in 0..4u64 {
            let (red, blue) = two_users(&app, &format!("together{seed}")).await;
            let mut game =
                random_match(&app, red, blue, Variant::Classic, Rules::default(), 20 + seed).await;
            // Each game at a version of its own.
            play_random(&app, &mut game, 30 + seed, 1 + seed as u32).await;
            games.push(game);
        }
        let missing = uuid::Uuid::new_v4().to_string();
        let (before, all_before) = (app.statements_sent_async(), app.statements_sent());
        let mut views = tokio::task::JoinSet::new();
        let mut asked = 0;
        for round in 0..12 {
            for game in &games {
                let (user, color) = match round % 2 {
                    0 => (&game.red, "red"),
                    _ => (&game.blue, "blue"),
                };
                let request = app
                    .client
                    .get(app.url(&format!("/api/v1/games/{}", game.id)))
                    .bearer_auth(&user.access_token);
                let expected = (game.id.clone(), game.version, color);
                views.spawn(async move {
                    let answer = request.send().await.unwrap();
                    (Some(expected), answer.status(), answer.text().await.unwrap())
                });
                asked += 1;
            }
            let request = app
                .client
                .get(app.url(&format!("/api/v1/games/{missing}")))
                .bearer_auth(&games[0].red.access_token);
            views.spawn(async move {
                let answer = request.send().await.unwrap();
                (None, answer.status(), answer.text().await.unwrap())
            });
            asked += 1;
        }
        while let Some(answer) = views.join_next().await {
            let (expected, status, body) = answer.unwrap();
            let Some((id, version, color)) = expected else {
                assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
                continue;
            };
            assert_eq!(status, StatusCode::OK, "{body}");
            let view: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert_eq!(view["id"], id.as_str(), "{body}");
            assert_eq!(view["version"], version, "{body}");
            assert_eq!(view["you"], color, "{body}");
        }
        let statements = app.statements_sent_async() - before;
        assert!(statements > 0, "no view used a read connection");
        // Not through the pool either (a few statements of the server's
        // own sweeps may run meanwhile).
        let through_pool = app.statements_sent() - all_before - statements;
        assert!(through_pool < asked / 4, "{through_pool} views read through the pool");
        assert!(
            statements < asked,
            "{statements} statements for {asked} views: none were taken together"
        );
    }
}

/// One line of what `EXPLAIN` answers.
#[derive(diesel::QueryableByName)]
struct PlanLine {
    #[diesel(column_name = "QUERY PLAN", sql_type = diesel::sql_types::Text)]
    line: String,
}

/// A setting, as `current_setting` answers it.
#[derive(diesel::QueryableByName)]
struct Setting {
    #[diesel(sql_type = diesel::sql_types::Text)]
    value: String,
}

postgres_tests! {
    /// A worker's connections find games by their primary key, never by
    /// reading the whole table: on a new database `games` holds a page or
    /// two, where PostgreSQL would rather read them all, and the generic
    /// plan a connection keeps for a prepared statement (made on its
    /// first run) stays while the table grows (docs/storage.md, "Reads
    /// without a blocking thread"). The read's plan is asked for as such a plan, for two
    /// keys (a read that takes another's along); the write connections
    /// are opened the same way, generic plans included.
    async fn a_workers_connections_find_games_by_their_key(app) {
        let (red, blue) = two_users(&app, "plan").await;
        let game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 8).await;
        let pool = app.pool.clone();
        let id = game.id.clone();
        // On a thread of its own, as an HTTP worker's is: one runtime on
        // one thread, marked.
        let (plan, writes) = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            api::db::mark_http_worker();
            let plan = runtime.block_on(pool.read_by_key(id, |conn, keys| {
                Box::pin(async move {
                    use diesel_async::SimpleAsyncConnection as _;
                    // What autovacuum soon finds: a table of one row. The
                    // connection plans generically from the first run (the
                    // test below).
                    conn.batch_execute(
                        "ANALYZE games; \
                         PREPARE plan_read(text[]) AS SELECT * FROM games WHERE id = ANY($1)",
                    )
                    .await?;
                    let asked = format!("{{{},{}}}", keys[0], uuid::Uuid::new_v4());
                    let lines: Vec<PlanLine> = diesel_async::RunQueryDsl::load(
                        diesel::sql_query(format!("EXPLAIN EXECUTE plan_read('{asked}')")),
                        conn,
                    )
                    .await?;
                    conn.batch_execute("DEALLOCATE plan_read").await?;
                    let plan: Vec<String> = lines.into_iter().map(|l| l.line).collect();
                    Ok(keys.iter().map(|key| (key.clone(), plan.join("\n"))).collect())
                })
            }));
            let writes = runtime.block_on(pool.write_once::<_, Setting>(diesel::sql_query(
                "SELECT current_setting('enable_seqscan') || ' ' \
                 || current_setting('plan_cache_mode') AS value",
            )));
            (plan, writes)
        })
        .join()
        .unwrap();
        let plan = plan
            .expect("read on a worker's own connection")
            .unwrap()
            .expect("the plan, under the game's key");
        assert!(plan.contains("games_pkey"), "{plan}");
        assert!(!plan.contains("Seq Scan"), "{plan}");
        let writes = writes.expect("a worker's own write connection").unwrap();
        assert_eq!(writes.len(), 1);
        assert_eq!(writes[0].value, "off force_generic_plan");
    }

    /// The batched read of games is planned once on a worker's connection
    /// and its plan kept: its keys are one array, and a plan for an array
    /// of unknown length costs more on paper than one for the keys given,
    /// so PostgreSQL would otherwise plan it again on every read, opening
    /// every index of `games` each time (docs/storage.md, "Reads without a
    /// blocking thread"). The read is the server's own, sent more times
    /// than the five custom plans PostgreSQL tries before it would choose;
    /// the connection's prepared statement then tells how each run was
    /// planned.
    async fn a_workers_read_of_games_is_planned_once(app) {
        let (red, blue) = two_users(&app, "once").await;
        let game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 9).await;
        let pool = app.pool.clone();
        let id = game.id.clone();
        const READS: i64 = 8;
        let plans = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            api::db::mark_http_worker();
            for _ in 0..READS {
                let found = runtime.block_on(pool.read_by_key(id.clone(), |conn, keys| {
                    Box::pin(api::storage::games::find_many_with_names_async(conn, keys))
                }));
                let found = found.expect("read on a worker's own connection").unwrap();
                assert!(found.is_some(), "the game was not found");
            }
            runtime.block_on(pool.read_by_key(id, |conn, keys| {
                Box::pin(async move {
                    let plans: Vec<Plans> = diesel_async::RunQueryDsl::load(
                        diesel::sql_query(
                            "SELECT generic_plans, custom_plans FROM pg_prepared_statements \
                             WHERE statement LIKE '%FROM games WHERE games.id = ANY(%' \
                             AND statement NOT LIKE '%pg_prepared_statements%'",
                        ),
                        conn,
                    )
                    .await?;
                    Ok(keys.iter().map(|key| (key.clone(), plans.clone())).collect())
                })
            }))
        })
        .join()
        .unwrap();
        let plans = plans
            .expect("read on a worker's own connection")
            .unwrap()
            .expect("the plans, under the game's key");
        assert_eq!(plans.len(), 1, "one prepared read of games on the connection");
        assert_eq!(plans[0].custom_plans, 0, "planned again on a read");
        assert_eq!(plans[0].generic_plans, READS);
    }
}

/// How the runs of one prepared statement were planned.
#[derive(diesel::QueryableByName, Clone)]
struct Plans {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    generic_plans: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    custom_plans: i64,
}
