//! Statistics of game results: pure functions, and counts that add up so rayon can reduce them.
//!
//! Formulas (the ones chess testing frameworks use):
//! - Elo from a score s: `-400 log10(1/s - 1)`.
//! - Trinomial: each game scores 1, 1/2 or 0; the score's standard error is
//!   `sqrt(var / n)` with var the per-game variance.
//! - Pentanomial: colour-swapped game pairs score 0, 1/2, 1, 3/2 or 2; the
//!   per-pair variance (normalised to [0, 1]) gives the standard error, which
//!   accounts for the correlation inside a pair.
//! - LOS (likelihood of superiority) = `Phi((s - 0.5) / se)`.
//! - SPRT in the pentanomial model, with the normal approximation of the
//!   generalised SPRT: `LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)` over N pairs
//!   with mean m and variance v, bounds `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.

use statrs::distribution::{ContinuousCDF, Normal};
use std::ops::{Add, AddAssign};

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference for a score in (0, 1); infinite at 0 and 1.
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
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
    /// The 95% interval.
    #[must_use]
    pub fn interval95(&self) -> (f64, f64) {
        (self.mean - Z95 * self.se, self.mean + Z95 * self.se)
    }

    /// The Elo difference of this score with its 95% interval (clamped into (0, 1)).
    #[must_use]
    pub fn elo95(&self) -> (f64, f64, f64) {
        let (low, high) = self.interval95();
        (
            elo_from_score(self.mean),
            elo_from_score(low.clamp(0.0, 1.0)),
            elo_from_score(high.clamp(0.0, 1.0)),
        )
    }

    /// Likelihood of superiority: `Phi((s - 0.5) / se)`.
    #[must_use]
    pub fn los(&self) -> f64 {
        if self.se > 0.0 {
            phi((self.mean - 0.5) / self.se)
        } else if self.mean > 0.5 {
            1.0
        } else if self.mean < 0.5 {
            0.0
        } else {
            0.5
        }
    }
}

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

    /// The SPRT log-likelihood ratio of H1 (elo1) against H0 (elo0).
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
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

