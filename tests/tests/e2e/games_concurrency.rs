//! Simultaneous writes, several server processes on one database,
//! idempotency keys, ETags, the history and the listings.

use domain::{Color, Rules, Variant, Viewer};
use serde_json::{json, Value};

use crate::harness::{assert_problem, test_config, TestApp, TestUser};
use crate::support::*;

async fn post_with_key(
    app: &TestApp,
    path: &str,
    token: &str,
    key: &str,
    body: &Value,
) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .bearer_auth(token)
        .header("idempotency-key", key)
        .json(body)
        .send()
        .await
        .unwrap()
}

/// Two different moves sent at the same moment for the same version:
/// exactly one is applied, the other answers `version_conflict`.
async fn race_moves(urls: [&str; 2], client: &reqwest::Client, game: &mut Match) {
    let legal = game.local.legal_moves();
    let (a, b) = (legal[0], legal[legal.len() - 1]);
    let token = game.user(game.local.turn()).access_token.clone();
    let send = |url: &str, m: domain::Move| {
        client
            .post(format!("{url}/api/v1/games/{}/moves", game.id))
            .bearer_auth(&token)
            .json(&move_body(m, None, Some(game.version)))
            .send()
    };
    let (ra, rb) = tokio::join!(send(urls[0], a), send(urls[1], b));
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    let statuses = [ra.status().as_u16(), rb.status().as_u16()];
    assert!(
        statuses.contains(&200) && statuses.contains(&409),
        "{statuses:?}"
    );
    let (winner, loser, won) = if statuses[0] == 200 {
        (ra, rb, a)
    } else {
        (rb, ra, b)
    };
    assert_problem(loser, 409, "version_conflict").await;
    let answer: Value = winner.json().await.unwrap();
    let color = game.local.turn();
    game.local
        .apply(color, domain::Action::play(won.from, won.to))
        .unwrap();
    game.version += 1;
    assert_eq!(answer["game"]["version"], game.version);
    assert_view_matches(&answer["game"], &game.local, Viewer::Player(color));
}

/// POSTs `{}` to `path` as each user at the same time; (status, body) each.
async fn post_all_at_once(app: &TestApp, path: &str, users: &[TestUser]) -> Vec<(u16, Value)> {
    let mut tasks = Vec::new();
    for user in users {
        let request = app
            .client
            .post(app.url(path))
            .bearer_auth(&user.access_token)
            .json(&json!({}));
        tasks.push(tokio::spawn(async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap())
        }));
    }
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.unwrap());
    }
    answers
}

