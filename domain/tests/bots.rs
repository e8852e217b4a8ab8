//! The bots decide only from what their player may know (docs/bots.md):
//! two games that differ only in the opponent's hidden ranks give a bot
//! the same input and so the same decisions; and the tactician makes the
//! plays its description promises in positions built for them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::bot::{Bot, DrawAnswer, Situation};
use domain::rng::SplitMix64;
use domain::{
    piece_char, Action, Color, Game, Move, MoveView, Piece, Rules, Setup, Square, Variant, View,
    Viewer,
};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// `setup` with the pieces on `a` and `b` swapped.
fn swapped(setup: &Setup, a: Square, b: Square) -> Setup {
    let pairs = setup.pieces().iter().map(|&(s, p)| {
        let s = if s == a {
            b
        } else if s == b {
            a
        } else {
            s
        };
        (s.to_string(), p.name().to_string())
    });
    domain::Placement::from_pairs(pairs)
        .validate(setup.variant(), setup.color())
        .unwrap()
}

fn rank_on(setup: &Setup, square: Square) -> Piece {
    setup.pieces().iter().find(|(s, _)| *s == square).unwrap().1
}

/// Whether the opponent piece on `square` is still unrevealed, in `game`.
fn hidden(game: &Game, square: Square) -> bool {
    game.full_truth()
        .piece_on(square)
        .is_some_and(|p| !p.revealed && !p.moved)
}

struct Side {
    game: Game,
    history: Vec<MoveView>,
}

impl Side {
    fn view(&self) -> View {
        self.game.view(Viewer::Player(Color::Red))
    }

    fn apply(&mut self, color: Color, m: Move) {
        let applied = self.game.apply(color, Action::play(m.from, m.to)).unwrap();
        let record = applied.record.unwrap();
        self.history
            .push(self.game.move_view(&record, Viewer::Player(Color::Red)));
    }
}

#[test]
fn hidden_ranks_of_the_opponent_never_change_a_bots_input_or_decision() {
    let variant = Variant::Classic;
    let rules = Rules::default();
    let mut compared = 0;
    for seed in 0..6u64 {
        let red = Bot::Tactician.setup(variant, Color::Red, seed);
        let blue = Bot::Tactician.setup(variant, Color::Blue, seed + 100);
        // Blue's flag, and a piece of another rank on Blue's back row.
        let flag = blue
            .pieces()
            .iter()
            .find(|(_, p)| *p == Piece::Flag)
            .unwrap()
            .0;
        let other = blue
            .pieces()
            .iter()
            .find(|(s, p)| s.rank() == 10 && *p != Piece::Flag && *p != Piece::Bomb)
            .map(|(s, _)| *s)
            .unwrap();
        let blue_b = swapped(&blue, flag, other);
        assert_ne!(rank_on(&blue, flag), rank_on(&blue_b, flag));
        let mut a = Side {
            game: Game::new(variant, rules, red.clone(), blue).unwrap(),
            history: Vec::new(),
        };
        let mut b = Side {
            game: Game::new(variant, rules, red, blue_b).unwrap(),
            history: Vec::new(),
        };
        assert_ne!(a.game.to_board_string(), b.game.to_board_string());
        let mut rng = SplitMix64::new(seed);
        for ply in 0..400u32 {
            if a.game.result().is_some() || !(hidden(&a.game, flag) && hidden(&a.game, other)) {
                break;
            }
            if a.game.turn() == Color::Red {
                let (view_a, view_b) = (a.view(), b.view());
                assert_eq!(view_a, view_b, "seed {seed} ply {ply}: the views differ");
                assert_eq!(a.history, b.history, "seed {seed} ply {ply}");
                let decide = |side: &Side, view: &View| {
                    let situation = Situation {
                        variant,
                        rules: &rules,
                        color: Color::Red,
                        view,
                        history: &side.history,
                    };
                    let m = Bot::Tactician.choose_move(&situation, u64::from(ply), &mut || false);
                    (m, Bot::Tactician.answer_draw(&situation))
                };
                let (choice_a, choice_b) = (decide(&a, &view_a), decide(&b, &view_b));
                assert_eq!(choice_a, choice_b, "seed {seed} ply {ply}");
                let m = choice_a.0.unwrap();
                if m.to == flag || m.to == other {
                    break; // the battle would tell the ranks apart
                }
                a.apply(Color::Red, m);
                b.apply(Color::Red, m);
                compared += 1;
            } else {
                // Blue plays the same random moves in both games, never
                // with the two swapped pieces.
                let moves: Vec<Move> = a
                    .game
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| m.from != flag && m.from != other)
                    .collect();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                a.apply(Color::Blue, m);
                b.apply(Color::Blue, m);
            }
        }
    }
    assert!(compared >= 100, "only {compared} decisions compared");
}

