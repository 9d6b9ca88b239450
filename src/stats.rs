//! Statistics of game results: pure functions, and counts that add up so rayon can reduce them.
//!
//! Formulas (the ones chess testing frameworks use, see the README's "Statistics"):
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
//!   `ln((1 - beta) / alpha)`. The older normal approximation
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

use statrs::distribution::{ContinuousCDF, Normal};
use std::ops::{Add, AddAssign};

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

/// Outcome k of N scores `k / (N - 1)`: 0, 1/2, 1 or 0, 1/4, ..., 1.
fn outcome_score<const N: usize>(k: usize) -> f64 {
    k as f64 / (N - 1) as f64
}

/// The counts with zero cells replaced by [`REGULARISATION`].
fn regularised<const N: usize>(counts: &[u64; N]) -> [f64; N] {
    counts.map(|c| if c == 0 { REGULARISATION } else { c as f64 })
}

/// Frequencies that sum to 1.
fn normalised<const N: usize>(counts: &[f64; N]) -> [f64; N] {
    let total: f64 = counts.iter().sum();
    counts.map(|c| c / total)
}

/// Hypothesis scores must lie strictly inside (0, 1) for a fit to exist: Elo
/// beyond about +/-3,600 is clamped there.
fn inside_unit(s: f64) -> f64 {
    s.clamp(1e-9, 1.0 - 1e-9)
}

