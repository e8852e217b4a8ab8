//! Stored-state versions: a format-1 document (written before the
//! more-squares rule existed) still loads; format 2 stores each player's
//! chase, reads it back equal, and refuses a chase that does not fit the game.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::{piece_char, Action, Color, Game, Piece, Rules, Square, Variant, FORMAT_VERSION};
use serde_json::Value;

const FORMAT_1: &str = include_str!("fixtures/state_format1.json");
const FORMAT_1_BOARD: &str = include_str!("fixtures/state_format1.board");

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn a_format_1_document_still_loads() {
    assert_eq!(FORMAT_VERSION, 2);
    let doc: Value = serde_json::from_str(FORMAT_1).unwrap();
    assert_eq!(doc["format"], 1);
    assert!(doc.get("chases").is_none());
    assert!(doc["rules"].get("more_squares_rule").is_none());
    let game: Game = serde_json::from_str(FORMAT_1).unwrap();
    assert_eq!(game.ply(), 150);
    assert_eq!(game.to_board_string(), FORMAT_1_BOARD.trim());
    assert!(!game.rules().more_squares_rule);
    assert!(game.rules().rescue);
    assert_eq!(game.legal_moves().len(), 23);
    // Written back, it is a format-2 document with no chases, which reads
    // back to the same game.
    let json = serde_json::to_string(&game).unwrap();
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["format"], 2);
    assert_eq!(
        doc["chases"],
        serde_json::json!({"red": null, "blue": null})
    );
    assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), game);
    // And play goes on.
    let mut game = game;
    let m = game.legal_moves()[0];
    game.apply(game.turn(), Action::play(m.from, m.to)).unwrap();
}

#[test]
fn a_format_1_document_cannot_carry_chases() {
    let mut doc: Value = serde_json::from_str(FORMAT_1).unwrap();
    doc["chases"] = serde_json::json!({"red": null, "blue": null});
    assert!(serde_json::from_value::<Game>(doc.clone()).is_ok());
    doc["chases"]["red"] =
        serde_json::json!({"since_ply": 149, "positions": ["0000000000000000"], "evading": []});
    assert!(serde_json::from_value::<Game>(doc).is_err());
}

/// A game from `pieces` on an empty board, tournament rules, Red to move.
fn position(pieces: &[(Color, Piece, &str)]) -> Game {
    let mut chars: Vec<char> = Square::all()
        .map(|s| if s.is_lake() { '_' } else { 'A' })
        .collect();
    for &(color, piece, square) in pieces {
        chars[sq(square).index()] = piece_char(color, piece);
    }
    let board: String = chars.into_iter().collect();
    Game::from_position(&board, Variant::Classic, Rules::tournament(), Color::Red).unwrap()
}

/// Red's marshal chases Blue's captain around the left lake (b4, c4, d4,
/// e4, e5, ...), each one step.
fn lake_chase() -> Game {
    position(&[
        (Color::Red, Piece::Marshal, "b3"),
        (Color::Red, Piece::Flag, "a1"),
        (Color::Blue, Piece::Captain, "c4"),
        (Color::Blue, Piece::Flag, "j10"),
    ])
}

fn play(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        let (a, b) = m.split_once('-').unwrap();
        game.apply(game.turn(), Action::play(sq(a), sq(b))).unwrap();
    }
}

fn round_trip(game: &Game) -> Value {
    let json = serde_json::to_string(game).unwrap();
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, game);
    serde_json::from_str(&json).unwrap()
}

#[test]
fn a_chase_round_trips_in_both_phases() {
    let mut game = lake_chase();
    play(&mut game, "b3-b4");
    // Awaiting Blue's evasion.
    let doc = round_trip(&game);
    assert_eq!(doc["chases"]["blue"], Value::Null);
    assert_eq!(doc["chases"]["red"]["since_ply"], 1);
    assert_eq!(doc["chases"]["red"]["evading"], serde_json::json!([]));
    play(&mut game, "c4-d4");
    // Blue has evaded; Red is to move.
    let doc = round_trip(&game);
    let red = &doc["chases"]["red"];
    assert_eq!(red["positions"].as_array().unwrap().len(), 1);
    assert_eq!(red["evading"], serde_json::json!([sq("c4").index()]));
    play(&mut game, "b4-c4 d4-e4 c4-d4");
    let doc = round_trip(&game);
    assert_eq!(
        doc["chases"]["red"]["positions"].as_array().unwrap().len(),
        3
    );
}

