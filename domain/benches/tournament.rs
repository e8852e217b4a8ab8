//! Tournament benchmarks: `cargo bench -p domain --bench tournament`.
//!
//! The Swiss pairing of a large open: 200 players, round 9, after eight
//! rounds paired by the crate itself with pseudo-random results.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use divan::{black_box, Bencher};
use domain::rng::SplitMix64;
use domain::tournament::{
    pair_swiss, round_robin, standings, Entrant, History, Outcome, Played, System,
};

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

const PLAYERS: usize = 200;

/// How the results of the first eight rounds are drawn.
#[derive(Debug, Clone, Copy)]
enum Results {
    /// Wins, losses and draws, the higher rating a little more likely to win.
    Random,
    /// Every game drawn: the whole field stays one score group.
    AllDrawn,
    /// Red always wins: every player's colors pull hardest on the pairing.
    RedWins,
}

fn tournament(results: Results) -> (Vec<Entrant>, History) {
    let mut rng = SplitMix64::new(9);
    let entrants: Vec<Entrant> = (0..PLAYERS)
        .map(|_| Entrant {
            rating: 1000 + rng.below(1400) as i32,
            active: true,
        })
        .collect();
    let mut history = History::default();
    for round in 1..=8 {
        let paired = pair_swiss(&entrants, &history, round).unwrap();
        for p in paired.pairings {
            let outcome = match results {
                Results::AllDrawn => Outcome::Draw,
                Results::RedWins => Outcome::RedWon,
                Results::Random => {
                    let stronger_red = entrants[p.red].rating >= entrants[p.blue].rating;
                    match rng.below(10) {
                        0..=1 => Outcome::Draw,
                        2..=6 if stronger_red => Outcome::RedWon,
                        2..=6 => Outcome::BlueWon,
                        _ if stronger_red => Outcome::BlueWon,
                        _ => Outcome::RedWon,
                    }
                }
            };
            history.games.push(Played {
                round,
                red: p.red,
                blue: p.blue,
                outcome: Some(outcome),
            });
        }
        if let Some(bye) = paired.bye {
            history.byes.push((round, bye));
        }
    }
    (entrants, history)
}

#[divan::bench(args = [Results::Random, Results::AllDrawn, Results::RedWins])]
fn swiss_200_players_round_9(bencher: Bencher, results: Results) {
    let (entrants, history) = tournament(results);
    bencher.bench_local(|| pair_swiss(black_box(&entrants), black_box(&history), 9).unwrap());
}

/// The same field with one withdrawal, so the round needs a bye.
#[divan::bench]
fn swiss_199_players_round_9_with_bye(bencher: Bencher) {
    let (mut entrants, history) = tournament(Results::Random);
    entrants[17].active = false;
    bencher.bench_local(|| pair_swiss(black_box(&entrants), black_box(&history), 9).unwrap());
}

#[divan::bench]
fn standings_200_players_9_rounds(bencher: Bencher) {
    let (_, history) = tournament(Results::Random);
    bencher.bench_local(|| standings(System::Swiss, PLAYERS, black_box(&history), 2));
}

#[divan::bench]
fn round_robin_double_20(bencher: Bencher) {
    bencher.bench_local(|| round_robin(black_box(20), true));
}

fn main() {
    divan::main();
}
