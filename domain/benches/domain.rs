//! Benchmarks: `cargo bench -p domain`.
//!
//! The global allocator is divan's counting profiler, so every benchmark
//! also reports how many heap allocations one iteration makes: the playout
//! and move-generation rows must show none.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use domain::playout::{random_game, random_playout};
use domain::rng::SplitMix64;
use domain::{Action, Game, Move, Rules, Square, Variant, Viewer};

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

const SEED: u64 = 7;

fn opening() -> Game {
    random_game(Variant::Classic, Rules::default(), SEED).unwrap()
}

/// A classic game after 150 random plies (still running for this seed).
fn midgame() -> Game {
    let mut game = opening();
    random_playout(&mut game, SEED, 150);
    assert!(!game.is_finished(), "pick a seed whose game lasts longer");
    game
}

#[divan::bench]
fn legal_moves_opening(bencher: Bencher) {
    let game = opening();
    bencher.bench_local(|| black_box(&game).legal_moves());
}

#[divan::bench]
fn legal_moves_midgame(bencher: Bencher) {
    let game = midgame();
    bencher.bench_local(|| black_box(&game).legal_moves());
}

/// A classic midgame (over 100 plies, tournament rules) in which the
/// player to move has a chase on with at least `min_positions` positions
/// remembered and the rule forbids at least one of their moves; found by a
/// chasing policy (evade, else threaten, else random). With it, the same
/// position with the rule off.
fn chase_positions(min_positions: usize) -> (Game, Game) {
    let next_to =
        |a: Square, b: Square| a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank()) == 1;
    for seed in 0.. {
        let mut game = random_game(Variant::Classic, Rules::tournament(), seed).unwrap();
        let mut rng = SplitMix64::new(seed);
        while !game.is_finished() && game.ply() < 2000 {
            let mut doc = serde_json::to_value(&game).unwrap();
            let remembered = doc["chases"][game.turn().name()]["positions"]
                .as_array()
                .map_or(0, Vec::len);
            doc["rules"]["more_squares_rule"] = false.into();
            doc["chases"] = serde_json::json!({"red": null, "blue": null});
            let off: Game = serde_json::from_value(doc).unwrap();
            if game.ply() > 100
                && remembered >= min_positions
                && off.legal_moves().len() > game.legal_moves().len()
            {
                return (game, off);
            }
            let moves = game.legal_moves();
            let by = game.turn();
            let quiet = |m: &&Move| game.full_truth().piece_on(m.to).is_none();
            let evasions: Vec<Move> = game
                .full_truth()
                .last_move()
                .filter(|l| l.battle.is_none())
                .map(|l| {
                    moves
                        .iter()
                        .filter(quiet)
                        .filter(|m| next_to(m.from, l.to))
                        .copied()
                        .collect()
                })
                .unwrap_or_default();
            let threats: Vec<Move> = moves
                .iter()
                .filter(quiet)
                .filter(|m| {
                    game.full_truth()
                        .pieces()
                        .any(|p| p.color != by && p.square != m.from && next_to(p.square, m.to))
                })
                .copied()
                .collect();
            let list = if !evasions.is_empty() && rng.below(10) < 9 {
                &evasions[..]
            } else if !threats.is_empty() && rng.below(10) < 9 {
                &threats[..]
            } else {
                &moves[..]
            };
            let m = list[rng.below(list.len())];
            game.apply(by, Action::play(m.from, m.to)).unwrap();
        }
    }
    unreachable!()
}

/// Legal moves in a position with a chase on: the rule off, then on (the
/// more-squares rule's cost; it must stay under twice the rule-off time).
#[divan::bench]
fn legal_moves_chase_rule_off(bencher: Bencher) {
    let (_, off) = chase_positions(4);
    bencher.bench_local(|| black_box(&off).legal_moves());
}

#[divan::bench]
fn legal_moves_chase_rule_on(bencher: Bencher) {
    let (on, _) = chase_positions(4);
    bencher.bench_local(|| black_box(&on).legal_moves());
}

/// The worst case: the same chase with its memory full (128 positions:
/// the real ones, then made-up ones), so every chasing move is looked up
/// among 128.
#[divan::bench]
fn legal_moves_chase_rule_on_full_memory(bencher: Bencher) {
    let (on, _) = chase_positions(4);
    let mut doc = serde_json::to_value(&on).unwrap();
    let chase = &mut doc["chases"][on.turn().name()];
    let mut positions = chase["positions"].as_array().unwrap().clone();
    let mut rng = SplitMix64::new(1);
    while positions.len() < 128 {
        positions.insert(0, format!("{:016x}", rng.next_u64()).into());
    }
    let since = on.ply() - 1 - 2 * 127;
    chase["positions"] = positions.into();
    chase["since_ply"] = since.into();
    let full: Game = serde_json::from_value(doc).unwrap();
    assert_eq!(full.legal_moves(), on.legal_moves());
    bencher.bench_local(|| black_box(&full).legal_moves());
}

/// One complete random playout of a classic game; the counter is the
/// number of plies, so divan prints plies per second.
#[divan::bench(args = [1, 2, 3])]
fn random_playout_classic(bencher: Bencher, seed: u64) {
    let start = random_game(Variant::Classic, Rules::default(), seed).unwrap();
    let plies = random_playout(&mut start.clone(), seed, u32::MAX).plies;
    bencher
        .counter(ItemsCount::new(plies))
        .with_inputs(|| start.clone())
        .bench_local_refs(|game| random_playout(game, seed, u32::MAX));
}

/// The same with the tournament rules (the more-squares rule on).
#[divan::bench(args = [1, 2, 3])]
fn random_playout_classic_tournament(bencher: Bencher, seed: u64) {
    let start = random_game(Variant::Classic, Rules::tournament(), seed).unwrap();
    let plies = random_playout(&mut start.clone(), seed, u32::MAX).plies;
    bencher
        .counter(ItemsCount::new(plies))
        .with_inputs(|| start.clone())
        .bench_local_refs(|game| random_playout(game, seed, u32::MAX));
}

#[divan::bench]
fn view_midgame(bencher: Bencher) {
    let game = midgame();
    bencher.bench_local(|| black_box(&game).view(Viewer::Player(domain::Color::Red)));
}

#[divan::bench]
fn view_to_json_midgame(bencher: Bencher) {
    let game = midgame();
    bencher
        .bench_local(|| serde_json::to_string(&black_box(&game).view(Viewer::Spectator)).unwrap());
}

#[divan::bench]
fn state_serialize(bencher: Bencher) {
    let game = midgame();
    bencher.bench_local(|| serde_json::to_string(black_box(&game)).unwrap());
}

#[divan::bench]
fn state_deserialize(bencher: Bencher) {
    let json = serde_json::to_string(&midgame()).unwrap();
    bencher.bench_local(|| serde_json::from_str::<Game>(black_box(&json)).unwrap());
}

fn main() {
    divan::main();
}
