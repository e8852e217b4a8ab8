//! Ratings (docs/ratings.md): which games count, the rating written with
//! the game's end exactly once on any process, and every stored rating
//! against a replay of the finished games with `domain`'s Glicko-2.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Duration, Utc};
use domain::{rate_game, Glicko, Score};
use serde_json::{json, Value};

use crate::contract::{get_checked, Contract};
use crate::harness::{assert_problem, TestApp, TestUser};
use crate::sessions::{delete_account, Replica};
use crate::support::{
    create_game, game_view, get_json, join_game, place_setup, post_ok, relogin, start_game, Server,
};

/// How a test game ends.
#[derive(Debug, Clone, Copy)]
pub enum End {
    /// The named color resigns.
    Resigns(&'static str),
    /// Blue offers a draw, Red accepts.
    Draw,
}

/// A game `red` challenges `blue` to (`extra` merged into the request),
/// started with random setups; returns its id.
pub async fn started(app: &impl Server, red: &TestUser, blue: &TestUser, extra: Value) -> String {
    let mut body = json!({"variant": "classic", "color": "red", "opponent": blue.username,
                          "days_per_move": 3});
    for (key, value) in extra.as_object().into_iter().flatten() {
        body[key] = value.clone();
    }
    let id = create_game(app, red, &body).await;
    join_game(app, &id, blue).await;
    place_setup(app, &id, red, 3).await;
    let view = place_setup(app, &id, blue, 4).await;
    assert_eq!(view["status"], "playing", "{view}");
    id
}

/// Ends game `id` between `red` and `blue` as `end` says.
pub async fn end(app: &impl Server, id: &str, red: &TestUser, blue: &TestUser, end: End) -> Value {
    match end {
        End::Resigns(color) => {
            let who = if color == "red" { red } else { blue };
            post_ok(
                app,
                &format!("/api/v1/games/{id}/resign"),
                who,
                &json!({}),
                200,
            )
            .await
        }
        End::Draw => {
            let path = format!("/api/v1/games/{id}/draw");
            post_ok(app, &path, blue, &json!({"action": "offer"}), 200).await;
            post_ok(app, &path, red, &json!({"action": "accept"}), 200).await
        }
    }
}

/// A whole game: started, then ended.
pub async fn played(
    app: &impl Server,
    red: &TestUser,
    blue: &TestUser,
    extra: Value,
    how: End,
) -> String {
    let id = started(app, red, blue, extra).await;
    let ended = end(app, &id, red, blue, how).await;
    assert_eq!(ended["status"], "finished", "{ended}");
    id
}

/// What the database holds about ratings.
struct Stored {
    games: Vec<api::storage::games::GameRow>,
    ratings: Vec<api::storage::ratings::RatingRow>,
    history: Vec<api::storage::ratings::HistoryRow>,
}

async fn stored(app: &TestApp) -> Stored {
    use api::schema::{games, rating_history, ratings};
    use api::storage::games::GameRow;
    use api::storage::ratings::{HistoryRow, RatingRow};
    use diesel::prelude::*;
    api::db::run_as::<_, api::ApiError, _>(&app.pool, |conn| {
        Ok(Stored {
            games: games::table.select(GameRow::as_select()).load(conn)?,
            ratings: ratings::table.select(RatingRow::as_select()).load(conn)?,
            history: rating_history::table
                .select(HistoryRow::as_select())
                .load(conn)?,
        })
    })
    .await
    .unwrap()
}

/// Whole weeks from `since` to `at` (docs/ratings.md: the rating period).
fn weeks(since: DateTime<Utc>, at: DateTime<Utc>) -> u32 {
    u32::try_from((at - since).num_days().max(0) / 7).unwrap()
}

/// A player's rating as the replay has it so far.
#[derive(Debug, Clone, Copy)]
struct Replayed {
    glicko: Glicko,
    last: Option<DateTime<Utc>>,
    games: i32,
    wins: i32,
    losses: i32,
    draws: i32,
}

/// Replays every finished game from 1500 / 350 / 0.06 for everyone and
/// compares with what is stored: exactly the finished rated games between
/// two users have history points, one per player; each player's points are
/// numbered 1, 2, 3, ... in one order that the games can be replayed in
/// (each game when both players' earlier games are done), and every point
/// and every current rating is what the replay computes, to the bit.
/// Returns how many games were rated.
async fn assert_ratings_replay(app: &TestApp) -> usize {
    let stored = stored(app).await;
    let mut points: HashMap<(&str, &str), &api::storage::ratings::HistoryRow> = HashMap::new();
    for point in &stored.history {
        points.insert((&point.game_id, &point.user_id), point);
    }
    assert_eq!(points.len(), stored.history.len());
    let mut pending = Vec::new();
    for game in &stored.games {
        let players = game
            .red_user_id
            .as_deref()
            .zip(game.blue_user_id.as_deref());
        let counts = game.status == "finished" && game.rated;
        let of_game = stored
            .history
            .iter()
            .filter(|p| p.game_id == game.id)
            .count();
        match players {
            Some((red, blue)) if counts && red != blue => {
                assert_eq!(of_game, 2, "game {} is rated once for each player", game.id);
                pending.push((game, red, blue));
            }
            _ => assert_eq!(
                of_game, 0,
                "game {} ({}) is not rated",
                game.id, game.status
            ),
        }
    }
    let rated = pending.len();
    let mut state: BTreeMap<(String, String), Replayed> = BTreeMap::new();
    let start = Replayed {
        glicko: Glicko::INITIAL,
        last: None,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
    };
    while !pending.is_empty() {
        let next = pending.iter().position(|(game, red, blue)| {
            [red, blue].iter().all(|user| {
                let key = (user.to_string(), game.variant.clone());
                let done = state.get(&key).map_or(0, |s| s.games);
                points[&(game.id.as_str(), **user)].number == done + 1
            })
        });
        let Some(next) = next else {
            panic!("no order replays the remaining games: {}", pending.len());
        };
        let (game, red, blue) = pending.swap_remove(next);
        let at = game.updated_at.and_utc();
        let before = |user: &str| {
            let s = state
                .get(&(user.to_owned(), game.variant.clone()))
                .copied()
                .unwrap_or(start);
            (
                s,
                s.last
                    .map_or(s.glicko, |last| s.glicko.idle(weeks(last, at))),
            )
        };
        let ((red_state, red_before), (blue_state, blue_before)) = (before(red), before(blue));
        let red_score = match game.result_winner.as_deref() {
            Some("red") => Score::Win,
            Some("blue") => Score::Loss,
            _ => Score::Draw,
        };
        let (red_after, blue_after) = rate_game(red_before, blue_before, red_score);
        for (user, s, after, score) in [
            (red, red_state, red_after, red_score),
            (blue, blue_state, blue_after, red_score.reversed()),
        ] {
            let point = points[&(game.id.as_str(), user)];
            assert_eq!(
                (point.rating, point.deviation, point.volatility),
                (after.rating, after.deviation, after.volatility),
                "game {} for {user}",
                game.id
            );
            assert_eq!(point.rated_at, game.updated_at, "rated when it ended");
            assert_eq!(point.variant, game.variant);
            state.insert(
                (user.to_owned(), game.variant.clone()),
                Replayed {
                    glicko: after,
                    last: Some(at),
                    games: s.games + 1,
                    wins: s.wins + i32::from(score == Score::Win),
                    losses: s.losses + i32::from(score == Score::Loss),
                    draws: s.draws + i32::from(score == Score::Draw),
                },
            );
        }
    }
    assert_eq!(
        stored.ratings.len(),
        state.len(),
        "one rating per player and variant"
    );
    for row in &stored.ratings {
        let s = state[&(row.user_id.clone(), row.variant.clone())];
        assert_eq!(
            (row.rating, row.deviation, row.volatility),
            (s.glicko.rating, s.glicko.deviation, s.glicko.volatility),
            "rating of {} in {}",
            row.user_id,
            row.variant
        );
        assert_eq!(
            (row.games, row.wins, row.losses, row.draws),
            (s.games, s.wins, s.losses, s.draws)
        );
        assert_eq!(Some(row.last_game_at.and_utc()), s.last);
    }
    rated
}

/// The stored rating of `user` in `variant`, if any.
async fn rating_of(app: &TestApp, user: &TestUser, variant: &str) -> Option<Glicko> {
    let stored = stored(app).await;
    stored
        .ratings
        .iter()
        .find(|r| r.user_id == user.id && r.variant == variant)
        .map(|r| Glicko {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        })
}

backend_tests! {
    /// A rated game moves both players' ratings as one Glicko-2 period;
    /// an unrated one, an aborted one and a game still in play change
    /// nothing; `rated` shows in views and listings.
    async fn finished_rated_games_count_and_nothing_else(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;

        let unrated = played(&app, &ann, &bob, json!({"rated": false}), End::Resigns("blue")).await;
        assert_eq!(game_view(&app, &unrated, &ann).await["rated"], false);
        let waiting = create_game(&app, &ann, &json!({"opponent": "bob"})).await;
        post_ok(&app, &format!("/api/v1/games/{waiting}/abort"), &ann, &json!({}), 200).await;
        let running = start_game(&app, &ann, &bob, 3).await;
        assert_eq!(game_view(&app, &running, &bob).await["rated"], true);
        assert_eq!(rating_of(&app, &ann, "classic").await, None);
        assert_eq!(assert_ratings_replay(&app).await, 0);

        let rated = played(&app, &ann, &bob, json!({}), End::Resigns("blue")).await;
        let listed = crate::support::get_json(&app, "/api/v1/games?status=finished", &ann).await;
        let rows: Vec<&Value> = listed["games"].as_array().unwrap().iter().collect();
        assert!(rows.iter().any(|g| g["id"] == rated.as_str() && g["rated"] == true));
        assert!(rows.iter().any(|g| g["id"] == unrated.as_str() && g["rated"] == false));

        let (won, lost) = rate_game(Glicko::INITIAL, Glicko::INITIAL, Score::Win);
        assert_eq!(rating_of(&app, &ann, "classic").await, Some(won));
        assert_eq!(rating_of(&app, &bob, "classic").await, Some(lost));
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert_eq!(assert_ratings_replay(&app).await, 1);

        // Another variant is another rating.
        played(&app, &bob, &ann, json!({"variant": "duel"}), End::Draw).await;
        let (drawn, _) = rate_game(Glicko::INITIAL, Glicko::INITIAL, Score::Draw);
        assert_eq!(rating_of(&app, &ann, "duel").await, Some(drawn));
        assert_eq!(rating_of(&app, &ann, "classic").await, Some(won));
        assert_eq!(assert_ratings_replay(&app).await, 2);
    }

    /// Weeks without a rated game grow the deviation before the next game
    /// is rated, as many periods as whole weeks passed.
    async fn idle_weeks_grow_the_deviation(app) {
        let mut ann = app.register_user("ann").await;
        let mut bob = app.register_user("bob").await;
        played(&app, &ann, &bob, json!({}), End::Resigns("blue")).await;
        let (ann_first, bob_first) = rate_game(Glicko::INITIAL, Glicko::INITIAL, Score::Win);
        app.clock.advance(Duration::days(30));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bob).await;
        // The game must not be lost to the clock meanwhile: it starts now.
        played(&app, &ann, &bob, json!({"days_per_move": 14}), End::Resigns("red")).await;
        let (ann_idle, bob_idle) = (ann_first.idle(4), bob_first.idle(4));
        assert!(ann_idle.deviation > ann_first.deviation);
        let (ann_second, _) = rate_game(ann_idle, bob_idle, Score::Loss);
        let (not_grown, _) = rate_game(ann_first, bob_first, Score::Loss);
        assert_eq!(rating_of(&app, &ann, "classic").await, Some(ann_second));
        assert_ne!(ann_second.deviation, not_grown.deviation);
        assert_eq!(assert_ratings_replay(&app).await, 2);
    }

