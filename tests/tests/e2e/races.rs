//! Races: many conflicting requests against the same games at once, on both
//! backends. For every kind of write (joins, setups, moves, draw accepts,
//! resignations) exactly one of the racers wins, every loser gets the
//! documented problem, nothing answers 5xx, and afterwards every game's
//! stored state is the replay of its log, with no move missing or twice.

use std::collections::BTreeMap;

use domain::{Color, Game, Rules, Setup, Variant};
use reqwest::Method;
use serde_json::{json, Value};

use crate::harness::TestUser;
use crate::support::*;

const GAMES: usize = 12;
const PLIES: usize = 10;
const RACERS: usize = 6;

/// Sends every `(user, body)` to `path` at the same moment; (status, body).
async fn all_at_once(
    app: &crate::harness::TestApp,
    path: &str,
    requests: Vec<(&TestUser, Value)>,
) -> Vec<(u16, Value)> {
    let tasks: Vec<_> = requests
        .into_iter()
        .map(|(user, body)| {
            let request = app
                .client
                .request(Method::POST, app.url(path))
                .bearer_auth(&user.access_token)
                .json(&body);
            tokio::spawn(async move {
                let response = request.send().await.unwrap();
                let status = response.status().as_u16();
                (
                    status,
                    response.json::<Value>().await.unwrap_or(Value::Null),
                )
            })
        })
        .collect();
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.unwrap());
    }
    answers
}

/// Tallies answers by (race, status, code) and checks the race's rules:
/// exactly `winners` 200s, every other answer one of `refusals`.
fn judge(
    tally: &mut BTreeMap<(String, u16, String), usize>,
    race: &str,
    answers: &[(u16, Value)],
    winners: usize,
    refusals: &[(u16, &str)],
) {
    for (status, body) in answers {
        let code = body["code"].as_str().unwrap_or("").to_owned();
        *tally
            .entry((race.to_owned(), *status, code.clone()))
            .or_default() += 1;
        assert!(*status < 500, "{race}: {status} {body}");
        if *status != 200 {
            assert!(
                refusals.contains(&(*status, code.as_str())),
                "{race}: unexpected {status} {body}"
            );
        }
    }
    let won = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(won, winners, "{race}: {answers:?}");
}

