//! Differential test of the more-squares rule: a naive implementation,
//! written from `docs/more-squares-rule.md` alone, must agree with the
//! engine in every position of many games played by a policy that chases
//! (captures next to an enemy piece, threatens, evades, and steers back
//! into earlier positions), so that the rule forbids moves often.
//!
//! The reference keeps the whole history and compares whole arrangements
//! (no hashes); it finds the chase anew at every position by walking back
//! through the history; and it asks the engine nothing but the rule-free
//! legal moves (the same game with the rule off, played alongside).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet, HashSet};

use domain::playout::random_game;
use domain::rng::SplitMix64;
use domain::{
    piece_char, Action, ActionError, Color, Game, IllegalMove, Move, Outcome, Piece, PieceId,
    Rules, Square, Variant,
};

/// The public arrangement: which piece (id, color) stands on which square.
type Arrangement = BTreeMap<Square, (Color, PieceId)>;

struct Ply {
    color: Color,
    piece: PieceId,
    from: Square,
    to: Square,
    /// A battle or a rescue happened.
    battle_or_rescue: bool,
    /// The opponent's pieces next to `to` right after the move, if the
    /// piece that moved stands there (it moved there, or won its battle).
    threatened: BTreeSet<PieceId>,
    /// The arrangement after the move (the opponent to move).
    after: Arrangement,
    ply: u32,
}

fn arrangement(game: &Game) -> Arrangement {
    game.full_truth()
        .pieces()
        .map(|p| (p.square, (p.color, p.id)))
        .collect()
}

fn neighbours(s: Square) -> impl Iterator<Item = Square> {
    let (f, r) = (s.file() as i8, s.rank() as i8);
    [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)]
        .into_iter()
        .filter_map(move |(df, dr)| {
            let (nf, nr) = (f + df, r + dr);
            ((0..=9).contains(&nf) && (1..=10).contains(&nr))
                .then(|| Square::from_file_rank(nf as u8, nr as u8))
                .flatten()
        })
}

fn opponents_next_to(arr: &Arrangement, by: Color, to: Square) -> BTreeSet<PieceId> {
    neighbours(to)
        .filter_map(|n| arr.get(&n))
        .filter(|(c, _)| *c != by)
        .map(|&(_, id)| id)
        .collect()
}

/// The chase of `color` (to move), found by walking back through the
/// history: the longest run, ending now, of (threat by `color`, evasion by
/// the opponent) pairs, in which no move but the first threat fought a
/// battle or made a rescue (those end every chase before them, and may
/// begin one). Returns the chaser's plies in it (oldest first) and the
/// pieces that evaded.
fn chase(history: &[Ply], color: Color) -> Option<(Vec<&Ply>, BTreeSet<PieceId>)> {
    let mut threats = Vec::new();
    let mut evading = BTreeSet::new();
    let mut i = history.len();
    while i >= 2 {
        let (threat, reply) = (&history[i - 2], &history[i - 1]);
        let is_threat = threat.color == color && !threat.threatened.is_empty();
        let is_evasion = reply.color != color
            && !reply.battle_or_rescue
            && threat.threatened.contains(&reply.piece);
        if !is_threat || !is_evasion {
            break;
        }
        threats.push(threat);
        evading.insert(reply.piece);
        i -= 2;
        if threat.battle_or_rescue {
            break;
        }
    }
    threats.reverse();
    (!threats.is_empty()).then_some((threats, evading))
}

/// The moves the rule forbids among `candidates`, each with the ply its
/// position stood at first in the chase.
fn forbidden(game: &Game, history: &[Ply], candidates: &[Move]) -> BTreeMap<(Square, Square), u32> {
    let mut out = BTreeMap::new();
    let color = game.turn();
    let Some((threats, evading)) = chase(history, color) else {
        return out;
    };
    // The engine remembers the last 128 positions of a chase.
    let remembered = &threats[threats.len().saturating_sub(128)..];
    let now = arrangement(game);
    let previous = threats.last().unwrap();
    for m in candidates {
        if now.contains_key(&m.to) {
            continue; // an attack: a battle ends the chase
        }
        let mut after = now.clone();
        let mover = after.remove(&m.from).unwrap();
        after.insert(m.to, mover);
        let chasing = opponents_next_to(&after, color, m.to)
            .iter()
            .any(|id| evading.contains(id));
        let back = previous.piece == mover.1 && previous.from == m.to && previous.to == m.from;
        if !chasing || back {
            continue;
        }
        if let Some(p) = remembered.iter().find(|p| p.after == after) {
            out.insert((m.from, m.to), p.ply);
        }
    }
    out
}