backend_tests! {
    /// Eight identical retries of one move (same Idempotency-Key, same
    /// body with `expected_version`), all sent at once, many times over:
    /// the move is applied once and every one of them gets the first
    /// answer, even those that read the game just after the first
    /// committed (that used to be a `version_conflict` now and then).
    async fn racing_identical_retries_all_get_the_first_answer(app) {
        let (red, blue) = two_users(&app, "retry").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 11).await;
        for round in 0..30 {
            let legal = game.local.legal_moves();
            let m = legal[round % legal.len()];
            let color = game.local.turn();
            let token = game.user(color).access_token.clone();
            let body = move_body(m, None, Some(game.version));
            let key = format!("retry-{round}");
            let path = game.path("/moves");
            let sends: Vec<_> = (0..8)
                .map(|_| {
                    let request = app
                        .client
                        .post(app.url(&path))
                        .bearer_auth(&token)
                        .header("idempotency-key", &key)
                        .json(&body);
                    tokio::spawn(request.send())
                })
                .collect();
            let mut first: Option<Value> = None;
            for send in sends {
                let response = send.await.unwrap().unwrap();
                assert_eq!(response.status().as_u16(), 200, "round {round}");
                let answer: Value = response.json().await.unwrap();
                match &first {
                    None => first = Some(answer),
                    Some(expected) => assert_eq!(&answer, expected, "round {round}"),
                }
            }
            game.local.apply(color, domain::Action::play(m.from, m.to)).unwrap();
            game.version += 1;
            let view = game_view(&app, &game.id, game.user(color)).await;
            assert_eq!(view["version"], game.version, "applied exactly once");
        }
    }

    async fn of_two_simultaneous_moves_exactly_one_wins(app) {
        let (ann, bo) = two_users(&app, "race").await;
        let mut game = random_match(&app, ann, bo, Variant::Classic, Rules::default(), 5).await;
        for _ in 0..6 {
            race_moves([&app.address, &app.address], &app.client, &mut game).await;
        }
        let view = game_view(&app, &game.id, &game.red).await;
        assert_eq!(view["version"], game.version);
        assert_eq!(view["ply"], 6);
        let history = get_json(&app, &game.path("/moves"), &game.red).await;
        assert_eq!(history["moves"].as_array().unwrap().len(), 6);
    }

    async fn both_setups_at_once_start_the_game_once(app) {
        let (ann, bo) = two_users(&app, "both").await;
        let id = seated_game(&app, &ann, &bo, Variant::Classic, &Rules::default()).await;
        let path = format!("/api/v1/games/{id}/setup");
        let (one, two) = (json!({"random": true, "seed": 1}), json!({"random": true, "seed": 2}));
        let (ra, rb) = tokio::join!(
            app.post_json(&path, Some(&ann.access_token), &one),
            app.post_json(&path, Some(&bo.access_token), &two),
        );
        assert_eq!(ra.status().as_u16(), 200);
        assert_eq!(rb.status().as_u16(), 200);
        let view = game_view(&app, &id, &ann).await;
        assert_eq!(view["status"], "playing");
        assert_eq!(view["version"], 4);
        assert_eq!(view["setup_done"], json!({"red": true, "blue": true}));
    }

    async fn idempotency_keys_replay_the_first_answer(app) {
        let (ann, bo) = two_users(&app, "idem").await;
        // Creating a game twice with one key creates one game.
        let body = json!({"variant": "duel", "color": "red"});
        let first = post_with_key(&app, "/api/v1/games", &ann.access_token, "create-1", &body).await;
        assert_eq!(first.status().as_u16(), 201);
        let first: Value = first.json().await.unwrap();
        let again = post_with_key(&app, "/api/v1/games", &ann.access_token, "create-1", &body).await;
        assert_eq!(again.status().as_u16(), 201);
        let again: Value = again.json().await.unwrap();
        assert_eq!(first, again);
        let mine = get_json(&app, "/api/v1/games?mine=true", &ann).await;
        assert_eq!(mine["games"].as_array().unwrap().len(), 1);
        // The same key with another body is refused and changes nothing.
        let other = post_with_key(&app, "/api/v1/games", &ann.access_token, "create-1",
            &json!({"variant": "barrage"})).await;
        assert_problem(other, 422, "idempotency_key_reused").await;
        let mine = get_json(&app, "/api/v1/games?mine=true", &ann).await;
        assert_eq!(mine["games"].as_array().unwrap().len(), 1);
        // Keys belong to their user: Bo's "create-1" is his own.
        let id = first["id"].as_str().unwrap();
        let joined = post_with_key(&app, &format!("/api/v1/games/{id}/join"), &bo.access_token, "create-1", &json!({})).await;
        let status = joined.status().as_u16();
        assert_eq!(status, 200, "{}", joined.text().await.unwrap());

        let mut game = random_match(&app, ann.clone(), bo.clone(), Variant::Classic, Rules::default(), 9).await;
        let m = game.local.legal_moves()[0];
        let body = move_body(m, None, None);
        let path = game.path("/moves");
        // A refusal is remembered too: Bo's early move stays refused on retry.
        let early = json!({"from": "a7", "to": "a6"});
        let r = post_with_key(&app, &path, &bo.access_token, "early", &early).await;
        assert_problem(r, 409, "not_your_turn").await;
        let first = post_with_key(&app, &path, &ann.access_token, "move-1", &body).await;
        assert_eq!(first.status().as_u16(), 200);
        let first: Value = first.json().await.unwrap();
        // A retry (e.g. after a lost answer) gets the same answer; no second move.
        let retry = post_with_key(&app, &path, &ann.access_token, "move-1", &body).await;
        assert_eq!(retry.status().as_u16(), 200);
        assert_eq!(retry.json::<Value>().await.unwrap(), first);
        let view = game_view(&app, &game.id, &ann).await;
        assert_eq!(view["version"], game.version + 1);
        assert_eq!(view["ply"], 1);
        let r = post_with_key(&app, &path, &bo.access_token, "early", &early).await;
        assert_problem(r, 409, "not_your_turn").await;
        assert_eq!(game_view(&app, &game.id, &bo).await["ply"], 1);
        // Same key, different move: refused, nothing changes.
        let before = game_view(&app, &game.id, &bo).await;
        let m2 = game.local.legal_moves()[1];
        let other = post_with_key(&app, &path, &ann.access_token, "move-1", &move_body(m2, None, None)).await;
        assert_problem(other, 422, "idempotency_key_reused").await;
        assert_eq!(game_view(&app, &game.id, &bo).await, before);
        // Simultaneous retries with one key: one move, one answer.
        game.local.apply(Color::Red, domain::Action::play(m.from, m.to)).unwrap();
        game.version += 1;
        let m = game.local.legal_moves()[0];
        let body = move_body(m, None, None);
        let (ra, rb) = tokio::join!(
            post_with_key(&app, &path, &bo.access_token, "blue-1", &body),
            post_with_key(&app, &path, &bo.access_token, "blue-1", &body),
        );
        assert_eq!(ra.status().as_u16(), 200);
        assert_eq!(rb.status().as_u16(), 200);
        assert_eq!(ra.json::<Value>().await.unwrap(), rb.json::<Value>().await.unwrap());
        assert_eq!(game_view(&app, &game.id, &bo).await["ply"], 2);
        // A bad key.
        let long = "k".repeat(201);
        let r = post_with_key(&app, &path, &bo.access_token, &long, &body).await;
        assert_problem(r, 400, "validation_failed").await;
    }

    async fn etags_and_conditional_requests(app) {
        let (ann, bo) = two_users(&app, "etag").await;
        let carl = app.register_user("etag_carl").await;
        let mut game = random_match(&app, ann.clone(), bo.clone(), Variant::Classic, Rules::default(), 11).await;
        let path = app.url(&game.path(""));
        let r = app.client.get(&path).bearer_auth(&ann.access_token).send().await.unwrap();
        let tag = r.headers()["etag"].to_str().unwrap().to_owned();
        // The tag is opaque: no id, no version, no name in it.
        assert!(!tag.contains(&game.id) && !tag.contains("etag_") && tag.len() == 34, "{tag}");
        let r = app.client.get(&path).bearer_auth(&ann.access_token)
            .header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 304);
        assert!(r.text().await.unwrap().is_empty());
        // Every viewer has their own tag.
        let r = app.client.get(&path).bearer_auth(&bo.access_token).send().await.unwrap();
        let blue_tag = r.headers()["etag"].to_str().unwrap().to_owned();
        assert_ne!(blue_tag, tag);
        let r = app.client.get(&path).bearer_auth(&carl.access_token).header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        // If-Match with the current tag lets the move through.
        let m = game.local.legal_moves()[0];
        let r = app.client.post(app.url(&game.path("/moves"))).bearer_auth(&ann.access_token)
            .header("if-match", &tag).json(&move_body(m, None, None)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let new_tag = r.headers()["etag"].to_str().unwrap().to_owned();
        game.local.apply(Color::Red, domain::Action::play(m.from, m.to)).unwrap();
        game.version += 1;
        // The old tag no longer matches: 200 with the new tag; a stale If-Match is 412.
        let r = app.client.get(&path).bearer_auth(&ann.access_token)
            .header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        assert_eq!(r.headers()["etag"].to_str().unwrap(), new_tag);
        let m = game.local.legal_moves()[0];
        let r = app.client.post(app.url(&game.path("/moves"))).bearer_auth(&bo.access_token)
            .header("if-match", &blue_tag).json(&move_body(m, None, None)).send().await.unwrap();
        assert_problem(r, 412, "version_conflict").await;
        // A long poll returns once the game passes the version named.
        let waiting = LongPoll::start(&app,
            &format!("{}?wait_for_version={}&wait={LONG_WAIT}", game.path(""), game.version), &bo).await;
        let m = game.local.legal_moves()[0];
        let r = app.client.post(app.url(&game.path("/moves"))).bearer_auth(&bo.access_token)
            .json(&move_body(m, None, Some(game.version))).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let woken = waiting.woken().await;
        assert_eq!(woken["version"], game.version + 1);
        assert_eq!(woken["you"], "blue");
        let r = app.get(&format!("{}?wait_for_version=1&wait=61", game.path("")), Some(&bo.access_token)).await;
        assert_problem(r, 400, "validation_failed").await;
        // Unauthenticated requests are refused.
        let r = app.client.get(&path).send().await.unwrap();
        assert_problem(r, 401, "unauthorized").await;
    }

    async fn history_is_filtered_per_caller(app) {
        let (ann, bo) = two_users(&app, "hist").await;
        let carl = app.register_user("hist_carl").await;
        let mut game = random_match(&app, ann.clone(), bo.clone(), Variant::Classic, Rules::default(), 31).await;
        let mut records = Vec::new();
        let mut rng = domain::rng::SplitMix64::new(31);
        for _ in 0..40 {
            let moves = game.local.legal_moves();
            let m = moves[rng.below(moves.len())];
            play(&app, &mut game, m, None).await;
            records.push(*game.local.full_truth().last_move().unwrap());
        }
        for (user, viewer) in [(&ann, Viewer::Player(Color::Red)), (&bo, Viewer::Player(Color::Blue)), (&carl, Viewer::Spectator)] {
            let history = get_json(&app, &game.path("/moves"), user).await;
            let expected: Vec<Value> = records.iter()
                .map(|r| serde_json::to_value(game.local.move_view(r, viewer)).unwrap()).collect();
            assert_eq!(history["moves"], json!(expected), "{viewer:?}");
            assert_eq!(history["version"], game.version);
        }
    }

    async fn listings_filter_and_page(app) {
        let (ann, bo) = two_users(&app, "list").await;
        let carl = app.register_user("list_carl").await;
        // Three games in play with different deadlines; Ann (red) to move in each.
        let mut ids = Vec::new();
        for seed in [1u64, 2, 3] {
            let game = random_match(&app, ann.clone(), bo.clone(), Variant::Duel, Rules::default(), seed).await;
            ids.push(game.id.clone());
            app.clock.advance(chrono::Duration::minutes(2));
        }
        // Make a move in the first: Bo to move there now, deadline latest.
        let mut first = random_match(&app, ann.clone(), bo.clone(), Variant::Duel, Rules::default(), 4).await;
        let m = first.local.legal_moves()[0];
        play(&app, &mut first, m, None).await;
        // An open game by Carl.
        post_ok(&app, "/api/v1/games", &carl, &json!({}), 201).await;

        let turn = get_json(&app, "/api/v1/games?my_turn=true", &ann).await;
        let listed: Vec<&str> = turn["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
        assert_eq!(listed, ids.iter().map(String::as_str).collect::<Vec<_>>(), "nearest deadline first");
        let turn = get_json(&app, "/api/v1/games?my_turn=true", &bo).await;
        assert_eq!(turn["games"].as_array().unwrap().len(), 1);
        assert_eq!(turn["games"][0]["id"], first.id.as_str());
        // Summaries carry no board.
        assert!(turn["games"][0].get("board").is_none());

        // Paging one by one through my_turn, then through everything.
        let mut seen = Vec::new();
        let mut url = "/api/v1/games?my_turn=true&limit=1".to_owned();
        loop {
            let page = get_json(&app, &url, &ann).await;
            for g in page["games"].as_array().unwrap() {
                seen.push(g["id"].as_str().unwrap().to_owned());
            }
            match page["next_cursor"].as_str() {
                Some(c) => url = format!("/api/v1/games?my_turn=true&limit=1&cursor={c}"),
                None => break,
            }
        }
        assert_eq!(seen, ids);
        let mut all = Vec::new();
        let mut url = "/api/v1/games?limit=2".to_owned();
        loop {
            let page = get_json(&app, &url, &carl).await;
            all.extend(page["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_owned()));
            match page["next_cursor"].as_str() {
                Some(c) => url = format!("/api/v1/games?limit=2&cursor={c}"),
                None => break,
            }
        }
        assert_eq!(all.len(), 5);
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 5);
        let playing = get_json(&app, "/api/v1/games?status=playing&mine=true", &carl).await;
        assert!(playing["games"].as_array().unwrap().is_empty());
        let waiting = get_json(&app, "/api/v1/games?status=waiting", &ann).await;
        assert_eq!(waiting["games"].as_array().unwrap().len(), 1);
        for bad in ["status=lost", "limit=0", "limit=101", "cursor=nonsense", "mine=perhaps"] {
            let r = app.get(&format!("/api/v1/games?{bad}"), Some(&ann.access_token)).await;
            assert_problem(r, 400, "validation_failed").await;
        }
    }

    async fn of_several_users_racing_for_one_open_seat_exactly_one_wins(app) {
        let ann = app.register_user("race_ann").await;
        let mut racers = Vec::new();
        for i in 0..4 {
            racers.push(app.register_user(&format!("race_{i}")).await);
        }
        let created = post_ok(&app, "/api/v1/games", &ann, &json!({"color": "red"}), 201).await;
        let id = created["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/games/{id}/join");
        let answers = post_all_at_once(&app, &path, &racers).await;
        let winners: Vec<usize> = (0..answers.len()).filter(|&i| answers[i].0 == 200).collect();
        assert_eq!(winners.len(), 1, "{answers:?}");
        for (status, body) in &answers {
            if *status != 200 {
                assert_eq!(*status, 409, "{body}");
                assert_eq!(body["code"], "wrong_phase", "{body}");
            }
        }
        let winner = &racers[winners[0]];
        let game = game_view(&app, &id, &ann).await;
        assert_eq!(game["version"], 2);
        assert_eq!(game["status"], "setup");
        assert_eq!(game["players"]["blue"]["id"], winner.id.as_str());
        assert_eq!(game["players"]["red"]["id"], ann.id.as_str());
    }

    /// A setup retried with the same `Idempotency-Key` and the same
    /// placement, its squares listed in another order, was once refused as
    /// `idempotency_key_reused`.
    async fn a_setup_retry_may_list_its_squares_in_any_order(app) {
        let (red, blue) = two_users(&app, "ord").await;
        let id = seated_game(&app, &red, &blue, domain::Variant::Classic, &Rules::default()).await;
        let path = format!("/api/v1/games/{id}/setup");
        let placement = fixed_placement(domain::Color::Red);
        let entries: Vec<(String, Value)> = placement.as_object().unwrap()
            .iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        // The request body as text, members in the given order.
        let text = |pairs: &[(String, Value)]| {
            let members: Vec<String> = pairs.iter()
                .map(|(square, piece)| format!("{}: {piece}", json!(square)))
                .collect();
            format!(r#"{{"placement": {{{}}}}}"#, members.join(", "))
        };
        let reversed: Vec<(String, Value)> = entries.iter().rev().cloned().collect();
        let send = |body: String| {
            app.client.post(app.url(&path)).bearer_auth(&red.access_token)
                .header("idempotency-key", "setup-once")
                .header("content-type", "application/json").body(body).send()
        };
        let first = send(text(&entries)).await.unwrap();
        assert_eq!(first.status().as_u16(), 200);
        let first: Value = first.json().await.unwrap();
        let again = send(text(&reversed)).await.unwrap();
        assert_eq!(again.status().as_u16(), 200, "a reordered retry is the same request");
        assert_eq!(again.json::<Value>().await.unwrap(), first);
        assert_eq!(game_view(&app, &id, &red).await["version"], first["version"]);
        // Another placement under the same key is still refused.
        let mut swapped = entries.clone();
        let (a, b) = (swapped[0].1.clone(), swapped[39].1.clone());
        assert_ne!(a, b);
        swapped[0].1 = b;
        swapped[39].1 = a;
        let response = send(text(&swapped)).await.unwrap();
        assert_problem(response, 422, "idempotency_key_reused").await;
        assert_eq!(game_view(&app, &id, &red).await["version"], first["version"]);
    }
}

postgres_tests! {
    /// Two server processes on one PostgreSQL database: simultaneous moves sent
    /// to different servers, exactly one applied each time.
    async fn two_servers_on_one_database(app) {
        let config = test_config(app.database().url());
        let second = api::Application::build(config, app.clock.clone())
            .await
            .unwrap();
        let second_address = format!("http://127.0.0.1:{}", second.port());
        let handle = second.handle();
        tokio::spawn(second.run_until_stopped());

        let (ann, bo) = two_users(&app, "multi").await;
        let mut game = random_match(&app, ann, bo, Variant::Classic, Rules::default(), 7).await;
        for _ in 0..6 {
            race_moves([&app.address, &second_address], &app.client, &mut game).await;
        }
        // The second server sees the same game.
        let r = app
            .client
            .get(format!("{second_address}{}", game.path("")))
            .bearer_auth(&game.red.access_token)
            .send()
            .await
            .unwrap();
        let view: Value = r.json().await.unwrap();
        assert_eq!(view["version"], game.version);
        handle.stop(false).await;
    }
}

/// Before a move: the game kept by this server (the player to move reads
/// it) or not (a move takes what was kept, and nothing reads it after).
async fn kept_or_not(app: &TestApp, game: &mut Match, viewed: bool) {
    if viewed {
        game_view(app, &game.id, game.user(game.local.turn())).await;
    } else {
        let m = game.local.legal_moves()[0];
        play(app, game, m, None).await;
    }
}

/// On SQLite a write reads its game (or takes the one this process just
/// read) and decides before its turn on the one writing connection
/// (docs/storage.md, "Group commit on SQLite", "A change decided from the
/// game just read"). A game that changes between that read and the write
/// is read and decided again inside the write: never overwritten with what
/// the stale read decided.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_decided_before_its_turn_is_decided_again_if_the_game_changed() {
    use diesel::connection::SimpleConnection;

    let app = crate::harness::spawn_app_with(crate::harness::Backend::Sqlite, |_| {}).await;
    let (red, blue) = two_users(&app, "stale").await;
    let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 5).await;

    // A move without `expected_version` (played on the changed game), then
    // one that names the version it saw (refused); each once read before
    // its turn, and once decided from the game kept by the view before it.
    for (named, viewed) in [(false, false), (true, false), (false, true), (true, true)] {
        kept_or_not(&app, &mut game, viewed).await;
        let seen = game.version;
        let m = game.local.legal_moves()[0];
        // Another writer holds SQLite's write lock, so the move's write
        // waits for its turn after the move was decided.
        let mut other = app.pool.get().unwrap();
        other.batch_execute("BEGIN IMMEDIATE").unwrap();
        let writer_before = app.statements_sent_by_writer();
        let read_before = app.statements_sent() - writer_before;
        let request = {
            let url = app.url(&game.path("/moves"));
            let token = game.user(game.local.turn()).access_token.clone();
            let body = move_body(m, None, named.then_some(seen));
            let client = app.client.clone();
            tokio::spawn(
                async move { client.post(url).bearer_auth(token).json(&body).send().await },
            )
        };
        let waited = std::time::Instant::now();
        while app.statements_sent_by_writer() == writer_before {
            assert!(
                waited.elapsed().as_secs() < 10,
                "the move never asked for its turn"
            );
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        // The move was read before its write waited (the statement test
        // pins exactly one read), or decided from the kept game without
        // one: either way what follows tests a stale plan.
        let read = app.statements_sent() - app.statements_sent_by_writer();
        if viewed {
            assert_eq!(read, read_before, "the kept game was read again");
        } else {
            assert!(read > read_before, "the move was not read before its turn");
        }
        // The other writer changes the game and lets the move's write in.
        other
            .batch_execute(&format!(
                "UPDATE games SET version = version + 1 WHERE id = '{}'; COMMIT",
                game.id
            ))
            .unwrap();
        drop(other);
        let response = request.await.unwrap().unwrap();
        let view = game_view(&app, &game.id, &game.red).await;
        if named {
            let problem = assert_problem(response, 409, "version_conflict").await;
            let detail = problem["detail"].as_str().unwrap_or_default();
            assert!(
                detail.contains(&format!("version {}", seen + 1)),
                "{detail}"
            );
            assert_eq!(
                view["version"],
                seen + 1,
                "the refused move changed the game"
            );
            game.version = seen + 1;
        } else {
            assert_eq!(response.status().as_u16(), 200);
            let answer: Value = response.json().await.unwrap();
            // Played on the changed game: the version after the other
            // writer's, and that one kept.
            assert_eq!(answer["game"]["version"], seen + 2, "{answer}");
            assert_eq!(view["version"], seen + 2);
            let action = domain::Action::Move {
                from: m.from,
                to: m.to,
                rescue: None,
            };
            let mover = game.local.turn();
            game.local.apply(mover, action).unwrap();
            game.version = seen + 2;
        }
    }
}

postgres_tests! {
    /// On PostgreSQL a move without an `Idempotency-Key` reads its game
    /// outside any transaction and writes itself, its action and its
    /// events in one statement (docs/storage.md, "A move in one
    /// statement"). A game that changes between that read and that write
    /// is read and decided again: the stale decision writes nothing, not
    /// even the event it would have sent.
    async fn a_move_in_one_statement_is_decided_again_if_the_game_changed(app) {
        use diesel::connection::SimpleConnection;

        let (red, blue) = two_users(&app, "onestmt").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 5).await;

        // A move without `expected_version` (played on the changed game),
        // then one that names the version it saw (refused); each once read
        // first, and once decided from the game kept by the view before
        // it (docs/storage.md, "A change decided from the game just read").
        for (named, viewed) in [(false, false), (true, false), (false, true), (true, true)] {
            kept_or_not(&app, &mut game, viewed).await;
            let seen = game.version;
            let m = game.local.legal_moves()[0];
            let mover = game.local.turn();
            let opponent = game.user(mover.opponent()).clone();
            let events_before = feed(&app, &opponent).await;
            // Another writer holds the game's row: the move reads the
            // version before it, and its write waits for that one.
            let mut other = app.pool.get().unwrap();
            other
                .batch_execute(&format!(
                    "BEGIN; UPDATE games SET version = version + 1 WHERE id = '{}'",
                    game.id
                ))
                .unwrap();
            let sent_before = app.statements_sent();
            let request = {
                let url = app.url(&game.path("/moves"));
                let token = game.user(mover).access_token.clone();
                let body = move_body(m, None, named.then_some(seen));
                let client = app.client.clone();
                tokio::spawn(
                    async move { client.post(url).bearer_auth(token).json(&body).send().await },
                )
            };
            // The read (unless kept), then the write (sent, and waiting for
            // the row).
            let statements = if viewed { 1 } else { 2 };
            let waited = std::time::Instant::now();
            while app.statements_sent() < sent_before + statements {
                assert!(waited.elapsed().as_secs() < 10, "the move never wrote");
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            assert!(!request.is_finished(), "the move did not wait for the row");
            other.batch_execute("COMMIT").unwrap();
            drop(other);
            let response = request.await.unwrap().unwrap();
            let view = game_view(&app, &game.id, &game.red).await;
            let events = feed(&app, &opponent).await;
            if named {
                let problem = assert_problem(response, 409, "version_conflict").await;
                let detail = problem["detail"].as_str().unwrap_or_default();
                assert!(detail.contains(&format!("version {}", seen + 1)), "{detail}");
                assert_eq!(view["version"], seen + 1, "the refused move changed the game");
                assert_eq!(events, events_before, "a refused move sent an event");
                game.version = seen + 1;
            } else {
                assert_eq!(response.status().as_u16(), 200);
                let answer: Value = response.json().await.unwrap();
                assert_eq!(answer["game"]["version"], seen + 2, "{answer}");
                assert_eq!(view["version"], seen + 2);
                // One event for the one move, numbered right after the last.
                assert_eq!(events.len(), events_before.len() + 1, "{events:?}");
                let last = events_before.last().map_or(0, |e| e["id"].as_i64().unwrap());
                assert_eq!(events[events.len() - 1]["id"], last + 1);
                assert_eq!(events[events.len() - 1]["type"], "your_turn");
                let action = domain::Action::Move { from: m.from, to: m.to, rescue: None };
                game.local.apply(mover, action).unwrap();
                game.version = seen + 2;
            }
        }
        // The log holds each applied move once, and replays to the game.
        assert_logs_replay(&app).await;
    }

    /// A key taken by another request between a keyed move's lookup and
    /// its one write (the other request commits while the write waits for
    /// the key): the write stores nothing, and the move is answered as the
    /// key's first answer decides, here the key's reuse for another request.
    async fn a_key_taken_during_a_move_in_one_statement_writes_nothing(app) {
        use diesel::connection::SimpleConnection;

        let (red, blue) = two_users(&app, "keytaken").await;
        let game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 6).await;
        let mover = game.local.turn();
        let user = game.user(mover).clone();
        let opponent = game.user(mover.opponent()).clone();
        let events_before = feed(&app, &opponent).await;
        let seen = game.version;
        // Another request's answer under the key, not yet committed.
        let mut other = app.pool.get().unwrap();
        other
            .batch_execute(&format!(
                "BEGIN; INSERT INTO idempotency_keys (user_id, idempotency_key, fingerprint, \
                 response_status, response_body, created_at) \
                 VALUES ('{}', 'taken', 'POST /elsewhere', 200, '{{}}', now())",
                user.id
            ))
            .unwrap();
        let sent_before = app.statements_sent();
        let request = {
            let url = app.url(&game.path("/moves"));
            let token = user.access_token.clone();
            let body = move_body(game.local.legal_moves()[0], None, Some(seen));
            let client = app.client.clone();
            tokio::spawn(async move {
                client
                    .post(url)
                    .bearer_auth(token)
                    .header("idempotency-key", "taken")
                    .json(&body)
                    .send()
                    .await
            })
        };
        // The lookup, the read, then the write (waiting for the key).
        let waited = std::time::Instant::now();
        while app.statements_sent() < sent_before + 3 {
            assert!(waited.elapsed().as_secs() < 10, "the move never wrote");
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!request.is_finished(), "the move did not wait for the key");
        other.batch_execute("COMMIT").unwrap();
        drop(other);
        let response = request.await.unwrap().unwrap();
        assert_problem(response, 422, "idempotency_key_reused").await;
        let view = game_view(&app, &game.id, &game.red).await;
        assert_eq!(view["version"], seen, "the move was written");
        assert_eq!(feed(&app, &opponent).await, events_before, "the move sent an event");
    }
}