/// A game from pieces on named squares, `turn` to move.
fn position(pieces: &[(Color, &str, Piece)], turn: Color) -> Game {
    let mut board: Vec<char> = Square::all()
        .map(|s| if s.is_lake() { '_' } else { 'A' })
        .collect();
    for &(color, square, piece) in pieces {
        board[sq(square).index()] = piece_char(color, piece);
    }
    let text: String = board.into_iter().collect();
    Game::from_position(&text, Variant::Classic, Rules::default(), turn).unwrap()
}

/// Plays `blue_move`, then asks the tactician (Red) for its move.
fn red_answer(game: &mut Game, blue_move: (&str, &str)) -> Move {
    let record = game
        .apply(Color::Blue, Action::play(sq(blue_move.0), sq(blue_move.1)))
        .unwrap()
        .record
        .unwrap();
    let history = vec![game.move_view(&record, Viewer::Player(Color::Red))];
    let view = game.view(Viewer::Player(Color::Red));
    let rules = Rules::default();
    let situation = Situation {
        variant: Variant::Classic,
        rules: &rules,
        color: Color::Red,
        view: &view,
        history: &history,
    };
    Bot::Tactician
        .choose_move(&situation, 7, &mut || false)
        .unwrap()
}

const FLAGS: [(Color, &str, Piece); 2] = [
    (Color::Red, "a1", Piece::Flag),
    (Color::Blue, "j10", Piece::Flag),
];

#[test]
fn the_spy_takes_a_marshal_it_has_seen() {
    use Color::{Blue, Red};
    let mut pieces = vec![
        (Blue, "e6", Piece::Marshal),
        (Red, "e5", Piece::Sergeant),
        (Red, "f5", Piece::Spy),
        (Red, "b2", Piece::Captain),
    ];
    pieces.extend(FLAGS);
    let mut game = position(&pieces, Blue);
    // The marshal takes the sergeant and shows itself; the spy is next to it.
    let m = red_answer(&mut game, ("e6", "e5"));
    assert_eq!((m.from, m.to), (sq("f5"), sq("e5")));
}

#[test]
fn known_weaker_pieces_are_taken_and_known_stronger_ones_fled() {
    use Color::{Blue, Red};
    // A blue sergeant shows itself by taking a scout: the major takes it.
    let mut pieces = vec![
        (Blue, "e6", Piece::Sergeant),
        (Red, "e5", Piece::Scout),
        (Red, "e4", Piece::Major),
        (Red, "b2", Piece::Captain),
    ];
    pieces.extend(FLAGS);
    let mut game = position(&pieces, Blue);
    let m = red_answer(&mut game, ("e6", "e5"));
    assert_eq!((m.from, m.to), (sq("e4"), sq("e5")));

    // A blue general shows itself the same way: the captain next to it
    // steps away instead of attacking.
    let mut pieces = vec![
        (Blue, "e6", Piece::General),
        (Red, "e5", Piece::Scout),
        (Red, "e4", Piece::Captain),
        (Red, "b2", Piece::Sergeant),
    ];
    pieces.extend(FLAGS);
    let mut game = position(&pieces, Blue);
    let m = red_answer(&mut game, ("e6", "e5"));
    assert_eq!(
        m.from,
        sq("e4"),
        "{m}: the captain stays next to the general"
    );
    assert_ne!(m.to, sq("e5"), "the captain attacks a known general");
}

