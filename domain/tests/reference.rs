//! Differential test: an independent, deliberately naive implementation of
//! docs/rules.md "Movement" and the two-square rule's precise statement,
//! written from the text alone, must agree with `Game::legal_moves` in every
//! position of many games played by a policy that keeps bouncing pieces back
//! and forth (so the two-square rule is hit all the time, for scouts too).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use domain::playout::random_game;
use domain::rng::SplitMix64;
use domain::{
    Action, Color, EndReason, Game, GameResult, Move, Outcome, Piece, PieceId, Rules, Square,
    Variant,
};

#[derive(Clone, Copy)]
struct Played {
    color: Color,
    piece: PieceId,
    from: Square,
    to: Square,
}

fn sq(file: i8, rank: i8) -> Option<Square> {
    if !(0..=9).contains(&file) || !(1..=10).contains(&rank) {
        return None;
    }
    Square::from_file_rank(file as u8, rank as u8)
}

/// Direction of a straight move along its line: +1 or -1, and whether the
/// line is a file (vertical).
fn axis(from: Square, to: Square) -> (bool, i8) {
    if from.file() == to.file() {
        (true, if to.rank() > from.rank() { 1 } else { -1 })
    } else {
        (false, if to.file() > from.file() { 1 } else { -1 })
    }
}

fn span(m: (Square, Square), vertical: bool) -> (u8, u8) {
    let (a, b) = if vertical {
        (m.0.rank(), m.1.rank())
    } else {
        (m.0.file(), m.1.file())
    };
    (a.min(b), a.max(b))
}

fn reference_moves(game: &Game, history: &[Played], color: Color) -> BTreeSet<(Square, Square)> {
    let rules = game.rules();
    let mut moves = BTreeSet::new();
    for p in game.full_truth().pieces().filter(|p| p.color == color) {
        if matches!(p.piece, Piece::Bomb | Piece::Flag) {
            continue;
        }
        for (df, dr) in [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)] {
            let mut steps = 0;
            let (mut f, mut r) = (p.square.file() as i8, p.square.rank() as i8);
            loop {
                f += df;
                r += dr;
                steps += 1;
                let Some(to) = sq(f, r) else { break };
                if to.is_lake() {
                    break;
                }
                match game.full_truth().piece_on(to) {
                    None => {
                        moves.insert((p.square, to));
                    }
                    Some(q) => {
                        if q.color != color && (steps == 1 || rules.scout_strike_after_move) {
                            moves.insert((p.square, to));
                        }
                        break;
                    }
                }
                if p.piece != Piece::Scout {
                    break;
                }
            }
        }
    }
    // The two-square rule, word for word.
    let n = rules.two_square_limit as usize;
    let own: Vec<&Played> = history.iter().filter(|m| m.color == color).collect();
    if own.len() < n {
        return moves;
    }
    let last_n = &own[own.len() - n..];
    let piece = last_n[0].piece;
    let (vertical, _) = axis(last_n[0].from, last_n[0].to);
    let line = |s: Square| if vertical { s.file() } else { s.rank() };
    let same_piece = last_n.iter().all(|m| m.piece == piece);
    let same_line = last_n.iter().all(|m| {
        axis(m.from, m.to).0 == vertical
            && line(m.from) == line(last_n[0].from)
            && line(m.to) == line(last_n[0].from)
    });
    let alternating = last_n
        .windows(2)
        .all(|w| axis(w[0].from, w[0].to).1 == -axis(w[1].from, w[1].to).1);
    if !(same_piece && same_line && alternating) {
        return moves;
    }
    // Borders k (between k and k + 1) crossed by every move.
    let common: Vec<u8> = (0..10u8)
        .filter(|&k| {
            last_n.iter().all(|m| {
                let (lo, hi) = span((m.from, m.to), vertical);
                lo <= k && k < hi
            })
        })
        .collect();
    if common.is_empty() {
        return moves;
    }
    let back = -axis(last_n[n - 1].from, last_n[n - 1].to).1;
    let Some(at) = game.full_truth().pieces().find(|p| p.id == piece) else {
        return moves;
    };
    moves.retain(|&(from, to)| {
        if from != at.square {
            return true;
        }
        let (v, dir) = axis(from, to);
        if v != vertical || dir != back {
            return true;
        }
        let (lo, hi) = span((from, to), vertical);
        !common.iter().any(|&k| lo <= k && k < hi)
    });
    moves
}

/// docs/rules.md "Battle", read literally.
fn reference_battle(attacker: Piece, defender: Piece, aggressor_advantage: bool) -> Outcome {
    let strength = |p: Piece| match p {
        Piece::Marshal => 10,
        Piece::General => 9,
        Piece::Colonel => 8,
        Piece::Major => 7,
        Piece::Captain => 6,
        Piece::Lieutenant => 5,
        Piece::Sergeant => 4,
        Piece::Miner => 3,
        Piece::Scout => 2,
        Piece::Spy => 1,
        Piece::Bomb | Piece::Flag => 0,
    };
    if defender == Piece::Flag {
        return Outcome::AttackerWins;
    }
    if defender == Piece::Bomb {
        return if attacker == Piece::Miner {
            Outcome::AttackerWins
        } else {
            Outcome::DefenderWins
        };
    }
    if attacker == Piece::Spy && defender == Piece::Marshal {
        return Outcome::AttackerWins;
    }
    let (a, d) = (strength(attacker), strength(defender));
    if a > d {
        Outcome::AttackerWins
    } else if a < d {
        Outcome::DefenderWins
    } else if aggressor_advantage {
        Outcome::AttackerWins
    } else {
        Outcome::BothLose
    }
}

