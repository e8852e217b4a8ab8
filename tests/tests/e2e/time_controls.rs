//! Time controls (docs/lifecycle.md, "Clocks"), driven by the manual
//! clock: each control's arithmetic as a player sees it in the view, the
//! exact second a game is lost on time, the clocks of a kept view, the
//! same clocks on another process, games from before time controls, and
//! the controls refused.

use chrono::Duration;
use domain::{Rules, Variant};
use serde_json::{json, Value};

use crate::harness::{assert_problem, TestApp, TestUser};
use crate::support::*;

const DAY: i64 = 86_400;

/// A duel between `red` and `blue` under `control`, both random setups
/// placed at once: Red to move.
async fn duel(app: &TestApp, red: &TestUser, blue: &TestUser, control: Value) -> Match {
    let body = json!({"variant": "duel", "color": "red", "opponent": blue.username,
                      "time_control": control});
    let id = create_game(app, red, &body).await;
    join_game(app, &id, blue).await;
    place_setup(app, &id, red, 5).await;
    let view = place_setup(app, &id, blue, 5).await;
    assert_eq!(view["status"], "playing", "{view}");
    Match {
        id,
        red: red.clone(),
        blue: blue.clone(),
        local: domain::playout::random_game(Variant::Duel, Rules::default(), 5).unwrap(),
        version: view["version"].as_i64().unwrap(),
    }
}

/// The player to move makes the first legal move.
async fn move_once(app: &TestApp, game: &mut Match) -> Value {
    let m = game.local.legal_moves()[0];
    play(app, game, m, None).await
}

fn seconds(view: &Value, color: &str) -> i64 {
    view["clocks"][color]["remaining_seconds"].as_i64().unwrap()
}

async fn fresh_tokens(app: &TestApp, game: &mut Match) {
    relogin(app, &mut game.red).await;
    relogin(app, &mut game.blue).await;
}

