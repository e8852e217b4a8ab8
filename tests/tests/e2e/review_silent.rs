//! Review check of `silent_defense`: two games with the same public
//! history, in which the defender that beats Red's attacker is a marshal in
//! one and a general in the other. Everything Red and a spectator receive
//! (move answers, views, histories, refused moves, events) must be the same
//! bytes in both games; Blue, who owns the defender, sees the difference.

use domain::{Color, Rules};
use serde_json::{json, Value};

use crate::harness::{TestApp, TestUser};
use crate::support::*;

/// What one viewer received, with the game id taken out.
type Transcript = Vec<String>;

fn normalized(value: &Value, game_id: &str) -> String {
    value.to_string().replace(game_id, "<game>")
}

/// The fixed setups with Red's a4 (marshal) and a3 (captain) swapped, and
/// Blue's a7 holding `defender` (swapped with where that piece stood).
fn placements(defender: &str) -> (Value, Value) {
    let mut red = fixed_placement(Color::Red);
    red["a4"] = json!("captain");
    red["a3"] = json!("marshal");
    let mut blue = fixed_placement(Color::Blue);
    let from = blue
        .as_object()
        .unwrap()
        .iter()
        .find(|(_, piece)| *piece == defender)
        .map(|(square, _)| square.clone())
        .unwrap();
    let displaced = blue["a7"].clone();
    blue[from.as_str()] = displaced;
    blue["a7"] = json!(defender);
    (red, blue)
}

/// Plays the game with this defender on a7; returns what Red, the spectator
/// and Blue received.
async fn transcripts(
    app: &TestApp,
    red: &TestUser,
    blue: &TestUser,
    spectator: &TestUser,
    defender: &str,
) -> (Transcript, Transcript, Transcript) {
    let rules = Rules {
        silent_defense: true,
        ..Rules::default()
    };
    let red_events = last_id(app, red).await;
    let id = seated_game(app, red, blue, domain::Variant::Classic, &rules).await;
    let (red_setup, blue_setup) = placements(defender);
    let setup = format!("/api/v1/games/{id}/setup");
    post_ok(app, &setup, red, &json!({"placement": red_setup}), 200).await;
    let started = post_ok(app, &setup, blue, &json!({"placement": blue_setup}), 200).await;
    assert_eq!(started["status"], "playing");
    let (mut red_log, mut spectator_log, mut blue_log) = (Vec::new(), Vec::new(), Vec::new());
    let moves = [
        (red, "a4", "a5"),
        (blue, "j7", "j6"),
        (red, "a5", "a6"),
        (blue, "j6", "j7"),
        (red, "a6", "a7"), // captain attacks the hidden defender and loses
        (blue, "j7", "j6"),
    ];
    for (user, from, to) in moves {
        let path = format!("/api/v1/games/{id}/moves");
        let answer = post_ok(app, &path, user, &json!({"from": from, "to": to}), 200).await;
        if user.id == red.id {
            red_log.push(normalized(&answer, &id));
        }
        for (viewer, log) in [
            (red, &mut red_log),
            (spectator, &mut spectator_log),
            (blue, &mut blue_log),
        ] {
            for tail in ["", "/moves"] {
                let seen = get_json(app, &format!("/api/v1/games/{id}{tail}"), viewer).await;
                log.push(normalized(&seen, &id));
            }
        }
        // A refused move of Red's (a bomb; out of turn or not).
        let refused = app
            .post_json(
                &path,
                Some(&red.access_token),
                &json!({"from": "e4", "to": "e5"}),
            )
            .await;
        assert!(refused.status().is_client_error());
        red_log.push(refused.text().await.unwrap().replace(&id, "<game>"));
    }
    // Red's events of this game, without their ids.
    let events = poll(app, red, red_events, 0).await;
    for event in events["events"].as_array().unwrap() {
        let mut event = event.clone();
        event["id"] = Value::Null;
        red_log.push(normalized(&event, &id));
    }
    (red_log, spectator_log, blue_log)
}

backend_tests! {
    async fn silent_defense_hides_the_defender_from_red_and_spectators(app) {
        let (red, blue) = two_users(&app, "silent").await;
        let spectator = app.register_user("silent_watch").await;
        let (red_a, spectator_a, blue_a) =
            transcripts(&app, &red, &blue, &spectator, "marshal").await;
        let (red_b, spectator_b, blue_b) =
            transcripts(&app, &red, &blue, &spectator, "general").await;

        // The battle happened, and Red lost it without learning the rank.
        let battle = red_a.iter().find(|t| t.contains("defender_wins")).unwrap();
        let battle: Value = serde_json::from_str(battle).unwrap();
        assert_eq!(battle["move"]["battle"]["attacker"], "captain");
        assert!(battle["move"]["battle"]["defender"].is_null(), "{battle}");
        assert!(red_a.len() > 20);

        assert_eq!(red_a.len(), red_b.len());
        for (i, (a, b)) in red_a.iter().zip(&red_b).enumerate() {
            assert_eq!(a, b, "Red's answer #{i} depends on the hidden defender");
        }
        assert_eq!(spectator_a, spectator_b, "the spectator learns the hidden defender");
        // Blue owns the defender: Blue's own answers do differ.
        assert_ne!(blue_a, blue_b);
        assert!(blue_a.iter().any(|t| t.contains(r#""defender":"marshal""#)));
        assert!(blue_b.iter().any(|t| t.contains(r#""defender":"general""#)));
    }
}
