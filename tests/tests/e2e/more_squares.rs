//! The more-squares rule through the API (docs/more-squares-rule.md): the
//! setting is part of a game's rules, a forbidden chasing move is absent
//! from `legal_moves` and refused with 422 `more_squares_rule` naming the
//! ply where the position stood, and the refusal changes nothing.

use domain::rng::SplitMix64;
use domain::{Action, ActionError, Game, IllegalMove, Move, Rules, Square, Variant};
use serde_json::json;

use crate::harness::assert_problem;
use crate::support::*;

fn next_to(a: Square, b: Square) -> bool {
    a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank()) == 1
}

/// A chasing move the rule forbids now, if the player to move has one
/// (among the one-square moves, where chases happen), with the ply the
/// position stood at.
fn forbidden_move(game: &Game) -> Option<(Move, u32)> {
    let by = game.turn();
    let own: Vec<Square> = game
        .full_truth()
        .pieces()
        .filter(|p| p.color == by)
        .map(|p| p.square)
        .collect();
    for from in own {
        for to in Square::all().filter(|&to| next_to(from, to)) {
            let mut trial = game.clone();
            if let Err(ActionError::Illegal(IllegalMove::MoreSquaresRule { since_ply, .. })) =
                trial.apply(by, Action::play(from, to))
            {
                return Some((Move { from, to }, since_ply));
            }
        }
    }
    None
}

/// Plays the classic game of `seed` (tournament rules) by a chasing
/// policy (evade a threat, else threaten, else anything) until the player
/// to move has a forbidden chasing move. Returns the moves played and that
/// move with its ply.
fn find_a_chase(seed: u64) -> Option<(Vec<Move>, Move, u32)> {
    let mut game =
        domain::playout::random_game(Variant::Classic, Rules::tournament(), seed).ok()?;
    let mut rng = SplitMix64::new(seed);
    let mut played = Vec::new();
    while game.result().is_none() && game.ply() < 2000 {
        if let Some((refused, since)) = forbidden_move(&game) {
            return Some((played, refused, since));
        }
        let moves = game.legal_moves();
        let by = game.turn();
        let quiet = |m: &Move| game.full_truth().piece_on(m.to).is_none();
        let evasions: Vec<Move> = match game.full_truth().last_move() {
            Some(last) if last.battle.is_none() => moves
                .iter()
                .copied()
                .filter(|m| quiet(m) && next_to(m.from, last.to))
                .collect(),
            _ => Vec::new(),
        };
        let threats: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                quiet(m)
                    && game
                        .full_truth()
                        .pieces()
                        .any(|p| p.color != by && p.square != m.from && next_to(p.square, m.to))
            })
            .collect();
        let list = if !evasions.is_empty() {
            evasions
        } else {
            threats
        };
        let m = if !list.is_empty() && rng.below(10) < 9 {
            list[rng.below(list.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        game.apply(by, Action::play(m.from, m.to)).ok()?;
        played.push(m);
    }
    None
}

backend_tests! {
    async fn the_rule_is_off_by_default_and_part_of_the_rules(app) {
        let (ann, _bo) = two_users(&app, "msq").await;
        let plain = post_ok(&app, "/api/v1/games", &ann, &json!({}), 201).await;
        assert_eq!(plain["rules"]["more_squares_rule"], false);
        let on = post_ok(&app, "/api/v1/games", &ann,
            &json!({"rules": {"more_squares_rule": true}}), 201).await;
        assert_eq!(on["rules"]["more_squares_rule"], true);
        assert_eq!(on["rules"], serde_json::to_value(Rules::tournament()).unwrap());
    }

    async fn a_forbidden_chasing_move_is_refused_and_changes_nothing(app) {
        let (seed, (played, refused, since)) = (1..40u64)
            .find_map(|seed| find_a_chase(seed).map(|found| (seed, found)))
            .expect("a chasing game reaches a forbidden move");
        let (red, blue) = two_users(&app, "chase").await;
        let mut game =
            random_match(&app, red, blue, Variant::Classic, Rules::tournament(), seed).await;
        for m in played {
            play(&app, &mut game, m, None).await;
        }
        let mover = game.local.turn();
        let user = game.user(mover).clone();
        let before = game_view(&app, &game.id, &user).await;
        let listed = before["legal_moves"].as_array().unwrap();
        assert!(
            !listed.iter().any(|m| m["from"] == refused.from.to_string()
                && m["to"] == refused.to.to_string()),
            "the forbidden move {refused} is offered"
        );
        let response = app
            .post_json(&game.path("/moves"), Some(&user.access_token),
                &move_body(refused, None, Some(game.version)))
            .await;
        let problem = assert_problem(response, 422, "more_squares_rule").await;
        assert_eq!(problem["reason"], "more_squares_rule");
        assert_eq!(problem["since_ply"], since);
        assert!(problem["detail"].as_str().unwrap().contains(&format!("ply {since}")), "{problem}");
        let after = game_view(&app, &game.id, &user).await;
        assert_eq!(after, before, "a refused move changed the game");
    }
}
