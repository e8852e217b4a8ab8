//! Standings with every tie-break worked out by hand.

use domain::tournament::{
    standings, tiebreaks, History, Outcome, Played, Standing, System, Tiebreak,
};

use super::game;

/// Finished games from (round, red, blue, outcome).
fn history(games: &[(u32, usize, usize, Outcome)], byes: &[(u32, usize)]) -> History {
    History {
        games: games
            .iter()
            .map(|&(round, red, blue, outcome)| game(round, red, blue, outcome))
            .collect(),
        byes: byes.to_vec(),
    }
}

/// (player, rank) in standings order.
fn places(table: &[Standing]) -> Vec<(usize, u32)> {
    table.iter().map(|s| (s.player, s.rank)).collect()
}

fn values(table: &[Standing], player: usize) -> Vec<f64> {
    let s = table.iter().find(|s| s.player == player).unwrap();
    s.tiebreaks.iter().map(|&(_, v)| v).collect()
}

use Outcome::{BlueWon, Draw, RedWon};

#[test]
fn tiebreak_lists() {
    assert_eq!(
        tiebreaks(System::RoundRobin),
        [
            Tiebreak::SonnebornBerger,
            Tiebreak::DirectEncounter,
            Tiebreak::Wins
        ]
    );
    assert_eq!(
        tiebreaks(System::Swiss),
        [
            Tiebreak::BuchholzCut1,
            Tiebreak::Buchholz,
            Tiebreak::SonnebornBerger
        ]
    );
}

#[test]
fn sonneborn_berger_splits_a_round_robin_tie() {
    // 0 beat 1, drew 2, lost to 3; 1 beat 2 and 3; 2 drew 3.
    // Points: 1 has 2, 0 and 3 have 1.5, 2 has 1.
    // SB 0: 1's 2 + half of 2's 1 = 2.5. SB 3: 0's 1.5 + half of 2's 1 = 2.
    let h = history(
        &[
            (1, 0, 1, RedWon),
            (2, 0, 2, Draw),
            (3, 3, 0, RedWon),
            (1, 1, 2, RedWon),
            (2, 3, 1, BlueWon),
            (3, 2, 3, Draw),
        ],
        &[],
    );
    let table = standings(System::RoundRobin, 4, &h, 2);
    assert_eq!(places(&table), [(1, 1), (0, 2), (3, 3), (2, 4)]);
    let points: Vec<u32> = table.iter().map(|s| s.points).collect();
    assert_eq!(points, [4, 3, 3, 2]);
    // SB, direct encounter (nobody level: 0), wins.
    assert_eq!(values(&table, 0), [2.5, 0.0, 1.0]);
    assert_eq!(values(&table, 3), [2.0, 0.0, 1.0]);
    assert_eq!(values(&table, 1), [2.5, 0.0, 2.0]);
    assert_eq!(values(&table, 2), [1.5, 0.0, 0.0]);
    assert!(table.iter().all(|s| s.games == 3));
}

#[test]
fn direct_encounter_splits_what_sonneborn_berger_cannot() {
    // 0 beat 1, drew 2, lost to 3; 1 beat 2, drew 3; 2 drew 3.
    // 0 and 1 both have 1.5 and SB 2 (0: 1's 1.5 + half of 2's 1;
    // 1: 2's 1 + half of 3's 2); 0 won their game.
    let h = history(
        &[
            (1, 0, 1, RedWon),
            (2, 2, 0, Draw),
            (3, 3, 0, RedWon),
            (2, 1, 2, RedWon),
            (3, 1, 3, Draw),
            (1, 2, 3, Draw),
        ],
        &[],
    );
    let table = standings(System::RoundRobin, 4, &h, 2);
    assert_eq!(places(&table), [(3, 1), (0, 2), (1, 3), (2, 4)]);
    assert_eq!(values(&table, 0), [2.0, 1.0, 1.0]);
    assert_eq!(values(&table, 1), [2.0, 0.0, 1.0]);
}