backend_tests! {
    async fn every_race_has_exactly_one_winner_and_leaves_the_log_whole(app) {
        let creator = app.register_user("race_host").await;
        let mut racers = Vec::new();
        for i in 0..RACERS {
            racers.push(app.register_user(&format!("racer_{i}")).await);
        }
        let mut tally = BTreeMap::new();
        let mut matches = Vec::new();
        for g in 0..GAMES {
            let variant = Variant::ALL[g % Variant::ALL.len()];
            let body = json!({"variant": variant, "color": "red", "days_per_move": 3});
            let id = create_game(&app, &creator, &body).await;

            // Joins: everyone races for the one open seat.
            let path = format!("/api/v1/games/{id}/join");
            let answers = all_at_once(&app, &path, racers.iter().map(|r| (r, json!({}))).collect()).await;
            judge(&mut tally, "join", &answers, 1, &[(409, "wrong_phase")]);
            let seated = game_view(&app, &id, &creator).await;
            let blue_id = seated["players"]["blue"]["id"].as_str().unwrap();
            let blue = racers.iter().find(|r| r.id == blue_id).unwrap().clone();

            // Setups: each player sends the same setup twice, all at once.
            // The second to complete the pair starts the game; whatever
            // comes after is refused for the phase.
            let (red_seed, blue_seed) = (100 + g as u64, 200 + g as u64);
            let path = format!("/api/v1/games/{id}/setup");
            let red_setup = json!({"random": true, "seed": red_seed});
            let blue_setup = json!({"random": true, "seed": blue_seed});
            let answers = all_at_once(&app, &path, vec![
                (&creator, red_setup.clone()), (&blue, blue_setup.clone()),
                (&creator, red_setup), (&blue, blue_setup),
            ]).await;
            let placed = answers.iter().filter(|(s, _)| *s == 200).count();
            assert!((2..=4).contains(&placed), "{answers:?}");
            judge(&mut tally, "setup", &answers, placed, &[(409, "wrong_phase")]);
            let view = game_view(&app, &id, &creator).await;
            assert_eq!(view["status"], "playing", "{view}");
            let local = Game::new(
                variant,
                Rules::default(),
                Setup::random(variant, Color::Red, red_seed),
                Setup::random(variant, Color::Blue, blue_seed),
            )
            .unwrap();
            matches.push(Match {
                id,
                red: creator.clone(),
                blue,
                local,
                version: view["version"].as_i64().unwrap(),
            });
        }

        // Moves: at every ply the player on turn sends several different
        // legal moves for the same version at once; one is applied.
        for game in &mut matches {
            for _ in 0..PLIES {
                if game.local.is_finished() {
                    break;
                }
                let legal = game.local.legal_moves();
                let mover = game.local.turn();
                let user = game.user(mover).clone();
                let tries: Vec<_> = (0..RACERS).map(|i| legal[i * legal.len() / RACERS]).collect();
                let requests = tries
                    .iter()
                    .map(|m| (&user, move_body(*m, None, Some(game.version))))
                    .collect();
                let answers = all_at_once(&app, &game.path("/moves"), requests).await;
                // Even two equal moves conflict: without an Idempotency-Key
                // they are two requests for the same version.
                judge(&mut tally, "move", &answers, 1, &[(409, "version_conflict")]);
                let won: Vec<usize> = (0..answers.len()).filter(|&i| answers[i].0 == 200).collect();
                let played = tries[won[0]];
                game.local.apply(mover, domain::Action::play(played.from, played.to)).unwrap();
                game.version += 1;
                assert_eq!(answers[won[0]].1["game"]["version"], game.version);
            }
        }

        // Endings: in half the games Red offers a draw and then Blue's
        // accepts race Red's resignations; in the other half both resign
        // at once. Exactly one ending wins.
        for (g, game) in matches.iter_mut().enumerate() {
            if game.local.is_finished() {
                continue;
            }
            let (red, blue) = (game.red.clone(), game.blue.clone());
            let resign = (game.path("/resign"), json!({}));
            if g % 2 == 0 {
                post_ok(&app, &game.path("/draw"), &red, &json!({"action": "offer"}), 200).await;
                let draw = game.path("/draw");
                let accepts = all_at_once(&app, &draw,
                    (0..3).map(|_| (&blue, json!({"action": "accept"}))).collect());
                let resigns = all_at_once(&app, &resign.0,
                    (0..3).map(|_| (&red, resign.1.clone())).collect());
                let (accepts, resigns) = tokio::join!(accepts, resigns);
                let mut answers = accepts.clone();
                answers.extend(resigns.clone());
                judge(&mut tally, "draw or resign", &answers, 1, &[(409, "wrong_phase")]);
                let view = game_view(&app, &game.id, &red).await;
                let reason = view["result"]["reason"].as_str().unwrap();
                if accepts.iter().any(|(s, _)| *s == 200) {
                    assert_eq!(reason, "draw_agreed", "{view}");
                } else {
                    assert_eq!(reason, "resignation", "{view}");
                    assert_eq!(view["result"]["winner"], "blue");
                }
            } else {
                let answers = all_at_once(&app, &resign.0,
                    [&red, &blue, &red, &blue, &red, &blue].into_iter().map(|u| (u, json!({}))).collect()).await;
                judge(&mut tally, "resign", &answers, 1, &[(409, "wrong_phase")]);
                let winner_index = answers.iter().position(|(s, _)| *s == 200).unwrap();
                let loser = if winner_index % 2 == 0 { "red" } else { "blue" };
                let view = game_view(&app, &game.id, &red).await;
                assert_eq!(view["result"]["reason"], "resignation");
                assert_ne!(view["result"]["winner"], loser, "{view}");
            }
        }

        // Every game: the stored state replays from its log, and the history
        // holds exactly the moves that won their races.
        assert_eq!(assert_logs_replay(&app).await, GAMES);
        for game in &matches {
            let history = get_json(&app, &game.path("/moves"), &game.red).await;
            assert_eq!(history["moves"].as_array().unwrap().len(), game.local.ply() as usize);
        }
        let total: usize = tally.values().sum();
        eprintln!("{total} racing requests: {tally:?}");
        assert!(total > 800, "{total}");
    }
}
