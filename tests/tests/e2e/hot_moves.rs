//! The indexes of `games` cover nothing a move changes, so that on
//! PostgreSQL a move's update is HOT (docs/storage.md, "Indexes and HOT
//! moves"): the deadlines are ordered through `game_deadlines`, which the
//! triggers keep equal to `games.deadline` through a game's whole life, and
//! profiles list finished games by `finished_at`, which every write of a
//! game keeps equal to the `updated_at` of a finished game.

use std::time::{Duration, Instant};

use api::schema::{game_deadlines, games};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::{Connection, PgConnection};
use serde_json::json;

use crate::harness::TestApp;
use crate::process::ServerProcess;
use crate::support::*;

type Deadlines = Vec<(String, NaiveDateTime)>;

/// `(id, deadline)` of every game with a deadline, by `games`, and the
/// rows of `game_deadlines`, both in id order.
async fn deadlines(app: &TestApp) -> (Deadlines, Deadlines) {
    api::db::run_as::<_, api::ApiError, _>(&app.pool, |conn| {
        let truth: Vec<(String, Option<NaiveDateTime>)> = games::table
            .filter(games::deadline.is_not_null())
            .order(games::id.asc())
            .select((games::id, games::deadline))
            .load(conn)?;
        let ordered: Deadlines = game_deadlines::table
            .order(game_deadlines::game_id.asc())
            .select((game_deadlines::game_id, game_deadlines::deadline))
            .load(conn)?;
        let truth = truth
            .into_iter()
            .filter_map(|(id, deadline)| deadline.map(|d| (id, d)))
            .collect();
        Ok((truth, ordered))
    })
    .await
    .unwrap()
}

/// Asserts that `game_deadlines` holds exactly the deadlines of `games`,
/// `games` having `expected` of them.
async fn assert_mirrored(app: &TestApp, expected: usize, when: &str) {
    let (truth, ordered) = deadlines(app).await;
    assert_eq!(truth.len(), expected, "{when}: games with a deadline");
    assert_eq!(ordered, truth, "{when}: game_deadlines against games");
}

async fn finished_at(app: &TestApp, id: &str) -> (Option<NaiveDateTime>, NaiveDateTime) {
    let id = id.to_owned();
    api::db::run_as::<_, api::ApiError, _>(&app.pool, move |conn| {
        Ok(games::table
            .find(id)
            .select((games::finished_at, games::updated_at))
            .get_result(conn)?)
    })
    .await
    .unwrap()
}

backend_tests! {
    async fn game_deadlines_follow_every_deadline_of_a_game(app) {
        let (red, blue) = two_users(&app, "clock").await;
        let body = json!({"variant": "classic", "color": "red", "opponent": blue.username,
                          "days_per_move": 2});
        let id = create_game(&app, &red, &body).await;
        assert_mirrored(&app, 0, "a challenge (no clock yet)").await;
        join_game(&app, &id, &blue).await;
        assert_mirrored(&app, 1, "the setup phase").await;
        place_setup(&app, &id, &red, 11).await;
        place_setup(&app, &id, &blue, 12).await;
        assert_mirrored(&app, 1, "in play").await;
        let before = deadlines(&app).await.1;

        // Every move sets a new deadline; the clock advanced in between.
        app.clock.advance(chrono::Duration::minutes(5));
        play_move(&app, &id, &red, 1).await;
        assert_mirrored(&app, 1, "after a move").await;
        assert!(deadlines(&app).await.1[0].1 > before[0].1, "the mirror moved on");

        // A second game, then the first ends: its deadline goes with it.
        let other = start_game(&app, &blue, &red, 3).await;
        assert_mirrored(&app, 2, "two games in play").await;
        assert_eq!(finished_at(&app, &id).await.0, None, "not finished yet");
        post_ok(&app, &format!("/api/v1/games/{id}/resign"), &blue, &json!({}), 200).await;
        let (truth, ordered) = deadlines(&app).await;
        assert_eq!(ordered, truth, "after the resignation");
        assert!(ordered.iter().any(|(game, _)| *game == other), "the other game keeps its clock");
        let (finished, updated) = finished_at(&app, &id).await;
        assert_eq!(finished, Some(updated), "finished_at is the time the game ended");

        // The overdue sweep finds the other game through the mirror, and
        // only once it is overdue.
        app.clock.advance(chrono::Duration::days(2));
        assert_eq!(sweep(&app).await, 0, "nothing overdue yet");
        app.clock.advance(chrono::Duration::days(2));
        assert_eq!(sweep(&app).await, 1, "the other game timed out");
        let (truth, ordered) = deadlines(&app).await;
        assert_eq!(ordered, truth, "after the timeout");
        let (finished, updated) = finished_at(&app, &other).await;
        assert_eq!(finished, Some(updated), "the clock's end sets it too");
    }
}