    /// Many games between a few players end at once through two server
    /// processes, by resignation, draw and the clock (requests racing the
    /// deadline sweeps of both): each is rated exactly once and every
    /// stored rating is what a replay of the games in order gives.
    async fn games_ending_at_once_on_two_processes_are_rated_exactly_once(app) {
        let replica = Replica::start(&app).await;
        let mut users = Vec::new();
        for name in ["ann", "bob", "cyd", "dee", "eve"] {
            users.push(app.register_user(name).await);
        }
        let mut games = Vec::new();
        for i in 0..24 {
            let red = &users[i % users.len()];
            let blue = &users[(i * 2 + 1) % users.len()];
            let (red, blue) = if red.id == blue.id { (red, &users[(i + 2) % users.len()]) } else { (red, blue) };
            // Every third game has one day per move: the clock ends it.
            let days = if i % 3 == 0 { 1 } else { 3 };
            let id = started(&app, red, blue, json!({"days_per_move": days})).await;
            games.push((id, red.clone(), blue.clone()));
        }
        app.clock.advance(Duration::hours(30));
        for user in &mut users {
            relogin(&app, user).await;
        }
        let games: Vec<(String, TestUser, TestUser)> = games
            .into_iter()
            .map(|(id, red, blue): (String, TestUser, TestUser)| {
                let fresh = |old: &TestUser| users.iter().find(|u| u.id == old.id).unwrap().clone();
                (id, fresh(&red), fresh(&blue))
            })
            .collect();
        let mut tasks = Vec::new();
        for (i, (id, red, blue)) in games.iter().enumerate() {
            let (client, base) = if i % 2 == 0 {
                (app.client.clone(), app.address.clone())
            } else {
                (replica.client.clone(), replica.address.clone())
            };
            let (path, who, body) = match i % 4 {
                0 | 1 => (format!("/api/v1/games/{id}/resign"), red, json!({})),
                2 => (format!("/api/v1/games/{id}/resign"), blue, json!({})),
                _ => (format!("/api/v1/games/{id}/draw"), blue, json!({"action": "offer"})),
            };
            let token = who.access_token.clone();
            tasks.push(tokio::spawn(async move {
                client.post(format!("{base}{path}")).bearer_auth(token).json(&body)
                    .send().await.unwrap().status().as_u16()
            }));
        }
        for _ in 0..2 {
            let games = app.games.clone();
            let now = app.now();
            tasks.push(tokio::spawn(async move {
                api::games::clock::sweep_overdue(&games, now).await.map(|_| 200).unwrap()
            }));
        }
        for task in tasks {
            // 409: the clock ended that game first.
            assert!([200, 409].contains(&task.await.unwrap()));
        }
        // The offered draws are accepted now, also racing each other.
        let mut tasks = Vec::new();
        for (i, (id, red, _)) in games.iter().enumerate().filter(|(i, _)| i % 4 == 3) {
            let (client, base) = if i % 8 == 3 {
                (app.client.clone(), app.address.clone())
            } else {
                (replica.client.clone(), replica.address.clone())
            };
            let url = format!("{base}/api/v1/games/{id}/draw");
            let token = red.access_token.clone();
            tasks.push(tokio::spawn(async move {
                client.post(url).bearer_auth(token).json(&json!({"action": "accept"}))
                    .send().await.unwrap().status().as_u16()
            }));
        }
        for task in tasks {
            assert!([200, 409].contains(&task.await.unwrap()));
        }
        for (id, red, _) in &games {
            assert_eq!(game_view(&app, id, red).await["status"], "finished");
        }
        assert_eq!(assert_ratings_replay(&app).await, games.len());
        replica.stop().await;
    }
}

