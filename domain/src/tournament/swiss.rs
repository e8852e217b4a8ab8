//! Swiss pairing after a simplified FIDE Dutch system.
//!
//! Round 1 follows the ratings: the top half of the field meets the bottom
//! half in order. From round 2 the active players are ranked by score, then
//! rating, then index, and paired score group by score group from the top.
//! In each group (with whoever floated down from above first) the upper half
//! (S1) meets the lower half (S2) in order; a player that cannot be paired in
//! the group floats down to the next.
//!
//! What makes this safe without any backtracking is an oracle: a perfect
//! matching (Edmonds' algorithm, see `matching`) of the players still to be
//! paired, over the games the rules allow. A player is only ever given a
//! partner that leaves the rest of the field pairable, so the greedy
//! top-down pass never gets stuck, and the whole round costs a few hundred
//! matching searches at most.
//!
//! Simplified from the Dutch rules: a group is paired greedily, S1 player by
//! S1 player (its first acceptable S2 opponent, else the lowest S1 one); the
//! number of pairs in a group is not maximised over all its pairings, the
//! same player may float down in consecutive rounds, and the color
//! preferences only reorder opponents within S2. A bye counts as a win for
//! the ranking.

use std::cmp::Reverse;

use super::matching::Matcher;
use super::{Entrant, HalfPoints, History, Pairing, PairingError, Round};
use crate::Color;

/// A Swiss round as [`pair_swiss_detailed`] returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissPairing {
    pub round: Round,
    /// True when no pairing met the color criteria (a red-minus-blue
    /// difference beyond 2, or three games of one color in a row), so they
    /// were set aside for this round; never-repeated games still hold.
    pub colors_relaxed: bool,
}

/// Swiss: the pairing of round `round` (1-based; round 1 by rating: the field
/// sorted by rating, top half against bottom half, board 1's top seed red and
/// colors alternating by board; odd count: the lowest-rated gets the bye).
/// Later rounds: score groups from the top, Dutch-style (S1 against S2 within a
/// group, floaters down), absolute criteria: never the same two players twice;
/// after the game no player's red-minus-blue difference beyond +-2 and no
/// player with three games of one color in a row (byes and unplayed rounds do
/// not count as colors); the bye to the lowest-ranked active player who has not
/// had one (if all have, the lowest-ranked), choosing it so that the rest can be
/// paired. Color allocation: give each player of a pair their due color
/// (the one that reduces their difference, else alternates from their last),
/// stronger (higher score, then rating) player's preference wins on conflict.
/// If no pairing meets the color criteria, relax only the color criteria (never
/// the no-repeat one); if none exists without a repeat, `Err(PairingError::Exhausted)`.
///
/// Only the players marked active take part. Round 1's seeding is used when
/// `round` is 1 (or 0) and no game has been played yet. Unfinished games
/// count as met and as colors, but for no points; a bye counts as a win
/// when ranking. Games and byes naming a player outside `entrants` are
/// ignored. The pairings come board by board, the best-ranked first.
pub fn pair_swiss(
    entrants: &[Entrant],
    history: &History,
    round: u32,
) -> Result<Round, PairingError> {
    pair_swiss_detailed(entrants, history, round).map(|p| p.round)
}

/// [`pair_swiss`], also telling whether the color criteria had to be set
/// aside. Whenever they were, no pairing of the round (with a bye as the
/// bye rule allows) could have met them.
pub fn pair_swiss_detailed(
    entrants: &[Entrant],
    history: &History,
    round: u32,
) -> Result<SwissPairing, PairingError> {
    let records = records(entrants.len(), history);
    let order = ranking(entrants, &records);
    if order.len() < 2 {
        return Err(PairingError::TooFew);
    }
    if round <= 1 && history.games.is_empty() {
        return Ok(SwissPairing {
            round: first_round(entrants),
            colors_relaxed: false,
        });
    }
    let field = Field::new(entrants, &records, &order, history);
    field.pair()
}

/// The active players in the order the Swiss pairing ranks them: score
/// (a bye as a win, unfinished games as nothing), then rating, then index.
pub fn swiss_ranking(entrants: &[Entrant], history: &History) -> Vec<usize> {
    ranking(entrants, &records(entrants.len(), history))
}