/// A chasing policy: now and then a capture that threatens, else evade a
/// threat if possible, else threaten; prefer moves into positions seen
/// before.
fn pick(game: &Game, seen: &HashSet<(Arrangement, Color)>, rng: &mut SplitMix64) -> Move {
    let moves = game.legal_moves();
    let now = arrangement(game);
    let by = game.turn();
    let quiet = |m: &Move| !now.contains_key(&m.to);
    let repeats = |m: &Move| {
        let mut after = now.clone();
        let p = after.remove(&m.from).unwrap();
        after.insert(m.to, p);
        seen.contains(&(after, by.opponent()))
    };
    let evasions: Vec<Move> = match game.full_truth().last_move() {
        Some(l) if l.battle.is_none_or(|b| b.outcome == Outcome::AttackerWins) => moves
            .iter()
            .copied()
            .filter(|m| quiet(m) && neighbours(l.to).any(|n| n == m.from))
            .collect(),
        _ => Vec::new(),
    };
    // Moves next to an opponent's piece, quiet ones or attacks that win (by
    // the true ranks), so that chases begun by a capture are common.
    let truth = game.full_truth();
    let wins = |m: &Move| {
        let strength = |s: Square| truth.piece_on(s).and_then(|p| p.piece.strength());
        matches!((strength(m.from), strength(m.to)), (Some(a), Some(d)) if a > d)
    };
    let threats: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            (quiet(m) || wins(m)) && {
                let mut after = now.clone();
                let p = after.remove(&m.from).unwrap();
                after.insert(m.to, p);
                !opponents_next_to(&after, by, m.to).is_empty()
            }
        })
        .collect();
    let captures: Vec<Move> = threats.iter().copied().filter(|m| !quiet(m)).collect();
    for (list, percent) in [(&captures, 40), (&evasions, 85), (&threats, 85)] {
        let again: Vec<Move> = list.iter().copied().filter(repeats).collect();
        if !again.is_empty() && rng.below(100) < percent {
            return again[rng.below(again.len())];
        }
        if !list.is_empty() && rng.below(100) < percent {
            return list[rng.below(list.len())];
        }
    }
    moves[rng.below(moves.len())]
}

/// A sparse position: each side a flag and two to four pieces that move one
/// square (a scout now and then) in the middle of the board, where they
/// meet and chase around the lakes.
fn sparse_game(seed: u64, rules: Rules) -> Game {
    let mut rng = SplitMix64::new(seed);
    let mut chars: Vec<char> = Square::all()
        .map(|s| if s.is_lake() { '_' } else { 'A' })
        .collect();
    chars[Square::from_file_rank(0, 1).unwrap().index()] = piece_char(Color::Red, Piece::Flag);
    chars[Square::from_file_rank(9, 10).unwrap().index()] = piece_char(Color::Blue, Piece::Flag);
    let ranks = [
        Piece::Marshal,
        Piece::General,
        Piece::Captain,
        Piece::Miner,
        Piece::Scout,
    ];
    for color in Color::ALL {
        let offset = rng.below(5);
        for k in 0..2 + rng.below(3) {
            loop {
                let square = Square::from_file_rank(rng.below(10) as u8, 3 + rng.below(6) as u8);
                let Some(square) = square.filter(|s| chars[s.index()] == 'A') else {
                    continue;
                };
                chars[square.index()] = piece_char(color, ranks[(k + offset) % 5]);
                break;
            }
        }
    }
    let board: String = chars.into_iter().collect();
    Game::from_position(&board, Variant::Classic, rules, Color::Red).unwrap()
}

