//! The events of a game's life before play: `opponent_joined` when a seat
//! is taken or a challenge accepted, and `game_aborted` when a player
//! aborts (a withdrawn challenge included) or a setup never comes.

use domain::{Rules, Variant};
use serde_json::{json, Value};

use crate::support::*;

/// An event without its id and time (what it says, not when).
fn said(event: &Value) -> Value {
    let mut event = event.clone();
    let members = event.as_object_mut().unwrap();
    assert!(members.remove("id").is_some(), "{event:?}");
    assert!(members.remove("created_at").is_some());
    event
}

backend_tests! {
    async fn taking_an_open_seat_tells_the_creator(app) {
        let (ann, bo) = two_users(&app, "seat").await;
        let id = create_game(&app, &ann, &json!({"color": "blue", "days_per_move": 2})).await;
        assert!(feed(&app, &ann).await.is_empty());
        let joined = post_ok(&app, &format!("/api/v1/games/{id}/join"), &bo, &json!({}), 200).await;
        assert_eq!(joined["status"], "setup");

        let events = feed(&app, &ann).await;
        assert_eq!(types(&events), ["opponent_joined"]);
        assert_eq!(said(&events[0]), json!({"type": "opponent_joined", "game_id": id, "by": "seat_blue"}));
        // The one who joined knows it already.
        assert!(feed(&app, &bo).await.is_empty());
        // Ann's view agrees: the setup phase (and its clock) has begun.
        let view = game_view(&app, &id, &ann).await;
        assert_eq!(view["status"], "setup");
        assert!(view["deadline"].is_string(), "{view}");
    }

    async fn accepting_a_challenge_tells_the_challenger(app) {
        let (ann, bo) = two_users(&app, "accept").await;
        let id = create_game(&app, &ann, &json!({"opponent": "accept_blue", "color": "red"})).await;
        post_ok(&app, &format!("/api/v1/games/{id}/join"), &bo, &json!({}), 200).await;

        let events = feed(&app, &ann).await;
        assert_eq!(types(&events), ["opponent_joined"]);
        assert_eq!(said(&events[0]), json!({"type": "opponent_joined", "game_id": id, "by": "accept_blue"}));
        assert_eq!(types(&feed(&app, &bo).await), ["challenge_received"]);
    }

    async fn a_withdrawn_challenge_tells_the_challenged_user(app) {
        let (ann, bo) = two_users(&app, "withdraw").await;
        let stranger = app.register_user("withdraw_other").await;
        let id = create_game(&app, &ann, &json!({"opponent": "withdraw_blue"})).await;
        let aborted = post_ok(&app, &format!("/api/v1/games/{id}/abort"), &ann, &json!({}), 200).await;
        assert_eq!(aborted["status"], "aborted");

        let events = feed(&app, &bo).await;
        assert_eq!(types(&events), ["challenge_received", "game_aborted"]);
        assert_eq!(said(&events[1]),
            json!({"type": "game_aborted", "game_id": id, "reason": "aborted", "by": "withdraw_red"}));
        // The one who withdrew it is not told, nor is anyone else.
        assert!(feed(&app, &ann).await.is_empty());
        assert!(feed(&app, &stranger).await.is_empty());

        // An open game nobody joined tells nobody when its creator aborts it.
        let open = create_game(&app, &ann, &json!({})).await;
        post_ok(&app, &format!("/api/v1/games/{open}/abort"), &ann, &json!({}), 200).await;
        assert!(feed(&app, &ann).await.is_empty());
        assert_eq!(feed(&app, &bo).await.len(), 2);
        assert!(feed(&app, &stranger).await.is_empty());
    }

    async fn aborting_during_setup_tells_the_other_player_only(app) {
        let (ann, bo) = two_users(&app, "quit").await;
        // Two games: in one Ann's setup is in, in the other not; Bo aborts
        // both. What Ann hears must not depend on her setup being in.
        let mut heard = Vec::new();
        for place in [true, false] {
            let id = seated_game(&app, &ann, &bo, Variant::Barrage, &Rules::default()).await;
            if place {
                post_ok(&app, &format!("/api/v1/games/{id}/setup"), &ann, &json!({"random": true}), 200).await;
            }
            let before = game_view(&app, &id, &bo).await["version"].as_i64().unwrap();
            let aborted = post_ok(&app, &format!("/api/v1/games/{id}/abort"), &bo, &json!({}), 200).await;
            assert_eq!(aborted["status"], "aborted");
            assert_eq!(aborted["version"], before + 1);

            let events = feed(&app, &ann).await;
            let last = events.last().unwrap();
            assert_eq!(said(last),
                json!({"type": "game_aborted", "game_id": id, "reason": "aborted", "by": "quit_blue"}));
            heard.push(said(last).to_string().replace(&id, "<game>"));
        }
        assert_eq!(heard[0], heard[1]);
        assert_eq!(types(&feed(&app, &ann).await),
            ["opponent_joined", "game_aborted", "opponent_joined", "game_aborted"]);
        // The player who aborted hears nothing (and took an open seat: no
        // event for that either).
        assert!(feed(&app, &bo).await.is_empty());
    }

    async fn a_setup_timeout_tells_both_players_once(app) {
        let (mut ann, mut bo) = two_users(&app, "slow").await;
        // Two games whose setup phases (3 days) end a day apart; only Ann's
        // setups come in.
        let swept = seated_game(&app, &ann, &bo, Variant::Barrage, &Rules::default()).await;
        post_ok(&app, &format!("/api/v1/games/{swept}/setup"), &ann, &json!({"random": true}), 200).await;
        app.clock.advance(chrono::Duration::days(1));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        let lazy = seated_game(&app, &ann, &bo, Variant::Duel, &Rules::default()).await;
        post_ok(&app, &format!("/api/v1/games/{lazy}/setup"), &ann, &json!({"random": true}), 200).await;

        app.clock.advance(chrono::Duration::days(2) - chrono::Duration::seconds(1));
        assert_eq!(sweep(&app).await, 0, "not overdue yet");
        app.clock.advance(chrono::Duration::seconds(1));
        // The sweep ends the first game, whichever sweeps run at once.
        let (a, b, c) = tokio::join!(sweep(&app), sweep(&app), sweep(&app));
        assert_eq!(a + b + c, 1, "{a}+{b}+{c}");
        assert_eq!(sweep(&app).await, 0);

        // A day later a read ends the second one (the lazy path).
        app.clock.advance(chrono::Duration::days(1));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        let view = game_view(&app, &lazy, &bo).await;
        assert_eq!(view["status"], "aborted");
        assert_eq!(sweep(&app).await, 0);
        for id in [&swept, &lazy] {
            let view = game_view(&app, id, &ann).await;
            assert_eq!(view["status"], "aborted");
        }

        let ann_events = feed(&app, &ann).await;
        let bo_events = feed(&app, &bo).await;
        assert_eq!(types(&ann_events), ["opponent_joined", "opponent_joined", "game_aborted", "game_aborted"]);
        assert_eq!(types(&bo_events), ["game_aborted", "game_aborted"]);
        for id in [&swept, &lazy] {
            let of_game = |events: &[Value]| -> Vec<Value> {
                events
                    .iter()
                    .filter(|e| e["type"] == "game_aborted" && e["game_id"] == id.as_str())
                    .map(said)
                    .collect()
            };
            let expected = json!({"type": "game_aborted", "game_id": id, "reason": "setup_timeout", "by": null});
            // The same words to both: nothing tells whose setup was missing.
            assert_eq!(of_game(&ann_events), vec![expected.clone()]);
            assert_eq!(of_game(&bo_events), vec![expected]);
        }
    }
}
