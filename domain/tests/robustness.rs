//! Robustness: a stored state that was tampered with or garbled must either be
//! refused with an error or load as a game on which every action (any pair of
//! squares, any rescue, any other action) and every view works without a
//! panic. Runs in debug mode, so arithmetic overflow would panic here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::playout::{random_game, random_playout};
use domain::rng::SplitMix64;
use domain::{Action, Color, Game, Piece, Rescue, Rules, Square, Variant, Viewer};
use serde_json::{json, Value};

fn midgame(seed: u64) -> Game {
    let rules = Rules {
        rescue: true,
        silent_defense: seed.is_multiple_of(2),
        // Chases (more-squares rule) in the stored state, most of the time.
        more_squares_rule: !seed.is_multiple_of(3),
        ..Rules::default()
    };
    let mut game = random_game(Variant::Classic, rules, seed).unwrap();
    random_playout(&mut game, seed, 80);
    game
}

fn squares() -> Vec<Square> {
    Square::all().collect()
}

/// Every action and view on `game` must not panic; refused actions leave the
/// game unchanged, accepted ones leave a state that round-trips.
fn exercise_fully(game: &Game) {
    let all = squares();
    for by in Color::ALL {
        for &from in &all {
            for &to in &all {
                let mut g = game.clone();
                match g.apply(by, Action::play(from, to)) {
                    Ok(_) => round_trips(&g),
                    Err(_) => assert_eq!(&g, game),
                }
            }
        }
    }
    exercise_sample(game, 1, 400);
}

/// Random actions (moves with and without rescues, draw, resign, timeout).
fn exercise_sample(game: &Game, seed: u64, count: usize) {
    let all = squares();
    let mut rng = SplitMix64::new(seed);
    for viewer in [
        Viewer::Player(Color::Red),
        Viewer::Player(Color::Blue),
        Viewer::Spectator,
    ] {
        let view = game.view(viewer);
        serde_json::to_string(&view).unwrap();
    }
    let _ = game.legal_moves();
    let _ = game.to_board_string();
    for _ in 0..count {
        let by = Color::ALL[rng.below(2)];
        let from = all[rng.below(100)];
        let to = all[rng.below(100)];
        let action = match rng.below(8) {
            0 => Action::Resign,
            1 => Action::OfferDraw,
            2 => Action::AcceptDraw,
            3 => Action::DeclineDraw,
            4 => Action::Timeout,
            5 | 6 => Action::Move {
                from,
                to,
                rescue: Some(Rescue {
                    piece: Piece::ALL[rng.below(Piece::ALL.len())],
                    square: all[rng.below(100)],
                }),
            },
            _ => Action::play(from, to),
        };
        let mut g = game.clone();
        match g.apply(by, action) {
            Ok(_) => round_trips(&g),
            Err(_) => assert_eq!(&g, game),
        }
    }
}

fn round_trips(game: &Game) {
    let json = serde_json::to_string(game).unwrap();
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, game);
    for viewer in [Viewer::Player(Color::Red), Viewer::Spectator] {
        let _ = game.view(viewer);
    }
}

fn load(value: &Value) -> Option<Game> {
    serde_json::from_value::<Game>(value.clone()).ok()
}

#[test]
fn huge_ply_counters_do_not_overflow() {
    let game = midgame(3);
    assert!(game.result().is_none());
    let mut value = serde_json::to_value(&game).unwrap();
    value["ply"] = json!(u32::MAX);
    value["plies_without_battle"] = json!(u32::MAX);
    if let Some(g) = load(&value) {
        exercise_fully(&g);
        let mut g2 = g.clone();
        let m = g2.legal_moves()[0];
        g2.apply(g2.turn(), Action::play(m.from, m.to)).unwrap();
    }
    // Fewer plies without battle than plies is fine; more is not possible.
    value["ply"] = json!(3);
    value["plies_without_battle"] = json!(7);
    assert!(
        load(&value).is_none(),
        "plies_without_battle > ply accepted"
    );
}