/// `(updates, HOT updates)` of `games` as PostgreSQL's statistics have them.
fn games_updates(admin: &mut PgConnection) -> (i64, i64) {
    #[derive(diesel::QueryableByName)]
    struct Counts {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        updates: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        hot: i64,
    }
    let counts: Counts = diesel::sql_query(
        "SELECT n_tup_upd AS updates, n_tup_hot_upd AS hot FROM pg_stat_user_tables \
         WHERE relname = 'games'",
    )
    .get_result(admin)
    .unwrap();
    (counts.updates, counts.hot)
}

postgres_tests! {
    async fn a_move_updates_its_game_row_in_place(database: TestDatabase) {
        const MOVES: i64 = 12;
        let mut server = ServerProcess::start(&database, 5);
        let ann = server.register("ann").await;
        let bob = server.register("bob").await;
        let id = start_game(&server, &ann, &bob, 3).await;
        for ply in 0..MOVES {
            let mover = if ply % 2 == 0 { &ann } else { &bob };
            play_move(&server, &id, mover, 3).await;
        }
        let view = game_view(&server, &id, &ann).await;
        assert_eq!(view["status"], "playing");
        assert_eq!(view["ply"], MOVES);

        // The server's connections report their statistics as they close.
        server.terminate();
        tokio::task::block_in_place(|| server.wait_exit(Duration::from_secs(30)));
        let (admin_url, name) = database.postgres_parts().unwrap();
        let mut admin =
            PgConnection::establish(&crate::harness::with_database_name(admin_url, name)).unwrap();
        let until = Instant::now() + Duration::from_secs(15);
        let (updates, hot) = loop {
            let counts = games_updates(&mut admin);
            if counts.0 >= MOVES + 3 || Instant::now() > until {
                break counts;
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        // The join, the two setups and the moves. Only the join and the
        // second setup change the status (to setup, to playing), which is
        // indexed; the first setup and the moves can be HOT. PostgreSQL
        // writes an update HOT only when the row's page has room, after
        // pruning the versions no snapshot needs; on a busy machine one now
        // and then goes to a new page (11 of 15 were HOT once in CI, 13 of
        // 15 on a quiet machine). With an index on a column every move
        // changes, only the first setup is: 1 of 15.
        assert!(updates >= MOVES + 3, "{updates} updates of games");
        assert!(
            hot * 2 > updates,
            "{hot} of {updates} updates of games were HOT; the moves' should be"
        );
    }
}

/// How many updates of `games` have named its status or a seat in their
/// `SET` since [`count_seat_writes`]. Both backends fire an `UPDATE OF`
/// trigger for every update that sets one of its columns, changed or not:
/// SQLite just when it rewrites those columns' index entries too, and
/// PostgreSQL just when it must read and test the condition of the
/// trigger that takes the seats' usernames again.
async fn seat_writes(app: &TestApp) -> i64 {
    api::db::run_as::<_, api::ApiError, _>(&app.pool, |conn| {
        #[derive(diesel::QueryableByName)]
        struct Count {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        Ok(diesel::sql_query("SELECT count(*) AS n FROM seat_writes")
            .get_result::<Count>(conn)?
            .n)
    })
    .await
    .unwrap()
}

/// Counts, from now on, the updates of `games` that set its status or a
/// seat (the columns of its indexes that a change can set, and those the
/// names' trigger watches).
async fn count_seat_writes(app: &TestApp) {
    api::db::run_as::<_, api::ApiError, _>(&app.pool, |conn| {
        use diesel::connection::SimpleConnection;
        let on_postgres = matches!(conn, api::db::DbConnection::Postgresql(_));
        conn.batch_execute(if on_postgres {
            "CREATE TABLE seat_writes (at INTEGER); \
             CREATE FUNCTION count_seat_write() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN INSERT INTO seat_writes VALUES (1); RETURN NULL; END $$; \
             CREATE TRIGGER count_seat_writes \
                 AFTER UPDATE OF status, red_user_id, blue_user_id ON games \
                 FOR EACH ROW EXECUTE FUNCTION count_seat_write();"
        } else {
            "CREATE TABLE seat_writes (at INTEGER); \
             CREATE TRIGGER count_seat_writes \
                 AFTER UPDATE OF status, red_user_id, blue_user_id ON games \
             BEGIN INSERT INTO seat_writes VALUES (1); END;"
        })?;
        Ok(())
    })
    .await
    .unwrap()
}

backend_tests! {
    /// A move sets no column an index of `games` covers and none the
    /// names' trigger watches: only the changes of a game's status or
    /// seats do (docs/storage.md, "Indexes and HOT moves").
    async fn a_move_sets_no_status_and_no_seat_of_its_game(app) {
        count_seat_writes(&app).await;
        let (red, blue) = two_users(&app, "seats").await;
        let body = json!({"variant": "classic", "color": "red", "opponent": blue.username});
        let id = create_game(&app, &red, &body).await;
        join_game(&app, &id, &blue).await;
        assert_eq!(
            seat_writes(&app).await,
            1,
            "the join seats Blue and starts the setup"
        );
        place_setup(&app, &id, &red, 21).await;
        assert_eq!(
            seat_writes(&app).await,
            1,
            "the first setup keeps the status"
        );
        place_setup(&app, &id, &blue, 22).await;
        assert_eq!(seat_writes(&app).await, 2, "the second setup starts play");
        for ply in 0..6 {
            let mover = if ply % 2 == 0 { &red } else { &blue };
            play_move(&app, &id, mover, ply).await;
        }
        assert_eq!(
            seat_writes(&app).await,
            2,
            "the moves set no status and no seat"
        );

        // A move sent with an Idempotency-Key (the statement that also
        // stores the answer), and its replay.
        let view = game_view(&app, &id, &red).await;
        let legal = &view["legal_moves"][0];
        let body = json!({"from": legal["from"], "to": legal["to"]});
        let path = format!("/api/v1/games/{id}/moves");
        let mut answers = Vec::new();
        for _ in 0..2 {
            let answer = app
                .client
                .post(app.url(&path))
                .bearer_auth(&red.access_token)
                .header("idempotency-key", "seats-keyed-move")
                .json(&body)
                .send()
                .await
                .unwrap();
            answers.push((answer.status().as_u16(), answer.text().await.unwrap()));
        }
        assert_eq!(answers[0].0, 200, "{}", answers[0].1);
        assert_eq!(answers[1], answers[0], "the replay is the stored answer");
        assert_eq!(game_view(&app, &id, &red).await["ply"], 7);
        assert_eq!(
            seat_writes(&app).await,
            2,
            "a move sent with a key sets no status and no seat either"
        );
        post_ok(
            &app,
            &format!("/api/v1/games/{id}/resign"),
            &blue,
            &json!({}),
            200,
        )
        .await;
        assert_eq!(
            seat_writes(&app).await,
            3,
            "the resignation finishes the game"
        );
        assert_eq!(game_view(&app, &id, &red).await["status"], "finished");
    }
}
