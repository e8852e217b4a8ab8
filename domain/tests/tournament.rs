//! Tournaments: Berger tables and Swiss pairings worked out by hand here;
//! Swiss properties over random tournaments in `tournament/random_swiss.rs`,
//! standings in `tournament/standings.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use domain::tournament::{
    pair_swiss, pair_swiss_detailed, round_robin, swiss_ranking, Entrant, History, Outcome,
    Pairing, PairingError, Played, Round,
};

// ---------------------------------------------------------------- Berger

fn check_cycle(n: usize, rounds: &[Round]) {
    let per_cycle = if n.is_multiple_of(2) { n - 1 } else { n };
    assert_eq!(rounds.len(), per_cycle, "n = {n}");
    let mut met = HashSet::new();
    let mut balance = vec![0i32; n];
    for round in rounds {
        let mut seen = HashSet::new();
        for p in &round.pairings {
            assert!(p.red < n && p.blue < n && p.red != p.blue);
            assert!(seen.insert(p.red) && seen.insert(p.blue), "n = {n}");
            assert!(
                met.insert((p.red.min(p.blue), p.red.max(p.blue))),
                "n = {n}"
            );
            balance[p.red] += 1;
            balance[p.blue] -= 1;
        }
        if n.is_multiple_of(2) {
            assert_eq!(round.bye, None);
        } else {
            let bye = round.bye.expect("an odd count has a bye every round");
            assert!(seen.insert(bye));
        }
        assert_eq!(seen.len(), n);
    }
    assert_eq!(met.len(), n * (n - 1) / 2, "everyone meets everyone");
    assert!(balance.iter().all(|b| b.abs() <= 1), "n = {n}: {balance:?}");
}

#[test]
fn berger_single_cycles() {
    for n in 2..=20 {
        check_cycle(n, &round_robin(n, false));
    }
}

#[test]
fn berger_double_cycles() {
    for n in 2..=20 {
        let rounds = round_robin(n, true);
        let half = rounds.len() / 2;
        check_cycle(n, &rounds[..half]);
        check_cycle(n, &rounds[half..]);
        let mut games = HashSet::new();
        for p in rounds.iter().flat_map(|r| &r.pairings) {
            assert!(games.insert((p.red, p.blue)), "n = {n}: a color repeats");
        }
        assert_eq!(games.len(), n * (n - 1), "each pair twice, once each way");
        let mut byes: Vec<usize> = rounds.iter().filter_map(|r| r.bye).collect();
        byes.sort_unstable();
        let expected: Vec<usize> = if n.is_multiple_of(2) {
            Vec::new()
        } else {
            (0..n).flat_map(|p| [p, p]).collect()
        };
        assert_eq!(byes, expected);
    }
}

/// Pairings numbered from 1, as the Berger tables print them.
fn numbered(round: &Round) -> Vec<(usize, usize)> {
    round
        .pairings
        .iter()
        .map(|p| (p.red + 1, p.blue + 1))
        .collect()
}

#[test]
fn berger_table_for_six() {
    let rounds = round_robin(6, false);
    let expected = [
        vec![(1, 6), (2, 5), (3, 4)],
        vec![(6, 4), (5, 3), (1, 2)],
        vec![(2, 6), (3, 1), (4, 5)],
        vec![(6, 5), (1, 4), (2, 3)],
        vec![(3, 6), (4, 2), (5, 1)],
    ];
    for (round, expected) in rounds.iter().zip(&expected) {
        assert_eq!(&numbered(round), expected);
    }
}

#[test]
fn berger_table_for_eight() {
    let rounds = round_robin(8, false);
    assert_eq!(numbered(&rounds[0]), [(1, 8), (2, 7), (3, 6), (4, 5)]);
    assert_eq!(numbered(&rounds[1]), [(8, 5), (6, 4), (7, 3), (1, 2)]);
    assert_eq!(numbered(&rounds[6]), [(4, 8), (5, 3), (6, 2), (7, 1)]);
}

