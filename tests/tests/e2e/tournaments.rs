//! Tournaments (docs/tournaments.md) through the API: a whole round robin
//! and a whole Swiss tournament played to the end with a bot among the
//! players; the refusals (every one leaving the tournament as it was);
//! leaving a running tournament; a round paired exactly once by two
//! processes on one database.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::harness::{assert_problem, TestApp, TestUser};
use crate::notifications::{create_webhook, outbound_to_loopback, Receiver};
use crate::support::*;

pub(crate) const PATIENCE: Duration = Duration::from_secs(60);

pub(crate) async fn tournament(app: &TestApp, id: &str, user: &TestUser) -> Value {
    get_json(app, &format!("/api/v1/tournaments/{id}"), user).await
}

pub(crate) async fn create(app: &TestApp, organiser: &TestUser, body: Value) -> String {
    let created = post_ok(app, "/api/v1/tournaments", organiser, &body, 201).await;
    assert_eq!(created["status"], "open", "{created}");
    created["id"].as_str().unwrap().to_owned()
}

pub(crate) async fn join(app: &TestApp, id: &str, user: &TestUser, body: Value) -> Value {
    post_ok(
        app,
        &format!("/api/v1/tournaments/{id}/join"),
        user,
        &body,
        200,
    )
    .await
}

pub(crate) async fn start(app: &TestApp, id: &str, organiser: &TestUser) -> Value {
    let started = post_ok(
        app,
        &format!("/api/v1/tournaments/{id}/start"),
        organiser,
        &json!({}),
        200,
    )
    .await;
    assert_eq!(started["status"], "running", "{started}");
    started
}

/// Every game of the tournament view `view`, with its round.
pub(crate) fn games_of(view: &Value) -> Vec<(u64, Value)> {
    view["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|round| {
            let number = round["number"].as_u64().unwrap();
            round["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |g| (number, g.clone()))
        })
        .collect()
}

/// The view of game `id` as `user` once `done` holds, waiting for a bot.
pub(crate) async fn once(
    app: &TestApp,
    id: &str,
    user: &TestUser,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let started = Instant::now();
    loop {
        let view = game_view(app, id, user).await;
        if done(&view) {
            return view;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "game {id} never got there: {view}"
        );
        let version = view["version"].as_i64().unwrap();
        let path = format!("/api/v1/games/{id}?wait_for_version={version}&wait=2");
        app.get_as(&path, user).await;
    }
}

/// How a test decides a game between two people: `loser` resigns, or a
/// draw is agreed.
pub(crate) enum Decided<'a> {
    Resigns(&'a TestUser),
    Draw,
}

/// Plays game `id` to its end: the people in it place setups (a bot
/// places its own); then `decided`. In a classic game the people place
/// the fixed setup, flag behind its bombs, so that no bot's first move
/// can end the game; in a duel a bot may win before anyone resigns
/// (its first move can take a flag), and that result stands.
pub(crate) async fn play_out(app: &TestApp, id: &str, people: &[&TestUser], decided: Decided<'_>) {
    for (n, user) in people.iter().enumerate() {
        let view = game_view(app, id, user).await;
        let path = format!("/api/v1/games/{id}/setup");
        let body = if view["variant"] == "classic" {
            let color = if view["you"] == "red" {
                domain::Color::Red
            } else {
                domain::Color::Blue
            };
            json!({"placement": fixed_placement(color)})
        } else {
            json!({"random": true, "seed": 40 + n as u64})
        };
        post_ok(app, &path, user, &body, 200).await;
    }
    let anyone = people[0];
    let view = once(app, id, anyone, |v| {
        v["status"] == "playing" || v["status"] == "finished"
    })
    .await;
    if view["status"] == "playing" {
        match decided {
            Decided::Resigns(loser) => {
                let response = app
                    .client
                    .post(app.url(&format!("/api/v1/games/{id}/resign")))
                    .bearer_auth(&loser.access_token)
                    .json(&json!({}))
                    .send()
                    .await
                    .unwrap();
                let status = response.status().as_u16();
                // A bot's move may have ended it just now.
                let over = game_view(app, id, loser).await["status"] == "finished";
                assert!(
                    status == 200 || (status == 409 && over),
                    "{}",
                    response.text().await.unwrap()
                );
            }
            Decided::Draw => {
                let path = format!("/api/v1/games/{id}/draw");
                post_ok(app, &path, people[0], &json!({"action": "offer"}), 200).await;
                post_ok(app, &path, people[1], &json!({"action": "accept"}), 200).await;
            }
        }
    }
    let view = once(app, id, anyone, |v| v["status"] == "finished").await;
    assert_ne!(view["result"], Value::Null);
}