#[test]
fn tampered_fields_never_panic() {
    let game = midgame(5);
    let base = serde_json::to_value(&game).unwrap();
    let turn = if game.turn() == Color::Red {
        "red"
    } else {
        "blue"
    };
    let red_piece = base["pieces"][0]["id"].clone();
    let mut tampered: Vec<Value> = Vec::new();

    // Recent moves that no real game can produce.
    let mut v = base.clone();
    let weird: Vec<Value> = [
        "a1", "j10", "c5", "e4", "e4", "f5", "a1", "a10", "j1", "j10",
    ]
    .windows(2)
    .map(|w| json!({"piece": red_piece, "from": w[0], "to": w[1]}))
    .collect();
    v["recent_moves"]["red"] = Value::Array(weird);
    tampered.push(v);

    // A last move that never happened.
    let mut v = base.clone();
    v["last_move"] = json!({"ply": u32::MAX, "color": "blue", "from": "a1", "to": "j10",
        "piece": "bomb", "piece_id": 255, "piece_revealed": false,
        "battle": {"defender": "flag", "defender_id": 255, "defender_revealed": false,
                   "outcome": "both_lose"}, "rescue": {"piece": "bomb", "square": "c5"}});
    tampered.push(v);

    // The other player to move; a draw offer; a finished game.
    let mut v = base.clone();
    v["turn"] = json!(if turn == "red" { "blue" } else { "red" });
    v["draw_offer"] = json!(turn);
    tampered.push(v);
    let mut v = base.clone();
    v["result"] = json!({"winner": null, "reason": "draw_agreed"});
    v["draw_offer"] = json!("red");
    tampered.push(v);

    // Rescuers naming the other color's pieces or unknown ids.
    let mut v = base.clone();
    v["rescuers"]["red"] = json!([base["pieces"][79]["id"]]);
    v["rescuers"]["blue"] = json!([red_piece]);
    tampered.push(v);
    let mut v = base.clone();
    v["rescuers"]["red"] = json!([250]);
    tampered.push(v);

    // Piece ids out of range.
    let mut v = base.clone();
    v["pieces"][0]["id"] = json!(200);
    tampered.push(v);

    let mut loaded = 0;
    for v in &tampered {
        if let Some(g) = load(v) {
            loaded += 1;
            exercise_sample(&g, 7, 2_000);
        }
    }
    assert!(
        loaded > 0,
        "every tampered state was refused: the test checks nothing"
    );
}

#[test]
fn garbled_documents_never_panic() {
    let mut rng = SplitMix64::new(11);
    let mut parsed = 0;
    for seed in 0..4 {
        let json = serde_json::to_string(&midgame(seed)).unwrap();
        let bytes = json.as_bytes();
        for _ in 0..300 {
            let mut b = bytes.to_vec();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(b.len());
                b[i] = match rng.below(4) {
                    0 => b'0' + rng.below(10) as u8,
                    1 => b"abcdefghij"[rng.below(10)],
                    2 => b"[]{}\",:"[rng.below(7)],
                    _ => rng.below(128) as u8,
                };
            }
            if let Ok(g) = serde_json::from_slice::<Game>(&b) {
                parsed += 1;
                exercise_sample(&g, seed, 50);
            }
        }
    }
    assert!(
        parsed > 0,
        "no garbled document parsed: the test checks nothing"
    );
}

#[test]
fn a_stored_game_on_with_a_stuck_player_is_refused() {
    // Blue to move with only a flag and bombs: over at once (red no_moves).
    let board: String = Square::all()
        .map(|s| match s.to_string().as_str() {
            "a1" => domain::piece_char(Color::Red, Piece::Flag),
            "e4" => domain::piece_char(Color::Red, Piece::Sergeant),
            "j10" => domain::piece_char(Color::Blue, Piece::Flag),
            "i10" | "j9" => domain::piece_char(Color::Blue, Piece::Bomb),
            _ if s.is_lake() => '_',
            _ => 'A',
        })
        .collect();
    let game =
        Game::from_position(&board, Variant::Classic, Rules::default(), Color::Blue).unwrap();
    assert!(game.result().is_some());
    let mut value = serde_json::to_value(&game).unwrap();
    assert!(load(&value).is_some());
    value["result"] = Value::Null;
    assert!(
        load(&value).is_none(),
        "a game on with a stuck player was accepted"
    );
    // A finished game with a draw offer is refused too.
    let mut value = serde_json::to_value(&game).unwrap();
    value["draw_offer"] = json!("red");
    assert!(
        load(&value).is_none(),
        "a finished game with a draw offer was accepted"
    );
}
