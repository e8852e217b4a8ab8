//! The events each game change leaves in the players' feeds (docs/lifecycle.md's
//! `/events`), as each recipient may see them.

use domain::{Color, Rules};
use serde_json::json;

use crate::support::*;

backend_tests! {
    async fn game_changes_reach_the_feeds(app) {
        let (ann, bob) = two_users(&app, "ev").await;
        let created = post_ok(&app, "/api/v1/games", &ann, &json!({"opponent": "ev_blue"}), 201).await;
        let id = created["id"].as_str().unwrap();
        post_ok(&app, &format!("/api/v1/games/{id}/decline"), &bob, &json!({}), 200).await;
        let bob_events = feed(&app, &bob).await;
        assert_eq!(types(&bob_events), ["challenge_received"]);
        assert_eq!(bob_events[0]["from"], "ev_red");
        assert_eq!(bob_events[0]["game_id"], id);
        let ann_events = feed(&app, &ann).await;
        assert_eq!(types(&ann_events), ["challenge_declined"]);
        assert_eq!(ann_events[0]["by"], "ev_blue");

        let mut game = fixed_match(&app, ann.clone(), bob.clone(), Rules::default()).await;
        // Red's marshal steps forward: Blue learns the squares, not the rank.
        let m = domain::Move { from: "a4".parse().unwrap(), to: "a5".parse().unwrap() };
        play(&app, &mut game, m, None).await;
        post_ok(&app, &game.path("/draw"), &bob, &json!({"action": "offer"}), 200).await;
        post_ok(&app, &game.path("/resign"), &ann, &json!({}), 200).await;

        let ann_events = feed(&app, &ann).await;
        assert_eq!(types(&ann_events),
            ["challenge_declined", "opponent_joined", "game_started", "your_turn", "draw_offered",
             "game_finished"]);
        assert_eq!(ann_events[1]["by"], "ev_blue");
        assert_eq!(ann_events[3]["ply"], 0);
        assert!(ann_events[3]["opponent_move"].is_null());
        assert_eq!(ann_events[4]["by"], "blue");
        let bob_events = feed(&app, &bob).await;
        assert_eq!(types(&bob_events),
            ["challenge_received", "game_started", "your_turn", "game_finished"]);
        let turn = &bob_events[2];
        assert_eq!(turn["ply"], 1);
        assert_eq!(turn["opponent_move"]["from"], "a4");
        assert_eq!(turn["opponent_move"]["to"], "a5");
        assert!(turn["opponent_move"]["piece"].is_null(), "{turn}");
        let finished = json!({"winner": Color::Blue, "reason": "resignation"});
        assert_eq!(bob_events[3]["result"], finished);
        assert_eq!(ann_events[5]["result"], finished);
    }
}
