//! Proves "no heap allocation per ply" on the playout path: the process's
//! allocator is wrapped by `stats_alloc` (whose `unsafe impl GlobalAlloc`
//! lives in that crate, so this crate stays `unsafe`-free), and a full
//! random playout — move generation, `apply` with battles and end checks —
//! must allocate nothing, with the more-squares rule off and on. This file
//! runs without libtest's harness (`harness = false` in Cargo.toml), as a
//! plain `main` on one thread, so that nothing else allocates while the
//! region is measured: under load, the harness's own thread did (4
//! allocations, 900 bytes, in about 1 run in 75 before this branch).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::alloc::System;

use domain::playout::{random_game, random_playout};
use domain::{piece_char, Action, Color, Game, Piece, Rules, Square, Variant};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    random_playouts_allocate_nothing();
    println!("no_alloc: ok");
}

fn random_playouts_allocate_nothing() {
    // Each variant and seed with the default rules and with the
    // tournament rules (the more-squares rule on: chases are recorded).
    let mut games: Vec<_> = Variant::ALL
        .into_iter()
        .flat_map(|v| (1..=3).map(move |seed| (v, seed)))
        .flat_map(|(v, seed)| [(v, seed, Rules::default()), (v, seed, Rules::tournament())])
        .map(|(v, seed, rules)| (random_game(v, rules, seed).unwrap(), seed))
        .collect();
    // And a chase around the left lake (see conformance/more_squares.txt)
    // up to the move the rule refuses.
    let mut board: Vec<char> = Square::all()
        .map(|s| if s.is_lake() { '_' } else { 'A' })
        .collect();
    for (color, piece, square) in [
        (Color::Red, Piece::Marshal, "b3"),
        (Color::Red, Piece::Flag, "a1"),
        (Color::Blue, Piece::Captain, "c4"),
        (Color::Blue, Piece::Flag, "j10"),
    ] {
        board[square.parse::<Square>().unwrap().index()] = piece_char(color, piece);
    }
    let board: String = board.into_iter().collect();
    let mut chase =
        Game::from_position(&board, Variant::Classic, Rules::tournament(), Color::Red).unwrap();
    let ring: Vec<(Square, Square)> =
        "b3-b4 c4-d4 b4-c4 d4-e4 c4-d4 e4-e5 d4-e4 e5-e6 e4-e5 e6-e7 \
        e5-e6 e7-d7 e6-e7 d7-c7 e7-d7 c7-b7 d7-c7 b7-b6 c7-b7 b6-b5 b7-b6 b5-b4 b6-b5 b4-c4"
            .split_whitespace()
            .map(|m| {
                let (a, b) = m.split_once('-').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
    let (b5, b4) = ("b5".parse().unwrap(), "b4".parse().unwrap());
    let mut total_plies = 0u64;
    let region = Region::new(GLOBAL);
    for (game, seed) in &mut games {
        total_plies += u64::from(random_playout(game, *seed, u32::MAX).plies);
    }
    for &(from, to) in &ring {
        assert!(!chase.legal_moves().is_empty());
        assert!(chase.apply(chase.turn(), Action::play(from, to)).is_ok());
    }
    let refused = chase.apply(Color::Red, Action::play(b5, b4)).is_err();
    let change = region.change();
    assert!(total_plies > 1000, "playouts too short to mean anything");
    assert!(refused, "the chase was not refused");
    assert_eq!(
        (
            change.allocations,
            change.reallocations,
            change.bytes_allocated
        ),
        (0, 0, 0),
        "{total_plies} plies allocated"
    );
    // The measurement itself works: an allocation is seen.
    let region = Region::new(GLOBAL);
    let v = std::hint::black_box(vec![1u8; 64]);
    assert!(region.change().allocations >= 1);
    drop(v);
}
