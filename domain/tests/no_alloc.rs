//! Proves "no heap allocation per ply" on the playout path: the process's
//! allocator is wrapped by `stats_alloc` (whose `unsafe impl GlobalAlloc`
//! lives in that crate, so this crate stays `unsafe`-free), and a full
//! random playout — move generation, `apply` with battles and end checks —
//! must allocate nothing. This file holds a single test so that no other
//! test thread allocates while the region is measured.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::alloc::System;

use domain::playout::{random_game, random_playout};
use domain::{Rules, Variant};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn random_playouts_allocate_nothing() {
    // The counters are process-wide, and the test harness's own thread may
    // allocate a few bytes while we measure (seen under load). An
    // allocation per ply would show thousands in every attempt, so the
    // claim holds if any one of three attempts counts none.
    let mut attempts = Vec::new();
    for _ in 0..3 {
        let mut games: Vec<_> = Variant::ALL
            .into_iter()
            .flat_map(|v| (1..=3).map(move |seed| (v, seed)))
            .map(|(v, seed)| (random_game(v, Rules::default(), seed).unwrap(), seed))
            .collect();
        let mut total_plies = 0u64;
        let region = Region::new(GLOBAL);
        for (game, seed) in &mut games {
            total_plies += u64::from(random_playout(game, *seed, u32::MAX).plies);
        }
        let change = region.change();
        assert!(total_plies > 1000, "playouts too short to mean anything");
        let counted = (
            change.allocations,
            change.reallocations,
            change.bytes_allocated,
        );
        if counted == (0, 0, 0) {
            break;
        }
        attempts.push((total_plies, counted));
    }
    assert!(
        attempts.len() < 3,
        "every attempt allocated (plies, (allocations, reallocations, bytes)): {attempts:?}"
    );
    // The measurement itself works: an allocation is seen.
    let region = Region::new(GLOBAL);
    let v = std::hint::black_box(vec![1u8; 64]);
    assert!(region.change().allocations >= 1);
    drop(v);
}
