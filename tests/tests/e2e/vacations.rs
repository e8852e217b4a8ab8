//! Vacations (docs/lifecycle.md, "Vacation"), driven by the manual clock:
//! every clock of the player stops to the second, in games that start
//! meanwhile too; a move, `DELETE` or the days running out end it; the
//! budget and its year; automatic vacation; opponents told; another
//! process sees and ends the same vacation; a move racing the start.

use chrono::{Datelike, Duration, TimeZone, Utc};
use domain::{Rules, Variant};
use serde_json::{json, Value};

use crate::harness::{assert_problem, TestApp, TestUser};
use crate::support::*;

const DAY: i64 = 86_400;

async fn vacation_of(app: &TestApp, user: &TestUser) -> Value {
    get_json(app, "/api/v1/me/vacation", user).await
}

async fn go_on_vacation(app: &TestApp, user: &TestUser, body: Value) -> Value {
    post_ok(app, "/api/v1/me/vacation", user, &body, 201).await
}

async fn come_back(app: &TestApp, user: &TestUser) -> Value {
    let response = app
        .client
        .delete(app.url("/api/v1/me/vacation"))
        .bearer_auth(&user.access_token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.unwrap()
}

fn clock<'a>(view: &'a Value, color: &str) -> &'a Value {
    &view["clocks"][color]
}

/// The types and `by` of the events `user` got after `after`.
async fn told(app: &TestApp, user: &TestUser, after: i64) -> Vec<(String, Value)> {
    let page = get_json(
        app,
        &format!("/api/v1/events?after={after}&limit=100"),
        user,
    )
    .await;
    page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["type"].as_str().unwrap().to_owned(), e["by"].clone()))
        .collect()
}

async fn last_event(app: &TestApp, user: &TestUser) -> i64 {
    let page = get_json(app, "/api/v1/events?after=0&limit=100", user).await;
    page["last_id"].as_i64().unwrap()
}

/// Ann (Red, to move) against Bo in a duel of `per_move` 3 days.
async fn ann_to_move(app: &TestApp, ann: &TestUser, bo: &TestUser, seed: u64) -> Match {
    random_match(
        app,
        ann.clone(),
        bo.clone(),
        Variant::Duel,
        Rules::default(),
        seed,
    )
    .await
}

async fn fresh(app: &TestApp, users: &mut [&mut TestUser]) {
    for user in users.iter_mut() {
        relogin(app, user).await;
    }
}