/// The theta of the maximum-likelihood distribution with mean `s` for the
/// frequencies `q` (all positive): the root of `sum q_k d_k / (1 + theta d_k)`,
/// `d_k = a_k - s`, which falls from +inf to -inf between the poles `-1 / max d`
/// and `-1 / min d`, by bisection down to adjacent floating-point numbers.
fn mle_theta<const N: usize>(q: &[f64; N], s: f64) -> f64 {
    let s = inside_unit(s);
    let f = |theta: f64| -> f64 {
        (0..N)
            .map(|k| {
                let d = outcome_score::<N>(k) - s;
                q[k] * d / (1.0 + theta * d)
            })
            .sum()
    };
    // max d = 1 - s (the best outcome), min d = -s (the worst).
    let (mut low, mut high) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..1100 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

/// The maximum-likelihood distribution with mean `s` for the frequencies `q`.
fn mle_with_mean<const N: usize>(q: &[f64; N], s: f64) -> [f64; N] {
    let s = inside_unit(s);
    let theta = mle_theta(q, s);
    std::array::from_fn(|k| q[k] / (1.0 + theta * (outcome_score::<N>(k) - s)))
}

/// The variance of the maximum-likelihood distribution with mean `s`.
fn mle_variance<const N: usize>(q: &[f64; N], s: f64) -> f64 {
    let p = mle_with_mean(q, s);
    let total: f64 = p.iter().sum();
    let mean: f64 = (0..N).map(|k| p[k] * outcome_score::<N>(k)).sum::<f64>() / total;
    (0..N)
        .map(|k| p[k] * (outcome_score::<N>(k) - mean).powi(2))
        .sum::<f64>()
        / total
}

/// Samples and observed mean score of outcome counts.
fn mean_of<const N: usize>(counts: &[u64; N]) -> (f64, f64) {
    let n: u64 = counts.iter().sum();
    let points: f64 = (0..N)
        .map(|k| counts[k] as f64 * outcome_score::<N>(k))
        .sum();
    (n as f64, points / n as f64)
}

/// The generalised score interval (see the module notes) at normal quantile `z`.
fn score_interval<const N: usize>(counts: &[u64; N], z: f64) -> (f64, f64, f64) {
    let (n, mean) = mean_of(counts);
    if n == 0.0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let q = normalised(&regularised(counts));
    let outside = |s: f64| n * (mean - s).powi(2) > z * z * mle_variance(&q, s);
    // Bisection between a score inside (the mean) and one outside (0 or 1).
    let end = |mut inside: f64, mut out: f64| -> f64 {
        for _ in 0..200 {
            let mid = 0.5 * (inside + out);
            if mid == inside || mid == out {
                break;
            }
            if outside(mid) {
                out = mid;
            } else {
                inside = mid;
            }
        }
        0.5 * (inside + out)
    };
    let low = if mean <= 0.0 { 0.0 } else { end(mean, 0.0) };
    let high = if mean >= 1.0 { 1.0 } else { end(mean, 1.0) };
    (mean, low, high)
}

/// The score statistic `(m - s0) / sqrt(v(s0) / n)` (NaN without samples).
fn score_statistic<const N: usize>(counts: &[u64; N], s0: f64) -> f64 {
    let (n, mean) = mean_of(counts);
    if n == 0.0 {
        return f64::NAN;
    }
    let q = normalised(&regularised(counts));
    (mean - s0) / (mle_variance(&q, s0) / n).sqrt()
}

/// The exact generalised log-likelihood ratio of mean score s1 against s0.
fn llr_exact<const N: usize>(counts: &[u64; N], s0: f64, s1: f64) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let n = regularised(counts);
    let q = normalised(&n);
    let (s0, s1) = (inside_unit(s0), inside_unit(s1));
    let (t0, t1) = (mle_theta(&q, s0), mle_theta(&q, s1));
    // ln p1_k - ln p0_k = ln(1 + t0 d0_k) - ln(1 + t1 d1_k): q_k cancels.
    (0..N)
        .map(|k| {
            let a = outcome_score::<N>(k);
            n[k] * ((t0 * (a - s0)).ln_1p() - (t1 * (a - s1)).ln_1p())
        })
        .sum()
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

/// Games of the prior in [`bradley_terry`]: every player is taken to have drawn
/// this many games against a virtual player rated 0 (the field's average).
pub const BRADLEY_TERRY_PRIOR_GAMES: f64 = 0.5;

/// Ratings for a whole field from pairwise results: a Bradley-Terry (logistic Elo)
/// fit, draws counting half a win each, ratings averaging 0. It is the maximum a
/// posteriori (MAP) estimate under a weak prior, not the pure maximum likelihood:
/// every player also has [`BRADLEY_TERRY_PRIOR_GAMES`] (half a game) drawn against a
/// virtual player rated 0. Without it the likelihood has no maximum when a player
/// wins (or loses) every game, or when the field splits into groups one of which
/// beat the other every time (separation): those ratings would run off to infinity.
/// The prior keeps them finite at the cost of a pull towards 0 of about
/// half a game's worth, negligible past a few dozen games per player (two players
/// at 60% over 100 games: 70.3 Elo apart instead of 70.4). Standard errors come
/// from the inverse of the curvature of the log-posterior (the Fisher information
/// plus the prior's), projected onto ratings that average 0. `results[i][j]` is
/// player i's tally against player j, so every game appears twice: in
/// `results[i][j]` and, mirrored, in `results[j][i]`. Returns (rating, standard
/// error) per player; a player with no games gets NaN.
#[must_use]
pub fn bradley_terry(results: &[Vec<Trinomial>]) -> Vec<(f64, f64)> {
    let k = results.len();
    let games = |i: usize, j: usize| results[i][j].games() as f64;
    let points = |i: usize, j: usize| results[i][j].wins as f64 + 0.5 * results[i][j].draws as f64;
    let played: Vec<bool> = (0..k).map(|i| (0..k).any(|j| games(i, j) > 0.0)).collect();
    // Strengths gamma = 10^(r/400), fitted by Hunter's MM iteration with the prior's
    // games against a virtual player of strength 1 (rating 0).
    let prior = BRADLEY_TERRY_PRIOR_GAMES;
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
    // The curvature of the log-posterior in natural (log-strength) units, over the
    // players with games: the Fisher information of the games plus the prior's.
    let index: Vec<usize> = (0..k).filter(|&i| played[i]).collect();
    let m = index.len();
    let mut info = nalgebra::DMatrix::<f64>::zeros(m, m);
    for (a, &i) in index.iter().enumerate() {
        let p = gamma[i] / (gamma[i] + 1.0);
        info[(a, a)] += prior * p * (1.0 - p);
        for (b, &j) in index.iter().enumerate().skip(a + 1) {
            let n = games(i, j);
            if n == 0.0 {
                continue;
            }
            let p = gamma[i] / (gamma[i] + gamma[j]);
            let w = n * p * (1.0 - p);
            info[(a, a)] += w;
            info[(b, b)] += w;
            info[(a, b)] -= w;
            info[(b, a)] -= w;
        }
    }
    // The covariance of the ratings less their average: P C P, P = I - 11'/m.
    let covariance = info.try_inverse().map(|c| {
        let centre = nalgebra::DMatrix::<f64>::identity(m, m)
            - nalgebra::DMatrix::<f64>::from_element(m, m, 1.0 / m as f64);
        &centre * c * &centre
    });
    let mut out = vec![(f64::NAN, f64::NAN); k];
    for (a, &i) in index.iter().enumerate() {
        let se = covariance
            .as_ref()
            .map_or(f64::NAN, |c| c[(a, a)].max(0.0).sqrt() * scale);
        out[i] = (ratings[i], se);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// The data rows of a reference file (comment lines start with `#`), header dropped.
    fn reference_rows(text: &str) -> Vec<Vec<&str>> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect()
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
        let i = t.interval95();
        assert_eq!((i.model, i.n), (Model::Trinomial, 10));
        let (elo, low, high) = i.elo();
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
    fn the_maximum_likelihood_fit_has_the_asked_mean() {
        let q = normalised(&regularised(&[22, 3, 14, 2, 3]));
        for s in [0.01, 0.2784, 0.5, 0.5288, 0.99] {
            let p = mle_with_mean(&q, s);
            let total: f64 = p.iter().sum();
            let mean: f64 = (0..5).map(|k| p[k] * k as f64 / 4.0).sum();
            assert!(close(total, 1.0, 1e-12), "{s}: {total}");
            assert!(close(mean, s, 1e-12), "{s}: {mean}");
        }
        // At the observed mean the fit is the data themselves (theta = 0).
        let observed: f64 = (0..5).map(|k| q[k] * k as f64 / 4.0).sum();
        let p = mle_with_mean(&q, observed);
        assert!((0..5).all(|k| close(p[k], q[k], 1e-12)));
    }

    #[test]
    fn sprt_bounds_and_the_normal_approximation_by_hand() {
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert!(close(lower, -2.944_438_979, 1e-9));
        assert!(close(upper, 2.944_438_979, 1e-9));
        // 100 pairs: 10 / 20 / 40 / 20 / 10 -> mean 0.5, var = (10*.25+20*.0625)*2/100 = 0.075.
        let p = Pentanomial([10, 20, 40, 20, 10]);
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(10.0));
        let expected = 100.0 * (s1 - s0) * (2.0 * 0.5 - s0 - s1) / (2.0 * 0.075);
        assert!(close(
            p.llr_normal_approximation(0.0, 10.0),
            expected,
            1e-12
        ));
        // Near H0 the approximation and the exact ratio agree to about 1%.
        let exact = p.llr(0.0, 10.0);
        assert!(exact < 0.0, "an even result favours H0");
        assert!(
            close(exact, expected, 0.01 * expected.abs()),
            "{exact} {expected}"
        );
    }

    #[test]
    fn exact_llr_matches_the_published_method() {
        let rows = reference_rows(include_str!("../tests/data/sprt-llr.csv"));
        assert!(rows.len() >= 5);
        for row in rows {
            let counts: Vec<u64> = row[1..6].iter().map(|c| c.parse().unwrap()).collect();
            let (elo0, elo1): (f64, f64) = (row[6].parse().unwrap(), row[7].parse().unwrap());
            let expected: f64 = row[8].parse().unwrap();
            let p = Pentanomial(counts.try_into().unwrap());
            let llr = p.llr(elo0, elo1);
            assert!(
                close(llr, expected, 1e-9 * expected.abs().max(1.0)),
                "{}: {llr} against {expected}",
                row[0]
            );
        }
    }

    #[test]
    fn a_perfect_result_gives_a_finite_llr_that_crosses_the_bound() {
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        let perfect = Pentanomial([0, 0, 0, 0, 100]);
        let llr = perfect.llr(0.0, 20.0);
        assert!(llr.is_finite() && llr > upper, "{llr}");
        // The approximation gives 0 here: the pair variance is 0.
        assert_eq!(perfect.llr_normal_approximation(0.0, 20.0), 0.0);
        let lost = Pentanomial([100, 0, 0, 0, 0]);
        let llr = lost.llr(0.0, 20.0);
        assert!(llr.is_finite() && llr < lower, "{llr}");
        // The LLR of a perfect result grows by at most ln(s1 / s0) per pair: with
        // elo1 = 10 that is 0.0284, so 100 pairs stay below the bound and 104 cross.
        assert!(Pentanomial([0, 0, 0, 0, 100]).llr(0.0, 10.0) < upper);
        assert!(Pentanomial([0, 0, 0, 0, 104]).llr(0.0, 10.0) > upper);
        assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
    }

    #[test]
    fn score_intervals_match_the_reference() {
        let rows = reference_rows(include_str!("../tests/data/score-intervals.csv"));
        assert!(rows.len() >= 5);
        for row in rows {
            let counts: Vec<u64> = row[1].split(' ').map(|c| c.parse().unwrap()).collect();
            let expected: Vec<f64> = row[2..5].iter().map(|v| v.parse().unwrap()).collect();
            let interval = match row[0] {
                "trinomial" => Trinomial {
                    losses: counts[0],
                    draws: counts[1],
                    wins: counts[2],
                }
                .interval95(),
                _ => Pentanomial(counts.clone().try_into().unwrap()).interval95(),
            };
            let got = [interval.mean, interval.low, interval.high];
            for (g, e) in got.iter().zip(&expected) {
                assert!(close(*g, *e, 1e-9), "{row:?}: {got:?}");
            }
        }
    }

    #[test]
    fn without_draws_the_trinomial_interval_is_wilsons() {
        for (wins, losses) in [(60u64, 40u64), (1, 199), (7, 3), (500, 500)] {
            let t = Trinomial {
                wins,
                draws: 0,
                losses,
            };
            let n = (wins + losses) as f64;
            let p = wins as f64 / n;
            let z2 = Z95 * Z95;
            let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
            let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
            let i = t.interval95();
            // The regularised empty draw cell (1e-3 of a game) moves the ends by
            // less than 1e-3 / n.
            let tolerance = 1e-3 / n;
            assert!(
                close(i.low, centre - half, tolerance),
                "{wins}-{losses}: {i:?}"
            );
            assert!(
                close(i.high, centre + half, tolerance),
                "{wins}-{losses}: {i:?}"
            );
        }
    }

    #[test]
    fn intervals_stay_in_the_unit_range_and_are_never_empty() {
        let all_lost = Trinomial {
            wins: 0,
            draws: 0,
            losses: 200,
        }
        .interval95();
        assert_eq!((all_lost.mean, all_lost.low), (0.0, 0.0));
        assert!(
            all_lost.high > 0.018 && all_lost.high < 0.019,
            "{all_lost:?}"
        );
        let (elo, low, high) = all_lost.elo();
        assert_eq!((elo, low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!(high.is_finite() && high < -600.0, "{high}");
        let one_win = Trinomial {
            wins: 1,
            draws: 0,
            losses: 199,
        }
        .interval95();
        assert!(
            one_win.low > 0.0 && one_win.low < one_win.mean,
            "{one_win:?}"
        );
        assert!(one_win.elo().1.is_finite() && one_win.elo().2.is_finite());
        let perfect = Pentanomial([0, 0, 0, 0, 100]).interval95();
        assert_eq!((perfect.mean, perfect.high), (1.0, 1.0));
        assert!(perfect.low > 0.95 && perfect.low < 1.0, "{perfect:?}");
        assert!(perfect.elo().1.is_finite());
        for counts in [
            [0, 0, 7, 0, 0],
            [3, 0, 0, 0, 1],
            [1, 1, 1, 1, 1],
            [0, 1, 0, 0, 0],
        ] {
            let i = Pentanomial(counts).interval95();
            assert!(0.0 <= i.low && i.low < i.mean && i.mean < i.high && i.high <= 1.0);
        }
        let none = Pentanomial::default().interval95();
        assert!(none.mean.is_nan() && none.low.is_nan());
    }

    #[test]
    fn the_p_value_is_below_5_percent_exactly_when_the_interval_excludes_a_half() {
        for counts in [
            [22, 3, 14, 2, 3],
            [9, 0, 35, 0, 23],
            [10, 20, 40, 20, 10],
            [5, 20, 40, 25, 10],
            [4, 20, 40, 26, 10],
            [0, 0, 0, 0, 6],
        ] {
            // Two games per pair (their split does not matter here).
            let pairs: u64 = counts.iter().sum();
            let games = Trinomial {
                wins: pairs,
                draws: 0,
                losses: pairs,
            };
            let paired = Paired {
                games,
                pairs: Pentanomial(counts),
            };
            assert_eq!(paired.model(), Model::Pentanomial);
            let i = paired.interval95();
            let excludes = i.low > 0.5 || i.high < 0.5;
            assert_eq!(paired.p_value() < 0.05, excludes, "{counts:?}: {i:?}");
            assert!((paired.los() > 0.5) == (i.mean > 0.5) || i.mean == 0.5);
        }
    }

    #[test]
    fn the_headline_model_is_pentanomial_only_for_complete_pairs() {
        let games = Trinomial {
            wins: 3,
            draws: 0,
            losses: 2,
        };
        let pairs = Pentanomial([0, 0, 2, 0, 0]);
        assert_eq!(Paired { games, pairs }.model(), Model::Trinomial);
        let games = Trinomial {
            wins: 2,
            draws: 0,
            losses: 2,
        };
        assert_eq!(Paired { games, pairs }.model(), Model::Pentanomial);
        assert_eq!(Paired::default().model(), Model::Trinomial);
    }

    #[test]
    fn holm_by_hand() {
        // Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> 0.06 (monotone).
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005, f64::NAN]);
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!(close(*a, e, 1e-12), "{adjusted:?}");
        }
        assert!(adjusted[4].is_nan());
        assert_eq!(holm(&[0.6, 0.7]), vec![1.0, 1.0]);
    }

    #[test]
    fn moments_by_hand() {
        let mut m = Moments::default();
        for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
            m.push(x);
        }
        let e = m.estimate();
        assert!(close(e.mean, 5.0, 1e-12));
        // variance dividing by n: 32/8 = 4
        assert!(close(e.se, (4.0f64 / 8.0).sqrt(), 1e-12));
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
        // The prior pulls slightly towards 0: 70.3 Elo against the formula's 70.4.
        assert!(close(elo_from_score(0.6), 70.437, 1e-3));
        assert!(close(diff, 70.25, 0.01), "{diff}");
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
    fn bradley_terry_keeps_a_perfect_score_finite() {
        let t = |w, l| Trinomial {
            wins: w,
            draws: 0,
            losses: l,
        };
        let z = Trinomial::default();
        // A wins every game; B and C split theirs.
        let results = vec![
            vec![z, t(20, 0), t(20, 0)],
            vec![t(0, 20), z, t(10, 10)],
            vec![t(0, 20), t(10, 10), z],
        ];
        let fit = bradley_terry(&results);
        assert!(fit.iter().all(|(r, se)| r.is_finite() && se.is_finite()));
        assert!(fit[0].0 > 300.0 && fit[1].0 < 0.0, "{fit:?}");
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
