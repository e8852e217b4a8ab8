//! The ruleset: every setting docs/rules.md names, with its default.

use serde::{Deserialize, Serialize};

/// The settings of one game. Missing fields take their defaults when
/// deserialized; unknown fields are rejected. Use [`Rules::validate`] before
/// trusting values that came from outside: out-of-range values are an error,
/// never clamped.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// How many times in a row a piece may go back and forth across the same
    /// border (2..=10, default 3).
    pub two_square_limit: u8,
    /// A scout may end a line move by attacking (default on).
    pub scout_strike_after_move: bool,
    /// In a battle of equal strengths the attacker wins (default off).
    pub aggressor_advantage: bool,
    /// Only the attacker's rank is revealed in a battle (default off).
    pub silent_defense: bool,
    /// Reaching the opponent's back row may bring back a captured piece
    /// (default off).
    pub rescue: bool,
    /// Draw (`move_limit`) after this many plies; `None` (default) for no cap.
    pub max_plies: Option<u32>,
    /// Draw (`move_limit`) after this many plies in a row without a battle;
    /// `None` (default) for no cap.
    pub max_plies_without_battle: Option<u32>,
    /// The more-squares rule (ISF game rules art. 11): a player who keeps
    /// chasing the same evading pieces may not make a chasing move back into
    /// a position that has already stood since the chase began (default off;
    /// see `docs/more-squares-rule.md`).
    pub more_squares_rule: bool,
}

/// Smallest and largest allowed `two_square_limit`.
pub const TWO_SQUARE_LIMIT_RANGE: std::ops::RangeInclusive<u8> = 2..=10;
/// Allowed values of either ply cap, when set.
pub const PLY_CAP_RANGE: std::ops::RangeInclusive<u32> = 1..=1_000_000;

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            two_square_limit: 3,
            scout_strike_after_move: true,
            aggressor_advantage: false,
            silent_defense: false,
            rescue: false,
            max_plies: None,
            max_plies_without_battle: None,
            more_squares_rule: false,
        }
    }
}

/// A setting outside its allowed range. API code: `validation_failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("two_square_limit must be between 2 and 10, not {0}")]
    TwoSquareLimit(u8),
    #[error("max_plies must be between 1 and 1000000, not {0}")]
    MaxPlies(u32),
    #[error("max_plies_without_battle must be between 1 and 1000000, not {0}")]
    MaxPliesWithoutBattle(u32),
}

impl Rules {
    /// The ruleset of ISF tournament play: the defaults (which already are
    /// the ISF rules: two-square limit 3, a scout may strike after moving,
    /// equal ranks both lose, both ranks revealed, no rescue) plus the
    /// more-squares rule. No ply cap: tournaments end long games with the
    /// clock, which is the service's business, not a ruleset's.
    pub fn tournament() -> Rules {
        Rules {
            more_squares_rule: true,
            ..Rules::default()
        }
    }

    /// Checks every setting's range.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !TWO_SQUARE_LIMIT_RANGE.contains(&self.two_square_limit) {
            return Err(RulesError::TwoSquareLimit(self.two_square_limit));
        }
        if let Some(n) = self.max_plies.filter(|n| !PLY_CAP_RANGE.contains(n)) {
            return Err(RulesError::MaxPlies(n));
        }
        if let Some(n) = self
            .max_plies_without_battle
            .filter(|n| !PLY_CAP_RANGE.contains(n))
        {
            return Err(RulesError::MaxPliesWithoutBattle(n));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn defaults_and_ranges() {
        let r: Rules = serde_json::from_str("{}").unwrap();
        assert_eq!(r, Rules::default());
        assert_eq!(r.two_square_limit, 3);
        assert!(r.scout_strike_after_move);
        assert!(r.validate().is_ok());
        for bad in [0u8, 1, 11, 255] {
            let r = Rules {
                two_square_limit: bad,
                ..Rules::default()
            };
            assert_eq!(r.validate(), Err(RulesError::TwoSquareLimit(bad)));
        }
        for ok in 2u8..=10 {
            let r = Rules {
                two_square_limit: ok,
                ..Rules::default()
            };
            assert!(r.validate().is_ok());
        }
        let r = Rules {
            max_plies: Some(0),
            ..Rules::default()
        };
        assert_eq!(r.validate(), Err(RulesError::MaxPlies(0)));
        let r = Rules {
            max_plies_without_battle: Some(0),
            ..Rules::default()
        };
        assert!(r.validate().is_err());
        assert!(serde_json::from_str::<Rules>(r#"{"bogus":1}"#).is_err());
    }

    #[test]
    fn more_squares_rule_is_off_by_default_and_on_in_the_tournament_preset() {
        assert!(!Rules::default().more_squares_rule);
        // A ruleset stored before the setting existed still loads.
        let old = r#"{"two_square_limit":3,"scout_strike_after_move":true,"aggressor_advantage":false,"silent_defense":false,"rescue":false,"max_plies":null,"max_plies_without_battle":null}"#;
        assert_eq!(
            serde_json::from_str::<Rules>(old).unwrap(),
            Rules::default()
        );
        let t = Rules::tournament();
        assert!(t.more_squares_rule);
        assert!(t.validate().is_ok());
        assert_eq!(
            Rules {
                more_squares_rule: false,
                ..t
            },
            Rules::default()
        );
    }
}