/// Every page of `path` (a listing with `next_cursor`), `limit` at a time,
/// each page checked against the document; the items of `member`.
async fn all_pages(
    app: &TestApp,
    contract: &mut Contract,
    operation: &str,
    path: &str,
    member: &str,
    user: &TestUser,
) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let separator = if path.contains('?') { '&' } else { '?' };
        let url = match &cursor {
            Some(c) => format!("{path}{separator}cursor={c}"),
            None => path.to_owned(),
        };
        let page = get_checked(app, contract, operation, &url, user).await;
        items.extend(page[member].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return items,
        }
    }
}

/// The stored rating rows of `user`, by variant.
async fn ratings_of(app: &TestApp, user: &TestUser) -> Vec<api::storage::ratings::RatingRow> {
    let mut rows: Vec<_> = stored(app)
        .await
        .ratings
        .into_iter()
        .filter(|r| r.user_id == user.id)
        .collect();
    rows.sort_by(|a, b| a.variant.cmp(&b.variant));
    rows
}

backend_tests! {
    /// Two players finish enough rated games to settle their ratings: the
    /// leaderboard lists them (best first, page by page) and not a player
    /// whose rating is unsettled; profiles, rating histories and finished
    /// games show exactly the stored ratings; an unrated game changes none
    /// of it; 90 quiet days take them off the leaderboard.
    async fn profiles_and_the_leaderboard_show_the_ratings(app) {
        let mut contract = Contract::new();
        let mut ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let cyd = app.register_user("cyd").await;
        let mut ids = Vec::new();
        for i in 0..16 {
            let loser = if i % 3 == 2 { "red" } else { "blue" };
            ids.push(played(&app, &ann, &bob, json!({}), End::Resigns(loser)).await);
            // Games end at different times (newest first is by end).
            app.clock.advance(Duration::seconds(10));
        }
        ids.push(played(&app, &cyd, &ann, json!({}), End::Resigns("blue")).await);
        app.clock.advance(Duration::seconds(10));
        assert_eq!(assert_ratings_replay(&app).await, 17);

        let board = get_checked(&app, &mut contract, "get_leaderboard",
                                "/api/v1/leaderboard?variant=classic", &bob).await;
        let entries = board["entries"].as_array().unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e["username"].as_str().unwrap()).collect();
        assert_eq!(names, ["ann", "bob"], "{board}");
        assert_eq!((board["max_deviation"].as_f64(), board["active_days"].as_i64()),
                   (Some(110.0), Some(90)));
        for (rank, entry) in entries.iter().enumerate() {
            assert_eq!(entry["rank"], rank as i64 + 1);
            let user = if entry["username"] == "ann" { &ann } else { &bob };
            let row = &ratings_of(&app, user).await[0];
            assert_eq!(entry["rating"].as_f64(), Some(row.rating));
            assert_eq!(entry["deviation"].as_f64(), Some(row.deviation));
            assert!(row.deviation < 110.0);
            assert_eq!(entry["user_id"], user.id.as_str());
        }
        assert!(entries[0]["rating"].as_f64() > entries[1]["rating"].as_f64());
        let cyd_row = &ratings_of(&app, &cyd).await[0];
        assert!(cyd_row.deviation >= 110.0, "one game does not settle a rating");
        let paged = all_pages(&app, &mut contract, "get_leaderboard",
                              "/api/v1/leaderboard?variant=classic&limit=1", "entries", &bob).await;
        assert_eq!(paged, *entries, "pages of one give the same lines");
        let duel = get_json(&app, "/api/v1/leaderboard?variant=duel", &bob).await;
        assert_eq!(duel["entries"], json!([]));

        // Ann's profile: her rating and counts, and the game she plays now.
        let running = started(&app, &ann, &cyd, json!({})).await;
        let profile = get_checked(&app, &mut contract, "get_user", "/api/v1/users/ann", &cyd).await;
        let row = &ratings_of(&app, &ann).await[0];
        assert_eq!(profile["username"], "ann");
        assert_eq!(profile["id"], ann.id.as_str());
        assert!(profile["joined_at"].is_string());
        let rating = &profile["ratings"][0];
        assert_eq!(profile["ratings"].as_array().unwrap().len(), 1);
        assert_eq!(rating["variant"], "classic");
        assert_eq!(rating["rating"].as_f64(), Some(row.rating));
        assert_eq!(rating["deviation"].as_f64(), Some(row.deviation));
        assert_eq!(rating["volatility"].as_f64(), Some(row.volatility));
        assert_eq!((&rating["games"], &rating["wins"], &rating["losses"], &rating["draws"]),
                   (&json!(17), &json!(11), &json!(6), &json!(0)));
        assert_eq!(rating["settled"], true);
        let current: Vec<&Value> = profile["current_games"].as_array().unwrap().iter().collect();
        assert_eq!(current.len(), 1);
        assert_eq!(current[0]["id"], running.as_str());
        // What a spectator's listing says about the game, no more.
        let listed = get_json(&app, "/api/v1/games?status=playing", &cyd).await;
        assert_eq!(*current[0], listed["games"][0]);

        // Her rating after each game, page by page, ending at her rating.
        let points = all_pages(&app, &mut contract, "list_user_ratings",
                               "/api/v1/users/ann/ratings?limit=5", "points", &bob).await;
        let numbers: Vec<i64> = points.iter().map(|p| p["number"].as_i64().unwrap()).collect();
        assert_eq!(numbers, (1..=17).collect::<Vec<i64>>());
        let games: Vec<&str> = points.iter().map(|p| p["game_id"].as_str().unwrap()).collect();
        assert_eq!(games, ids.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(points[16]["rating"].as_f64(), Some(row.rating));
        assert_eq!(get_json(&app, "/api/v1/users/ann/ratings?variant=duel", &bob).await["points"],
                   json!([]));

        // An unrated game: in her finished games, nowhere in her ratings.
        let before = (ratings_of(&app, &ann).await, ratings_of(&app, &bob).await);
        let unrated = played(&app, &bob, &ann, json!({"rated": false}), End::Draw).await;
        assert_eq!((ratings_of(&app, &ann).await, ratings_of(&app, &bob).await), before);
        let again = get_json(&app, "/api/v1/leaderboard?variant=classic", &bob).await;
        assert_eq!(again, board);
        let finished = all_pages(&app, &mut contract, "list_user_games",
                                 "/api/v1/users/ann/games?limit=5", "games", &cyd).await;
        let finished: Vec<&str> = finished.iter().map(|g| g["id"].as_str().unwrap()).collect();
        let mut newest_first: Vec<&str> = ids.iter().map(String::as_str).collect();
        newest_first.push(&unrated);
        newest_first.reverse();
        assert_eq!(finished, newest_first);
        assert_eq!(get_json(&app, "/api/v1/users/cyd/games", &ann).await["games"]
                       .as_array().unwrap().len(), 1);

        // 90 days without a rated game: off the leaderboard, rating kept.
        end(&app, &running, &ann, &cyd, End::Resigns("blue")).await;
        let row = ratings_of(&app, &ann).await.remove(0);
        assert_eq!(row.games, 18);
        app.clock.advance(Duration::days(91));
        relogin(&app, &mut ann).await;
        let quiet = get_json(&app, "/api/v1/leaderboard?variant=classic", &ann).await;
        assert_eq!(quiet["entries"], json!([]));
        let profile = get_json(&app, "/api/v1/users/ann", &ann).await;
        assert_eq!(profile["ratings"][0]["rating"].as_f64(), Some(row.rating));
        assert_eq!(profile["current_games"], json!([]));
        assert_eq!(assert_ratings_replay(&app).await, 18);
        contract.assert_no_optional_always_present();
    }

    /// Unknown and deleted players have no profile; bad pages are refused
    /// with a problem, and nothing needs no token.
    async fn profiles_refuse_what_they_cannot_answer(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        played(&app, &ann, &bob, json!({}), End::Resigns("blue")).await;
        for path in ["/api/v1/users/nobody", "/api/v1/users/nobody/ratings",
                     "/api/v1/users/nobody/games", "/api/v1/users/%5Bdeleted%5D",
                     "/api/v1/users/a%20b"] {
            let problem = assert_problem(app.get(path, Some(&ann.access_token)).await, 404,
                                         "not_found").await;
            assert!(problem["detail"].as_str().unwrap().starts_with("no user is named"), "{problem}");
        }
        for path in ["/api/v1/leaderboard?limit=0", "/api/v1/leaderboard?limit=101",
                     "/api/v1/leaderboard?variant=chess", "/api/v1/leaderboard?cursor=xyz",
                     "/api/v1/users/ann/ratings?cursor=bm90IGEgY3Vyc29y",
                     "/api/v1/users/ann/games?limit=500", "/api/v1/users/ann/games?cursor=%%"] {
            assert_problem(app.get(path, Some(&ann.access_token)).await, 400,
                           "validation_failed").await;
        }
        // A cursor of one listing is refused by another.
        played(&app, &ann, &bob, json!({}), End::Resigns("blue")).await;
        let page = get_json(&app, "/api/v1/users/ann/ratings?limit=1", &ann).await;
        let cursor = page["next_cursor"].as_str().unwrap();
        assert_problem(app.get(&format!("/api/v1/users/ann/games?cursor={cursor}"),
                               Some(&ann.access_token)).await, 400, "validation_failed").await;
        for path in ["/api/v1/leaderboard", "/api/v1/users/ann", "/api/v1/users/ann/games"] {
            assert_problem(app.get(path, None).await, 401, "unauthorized").await;
        }

        // Bob deletes his account: he has no profile any more.
        let deleted = delete_account(&app, &bob, &bob.password).await;
        assert_eq!(deleted.status(), 204);
        assert_problem(app.get("/api/v1/users/bob", Some(&ann.access_token)).await, 404,
                       "not_found").await;
        let profile = get_json(&app, "/api/v1/users/ann", &ann).await;
        assert_eq!(profile["ratings"][0]["games"], 2, "ann keeps her rated games");
    }
}
