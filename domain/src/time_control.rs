//! Correspondence time controls and the clocks they run (docs/lifecycle.md,
//! "Clocks"). Pure arithmetic on instants given as Unix seconds: nothing
//! here reads the time of day, so the service passes its (injectable)
//! clock's reading in.
//!
//! Each player has one clock: the seconds left on it as of [`Clocks::since`].
//! A clock runs while its player must act (their move, or a setup not yet
//! placed) and is not paused by a vacation; [`Clocks::rebase`] moves
//! `since` forward, charging the running clocks for the time between.

use serde::{Deserialize, Serialize};

use crate::{ByColor, Color};

/// Seconds in a day.
pub const DAY: i64 = 86_400;

/// The most a clock holds: time carried forward stops adding up there.
pub const MAX_BANK: i64 = 365 * DAY;

/// How much time each player has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    /// `days` for every move (and for the setup); unused time is lost.
    PerMove { days: u32 },
    /// A bank of `initial_days`; each move adds `increment_days`, never
    /// beyond `max_days`.
    Fischer {
        initial_days: u32,
        increment_days: u32,
        max_days: u32,
    },
    /// `days` for every `moves` moves; unused time is carried forward.
    MovesInDays { moves: u32, days: u32 },
}

/// The bounds a time control must keep, as its refusal says them.
pub mod bounds {
    use std::ops::RangeInclusive;
    pub const PER_MOVE_DAYS: RangeInclusive<u32> = 1..=14;
    pub const FISCHER_INITIAL_DAYS: RangeInclusive<u32> = 1..=90;
    pub const FISCHER_INCREMENT_DAYS: RangeInclusive<u32> = 1..=14;
    pub const FISCHER_MAX_DAYS: RangeInclusive<u32> = 1..=180;
    pub const MOVES: RangeInclusive<u32> = 1..=50;
    pub const MOVES_IN_DAYS_DAYS: RangeInclusive<u32> = 1..=180;
}

/// Why a time control cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TimeControlError(pub String);

fn within(
    name: &str,
    value: u32,
    range: std::ops::RangeInclusive<u32>,
) -> Result<(), TimeControlError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(TimeControlError(format!(
            "{name} must be between {} and {}, not {value}",
            range.start(),
            range.end()
        )))
    }
}

impl TimeControl {
    /// Whether this control can be played: each number within its bounds
    /// ([`bounds`]), and the numbers together workable.
    pub fn validate(&self) -> Result<(), TimeControlError> {
        match *self {
            TimeControl::PerMove { days } => within("days", days, bounds::PER_MOVE_DAYS),
            TimeControl::Fischer {
                initial_days,
                increment_days,
                max_days,
            } => {
                within("initial_days", initial_days, bounds::FISCHER_INITIAL_DAYS)?;
                within(
                    "increment_days",
                    increment_days,
                    bounds::FISCHER_INCREMENT_DAYS,
                )?;
                within("max_days", max_days, bounds::FISCHER_MAX_DAYS)?;
                if max_days < initial_days {
                    return Err(TimeControlError(format!(
                        "max_days ({max_days}) must be at least initial_days ({initial_days})"
                    )));
                }
                if max_days < increment_days {
                    return Err(TimeControlError(format!(
                        "max_days ({max_days}) must be at least increment_days \
                         ({increment_days})"
                    )));
                }
                Ok(())
            }
            TimeControl::MovesInDays { moves, days } => {
                within("moves", moves, bounds::MOVES)?;
                within("days", days, bounds::MOVES_IN_DAYS_DAYS)?;
                if days < moves {
                    return Err(TimeControlError(format!(
                        "{moves} moves in {days} days is less than a day a move: \
                         days must be at least moves"
                    )));
                }
                Ok(())
            }
        }
    }

    /// Seconds on each clock when the setup phase starts.
    pub fn initial_seconds(&self) -> i64 {
        let days = match *self {
            TimeControl::PerMove { days } => days,
            TimeControl::Fischer { initial_days, .. } => initial_days,
            TimeControl::MovesInDays { days, .. } => days,
        };
        i64::from(days) * DAY
    }

    /// Whole days of the time a move is given on average, for clients
    /// that know only `days_per_move`: the days of `per_move`, the
    /// increment of `fischer`, `days / moves` of `moves_in_days` (at least
    /// one).
    pub fn days_per_move(&self) -> u32 {
        match *self {
            TimeControl::PerMove { days } => days,
            TimeControl::Fischer { increment_days, .. } => increment_days,
            TimeControl::MovesInDays { moves, days } => (days / moves.max(1)).max(1),
        }
    }

