//! Round robin schedules from the Berger tables.
//!
//! With `m` seats (the player count, rounded up to even), seat `m` stays put
//! and the others turn around it. Round 1 reads `1-m, 2-(m-1), 3-(m-2), ...`;
//! each later round takes the seats of the previous one shifted by `m / 2`
//! (modulo `m - 1`). The fixed seat plays Blue in odd rounds and Red in even
//! ones, which is what keeps everyone's colors within one of even.

use super::{Pairing, Round};

/// Round robin: all rounds at once, from Berger tables. `players` >= 2.
/// With an odd count, a dummy makes it even and whoever meets the dummy has the
/// round's bye. `double`: a second cycle with every pairing's colors swapped.
/// Colors as balanced as the count allows (in a single cycle no player's
/// red-minus-blue count differs by more than 1).
///
/// Players are numbered from 0 here, so Berger's player `k` is index `k - 1`
/// (with six players, round 1 is 0-5, 1-4, 2-3, the first of each pair Red).
/// Fewer than two players give no rounds.
pub fn round_robin(players: usize, double: bool) -> Vec<Round> {
    if players < 2 {
        return Vec::new();
    }
    let seats = players + players % 2;
    let fixed = seats - 1;
    let turning = seats - 1;
    let half = seats / 2;
    let mut cycle = Vec::with_capacity(turning);
    for r in 0..turning {
        // Seats (0-based) in this round's order: the first meets the fixed
        // seat, then the second meets the last, the third the one before it...
        let seat = |k: usize| (k + r * half) % turning;
        let mut round = Round::default();
        let mut place = |red: usize, blue: usize| {
            if red >= players {
                round.bye = Some(blue);
            } else if blue >= players {
                round.bye = Some(red);
            } else {
                round.pairings.push(Pairing { red, blue });
            }
        };
        if r.is_multiple_of(2) {
            place(seat(0), fixed);
        } else {
            place(fixed, seat(0));
        }
        for k in 1..half {
            place(seat(k), seat(turning - k));
        }
        cycle.push(round);
    }
    if double {
        let second: Vec<Round> = cycle
            .iter()
            .map(|round| Round {
                pairings: round
                    .pairings
                    .iter()
                    .map(|p| Pairing {
                        red: p.blue,
                        blue: p.red,
                    })
                    .collect(),
                bye: round.bye,
            })
            .collect();
        cycle.extend(second);
    }
    cycle
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(round: &Round) -> Vec<(usize, usize)> {
        round
            .pairings
            .iter()
            .map(|p| (p.red + 1, p.blue + 1))
            .collect()
    }

    #[test]
    fn four_players() {
        let rounds = round_robin(4, false);
        assert_eq!(numbered(&rounds[0]), [(1, 4), (2, 3)]);
        assert_eq!(numbered(&rounds[1]), [(4, 3), (1, 2)]);
        assert_eq!(numbered(&rounds[2]), [(2, 4), (3, 1)]);
    }

    #[test]
    fn three_players_have_byes() {
        let rounds = round_robin(3, false);
        assert_eq!(rounds.len(), 3);
        assert_eq!(rounds[0].bye, Some(0));
        assert_eq!(numbered(&rounds[0]), [(2, 3)]);
    }

    #[test]
    fn too_few() {
        assert!(round_robin(1, true).is_empty());
        assert!(round_robin(0, false).is_empty());
    }
}