/// What the pairing needs to know of one player's past.
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    score: HalfPoints,
    /// Games as Red minus games as Blue.
    difference: i32,
    /// The color of the last game, if any.
    last: Option<Color>,
    /// The color of the last two games, when they had the same.
    twice: Option<Color>,
    byes: u32,
}

impl Record {
    /// Whether the player may take `color` without breaking a color
    /// criterion.
    fn may_take(&self, color: Color) -> bool {
        let step = if color == Color::Red { 1 } else { -1 };
        (self.difference + step).abs() <= 2 && self.twice != Some(color)
    }

    /// The color the player is due: the one that evens their difference,
    /// else the other of their last; none before their first game.
    fn due(&self) -> Option<Color> {
        match self.difference {
            d if d > 0 => Some(Color::Blue),
            d if d < 0 => Some(Color::Red),
            _ => self.last.map(Color::opponent),
        }
    }
}

fn records(players: usize, history: &History) -> Vec<Record> {
    let mut records = vec![Record::default(); players];
    let mut colors: Vec<Vec<(u32, Color)>> = vec![Vec::new(); players];
    for game in &history.games {
        if game.red >= players || game.blue >= players || game.red == game.blue {
            continue;
        }
        colors[game.red].push((game.round, Color::Red));
        colors[game.blue].push((game.round, Color::Blue));
        if let Some(outcome) = game.outcome {
            let (red, blue) = outcome.half_points();
            records[game.red].score += red;
            records[game.blue].score += blue;
        }
    }
    for &(_, player) in &history.byes {
        if let Some(record) = records.get_mut(player) {
            record.score += 2;
            record.byes += 1;
        }
    }
    for (record, colors) in records.iter_mut().zip(&mut colors) {
        colors.sort_by_key(|&(round, _)| round);
        for &(_, color) in colors.iter() {
            record.difference += if color == Color::Red { 1 } else { -1 };
        }
        let mut recent = colors.iter().rev().map(|&(_, c)| c);
        let (last, before) = (recent.next(), recent.next());
        record.last = last;
        record.twice = last.filter(|&c| before == Some(c));
    }
    records
}

fn ranking(entrants: &[Entrant], records: &[Record]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entrants.len())
        .filter(|&p| entrants[p].active)
        .collect();
    order.sort_by_key(|&p| (Reverse(records[p].score), Reverse(entrants[p].rating), p));
    order
}

/// Round 1: by rating alone.
fn first_round(entrants: &[Entrant]) -> Round {
    let mut field: Vec<usize> = (0..entrants.len())
        .filter(|&p| entrants[p].active)
        .collect();
    field.sort_by_key(|&p| (Reverse(entrants[p].rating), p));
    let bye = if !field.len().is_multiple_of(2) {
        field.pop()
    } else {
        None
    };
    let half = field.len() / 2;
    let pairings = (0..half)
        .map(|board| {
            let (top, bottom) = (field[board], field[half + board]);
            if board.is_multiple_of(2) {
                Pairing {
                    red: top,
                    blue: bottom,
                }
            } else {
                Pairing {
                    red: bottom,
                    blue: top,
                }
            }
        })
        .collect();
    Round { pairings, bye }
}

/// How a pair's colors would fall.
#[derive(Debug, Clone, Copy)]
struct Colors {
    /// Whether the better-ranked of the two gets Red.
    first_red: bool,
    /// Color criteria broken (0 to 2; only when relaxed).
    broken: u8,
    /// Whether someone does not get the color they are due.
    unwanted: bool,
}

/// The active players, by ranking position: the pairing works on positions
/// (0 the best-ranked), and translates back to player indices at the end.
struct Field<'a> {
    order: &'a [usize],
    records: Vec<Record>,
    /// Score of each position.
    scores: Vec<HalfPoints>,
    met: Vec<bool>,
    history_byes: Vec<bool>,
}