    /// The seconds left after a player who had `left` made their
    /// `moves_made`-th move.
    fn after_move(&self, left: i64, moves_made: u32) -> i64 {
        match *self {
            TimeControl::PerMove { days } => i64::from(days) * DAY,
            TimeControl::Fischer {
                increment_days,
                max_days,
                ..
            } => (left + i64::from(increment_days) * DAY).min(i64::from(max_days) * DAY),
            TimeControl::MovesInDays { moves, days } => {
                if moves > 0 && moves_made.is_multiple_of(moves) {
                    (left + i64::from(days) * DAY).min(MAX_BANK)
                } else {
                    left
                }
            }
        }
    }

    /// The seconds left after a player who had `left` placed their setup:
    /// a fresh move's time under `per_move`; nothing added otherwise (the
    /// setup is played on the clock, without an increment).
    fn after_setup(&self, left: i64) -> i64 {
        match *self {
            TimeControl::PerMove { days } => i64::from(days) * DAY,
            TimeControl::Fischer { .. } | TimeControl::MovesInDays { .. } => left,
        }
    }

    /// Under `moves_in_days`: the moves a player who made `moves_made`
    /// still has to make before the next control adds time.
    pub fn moves_to_control(&self, moves_made: u32) -> Option<u32> {
        match *self {
            TimeControl::MovesInDays { moves, .. } if moves > 0 => Some(moves - moves_made % moves),
            _ => None,
        }
    }
}

/// Both players' clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// The instant (Unix seconds) as of which `left` is counted.
    pub since: i64,
    /// Seconds left on each clock at `since` (negative once run out).
    pub left: ByColor<i64>,
    /// While a player is on vacation: the instant their clock may run
    /// again (it stays stopped until then).
    #[serde(default)]
    pub paused_until: ByColor<Option<i64>>,
}

/// Which clocks run: those of the players who must act.
pub type Running = ByColor<bool>;

const COLORS: [Color; 2] = [Color::Red, Color::Blue];

impl Clocks {
    /// Both clocks full, as of `now`.
    pub fn start(control: &TimeControl, now: i64) -> Clocks {
        let full = control.initial_seconds();
        Clocks {
            since: now,
            left: ByColor {
                red: full,
                blue: full,
            },
            paused_until: ByColor::default(),
        }
    }

    /// When `color`'s clock starts counting, if it runs: `since`, or the
    /// end of a pause after it.
    fn counts_from(&self, color: Color) -> i64 {
        self.paused_until
            .get(color)
            .map_or(self.since, |until| until.max(self.since))
    }

    /// Seconds left on `color`'s clock at `now` (at least 0).
    pub fn left_at(&self, color: Color, running: &Running, now: i64) -> i64 {
        self.raw_left_at(color, running, now).max(0)
    }

    fn raw_left_at(&self, color: Color, running: &Running, now: i64) -> i64 {
        let left = *self.left.get(color);
        if *running.get(color) {
            left - (now - self.counts_from(color)).max(0)
        } else {
            left
        }
    }

    /// When `color`'s clock runs out, if it runs (the end of a pause
    /// counted in).
    pub fn runs_out_at(&self, color: Color, running: &Running) -> Option<i64> {
        running
            .get(color)
            .then(|| self.counts_from(color) + self.left.get(color))
    }

    /// The first running clock to run out, and when.
    pub fn first_out(&self, running: &Running) -> Option<(i64, Color)> {
        COLORS
            .into_iter()
            .filter_map(|c| self.runs_out_at(c, running).map(|at| (at, c)))
            .min()
    }

    /// Moves the first running clock's end to `deadline` (Unix seconds),
    /// when a stored deadline and these clocks disagree (a write by a
    /// server from before clocks): the deadline is what the clock ends the
    /// game at, so it wins.
    pub fn agree_with(&mut self, running: &Running, deadline: i64) {
        if let Some((out, color)) = self.first_out(running) {
            *self.left.get_mut(color) += deadline - out;
        }
    }

    /// Whether `color`'s clock is paused at `now`.
    pub fn paused(&self, color: Color, now: i64) -> bool {
        self.paused_until
            .get(color)
            .is_some_and(|until| until > now)
    }

    /// Charges the clocks that ran (`running`) up to `now` and counts from
    /// `now` on; a pause that is over is forgotten.
    pub fn rebase(&mut self, running: &Running, now: i64) {
        let now = now.max(self.since);
        for color in COLORS {
            *self.left.get_mut(color) = self.raw_left_at(color, running, now);
            if self
                .paused_until
                .get(color)
                .is_some_and(|until| until <= now)
            {
                *self.paused_until.get_mut(color) = None;
            }
        }
        self.since = now;
    }

    /// `color` made their `moves_made`-th move at `now`, under `control`;
    /// `running`: the clocks that ran until then.
    pub fn moved(
        &mut self,
        control: &TimeControl,
        color: Color,
        moves_made: u32,
        running: &Running,
        now: i64,
    ) {
        self.rebase(running, now);
        self.credit_move(control, color, moves_made);
    }