#[test]
fn a_chase_that_does_not_fit_the_game_is_refused() {
    let mut game = lake_chase();
    play(&mut game, "b3-b4 c4-d4 b4-c4");
    let doc = round_trip(&game);
    let tamper = |f: &dyn Fn(&mut Value)| {
        let mut d = doc.clone();
        f(&mut d);
        serde_json::from_value::<Game>(d)
    };
    assert!(tamper(&|_| {}).is_ok());
    let bad: [&dyn Fn(&mut Value); 11] = [
        &|d| d["rules"]["more_squares_rule"] = false.into(),
        &|d| d["chases"]["red"]["since_ply"] = 2.into(),
        &|d| d["chases"]["red"]["since_ply"] = u32::MAX.into(),
        &|d| {
            d["chases"]["red"]["since_ply"] = u32::MAX.into();
            d["ply"] = u32::MAX.into();
        },
        &|d| d["chases"]["red"]["positions"] = serde_json::json!([]),
        &|d| d["chases"]["red"]["positions"][1] = "0123".into(),
        &|d| d["chases"]["red"]["positions"][1] = "xyzxyzxyzxyzxyzx".into(),
        // The last position must be the one on the board.
        &|d| d["chases"]["red"]["positions"][1] = "0000000000000001".into(),
        // Only the opponent's pieces on the board can evade, once each.
        &|d| d["chases"]["red"]["evading"] = serde_json::json!([sq("b3").index()]),
        &|d| d["chases"]["red"]["evading"] = serde_json::json!([32, 32]),
        // Blue's chase would need Blue's last move to threaten.
        &|d| d["chases"]["blue"] = d["chases"]["red"].clone(),
    ];
    for (i, f) in bad.iter().enumerate() {
        assert!(tamper(*f).is_err(), "tampered chase {i} accepted");
    }
}

#[test]
fn a_chase_that_a_battle_should_have_ended_is_refused() {
    let tamper = |game: &Game, f: &dyn Fn(&mut Value)| {
        let mut d = round_trip(game);
        f(&mut d);
        serde_json::from_value::<Game>(d).map_err(|e| e.to_string())
    };
    // Red's marshal chases the captain (plies 1, 3), then takes the scout
    // on c3 next to the sergeant (ply 5): a new chase with one position.
    let mut game = position(&[
        (Color::Red, Piece::Marshal, "b3"),
        (Color::Red, Piece::Flag, "a1"),
        (Color::Blue, Piece::Captain, "c4"),
        (Color::Blue, Piece::Scout, "c3"),
        (Color::Blue, Piece::Sergeant, "d3"),
        (Color::Blue, Piece::Flag, "j10"),
    ]);
    play(&mut game, "b3-b4 c4-d4 b4-c4 d4-e4");
    let before = round_trip(&game)["chases"]["red"].clone();
    play(&mut game, "c4-c3");
    let doc = round_trip(&game);
    assert_eq!(doc["chases"]["red"]["since_ply"], 5);
    assert!(tamper(&game, &|_| {}).is_ok());
    let captain = serde_json::json!([sq("c4").index()]);
    // The chase from before the battle, continued through it.
    let mut positions = before["positions"].as_array().unwrap().clone();
    positions.push(doc["chases"]["red"]["positions"][0].clone());
    let err = tamper(&game, &|d| {
        d["chases"]["red"]["since_ply"] = 1.into();
        d["chases"]["red"]["positions"] = positions.clone().into();
    });
    assert!(err.unwrap_err().contains("battle"));
    // Or the old chase's evader kept as evading.
    let err = tamper(&game, &|d| d["chases"]["red"]["evading"] = captain.clone());
    assert!(err.unwrap_err().contains("battle"));

    // The evader answers by attacking: Red's chase must be gone.
    let mut game = position(&[
        (Color::Red, Piece::Marshal, "b3"),
        (Color::Red, Piece::Scout, "c3"),
        (Color::Red, Piece::Sergeant, "d3"),
        (Color::Red, Piece::Flag, "a1"),
        (Color::Blue, Piece::Captain, "c4"),
        (Color::Blue, Piece::Flag, "j10"),
    ]);
    play(&mut game, "b3-b4");
    let chase = round_trip(&game)["chases"]["red"].clone();
    play(&mut game, "c4-c3");
    let doc = round_trip(&game);
    assert_eq!(doc["chases"]["red"], Value::Null);
    assert_eq!(doc["chases"]["blue"]["since_ply"], 2);
    let err = tamper(&game, &|d| {
        d["chases"]["red"] = chase.clone();
        d["chases"]["red"]["evading"] = captain.clone();
    });
    assert!(err.unwrap_err().contains("no evasion"));

    // An attacker that lost threatens nothing, so no chase can follow its
    // move: the piece on the square is the defender.
    let mut game = position(&[
        (Color::Red, Piece::Scout, "f6"),
        (Color::Red, Piece::General, "e8"),
        (Color::Red, Piece::Flag, "a1"),
        (Color::Blue, Piece::Major, "f7"),
        (Color::Blue, Piece::Captain, "f8"),
        (Color::Blue, Piece::Flag, "j10"),
    ]);
    play(&mut game, "f6-f7");
    assert_eq!(round_trip(&game)["chases"]["red"], Value::Null);
    let err = tamper(&game, &|d| {
        d["chases"]["red"] = serde_json::json!({
            "since_ply": 1, "positions": ["0000000000000001"], "evading": []
        });
    });
    assert!(err.unwrap_err().contains("does not stand where it moved"));
}
