//! The notification side (docs/api.md): the event feed by long polling and
//! Server-Sent Events, the game stream, `wait_for_version`, the per-user
//! stream cap, and that no event leaks a rank. (The deadline reminders are
//! in reminders.rs.)

use api::games::notices::EventPayload;
use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::assert_problem;
use crate::support::*;

backend_tests! {
    async fn a_long_poll_answers_at_once_with_pending_events(app) {
        let ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let id = start_game(&app, &ann, &bo, 3).await;

        // Bo was challenged, then the game started: both are waiting.
        let page = poll(&app, &bo, 0, 60).await;
        assert_eq!(types(&page), ["challenge_received", "game_started"]);
        let events = page["events"].as_array().unwrap();
        assert_eq!(events[0]["id"], 1);
        assert_eq!(events[1]["id"], 2);
        assert_eq!(page["last_id"], 2);
        assert_eq!(events[0]["game_id"], id.as_str());
        assert_eq!(events[0]["from"], "ann");
        assert!(events[0]["created_at"].as_str().unwrap().ends_with('Z'));

        // Ann (Red) learns Bo accepted, the game started and that it is her turn.
        let page = poll(&app, &ann, 0, 0).await;
        assert_eq!(types(&page), ["opponent_joined", "game_started", "your_turn"]);
        assert_eq!(page["events"][2]["ply"], 0);
        assert_eq!(page["events"][2]["opponent_move"], Value::Null);

        // `after` skips what was seen; `limit` pages.
        let page = poll(&app, &bo, 1, 0).await;
        assert_eq!(types(&page), ["game_started"]);
        let response = app
            .get("/api/v1/events?after=0&limit=1", Some(&bo.access_token))
            .await;
        let page: Value = response.json().await.unwrap();
        assert_eq!(types(&page), ["challenge_received"]);
        assert_eq!(page["last_id"], 1);
    }

    async fn a_long_poll_times_out_empty(app) {
        let ann = app.register_user("ann").await;
        let page = poll(&app, &ann, 0, 1).await;
        assert_eq!(page, json!({"events": [], "last_id": 0}));
        let page = poll(&app, &ann, 7, 1).await;
        assert_eq!(page, json!({"events": [], "last_id": 7}));
    }

    async fn a_long_poll_waits_and_wakes_on_a_move(app) {
        let ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let id = start_game(&app, &ann, &bo, 3).await;
        let seen = last_id(&app, &bo).await;

        let path = format!("/api/v1/events?after={seen}&wait={LONG_WAIT}");
        let waiting = LongPoll::start(&app, &path, &bo).await;
        let (from, to) = play_move(&app, &id, &ann, 3).await;

        let page = waiting.woken().await;
        assert_eq!(types(&page), ["your_turn"]);
        let event = &page["events"][0];
        assert_eq!(event["id"], seen + 1);
        assert_eq!(event["game_id"], id.as_str());
        assert_eq!(event["ply"], 1);
        assert_eq!(event["opponent_move"]["from"], from.as_str());
        assert_eq!(event["opponent_move"]["to"], to.as_str());
        assert_eq!(event["opponent_move"]["color"], "red");
        // Red's first move: Blue cannot know the moving piece unless a
        // battle or a scout's long run told it.
        let view = game_view(&app, &id, &bo).await;
        assert_eq!(event["opponent_move"], view["last_move"]);
    }

    async fn wait_for_version_long_polls_a_game(app) {
        let ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let id = start_game(&app, &ann, &bo, 3).await;
        let version = game_view(&app, &id, &bo).await["version"].as_i64().unwrap();

        // Already past: answers at once.
        let response = app
            .get(&format!("/api/v1/games/{id}?wait_for_version={}", version - 1),
                 Some(&bo.access_token))
            .await;
        assert_eq!(response.status(), 200);
        let view: Value = response.json().await.unwrap();
        assert_eq!(view["version"], version);

        let path = format!("/api/v1/games/{id}?wait_for_version={version}&wait={LONG_WAIT}");
        let waiting = LongPoll::start(&app, &path, &bo).await;
        play_move(&app, &id, &ann, 5).await;
        let view = waiting.woken().await;
        assert!(view["version"].as_i64().unwrap() > version);
        assert_eq!(view["turn"], "blue");
    }

    async fn the_event_stream_delivers_and_resumes_without_gaps_or_duplicates(app) {
        let ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let id = start_game(&app, &ann, &bo, 3).await;

        // From the start (Last-Event-ID: 0): the two pending events.
        let mut stream = SseReader::new(open_stream(&app, "/api/v1/events/stream", &bo, Some(0)).await);
        let mut ids = Vec::new();
        for expected in ["challenge_received", "game_started"] {
            let frame = stream.next_frame(FRAME_LIMIT).await.expect("a frame");
            assert_eq!(frame.event.as_deref(), Some(expected));
            let data: Value = serde_json::from_str(&frame.data).unwrap();
            assert_eq!(data["type"], expected);
            assert_eq!(frame.id.as_deref().unwrap(), data["id"].to_string());
            ids.push(data["id"].as_i64().unwrap());
        }
        // Live: a move by Ann reaches Bo's open stream.
        play_move(&app, &id, &ann, 1).await;
        let frame = stream.woken_frame().await.expect("a live frame");
        assert_eq!(frame.event.as_deref(), Some("your_turn"));
        ids.push(frame.id.unwrap().parse().unwrap());
        drop(stream);

        // While Bo is away: his move, Ann's reply (two events for Bo? one:
        // your_turn after Ann's reply), and a draw offer by Ann.
        play_move(&app, &id, &bo, 2).await;
        play_move(&app, &id, &ann, 3).await;
        let response = app
            .post_json(&format!("/api/v1/games/{id}/draw"), Some(&ann.access_token),
                       &json!({"action": "offer"}))
            .await;
        assert_eq!(response.status(), 200);

        // Resuming after the last id seen gives exactly the missed events.
        let last = *ids.last().unwrap();
        let mut stream = SseReader::new(open_stream(&app, "/api/v1/events/stream", &bo, Some(last)).await);
        let everything = poll(&app, &bo, 0, 0).await;
        let total = everything["events"].as_array().unwrap().len();
        while ids.len() < total {
            let frame = stream.next_frame(FRAME_LIMIT).await.expect("a resumed frame");
            ids.push(frame.id.unwrap().parse().unwrap());
        }
        let expected: Vec<i64> = (1..=total as i64).collect();
        assert_eq!(ids, expected, "every event once, in order");
        assert_eq!(types(&everything)[3..], ["your_turn", "draw_offered"]);

        // The `after` query parameter works like Last-Event-ID; without
        // either a stream carries only new events.
        let response = app
            .get(&format!("/api/v1/events/stream?after={}", total - 1), Some(&bo.access_token))
            .await;
        let mut stream = SseReader::new(response);
        let frame = stream.next_frame(FRAME_LIMIT).await.unwrap();
        assert_eq!(frame.id.unwrap(), total.to_string());

        let bad = open_stream(&app, "/api/v1/events/stream", &bo, Some(-1)).await;
        assert_problem(bad, 400, "validation_failed").await;
    }

    async fn the_game_stream_sends_the_callers_view_after_each_change(app) {
        let ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let cy = app.register_user("cyd").await;
        let id = start_game(&app, &ann, &bo, 3).await;
        let path = format!("/api/v1/games/{id}/stream");

        let mut stream = SseReader::new(open_stream(&app, &path, &bo, None).await);
        let mut spectator = SseReader::new(open_stream(&app, &path, &cy, None).await);
        let first = stream.next_frame(FRAME_LIMIT).await.unwrap();
        assert_eq!(first.event.as_deref(), Some("game"));
        let view: Value = serde_json::from_str(&first.data).unwrap();
        assert_eq!(view, game_view(&app, &id, &bo).await);
        assert_eq!(first.id.unwrap(), view["version"].to_string());
        spectator.next_frame(FRAME_LIMIT).await.unwrap();

        play_move(&app, &id, &ann, 4).await;
        let frame = stream.woken_frame().await.unwrap();
        let after: Value = serde_json::from_str(&frame.data).unwrap();
        assert_eq!(after, game_view(&app, &id, &bo).await, "Bo's own view");
        assert!(after["version"].as_i64() > view["version"].as_i64());
        let frame = spectator.woken_frame().await.unwrap();
        let seen: Value = serde_json::from_str(&frame.data).unwrap();
        assert_eq!(seen, game_view(&app, &id, &cy).await, "the spectator's view");
        for piece in seen["board"].as_array().unwrap() {
            if piece["revealed"] == false {
                assert_eq!(piece["piece"], Value::Null, "a spectator sees no hidden rank");
            }
        }

        // Resuming at the current version sends nothing old.
        let version: i64 = frame.id.unwrap().parse().unwrap();
        drop(stream);
        let mut resumed = SseReader::new(open_stream(&app, &path, &bo, Some(version)).await);
        play_move(&app, &id, &bo, 1).await;
        let frame = resumed.woken_frame().await.unwrap();
        assert_eq!(frame.id.unwrap(), (version + 1).to_string());

        let missing = open_stream(&app, &format!("/api/v1/games/{}/stream", uuid::Uuid::new_v4()), &bo, None).await;
        assert_problem(missing, 404, "not_found").await;
    }

    async fn no_event_tells_a_rank_its_recipient_may_not_know(app) {
        let ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let id = start_game(&app, &ann, &bo, 3).await;
        let players = [&ann, &bo];
        let mut seen = [last_id(&app, &ann).await,
                        last_id(&app, &bo).await];
        let mut checked_battles = 0;
        for ply in 0..40usize {
            let mover = ply % 2;
            let other = 1 - mover;
            let before = game_view(&app, &id, players[other]).await;
            if before["status"] != "playing" {
                break;
            }
            let (from, to) = play_move(&app, &id, players[mover], ply * 7 + 3).await;
            let page = poll(&app, players[other], seen[other], 30).await;
            seen[other] = page["last_id"].as_i64().unwrap();
            let history: Value = app
                .get(&format!("/api/v1/games/{id}/moves"), Some(&players[other].access_token))
                .await
                .json()
                .await
                .unwrap();
            for event in page["events"].as_array().unwrap() {
                if event["type"] != "your_turn" {
                    assert_eq!(event["type"], "game_finished");
                    continue;
                }
                let seen_move = &event["opponent_move"];
                assert_eq!(seen_move["from"], from.as_str());
                assert_eq!(seen_move["to"], to.as_str());
                // Exactly what the recipient's own move history shows.
                let moves = history["moves"].as_array().expect("a move list");
                assert_eq!(seen_move, moves.last().unwrap());
                // Before the move the recipient did not know the piece on
                // `from`: without a battle the event must not name it
                // (a scout's run of several squares gives itself away).
                let known_before = before["board"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["square"] == from.as_str())
                    .map(|p| p["piece"].clone())
                    .unwrap_or(Value::Null);
                if seen_move["battle"].is_null() && known_before.is_null() {
                    let distance = square_distance(&from, &to);
                    if distance == 1 {
                        assert_eq!(seen_move["piece"], Value::Null, "ply {ply}: {seen_move}");
                    } else {
                        assert!(seen_move["piece"].is_null() || seen_move["piece"] == "scout",
                                "ply {ply}: {seen_move}");
                    }
                } else if !seen_move["battle"].is_null() {
                    checked_battles += 1;
                }
            }
            // Nothing but the allowed members.
            for event in page["events"].as_array().unwrap() {
                for key in event.as_object().unwrap().keys() {
                    assert!(["id", "created_at", "type", "game_id", "ply", "opponent_move",
                             "result"].contains(&key.as_str()), "unexpected member {key}");
                }
            }
        }
        assert!(checked_battles > 0, "the game had battles to check");
    }
}

