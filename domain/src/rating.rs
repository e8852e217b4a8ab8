//! Glicko-2 ratings (docs/ratings.md): a rating, its deviation (how
//! uncertain it is) and its volatility (how erratic the player's results
//! are). Written from Glickman's description of the system ("Example of
//! the Glicko-2 system"); the steps below carry its step numbers.
//!
//! Pure arithmetic: when a rating period starts and ends, and which games
//! fall in it, is the caller's business.

use serde::{Deserialize, Serialize};

/// The factor between the displayed scale (1500 average) and the
/// algorithm's internal scale (0 average).
pub const SCALE: f64 = 173.7178;
/// The displayed rating everyone starts from.
pub const BASE_RATING: f64 = 1500.0;
/// The system constant tau: how much the volatility may change in one
/// rating period. Glickman suggests 0.3 to 1.2; smaller is steadier.
pub const TAU: f64 = 0.5;
/// The tolerance of the volatility search (step 5).
pub const CONVERGENCE: f64 = 0.000_001;
/// The largest deviation: a new player's, and the most that idle rating
/// periods can grow a deviation to.
pub const MAX_DEVIATION: f64 = 350.0;

/// A player's rating on the displayed scale.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// How one game went for the player being rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same game seen from the other side.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// One game of a rating period: who it was against (their rating before
/// the period) and how it went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Played {
    pub opponent: Glicko,
    pub score: Score,
}

/// A rating on the internal scale (step 2).
#[derive(Debug, Clone, Copy)]
struct Internal {
    mu: f64,
    phi: f64,
    sigma: f64,
}

impl Internal {
    fn of(g: Glicko) -> Internal {
        Internal {
            mu: (g.rating - BASE_RATING) / SCALE,
            phi: g.deviation / SCALE,
            sigma: g.volatility,
        }
    }

    fn shown(self) -> Glicko {
        Glicko {
            rating: SCALE * self.mu + BASE_RATING,
            deviation: SCALE * self.phi,
            volatility: self.sigma,
        }
    }
}

/// Step 3's weight of an opponent's deviation.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The expected score against an opponent.
fn expected(mu: f64, opponent_mu: f64, opponent_phi: f64) -> f64 {
    1.0 / (1.0 + (-g(opponent_phi) * (mu - opponent_mu)).exp())
}

impl Glicko {
    /// A new player: 1500 / 350 / 0.06.
    pub const INITIAL: Glicko = Glicko {
        rating: BASE_RATING,
        deviation: MAX_DEVIATION,
        volatility: 0.06,
    };

    /// The rating after `periods` rating periods without a game: rating
    /// and volatility stay, the deviation grows by the volatility once per
    /// period (step 6 with no games), up to [`MAX_DEVIATION`].
    pub fn idle(self, periods: u32) -> Glicko {
        if periods == 0 {
            return self;
        }
        let me = Internal::of(self);
        let grown = (me.phi * me.phi + f64::from(periods) * me.sigma * me.sigma).sqrt();
        Glicko {
            deviation: (SCALE * grown).min(MAX_DEVIATION.max(self.deviation)),
            ..self
        }
    }

