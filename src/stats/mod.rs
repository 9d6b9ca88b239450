//! Statistics of game results: pure functions, and counts that add up so rayon can reduce them.
//!
//! Formulas (the ones chess testing frameworks use, see `docs/statistics.md`):
//! - Elo from a score s: `-400 log10(1/s - 1)`.
//! - Trinomial: each game scores 1, 1/2 or 0. Pentanomial: colour-swapped game
//!   pairs score 0, 1/2, 1, 3/2 or 2 (normalised to 0, 1/4, ..., 1); the pair is
//!   the independent unit, so its variance accounts for the shared opening.
//! - The maximum-likelihood distribution of outcomes with a given mean score s
//!   (M. Van den Bergh, "Comments on normalized Elo", Proposition 1.1, as fishtest
//!   and fastchess use it): `p_i = q_i / (1 + theta (a_i - s))`, q the observed
//!   frequencies after zero counts are replaced by [`REGULARISATION`], a_i the
//!   outcome scores, theta the root of `sum q_i (a_i - s) / (1 + theta (a_i - s)) = 0`
//!   between the poles, found by bisection.
//! - SPRT: the exact generalised log-likelihood ratio
//!   `LLR = sum_i n_i (ln p1_i - ln p0_i)` of the two fits at s0 = s(elo0) and
//!   s1 = s(elo1), n the regularised counts; bounds `ln(beta / (1 - alpha))` and
//!   `ln((1 - beta) / alpha)`, moved inwards by the dynamic overshoot correction
//!   unless it is turned off; after a stop, the median-unbiased Elo of the Brownian
//!   approximation (see [`sequential`](self) and `docs/statistics.md`). The older normal approximation
//!   `N (s1 - s0) (2 m - s0 - s1) / (2 v)` stays available as
//!   [`Pentanomial::llr_normal_approximation`].
//! - Score intervals: Wilson's score interval generalised to these outcomes: the
//!   scores s with `n (m - s)^2 <= z^2 v(s)`, m the observed mean and v(s) the
//!   variance of the maximum-likelihood distribution with mean s. With wins and
//!   losses only it is Wilson's interval; it always lies in [0, 1], is never empty,
//!   and is wide where the data are thin (0 of 200 gives [0%, 1.9%]).
//! - LOS (likelihood of superiority) `Phi(z)` and the two-sided p-value of "equal
//!   strength" `2 Phi(-|z|)`, with `z = (m - 1/2) / sqrt(v(1/2) / n)`: the score
//!   test the interval inverts, so p < 5% exactly when the 95% interval excludes 1/2.

mod counts;
mod fit;
mod ratings;
mod sequential;
mod simulation;
mod time_left;

pub use counts::{Moments, Pentanomial, Trinomial};
pub use ratings::{bradley_terry, bradley_terry_covariance, RatingFit, BRADLEY_TERRY_PRIOR_GAMES};
pub use sequential::{
    expected_pairs_left, median_unbiased, pairs_from_draw_ratio, plan, Brownian, Overshoot,
    PlanError, PlanPoint, SprtDesign, SprtEstimate, SprtWatch, Verdict, ELO_RANGE,
};
pub use simulation::{
    pairs_of_independent_games, simulate, summarise, SimulatedTest, SimulationSummary,
    ESTIMATE_GRID,
};
pub use time_left::{pairs_left, PairsLeft};

use statrs::distribution::{ContinuousCDF, Normal};

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Zero counts are replaced by this many outcomes before a maximum-likelihood fit
/// (fishtest's and fastchess's regularisation), so a fit exists for every mean in (0, 1).
pub const REGULARISATION: f64 = 1e-3;

/// Elo difference for a score in (0, 1); infinite at 0 and 1.
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0 of an even score into 0.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// Expected score for an Elo difference.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal CDF.
#[must_use]
pub fn phi(x: f64) -> f64 {
    Normal::new(0.0, 1.0).expect("a valid normal").cdf(x)
}

/// A mean with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// Its standard error (NaN when it cannot be estimated).
    pub se: f64,
}