#[test]
fn berger_odd_count_gives_the_dummy_seat_as_bye() {
    // Five players sit in the table for six; whoever meets seat 6 rests.
    let rounds = round_robin(5, false);
    assert_eq!(rounds[0].bye, Some(0));
    assert_eq!(numbered(&rounds[0]), [(2, 5), (3, 4)]);
    assert_eq!(rounds[1].bye, Some(3));
    assert_eq!(numbered(&rounds[1]), [(5, 3), (1, 2)]);
}

#[test]
fn berger_second_cycle_swaps_colors() {
    let rounds = round_robin(4, true);
    assert_eq!(rounds.len(), 6);
    for (first, second) in rounds[..3].iter().zip(&rounds[3..]) {
        let swapped: Vec<Pairing> = first
            .pairings
            .iter()
            .map(|p| Pairing {
                red: p.blue,
                blue: p.red,
            })
            .collect();
        assert_eq!(second.pairings, swapped);
    }
}

#[test]
fn too_few_for_a_round_robin() {
    assert!(round_robin(1, false).is_empty());
    assert_eq!(round_robin(2, false).len(), 1);
    assert_eq!(round_robin(2, true).len(), 2);
}

// ----------------------------------------------------------- Swiss, by hand

fn field(ratings: &[i32]) -> Vec<Entrant> {
    ratings
        .iter()
        .map(|&rating| Entrant {
            rating,
            active: true,
        })
        .collect()
}

fn game(round: u32, red: usize, blue: usize, outcome: Outcome) -> Played {
    Played {
        round,
        red,
        blue,
        outcome: Some(outcome),
    }
}

fn pairs(round: &Round) -> Vec<(usize, usize)> {
    round.pairings.iter().map(|p| (p.red, p.blue)).collect()
}

#[test]
fn swiss_round_one_follows_the_ratings() {
    // Seeds by rating: 3, 0, 5, 1, 6, 2, 4 (4 is the lowest: the bye).
    let entrants = field(&[1900, 1700, 1500, 2000, 1200, 1800, 1600]);
    let round = pair_swiss(&entrants, &History::default(), 1).unwrap();
    assert_eq!(round.bye, Some(4));
    // Top half 3, 0, 5 against bottom half 1, 6, 2; colors alternate.
    assert_eq!(pairs(&round), [(3, 1), (6, 0), (5, 2)]);
}

#[test]
fn swiss_round_one_ties_on_rating_go_by_index() {
    let entrants = field(&[1500; 4]);
    let round = pair_swiss(&entrants, &History::default(), 1).unwrap();
    assert_eq!(pairs(&round), [(0, 2), (3, 1)]);
    assert_eq!(round.bye, None);
}

#[test]
fn swiss_round_two_pairs_score_groups_with_due_colors() {
    let entrants = field(&[2000, 1900, 1800, 1700]);
    let mut history = History::default();
    let first = pair_swiss(&entrants, &history, 1).unwrap();
    assert_eq!(pairs(&first), [(0, 2), (3, 1)]);
    history.games.push(game(1, 0, 2, Outcome::RedWon));
    history.games.push(game(1, 3, 1, Outcome::BlueWon));
    // 0 and 1 lead; 0 had Red so is due Blue, 1 had Blue so is due Red.
    let second = pair_swiss(&entrants, &history, 2).unwrap();
    assert_eq!(pairs(&second), [(1, 0), (2, 3)]);
}

#[test]
fn swiss_stronger_player_wins_a_color_conflict() {
    // Both leaders had Red in round 1: the better-rated gets Blue, its due;
    // both others had Blue, and the better-rated of them gets Red.
    let entrants = field(&[2000, 1900, 1800, 1700]);
    let history = History {
        games: vec![
            game(1, 0, 2, Outcome::RedWon),
            game(1, 1, 3, Outcome::RedWon),
        ],
        byes: Vec::new(),
    };
    let round = pair_swiss(&entrants, &history, 2).unwrap();
    assert_eq!(pairs(&round), [(1, 0), (2, 3)]);
}