impl<'a> Field<'a> {
    fn new(
        entrants: &[Entrant],
        records: &[Record],
        order: &'a [usize],
        history: &History,
    ) -> Field<'a> {
        let n = entrants.len();
        let k = order.len();
        let mut position = vec![usize::MAX; n];
        for (i, &p) in order.iter().enumerate() {
            position[p] = i;
        }
        let mut met = vec![false; k * k];
        for game in &history.games {
            let (Some(&a), Some(&b)) = (position.get(game.red), position.get(game.blue)) else {
                continue;
            };
            if a < k && b < k {
                met[a * k + b] = true;
                met[b * k + a] = true;
            }
        }
        Field {
            order,
            records: order.iter().map(|&p| records[p]).collect(),
            scores: order.iter().map(|&p| records[p].score).collect(),
            met,
            history_byes: order.iter().map(|&p| records[p].byes > 0).collect(),
        }
    }

    fn len(&self) -> usize {
        self.order.len()
    }

    fn met(&self, a: usize, b: usize) -> bool {
        self.met[a * self.len() + b]
    }

    /// The colors of a game between positions `a` and `b` (`a` better
    /// ranked).
    fn colors(&self, a: usize, b: usize) -> Colors {
        let (ra, rb) = (&self.records[a], &self.records[b]);
        let broken = |red: &Record, blue: &Record| {
            u8::from(!red.may_take(Color::Red)) + u8::from(!blue.may_take(Color::Blue))
        };
        let (a_red, b_red) = (broken(ra, rb), broken(rb, ra));
        let first_red = if a_red != b_red {
            a_red < b_red
        } else {
            match (ra.due(), rb.due()) {
                (Some(color), _) => color == Color::Red,
                (None, Some(color)) => color == Color::Blue,
                (None, None) => true,
            }
        };
        let (ca, cb) = if first_red {
            (Color::Red, Color::Blue)
        } else {
            (Color::Blue, Color::Red)
        };
        let unwanted = ra.due().is_some_and(|d| d != ca) || rb.due().is_some_and(|d| d != cb);
        Colors {
            first_red,
            broken: a_red.min(b_red),
            unwanted,
        }
    }

    fn pair(&self) -> Result<SwissPairing, PairingError> {
        let k = self.len();
        let mut strict = Matcher::new(k, |a, b| !self.met(a, b) && self.colors(a, b).broken == 0);
        let mut loose = Matcher::new(k, |a, b| !self.met(a, b));
        let (mut matcher, relaxed, bye) = if k.is_multiple_of(2) {
            if strict.maximize() == 0 {
                (strict, false, None)
            } else if loose.maximize() == 0 {
                (loose, true, None)
            } else {
                return Err(PairingError::Exhausted);
            }
        } else {
            strict.maximize();
            loose.maximize();
            let spare = [strict.spare_vertices(), loose.spare_vertices()];
            let without_bye = |i: usize| !self.history_byes[i];
            let choice = [true, false].into_iter().find_map(|first_byes| {
                (0..2).find_map(|mode| {
                    (0..k)
                        .rev()
                        .find(|&i| spare[mode][i] && (!first_byes || without_bye(i)))
                        .map(|i| (mode, i))
                })
            });
            let Some((mode, bye)) = choice else {
                return Err(PairingError::Exhausted);
            };
            let mut matcher = if mode == 0 { strict } else { loose };
            matcher.remove(bye);
            if matcher.maximize() != 0 {
                return Err(PairingError::Exhausted);
            }
            (matcher, mode == 1, Some(bye))
        };
        let pairs = Brackets::new(self, &mut matcher, bye).run()?;
        let pairings = pairs
            .into_iter()
            .map(|(a, b)| {
                let (a, b) = (a.min(b), a.max(b));
                let (red, blue) = if self.colors(a, b).first_red {
                    (a, b)
                } else {
                    (b, a)
                };
                Pairing {
                    red: self.order[red],
                    blue: self.order[blue],
                }
            })
            .collect();
        Ok(SwissPairing {
            round: Round {
                pairings,
                bye: bye.map(|b| self.order[b]),
            },
            colors_relaxed: relaxed,
        })
    }
}

/// The top-down pass over the score groups.
struct Brackets<'f, 'a> {
    field: &'f Field<'a>,
    matcher: &'f mut Matcher,
    paired: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    /// Each player's acceptable partners when last asked. Pairing others
    /// off only ever shrinks that set, so a candidate missing from it need
    /// not be asked about again (a floater passing many groups costs one
    /// search, not one per group).
    known: Vec<Option<Vec<bool>>>,
}

/// Which kind of opponent a candidate is, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// In the lower half of the group (or a resident, for a floater).
    Lower,
    /// In the upper half, below the player (an exchange).
    Upper,
}

impl<'f, 'a> Brackets<'f, 'a> {
    fn new(field: &'f Field<'a>, matcher: &'f mut Matcher, bye: Option<usize>) -> Self {
        let mut paired = vec![false; field.len()];
        if let Some(b) = bye {
            paired[b] = true;
        }
        Brackets {
            field,
            matcher,
            paired,
            pairs: Vec::with_capacity(field.len() / 2),
            known: vec![None; field.len()],
        }
    }

