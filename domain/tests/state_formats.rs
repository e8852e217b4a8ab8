//! Stored-state versions: a format-1 document (written before the
//! more-squares rule existed) still loads; format 2 stores each player's
//! chase, reads it back equal, and refuses a chase that does not fit the game.
//! Format-2 games stored before a capture could begin a chase load and play
//! on as they were stored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::{
    piece_char, Action, ActionError, Color, Game, IllegalMove, Move, Piece, Rules, Square, Variant,
    FORMAT_VERSION,
};
use serde_json::Value;

const FORMAT_1: &str = include_str!("fixtures/state_format1.json");
const FORMAT_1_BOARD: &str = include_str!("fixtures/state_format1.board");
/// Format-2 games written before a capture could begin a chase.
const QUIET_CHASES: &str = include_str!("fixtures/state_format2_quiet_chases.txt");

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

/// The lake chase's moves after its first one, up to Red's move that would
/// close the ring (b5-b4, refused: it brings back ply 1's position).
const LAKE_RING: &str = "c4-d4 b4-c4 d4-e4 c4-d4 e4-e5 d4-e4 e5-e6 e4-e5 e6-e7 e5-e6 e7-d7 \
    e6-e7 d7-c7 e7-d7 c7-b7 d7-c7 b7-b6 c7-b7 b6-b5 b7-b6 b5-b4 b6-b5 b4-c4";

/// Red's colonel is about to take Blue's scout on f7, next to Blue's major
/// (conformance/more_squares.txt, "a chase begun by a capture").
fn capture() -> Game {
    position(&[
        (Color::Red, Piece::Colonel, "f6"),
        (Color::Red, Piece::Flag, "a1"),
        (Color::Blue, Piece::Scout, "f7"),
        (Color::Blue, Piece::Major, "f8"),
        (Color::Blue, Piece::Flag, "j10"),
    ])
}

/// After the capture, the major evades round f8 g8 g7 f7 and the colonel
/// follows; then g7-f7 would bring back the position right after the
/// capture (ply 1).
const CAPTURE_CHASE: &str = "f8-g8 f7-f8 g8-g7 f8-g8 g7-f7 g8-g7 f7-f8";

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

/// A stored game from the format-2 fixture written before a capture could
/// begin a chase.
fn quiet_chase_fixture(name: &str) -> &'static str {
    QUIET_CHASES
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .unwrap()
}

/// Both stored forms of the fixture `name` (`NAME_JSON`, `NAME_COMPACT`),
/// read back: they must be the same game.
fn old_game(name: &str) -> Game {
    let json: Game = serde_json::from_str(quiet_chase_fixture(&format!("{name}_JSON"))).unwrap();
    let compact = Game::from_compact(quiet_chase_fixture(&format!("{name}_COMPACT"))).unwrap();
    assert_eq!(json, compact, "{name}");
    json
}

/// The player to move's legal moves are exactly the moves `apply` accepts:
/// every move from one of their pieces to any square is tried.
fn legal_moves_agree_with_apply(game: &Game) {
    let by = game.turn();
    let legal = game.legal_moves();
    for from in Square::all() {
        if game
            .full_truth()
            .piece_on(from)
            .is_none_or(|p| p.color != by)
        {
            continue;
        }
        for to in Square::all() {
            let accepted = game.clone().apply(by, Action::play(from, to)).is_ok();
            assert_eq!(
                accepted,
                legal.contains(&Move { from, to }),
                "{from}-{to} at ply {}",
                game.ply()
            );
        }
    }
}

/// Plays `moves`, checking before each that the legal moves and `apply`
/// agree, and that the game survives both stored forms.
fn play_checked(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        legal_moves_agree_with_apply(game);
        assert_eq!(&Game::from_compact(&game.to_compact()).unwrap(), game);
        round_trip(game);
        play(game, m);
    }
}