/// SPRT bounds for error rates alpha and beta: (lower, upper).
#[must_use]
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
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

    /// Mean with standard error.
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
        let var = if self.n > 1 {
            ((self.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0)
        } else {
            f64::NAN
        };
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

/// Ratings for a whole field from pairwise results: a Bradley-Terry (logistic
/// Elo) fit by maximum likelihood, draws counting half a win each, with standard
/// errors from the inverse Fisher information under the constraint that the
/// ratings average 0. `results[i][j]` is player i's tally against player j, so
/// every game appears twice: in `results[i][j]` and, mirrored, in `results[j][i]`.
/// Returns (rating, standard error) per player; a player with no games gets NaN.
#[must_use]
pub fn bradley_terry(results: &[Vec<Trinomial>]) -> Vec<(f64, f64)> {
    let k = results.len();
    let games = |i: usize, j: usize| results[i][j].games() as f64;
    let points = |i: usize, j: usize| results[i][j].wins as f64 + 0.5 * results[i][j].draws as f64;
    let played: Vec<bool> = (0..k).map(|i| (0..k).any(|j| games(i, j) > 0.0)).collect();
    // Strengths gamma = 10^(r/400), fitted by Hunter's MM iteration; a tiny prior
    // (half a draw against a virtual average player) keeps perfect scores finite.
    let prior = 0.5;
    let mut gamma = vec![1.0f64; k];
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        let mut change = 0.0f64;
        for i in 0..k {
            if !played[i] {
                continue;
            }
            let wins: f64 = (0..k).map(|j| points(i, j)).sum::<f64>() + prior * 0.5;
            let denom: f64 = (0..k)
                .filter(|&j| j != i)
                .map(|j| games(i, j) / (gamma[i] + gamma[j]))
                .sum::<f64>()
                + prior / (gamma[i] + 1.0);
            next[i] = wins / denom;
        }
        // Normalise: geometric mean 1 (ratings average 0).
        let count = played.iter().filter(|&&p| p).count().max(1) as f64;
        let log_mean: f64 = (0..k)
            .filter(|&i| played[i])
            .map(|i| next[i].ln())
            .sum::<f64>()
            / count;
        for i in 0..k {
            if played[i] {
                next[i] = (next[i].ln() - log_mean).exp();
                change = change.max((next[i].ln() - gamma[i].ln()).abs());
            }
        }
        gamma = next;
        if change < 1e-10 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    let ratings: Vec<f64> = gamma.iter().map(|g| g.ln() * scale).collect();
    // Fisher information in natural (log-strength) units.
    let mut info = nalgebra::DMatrix::<f64>::zeros(k, k);
    for i in 0..k {
        for j in i + 1..k {
            let n = games(i, j);
            if n == 0.0 {
                continue;
            }
            let p = gamma[i] / (gamma[i] + gamma[j]);
            let w = n * p * (1.0 - p);
            info[(i, i)] += w;
            info[(j, j)] += w;
            info[(i, j)] -= w;
            info[(j, i)] -= w;
        }
    }
    // The information is singular along (1, ..., 1); its pseudo-inverse is the
    // covariance under the sum-zero constraint.
    let covariance = info.pseudo_inverse(1e-12).ok();
    (0..k)
        .map(|i| {
            if !played[i] {
                return (f64::NAN, f64::NAN);
            }
            let se = covariance
                .as_ref()
                .map_or(f64::NAN, |c| c[(i, i)].max(0.0).sqrt() * scale);
            (ratings[i], se)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_by_hand() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 0.75: -400 log10(1/3) = 190.848...
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(190.848_501_887_865), 0.75, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn trinomial_by_hand() {
        // 6 wins, 2 draws, 2 losses: s = 0.7; var = 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16.
        let t = Trinomial {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let s = t.score();
        assert!(close(s.mean, 0.7, 1e-12));
        assert!(close(s.se, (0.16f64 / 10.0).sqrt(), 1e-12));
        // LOS = Phi(0.2 / 0.126491) = Phi(1.581139) = 0.943077
        assert!(close(s.los(), 0.943_077, 1e-6));
        let (elo, low, high) = s.elo95();
        assert!(close(elo, 147.190_7, 1e-3));
        assert!(low < elo && elo < high);
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs: 1 x 0/2, 2 x 1/2, 4 x 2/2 (1.0 normalised: 0, .5, 1 ...)
        let p = Pentanomial([1, 0, 2, 0, 4]);
        let (mean, var) = p.mean_var();
        // normalised scores: 0, .5, .5, 1, 1, 1, 1 -> mean 5/7
        assert!(close(mean, 5.0 / 7.0, 1e-12));
        let expected_var =
            (1.0 * (0.0 - mean).powi(2) + 2.0 * (0.5 - mean).powi(2) + 4.0 * (1.0 - mean).powi(2))
                / 7.0;
        assert!(close(var, expected_var, 1e-12));
        assert!(close(p.score().se, (expected_var / 7.0).sqrt(), 1e-12));
        let mut q = Pentanomial::default();
        q.record(1.5);
        q.record(0.0);
        assert_eq!(q.0, [1, 0, 0, 1, 0]);
    }

    #[test]
    fn sprt_by_hand() {
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert!(close(lower, -2.944_438_979, 1e-9));
        assert!(close(upper, 2.944_438_979, 1e-9));
        // 100 pairs: 10 / 20 / 40 / 20 / 10 -> mean 0.5, var = (10*.25+20*.0625)*2/100 = 0.075.
        let p = Pentanomial([10, 20, 40, 20, 10]);
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(10.0));
        let expected = 100.0 * (s1 - s0) * (2.0 * 0.5 - s0 - s1) / (2.0 * 0.075);
        assert!(close(p.llr(0.0, 10.0), expected, 1e-12));
        assert!(p.llr(0.0, 10.0) < 0.0, "an even result favours H0");
    }

    #[test]
    fn moments_by_hand() {
        let mut m = Moments::default();
        for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
            m.push(x);
        }
        let e = m.estimate();
        assert!(close(e.mean, 5.0, 1e-12));
        // sample variance 32/7
        assert!(close(e.se, (32.0f64 / 7.0 / 8.0).sqrt(), 1e-12));
    }

    #[test]
    fn bradley_terry_two_players_matches_the_elo_formula() {
        let t = Trinomial {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        let r = Trinomial {
            wins: 40,
            draws: 0,
            losses: 60,
        };
        let results = vec![vec![Trinomial::default(), t], vec![r, Trinomial::default()]];
        let fit = bradley_terry(&results);
        let diff = fit[0].0 - fit[1].0;
        // The tiny prior pulls slightly towards 0: within 1 Elo of -400 log10(1/0.6 - 1).
        assert!(close(diff, elo_from_score(0.6), 1.0), "{diff}");
        assert!(close(fit[0].0, -fit[1].0, 1e-6));
        // Standard error of the difference: 1/sqrt(n p (1-p)) in natural units.
        let se_diff = 1.0 / (100.0f64 * 0.6 * 0.4).sqrt() * 400.0 / std::f64::consts::LN_10;
        assert!(
            close(fit[0].1, se_diff / 2.0, 0.5),
            "{} vs {}",
            fit[0].1,
            se_diff / 2.0
        );
    }

    #[test]
    fn bradley_terry_orders_a_field() {
        // A beats B 70%, B beats C 70%, A beats C 85%.
        let t = |w, l| Trinomial {
            wins: w,
            draws: 0,
            losses: l,
        };
        let z = Trinomial::default();
        let results = vec![
            vec![z, t(70, 30), t(85, 15)],
            vec![t(30, 70), z, t(70, 30)],
            vec![t(15, 85), t(30, 70), z],
        ];
        let fit = bradley_terry(&results);
        assert!(fit[0].0 > fit[1].0 && fit[1].0 > fit[2].0);
        assert!(close(fit[0].0 + fit[1].0 + fit[2].0, 0.0, 1e-6));
        assert!(fit.iter().all(|(_, se)| se.is_finite() && *se > 0.0));
    }
}