#[test]
fn the_rule_matches_a_naive_reading_of_it() {
    let (mut positions, mut chased, mut refusals) = (0u32, 0u32, 0u32);
    // Positions with a chase on that a battle began, and refusals in them.
    let (mut begun_by_battle, mut battle_refusals) = (0u32, 0u32);
    for seed in 0..72u64 {
        let variant = Variant::ALL[(seed % 3) as usize];
        let rules = Rules {
            two_square_limit: [3, 2, 5][(seed / 3 % 3) as usize],
            scout_strike_after_move: seed % 4 != 1,
            ..Rules::tournament()
        };
        // A third of the games from full random setups, the rest sparse.
        let start = |rules| {
            if seed % 3 == 0 {
                (random_game(variant, rules, seed).unwrap(), 600)
            } else {
                (sparse_game(seed, rules), 300)
            }
        };
        let (mut game, plies) = start(rules);
        // The same game without the rule, played alongside: its legal moves
        // are the rule-free ones.
        let (mut free_game, _) = start(Rules {
            more_squares_rule: false,
            ..rules
        });
        let mut rng = SplitMix64::new(seed * 17 + 3);
        let mut history: Vec<Ply> = Vec::new();
        let mut seen = HashSet::new();
        seen.insert((arrangement(&game), game.turn()));
        while game.result().is_none() && game.ply() < plies {
            positions += 1;
            let engine: BTreeSet<(Square, Square)> =
                game.legal_moves().iter().map(|m| (m.from, m.to)).collect();
            let free: Vec<Move> = free_game.legal_moves().to_vec();
            let banned = forbidden(&game, &history, &free);
            let expected: BTreeSet<(Square, Square)> = free
                .iter()
                .map(|m| (m.from, m.to))
                .filter(|k| !banned.contains_key(k))
                .collect();
            assert_eq!(engine, expected, "seed {seed}, ply {}", game.ply());
            let found = chase(&history, game.turn());
            if found.is_some() {
                chased += 1;
            }
            if found.is_some_and(|(threats, _)| threats[0].battle_or_rescue) {
                begun_by_battle += 1;
            }
            let first_is_battle = chase(&history, game.turn())
                .is_some_and(|(threats, _)| threats[0].battle_or_rescue);
            for (&(from, to), &since_ply) in &banned {
                refusals += 1;
                battle_refusals += u32::from(first_is_battle);
                let mut g = game.clone();
                let r = g.apply(game.turn(), Action::play(from, to));
                assert_eq!(
                    r.unwrap_err(),
                    ActionError::Illegal(IllegalMove::MoreSquaresRule {
                        from,
                        to,
                        since_ply
                    }),
                    "seed {seed}, ply {}",
                    game.ply()
                );
                assert_eq!(g, game);
            }
            let m = pick(&game, &seen, &mut rng);
            let by = game.turn();
            let piece = game.full_truth().piece_on(m.from).unwrap().id;
            let record = game
                .apply(by, Action::play(m.from, m.to))
                .unwrap()
                .record
                .unwrap();
            free_game.apply(by, Action::play(m.from, m.to)).unwrap();
            let after = arrangement(&game);
            let stands = after.get(&m.to) == Some(&(by, piece));
            history.push(Ply {
                color: by,
                piece,
                from: m.from,
                to: m.to,
                battle_or_rescue: record.battle.is_some() || record.rescue.is_some(),
                threatened: if stands {
                    opponents_next_to(&after, by, m.to)
                } else {
                    BTreeSet::new()
                },
                after: after.clone(),
                ply: game.ply(),
            });
            seen.insert((after, game.turn()));
            // The chase survives the stored state.
            if game.ply() % 7 == 0 {
                let json = serde_json::to_string(&game).unwrap();
                assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), game);
            }
        }
    }
    println!(
        "{positions} positions, {chased} with a chase on ({begun_by_battle} begun by a battle), \
        {refusals} refusals ({battle_refusals} in a chase begun by a battle)"
    );
    assert!(positions > 15_000, "only {positions} positions");
    assert!(chased > 5_000, "only {chased} positions with a chase");
    assert!(refusals > 80, "only {refusals} refusals");
    assert!(
        begun_by_battle > 500,
        "only {begun_by_battle} positions in a chase begun by a battle"
    );
    assert!(
        battle_refusals > 8,
        "only {battle_refusals} refusals in a chase begun by a battle"
    );
}