#[test]
fn legal_moves_match_a_naive_reading_of_the_rules() {
    let mut positions = 0u32;
    let mut banned_seen = 0u32;
    for seed in 0..96u64 {
        let variant = Variant::ALL[(seed % 3) as usize];
        let rules = Rules {
            two_square_limit: [2, 3, 5, 4][(seed / 3 % 4) as usize],
            scout_strike_after_move: seed % 7 != 0,
            aggressor_advantage: seed % 5 == 0,
            silent_defense: seed % 4 == 1,
            max_plies: (seed % 11 == 3).then_some(150),
            max_plies_without_battle: (seed % 13 == 5).then_some(40),
            ..Rules::default()
        };
        let mut game = random_game(variant, rules, seed).unwrap();
        let mut rng = SplitMix64::new(seed * 31 + 7);
        let mut history: Vec<Played> = Vec::new();
        for _ in 0..400 {
            if game.result().is_some() {
                break;
            }
            let engine: BTreeSet<(Square, Square)> =
                game.legal_moves().iter().map(|m| (m.from, m.to)).collect();
            let reference = reference_moves(&game, &history, game.turn());
            assert_eq!(
                engine,
                reference,
                "seed {seed}, ply {}: engine and reference differ\n{}",
                game.ply(),
                game.to_board_string()
            );
            positions += 1;
            let color = game.turn();
            // Prefer moving the piece that moved last back along its line.
            let last = history.iter().rev().find(|m| m.color == color).copied();
            let mut pick: Option<Move> = None;
            if let Some(last) = last {
                let (vertical, dir) = axis(last.from, last.to);
                let back: Vec<Move> = game
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| m.from == last.to && axis(m.from, m.to) == (vertical, -dir))
                    .collect();
                let all_back = game
                    .full_truth()
                    .pieces()
                    .find(|p| p.id == last.piece)
                    .is_some_and(|p| p.square == last.to);
                if all_back && back.is_empty() {
                    banned_seen += 1;
                }
                if !back.is_empty() && rng.below(10) < 8 {
                    pick = Some(back[rng.below(back.len())]);
                }
            }
            let m = match pick {
                Some(m) => m,
                None => {
                    let legal = game.legal_moves();
                    legal[rng.below(legal.len())]
                }
            };
            let mover = game.full_truth().piece_on(m.from).unwrap();
            let target = game.full_truth().piece_on(m.to);
            let long =
                m.from.file().abs_diff(m.to.file()) + m.from.rank().abs_diff(m.to.rank()) > 1;
            let quiet_before = game.plies_without_battle();
            let applied = game.apply(color, Action::play(m.from, m.to)).unwrap();
            let record = applied.record.unwrap();
            history.push(Played {
                color,
                piece: mover.id,
                from: m.from,
                to: m.to,
            });
            // Battle and revealing.
            let expected = target
                .map(|t| reference_battle(mover.piece, t.piece, game.rules().aggressor_advantage));
            assert_eq!(record.battle.map(|b| b.outcome), expected, "seed {seed}");
            let mover_after = game.full_truth().pieces().find(|p| p.id == mover.id);
            if let Some(after) = mover_after {
                assert_eq!(after.revealed, mover.revealed || long || target.is_some());
                assert_eq!(after.square, m.to);
            } else {
                assert!(matches!(
                    expected,
                    Some(Outcome::DefenderWins | Outcome::BothLose)
                ));
            }
            if let Some(t) = target {
                let silent = game.rules().silent_defense && mover.piece != Piece::Scout;
                if let Some(after) = game.full_truth().pieces().find(|p| p.id == t.id) {
                    assert_eq!(after.revealed, t.revealed || !silent);
                    assert_eq!(after.square, m.to);
                }
            }
            // End of the game, in docs/rules.md's terms.
            let plies_quiet = if target.is_some() {
                0
            } else {
                quiet_before + 1
            };
            let next = color.opponent();
            let want = if target.is_some_and(|t| t.piece == Piece::Flag) {
                Some(GameResult {
                    winner: Some(color),
                    reason: EndReason::FlagCaptured,
                })
            } else if game.rules().max_plies.is_some_and(|n| game.ply() >= n)
                || game
                    .rules()
                    .max_plies_without_battle
                    .is_some_and(|n| plies_quiet >= n)
            {
                Some(GameResult {
                    winner: None,
                    reason: EndReason::MoveLimit,
                })
            } else if reference_moves(&game, &history, next).is_empty() {
                if reference_moves(&game, &history, color).is_empty() {
                    Some(GameResult {
                        winner: None,
                        reason: EndReason::BothImmobile,
                    })
                } else {
                    Some(GameResult {
                        winner: Some(color),
                        reason: EndReason::NoMoves,
                    })
                }
            } else {
                None
            };
            assert_eq!(game.result(), want, "seed {seed}, ply {}", game.ply());
            assert_eq!(game.plies_without_battle(), plies_quiet);
        }
    }
    assert!(positions > 20_000, "only {positions} positions compared");
    assert!(
        banned_seen > 1_000,
        "the two-square rule bit only {banned_seen} times"
    );
}
