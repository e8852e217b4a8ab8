//! Swiss pairings over many random tournaments (random fields, results,
//! draws, unfinished games and withdrawals), each round checked against the
//! rules, with an independent perfect matching test deciding what "could
//! have been paired" means.

use std::collections::HashSet;

use domain::rng::SplitMix64;
use domain::tournament::{
    pair_swiss_detailed, swiss_ranking, Entrant, History, Outcome, PairingError, Played,
};
use proptest::prelude::*;

use super::field;

const PRIME: u64 = (1 << 61) - 1;

fn mul(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) % PRIME as u128) as u64
}

fn inverse(a: u64) -> u64 {
    let (mut result, mut base, mut e) = (1, a, PRIME - 2);
    while e > 0 {
        if e & 1 == 1 {
            result = mul(result, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    result
}

/// Whether the players of `vertices` can all be paired over `edge`, by
/// Tutte's theorem: the skew-symmetric matrix with a random value for each
/// edge is regular (with high probability) exactly when a perfect matching
/// exists. Independent of the crate's own matching code.
fn perfect(vertices: &[usize], edge: &dyn Fn(usize, usize) -> bool, rng: &mut SplitMix64) -> bool {
    let m = vertices.len();
    if !m.is_multiple_of(2) {
        return false;
    }
    for _ in 0..2 {
        let mut a = vec![vec![0u64; m]; m];
        for i in 0..m {
            for j in i + 1..m {
                if edge(vertices[i], vertices[j]) {
                    let x = 1 + rng.next_u64() % (PRIME - 1);
                    a[i][j] = x;
                    a[j][i] = PRIME - x;
                }
            }
        }
        let mut regular = true;
        for col in 0..m {
            let Some(pivot) = (col..m).find(|&r| a[r][col] != 0) else {
                regular = false;
                break;
            };
            a.swap(col, pivot);
            let inv = inverse(a[col][col]);
            for r in col + 1..m {
                let f = mul(a[r][col], inv);
                if f != 0 {
                    let (upper, lower) = a.split_at_mut(r);
                    for (x, &y) in lower[0][col..].iter_mut().zip(&upper[col][col..]) {
                        *x = (*x + PRIME - mul(f, y)) % PRIME;
                    }
                }
            }
        }
        if regular {
            return true;
        }
    }
    false
}

/// Red-minus-blue and the colors in round order, from the history alone.
fn colors(history: &History, player: usize) -> (i32, Vec<bool>) {
    let mut games: Vec<(u32, bool)> = history
        .games
        .iter()
        .filter_map(|g| {
            if g.red == player {
                Some((g.round, true))
            } else if g.blue == player {
                Some((g.round, false))
            } else {
                None
            }
        })
        .collect();
    games.sort_by_key(|&(r, _)| r);
    let reds = games.iter().filter(|g| g.1).count() as i32;
    let seq: Vec<bool> = games.iter().map(|g| g.1).collect();
    (reds - (seq.len() as i32 - reds), seq)
}

/// Whether `player` may take Red (`red`) or Blue without a color criterion
/// breaking.
fn may_take(history: &History, player: usize, red: bool) -> bool {
    let (diff, seq) = colors(history, player);
    let after = diff + if red { 1 } else { -1 };
    let n = seq.len();
    let three = n >= 2 && seq[n - 1] == red && seq[n - 2] == red;
    after.abs() <= 2 && !three
}

struct Tournament {
    entrants: Vec<Entrant>,
    history: History,
}

impl Tournament {
    fn met(&self) -> HashSet<(usize, usize)> {
        self.history
            .games
            .iter()
            .map(|g| (g.red.min(g.blue), g.red.max(g.blue)))
            .collect()
    }

    fn had_bye(&self, p: usize) -> bool {
        self.history.byes.iter().any(|&(_, b)| b == p)
    }

    /// Whether `active` minus `out` can be paired, strictly (color criteria
    /// kept) or not.
    fn pairable(&self, active: &[usize], out: Option<usize>, strict: bool) -> bool {
        let met = self.met();
        let rest: Vec<usize> = active.iter().copied().filter(|&p| Some(p) != out).collect();
        let h = &self.history;
        let edge = |a: usize, b: usize| {
            !met.contains(&(a.min(b), a.max(b)))
                && (!strict
                    || (may_take(h, a, true) && may_take(h, b, false))
                    || (may_take(h, a, false) && may_take(h, b, true)))
        };
        perfect(&rest, &edge, &mut SplitMix64::new(99))
    }
}

fn play_tournament(ratings: Vec<i32>, seed: u64) {
    let n = ratings.len();
    let mut t = Tournament {
        entrants: field(&ratings),
        history: History::default(),
    };
    let mut rng = SplitMix64::new(seed);
    for round in 1..=(n as u32 - 1).min(11) {
        if round > 1 {
            for e in &mut t.entrants {
                if e.active && rng.below(25) == 0 {
                    e.active = false;
                }
            }
        }
        let active: Vec<usize> = (0..n).filter(|&p| t.entrants[p].active).collect();
        let result = pair_swiss_detailed(&t.entrants, &t.history, round);
        assert_eq!(
            result,
            pair_swiss_detailed(&t.entrants, &t.history, round),
            "deterministic"
        );
        let paired = match result {
            Err(PairingError::TooFew) => {
                assert!(active.len() < 2);
                return;
            }
            Err(PairingError::Exhausted) => {
                assert!(active.len() >= 2);
                if active.len().is_multiple_of(2) {
                    assert!(!t.pairable(&active, None, false), "round {round}");
                } else {
                    for &b in &active {
                        assert!(!t.pairable(&active, Some(b), false), "round {round}");
                    }
                }
                return;
            }
            Ok(paired) => paired,
        };
        let round_ = &paired.round;

        // Everyone active is in exactly once; nobody else is.
        let mut seen: Vec<usize> = round_
            .pairings
            .iter()
            .flat_map(|p| [p.red, p.blue])
            .chain(round_.bye)
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, active, "round {round}");
        assert_eq!(round_.bye.is_some(), !active.len().is_multiple_of(2));

        // No game twice.
        let met = t.met();
        for p in &round_.pairings {
            assert!(!met.contains(&(p.red.min(p.blue), p.red.max(p.blue))));
        }

        // Colors: kept unless relaxed; relaxed only when nothing else works.
        if !paired.colors_relaxed {
            for p in &round_.pairings {
                assert!(may_take(&t.history, p.red, true), "round {round}");
                assert!(may_take(&t.history, p.blue, false), "round {round}");
            }
        }
        let pool: Vec<usize> = match round_.bye {
            Some(b) if !t.had_bye(b) => active.iter().copied().filter(|&p| !t.had_bye(p)).collect(),
            _ => active.clone(),
        };
        if paired.colors_relaxed && round > 1 {
            if round_.bye.is_some() {
                for &c in &pool {
                    assert!(!t.pairable(&active, Some(c), true), "round {round}");
                }
            } else {
                assert!(!t.pairable(&active, None, true), "round {round}");
            }
        }

        // The bye: to someone without one whenever that could be.
        if let Some(b) = round_.bye {
            if t.had_bye(b) {
                for &c in &active {
                    if !t.had_bye(c) {
                        assert!(!t.pairable(&active, Some(c), false), "round {round}");
                    }
                }
            }
            // Nobody of the same pool ranked below could have had it.
            if round > 1 {
                let ranking = swiss_ranking(&t.entrants, &t.history);
                let at = ranking.iter().position(|&p| p == b).unwrap();
                for &c in &ranking[at + 1..] {
                    if pool.contains(&c) {
                        assert!(
                            !t.pairable(&active, Some(c), !paired.colors_relaxed),
                            "round {round}: {c} ranks below the bye {b}"
                        );
                    }
                }
            }
            t.history.byes.push((round, b));
        }

        for p in &round_.pairings {
            let outcome = match rng.below(20) {
                0 => None,
                1..=5 => Some(Outcome::Draw),
                6..=12 => Some(Outcome::RedWon),
                _ => Some(Outcome::BlueWon),
            };
            t.history.games.push(Played {
                round,
                red: p.red,
                blue: p.blue,
                outcome,
            });
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn swiss_random_tournaments(
        ratings in prop::collection::vec(1000i32..2400, 3..=40),
        seed in any::<u64>(),
    ) {
        play_tournament(ratings, seed);
    }

    #[test]
    fn swiss_random_tournaments_with_equal_ratings(n in 3usize..=40, seed in any::<u64>()) {
        play_tournament(vec![1500; n], seed);
    }
}

#[test]
fn swiss_two_hundred_players_nine_rounds() {
    let mut rng = SplitMix64::new(3);
    let ratings: Vec<i32> = (0..200).map(|_| 1000 + rng.below(1400) as i32).collect();
    play_tournament(ratings, 5);
}