    fn run(mut self) -> Result<Vec<(usize, usize)>, PairingError> {
        let k = self.field.len();
        let mut floaters: Vec<usize> = Vec::new();
        let mut start = 0;
        while start < k {
            let score = self.field.scores[start];
            let end = (start..k)
                .find(|&i| self.field.scores[i] != score)
                .unwrap_or(k);
            let residents: Vec<usize> = (start..end).filter(|&i| !self.paired[i]).collect();
            let mut still: Vec<usize> = Vec::new();
            for &f in &floaters {
                let candidates: Vec<(Kind, usize)> =
                    residents.iter().map(|&q| (Kind::Lower, q)).collect();
                if !self.try_pair(f, &candidates)? {
                    still.push(f);
                }
            }
            still.extend(self.homogeneous(residents)?);
            still.sort_unstable();
            floaters = still;
            start = end;
        }
        // Whoever floated out of the last group: the oracle guarantees that
        // they can be paired among themselves.
        while let Some(&p) = floaters.iter().find(|&&p| !self.paired[p]) {
            let candidates: Vec<(Kind, usize)> = floaters
                .iter()
                .filter(|&&q| q != p)
                .map(|&q| (Kind::Lower, q))
                .collect();
            if !self.try_pair(p, &candidates)? {
                debug_assert!(false, "the matching oracle left {p} without a partner");
                return Err(PairingError::Exhausted);
            }
        }
        let mut pairs = self.pairs;
        pairs.sort_unstable_by_key(|&(a, b)| a.min(b));
        Ok(pairs)
    }

    /// Pairs a group's own players, S1 against S2, again among whoever is
    /// left while that makes progress; returns those who float down.
    fn homogeneous(&mut self, residents: Vec<usize>) -> Result<Vec<usize>, PairingError> {
        let mut pool = residents;
        let mut floating: Vec<usize> = Vec::new();
        loop {
            pool.retain(|&p| !self.paired[p]);
            if pool.len() < 2 {
                break;
            }
            let half = pool.len() / 2;
            let (s1, s2) = pool.split_at(half);
            let mut progress = false;
            for (i, &p) in s1.iter().enumerate() {
                if self.paired[p] {
                    continue;
                }
                let candidates: Vec<(Kind, usize)> = s2
                    .iter()
                    .map(|&q| (Kind::Lower, q))
                    .chain(s1[i + 1..].iter().rev().map(|&q| (Kind::Upper, q)))
                    .collect();
                if self.try_pair(p, &candidates)? {
                    progress = true;
                } else {
                    floating.push(p);
                }
            }
            pool.retain(|p| !floating.contains(p));
            if !progress {
                break;
            }
        }
        floating.extend(pool.into_iter().filter(|&p| !self.paired[p]));
        Ok(floating)
    }

    /// Pairs `p` with the best of `candidates` (in order of preference) that
    /// leaves the rest pairable, if any: fewest broken color criteria first,
    /// then the kind of opponent, then due colors, then the given order.
    fn try_pair(&mut self, p: usize, candidates: &[(Kind, usize)]) -> Result<bool, PairingError> {
        let hopeful = |q: usize| self.known[p].as_ref().is_none_or(|known| known[q]);
        if !candidates
            .iter()
            .any(|&(_, q)| !self.paired[q] && hopeful(q))
        {
            return Ok(false);
        }
        let partners = self.matcher.partners(p);
        let best = candidates
            .iter()
            .enumerate()
            .filter(|&(_, &(_, q))| !self.paired[q] && partners[q])
            .min_by_key(|&(place, &(kind, q))| {
                let colors = self.field.colors(p.min(q), p.max(q));
                (colors.broken, kind, colors.unwanted, place)
            })
            .map(|(_, &(_, q))| q);
        let Some(q) = best else {
            self.known[p] = Some(partners);
            return Ok(false);
        };
        if !self.matcher.pair_off(p, q) {
            debug_assert!(false, "pairing {p} with {q} broke the matching");
            return Err(PairingError::Exhausted);
        }
        self.paired[p] = true;
        self.paired[q] = true;
        self.pairs.push((p, q));
        Ok(true)
    }
}
