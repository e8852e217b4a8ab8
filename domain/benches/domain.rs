//! Benchmarks: `cargo bench -p domain`.
//!
//! The global allocator is divan's counting profiler, so every benchmark
//! also reports how many heap allocations one iteration makes: the playout
//! and move-generation rows must show none.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use domain::playout::{random_game, random_playout};
use domain::{Game, Rules, Variant, Viewer};

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