backend_tests! {
    async fn fischer_banks_time_and_loses_on_the_exact_second(app) {
        let (ann, bo) = two_users(&app, "fischer").await;
        let control = json!({"type": "fischer", "initial_days": 2, "increment_days": 2, "max_days": 3});
        let mut game = duel(&app, &ann, &bo, control.clone()).await;
        let view = game_view(&app, &game.id, &ann).await;
        assert_eq!(view["time_control"], control);
        assert_eq!(view["days_per_move"], 2);
        assert_eq!(seconds(&view, "red"), 2 * DAY);
        assert_eq!(view["clocks"]["red"]["running"], true);
        assert_eq!(view["clocks"]["blue"]["running"], false);
        assert!(view["clocks"]["blue"]["deadline"].is_null());
        assert_eq!(view["deadline"], view["clocks"]["red"]["deadline"]);
        assert!(view["clocks"]["red"].get("moves_to_control").is_none(), "{view}");

        // Red thinks for a day and 6 hours: 2 days - 30 h + 2 days.
        app.clock.advance(Duration::hours(30));
        fresh_tokens(&app, &mut game).await;
        let answer = move_once(&app, &mut game).await;
        assert_eq!(seconds(&answer["game"], "red"), 4 * DAY - 30 * 3600);
        assert_eq!(seconds(&answer["game"], "blue"), 2 * DAY);
        // Blue's move after an hour: 2 days - 1 h + 2 days, capped at 3.
        app.clock.advance(Duration::hours(1));
        fresh_tokens(&app, &mut game).await;
        let answer = move_once(&app, &mut game).await;
        assert_eq!(seconds(&answer["game"], "blue"), 3 * DAY);

        // Red has 66 hours; one second before they run out, the game runs.
        let red_left = seconds(&answer["game"], "red");
        assert_eq!(red_left, 66 * 3600);
        app.clock.advance(Duration::seconds(red_left - 1));
        fresh_tokens(&app, &mut game).await;
        let view = game_view(&app, &game.id, &game.blue).await;
        assert_eq!(view["status"], "playing");
        assert_eq!(view["version"], game.version);
        assert_eq!(seconds(&view, "red"), 1);
        app.clock.advance(Duration::seconds(1));
        let view = game_view(&app, &game.id, &game.blue).await;
        assert_eq!(view["status"], "finished");
        assert_eq!(view["result"], json!({"winner": "blue", "reason": "timeout"}));
        assert_eq!(seconds(&view, "red"), 0);
        assert!(view["deadline"].is_null());
        assert_eq!(view["clocks"]["red"]["running"], false);
    }

    async fn moves_in_days_carries_saved_time_to_the_next_control(app) {
        let (ann, bo) = two_users(&app, "iccf").await;
        let control = json!({"type": "moves_in_days", "moves": 2, "days": 4});
        let mut game = duel(&app, &ann, &bo, control.clone()).await;
        let view = game_view(&app, &game.id, &ann).await;
        assert_eq!(view["clocks"]["red"]["moves_to_control"], 2);
        assert_eq!(seconds(&view, "red"), 4 * DAY);
        // Red: 1 day, then (after Blue) 1 more: the control adds 4 days to
        // the 2 saved.
        app.clock.advance(Duration::days(1));
        fresh_tokens(&app, &mut game).await;
        let answer = move_once(&app, &mut game).await;
        assert_eq!(seconds(&answer["game"], "red"), 3 * DAY);
        assert_eq!(answer["game"]["clocks"]["red"]["moves_to_control"], 1);
        move_once(&app, &mut game).await;
        app.clock.advance(Duration::days(1));
        fresh_tokens(&app, &mut game).await;
        let answer = move_once(&app, &mut game).await;
        assert_eq!(seconds(&answer["game"], "red"), 6 * DAY);
        assert_eq!(answer["game"]["clocks"]["red"]["moves_to_control"], 2);
        // Blue's clock ran a day only while it was Blue's move: not at all.
        assert_eq!(seconds(&answer["game"], "blue"), 4 * DAY);
    }

    async fn a_kept_view_shows_the_clocks_of_the_moment(app) {
        let (ann, bo) = two_users(&app, "kept").await;
        let mut game = duel(&app, &ann, &bo, json!({"type": "per_move", "days": 3})).await;
        let first = app.get(&game.path(""), Some(&ann.access_token)).await;
        let tag = first.headers()["etag"].to_str().unwrap().to_owned();
        let first: Value = first.json().await.unwrap();
        app.clock.advance(Duration::hours(5));
        fresh_tokens(&app, &mut game).await;
        // The same version, the same tag, the clocks of now.
        let later = app.get(&game.path(""), Some(&game.red.access_token)).await;
        assert_eq!(later.headers()["etag"].to_str().unwrap(), tag);
        let later: Value = later.json().await.unwrap();
        assert_eq!(later["version"], first["version"]);
        assert_eq!(seconds(&later, "red"), seconds(&first, "red") - 5 * 3600);
        assert_eq!(later["deadline"], first["deadline"]);
        let (mut first, mut later) = (first, later);
        for view in [&mut first, &mut later] {
            view.as_object_mut().unwrap().remove("clocks");
        }
        assert_eq!(first, later, "nothing else moved");
        // Another process reads the same clocks.
        let replica = Replica::start(&app).await;
        let there = replica.get(&game.path(""), &game.red).await;
        assert_eq!(there["clocks"], game_view(&app, &game.id, &game.red).await["clocks"]);
        replica.stop().await;
    }

    async fn unworkable_time_controls_are_refused(app) {
        let ann = app.register_user("tc_ann").await;
        for (body, needle) in [
            (json!({"time_control": {"type": "fischer", "initial_days": 10, "increment_days": 1, "max_days": 5}}), "max_days"),
            (json!({"time_control": {"type": "fischer", "initial_days": 10, "increment_days": 0, "max_days": 20}}), "increment_days"),
            (json!({"time_control": {"type": "moves_in_days", "moves": 10, "days": 5}}), "a day a move"),
            (json!({"time_control": {"type": "moves_in_days", "moves": 0, "days": 5}}), "moves"),
            (json!({"time_control": {"type": "per_move", "days": 15}}), "days"),
            (json!({"time_control": {"type": "per_move", "days": 3}, "days_per_move": 3}), "not both"),
        ] {
            let r = app.post_json("/api/v1/games", Some(&ann.access_token), &body).await;
            let problem = assert_problem(r, 422, "validation_failed").await;
            assert!(problem["detail"].as_str().unwrap().contains(needle), "{problem}");
        }
        for body in [
            json!({"time_control": {"type": "blitz", "days": 3}}),
            json!({"time_control": {"type": "per_move", "days": 3, "extra": 1}}),
            json!({"time_control": {"days": 3}}),
        ] {
            let r = app.post_json("/api/v1/games", Some(&ann.access_token), &body).await;
            assert_problem(r, 422, "validation_failed").await;
        }
        let mine = get_json(&app, "/api/v1/games?mine=true", &ann).await;
        assert_eq!(mine["games"], json!([]), "nothing was created");
    }

    async fn a_rematch_keeps_the_time_control_or_takes_the_one_named(app) {
        let (ann, bo) = two_users(&app, "again").await;
        let control = json!({"type": "moves_in_days", "moves": 5, "days": 20});
        let mut ids = Vec::new();
        for _ in 0..2 {
            let game = duel(&app, &ann, &bo, control.clone()).await;
            post_ok(&app, &game.path("/resign"), &ann, &json!({}), 200).await;
            ids.push(game.id);
        }
        // No body: the finished game's control.
        let response = app.client.post(app.url(&format!("/api/v1/games/{}/rematch", ids[0])))
            .bearer_auth(&bo.access_token).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 201);
        let same: Value = response.json().await.unwrap();
        assert_eq!(same["time_control"], control);
        // Refused bodies change nothing.
        let rematch = format!("/api/v1/games/{}/rematch", ids[1]);
        for body in [
            json!({"time_control": {"type": "per_move", "days": 0}}),
            json!({"time_control": {"type": "per_move", "days": 3}, "days_per_move": 3}),
            json!({"colour": "red"}),
            json!([]),
        ] {
            let r = app.post_json(&rematch, Some(&bo.access_token), &body).await;
            assert_problem(r, 422, "validation_failed").await;
        }
        let r = app.client.post(app.url(&rematch)).bearer_auth(&bo.access_token)
            .header("content-type", "text/plain").body("days").send().await.unwrap();
        assert_problem(r, 415, "unsupported_media_type").await;
        let named = json!({"type": "fischer", "initial_days": 5, "increment_days": 1, "max_days": 9});
        let other = post_ok(&app, &rematch, &bo, &json!({"time_control": named}), 201).await;
        assert_eq!(other["time_control"], named);
        assert_eq!(other["days_per_move"], 1);
    }

    async fn a_game_from_before_time_controls_keeps_its_clock(app) {
        let (ann, bo) = two_users(&app, "legacy").await;
        let mut game = random_match(&app, ann, bo, Variant::Duel, Rules::default(), 2).await;
        move_once(&app, &mut game).await;
        // As a game written before time controls: neither column.
        let id = game.id.clone();
        api::db::run(&app.pool, move |conn| {
            use api::schema::games;
            use diesel::prelude::*;
            diesel::update(games::table.find(id))
                .set((games::time_control.eq(None::<String>), games::clocks.eq(None::<String>)))
                .execute(conn)?;
            Ok(())
        })
        .await
        .unwrap();
        app.clock.advance(Duration::days(1));
        fresh_tokens(&app, &mut game).await;
        let view = game_view(&app, &game.id, &game.blue).await;
        assert_eq!(view["time_control"], json!({"type": "per_move", "days": 3}));
        assert_eq!(seconds(&view, "blue"), 2 * DAY);
        let answer = move_once(&app, &mut game).await;
        assert_eq!(seconds(&answer["game"], "blue"), 3 * DAY);
        assert_eq!(seconds(&answer["game"], "red"), 3 * DAY);
    }
}
