//! Tournaments on many server processes (docs/tournaments.md, "On many
//! processes"): each round is paired exactly once, whichever process sees
//! its last game end, and a pairing decided from a stale read writes
//! nothing.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::harness::TestUser;
use crate::support::*;
use crate::tournaments::{create, events_of, join, start, until_round, PATIENCE};

postgres_tests! {
    /// Two server processes (separate OS processes, each sweeping every
    /// second) on one database; each round's two games end at the same
    /// moment, one on each process: every round is paired once.
    async fn two_server_processes_pair_each_round_once(database: TestDatabase) {
        use crate::process::ServerProcess;
        let settings = [("DEADLINE_SWEEP_SECONDS", "1")];
        let one = ServerProcess::start_with(&database, &settings);
        let other = ServerProcess::start_with(&database, &settings);
        let organiser = one.register("proc_organiser").await;
        let mut people = Vec::new();
        for name in ["proc_ann", "proc_bo", "proc_cy", "proc_di"] {
            people.push(one.register(name).await);
        }
        let created = post_ok(&one, "/api/v1/tournaments", &organiser, &json!({"name": "Processes",
            "system": "swiss", "rounds": 3, "variant": "duel"}), 201).await;
        let id = created["id"].as_str().unwrap().to_owned();
        for (n, user) in people.iter().enumerate() {
            let server: &ServerProcess = if n % 2 == 0 { &one } else { &other };
            post_ok(server, &format!("/api/v1/tournaments/{id}/join"), user, &json!({}), 200).await;
        }
        post_ok(&other, &format!("/api/v1/tournaments/{id}/start"), &organiser, &json!({}), 200).await;
        let by_name: HashMap<String, &TestUser> = people.iter().map(|u| (u.username.clone(), u)).collect();
        let mut met = HashSet::new();
        for round in 1..=3u64 {
            let view = get_json(&one, &format!("/api/v1/tournaments/{id}"), &organiser).await;
            let games = view["rounds"][round as usize - 1]["games"].as_array().unwrap().clone();
            assert_eq!(games.len(), 2, "{view}");
            for game in &games {
                let gid = game["game_id"].as_str().unwrap();
                for (n, color) in ["red", "blue"].into_iter().enumerate() {
                    let user = by_name[game[color].as_str().unwrap()];
                    let body = json!({"random": true, "seed": 70 + n as u64});
                    post_ok(&one, &format!("/api/v1/games/{gid}/setup"), user, &body, 200).await;
                }
                let mut pair = [game["red"].to_string(), game["blue"].to_string()];
                pair.sort();
                assert!(met.insert(pair), "a pair met twice: {view}");
            }
            let resign = |server: &ServerProcess, game: &Value| {
                let gid = game["game_id"].as_str().unwrap().to_owned();
                let loser = by_name[game["blue"].as_str().unwrap()].access_token.clone();
                let request = server.client().post(server.at(&format!("/api/v1/games/{gid}/resign")))
                    .bearer_auth(loser).json(&json!({}));
                async move { request.send().await.unwrap().status().as_u16() }
            };
            let (a, b) = tokio::join!(resign(&one, &games[0]), resign(&other, &games[1]));
            assert_eq!((a, b), (200, 200));
            let started = Instant::now();
            loop {
                let now = get_json(&other, &format!("/api/v1/tournaments/{id}"), &organiser).await;
                if now["current_round"] == round + 1 || now["status"] == "finished" {
                    break;
                }
                assert!(started.elapsed() < PATIENCE, "round {} never came: {now}", round + 1);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        // Both processes keep sweeping: give them time to do anything twice.
        tokio::time::sleep(Duration::from_millis(2_500)).await;
        let view = get_json(&one, &format!("/api/v1/tournaments/{id}"), &organiser).await;
        assert_eq!(view["status"], "finished", "{view}");
        let rounds = view["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 3, "{view}");
        assert!(rounds.iter().all(|r| r["games"].as_array().unwrap().len() == 2), "{view}");
        for user in &people {
            let page = get_json(&one, "/api/v1/events?after=0&limit=100", user).await;
            let kinds: Vec<&str> = page["events"].as_array().unwrap().iter()
                .map(|e| e["type"].as_str().unwrap()).collect();
            let count = |kind: &str| kinds.iter().filter(|k| **k == kind).count();
            assert_eq!(count("tournament_started"), 1, "{kinds:?}");
            assert_eq!(count("round_started"), 2, "{kinds:?}");
            assert_eq!(count("tournament_finished"), 1, "{kinds:?}");
        }
    }

    async fn two_processes_pair_a_round_exactly_once(app) {
        let organiser = app.register_user("twice_organiser").await;
        let mut people = Vec::new();
        for name in ["twice_ann", "twice_bo", "twice_cy", "twice_di"] {
            people.push(app.register_user(name).await);
        }
        let id = create(&app, &organiser, json!({"name": "Replicas", "system": "swiss", "rounds": 3,
            "variant": "duel", "time_control": {"type": "per_move", "days": 1}})).await;
        for user in &people {
            join(&app, &id, user, json!({})).await;
        }
        let view = start(&app, &id, &organiser).await;
        let replica = Replica::start(&app).await;
        // Nobody places a setup: both games of round one end by the clock
        // (aborted, both players lose), seen by both processes at once.
        app.clock.advance(chrono::Duration::days(2));
        let (here, there) = (app.games.clone(), replica.games.clone());
        let now = app.now();
        for _ in 0..4 {
            tokio::join!(
                async {
                    api::games::clock::sweep_overdue(&here, now).await.unwrap();
                    api::tournaments::worker::sweep(&here, now).await.unwrap()
                },
                async {
                    api::games::clock::sweep_overdue(&there, now).await.unwrap();
                    api::tournaments::worker::sweep(&there, now).await.unwrap()
                },
            );
        }
        let mut ann = people.remove(0);
        relogin(&app, &mut ann).await;
        let after = until_round(&app, &id, &ann, 2).await;
        assert_eq!(after["current_round"], 2, "{after}");
        let rounds = after["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 2, "{after}");
        assert_eq!(rounds[0]["games"].as_array().unwrap().len(), view["rounds"][0]["games"].as_array().unwrap().len());
        for game in rounds[0]["games"].as_array().unwrap() {
            assert_eq!(game["result"], "0-0", "{after}");
        }
        assert_eq!(rounds[1]["games"].as_array().unwrap().len(), 2, "{after}");
        let told = events_of(&app, &ann).await;
        let started: Vec<&Value> = told.iter().filter(|e| e["type"] == "round_started").collect();
        assert_eq!(started.len(), 1, "{told:#?}");
        replica.stop().await;
    }
}
