//! A player's vacation budget (docs/lifecycle.md, "Vacation"): days per
//! calendar year, unused days carried into the next year up to a cap, each
//! vacation charged by the day (each day or part of one, at least one).
//! Pure arithmetic: the caller says which year it is and when things
//! happened (Unix seconds).

use crate::time_control::DAY;

/// What every player is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    /// Days each calendar year brings.
    pub days_per_year: u32,
    /// At most this many unused days are carried into the next year.
    pub carry_over_max: u32,
}

/// The days a player has left in `year`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub year: i32,
    pub days: i64,
}

impl Allowance {
    /// A player who never took a vacation, in `year`.
    pub fn fresh(&self, year: i32) -> Budget {
        Budget {
            year,
            days: i64::from(self.days_per_year),
        }
    }

    /// `budget` as it stands in `year`: every new year brings its days and
    /// keeps at most [`Allowance::carry_over_max`] of those left.
    pub fn in_year(&self, budget: Budget, year: i32) -> Budget {
        let mut budget = budget;
        // Years apart are few; the bound only keeps a corrupt year from
        // looping for long.
        let mut years = 0;
        while budget.year < year && years < 1000 {
            budget = Budget {
                year: budget.year + 1,
                days: i64::from(self.days_per_year)
                    + budget.days.clamp(0, i64::from(self.carry_over_max)),
            };
            years += 1;
        }
        Budget {
            year: budget.year.max(year),
            days: budget.days,
        }
    }
}

/// What a vacation from `since` to `end` costs: each day or part of one,
/// and at least one day.
pub fn days_charged(since: i64, end: i64) -> i64 {
    let seconds = (end - since).max(0);
    ((seconds + DAY - 1) / DAY).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALLOWANCE: Allowance = Allowance {
        days_per_year: 30,
        carry_over_max: 10,
    };

    #[test]
    fn a_new_year_brings_its_days_and_carries_a_capped_rest() {
        let left = Budget {
            year: 2026,
            days: 25,
        };
        assert_eq!(ALLOWANCE.in_year(left, 2026), left);
        assert_eq!(
            ALLOWANCE.in_year(left, 2027),
            Budget {
                year: 2027,
                days: 40
            }
        );
        let little = Budget {
            year: 2026,
            days: 4,
        };
        assert_eq!(ALLOWANCE.in_year(little, 2027).days, 34);
        // Years without vacations never add more than the cap.
        assert_eq!(ALLOWANCE.in_year(little, 2040).days, 40);
    }

    #[test]
    fn each_day_or_part_of_one_is_charged_and_at_least_one() {
        assert_eq!(days_charged(0, 0), 1);
        assert_eq!(days_charged(0, 3600), 1);
        assert_eq!(days_charged(0, DAY), 1);
        assert_eq!(days_charged(0, DAY + 1), 2);
        assert_eq!(days_charged(0, 3 * DAY + 2 * 3600), 4);
    }
}