/// The types of the events `user` got, with their payloads.
pub(crate) async fn events_of(app: &TestApp, user: &TestUser) -> Vec<Value> {
    let page = get_json(app, "/api/v1/events?after=0&limit=100", user).await;
    page["events"].as_array().unwrap().clone()
}

/// Runs the tournaments' pass as the background task does.
pub(crate) async fn tournaments_pass(app: &TestApp) -> usize {
    api::tournaments::worker::sweep(&app.games, app.now())
        .await
        .unwrap()
}

/// Waits until the tournament's `current_round` is `round` (paired by the
/// task woken when a game ends) or it is finished.
pub(crate) async fn until_round(app: &TestApp, id: &str, user: &TestUser, round: u64) -> Value {
    let started = Instant::now();
    loop {
        let view = tournament(app, id, user).await;
        if view["current_round"] == round || view["status"] == "finished" {
            return view;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "round {round} never came: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(crate) fn points(view: &Value) -> HashMap<String, f64> {
    view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["username"].as_str().unwrap().to_owned(),
                s["points"].as_f64().unwrap(),
            )
        })
        .collect()
}

backend_tests! {
    async fn a_round_robin_with_a_bot_is_played_to_the_end(app) {
        let organiser = app.register_user("rr_organiser").await;
        let ann = app.register_user("rr_ann").await;
        let bo = app.register_user("rr_bo").await;
        let cy = app.register_user("rr_cy").await;
        let id = create(&app, &organiser, json!({"name": "Autumn round robin", "system": "round_robin",
            "variant": "classic", "time_control": {"type": "per_move", "days": 2}, "rated": true})).await;
        for user in [&ann, &bo, &cy] {
            join(&app, &id, user, json!({})).await;
        }
        let view = join(&app, &id, &organiser, json!({"bot": "bot-random"})).await;
        let names: Vec<&str> = view["players"].as_array().unwrap().iter()
            .map(|p| p["username"].as_str().unwrap()).collect();
        assert_eq!(names, ["rr_ann", "rr_bo", "rr_cy", "bot-random"]);
        assert_eq!(view["round_count"], Value::Null);

        let view = start(&app, &id, &organiser).await;
        // Four players: three rounds of two games, every game at once.
        assert_eq!(view["round_count"], 3);
        assert_eq!(view["current_round"], 3);
        let games = games_of(&view);
        assert_eq!(games.len(), 6);
        let mut pairs = HashSet::new();
        let mut reds: HashMap<String, i32> = HashMap::new();
        for (_, game) in &games {
            let (red, blue) = (game["red"].as_str().unwrap(), game["blue"].as_str().unwrap());
            let mut pair = [red, blue];
            pair.sort();
            assert!(pairs.insert(pair), "{pair:?} meet twice: {view}");
            *reds.entry(red.to_owned()).or_default() += 1;
            assert_eq!(game["result"], Value::Null);
        }
        // Three games each: two of one color and one of the other.
        assert!(reds.values().all(|&n| (1..=2).contains(&n)), "{reds:?}");
        // Each game is an ordinary game that links to its tournament, in
        // its setup phase, clock running.
        let (round, first) = &games[0];
        let someone = if first["red"] == "bot-random" { &first["blue"] } else { &first["red"] };
        let player = [&ann, &bo, &cy].into_iter().find(|u| u.username == *someone).unwrap();
        let game = game_view(&app, first["game_id"].as_str().unwrap(), player).await;
        assert_eq!(game["status"], "setup");
        assert_eq!(game["tournament"], json!({"id": id, "round": round}));
        let export = get_json(&app, &format!("/api/v1/games/{}/export", first["game_id"].as_str().unwrap()), player).await;
        assert_eq!(export["tournament"], json!({"id": id, "round": round}));
        assert_eq!(game["rated"], true);
        assert_eq!(game["time_control"], json!({"type": "per_move", "days": 2}));
        assert_ne!(game["deadline"], Value::Null);
        // Everyone was told, with their games.
        let told = events_of(&app, &ann).await;
        let started = told.iter().find(|e| e["type"] == "tournament_started").unwrap();
        assert_eq!(started["tournament_id"], id.as_str());
        assert_eq!(started["games"].as_array().unwrap().len(), 3);
        assert_eq!(started["bye"], false);

        // The games: the bot beats everyone (they resign); ann beats bo
        // and cy, bo and cy draw.
        let people: HashMap<&str, &TestUser> =
            [("rr_ann", &ann), ("rr_bo", &bo), ("rr_cy", &cy)].into_iter().collect();
        for (_, game) in &games {
            let gid = game["game_id"].as_str().unwrap();
            let (red, blue) = (game["red"].as_str().unwrap(), game["blue"].as_str().unwrap());
            let humans: Vec<&TestUser> = [red, blue].iter().filter_map(|n| people.get(n).copied()).collect();
            let decided = match (red, blue) {
                _ if humans.len() == 1 => Decided::Resigns(humans[0]),
                ("rr_ann", _) | (_, "rr_ann") => {
                    let other = if red == "rr_ann" { blue } else { red };
                    Decided::Resigns(people[other])
                }
                _ => Decided::Draw,
            };
            play_out(&app, gid, &humans, decided).await;
        }
        let view = until_round(&app, &id, &ann, 99).await;
        assert_eq!(view["status"], "finished", "{view}");
        assert_ne!(view["finished_at"], Value::Null);
        let points = points(&view);
        assert_eq!(points["bot-random"], 3.0);
        assert_eq!(points["rr_ann"], 2.0);
        assert_eq!(points["rr_bo"], 0.5);
        assert_eq!(points["rr_cy"], 0.5);
        let standings = view["standings"].as_array().unwrap();
        assert_eq!(standings[0]["username"], "bot-random");
        assert_eq!(standings[0]["rank"], 1);
        assert_eq!(standings[1]["rank"], 2);
        // bo and cy are level on everything: they share third place.
        assert_eq!(standings[2]["rank"], 3);
        assert_eq!(standings[3]["rank"], 3);
        let tiebreaks = standings[0]["tiebreaks"].as_object().unwrap();
        let mut named: Vec<&str> = tiebreaks.keys().map(String::as_str).collect();
        named.sort();
        assert_eq!(named, ["direct_encounter", "sonneborn_berger", "wins"]);
        // The bot beat players with 2 + 0.5 + 0.5 points.
        assert_eq!(standings[0]["tiebreaks"]["sonneborn_berger"], 3.0);
        assert_eq!(standings[0]["tiebreaks"]["wins"], 3.0);
        for (_, game) in games_of(&view) {
            assert_ne!(game["result"], Value::Null, "{view}");
        }
        // Each player is told their place.
        let finished = events_of(&app, &bo).await.into_iter()
            .find(|e| e["type"] == "tournament_finished").unwrap();
        assert_eq!(finished["place"], 3);
        assert_eq!(finished["players"], 4);
        let listed = get_json(&app, "/api/v1/tournaments?status=finished", &ann).await;
        assert!(listed["tournaments"].as_array().unwrap().iter().any(|t| t["id"] == id.as_str()));
    }

    async fn a_swiss_tournament_is_paired_round_by_round_to_the_end(app) {
        let organiser = app.register_user("sw_organiser").await;
        let mut people = Vec::new();
        for name in ["sw_ann", "sw_bo", "sw_cy", "sw_di"] {
            people.push(app.register_user(name).await);
        }
        let id = create(&app, &organiser, json!({"name": "Swiss", "system": "swiss", "rounds": 3,
            "variant": "duel", "bye_points": 1})).await;
        for user in &people {
            join(&app, &id, user, json!({})).await;
        }
        join(&app, &id, &organiser, json!({"bot": "bot-tactician"})).await;
        let view = start(&app, &id, &organiser).await;
        assert_eq!(view["current_round"], 1);
        assert_eq!(view["round_count"], 3);
        let by_name: HashMap<String, &TestUser> =
            people.iter().map(|u| (u.username.clone(), u)).collect();
        let mut met: HashSet<[String; 2]> = HashSet::new();
        let mut byes: Vec<String> = Vec::new();
        let mut view = view;
        for round in 1..=3u64 {
            let this: Vec<Value> = view["rounds"][round as usize - 1]["games"].as_array().unwrap().clone();
            assert_eq!(view["rounds"][round as usize - 1]["number"], round);
            // Five players: two games and a bye each round.
            assert_eq!(this.len(), 2, "{view}");
            let bye = view["rounds"][round as usize - 1]["byes"].as_array().unwrap();
            assert_eq!(bye.len(), 1, "{view}");
            byes.push(bye[0].as_str().unwrap().to_owned());
            for game in &this {
                let (red, blue) = (game["red"].as_str().unwrap(), game["blue"].as_str().unwrap());
                let mut pair = [red.to_owned(), blue.to_owned()];
                pair.sort();
                assert!(met.insert(pair.clone()), "{pair:?} paired twice: {view}");
                let humans: Vec<&TestUser> =
                    [red, blue].iter().filter_map(|n| by_name.get(*n).copied()).collect();
                // Red wins between people; the bot beats everyone.
                let decided = if humans.len() == 2 { Decided::Resigns(humans[1]) } else { Decided::Resigns(humans[0]) };
                play_out(&app, game["game_id"].as_str().unwrap(), &humans, decided).await;
            }
            view = until_round(&app, &id, &people[0], round + 1).await;
        }
        assert_eq!(view["status"], "finished", "{view}");
        // Never the same bye twice.
        assert_eq!(byes.iter().collect::<HashSet<_>>().len(), 3, "{byes:?}");
        // Six games and three byes worth 1: nine points in all.
        let total: f64 = points(&view).values().sum();
        assert_eq!(total, 9.0, "{view}");
        let standings = view["standings"].as_array().unwrap();
        let mut named: Vec<&str> = standings[0]["tiebreaks"].as_object().unwrap().keys().map(String::as_str).collect();
        named.sort();
        assert_eq!(named, ["buchholz", "buchholz_cut_1", "sonneborn_berger"]);
        // Written in the order they break ties.
        let text = app.get(&format!("/api/v1/tournaments/{id}"), Some(&people[0].access_token))
            .await.text().await.unwrap();
        let at = |key: &str| text.find(&format!("\"{key}\":")).unwrap();
        assert!(at("buchholz_cut_1") < at("buchholz") && at("buchholz") < at("sonneborn_berger"), "{text}");
        // Ranks never fall, points never rise down the list.
        for pair in standings.windows(2) {
            assert!(pair[0]["rank"].as_u64() <= pair[1]["rank"].as_u64());
            assert!(pair[0]["points"].as_f64() >= pair[1]["points"].as_f64());
        }
        // A round after the first is announced with your game.
        let told = events_of(&app, &people[0]).await;
        let rounds: Vec<&Value> = told.iter().filter(|e| e["type"] == "round_started").collect();
        assert_eq!(rounds.len(), 2, "{told:#?}");
        assert_eq!(rounds[0]["round"], 2);
    }

    async fn refusals_leave_the_tournament_as_it_was(app) {
        let organiser = app.register_user("ref_organiser").await;
        let ann = app.register_user("ref_ann").await;
        let bo = app.register_user("ref_bo").await;
        let cy = app.register_user("ref_cy").await;
        let post = |path: String, user: &TestUser, body: Value| {
            app.client.post(app.url(&path)).bearer_auth(&user.access_token).json(&body).send()
        };
        // Bad settings: 422 each, and nothing made.
        for body in [
            json!({"name": "", "system": "swiss", "rounds": 3}),
            json!({"name": "x", "system": "swiss"}),
            json!({"name": "x", "system": "swiss", "rounds": 0}),
            json!({"name": "x", "system": "swiss", "rounds": 5, "max_players": 5}),
            json!({"name": "x", "system": "round_robin", "rounds": 3}),
            json!({"name": "x", "system": "round_robin", "max_players": 31}),
            json!({"name": "x", "system": "swiss", "rounds": 3, "bye_points": 2}),
            json!({"name": "x", "system": "round_robin", "bye_points": 1}),
            json!({"name": "x", "system": "swiss", "rounds": 3, "double": true}),
            json!({"name": "x", "system": "swiss", "rounds": 3, "starts_at": "2001-01-01T00:00:00Z"}),
            json!({"name": "x", "system": "round_robin", "days_per_move": 30}),
            json!({"name": "x", "system": "round_robin", "rules": {"two_square_limit": 1}}),
            json!({"name": "x", "system": "round_robin", "rules": {"max_plies": 0}}),
        ] {
            let response = post("/api/v1/tournaments".into(), &organiser, body.clone()).await.unwrap();
            assert_problem(response, 422, "validation_failed").await;
        }
        let response = post("/api/v1/tournaments".into(), &organiser, json!({"name": "x", "system": "knockout"})).await.unwrap();
        assert_problem(response, 422, "validation_failed").await;
        let listed = get_json(&app, "/api/v1/tournaments", &organiser).await;
        assert_eq!(listed["tournaments"], json!([]));

        let id = create(&app, &organiser, json!({"name": "Small", "system": "round_robin", "max_players": 3})).await;
        let at = |path: &str| format!("/api/v1/tournaments/{id}{path}");
        join(&app, &id, &ann, json!({})).await;
        assert_problem(post(at("/join"), &ann, json!({})).await.unwrap(), 409, "wrong_phase").await;
        join(&app, &id, &bo, json!({})).await;
        // Too few to start; only the organiser starts.
        assert_problem(post(at("/start"), &organiser, json!({})).await.unwrap(), 409, "not_enough_players").await;
        join(&app, &id, &cy, json!({})).await;
        let full = assert_problem(post(at("/join"), &organiser, json!({})).await.unwrap(), 409, "tournament_full").await;
        assert_eq!(full["max_players"], 3);
        assert_problem(post(at("/join"), &ann, json!({"bot": "bot-random"})).await.unwrap(), 403, "forbidden").await;
        assert_problem(post(at("/start"), &ann, json!({})).await.unwrap(), 403, "forbidden").await;
        let delete = |user: &TestUser| app.client.delete(app.url(&at(""))).bearer_auth(&user.access_token).send();
        assert_problem(delete(&ann).await.unwrap(), 403, "forbidden").await;
        let before = tournament(&app, &id, &ann).await;
        assert_eq!(before["status"], "open");
        assert_eq!(before["players"].as_array().unwrap().len(), 3);

        let view = start(&app, &id, &organiser).await;
        assert_problem(post(at("/start"), &organiser, json!({})).await.unwrap(), 409, "wrong_phase").await;
        assert_problem(post(at("/join"), &organiser, json!({})).await.unwrap(), 409, "wrong_phase").await;
        assert_problem(delete(&organiser).await.unwrap(), 409, "wrong_phase").await;
        assert_problem(post(at("/leave"), &organiser, json!({})).await.unwrap(), 409, "wrong_phase").await;
        // Three players: a bye each round, worth nothing in a round robin.
        assert_eq!(view["round_count"], 3);
        for round in view["rounds"].as_array().unwrap() {
            assert_eq!(round["games"].as_array().unwrap().len(), 1);
            assert_eq!(round["byes"].as_array().unwrap().len(), 1);
        }
        // A tournament's game cannot be aborted: it stays as it was.
        let (_, game) = &games_of(&view)[0];
        let gid = game["game_id"].as_str().unwrap();
        let red = [&ann, &bo, &cy].into_iter().find(|u| game["red"] == u.username.as_str()).unwrap();
        let was = game_view(&app, gid, red).await;
        let response = post(format!("/api/v1/games/{gid}/abort"), red, json!({})).await.unwrap();
        assert_problem(response, 409, "wrong_phase").await;
        assert_eq!(game_view(&app, gid, red).await["version"], was["version"]);
        assert_eq!(tournament(&app, &id, &ann).await["status"], "running");
        let response = app.get("/api/v1/tournaments/00000000-0000-0000-0000-000000000000", Some(&ann.access_token)).await;
        assert_problem(response, 404, "not_found").await;
    }

    async fn leaving_an_open_tournament_and_deleting_it(app) {
        let organiser = app.register_user("open_organiser").await;
        let ann = app.register_user("open_ann").await;
        let id = create(&app, &organiser, json!({"name": "Soon", "system": "swiss", "rounds": 2})).await;
        join(&app, &id, &ann, json!({})).await;
        join(&app, &id, &organiser, json!({"bot": "bot-random"})).await;
        let left = post_ok(&app, &format!("/api/v1/tournaments/{id}/leave"), &ann, &json!({}), 200).await;
        let names: Vec<&str> = left["players"].as_array().unwrap().iter()
            .map(|p| p["username"].as_str().unwrap()).collect();
        assert_eq!(names, ["bot-random"]);
        let response = app.client.post(app.url(&format!("/api/v1/tournaments/{id}/leave")))
            .bearer_auth(&ann.access_token).json(&json!({})).send().await.unwrap();
        assert_problem(response, 409, "wrong_phase").await;
        let response = app.client.delete(app.url(&format!("/api/v1/tournaments/{id}")))
            .bearer_auth(&organiser.access_token).send().await.unwrap();
        assert_eq!(response.status(), 204);
        let response = app.get(&format!("/api/v1/tournaments/{id}"), Some(&ann.access_token)).await;
        assert_problem(response, 404, "not_found").await;
    }

    async fn a_player_who_leaves_forfeits_and_is_not_paired_again(app) {
        let organiser = app.register_user("wd_organiser").await;
        let mut people = Vec::new();
        for name in ["wd_ann", "wd_bo", "wd_cy", "wd_di"] {
            people.push(app.register_user(name).await);
        }
        let id = create(&app, &organiser, json!({"name": "Withdrawals", "system": "swiss", "rounds": 3, "variant": "duel"})).await;
        for user in &people {
            join(&app, &id, user, json!({})).await;
        }
        let view = start(&app, &id, &organiser).await;
        let by_name: HashMap<String, &TestUser> = people.iter().map(|u| (u.username.clone(), u)).collect();
        // Di leaves during round one: their game ends as their loss.
        let di = &people[3];
        let left = post_ok(&app, &format!("/api/v1/tournaments/{id}/leave"), di, &json!({}), 200).await;
        let di_row = left["players"].as_array().unwrap().iter().find(|p| p["username"] == "wd_di").unwrap();
        assert_eq!(di_row["withdrawn"], true);
        let games = games_of(&view);
        for (_, game) in &games {
            let (red, blue) = (game["red"].as_str().unwrap(), game["blue"].as_str().unwrap());
            let gid = game["game_id"].as_str().unwrap();
            if red == "wd_di" || blue == "wd_di" {
                let other = by_name[if red == "wd_di" { blue } else { red }];
                let ended = game_view(&app, gid, other).await;
                assert_eq!(ended["status"], "aborted", "{ended}");
                continue;
            }
            play_out(&app, gid, &[by_name[red], by_name[blue]], Decided::Resigns(by_name[blue])).await;
        }
        let view = until_round(&app, &id, &people[0], 2).await;
        let after = tournament(&app, &id, &people[0]).await;
        let di_points = points(&after)["wd_di"];
        assert_eq!(di_points, 0.0, "{after}");
        let di_standing = after["standings"].as_array().unwrap().iter().find(|s| s["username"] == "wd_di").unwrap();
        assert_eq!(di_standing["withdrawn"], true);
        // Round two: three players left, one game and a bye; di in neither.
        let round = &view["rounds"][1];
        assert_eq!(round["games"].as_array().unwrap().len(), 1, "{view}");
        assert!(!round.to_string().contains("wd_di"), "{view}");
        let told = events_of(&app, di).await;
        assert!(told.iter().all(|e| e["type"] != "round_started"), "{told:#?}");
        // Di's game was forfeited: a win for the other player, though
        // neither had set up.
        let forfeited = after["rounds"][0]["games"].as_array().unwrap().iter()
            .find(|g| g["red"] == "wd_di" || g["blue"] == "wd_di").unwrap().clone();
        let won = if forfeited["red"] == "wd_di" { "0-1" } else { "1-0" };
        assert_eq!(forfeited["result"], won, "{after}");
        let winner = if forfeited["red"] == "wd_di" { &forfeited["blue"] } else { &forfeited["red"] };
        assert_eq!(points(&after)[winner.as_str().unwrap()], 1.0, "{after}");
        // Leaving again changes nothing (it only finishes forfeits left
        // undone).
        let again = post_ok(&app, &format!("/api/v1/tournaments/{id}/leave"), di, &json!({}), 200).await;
        assert_eq!(again["standings"], after["standings"]);
        assert_eq!(tournaments_pass(&app).await, 0, "nothing is left to pair while a game runs");

        // Round two: the player with the bye deletes their account; their
        // game of round three never comes.
        let bye = round["byes"][0].as_str().unwrap().to_owned();
        let gone = by_name[&bye];
        let response = app.client.delete(app.url("/api/v1/me")).bearer_auth(&gone.access_token)
            .json(&json!({"password": gone.password})).send().await.unwrap();
        assert_eq!(response.status(), 204);
        let game = &round["games"][0];
        let (red, blue) = (game["red"].as_str().unwrap(), game["blue"].as_str().unwrap());
        play_out(&app, game["game_id"].as_str().unwrap(), &[by_name[red], by_name[blue]],
            Decided::Resigns(by_name[blue])).await;
        let view = until_round(&app, &id, &people[0], 3).await;
        // Out as one who left: marked, and in no later game (two players
        // are left; if they met already, the tournament ends instead).
        let out: Vec<&str> = view["players"].as_array().unwrap().iter()
            .filter(|p| p["withdrawn"] == true).map(|p| p["username"].as_str().unwrap()).collect();
        assert_eq!(out.len(), 2, "{view}");
        assert!(!out.contains(&bye.as_str()), "the name is gone with the account: {view}");
        match view["rounds"].as_array().unwrap().get(2) {
            Some(last) => {
                assert_eq!(view["status"], "running", "{view}");
                let game = &last["games"][0];
                assert!(!out.contains(&game["red"].as_str().unwrap()), "{view}");
                assert!(!out.contains(&game["blue"].as_str().unwrap()), "{view}");
                assert_eq!(last["byes"], json!([]), "{view}");
            }
            None => assert_eq!(view["status"], "finished", "{view}"),
        }
    }
}