fn square_distance(from: &str, to: &str) -> u32 {
    let parse = |s: &str| {
        let file = u32::from(s.as_bytes()[0] - b'a');
        let rank: u32 = s[1..].parse().unwrap();
        (file, rank)
    };
    let (f1, r1) = parse(from);
    let (f2, r2) = parse(to);
    f1.abs_diff(f2) + r1.abs_diff(r2)
}

backend_tests! {
    async fn the_stream_cap_is_per_user_and_freed_on_disconnect(app, config = |c| {
        c.max_streams_per_user = 2;
        c.sse_keepalive_seconds = 1;
    }) {
        let ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let first = SseReader::new(open_stream(&app, "/api/v1/events/stream", &ann, None).await);
        let _second = SseReader::new(open_stream(&app, "/api/v1/events/stream", &ann, None).await);
        let third = open_stream(&app, "/api/v1/events/stream", &ann, None).await;
        // Retry-After is the keep-alive interval: a closed stream frees its
        // slot by then.
        assert_eq!(third.headers()["retry-after"], "1");
        let body = assert_problem(third, 429, "too_many_streams").await;
        assert_eq!(body["max_streams"], 2);
        assert_eq!(body["retry_after"], 1);
        // The cap is per user: Bob may still open one.
        let mut idle = SseReader::new(open_stream(&app, "/api/v1/events/stream", &bo, None).await);
        // An idle stream gets keep-alive comments (every second here).
        assert!(idle.next_comment(FRAME_LIMIT).await);
        assert!(idle.next_comment(FRAME_LIMIT).await);
        // A client that goes away frees its slot: the server notices at its
        // next write (a keep-alive at the latest).
        drop(first);
        let mut reopened = None;
        for _ in 0..100 {
            let response = open_stream(&app, "/api/v1/events/stream", &ann, None).await;
            if response.status() == 200 {
                reopened = Some(response);
                break;
            }
            assert_problem(response, 429, "too_many_streams").await;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(reopened.is_some(), "the slot was freed");
    }

    async fn event_requests_are_checked(app) {
        for path in ["/api/v1/events", "/api/v1/events/stream"] {
            assert_problem(app.get(path, None).await, 401, "unauthorized").await;
        }
        let ann = app.register_user("ann").await;
        for query in ["after=-1", "limit=0", "limit=101", "after=x", "wait=abc"] {
            let response = app
                .get(&format!("/api/v1/events?{query}"), Some(&ann.access_token))
                .await;
            assert_problem(response, 400, "validation_failed").await;
        }
    }
}

backend_tests! {
    async fn concurrent_writers_number_a_users_events_without_gaps(app) {
        // Eight transactions at a time record events for the same user
        // (as moves in eight games would): every event gets its own id,
        // 1..=n with no gap, in commit order.
        let ann = app.register_user("ann").await;
        let user: uuid::Uuid = ann.id.parse().unwrap();
        let game_id = uuid::Uuid::new_v4();
        let mut writers = Vec::new();
        for writer in 0..8u32 {
            let pool = app.pool.clone();
            let now = app.now();
            writers.push(tokio::spawn(async move {
                let mut ids = Vec::new();
                for ply in 0..10u32 {
                    let id = api::db::run_as::<_, api::ApiError, _>(&pool, move |conn| {
                        api::db::write_transaction(conn, |conn| {
                            record_one(
                                conn,
                                now,
                                user,
                                &EventPayload::YourTurn {
                                    game_id,
                                    ply: writer * 100 + ply,
                                    opponent_move: None,
                                },
                            )
                        })
                    })
                    .await
                    .unwrap();
                    ids.push(id);
                }
                ids
            }));
        }
        let mut all = Vec::new();
        for writer in writers {
            let ids = writer.await.unwrap();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "one writer's ids increase");
            all.extend(ids);
        }
        all.sort_unstable();
        assert_eq!(all, (1..=80).collect::<Vec<i64>>());
        let page = poll(&app, &ann, 0, 0).await;
        let ids: Vec<i64> = page["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, (1..=80).collect::<Vec<i64>>());
    }
}

backend_tests! {
    async fn old_events_are_pruned_without_resetting_the_numbering(app) {
        let ann = app.register_user("ann").await;
        let mut bo = app.register_user("bob").await;
        start_game(&app, &ann, &bo, 3).await;
        // Bo has two events: challenge_received (1) and game_started (2).
        assert_eq!(types(&poll(&app, &bo, 0, 0).await), ["challenge_received", "game_started"]);
        let prune = |days: u32| {
            let pool = app.pool.clone();
            let now = app.now();
            async move {
                api::db::run(&pool, move |conn| api::events::prune(conn, now, days))
                    .await
                    .unwrap()
            }
        };
        // Nothing is old enough yet.
        assert_eq!(prune(90).await, 0);
        assert_eq!(types(&poll(&app, &bo, 0, 0).await), ["challenge_received", "game_started"]);

        // 91 days later everything is old, but each user's newest event stays.
        app.clock.advance(chrono::Duration::days(91));
        // Ann has three events (opponent_joined, game_started, your_turn).
        assert_eq!(prune(90).await, 3, "all but each user's newest event go");
        relogin(&app, &mut bo).await; // the access token expired meanwhile
        let page = poll(&app, &bo, 0, 0).await;
        assert_eq!(types(&page), ["game_started"]);
        assert_eq!(page["events"][0]["id"], 2);

        // The next event continues the numbering: 3, not 1.
        let user: uuid::Uuid = bo.id.parse().unwrap();
        let now = app.now();
        let id = api::db::run_as::<_, api::ApiError, _>(&app.pool, move |conn| {
            api::db::write_transaction(conn, |conn| {
                record_one(
                    conn,
                    now,
                    user,
                    &EventPayload::GameStarted { game_id: uuid::Uuid::new_v4() },
                )
            })
        })
        .await
        .unwrap();
        assert_eq!(id, 3);
    }
}

/// Records one event for `user` as a game change does (inside the caller's
/// transaction) and returns its id.
fn record_one(
    conn: &mut api::db::DbConnection,
    now: chrono::DateTime<chrono::Utc>,
    user: uuid::Uuid,
    payload: &EventPayload,
) -> Result<i64, api::ApiError> {
    let event = api::events::NewEvent {
        to: user,
        kind: payload.kind(),
        game_id: payload.game_id(),
        payload: serde_json::to_string(payload).unwrap(),
    };
    Ok(api::events::record_all(conn, now, &[event])?[0])
}
