//! Counts of results that add up (so rayon can reduce them): trinomial game tallies,
//! pentanomial game-pair tallies, and running moments.

use super::fit::{llr_exact, score_interval, score_statistic};
use super::{score_from_elo, Estimate, Model, ScoreInterval, Z95};
use std::ops::{Add, AddAssign};

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
}

impl Trinomial {
    /// One game, from a player's margin in it (positive: a win).
    #[must_use]
    pub fn of_margin(margin: i32) -> Self {
        match margin.signum() {
            1 => Trinomial {
                wins: 1,
                draws: 0,
                losses: 0,
            },
            -1 => Trinomial {
                wins: 0,
                draws: 0,
                losses: 1,
            },
            _ => Trinomial {
                wins: 0,
                draws: 1,
                losses: 0,
            },
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game with its standard error.
    #[must_use]
    pub fn score(&self) -> Estimate {
        let n = self.games() as f64;
        if n == 0.0 {
            return Estimate {
                mean: f64::NAN,
                se: f64::NAN,
            };
        }
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let mean = w + 0.5 * d;
        let var = w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2);
        Estimate {
            mean,
            se: (var / n).sqrt(),
        }
    }
}

impl Trinomial {
    /// The counts from the worst outcome up: losses, draws, wins.
    #[must_use]
    pub const fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// The score per game with its 95% score interval (Wilson's when there are no draws).
    #[must_use]
    pub fn interval95(&self) -> ScoreInterval {
        let (mean, low, high) = score_interval(&self.counts(), Z95);
        ScoreInterval {
            model: Model::Trinomial,
            n: self.games(),
            mean,
            low,
            high,
        }
    }

    /// The score statistic at `s0`: `(m - s0) / sqrt(v(s0) / n)`.
    #[must_use]
    pub fn score_statistic(&self, s0: f64) -> f64 {
        score_statistic(&self.counts(), s0)
    }

    /// Points scored: a win 1, a draw 1/2.
    #[must_use]
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The same games from the other player's point of view.
    #[must_use]
    pub const fn mirrored(self) -> Self {
        Trinomial {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

impl Add for Trinomial {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Trinomial {
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
        }
    }
}

impl AddAssign for Trinomial {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl std::iter::Sum for Trinomial {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::default(), Add::add)
    }
}

/// Counts of colour-swapped game pairs by the points the first player scored:
/// index k means k/2 points out of 2 (0 = lost both, 4 = won both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Counts one pair in which the first player scored `points` (0, 0.5, ..., 2).
    pub fn record(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[index] += 1;
    }

    /// Mean per-game score and its standard error from the pair variance.
    #[must_use]
    pub fn score(&self) -> Estimate {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return Estimate {
                mean: f64::NAN,
                se: f64::NAN,
            };
        }
        let (mean, var) = self.mean_var();
        Estimate {
            mean,
            se: (var / n).sqrt(),
        }
    }

    /// Mean and variance of the per-pair score normalised to [0, 1].
    #[must_use]
    pub fn mean_var(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        let mean: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * k as f64 / 4.0)
            .sum::<f64>()
            / n;
        let var: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    /// The score per game with its 95% score interval over the pairs.
    #[must_use]
    pub fn interval95(&self) -> ScoreInterval {
        let (mean, low, high) = score_interval(&self.0, Z95);
        ScoreInterval {
            model: Model::Pentanomial,
            n: self.pairs(),
            mean,
            low,
            high,
        }
    }

    /// The score statistic at `s0`: `(m - s0) / sqrt(v(s0) / n)` over the pairs.
    #[must_use]
    pub fn score_statistic(&self, s0: f64) -> f64 {
        score_statistic(&self.0, s0)
    }

    /// The SPRT's log-likelihood ratio of H1 (elo1) against H0 (elo0): the exact
    /// generalised LLR of the pentanomial model (see the module notes). Finite for
    /// every result, a perfect one included; 0 without pairs.
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        llr_exact(&self.0, score_from_elo(elo0), score_from_elo(elo1))
    }

    /// The normal approximation of the LLR that earlier versions used,
    /// `N (s1 - s0) (2 m - s0 - s1) / (2 v)`: close to [`llr`](Self::llr) near H0
    /// and H1, far too large in the tails, and 0 when the pair variance is 0 (a
    /// perfect result), which is why the exact ratio replaced it.
    #[must_use]
    pub fn llr_normal_approximation(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.pairs() as f64;
        if n < 2.0 {
            return 0.0;
        }
        let (mean, var) = self.mean_var();
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

impl Add for Pentanomial {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(o.0) {
            *a += b;
        }
        out
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl std::iter::Sum for Pentanomial {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::default(), Add::add)
    }
}

/// Running mean and variance of a sample (sum and sum of squares), addable.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    /// Observations.
    pub n: u64,
    /// Their sum.
    pub sum: f64,
    /// Their sum of squares.
    pub sum_sq: f64,
}

impl Moments {
    /// Adds one observation.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// Mean with standard error `sqrt(var / n)`, the variance dividing by n (the
    /// maximum-likelihood variance, the convention of the score's intervals).
    #[must_use]
    pub fn estimate(&self) -> Estimate {
        let n = self.n as f64;
        if self.n == 0 {
            return Estimate {
                mean: f64::NAN,
                se: f64::NAN,
            };
        }
        let mean = self.sum / n;
        let var = (self.sum_sq / n - mean * mean).max(0.0);
        Estimate {
            mean,
            se: (var / n).sqrt(),
        }
    }
}

impl AddAssign for Moments {
    fn add_assign(&mut self, o: Self) {
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }
}

impl Add for Moments {
    type Output = Self;
    fn add(mut self, o: Self) -> Self {
        self += o;
        self
    }
}

impl std::iter::Sum for Moments {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::default(), Add::add)
    }
}