#[test]
fn swiss_never_repeats_and_reports_exhaustion() {
    let entrants = field(&[1500, 1400, 1300, 1200]);
    let mut history = History::default();
    for (r, round) in round_robin(4, false).iter().enumerate() {
        for p in &round.pairings {
            history
                .games
                .push(game(r as u32 + 1, p.red, p.blue, Outcome::Draw));
        }
    }
    assert_eq!(
        pair_swiss(&entrants, &history, 4),
        Err(PairingError::Exhausted)
    );
}

#[test]
fn swiss_needs_two_active_players() {
    let mut entrants = field(&[1500, 1400, 1300]);
    entrants[1].active = false;
    entrants[2].active = false;
    assert_eq!(
        pair_swiss(&entrants, &History::default(), 1),
        Err(PairingError::TooFew)
    );
    assert_eq!(
        pair_swiss(&[], &History::default(), 3),
        Err(PairingError::TooFew)
    );
}

#[test]
fn swiss_withdrawn_players_are_left_out() {
    let mut entrants = field(&[2000, 1900, 1800, 1700, 1600]);
    entrants[0].active = false;
    let round = pair_swiss(&entrants, &History::default(), 1).unwrap();
    assert_eq!(round.bye, None);
    assert_eq!(pairs(&round), [(1, 3), (4, 2)]);
}

#[test]
fn swiss_bye_goes_to_the_lowest_ranked_without_one() {
    let entrants = field(&[2000, 1900, 1800, 1700, 1600]);
    let history = History {
        games: vec![
            game(1, 0, 2, Outcome::RedWon),
            game(1, 3, 1, Outcome::BlueWon),
        ],
        byes: vec![(1, 4)],
    };
    // 4 scored its bye (2) like 0 and 1; the lowest without a bye is 3.
    let round = pair_swiss(&entrants, &history, 2).unwrap();
    assert_eq!(round.bye, Some(3));
    assert_eq!(swiss_ranking(&entrants, &history), [0, 1, 4, 2, 3]);
}

#[test]
fn swiss_relaxes_colors_only_when_it_must() {
    // 0 and 1 each had Red twice; 2 and 3 have withdrawn. The only game left
    // gives one of them a third Red in a row.
    let mut entrants = field(&[2000, 1900, 1800, 1700]);
    entrants[2].active = false;
    entrants[3].active = false;
    let history = History {
        games: vec![
            game(1, 0, 2, Outcome::RedWon),
            game(1, 1, 3, Outcome::RedWon),
            game(2, 0, 3, Outcome::RedWon),
            game(2, 1, 2, Outcome::RedWon),
        ],
        byes: Vec::new(),
    };
    let paired = pair_swiss_detailed(&entrants, &history, 3).unwrap();
    assert!(paired.colors_relaxed);
    assert_eq!(pairs(&paired.round), [(1, 0)]);
}

#[test]
fn swiss_gives_the_bye_elsewhere_rather_than_break_colors() {
    // 0, 1 and 2 are left. 1 and 2 each had Red twice, so they cannot meet;
    // 0, the lowest-ranked, must play one of them and the lower-ranked of
    // the two takes the bye instead.
    let mut entrants = field(&[2000, 1900, 1800, 1700, 1600, 1500]);
    for e in &mut entrants[3..] {
        e.active = false;
    }
    let history = History {
        games: vec![
            game(1, 1, 3, Outcome::RedWon),
            game(1, 2, 4, Outcome::RedWon),
            game(1, 5, 0, Outcome::RedWon),
            game(2, 1, 4, Outcome::RedWon),
            game(2, 2, 5, Outcome::RedWon),
            game(2, 3, 0, Outcome::RedWon),
        ],
        byes: Vec::new(),
    };
    assert_eq!(swiss_ranking(&entrants, &history), [1, 2, 0]);
    let paired = pair_swiss_detailed(&entrants, &history, 3).unwrap();
    assert!(!paired.colors_relaxed);
    assert_eq!(paired.round.bye, Some(2));
    assert_eq!(pairs(&paired.round), [(0, 1)]);
}

#[path = "tournament/random_swiss.rs"]
mod random_swiss;
#[path = "tournament/standings.rs"]
mod standings;
