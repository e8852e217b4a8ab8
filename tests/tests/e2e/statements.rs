//! What a request costs the database, counted as Django's `assertNumQueries`
//! does: the statements (round trips) the server sends for one request,
//! with nothing else running against that database. The budgets are
//! those of BENCHMARKS.md, kept where they now are (the goal was a move in
//! at most 6 round trips on PostgreSQL, a view in at most 2). The
//! statements of a move and a view are prepared once per connection
//! (`api/src/storage/prepared.rs`): the first run of each on a new
//! connection costs one more round trip (the preparation), which the
//! counter does not see; every later run is one. Telling the other
//! processes about a move is not one of its statements: the process's
//! `LISTEN` connection sends that after the commit, together with whatever
//! else was announced meanwhile (docs/architecture.md, "Telling the other
//! processes").

use domain::{Rules, Variant};

use crate::harness::{Backend, TestApp};
use crate::support::*;

/// The statements sent while `request` runs.
async fn counted<F, T>(app: &TestApp, request: F) -> (u64, T)
where
    F: std::future::Future<Output = T>,
{
    let before = app.statements_sent();
    let out = request.await;
    (app.statements_sent() - before, out)
}

backend_tests! {
    async fn a_view_and_a_move_send_what_the_database_must_do(app) {
        let (red, blue) = two_users(&app, "cost").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 3).await;
        // Warm: the pool has its connections, the game has a history.
        for seed in 0..4 {
            play_random(&app, &mut game, seed, 1).await;
        }
        let user = game.user(game.local.turn()).clone();
        let async_before = app.statements_sent_async();
        let (view_cost, view) = counted(&app, game_view(&app, &game.id, &user)).await;
        assert_eq!(view["version"], game.version);
        // On PostgreSQL the HTTP worker reads it on a connection of its
        // own, without a blocking thread (docs/storage.md, "Reads without
        // a blocking thread"); SQLite has no such connections.
        let view_async = app.statements_sent_async() - async_before;
        match app.backend {
            Backend::Postgres => assert_eq!(view_async, view_cost, "the view used the pool"),
            Backend::Sqlite => assert_eq!(view_async, 0),
        }
        let m = game.local.legal_moves()[0];
        let (writer_before, async_before) =
            (app.statements_sent_by_writer(), app.statements_sent_async());
        let (move_cost, answer) = counted(&app, play(&app, &mut game, m, None)).await;
        let move_in_writer = app.statements_sent_by_writer() - writer_before;
        let move_async = app.statements_sent_async() - async_before;
        assert_eq!(answer["game"]["version"], game.version);
        println!("{:?}: view {view_cost} statements, move {move_cost}", app.backend);
        let (view_budget, move_budget) = match app.backend {
            // One statement that writes the game, its action and its
            // events (docs/storage.md, "A move in one statement"), decided
            // from the game the view just read ("A change decided from the
            // game just read"); `recent_games.rs` counts a move with no view
            // before it.
            Backend::Postgres => (1, 1),
            // SQLite is in-process (no round trips), but the same shape.
            Backend::Sqlite => (1, 6),
        };
        assert!(view_cost <= view_budget, "a view sent {view_cost} statements");
        assert!(move_cost <= move_budget, "a move sent {move_cost} statements");
        // The counter counts: a view is never free.
        assert!(view_cost >= 1);
        // On SQLite the writes of all requests take turns on one
        // connection: the move decides before its turn (here from the
        // game the view read), so that the others wait only for its
        // writes.
        match app.backend {
            // Its one statement sent by the HTTP worker itself (docs/storage.md,
            // "Writes without a blocking thread").
            Backend::Postgres => {
                assert_eq!(move_in_writer, 0);
                assert_eq!(move_async, move_cost, "the move was written through the pool");
            }
            Backend::Sqlite => {
                println!("{move_in_writer} of the move's statements waited for the writer");
                assert_eq!(move_cost, move_in_writer, "the move read its game again");
            }
        }

        // With an `Idempotency-Key`: the key is looked up first, and the
        // answer stored under it by the move's one write; its retry is
        // one lookup, and the game does not change.
        let mover = game.local.turn();
        let m = game.local.legal_moves()[0];
        let keyed = || {
            app.client
                .post(app.url(&game.path("/moves")))
                .bearer_auth(&game.user(mover).access_token)
                .header("idempotency-key", "cost-keyed")
                .json(&move_body(m, None, Some(game.version)))
                .send()
        };
        let (keyed_cost, first) = counted(&app, keyed()).await;
        assert_eq!(first.unwrap().status().as_u16(), 200);
        let (retry_cost, retry) = counted(&app, keyed()).await;
        let retried: serde_json::Value = retry.unwrap().json().await.unwrap();
        assert_eq!(retried["game"]["version"], game.version + 1, "{retried}");
        println!("{:?}: keyed move {keyed_cost} statements, its retry {retry_cost}", app.backend);
        let (keyed_budget, retry_budget) = match app.backend {
            Backend::Postgres => (3, 1),
            Backend::Sqlite => (9, 4),
        };
        assert!(keyed_cost <= keyed_budget, "a keyed move sent {keyed_cost} statements");
        assert!(retry_cost <= retry_budget, "a retried move sent {retry_cost} statements");
    }

    /// A refusal sent with an `Idempotency-Key` is stored by the change
    /// itself (docs/storage.md, "One write pipeline"), not by a second
    /// request after the answer: on PostgreSQL the lookup, the read and
    /// the key's one `INSERT`. Its retry is one lookup and gets the first
    /// answer byte for byte, even once the game has changed so that the
    /// same move would now be allowed; the game never moved for it.
    async fn a_keyed_refusal_is_stored_with_its_answer_and_replayed_as_sent(app) {
        let (red, blue) = two_users(&app, "refusedkey").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 5).await;
        play_random(&app, &mut game, 1, 1).await;
        let waiting = game.local.turn().opponent();
        let user = game.user(waiting).clone();
        // The waiting player's move: legal on their turn, refused now.
        let mut turned = game.local.clone();
        let m = {
            let now = turned.legal_moves()[0];
            turned.apply(turned.turn(), domain::Action::play(now.from, now.to)).unwrap();
            turned.legal_moves()[0]
        };
        let before = game_view(&app, &game.id, &user).await;
        let moves = game.path("/moves");
        let early = || {
            app.client
                .post(app.url(&moves))
                .bearer_auth(&user.access_token)
                .header("idempotency-key", "refused-once")
                .json(&move_body(m, None, None))
                .send()
        };
        let (cost, first) = counted(&app, early()).await;
        let first = first.unwrap();
        let status = first.status().as_u16();
        let first_type = first.headers()["content-type"].clone();
        let first_body = first.bytes().await.unwrap();
        assert_eq!(status, 409, "{first_body:?}");
        assert_eq!(first_type, "application/problem+json");
        let problem: serde_json::Value = serde_json::from_slice(&first_body).unwrap();
        assert_eq!(problem["code"], "not_your_turn", "{problem}");
        if app.backend == Backend::Postgres {
            assert_eq!(cost, 3, "lookup, read, the key: {cost} statements");
        }
        assert_eq!(game_view(&app, &game.id, &user).await, before, "the refusal changed the game");
        // Now it is that player's turn: the same request, retried under
        // its key, is still the first answer.
        let mover = game.local.turn();
        let now = game.local.legal_moves()[0];
        let answer = play(&app, &mut game, now, None).await;
        assert_eq!(answer["game"]["turn"], mover.opponent().name(), "{answer}");
        let version = game.version;
        let (retry_cost, retry) = counted(&app, early()).await;
        let retry = retry.unwrap();
        assert_eq!(retry.status().as_u16(), status);
        assert_eq!(retry.headers()["content-type"], first_type);
        assert_eq!(retry.bytes().await.unwrap(), first_body, "the replay is not the first answer");
        if app.backend == Backend::Postgres {
            assert_eq!(retry_cost, 1, "a replay is its lookup: {retry_cost} statements");
        }
        assert_eq!(game_view(&app, &game.id, &user).await["version"], version);
    }
}

