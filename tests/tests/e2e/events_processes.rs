//! Two real server processes on one PostgreSQL database: a move made
//! through one process reaches the long poll, the event stream and the game
//! stream held by the other (PostgreSQL LISTEN/NOTIFY). And: SIGTERM ends
//! open streams and long polls cleanly.
//!
//! PostgreSQL only: ignored unless TEST_DATABASE_URL is set (see
//! `backend_tests!`).

use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, RunQueryDsl};
use serde_json::{json, Value};

use crate::process::ServerProcess;
use crate::support::{
    game_view, last_id, open_stream, play_move, start_game, types, LongPoll, SseReader,
    FRAME_LIMIT, LONG_WAIT,
};

/// The backend pids of the LISTEN connections held on `database`.
fn listeners(admin: &mut PgConnection, database: &str) -> Vec<i32> {
    #[derive(diesel::QueryableByName)]
    struct Backend {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        pid: i32,
    }
    diesel::sql_query(
        "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2",
    )
    .bind::<diesel::sql_types::Text, _>(database)
    .bind::<diesel::sql_types::Text, _>(api::events::listener::APPLICATION_NAME)
    .load::<Backend>(admin)
    .unwrap()
    .into_iter()
    .map(|b| b.pid)
    .collect()
}

/// Waits (at most 30 s) until the LISTEN connections on `database` are
/// `ready`, and returns their pids.
fn wait_for_listeners(
    admin: &mut PgConnection,
    database: &str,
    ready: &dyn Fn(&[i32]) -> bool,
) -> Vec<i32> {
    for _ in 0..600 {
        let pids = listeners(admin, database);
        if ready(&pids) {
            return pids;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the LISTEN connections did not come (back)");
}

fn terminate(admin: &mut PgConnection, pids: &[i32]) {
    diesel::sql_query("SELECT pg_terminate_backend(pid) FROM unnest($1) AS pid")
        .bind::<diesel::sql_types::Array<diesel::sql_types::Integer>, _>(pids)
        .execute(admin)
        .unwrap();
}

postgres_tests! {
    async fn a_move_through_one_process_reaches_the_other(database: TestDatabase) {
        let one = ServerProcess::start(&database, 5);
        let other = ServerProcess::start(&database, 5);

        let ann = one.register("ann").await;
        let bob = one.register("bob").await;
        let id = start_game(&one, &ann, &bob, 3).await;
        let seen = last_id(&other, &bob).await;
        assert_eq!(
            seen, 2,
            "both events written through one process are on the other"
        );

        // On the other process: Bob's long poll, event stream and game stream.
        let path = format!("/api/v1/events?after={seen}&wait={LONG_WAIT}");
        let waiting = LongPoll::start(&other, &path, &bob).await;
        let mut events =
            SseReader::new(open_stream(&other, "/api/v1/events/stream", &bob, Some(seen)).await);
        let mut game = SseReader::new(
            open_stream(&other, &format!("/api/v1/games/{id}/stream"), &bob, None).await,
        );
        let first = game.next_frame(FRAME_LIMIT).await.unwrap();
        let version: i64 = first.id.unwrap().parse().unwrap();

        let (from, to) = play_move(&one, &id, &ann, 3).await;
        let moved = Instant::now();

        let frame = events.woken_frame().await.expect("an event frame");
        let streamed = Instant::now();
        assert_eq!(frame.event.as_deref(), Some("your_turn"));
        let data: Value = serde_json::from_str(&frame.data).unwrap();
        assert_eq!(data["id"], seen + 1);
        assert_eq!(data["opponent_move"]["from"], from.as_str());
        assert_eq!(data["opponent_move"]["to"], to.as_str());

        let (page, answered) = waiting.woken_at().await;
        assert_eq!(types(&page), ["your_turn"]);
        assert_eq!(page["events"][0], data);

        let frame = game.woken_frame().await.expect("a game frame");
        let viewed = Instant::now();
        let view: Value = serde_json::from_str(&frame.data).unwrap();
        assert!(view["version"].as_i64().unwrap() > version);
        assert_eq!(view, game_view(&other, &id, &bob).await);

        // The delay after the move's answer, for the benchmark notes (the
        // NOTIFY arrives within the process's 50 ms inbox check; without it
        // the fallback re-check every 20 s would fail the wake-up limits).
        eprintln!(
            "cross-process delivery after the move's answer: long poll {:?}, event stream {:?}, game stream {:?}",
            answered.saturating_duration_since(moved),
            streamed.saturating_duration_since(moved),
            viewed.saturating_duration_since(moved),
        );
    }

    async fn sigterm_ends_streams_and_long_polls_cleanly(database: TestDatabase) {
        // A long shutdown timeout: if the streams did not end by themselves,
        // the server would hold them open for a minute and this test would fail
        // on the frame limit.
        let mut server = ServerProcess::start(&database, 60);
        let ann = server.register("ann").await;
        let bob = server.register("bob").await;
        let id = start_game(&server, &ann, &bob, 3).await;
        let seen = last_id(&server, &bob).await;

        let mut events =
            SseReader::new(open_stream(&server, "/api/v1/events/stream", &bob, Some(seen)).await);
        let mut game = SseReader::new(
            open_stream(&server, &format!("/api/v1/games/{id}/stream"), &bob, None).await,
        );
        game.next_frame(FRAME_LIMIT).await.unwrap();
        let path = format!("/api/v1/events?after={seen}&wait={LONG_WAIT}");
        let waiting = LongPoll::start(&server, &path, &bob).await;

        server.terminate();
        assert!(
            events.next_frame(FRAME_LIMIT).await.is_none(),
            "the event stream ends"
        );
        assert!(
            game.next_frame(FRAME_LIMIT).await.is_none(),
            "the game stream ends"
        );
        // Each stream opened with the usual hint, and its last words asked
        // the client to come back soon, at a moment of its own.
        for (stream, reader) in [("events", &events), ("game", &game)] {
            assert_eq!(reader.retries.len(), 2, "{stream}: {:?}", reader.retries);
            assert_eq!(reader.retries[0], 3000, "{stream}");
            assert!((500..=2500).contains(&reader.retries[1]), "{stream}: {:?}", reader.retries);
        }
        // Shutdown wakes the long poll: an empty answer, at once.
        let page = waiting.woken().await;
        assert_eq!(page["events"], json!([]));
        let status = tokio::task::block_in_place(|| server.wait_exit(Duration::from_secs(30)));
        assert!(status.success(), "clean exit: {status}");
    }

    async fn delivery_survives_a_lost_listen_connection(database: TestDatabase) {
        let one = ServerProcess::start(&database, 5);
        let other = ServerProcess::start(&database, 5);
        let ann = one.register("ann").await;
        let bob = one.register("bob").await;
        let id = start_game(&one, &ann, &bob, 3).await;
        let seen = last_id(&other, &bob).await;

        // Kill both processes' LISTEN connections, as a database restart or a
        // network cut would, and wait (bounded) until both have reconnected.
        let (admin_url, name) = database.postgres_parts().unwrap();
        let mut admin = PgConnection::establish(admin_url).unwrap();
        let before = tokio::task::block_in_place(|| {
            wait_for_listeners(&mut admin, name, &|pids| pids.len() == 2)
        });
        terminate(&mut admin, &before);
        // Two new connections, neither of them an old one.
        tokio::task::block_in_place(|| {
            wait_for_listeners(&mut admin, name, &|pids| {
                pids.len() == 2 && pids.iter().all(|pid| !before.contains(pid))
            })
        });

        // A long poll on the other process is still woken by the move made
        // through the first one (not only found by the safety re-check).
        let path = format!("/api/v1/events?after={seen}&wait={LONG_WAIT}");
        let waiting = LongPoll::start(&other, &path, &bob).await;
        play_move(&one, &id, &ann, 2).await;
        let page = waiting.woken().await;
        assert_eq!(types(&page), ["your_turn"]);
    }

    async fn a_change_made_while_the_sender_is_down_is_announced_after(database: TestDatabase) {
        let (admin_url, name) = database.postgres_parts().unwrap();
        let mut admin = PgConnection::establish(admin_url).unwrap();
        // The first process's LISTEN connection, which sends its announcements.
        let one = ServerProcess::start(&database, 5);
        let sender = tokio::task::block_in_place(|| {
            wait_for_listeners(&mut admin, name, &|pids| pids.len() == 1)
        });
        let other = ServerProcess::start(&database, 5);
        tokio::task::block_in_place(|| {
            wait_for_listeners(&mut admin, name, &|pids| pids.len() == 2)
        });
        let ann = one.register("ann").await;
        let bob = one.register("bob").await;
        let id = start_game(&one, &ann, &bob, 3).await;
        let seen = last_id(&other, &bob).await;
        let path = format!("/api/v1/events?after={seen}&wait={LONG_WAIT}");
        let waiting = LongPoll::start(&other, &path, &bob).await;

        // Only the sender is cut off (the other process keeps its
        // connection, so nothing wakes its waiters but the announcement).
        // The move commits while the sender is down or finding out.
        terminate(&mut admin, &sender);
        play_move(&one, &id, &ann, 2).await;

        // The announcement waited for the new connection and was sent then:
        // the long poll on the other process is woken, not left to its
        // safety re-check.
        let page = waiting.woken().await;
        assert_eq!(types(&page), ["your_turn"]);
        let now = tokio::task::block_in_place(|| {
            wait_for_listeners(&mut admin, name, &|pids| pids.len() == 2)
        });
        assert!(
            !now.contains(&sender[0]),
            "the sender reconnected: {now:?}"
        );
    }
}