fn refusal(game: &Game, m: &str) -> Option<u32> {
    let (a, b) = m.split_once('-').unwrap();
    let (from, to) = (sq(a), sq(b));
    let mut tried = game.clone();
    let refused = match tried.apply(game.turn(), Action::play(from, to)) {
        Err(ActionError::Illegal(IllegalMove::MoreSquaresRule { since_ply, .. })) => {
            Some(since_ply)
        }
        Err(e) => panic!("{m}: {e}"),
        Ok(_) => None,
    };
    assert_eq!(
        refused.is_some(),
        !game.legal_moves().contains(&Move { from, to }),
        "{m}: legal_moves and apply disagree"
    );
    refused
}

#[test]
fn a_quiet_chase_stored_before_captures_could_begin_one_reads_back_and_plays_on() {
    // Stored while Blue was to evade, and just after the evasion: both
    // forms read back to exactly the game this version plays from the same
    // moves (a quiet chase is what it was).
    let ring: Vec<&str> = LAKE_RING.split_whitespace().collect();
    for (name, played) in [("LAKE_AWAITING", 10), ("LAKE_EVADED", 11)] {
        let mut old = old_game(name);
        let mut now = lake_chase();
        play(&mut now, "b3-b4");
        play(&mut now, &ring[..played].join(" "));
        assert_eq!(old, now, "{name}");
        assert_eq!(
            old.to_compact(),
            quiet_chase_fixture(&format!("{name}_COMPACT"))
        );
        // And it goes on to the same refusal, remembered from before the
        // game was stored.
        play_checked(&mut old, &ring[played..].join(" "));
        assert_eq!(refusal(&old, "b5-b4"), Some(1), "{name}");
        legal_moves_agree_with_apply(&old);
    }
}

#[test]
fn a_game_stored_just_after_a_capture_before_it_could_begin_a_chase_plays_on() {
    // Written before the change: the capture next to the major stored no
    // chase. It reads back as stored: no chase is made up afterwards.
    let mut old = old_game("CAPTURE");
    let doc = round_trip(&old);
    assert_eq!(
        doc["chases"],
        serde_json::json!({"red": null, "blue": null})
    );
    // A game played now from the same start stores the capture's chase;
    // otherwise the two are the same game.
    let mut now = capture();
    play(&mut now, "f6-f7");
    let new_doc = round_trip(&now);
    assert_eq!(new_doc["chases"]["red"]["since_ply"], 1);
    let mut without_chase = new_doc.clone();
    without_chase["chases"]["red"] = Value::Null;
    assert_eq!(doc, without_chase);
    // The old game plays on; its chase begins with the next quiet threat
    // (ply 3), so the position right after the capture is not remembered
    // in it and g7-f7 stays legal there. A game begun after the change
    // refuses it.
    play_checked(&mut old, CAPTURE_CHASE);
    play_checked(&mut now, CAPTURE_CHASE);
    assert_eq!(round_trip(&old)["chases"]["red"]["since_ply"], 3);
    assert_eq!(refusal(&old, "g7-f7"), None);
    assert_eq!(refusal(&now, "g7-f7"), Some(1));
    legal_moves_agree_with_apply(&old);
    legal_moves_agree_with_apply(&now);
}

#[test]
fn a_chase_begun_by_a_capture_round_trips_in_both_forms() {
    let mut game = capture();
    play(&mut game, "f6-f7");
    // Awaiting the major's evasion: the last move is the battle.
    let doc = round_trip(&game);
    assert_eq!(doc["last_move"]["battle"]["outcome"], "attacker_wins");
    assert_eq!(
        doc["chases"]["red"],
        serde_json::json!({
            "since_ply": 1,
            "positions": [doc["chases"]["red"]["positions"][0].clone()],
            "evading": []
        })
    );
    assert_eq!(Game::from_compact(&game.to_compact()).unwrap(), game);
    // Each step of the chase, up to the refusal, survives both forms.
    play_checked(&mut game, CAPTURE_CHASE);
    let doc = round_trip(&game);
    assert_eq!(doc["chases"]["red"]["since_ply"], 1);
    assert_eq!(
        doc["chases"]["red"]["positions"].as_array().unwrap().len(),
        4
    );
    let back = Game::from_compact(&game.to_compact()).unwrap();
    assert_eq!(back, game);
    assert_eq!(refusal(&back, "g7-f7"), Some(1));
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
