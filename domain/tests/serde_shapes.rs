//! The JSON spellings the HTTP API relies on (see docs/api.md), pinned.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::{
    Action, ActionError, Color, EndReason, GameResult, IllegalMove, Move, Outcome, Piece, Rescue,
    Rules, SetupProblem, Square, Variant,
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
fn error_codes_and_messages() {
    let e = ActionError::Illegal(IllegalMove::TwoSquareRule {
        from: sq("e5"),
        to: sq("e4"),
        limit: 3,
    });
    assert_eq!(e.kind(), "two_square_rule");
    let e = ActionError::Illegal(IllegalMove::ThroughLake { lake: sq("d5") });
    assert_eq!(e.kind(), "through_lake");
    assert_eq!(e.to_string(), "a scout cannot pass through the lake at d5");
    assert_eq!(ActionError::GameOver.kind(), "game_over");
    assert_eq!(ActionError::NotYourTurn.kind(), "not_your_turn");
    let r = Rules {
        two_square_limit: 11,
        ..Rules::default()
    };
    assert_eq!(
        r.validate().unwrap_err().to_string(),
        "two_square_limit must be between 2 and 10, not 11"
    );
}

#[test]
fn a_setup_seen_by_its_owner_matches_the_games_first_view() {
    use domain::{Color, Game, Rules, Setup, Setups, Variant, Viewer};
    let red = Setup::random(Variant::Classic, Color::Red, 5);
    let blue = Setup::random(Variant::Classic, Color::Blue, 6);
    let mut setups = Setups::new();
    setups.set(red.clone());
    let own = setups.view(Viewer::Player(Color::Red));
    assert_eq!(own.len(), 40);
    // Nobody else sees anything of it, and Blue's empty setup shows nothing.
    assert!(setups.view(Viewer::Player(Color::Blue)).is_empty());
    assert!(setups.view(Viewer::Spectator).is_empty());
    assert_eq!(
        setups.done(),
        domain::ByColor {
            red: true,
            blue: false
        }
    );
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