#[test]
fn every_bot_plays_only_legal_moves_to_the_end_in_every_variant() {
    for variant in Variant::ALL {
        for seed in 0..4u64 {
            let rules = Rules {
                max_plies: Some(600),
                ..Rules::default()
            };
            let bots = [Bot::Tactician, Bot::Random];
            let mut game = Game::new(
                variant,
                rules,
                bots[0].setup(variant, Color::Red, seed),
                bots[1].setup(variant, Color::Blue, seed),
            )
            .unwrap();
            let mut histories: [Vec<MoveView>; 2] = [Vec::new(), Vec::new()];
            while game.result().is_none() {
                let color = game.turn();
                let view = game.view(Viewer::Player(color));
                let situation = Situation {
                    variant,
                    rules: &rules,
                    color,
                    view: &view,
                    history: &histories[color.index()],
                };
                let bot = bots[color.index()];
                // Not the player to move: no move.
                let other = game.view(Viewer::Player(color.opponent()));
                let waiting = Situation {
                    color: color.opponent(),
                    view: &other,
                    ..situation
                };
                assert_eq!(bot.choose_move(&waiting, seed, &mut || false), None);
                let m = bot
                    .choose_move(&situation, seed + u64::from(game.ply()), &mut || false)
                    .unwrap();
                let record = game
                    .apply(color, Action::play(m.from, m.to))
                    .unwrap_or_else(|e| panic!("{bot:?} played {m} in {variant}: {e}"))
                    .record
                    .unwrap();
                for c in Color::ALL {
                    histories[c.index()].push(game.move_view(&record, Viewer::Player(c)));
                }
            }
            assert!(game.result().is_some());
        }
    }
}

#[test]
fn an_exhausted_budget_still_gives_a_legal_move() {
    let rules = Rules::default();
    let game = Game::new(
        Variant::Classic,
        rules,
        Setup::random(Variant::Classic, Color::Red, 3),
        Setup::random(Variant::Classic, Color::Blue, 3),
    )
    .unwrap();
    let view = game.view(Viewer::Player(Color::Red));
    let situation = Situation {
        variant: Variant::Classic,
        rules: &rules,
        color: Color::Red,
        view: &view,
        history: &[],
    };
    let mut asked = 0;
    let m = Bot::Tactician
        .choose_move(&situation, 1, &mut || {
            asked += 1;
            true
        })
        .unwrap();
    assert_eq!(asked, 1, "the budget is asked between candidates");
    assert!(game.legal_moves().contains(&m));
    assert_eq!(Bot::Random.answer_draw(&situation), DrawAnswer::Decline);
}

#[test]
fn memory_keeps_what_a_hidden_defender_proved() {
    use Color::{Blue, Red};
    let mut board: Vec<char> = Square::all()
        .map(|s| if s.is_lake() { '_' } else { 'A' })
        .collect();
    for (color, square, piece) in [
        (Red, "e5", Piece::General),
        (Red, "b2", Piece::Captain),
        (Blue, "e6", Piece::Marshal),
        (Blue, "a10", Piece::Scout),
    ]
    .into_iter()
    .chain(FLAGS)
    {
        board[sq(square).index()] = piece_char(color, piece);
    }
    let rules = Rules {
        silent_defense: true,
        ..Rules::default()
    };
    let text: String = board.into_iter().collect();
    let mut game = Game::from_position(&text, Variant::Classic, rules, Red).unwrap();
    let mut history = Vec::new();
    for (color, from, to) in [(Red, "e5", "e6"), (Blue, "a10", "a9")] {
        let record = game
            .apply(color, Action::play(sq(from), sq(to)))
            .unwrap()
            .record
            .unwrap();
        history.push(game.move_view(&record, Viewer::Player(Red)));
    }
    let view = game.view(Viewer::Player(Red));
    let defender = view.board.iter().find(|p| p.square == sq("e6")).unwrap();
    assert_eq!(
        defender.piece, None,
        "silent defense keeps the marshal hidden"
    );
    let memory = domain::bot::Memory::recall(Red, &view, &history);
    let belief = memory.at(sq("e6")).unwrap();
    assert_eq!(belief.beat, 9, "it beat a general: a bomb or the marshal");
    assert!(!belief.moved);
    assert!(memory.at(sq("a9")).unwrap().moved);
    assert_eq!(memory.at(sq("e5")), None, "the square is empty");
}