impl Estimate {
    /// The 95% normal interval `mean +/- 1.96 se`.
    #[must_use]
    pub fn interval95(&self) -> (f64, f64) {
        (self.mean - Z95 * self.se, self.mean + Z95 * self.se)
    }
}

/// The statistical model of a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Each game is a sample (win, draw or loss).
    Trinomial,
    /// Each colour-swapped game pair is a sample (0 to 2 points).
    Pentanomial,
}

impl Model {
    /// `trinomial` or `pentanomial`, as `pairs.csv` writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Model::Trinomial => "trinomial",
            Model::Pentanomial => "pentanomial",
        }
    }

    /// What one sample is: `games` or `game pairs`.
    #[must_use]
    pub const fn unit(self) -> &'static str {
        match self {
            Model::Trinomial => "games",
            Model::Pentanomial => "game pairs",
        }
    }
}

/// A score with its interval, and what it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreInterval {
    /// The model.
    pub model: Model,
    /// Samples: games (trinomial) or colour-swapped game pairs (pentanomial).
    pub n: u64,
    /// The observed mean score per game (NaN without samples).
    pub mean: f64,
    /// The interval's lower end, in [0, mean].
    pub low: f64,
    /// The interval's upper end, in [mean, 1].
    pub high: f64,
}

impl ScoreInterval {
    /// The Elo difference at the mean and at both ends (infinite at a score of 0 or 1).
    #[must_use]
    pub fn elo(&self) -> (f64, f64, f64) {
        (
            elo_from_score(self.mean),
            elo_from_score(self.low),
            elo_from_score(self.high),
        )
    }
}

/// The results of one pair of players: every game, and the colour-swapped game
/// pairs among them. Its headline model is the pentanomial when every game belongs
/// to a complete pair (games 2k and 2k+1 share an opening), else the trinomial.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paired {
    /// Every game.
    pub games: Trinomial,
    /// The complete colour-swapped game pairs.
    pub pairs: Pentanomial,
}

impl Paired {
    /// The headline model.
    #[must_use]
    pub fn model(&self) -> Model {
        let pairs = self.pairs.pairs();
        if pairs > 0 && 2 * pairs == self.games.games() {
            Model::Pentanomial
        } else {
            Model::Trinomial
        }
    }

    /// The headline score with its 95% interval.
    #[must_use]
    pub fn interval95(&self) -> ScoreInterval {
        match self.model() {
            Model::Pentanomial => self.pairs.interval95(),
            Model::Trinomial => self.games.interval95(),
        }
    }

    /// The headline model's score statistic at `s0` (see the module notes).
    #[must_use]
    pub fn score_statistic(&self, s0: f64) -> f64 {
        match self.model() {
            Model::Pentanomial => self.pairs.score_statistic(s0),
            Model::Trinomial => self.games.score_statistic(s0),
        }
    }

    /// Likelihood of superiority `Phi(z)`, z the score statistic at 1/2.
    #[must_use]
    pub fn los(&self) -> f64 {
        let z = self.score_statistic(0.5);
        if z.is_nan() {
            f64::NAN
        } else {
            phi(z)
        }
    }

    /// The two-sided p-value of equal strength (score 1/2): `2 Phi(-|z|)`.
    #[must_use]
    pub fn p_value(&self) -> f64 {
        let z = self.score_statistic(0.5);
        if z.is_nan() {
            f64::NAN
        } else {
            (2.0 * phi(-z.abs())).min(1.0)
        }
    }
}

/// Holm's step-down correction of p-values (family-wise error control):
/// the adjusted p-value of the i-th smallest of m is the running maximum of
/// `min(1, (m - j) p_(j))` over j <= i (0-based). NaN p-values stay NaN and do not count.
#[must_use]
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p_values.len())
        .filter(|&i| !p_values[i].is_nan())
        .collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]).then(a.cmp(&b)));
    let m = order.len();
    let mut adjusted = vec![f64::NAN; p_values.len()];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p_values[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// SPRT bounds for error rates alpha and beta: (lower, upper).
#[must_use]
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod sequential_tests;
#[cfg(test)]
mod tests;