#[test]
fn wins_split_what_direct_encounter_cannot_and_round_robin_byes_are_worth_nothing() {
    // Five players; 0 and 1 drew, and both end on 2.5 with SB 4.75:
    // 0 beat 2 and 3, lost to 4 (2 wins); 1 beat 2, drew 3 and 4 (1 win).
    // 3 and 4 both have 1.5: SB 3 = half of 1's 2.5 + 4's 1.5 = 2.75,
    // SB 4 = 0's 2.5 + half of 1's 2.5 = 3.75.
    let h = history(
        &[
            (1, 0, 1, Draw),
            (2, 0, 2, RedWon),
            (3, 3, 0, BlueWon),
            (4, 0, 4, BlueWon),
            (4, 1, 2, RedWon),
            (5, 3, 1, Draw),
            (2, 4, 1, Draw),
            (3, 2, 4, RedWon),
            (5, 2, 3, RedWon),
            (1, 4, 3, BlueWon),
        ],
        &[(1, 2), (2, 3), (3, 1), (4, 3), (5, 4)],
    );
    let table = standings(System::RoundRobin, 5, &h, 2);
    assert_eq!(places(&table), [(0, 1), (1, 2), (2, 3), (4, 4), (3, 5)]);
    assert_eq!(values(&table, 0), [4.75, 0.5, 2.0]);
    assert_eq!(values(&table, 1), [4.75, 0.5, 1.0]);
    assert_eq!(values(&table, 3), [2.75, 0.0, 1.0]);
    assert_eq!(values(&table, 4), [3.75, 0.0, 1.0]);
    let points: Vec<u32> = table.iter().map(|s| s.points).collect();
    assert_eq!(points, [5, 5, 4, 3, 3]);
}

#[test]
fn players_level_on_everything_share_a_rank() {
    // 0 beats everyone and 4 loses to everyone; 1, 2 and 3 beat each other
    // in a circle, so they are level on points, SB (the one they beat in
    // the circle has 2), direct encounter (1 each) and wins.
    let mut games = vec![
        (1, 1, 2, RedWon),
        (2, 2, 3, RedWon),
        (3, 3, 1, RedWon),
        (4, 0, 4, RedWon),
    ];
    for p in 1..=3 {
        games.push((p as u32, 0, p, RedWon));
        games.push((p as u32 + 1, p, 4, RedWon));
    }
    let table = standings(System::RoundRobin, 5, &history(&games, &[]), 2);
    assert_eq!(places(&table), [(0, 1), (1, 2), (2, 2), (3, 2), (4, 5)]);
    assert_eq!(values(&table, 1), [2.0, 1.0, 2.0]);
    assert_eq!(values(&table, 1), values(&table, 3));
}

#[test]
fn unfinished_games_count_for_nothing() {
    let mut h = history(&[(1, 0, 1, RedWon)], &[]);
    h.games.push(Played {
        round: 2,
        red: 1,
        blue: 0,
        outcome: None,
    });
    let table = standings(System::Swiss, 2, &h, 2);
    assert_eq!(places(&table), [(0, 1), (1, 2)]);
    assert_eq!(table[0].games, 1);
    assert_eq!(table[0].wins, 1);
}

#[test]
fn buchholz_cut_1_splits_a_swiss_tie_and_byes_add_no_opponent() {
    // Five players, a bye each round (worth a win here).
    // 0: beat 3, beat 2, drew 4 -> 2.5; 1: drew 4, bye, beat 2 -> 2.5.
    // Opponents' points: 0 has 3 (1), 2 (1), 4 (2): Buchholz 4, cut 3;
    // 1 has 4 (2), 2 (1): Buchholz 3, cut 2.
    let h = history(
        &[
            (1, 0, 3, RedWon),
            (1, 1, 4, Draw),
            (2, 2, 0, BlueWon),
            (2, 4, 3, RedWon),
            (3, 0, 4, Draw),
            (3, 1, 2, RedWon),
        ],
        &[(1, 2), (2, 1), (3, 3)],
    );
    let table = standings(System::Swiss, 5, &h, 2);
    assert_eq!(places(&table), [(0, 1), (1, 2), (4, 3), (2, 4), (3, 5)]);
    // Cut 1, Buchholz, SB.
    assert_eq!(values(&table, 0), [3.0, 4.0, 3.0]);
    assert_eq!(values(&table, 1), [2.0, 3.0, 2.0]);
    // 2 met 0 and 1 (2.5 each): cut 2.5, Buchholz 5; 3 met 0 (2.5) and 4
    // (2): cut 2.5, Buchholz 4.5.
    assert_eq!(values(&table, 2), [2.5, 5.0, 0.0]);
    assert_eq!(values(&table, 3), [2.5, 4.5, 0.0]);
    let games: Vec<u32> = table.iter().map(|s| s.games).collect();
    assert_eq!(games, [3, 2, 3, 2, 2]);

    // A bye worth a draw drops 1 below 4.
    let table = standings(System::Swiss, 5, &h, 1);
    assert_eq!(table[1].player, 4);
}