    /// Credits `color`, whose clock was just charged ([`Clocks::rebase`]),
    /// for their `moves_made`-th move.
    pub fn credit_move(&mut self, control: &TimeControl, color: Color, moves_made: u32) {
        // A move made late (a bot's, which never loses on time) starts
        // from an empty clock, not a negative one.
        let left = self.left.get_mut(color);
        *left = control.after_move((*left).max(0), moves_made);
    }

    /// `color` placed their setup at `now`.
    pub fn set_up(&mut self, control: &TimeControl, color: Color, running: &Running, now: i64) {
        self.rebase(running, now);
        self.credit_setup(control, color);
    }

    /// Credits `color`, whose clock was just charged, for placing a setup.
    pub fn credit_setup(&mut self, control: &TimeControl, color: Color) {
        let left = self.left.get_mut(color);
        *left = control.after_setup(*left);
    }

    /// Stops `color`'s clock from `now` until `until` (a vacation).
    pub fn pause(&mut self, color: Color, until: i64, running: &Running, now: i64) {
        self.rebase(running, now);
        *self.paused_until.get_mut(color) = (until > self.since).then_some(until);
    }

    /// Lets `color`'s clock run again from `now` (a vacation ended early).
    pub fn resume(&mut self, color: Color, running: &Running, now: i64) {
        self.rebase(running, now);
        *self.paused_until.get_mut(color) = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_800_000_000;
    const HOUR: i64 = 3_600;

    fn red_runs() -> Running {
        ByColor {
            red: true,
            blue: false,
        }
    }

    fn blue_runs() -> Running {
        ByColor {
            red: false,
            blue: true,
        }
    }

    #[test]
    fn per_move_gives_every_move_its_days() {
        let control = TimeControl::PerMove { days: 3 };
        let mut clocks = Clocks::start(&control, T0);
        assert_eq!(
            clocks.runs_out_at(Color::Red, &red_runs()),
            Some(T0 + 3 * DAY)
        );
        assert_eq!(clocks.left_at(Color::Red, &red_runs(), T0 + DAY), 2 * DAY);
        clocks.moved(&control, Color::Red, 1, &red_runs(), T0 + 2 * DAY);
        // Unused time is lost: Red has 3 days again, Blue's runs now.
        assert_eq!(*clocks.left.get(Color::Red), 3 * DAY);
        assert_eq!(
            clocks.first_out(&blue_runs()),
            Some((T0 + 5 * DAY, Color::Blue))
        );
    }

    #[test]
    fn fischer_adds_the_increment_up_to_the_cap() {
        let control = TimeControl::Fischer {
            initial_days: 10,
            increment_days: 3,
            max_days: 12,
        };
        let mut clocks = Clocks::start(&control, T0);
        clocks.moved(&control, Color::Red, 1, &red_runs(), T0 + DAY);
        // 10 - 1 + 3 = 12: at the cap.
        assert_eq!(*clocks.left.get(Color::Red), 12 * DAY);
        clocks.moved(&control, Color::Blue, 1, &blue_runs(), T0 + DAY + HOUR);
        // 10 days less an hour, plus 3, capped at 12.
        assert_eq!(*clocks.left.get(Color::Blue), 12 * DAY);
        clocks.moved(&control, Color::Red, 2, &red_runs(), T0 + 6 * DAY + HOUR);
        assert_eq!(*clocks.left.get(Color::Red), (12 - 5 + 3) * DAY);
    }

    #[test]
    fn moves_in_days_carries_saved_time_forward() {
        let control = TimeControl::MovesInDays { moves: 2, days: 10 };
        let mut clocks = Clocks::start(&control, T0);
        clocks.moved(&control, Color::Red, 1, &red_runs(), T0 + DAY);
        assert_eq!(*clocks.left.get(Color::Red), 9 * DAY);
        assert_eq!(control.moves_to_control(1), Some(1));
        clocks.rebase(&blue_runs(), T0 + 2 * DAY);
        clocks.moved(&control, Color::Red, 2, &red_runs(), T0 + 3 * DAY);
        // The second move reaches the control: 8 days left + 10.
        assert_eq!(*clocks.left.get(Color::Red), 18 * DAY);
        assert_eq!(control.moves_to_control(2), Some(2));
    }

    #[test]
    fn a_pause_stops_the_clock_to_the_second() {
        let control = TimeControl::Fischer {
            initial_days: 5,
            increment_days: 1,
            max_days: 10,
        };
        let mut clocks = Clocks::start(&control, T0);
        let before = clocks.left_at(Color::Red, &red_runs(), T0 + DAY);
        let back = T0 + DAY + 10 * DAY;
        clocks.pause(Color::Red, back, &red_runs(), T0 + DAY);
        let later = T0 + DAY + 3 * DAY + 2 * HOUR;
        assert!(clocks.paused(Color::Red, later));
        assert_eq!(clocks.left_at(Color::Red, &red_runs(), later), before);
        // It runs again when the pause ends, without anyone writing.
        assert_eq!(
            clocks.left_at(Color::Red, &red_runs(), back + HOUR),
            before - HOUR
        );
        assert_eq!(
            clocks.runs_out_at(Color::Red, &red_runs()),
            Some(back + before)
        );
        // Ended early, it counts from then.
        clocks.resume(Color::Red, &red_runs(), later);
        assert!(!clocks.paused(Color::Red, later));
        assert_eq!(
            clocks.runs_out_at(Color::Red, &red_runs()),
            Some(later + before)
        );
    }

    #[test]
    fn a_clock_runs_out_exactly_at_its_deadline() {
        let control = TimeControl::PerMove { days: 1 };
        let clocks = Clocks::start(&control, T0);
        assert_eq!(clocks.left_at(Color::Red, &red_runs(), T0 + DAY - 1), 1);
        assert_eq!(clocks.left_at(Color::Red, &red_runs(), T0 + DAY), 0);
        assert_eq!(clocks.left_at(Color::Red, &red_runs(), T0 + 2 * DAY), 0);
        // A clock that does not run does not move.
        assert_eq!(clocks.left_at(Color::Blue, &red_runs(), T0 + 2 * DAY), DAY);
    }

    #[test]
    fn setups_are_played_on_the_clock() {
        let both = ByColor {
            red: true,
            blue: true,
        };
        let fischer = TimeControl::Fischer {
            initial_days: 5,
            increment_days: 1,
            max_days: 10,
        };
        let mut clocks = Clocks::start(&fischer, T0);
        clocks.set_up(&fischer, Color::Blue, &both, T0 + DAY);
        assert_eq!(*clocks.left.get(Color::Blue), 4 * DAY);
        let per_move = TimeControl::PerMove { days: 3 };
        let mut clocks = Clocks::start(&per_move, T0);
        clocks.set_up(&per_move, Color::Blue, &both, T0 + DAY);
        assert_eq!(*clocks.left.get(Color::Blue), 3 * DAY);
        assert_eq!(*clocks.left.get(Color::Red), 2 * DAY);
    }

    #[test]
    fn a_bank_never_goes_below_empty_or_beyond_a_year() {
        let control = TimeControl::MovesInDays {
            moves: 1,
            days: 180,
        };
        let mut clocks = Clocks::start(&control, T0);
        // A move a day late (a bot's) is credited from an empty clock.
        clocks.moved(&control, Color::Red, 1, &red_runs(), T0 + 181 * DAY);
        assert_eq!(*clocks.left.get(Color::Red), 180 * DAY);
        for moves in 2..10 {
            clocks.moved(&control, Color::Red, moves, &red_runs(), clocks.since);
        }
        assert_eq!(*clocks.left.get(Color::Red), MAX_BANK);
    }

    #[test]
    fn clocks_give_way_to_a_stored_deadline() {
        let control = TimeControl::PerMove { days: 3 };
        let mut clocks = Clocks::start(&control, T0);
        clocks.agree_with(&red_runs(), T0 + DAY);
        assert_eq!(clocks.first_out(&red_runs()), Some((T0 + DAY, Color::Red)));
    }

    #[test]
    fn unworkable_controls_are_refused() {
        let bad = [
            TimeControl::PerMove { days: 0 },
            TimeControl::PerMove { days: 15 },
            TimeControl::Fischer {
                initial_days: 10,
                increment_days: 1,
                max_days: 5,
            },
            TimeControl::Fischer {
                initial_days: 10,
                increment_days: 0,
                max_days: 20,
            },
            TimeControl::MovesInDays { moves: 10, days: 5 },
            TimeControl::MovesInDays { moves: 0, days: 5 },
        ];
        for control in bad {
            assert!(control.validate().is_err(), "{control:?}");
        }
        assert!(TimeControl::MovesInDays {
            moves: 10,
            days: 50
        }
        .validate()
        .is_ok());
    }

    #[test]
    fn the_wire_form_is_tagged_by_type() {
        let control =
            serde_json::from_str::<TimeControl>(r#"{"type":"moves_in_days","moves":10,"days":50}"#);
        assert_eq!(
            control.ok(),
            Some(TimeControl::MovesInDays {
                moves: 10,
                days: 50
            })
        );
        assert!(
            serde_json::from_str::<TimeControl>(r#"{"type":"per_move","days":3,"x":1}"#).is_err()
        );
    }
}