postgres_tests! {
    /// A move (without an `Idempotency-Key`, in a game it does not end)
    /// writes its game, its action and its events, and nothing to the
    /// players' accounts: no foreign key check locks the recipient's row
    /// (a `KEY SHARE` lock is written into the row, and logged), and the
    /// event rows it inserts name those players (docs/storage.md,
    /// "Indexes and HOT moves").
    async fn a_move_writes_nothing_to_the_accounts_of_its_players(app) {
        use diesel::RunQueryDsl;
        #[derive(diesel::QueryableByName, Debug, PartialEq)]
        struct Account {
            #[diesel(sql_type = diesel::sql_types::Text)]
            id: String,
            #[diesel(sql_type = diesel::sql_types::Text)]
            xmax: String,
        }
        #[derive(diesel::QueryableByName)]
        struct Count {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let api::config::DatabaseUrl::Postgres(url) = app.database().url() else {
            panic!("a PostgreSQL test on another database");
        };
        let mut admin = <diesel::PgConnection as diesel::Connection>::establish(&url).unwrap();
        let (red, blue) = two_users(&app, "untouched").await;
        let ids = vec![red.id.clone(), blue.id.clone()];
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 7).await;
        play_random(&app, &mut game, 2, 2).await;
        let accounts = |admin: &mut diesel::PgConnection| -> Vec<Account> {
            diesel::sql_query("SELECT id, xmax::text AS xmax FROM users WHERE id = ANY($1) ORDER BY id")
                .bind::<diesel::sql_types::Array<diesel::sql_types::Text>, _>(&ids)
                .load(admin)
                .unwrap()
        };
        let game_id = game.id.clone();
        let events = |admin: &mut diesel::PgConnection| -> i64 {
            diesel::sql_query("SELECT COUNT(*) AS n FROM events WHERE game_id = $1")
                .bind::<diesel::sql_types::Text, _>(&game_id)
                .get_result::<Count>(admin)
                .unwrap()
                .n
        };
        let (before, events_before) = (accounts(&mut admin), events(&mut admin));
        assert_eq!(before.len(), 2);
        for seed in 0..4 {
            play_random(&app, &mut game, 10 + seed, 1).await;
        }
        // Still in play: a game's (rated) end writes the players' ratings.
        let view = game_view(&app, &game.id, &game.red).await;
        assert_eq!(view["status"], "playing", "{view}");
        assert_eq!(accounts(&mut admin), before, "a move wrote to a player's account row");
        // The moves did write their events, each to one of the players.
        assert!(events(&mut admin) >= events_before + 4, "the moves wrote no events");
        let strangers = diesel::sql_query(
            "SELECT COUNT(*) AS n FROM events WHERE game_id = $1 AND user_id <> ALL($2)",
        )
        .bind::<diesel::sql_types::Text, _>(&game_id)
        .bind::<diesel::sql_types::Array<diesel::sql_types::Text>, _>(&ids)
        .get_result::<Count>(&mut admin)
        .unwrap()
        .n;
        assert_eq!(strangers, 0, "an event of the game went to someone else");
    }
}