    /// The rating after one rating period with `games` (steps 2 to 8).
    /// No games: the deviation grows as for one idle period.
    pub fn after(self, games: &[Played]) -> Glicko {
        if games.is_empty() {
            return self.idle(1);
        }
        let me = Internal::of(self);
        // Step 3 and 4: the estimated variance v and improvement delta.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let them = Internal::of(game.opponent);
            let weight = g(them.phi);
            let e = expected(me.mu, them.mu, them.phi);
            inverse_v += weight * weight * e * (1.0 - e);
            sum += weight * (game.score.value() - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = new_volatility(me.phi, me.sigma, v, delta);
        // Step 6 and 7: the new deviation and rating.
        let phi_star = (me.phi * me.phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + inverse_v).sqrt();
        let mu = me.mu + phi * phi * sum;
        // Step 8: back to the displayed scale.
        Internal { mu, phi, sigma }.shown()
    }
}

/// Step 5: the volatility sigma' solving Glickman's equation f(x) = 0 for
/// x = ln(sigma'^2), by the Illinois variant of regula falsi.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    // A bound on the iterations keeps a degenerate input from looping; the
    // search converges in a handful of steps for every finite input.
    const MAX_STEPS: usize = 100;
    let a = (sigma * sigma).ln();
    let (phi2, delta2) = (phi * phi, delta * delta);
    let f = |x: f64| {
        let ex = x.exp();
        let denominator = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * denominator * denominator) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 && k < MAX_STEPS as f64 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    for _ in 0..MAX_STEPS {
        if (big_b - big_a).abs() <= CONVERGENCE || f_b == f_a {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// Both players' ratings after one game between them, each game being a
/// rating period of its own: `red` and `blue` are their ratings before it
/// (already grown for idle periods), `red_score` how it went for red.
pub fn rate_game(red: Glicko, blue: Glicko, red_score: Score) -> (Glicko, Glicko) {
    let red_after = red.after(&[Played {
        opponent: blue,
        score: red_score,
    }]);
    let blue_after = blue.after(&[Played {
        opponent: red,
        score: red_score.reversed(),
    }]);
    (red_after, blue_after)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `actual` agrees with a figure the paper published to `unit` (its
    /// last digit): within one unit. The paper rounds every intermediate
    /// value to three or four places before using it (its v = 1.7785 comes
    /// from rounded g and E; unrounded, v = 1.7790), so its last digit can
    /// differ by one from the unrounded computation (rating 1464.0507
    /// against the published 1464.06).
    fn close(actual: f64, published: f64, unit: f64) -> bool {
        (actual - published).abs() <= unit * 1.000_001
    }

    fn player(rating: f64, deviation: f64) -> Glicko {
        Glicko {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// Glickman's worked example: a 1500 / 200 / 0.06 player beats a 1400
    /// / 30 player and loses to a 1550 / 100 and a 1700 / 300 player in one
    /// rating period (tau 0.5).
    #[test]
    fn glickmans_example() {
        let games = [
            Played {
                opponent: player(1400.0, 30.0),
                score: Score::Win,
            },
            Played {
                opponent: player(1550.0, 100.0),
                score: Score::Loss,
            },
            Played {
                opponent: player(1700.0, 300.0),
                score: Score::Loss,
            },
        ];
        let after = player(1500.0, 200.0).after(&games);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
        // Not a tolerance that anything passes: the rating before, or a
        // period that went the other way, is far outside it.
        assert!(!close(1500.0, 1464.06, 0.01));
        let reversed: Vec<Played> = games
            .iter()
            .map(|p| Played {
                score: p.score.reversed(),
                ..*p
            })
            .collect();
        assert!(!close(
            player(1500.0, 200.0).after(&reversed).rating,
            1464.06,
            1.0
        ));
    }

    /// The example's intermediate quantities, as the paper lists them.
    #[test]
    fn glickmans_example_steps() {
        let me = Internal::of(player(1500.0, 200.0));
        assert!(close(me.mu, 0.0, 0.0001));
        assert!(close(me.phi, 1.1513, 0.0001));
        let opponents = [(1400.0, 30.0), (1550.0, 100.0), (1700.0, 300.0)]
            .map(|(r, d)| Internal::of(player(r, d)));
        for (o, published) in opponents.iter().zip([0.9955, 0.9531, 0.7242]) {
            assert!(close(g(o.phi), published, 0.0001), "{o:?}");
        }
        for (o, published) in opponents.iter().zip([0.639, 0.432, 0.303]) {
            assert!(
                close(expected(me.mu, o.mu, o.phi), published, 0.001),
                "{o:?}"
            );
        }
        let scores = [1.0, 0.0, 0.0];
        let inverse_v: f64 = opponents
            .iter()
            .map(|o| {
                let e = expected(me.mu, o.mu, o.phi);
                g(o.phi) * g(o.phi) * e * (1.0 - e)
            })
            .sum();
        let v = 1.0 / inverse_v;
        // 1.7785 in the paper, from the rounded g and E above.
        assert!(close(v, 1.7785, 0.0006), "{v}");
        let sum: f64 = opponents
            .iter()
            .zip(scores)
            .map(|(o, s)| g(o.phi) * (s - expected(me.mu, o.mu, o.phi)))
            .sum();
        // -0.4834 in the paper, from its rounded v.
        assert!(close(v * sum, -0.4834, 0.0006), "{}", v * sum);
        let sigma = new_volatility(me.phi, me.sigma, v, v * sum);
        assert!(close(sigma, 0.05999, 0.00001), "{sigma}");
    }

    #[test]
    fn idle_periods_grow_the_deviation_up_to_the_maximum() {
        let settled = player(1700.0, 60.0);
        assert_eq!(settled.idle(0), settled);
        let one = settled.idle(1);
        let expected = (60f64.powi(2) + (0.06 * SCALE).powi(2)).sqrt();
        assert!((one.deviation - expected).abs() < 1e-9, "{one:?}");
        assert_eq!((one.rating, one.volatility), (1700.0, 0.06));
        let many = settled.idle(10);
        assert!(many.deviation > one.deviation);
        assert_eq!(settled.idle(100_000).deviation, MAX_DEVIATION);
        assert_eq!(settled.after(&[]), one);
        assert_eq!(Glicko::INITIAL.idle(5), Glicko::INITIAL);
    }

    #[test]
    fn a_game_moves_both_ratings_the_expected_way() {
        let (red, blue) = rate_game(Glicko::INITIAL, Glicko::INITIAL, Score::Win);
        assert!(red.rating > 1500.0 && blue.rating < 1500.0);
        assert!((red.rating - 1500.0 - (1500.0 - blue.rating)).abs() < 1e-9);
        assert!(red.deviation < 350.0 && blue.deviation < 350.0);
        let (red, blue) = rate_game(Glicko::INITIAL, Glicko::INITIAL, Score::Draw);
        assert!((red.rating - 1500.0).abs() < 1e-9 && (blue.rating - 1500.0).abs() < 1e-9);
        // An upset moves more than an expected result.
        let strong = player(1800.0, 80.0);
        let weak = player(1400.0, 80.0);
        let (upset, _) = rate_game(weak, strong, Score::Win);
        let (_, expected) = rate_game(weak, strong, Score::Loss);
        assert!(upset.rating - weak.rating > expected.rating - strong.rating);
        assert_eq!(Score::Win.reversed(), Score::Loss);
        assert_eq!(Score::Draw.reversed(), Score::Draw);
    }
}