#[test]
fn buchholz_splits_what_cut_1_cannot() {
    // Six players, three rounds; 0 and 1 end on 2 with cut 1 of 3.5:
    // 0 met 4 (2.5), 5 (1), 3 (1): Buchholz 4.5;
    // 1 met 2 (0.5), 4 (2.5), 5 (1): Buchholz 4.
    let h = history(
        &[
            (1, 4, 0, RedWon),
            (1, 2, 1, BlueWon),
            (1, 3, 5, BlueWon),
            (2, 4, 1, RedWon),
            (2, 3, 2, RedWon),
            (2, 0, 5, RedWon),
            (3, 5, 1, BlueWon),
            (3, 2, 4, Draw),
            (3, 3, 0, BlueWon),
        ],
        &[],
    );
    let table = standings(System::Swiss, 6, &h, 2);
    assert_eq!(
        places(&table),
        [(4, 1), (0, 2), (1, 3), (5, 4), (3, 5), (2, 6)]
    );
    assert_eq!(values(&table, 0)[..2], [3.5, 4.5]);
    assert_eq!(values(&table, 1)[..2], [3.5, 4.0]);
}

#[test]
fn sonneborn_berger_splits_what_both_buchholz_cannot() {
    // Six players, three rounds; 0 and 1 end on 2 with cut 1 of 3 and
    // Buchholz of 3.5. SB 0: beat 2 (1.5) and 3 (0.5) = 2;
    // SB 1: beat 4 (1.5), drew 3 (0.5) and 5 (1.5) = 2.5.
    let h = history(
        &[
            (1, 3, 2, BlueWon),
            (1, 5, 0, RedWon),
            (1, 4, 1, BlueWon),
            (2, 3, 1, Draw),
            (2, 4, 5, RedWon),
            (2, 0, 2, RedWon),
            (3, 5, 1, Draw),
            (3, 0, 3, RedWon),
            (3, 4, 2, Draw),
        ],
        &[],
    );
    let table = standings(System::Swiss, 6, &h, 2);
    assert_eq!(
        places(&table),
        [(1, 1), (0, 2), (5, 3), (4, 4), (2, 5), (3, 6)]
    );
    assert_eq!(values(&table, 0), [3.0, 3.5, 2.0]);
    assert_eq!(values(&table, 1), [3.0, 3.5, 2.5]);
}

#[test]
fn a_swiss_bye_and_a_win_over_a_zero_can_tie() {
    // 0 beat 1 (who has nothing), 2 had the bye: both 1 point, and every
    // tie-break is 0 for both (one opponent, with no points).
    let h = history(&[(1, 0, 1, RedWon)], &[(1, 2)]);
    let table = standings(System::Swiss, 3, &h, 2);
    assert_eq!(places(&table), [(0, 1), (2, 1), (1, 3)]);
    assert_eq!(values(&table, 0), [0.0, 0.0, 0.0]);
    assert_eq!(table[1].games, 0);
    assert_eq!(table[1].wins, 0);
}

/// The worked example of docs/tournaments.md: Ann (seat 0, 1612), Bo
/// (seat 1, 1545) and Cy (seat 2, 1500) in a Swiss of two rounds.
#[test]
fn the_worked_example_of_the_docs() {
    use domain::tournament::{pair_swiss, Entrant, Pairing};
    let entrants = [
        Entrant {
            rating: 1612,
            active: true,
        },
        Entrant {
            rating: 1545,
            active: true,
        },
        Entrant {
            rating: 1500,
            active: true,
        },
    ];
    let first = pair_swiss(&entrants, &History::default(), 1).unwrap();
    assert_eq!(first.pairings, [Pairing { red: 0, blue: 1 }]);
    assert_eq!(first.bye, Some(2));
    let played = history(&[(1, 0, 1, RedWon)], &[(1, 2)]);
    let second = pair_swiss(&entrants, &played, 2).unwrap();
    assert_eq!(second.pairings, [Pairing { red: 2, blue: 0 }]);
    assert_eq!(second.bye, Some(1));
    let mut after = played.clone();
    after.byes.push((2, 1));
    after.games.push(Played {
        round: 2,
        red: 2,
        blue: 0,
        outcome: None,
    });
    let table = standings(System::Swiss, 3, &after, 2);
    assert_eq!(places(&table), [(0, 1), (1, 2), (2, 3)]);
    assert!(table.iter().all(|s| s.points == 2));
    assert_eq!(values(&table, 0), [0.0, 1.0, 1.0]);
    assert_eq!(values(&table, 1), [0.0, 1.0, 0.0]);
    assert_eq!(values(&table, 2), [0.0, 0.0, 0.0]);
}
