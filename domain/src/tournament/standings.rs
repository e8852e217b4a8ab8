//! Standings: points, then the system's tie-breaks.
//!
//! Every tie-break is computed in whole quarter points, so that equal values
//! compare equal; they become `f64` points only in the result.

use super::{tiebreaks, HalfPoints, History, Standing, System, Tiebreak};

/// One finished game as seen by one player.
#[derive(Debug, Clone, Copy)]
struct Game {
    opponent: usize,
    /// What the player scored in it.
    scored: HalfPoints,
}

/// Standings over finished games and byes (unfinished games count for nothing
/// yet). `players`: how many entrants; `bye_points`: what a Swiss bye is worth
/// (a round robin's bye is worth nothing whatever this says). Ordered by points,
/// then the tie-breaks, then player index.
///
/// The tie-breaks are those of [`tiebreaks`], each as [`Tiebreak`] defines
/// it. Withdrawn players keep their results and their place; games or byes
/// naming a player outside `0..players` are ignored.
pub fn standings(
    system: System,
    players: usize,
    history: &History,
    bye_points: HalfPoints,
) -> Vec<Standing> {
    let mut games: Vec<Vec<Game>> = vec![Vec::new(); players];
    let mut points: Vec<HalfPoints> = vec![0; players];
    for game in &history.games {
        let Some(outcome) = game.outcome else {
            continue;
        };
        if game.red >= players || game.blue >= players || game.red == game.blue {
            continue;
        }
        let (red, blue) = outcome.half_points();
        games[game.red].push(Game {
            opponent: game.blue,
            scored: red,
        });
        games[game.blue].push(Game {
            opponent: game.red,
            scored: blue,
        });
        points[game.red] += red;
        points[game.blue] += blue;
    }
    if system == System::Swiss {
        for &(_, player) in &history.byes {
            if player < players {
                points[player] += bye_points;
            }
        }
    }

    let order = tiebreaks(system);
    // keys[p][i]: player p's value of tie-break i, in quarter points.
    let mut keys: Vec<Vec<i64>> = vec![Vec::with_capacity(order.len()); players];
    for (i, &tiebreak) in order.iter().enumerate() {
        if tiebreak == Tiebreak::DirectEncounter {
            for group in level_groups(&points, &keys) {
                for &p in &group {
                    let value = direct_encounter(&games[p], &group);
                    keys[p].push(value);
                }
            }
        } else {
            for p in 0..players {
                let value = quarters(tiebreak, &games[p], &points);
                keys[p].push(value);
            }
        }
        debug_assert!(keys.iter().all(|k| k.len() == i + 1));
    }

    let mut ranking: Vec<usize> = (0..players).collect();
    ranking.sort_by(|&a, &b| (points[b], &keys[b], a).cmp(&(points[a], &keys[a], b)));
    let mut result: Vec<Standing> = Vec::with_capacity(players);
    for (place, &p) in ranking.iter().enumerate() {
        let rank = match result.last() {
            Some(previous)
                if points[previous.player] == points[p] && keys[previous.player] == keys[p] =>
            {
                previous.rank
            }
            _ => u32::try_from(place + 1).unwrap_or(u32::MAX),
        };
        result.push(Standing {
            player: p,
            rank,
            points: points[p],
            games: count(games[p].len()),
            wins: count(games[p].iter().filter(|g| g.scored == 2).count()),
            tiebreaks: order
                .iter()
                .zip(&keys[p])
                .map(|(&t, &q)| (t, q as f64 / 4.0))
                .collect(),
        });
    }
    result
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The players grouped by equal points and equal tie-breaks so far.
fn level_groups(points: &[HalfPoints], keys: &[Vec<i64>]) -> Vec<Vec<usize>> {
    let mut sorted: Vec<usize> = (0..points.len()).collect();
    sorted.sort_by(|&a, &b| (points[a], &keys[a], a).cmp(&(points[b], &keys[b], b)));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for p in sorted {
        match groups.last_mut() {
            Some(group)
                if group
                    .first()
                    .is_some_and(|&q| points[q] == points[p] && keys[q] == keys[p]) =>
            {
                group.push(p);
            }
            _ => groups.push(vec![p]),
        }
    }
    groups
}

/// Quarter points scored in the games against the others of `group`.
fn direct_encounter(games: &[Game], group: &[usize]) -> i64 {
    games
        .iter()
        .filter(|g| group.contains(&g.opponent))
        .map(|g| i64::from(g.scored) * 2)
        .sum()
}

/// A tie-break other than the direct encounter, in quarter points.
fn quarters(tiebreak: Tiebreak, games: &[Game], points: &[HalfPoints]) -> i64 {
    // An opponent's final points, in quarters.
    let final_points = |g: &Game| i64::from(points[g.opponent]) * 2;
    match tiebreak {
        Tiebreak::SonnebornBerger => games
            .iter()
            .map(|g| match g.scored {
                2 => final_points(g),
                1 => final_points(g) / 2,
                _ => 0,
            })
            .sum(),
        Tiebreak::Wins => games.iter().filter(|g| g.scored == 2).count() as i64 * 4,
        Tiebreak::Buchholz => games.iter().map(final_points).sum(),
        Tiebreak::BuchholzCut1 => {
            if games.len() <= 1 {
                0
            } else {
                let sum: i64 = games.iter().map(final_points).sum();
                sum - games.iter().map(final_points).min().unwrap_or(0)
            }
        }
        Tiebreak::DirectEncounter => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Outcome, Played};
    use super::*;

    #[test]
    fn empty_history_ties_everyone() {
        let table = standings(System::RoundRobin, 3, &History::default(), 2);
        let ranks: Vec<u32> = table.iter().map(|s| s.rank).collect();
        assert_eq!(ranks, [1, 1, 1]);
        let players: Vec<usize> = table.iter().map(|s| s.player).collect();
        assert_eq!(players, [0, 1, 2]);
    }

    #[test]
    fn stray_indices_are_ignored() {
        let history = History {
            games: vec![Played {
                round: 1,
                red: 0,
                blue: 9,
                outcome: Some(Outcome::RedWon),
            }],
            byes: vec![(1, 7)],
        };
        let table = standings(System::Swiss, 2, &history, 2);
        assert!(table.iter().all(|s| s.points == 0 && s.games == 0));
    }
}
