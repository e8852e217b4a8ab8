//! `GET /api/v1/variants`: the armies, zones, default rules and settings
//! are the domain's own, and the answer fits the document.

use domain::{Color, Piece, Rules, Variant, PLY_CAP_RANGE, TWO_SQUARE_LIMIT_RANGE};
use serde_json::{json, Value};

use crate::contract::Contract;
use crate::support::{get_json, post_ok};

backend_tests! {
    async fn variants_are_the_domains_without_a_token(app) {
        let response = app.get("/api/v1/variants", None).await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "public, max-age=3600");
        let body: Value = response.json().await.unwrap();
        Contract::new().check("list_variants", 200, &body);
        let listed = body["variants"].as_array().unwrap();
        assert_eq!(listed.len(), Variant::ALL.len());
        for (variant, info) in Variant::ALL.into_iter().zip(listed) {
            assert_eq!(info["variant"], variant.name());
            assert_eq!(info["army_size"], variant.army_size());
            let army: Vec<Value> = variant
                .army()
                .map(|(piece, count)| json!({"piece": piece.name(), "count": count,
                    "strength": piece.strength(), "old_number": piece.old_number(),
                    "movable": piece.is_movable()}))
                .collect();
            assert_eq!(info["army"], json!(army), "{variant}");
            let total: u64 = info["army"].as_array().unwrap().iter()
                .map(|p| p["count"].as_u64().unwrap()).sum();
            assert_eq!(total as usize, variant.army_size());
            assert!(info["army"].as_array().unwrap().iter()
                .any(|p| p["piece"] == Piece::Flag.name() && p["movable"] == false));
            for color in Color::ALL {
                let zone: Vec<String> = variant.zone(color).map(|s| s.to_string()).collect();
                assert_eq!(info["setup_zones"][color.name()], json!(zone), "{variant} {color}");
                assert!(zone.len() >= variant.army_size());
            }
            assert_eq!(info["default_rules"], serde_json::to_value(Rules::default()).unwrap());
            let settings = &info["settings"];
            assert_eq!(settings["two_square_limit"], json!({"minimum": TWO_SQUARE_LIMIT_RANGE.start(),
                "maximum": TWO_SQUARE_LIMIT_RANGE.end(), "nullable": false}));
            for cap in ["max_plies", "max_plies_without_battle"] {
                assert_eq!(settings[cap], json!({"minimum": PLY_CAP_RANGE.start(),
                    "maximum": PLY_CAP_RANGE.end(), "nullable": true}));
            }
            assert_eq!(settings["days_per_move"],
                json!({"minimum": 1, "maximum": 14, "nullable": false}));
            assert_eq!(settings["default_days_per_move"], 3);
        }
    }

    /// The time control bounds `/variants` lists are the ones `POST /games`
    /// keeps: every field at both ends is accepted, one past either end
    /// refused.
    async fn the_listed_time_control_bounds_are_those_kept(app) {
        let ann = app.register_user("bounds").await;
        let list = get_json(&app, "/api/v1/variants", &ann).await;
        let controls = list["variants"][0]["settings"]["time_controls"].as_object().unwrap().clone();
        assert_eq!(controls.len(), 3);
        for (kind, fields) in &controls {
            let fields = fields.as_object().unwrap();
            let at = |end: &str| {
                let mut control = json!({"type": kind});
                for (field, range) in fields {
                    control[field] = range[end].clone();
                }
                control
            };
            for end in ["minimum", "maximum"] {
                let body = json!({"time_control": at(end)});
                let game = post_ok(&app, "/api/v1/games", &ann, &body, 201).await;
                assert_eq!(game["time_control"], body["time_control"]);
            }
            for (field, range) in fields {
                for (end, step) in [("minimum", -1), ("maximum", 1)] {
                    let mut control = at(end);
                    control[field] = json!(range[end].as_i64().unwrap() + step);
                    let r = app.post_json("/api/v1/games", Some(&ann.access_token),
                        &json!({"time_control": control})).await;
                    assert_eq!(r.status().as_u16(), 422, "{kind} {field} {end}");
                }
            }
        }
    }
}