backend_tests! {
    async fn a_player_is_told_outside_the_app_when_a_tournament_starts_and_ends(
        app, config = outbound_to_loopback
    ) {
        let receiver = Receiver::start().await;
        let organiser = app.register_user("hook_organiser").await;
        let ann = app.register_user("hook_ann").await;
        let bo = app.register_user("hook_bo").await;
        let cy = app.register_user("hook_cy").await;
        create_webhook(&app, &ann, json!({"url": receiver.url})).await;
        let id = create(&app, &organiser, json!({"name": "Told", "system": "round_robin", "variant": "duel"})).await;
        for user in [&ann, &bo, &cy] {
            join(&app, &id, user, json!({})).await;
        }
        let view = start(&app, &id, &organiser).await;
        let got = receiver.wait_for(1).await;
        let body: Value = serde_json::from_slice(&got[0].body).unwrap();
        assert_eq!(body["type"], "tournament_started", "{body}");
        assert_eq!(body["data"]["tournament_id"], id.as_str(), "{body}");
        assert_eq!(body["data"]["tournament"], "Told", "{body}");
        assert!(body["data"].get("game_id").is_none(), "{body}");
        let games = body["data"]["games"].as_array().unwrap();
        assert_eq!(games.len(), 2, "{body}");
        let mine: HashSet<&str> = games.iter().map(|g| g["game_id"].as_str().unwrap()).collect();
        let all = games_of(&view);
        let listed: HashSet<&str> = all.iter()
            .filter(|(_, g)| g["red"] == "hook_ann" || g["blue"] == "hook_ann")
            .map(|(_, g)| g["game_id"].as_str().unwrap())
            .collect();
        assert_eq!(mine, listed, "{body}");
        // Everyone resigns to ann at once; the end reaches her too.
        let people: HashMap<&str, &TestUser> =
            [("hook_ann", &ann), ("hook_bo", &bo), ("hook_cy", &cy)].into_iter().collect();
        for (_, game) in games_of(&view) {
            let (red, blue) = (people[game["red"].as_str().unwrap()], people[game["blue"].as_str().unwrap()]);
            let loser = if red.username == "hook_ann" { blue } else if blue.username == "hook_ann" { red } else { blue };
            play_out(&app, game["game_id"].as_str().unwrap(), &[red, blue], Decided::Resigns(loser)).await;
        }
        until_round(&app, &id, &ann, 99).await;
        let waiting = Instant::now();
        let finished = loop {
            assert!(waiting.elapsed() < PATIENCE, "no tournament_finished: {:?}", receiver.received());
            let got = receiver.received();
            let bodies: Vec<Value> = got.iter().map(|r| serde_json::from_slice(&r.body).unwrap()).collect();
            if let Some(done) = bodies.iter().find(|b| b["type"] == "tournament_finished") {
                break done.clone();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(finished["data"]["place"], 1, "{finished}");
        assert_eq!(finished["data"]["players"], 3, "{finished}");
        for delivery in receiver.received() {
            let text = String::from_utf8_lossy(&delivery.body);
            for word in ["rank", "piece", "marshal", "spy", "flag", "bomb"] {
                assert!(!text.contains(word), "{word} in {text}");
            }
        }
    }
}

backend_tests! {
    async fn a_tournament_starts_by_itself_and_a_leaver_in_play_resigns(app) {
        let organiser = app.register_user("auto_organiser").await;
        let ann = app.register_user("auto_ann").await;
        let bo = app.register_user("auto_bo").await;
        let cy = app.register_user("auto_cy").await;
        let at = app.now() + chrono::Duration::hours(1);
        let id = create(&app, &organiser, json!({"name": "On time", "system": "round_robin",
            "variant": "duel", "starts_at": at})).await;
        join(&app, &id, &ann, json!({})).await;
        join(&app, &id, &bo, json!({})).await;
        app.clock.advance(chrono::Duration::hours(2));
        let (mut ann, mut bo, mut cy) = (ann, bo, cy);
        for user in [&mut ann, &mut bo, &mut cy] {
            relogin(&app, user).await;
        }
        // Two players at its start time: it waits for a third.
        assert_eq!(tournaments_pass(&app).await, 0);
        assert_eq!(tournament(&app, &id, &ann).await["status"], "open");
        join(&app, &id, &cy, json!({})).await;
        assert_eq!(tournaments_pass(&app).await, 1);
        let view = tournament(&app, &id, &ann).await;
        assert_eq!(view["status"], "running", "{view}");
        assert_eq!(view["round_count"], 3);
        assert_eq!(view["bye_points"], 0.0, "a round robin's bye is worth nothing");
        // Ann's game against Bo is played; Ann leaves during it: resigned.
        let people: HashMap<&str, &TestUser> =
            [("auto_ann", &ann), ("auto_bo", &bo), ("auto_cy", &cy)].into_iter().collect();
        let (_, game) = games_of(&view).into_iter()
            .find(|(_, g)| [&g["red"], &g["blue"]].iter().all(|n| *n == "auto_ann" || *n == "auto_bo"))
            .unwrap();
        let gid = game["game_id"].as_str().unwrap();
        for (n, name) in [&game["red"], &game["blue"]].iter().enumerate() {
            place_setup(&app, gid, people[name.as_str().unwrap()], 60 + n as u64).await;
        }
        assert_eq!(game_view(&app, gid, &ann).await["status"], "playing");
        post_ok(&app, &format!("/api/v1/tournaments/{id}/leave"), &ann, &json!({}), 200).await;
        let ended = game_view(&app, gid, &bo).await;
        assert_eq!(ended["status"], "finished", "{ended}");
        assert_eq!(ended["result"]["reason"], "resignation", "{ended}");
        let bo_color = if game["red"] == "auto_bo" { "red" } else { "blue" };
        assert_eq!(ended["result"]["winner"], bo_color, "{ended}");
        // Her other game (against Cy, in setup) is Cy's.
        let view = tournament(&app, &id, &bo).await;
        let other = games_of(&view).into_iter()
            .find(|(_, g)| [&g["red"], &g["blue"]].iter().all(|n| *n == "auto_ann" || *n == "auto_cy"))
            .unwrap().1;
        let cy_won = if other["red"] == "auto_cy" { "1-0" } else { "0-1" };
        assert_eq!(other["result"], cy_won, "{view}");
    }

    async fn a_pairing_decided_from_a_stale_read_writes_nothing(app) {
        let organiser = app.register_user("stale_organiser").await;
        let mut people = Vec::new();
        for name in ["stale_ann", "stale_bo", "stale_cy", "stale_di"] {
            people.push(app.register_user(name).await);
        }
        let id = create(&app, &organiser, json!({"name": "Stale", "system": "swiss", "rounds": 3,
            "variant": "duel", "time_control": {"type": "per_move", "days": 1}})).await;
        for user in &people {
            join(&app, &id, user, json!({})).await;
        }
        start(&app, &id, &organiser).await;
        // Round one ends by the clock; round two is paired.
        app.clock.advance(chrono::Duration::days(2));
        sweep(&app).await;
        tournaments_pass(&app).await;
        let mut ann = people.remove(0);
        relogin(&app, &mut ann).await;
        let paired = until_round(&app, &id, &ann, 2).await;
        assert_eq!(paired["current_round"], 2);
        // What a second process read just before the first paired round
        // two: the same tournament one version back, round one over.
        let tournament_id = uuid::Uuid::parse_str(&id).unwrap();
        let now = app.now();
        let outcome = api::db::run_write(&app.pool, move |conn| {
            let mut stale = api::tournaments::view::Loaded::read(conn, tournament_id)?;
            stale.row.version -= 1;
            stale.row.current_round = 1;
            stale.games.retain(|g| g.round == Some(1));
            stale.byes.retain(|(round, _)| *round == 1);
            api::tournaments::rounds::advance(conn, &stale, now).map(|paired| paired.is_some())
        })
        .await;
        assert!(
            matches!(outcome, Err(api::tournaments::TournamentError::Lost)),
            "{outcome:?}"
        );
        let after = tournament(&app, &id, &ann).await;
        assert_eq!(after["rounds"], paired["rounds"], "nothing more was written");
        assert_eq!(after["current_round"], 2);
    }
}
