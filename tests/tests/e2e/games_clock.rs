//! The correspondence clock, driven by the test's manual clock: timeouts,
//! setups that never came, and sweeps running in parallel.

use diesel::prelude::*;
use domain::{Rules, Variant};
use serde_json::json;

use crate::harness::{assert_problem, TestApp};
use crate::support::*;

async fn actions_of(app: &TestApp, id: &str) -> Vec<String> {
    use api::schema::game_actions;
    let id = id.to_owned();
    api::db::run(&app.pool, move |conn| {
        Ok(game_actions::table
            .filter(game_actions::game_id.eq(id))
            .order(game_actions::seq)
            .select(game_actions::action)
            .load::<String>(conn)?)
    })
    .await
    .unwrap()
}

backend_tests! {
    async fn a_missed_move_deadline_loses_the_game(app) {
        let (mut ann, mut bo) = two_users(&app, "late").await;
        let mut game = random_match(&app, ann.clone(), bo.clone(), Variant::Classic, Rules::default(), 3).await;
        let m = game.local.legal_moves()[0];
        play(&app, &mut game, m, None).await;
        // Blue has 3 days.
        app.clock.advance(chrono::Duration::days(3) - chrono::Duration::seconds(1));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        let view = game_view(&app, &game.id, &bo).await;
        assert_eq!(view["status"], "playing");
        assert_eq!(view["version"], game.version);
        app.clock.advance(chrono::Duration::seconds(1));
        // Any read ends an overdue game at once, whatever the sweep does:
        // a listing ...
        let list = get_json(&app, "/api/v1/games?status=playing&mine=true", &ann).await;
        assert!(list["games"].as_array().unwrap().is_empty(), "{list}");
        // ... or the view.
        let view = game_view(&app, &game.id, &ann).await;
        assert_eq!(view["status"], "finished");
        assert_eq!(view["result"], json!({"winner": "red", "reason": "timeout"}));
        assert_eq!(view["version"], game.version + 1);
        // Everything is revealed; a late move is refused.
        assert!(view["board"].as_array().unwrap().iter().all(|p| p["piece"].is_string()));
        let m = game.local.legal_moves()[0];
        let r = app.post_json(&game.path("/moves"), Some(&bo.access_token), &move_body(m, None, None)).await;
        assert_problem(r, 409, "wrong_phase").await;
        assert_eq!(sweep(&app).await, 0, "already ended");
        assert_eq!(actions_of(&app, &game.id).await.last().unwrap(), r#"{"type":"timeout"}"#);
    }

    async fn a_setup_that_never_came_aborts_the_game(app) {
        let (ann, mut bo) = two_users(&app, "nosetup").await;
        let id = seated_game(&app, &ann, &bo, Variant::Barrage, &Rules::default()).await;
        post_ok(&app, &format!("/api/v1/games/{id}/setup"), &ann, &json!({"random": true}), 200).await;
        app.clock.advance(chrono::Duration::days(3));
        assert_eq!(sweep(&app).await, 1);
        relogin(&app, &mut bo).await;
        let view = game_view(&app, &id, &bo).await;
        assert_eq!(view["status"], "aborted");
        assert!(view["result"].is_null());
        assert_eq!(view["version"], 4);
        // Blue never sees Red's setup.
        assert!(view["board"].as_array().unwrap().is_empty());
        let r = app.post_json(&format!("/api/v1/games/{id}/setup"), Some(&bo.access_token), &json!({"random": true})).await;
        assert_problem(r, 409, "wrong_phase").await;
    }

    async fn parallel_sweeps_end_each_game_once(app) {
        let (mut ann, bo) = two_users(&app, "sweep").await;
        let mut ids = Vec::new();
        for seed in 0..6u64 {
            let game = random_match(&app, ann.clone(), bo.clone(), Variant::Duel, Rules::default(), seed).await;
            ids.push((game.id.clone(), game.version));
        }
        let setup_only = seated_game(&app, &ann, &bo, Variant::Duel, &Rules::default()).await;
        app.clock.advance(chrono::Duration::days(4));
        relogin(&app, &mut ann).await;
        let (a, b, c) = tokio::join!(sweep(&app), sweep(&app), sweep(&app));
        assert_eq!(a + b + c, 7, "each overdue game ended exactly once ({a}+{b}+{c})");
        for (id, version) in &ids {
            let view = game_view(&app, id, &ann).await;
            assert_eq!(view["result"], json!({"winner": "blue", "reason": "timeout"}));
            assert_eq!(view["version"], version + 1);
            let timeouts = actions_of(&app, id).await.iter().filter(|a| a.contains("timeout")).count();
            assert_eq!(timeouts, 1);
        }
        let view = game_view(&app, &setup_only, &ann).await;
        assert_eq!(view["status"], "aborted");
    }

    /// The background task ends overdue games by itself (no request needed).
    async fn the_background_sweep_ends_overdue_games(app, config = |c| c.deadline_sweep_seconds = 1) {
        let (ann, bo) = two_users(&app, "task").await;
        let game = random_match(&app, ann, bo, Variant::Duel, Rules::default(), 1).await;
        app.clock.advance(chrono::Duration::days(5));
        // No request touches the game: only the task can end it.
        let mut finished = false;
        for _ in 0..100 {
            let id = game.id.clone();
            let status = api::db::run(&app.pool, move |conn| {
                use api::schema::games;
                Ok(games::table
                    .find(id)
                    .select(games::status)
                    .first::<String>(conn)?)
            })
            .await
            .unwrap();
            if status == "finished" {
                finished = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(finished, "the sweep ended the game");
    }
}