backend_tests! {
    async fn a_vacation_stops_every_clock_to_the_second(app) {
        let (mut ann, mut bo) = two_users(&app, "hike").await;
        let game = ann_to_move(&app, &ann, &bo, 1).await;
        app.clock.advance(Duration::days(1));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        let seen = last_event(&app, &bo).await;
        let before = game_view(&app, &game.id, &bo).await;
        assert_eq!(clock(&before, "red")["remaining_seconds"], 2 * DAY);

        let started = go_on_vacation(&app, &ann, json!({"days": 5, "message": "hiking"})).await;
        assert_eq!(started["on_vacation"], true);
        assert_eq!(started["message"], "hiking");
        assert_eq!(started["remaining_days"], 29, "the first day is charged at once: {started}");
        assert_eq!(started["allowance_days"], 30);
        assert_eq!(started["until"], started["ends_at"]);
        let view = game_view(&app, &game.id, &bo).await;
        assert_eq!(view["version"], before["version"].as_i64().unwrap() + 1);
        assert_eq!(clock(&view, "red")["on_vacation"], true);
        assert_eq!(clock(&view, "red")["until"], started["until"]);
        assert!(clock(&view, "red")["deadline"].is_null());
        assert!(view["deadline"].is_null(), "no deadline while paused: {view}");
        assert_eq!(told(&app, &bo, seen).await, [("vacation_started".to_owned(), json!(ann.username))]);
        let profile = get_json(&app, &format!("/api/v1/users/{}", ann.username), &bo).await;
        assert_eq!(profile["on_vacation"], true);

        // 3 days and 2 hours later: not a second has gone.
        app.clock.advance(Duration::days(3) + Duration::hours(2));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        assert_eq!(sweep(&app).await, 0);
        let view = game_view(&app, &game.id, &bo).await;
        assert_eq!(view["status"], "playing");
        assert_eq!(clock(&view, "red")["remaining_seconds"], 2 * DAY);

        let back = come_back(&app, &ann).await;
        assert_eq!(back["on_vacation"], false);
        assert_eq!(back["remaining_days"], 26, "4 days begun: {back}");
        let view = game_view(&app, &game.id, &bo).await;
        assert_eq!(clock(&view, "red")["on_vacation"], false);
        assert_eq!(clock(&view, "red")["remaining_seconds"], 2 * DAY);
        let deadline = (app.now() + Duration::days(2)).timestamp();
        let shown = chrono::DateTime::parse_from_rfc3339(view["deadline"].as_str().unwrap()).unwrap();
        assert_eq!(shown.timestamp(), deadline);
        let events = told(&app, &bo, seen).await;
        assert_eq!(events.last().unwrap().0, "vacation_ended");
        // Ending it again changes nothing.
        let again = come_back(&app, &ann).await;
        assert_eq!(again["remaining_days"], 26);
        let profile = get_json(&app, &format!("/api/v1/users/{}", ann.username), &bo).await;
        assert_eq!(profile["on_vacation"], false);
        assert_eq!(profile["vacation_remaining_days"], 26);
    }

    /// On every time control, the paused time is exact.
    async fn every_time_control_pauses_to_the_second(app) {
        let (mut ann, mut bo) = two_users(&app, "every").await;
        let controls = [
            json!({"type": "per_move", "days": 5}),
            json!({"type": "fischer", "initial_days": 6, "increment_days": 1, "max_days": 9}),
            json!({"type": "moves_in_days", "moves": 3, "days": 7}),
        ];
        let mut ids = Vec::new();
        for control in &controls {
            let body = json!({"variant": "duel", "color": "red", "opponent": bo.username,
                              "time_control": control});
            let id = create_game(&app, &ann, &body).await;
            join_game(&app, &id, &bo).await;
            place_setup(&app, &id, &ann, 1).await;
            place_setup(&app, &id, &bo, 1).await;
            ids.push(id);
        }
        app.clock.advance(Duration::hours(7));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        let mut before = Vec::new();
        for id in &ids {
            before.push(clock(&game_view(&app, id, &bo).await, "red")["remaining_seconds"].clone());
        }
        go_on_vacation(&app, &ann, json!({})).await;
        app.clock.advance(Duration::days(3) + Duration::hours(2));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        for (id, left) in ids.iter().zip(&before) {
            let view = game_view(&app, id, &bo).await;
            assert_eq!(&clock(&view, "red")["remaining_seconds"], left, "{}", view["time_control"]);
        }
        come_back(&app, &ann).await;
        app.clock.advance(Duration::hours(1));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        for (id, left) in ids.iter().zip(&before) {
            let view = game_view(&app, id, &bo).await;
            let now = clock(&view, "red")["remaining_seconds"].as_i64().unwrap();
            assert_eq!(now, left.as_i64().unwrap() - 3600, "{}", view["time_control"]);
        }
    }

    async fn a_bot_never_goes_on_vacation(app) {
        let ann = app.register_user("botwatch").await;
        let bot = get_json(&app, "/api/v1/users/bot-tactician", &ann).await;
        let id = uuid::Uuid::parse_str(bot["id"].as_str().unwrap()).unwrap();
        let refused = api::games::vacation::start(&app.games, id, "bot-tactician", Default::default()).await;
        assert!(matches!(refused, Err(api::games::GameError::Forbidden(_))), "{refused:?}");
        let refused = api::games::vacation::set_auto(&app.games, id, true).await;
        assert!(matches!(refused, Err(api::games::GameError::Forbidden(_))), "{refused:?}");
    }

    async fn a_move_in_any_game_ends_the_vacation_everywhere(app) {
        let (mut ann, mut bo) = two_users(&app, "mover").await;
        let mut first = ann_to_move(&app, &ann, &bo, 2).await;
        // In the second game Ann is Blue, waiting for Bo.
        let second = random_match(&app, bo.clone(), ann.clone(), Variant::Duel, Rules::default(), 3).await;
        go_on_vacation(&app, &ann, json!({})).await;
        let paused = game_view(&app, &second.id, &bo).await;
        assert_eq!(clock(&paused, "blue")["on_vacation"], true);
        app.clock.advance(Duration::hours(5));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        first.red = ann.clone();
        first.version = game_view(&app, &first.id, &ann).await["version"].as_i64().unwrap();
        let m = first.local.legal_moves()[0];
        let answer = play(&app, &mut first, m, None).await;
        assert_eq!(clock(&answer["game"], "red")["on_vacation"], false);
        assert!(answer.get("back_from_vacation").is_none());
        let back = vacation_of(&app, &ann).await;
        assert_eq!(back["on_vacation"], false);
        assert_eq!(back["remaining_days"], 29);
        let view = game_view(&app, &second.id, &bo).await;
        assert_eq!(clock(&view, "blue")["on_vacation"], false);
        // The move's answer is the game's latest version.
        let now = game_view(&app, &first.id, &ann).await;
        assert_eq!(now["version"], answer["game"]["version"]);
    }

    async fn a_vacation_ends_by_itself_when_its_days_are_over(app) {
        let (mut ann, mut bo) = two_users(&app, "timed").await;
        let game = ann_to_move(&app, &ann, &bo, 4).await;
        let seen = last_event(&app, &bo).await;
        go_on_vacation(&app, &ann, json!({"days": 2})).await;
        app.clock.advance(Duration::days(2) + Duration::hours(1));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        // Before any sweep, the clock runs again from the end of the pause.
        let view = game_view(&app, &game.id, &bo).await;
        assert_eq!(clock(&view, "red")["on_vacation"], false);
        assert_eq!(clock(&view, "red")["remaining_seconds"], 3 * DAY - 3600);
        let ended = api::games::vacation::sweep(&app.games, app.now()).await.unwrap();
        assert_eq!(ended, 1);
        assert_eq!(api::games::vacation::sweep(&app.games, app.now()).await.unwrap(), 0);
        let after = vacation_of(&app, &ann).await;
        assert_eq!(after["on_vacation"], false);
        assert_eq!(after["remaining_days"], 28);
        let events: Vec<String> = told(&app, &bo, seen).await.into_iter().map(|e| e.0).collect();
        assert_eq!(events, ["vacation_started", "vacation_ended"]);
        // The ending wrote nothing to the game.
        assert_eq!(game_view(&app, &game.id, &bo).await["version"], view["version"]);
    }

    async fn vacations_beyond_the_budget_are_refused(app) {
        let (ann, bo) = two_users(&app, "budget").await;
        let game = ann_to_move(&app, &ann, &bo, 5).await;
        let before = game_view(&app, &game.id, &ann).await;
        let r = app.post_json("/api/v1/me/vacation", Some(&ann.access_token), &json!({"days": 31})).await;
        let problem = assert_problem(r, 409, "vacation_budget_exceeded").await;
        assert_eq!(problem["remaining_days"], 30);
        for body in [json!({"days": 0}), json!({"days": 400}), json!({"message": "x".repeat(281)}),
                     json!({"message": "a\u{7}b"}), json!({"days": 2, "extra": 1}), json!({"days": "2"})] {
            let r = app.post_json("/api/v1/me/vacation", Some(&ann.access_token), &body).await;
            assert_problem(r, 422, "validation_failed").await;
        }
        assert_eq!(game_view(&app, &game.id, &ann).await["version"], before["version"]);
        go_on_vacation(&app, &ann, json!({"days": 30})).await;
        let r = app.post_json("/api/v1/me/vacation", Some(&ann.access_token), &json!({})).await;
        assert_problem(r, 409, "already_on_vacation").await;
        come_back(&app, &ann).await;
        // One day was charged: 29 remain, no more.
        let r = app.post_json("/api/v1/me/vacation", Some(&ann.access_token), &json!({"days": 30})).await;
        let problem = assert_problem(r, 409, "vacation_budget_exceeded").await;
        assert_eq!(problem["remaining_days"], 29);
        let r = app.post_json("/api/v1/me/vacation", None, &json!({})).await;
        assert_problem(r, 401, "unauthorized").await;
    }

    async fn a_game_that_starts_during_a_vacation_is_paused(app) {
        let (ann, bo) = two_users(&app, "newgame").await;
        let id = create_game(&app, &ann, &json!({"variant": "duel", "color": "red"})).await;
        go_on_vacation(&app, &ann, json!({"days": 3})).await;
        let joined = join_game(&app, &id, &bo).await;
        assert_eq!(joined["status"], "setup");
        let view = game_view(&app, &id, &bo).await;
        assert_eq!(clock(&view, "red")["on_vacation"], true, "{view}");
        assert_eq!(clock(&view, "blue")["on_vacation"], false);
        assert_eq!(clock(&view, "blue")["running"], true);
        assert_eq!(view["deadline"], clock(&view, "blue")["deadline"]);
    }

    async fn automatic_vacation_instead_of_a_loss(app) {
        // Within one year: a new year's days would start a new vacation.
        app.clock.set(Utc.with_ymd_and_hms(app.now().year() + 1, 3, 1, 9, 0, 0).unwrap());
        let (mut ann, mut bo) = two_users(&app, "auto").await;
        let game = ann_to_move(&app, &ann, &bo, 6).await;
        let on = app.client.put(app.url("/api/v1/me/vacation/auto")).bearer_auth(&ann.access_token)
            .json(&json!({"auto": true})).send().await.unwrap();
        assert_eq!(on.status().as_u16(), 200);
        assert_eq!(on.json::<Value>().await.unwrap()["auto"], true);
        app.clock.advance(Duration::days(3));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        assert_eq!(sweep(&app).await, 0, "not lost");
        let view = game_view(&app, &game.id, &bo).await;
        assert_eq!(view["status"], "playing");
        assert_eq!(clock(&view, "red")["on_vacation"], true);
        assert_eq!(clock(&view, "red")["remaining_seconds"], 0);
        let vacation = vacation_of(&app, &ann).await;
        assert_eq!(vacation["on_vacation"], true);
        assert_eq!(vacation["auto"], true);
        // The budget runs out: the vacation ends, and the empty clock loses.
        app.clock.advance(Duration::days(30));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        api::games::vacation::sweep(&app.games, app.now()).await.unwrap();
        let view = game_view(&app, &game.id, &bo).await;
        assert_eq!(view["result"], json!({"winner": "blue", "reason": "timeout"}));
        let vacation = vacation_of(&app, &ann).await;
        assert_eq!(vacation["on_vacation"], false);
        assert_eq!(vacation["remaining_days"], 0);
    }

    async fn a_late_vacation_saves_no_game(app) {
        let (mut ann, mut bo) = two_users(&app, "late").await;
        let game = ann_to_move(&app, &ann, &bo, 8).await;
        // Ann's clock ran out six hours ago; no sweep has run yet.
        app.clock.advance(Duration::days(3) + Duration::hours(6));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        go_on_vacation(&app, &ann, json!({})).await;
        assert_eq!(sweep(&app).await, 1);
        let view = game_view(&app, &game.id, &bo).await;
        assert_eq!(view["result"], json!({"winner": "blue", "reason": "timeout"}));
    }

    async fn automatic_vacation_does_not_save_a_setup_or_an_empty_clock(app) {
        app.clock.set(Utc.with_ymd_and_hms(app.now().year() + 1, 3, 1, 9, 0, 0).unwrap());
        let (mut ann, mut bo) = two_users(&app, "empty").await;
        let auto = |user: &TestUser| app.client.put(app.url("/api/v1/me/vacation/auto"))
            .bearer_auth(user.access_token.clone()).json(&json!({"auto": true})).send();
        assert_eq!(auto(&ann).await.unwrap().status().as_u16(), 200);
        // A setup never placed aborts the game, vacation or not.
        let setup = create_game(&app, &bo, &json!({"variant": "duel", "opponent": ann.username})).await;
        join_game(&app, &setup, &ann).await;
        let mut first = ann_to_move(&app, &ann, &bo, 9).await;
        let second = ann_to_move(&app, &ann, &bo, 10).await;
        place_setup(&app, &setup, &bo, 1).await;
        app.clock.advance(Duration::days(3));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        sweep(&app).await;
        assert_eq!(game_view(&app, &setup, &bo).await["status"], "aborted");
        // Both games in play were saved by one automatic vacation, begun
        // when the first clock ran out.
        assert_eq!(vacation_of(&app, &ann).await["on_vacation"], true);
        for id in [&first.id, &second.id] {
            let view = game_view(&app, id, &bo).await;
            assert_eq!(view["status"], "playing");
            assert_eq!(clock(&view, "red")["on_vacation"], true);
        }
        // Ann comes back by moving in the first game: the second's clock
        // is empty, and it loses at once instead of starting a vacation.
        app.clock.advance(Duration::hours(1));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        first.red = ann.clone();
        first.version = game_view(&app, &first.id, &ann).await["version"].as_i64().unwrap();
        let m = first.local.legal_moves()[0];
        play(&app, &mut first, m, None).await;
        sweep(&app).await;
        let view = game_view(&app, &second.id, &bo).await;
        assert_eq!(view["result"], json!({"winner": "blue", "reason": "timeout"}));
        let back = vacation_of(&app, &ann).await;
        assert_eq!(back["on_vacation"], false);
        assert_eq!(back["remaining_days"], 29);
    }

    async fn a_vacation_over_but_not_yet_swept_reads_as_over(app) {
        let (mut ann, mut bo) = two_users(&app, "unswept").await;
        go_on_vacation(&app, &ann, json!({"days": 1})).await;
        app.clock.advance(Duration::days(2));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        let seen = vacation_of(&app, &ann).await;
        assert_eq!(seen["on_vacation"], false, "{seen}");
        assert_eq!(seen["remaining_days"], 29);
        let again = go_on_vacation(&app, &ann, json!({"days": 2})).await;
        assert_eq!(again["on_vacation"], true);
        assert_eq!(again["remaining_days"], 28);
    }

    async fn the_budget_is_counted_by_calendar_year(app) {
        let (mut ann, mut bo) = two_users(&app, "newyear").await;
        let year = app.now().year() + 1;
        let eve = Utc.with_ymd_and_hms(year, 12, 31, 12, 0, 0).unwrap();
        app.clock.set(eve);
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        let started = go_on_vacation(&app, &ann, json!({"days": 1})).await;
        assert_eq!(started["remaining_days"], 29);
        // Past midnight the vacation is still this year's.
        app.clock.advance(Duration::hours(13));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        assert_eq!(vacation_of(&app, &ann).await["remaining_days"], 29);
        app.clock.advance(Duration::hours(12));
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        api::games::vacation::sweep(&app.games, app.now()).await.unwrap();
        // Over, charged one day to the old year: 30 new days and 10 carried.
        let after = vacation_of(&app, &ann).await;
        assert_eq!(after["on_vacation"], false);
        assert_eq!(after["remaining_days"], 40, "{after}");
        let r = app.post_json("/api/v1/me/vacation", Some(&ann.access_token), &json!({"days": 41})).await;
        let problem = assert_problem(r, 409, "vacation_budget_exceeded").await;
        assert_eq!(problem["remaining_days"], 40);
    }

    async fn another_process_sees_and_ends_the_same_vacation(app) {
        let (ann, bo) = two_users(&app, "replica").await;
        let game = ann_to_move(&app, &ann, &bo, 7).await;
        let replica = Replica::start(&app).await;
        go_on_vacation(&app, &ann, json!({})).await;
        let there = replica.get(&game.path(""), &bo).await;
        assert_eq!(clock(&there, "red")["on_vacation"], true);
        assert_eq!(replica.get("/api/v1/me/vacation", &ann).await["on_vacation"], true);
        replica.delete("/api/v1/me/vacation", &ann).await;
        let here = game_view(&app, &game.id, &bo).await;
        assert_eq!(clock(&here, "red")["on_vacation"], false);
        assert_eq!(vacation_of(&app, &ann).await["on_vacation"], false);
        replica.stop().await;
        // A process started while a vacation runs (a restart) finds it as
        // it was, and its clocks stopped to the second.
        go_on_vacation(&app, &ann, json!({"days": 3})).await;
        let before = clock(&game_view(&app, &game.id, &bo).await, "red")["remaining_seconds"].clone();
        let restarted = Replica::start(&app).await;
        app.clock.advance(Duration::hours(30));
        let (mut ann, mut bo) = (ann, bo);
        fresh(&app, &mut [&mut ann, &mut bo]).await;
        let there = restarted.get(&game.path(""), &bo).await;
        assert_eq!(clock(&there, "red")["on_vacation"], true);
        assert_eq!(clock(&there, "red")["remaining_seconds"], before);
        let back = restarted.delete("/api/v1/me/vacation", &ann).await;
        assert_eq!(back["remaining_days"], 27, "one day before, two begun now: {back}");
        restarted.stop().await;
    }

    async fn a_move_racing_the_start_of_a_vacation_leaves_one_truth(app) {
        let (ann, bo) = two_users(&app, "race").await;
        for seed in 0..4u64 {
            let mut game = ann_to_move(&app, &ann, &bo, 10 + seed).await;
            let m = game.local.legal_moves()[0];
            let body = move_body(m, None, None);
            let path = game.path("/moves");
            let empty = json!({});
            let (moved, started) = tokio::join!(
                app.post_json(&path, Some(&ann.access_token), &body),
                app.post_json("/api/v1/me/vacation", Some(&ann.access_token), &empty),
            );
            assert_eq!(moved.status().as_u16(), 200);
            assert_eq!(started.status().as_u16(), 201);
            game.moved(domain::Color::Red, m);
            let on = vacation_of(&app, &ann).await["on_vacation"].as_bool().unwrap();
            let view = game_view(&app, &game.id, &bo).await;
            // Whichever came first, the game and the vacation agree.
            assert_eq!(clock(&view, "red")["on_vacation"].as_bool().unwrap(), on, "{view}");
            if on {
                come_back(&app, &ann).await;
            }
        }
    }
}
