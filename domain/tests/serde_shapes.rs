//! The JSON spellings the HTTP API relies on (see shared/API.md), pinned.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::{
    Action, ActionError, Color, EndReason, GameResult, IllegalMove, Move, MoveRecord, Outcome,
    Piece, Rescue, Rules, SetupProblem, Square, Variant, Viewer,
};
use serde_json::json;

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn actions() {
    let a: Action = serde_json::from_value(json!({"type":"move","from":"e4","to":"e5"})).unwrap();
    assert_eq!(a, Action::play(sq("e4"), sq("e5")));
    let a: Action = serde_json::from_value(json!({
        "type":"move","from":"d9","to":"d10","rescue":{"piece":"captain","square":"e2"}
    }))
    .unwrap();
    assert_eq!(
        a,
        Action::Move {
            from: sq("d9"),
            to: sq("d10"),
            rescue: Some(Rescue {
                piece: Piece::Captain,
                square: sq("e2")
            })
        }
    );
    for (name, action) in [
        ("resign", Action::Resign),
        ("offer_draw", Action::OfferDraw),
        ("accept_draw", Action::AcceptDraw),
        ("decline_draw", Action::DeclineDraw),
        ("timeout", Action::Timeout),
    ] {
        assert_eq!(serde_json::to_value(action).unwrap(), json!({"type": name}));
        let back: Action = serde_json::from_value(json!({"type": name})).unwrap();
        assert_eq!(back, action);
    }
    assert!(
        serde_json::from_value::<Action>(json!({"type":"move","from":"e4","to":"k5"})).is_err()
    );
    assert!(serde_json::from_value::<Action>(json!({"type":"fly"})).is_err());
}

#[test]
fn small_types() {
    assert_eq!(
        serde_json::to_value(Move {
            from: sq("b4"),
            to: sq("b5")
        })
        .unwrap(),
        json!({"from":"b4","to":"b5"})
    );
    assert_eq!(serde_json::to_value(Variant::Duel).unwrap(), json!("duel"));
    assert_eq!(serde_json::to_value(Color::Red).unwrap(), json!("red"));
    assert_eq!(
        serde_json::to_value(Outcome::DefenderWins).unwrap(),
        json!("defender_wins")
    );
    assert_eq!(
        serde_json::to_value(GameResult {
            winner: None,
            reason: EndReason::BothImmobile
        })
        .unwrap(),
        json!({"winner":null,"reason":"both_immobile"})
    );
    assert_eq!(
        serde_json::to_value(Rules::default()).unwrap(),
        json!({"two_square_limit":3,"scout_strike_after_move":true,"aggressor_advantage":false,
               "silent_defense":false,"rescue":false,"max_plies":null,"max_plies_without_battle":null,
               "more_squares_rule":false})
    );
    assert_eq!(
        serde_json::to_value(SetupProblem::WrongCount {
            piece: Piece::Scout,
            expected: 8,
            found: 6
        })
        .unwrap(),
        json!({"problem":"wrong_count","piece":"scout","expected":8,"found":6})
    );
}

#[test]
fn move_views_hide_what_they_must() {
    let record: MoveRecord = serde_json::from_value(json!({
        "ply": 16, "color": "blue", "from": "e8", "to": "e7", "piece": "captain",
        "piece_id": 74, "piece_revealed": true,
        "battle": {"defender": "major", "defender_id": 44, "defender_revealed": false,
                   "outcome": "defender_wins"},
        "rescue": null
    }))
    .unwrap();
    let for_blue = record.view_for(Viewer::Player(Color::Blue), false);
    assert_eq!(
        serde_json::to_value(for_blue).unwrap(),
        json!({"ply":16,"color":"blue","from":"e8","to":"e7","piece":"captain",
               "battle":{"attacker":"captain","defender":null,"outcome":"defender_wins"},
               "rescue":null})
    );
    let for_red = record.view_for(Viewer::Player(Color::Red), false);
    assert_eq!(for_red.battle.unwrap().defender, Some(Piece::Major));
    let spectator = record.view_for(Viewer::Spectator, false);
    assert_eq!(spectator.battle.unwrap().defender, None);
    let after_end = record.view_for(Viewer::Spectator, true);
    assert_eq!(after_end.battle.unwrap().defender, Some(Piece::Major));
}

#[test]
fn error_codes_and_messages() {
    let e = ActionError::Illegal(IllegalMove::TwoSquareRule {
        from: sq("e5"),
        to: sq("e4"),
        limit: 3,
    });
    assert_eq!(e.code(), "two_square_rule");
    let e = ActionError::Illegal(IllegalMove::ThroughLake { lake: sq("d5") });
    assert_eq!(e.code(), "illegal_move");
    assert_eq!(e.to_string(), "a scout cannot pass through the lake at d5");
    assert_eq!(ActionError::GameOver.code(), "wrong_phase");
    assert_eq!(ActionError::NotYourTurn.code(), "not_your_turn");
    let r = Rules {
        two_square_limit: 11,
        ..Rules::default()
    };
    assert_eq!(r.validate().unwrap_err().code(), "validation_failed");
}

#[test]
fn a_setup_seen_by_its_owner_matches_the_games_first_view() {
    use domain::{Color, Game, Rules, Setup, Variant, Viewer};
    let red = Setup::random(Variant::Classic, Color::Red, 5);
    let blue = Setup::random(Variant::Classic, Color::Blue, 6);
    let own = red.owner_view();
    assert_eq!(own.len(), 40);
    // Before play the owner sees exactly the red half of the game's first
    // view: same ids, squares, ranks and flags.
    let game = Game::new(Variant::Classic, Rules::default(), red, blue).unwrap();
    let first: Vec<_> = game
        .view(Viewer::Player(Color::Red))
        .board
        .into_iter()
        .filter(|p| p.color == Color::Red)
        .collect();
    assert_eq!(own, first);
}
