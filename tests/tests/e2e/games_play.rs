//! Whole games over HTTP: every move chosen with the `domain` crate and
//! every answer compared with the domain's own view; the stored action log
//! replays to exactly the stored state.

use domain::rng::SplitMix64;
use domain::{Action, Color, EndReason, Game, Piece, Rescue, Rules, Square, Variant, Viewer};
use serde_json::json;

use crate::harness::{assert_problem, TestApp};
use crate::support::*;

/// Plays the random game of `seed` to its end and checks the result, the
/// final views (everything revealed) and the history of every viewer.
async fn play_out(
    app: &TestApp,
    prefix: &str,
    variant: Variant,
    rules: Rules,
    seed: u64,
    reason: EndReason,
) -> Match {
    let (red, blue) = two_users(app, prefix).await;
    let mut game = random_match(app, red, blue, variant, rules, seed).await;
    play_random(app, &mut game, seed, 5_000).await;
    let result = game.local.result().expect("the game ended");
    assert_eq!(result.reason, reason);
    let red_view = game_view(app, &game.id, &game.red).await;
    assert_eq!(red_view["status"], "finished");
    assert_eq!(red_view["result"], serde_json::to_value(result).unwrap());
    assert!(red_view["deadline"].is_null());
    assert!(red_view.get("legal_moves").is_none());
    for p in red_view["board"].as_array().unwrap() {
        assert!(p["piece"].is_string() && p["revealed"] == true, "{p}");
    }
    let spectator = app.register_user(&format!("{prefix}_watch")).await;
    let watched = game_view(app, &game.id, &spectator).await;
    assert_view_matches(&watched, &game.local, Viewer::Spectator);
    assert_eq!(watched["board"], red_view["board"]);
    // After the game, the history shows every rank to everyone.
    let history = get_json(app, &game.path("/moves"), &spectator).await;
    let moves = history["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u32, game.local.ply());
    assert!(moves.iter().all(|m| m["piece"].is_string()));
    game
}

backend_tests! {
    async fn classic_game_to_flag_capture(app) {
        // Seed 31: a random classic game that ends with a flag capture at ply 94.
        let game = play_out(&app, "flag", Variant::Classic, Rules::default(), 31, EndReason::FlagCaptured).await;
        assert_eq!(game.local.ply(), 94);
        let r = app.post_json(&game.path("/moves"), Some(&game.red.access_token),
            &json!({"from": "a1", "to": "a2"})).await;
        assert_problem(r, 409, "wrong_phase").await;
        assert_eq!(assert_logs_replay(&app).await, 1);
    }

    async fn classic_game_to_no_moves(app) {
        // Seed 2266: the shortest random classic game (of 3000 seeds) that
        // ends because a player cannot move (521 plies).
        let game = play_out(&app, "stuck", Variant::Classic, Rules::default(), 2266, EndReason::NoMoves).await;
        assert_eq!(game.local.ply(), 521);
        assert_eq!(assert_logs_replay(&app).await, 1);
    }

    async fn barrage_and_duel_games(app) {
        play_out(&app, "barrage", Variant::Barrage, Rules::default(), 8, EndReason::FlagCaptured).await;
        play_out(&app, "duel", Variant::Duel, Rules::default(), 8, EndReason::FlagCaptured).await;
    }

    async fn games_with_each_tournament_option(app) {
        let aggressor = Rules { aggressor_advantage: true, ..Rules::default() };
        play_out(&app, "aggr", Variant::Classic, aggressor, 23, EndReason::FlagCaptured).await;
        let silent = Rules { silent_defense: true, ..Rules::default() };
        play_out(&app, "silent", Variant::Classic, silent, 38, EndReason::FlagCaptured).await;
        let old = Rules { two_square_limit: 5, scout_strike_after_move: false, ..Rules::default() };
        play_out(&app, "old", Variant::Classic, old, 6, EndReason::FlagCaptured).await;
        let capped = Rules { max_plies: Some(60), ..Rules::default() };
        let game = play_out(&app, "cap", Variant::Classic, capped, 0, EndReason::MoveLimit).await;
        assert_eq!(game.local.ply(), 60);
        let quiet = Rules { max_plies_without_battle: Some(20), ..Rules::default() };
        play_out(&app, "quiet", Variant::Classic, quiet, 0, EndReason::MoveLimit).await;
        // Every stored state is exactly what its log replays to.
        assert_eq!(assert_logs_replay(&app).await, 5);
    }

    async fn rescue_brings_a_piece_back(app) {
        let rules = Rules { rescue: true, ..Rules::default() };
        let (red, blue) = two_users(&app, "rescue").await;
        // Seed 4: random play gives Blue a rescue chance at ply 203.
        let mut game = random_match(&app, red, blue, Variant::Classic, rules, 4).await;
        let mut rng = SplitMix64::new(4);
        let mut rescued = false;
        while !rescued && !game.local.is_finished() {
            let moves = game.local.legal_moves();
            let m = moves[rng.below(moves.len())];
            let rescue = rescue_for(&game.local, m);
            let answer = play(&app, &mut game, m, rescue).await;
            if let Some(r) = rescue {
                let color = answer["move"]["color"].as_str().unwrap();
                assert_eq!(answer["move"]["rescue"], json!({"piece": r.piece, "square": r.square.to_string()}));
                assert_eq!(answer["game"]["rescues_used"][color], 1);
                // The rescued piece is back, revealed, for everyone.
                let other = if color == "red" { &game.blue } else { &game.red };
                let seen = game_view(&app, &game.id, other).await;
                let back = seen["board"].as_array().unwrap().iter()
                    .find(|p| p["square"] == r.square.to_string()).unwrap().clone();
                assert_eq!(back["piece"], json!(r.piece));
                assert_eq!(back["revealed"], true);
                rescued = true;
            }
        }
        assert!(rescued, "the game offered a rescue");
        assert_eq!(game.local.ply(), 204);
        assert_eq!(assert_logs_replay(&app).await, 1);
    }

    async fn resignation_and_draws(app) {
        let (ann, bo) = two_users(&app, "draw").await;
        let mut game = random_match(&app, ann.clone(), bo.clone(), Variant::Classic, Rules::default(), 1).await;
        play_random(&app, &mut game, 1, 4).await;
        // Red offers; a move by Red withdraws the offer.
        let offered = post_ok(&app, &game.path("/draw"), &ann, &json!({"action": "offer"}), 200).await;
        game.local.apply(Color::Red, Action::OfferDraw).unwrap();
        game.version += 1;
        assert_eq!(offered["draw_offer"], "red");
        let r = app.post_json(&game.path("/draw"), Some(&ann.access_token), &json!({"action": "accept"})).await;
        assert_problem(r, 409, "wrong_phase").await;
        let r = app.post_json(&game.path("/draw"), Some(&ann.access_token), &json!({"action": "offer"})).await;
        assert_problem(r, 409, "wrong_phase").await;
        let seen = game_view(&app, &game.id, &bo).await;
        assert_eq!(seen["draw_offer"], "red");
        // Blue declines.
        let declined = post_ok(&app, &game.path("/draw"), &bo, &json!({"action": "decline"}), 200).await;
        game.local.apply(Color::Blue, Action::DeclineDraw).unwrap();
        game.version += 1;
        assert!(declined["draw_offer"].is_null());
        // Blue offers, Red accepts.
        post_ok(&app, &game.path("/draw"), &bo, &json!({"action": "offer"}), 200).await;
        let drawn = post_ok(&app, &game.path("/draw"), &ann, &json!({"action": "accept"}), 200).await;
        assert_eq!(drawn["status"], "finished");
        assert_eq!(drawn["result"], json!({"winner": null, "reason": "draw_agreed"}));
        assert_eq!(drawn["version"], game.version + 2);

        // Resignation.
        let mut game = random_match(&app, ann.clone(), bo.clone(), Variant::Barrage, Rules::default(), 2).await;
        play_random(&app, &mut game, 2, 3).await;
        let resigned = post_ok(&app, &game.path("/resign"), &ann, &json!({}), 200).await;
        assert_eq!(resigned["result"], json!({"winner": "blue", "reason": "resignation"}));
        assert_eq!(resigned["version"], game.version + 1);
        assert_eq!(assert_logs_replay(&app).await, 2);
    }

    async fn many_finished_games_replay_exactly(app) {
        let (ann, bo) = two_users(&app, "many").await;
        // Random games known to finish (flag captures) within a few dozen plies.
        let seeds = [(Variant::Duel, 8u64), (Variant::Duel, 10), (Variant::Duel, 22),
                     (Variant::Barrage, 8), (Variant::Barrage, 35), (Variant::Barrage, 28)];
        for (variant, seed) in seeds {
            let mut game = random_match(&app, ann.clone(), bo.clone(), variant, Rules::default(), seed).await;
            play_random(&app, &mut game, seed, 400).await;
            assert!(game.local.is_finished(), "{variant:?} {seed}");
            let view = game_view(&app, &game.id, &ann).await;
            assert_eq!(view["status"], "finished");
        }
        assert_eq!(assert_logs_replay(&app).await, seeds.len());
    }
}

/// A rescue for move `m` if the rules and position allow one: the first
/// captured piece of the mover that is not a bomb, placed on the first
/// empty square of the mover's half.
fn rescue_for(game: &Game, m: domain::Move) -> Option<Rescue> {
    let color = game.turn();
    let back = if color == Color::Red { 10 } else { 1 };
    if m.to.rank() != back {
        return None;
    }
    let piece = game
        .full_truth()
        .captured(color)
        .find(|p| *p != Piece::Bomb)?;
    let square = Square::all().find(|s| {
        let mine = if color == Color::Red {
            s.rank() <= 5
        } else {
            s.rank() >= 6
        };
        mine && !s.is_lake() && game.full_truth().piece_on(*s).is_none()
    })?;
    let rescue = Rescue { piece, square };
    let mut trial = game.clone();
    let applied = trial
        .apply(
            color,
            Action::Move {
                from: m.from,
                to: m.to,
                rescue: Some(rescue),
            },
        )
        .ok()?;
    applied.record.and_then(|r| r.rescue).map(|_| rescue)
}
