//! The SPRT as a sequential procedure: its design, its running decision with the
//! dynamic overshoot correction, the Brownian approximation of its log-likelihood
//! ratio, the median-unbiased Elo and its interval once it has stopped, and its plan
//! (pass probability and expected length by true Elo). See `docs/statistics.md`.

use super::fit::{mle_with_mean, normalised, regularised};
use super::{score_from_elo, Pentanomial};
use statrs::distribution::{ContinuousCDF, Normal};

/// What an SPRT tests: H0 `elo = elo0` against H1 `elo = elo1` at error rates
/// alpha (accepting H1 under H0) and beta (accepting H0 under H1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtDesign {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// Whether the bounds are corrected for the overshoot of the discrete LLR.
    pub overshoot: bool,
}

impl SprtDesign {
    /// The nominal bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        super::sprt_bounds(self.alpha, self.beta)
    }
}

/// The hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted H0 (the LLR fell to the lower bound).
    H0,
    /// Accepted H1 (the LLR rose to the upper bound).
    H1,
}

/// The dynamic overshoot correction (Siegmund, *Sequential Analysis*, Corollary
/// 8.33, as M. Van den Bergh applies it to the GSPRT): the LLR moves in jumps, so it
/// ends past a bound by about `E[H^2] / (2 E[H])`, H the ladder heights (the rises
/// of its running maximum, or falls of its running minimum). Stopping that much
/// inside each bound keeps the real error rates at alpha and beta, where the
/// uncorrected test is conservative and longer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overshoot {
    /// The running minimum of the LLR (0 at the start).
    low: f64,
    /// The running maximum.
    high: f64,
    /// The sum of squared ladder heights below.
    squares_low: f64,
    /// The sum of squared ladder heights above.
    squares_high: f64,
}

impl Overshoot {
    /// Takes the LLR after one more game pair.
    pub fn push(&mut self, llr: f64) {
        if llr > self.high {
            self.squares_high += (llr - self.high).powi(2);
            self.high = llr;
        }
        if llr < self.low {
            self.squares_low += (llr - self.low).powi(2);
            self.low = llr;
        }
    }

    /// The expected overshoots past the lower and the upper bound (both >= 0).
    #[must_use]
    pub fn expected(&self) -> (f64, f64) {
        // The ladder heights sum to the extreme itself.
        let below = if self.low < 0.0 {
            self.squares_low / (-2.0 * self.low)
        } else {
            0.0
        };
        let above = if self.high > 0.0 {
            self.squares_high / (2.0 * self.high)
        } else {
            0.0
        };
        (below, above)
    }
}

/// An SPRT's running state: feed it the counts after each game pair.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SprtWatch {
    overshoot: Overshoot,
}

impl SprtWatch {
    /// The LLR of `counts` and the verdict if it has reached a bound; call once per
    /// game pair, in order (the overshoot correction follows the LLR's path).
    pub fn judge(&mut self, design: &SprtDesign, counts: &Pentanomial) -> (f64, Option<Verdict>) {
        let llr = counts.llr(design.elo0, design.elo1);
        self.overshoot.push(llr);
        let (lower, upper) = self.bounds(design);
        let verdict = if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        };
        (llr, verdict)
    }

    /// The bounds in force: the nominal ones, moved inwards by the expected
    /// overshoot when the design corrects for it.
    #[must_use]
    pub fn bounds(&self, design: &SprtDesign) -> (f64, f64) {
        let (lower, upper) = design.bounds();
        if design.overshoot {
            let (below, above) = self.overshoot.expected();
            (lower + below, upper - above)
        } else {
            (lower, upper)
        }
    }
}

/// A Brownian motion `drift t + sd W_t` from 0, absorbed at `lower < 0 < upper`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brownian {
    /// Drift per unit time.
    pub drift: f64,
    /// Standard deviation per square root of unit time (> 0).
    pub sd: f64,
    /// The lower barrier (< 0).
    pub lower: f64,
    /// The upper barrier (> 0).
    pub upper: f64,
}

impl Brownian {
    /// The probabilities of absorption at the lower and at the upper barrier by time
    /// `t` (`t` may be infinite): the method-of-images series of the first-passage
    /// densities, with the drift by Girsanov's theorem, integrated term by term in
    /// closed form.
    #[must_use]
    pub fn exit_by(&self, t: f64) -> (f64, f64) {
        let nu = self.drift / self.sd;
        let (a, b) = (self.lower / self.sd, self.upper / self.sd);
        // The lower barrier is the upper one of the mirrored motion.
        (upper_exit_by(-nu, -b, -a, t), upper_exit_by(nu, a, b, t))
    }

    /// The probability of absorption at the upper barrier.
    #[must_use]
    pub fn pass_probability(&self) -> f64 {
        upper_exit_by(
            self.drift / self.sd,
            self.lower / self.sd,
            self.upper / self.sd,
            f64::INFINITY,
        )
    }

    /// The expected time to absorption (Wald's identity): `(b P + a (1 - P)) / drift`,
    /// and `-a b / sd^2` without drift.
    #[must_use]
    pub fn expected_time(&self) -> f64 {
        let (a, b) = (self.lower, self.upper);
        let h = 2.0 * self.drift / (self.sd * self.sd);
        if (h * (b - a)).abs() < 1e-9 {
            return -a * b / (self.sd * self.sd);
        }
        let p = self.pass_probability();
        (b * p + a * (1.0 - p)) / self.drift
    }
}

/// `ln Phi(x)`, accurate in the far left tail where `Phi` underflows.
fn ln_phi(x: f64) -> f64 {
    if x > -30.0 {
        Normal::new(0.0, 1.0).expect("a valid normal").cdf(x).ln()
    } else {
        // The asymptotic series of Mills' ratio.
        let x2 = x * x;
        -0.5 * x2 - (-x).ln() - 0.5 * (2.0 * std::f64::consts::PI).ln()
            + (1.0 - 1.0 / x2 + 3.0 / (x2 * x2) - 15.0 / (x2 * x2 * x2)).ln()
    }
}

/// P(a unit-variance Brownian motion with drift `nu` from 0 leaves `(a, b)` at `b`
/// by time `t`). Without drift the density of leaving at `b` at time s is
/// `sum_k c_k / sqrt(2 pi s^3) exp(-c_k^2 / 2 s)`, `c_k = b + 2 k (b - a)`; the drift
/// multiplies it by `exp(nu b - nu^2 s / 2)`, and each term integrates to
/// `sign(c) [e^(nu b - nu |c|) Phi((nu t - |c|) / sqrt t) + e^(nu b + nu |c|) Phi((-nu t - |c|) / sqrt t)]`.
fn upper_exit_by(nu: f64, a: f64, b: f64, t: f64) -> f64 {
    let width = b - a;
    if t <= 0.0 {
        return 0.0;
    }
    // The chance of still being inside falls like exp(-(pi^2 / 2 w^2 + nu^2 / 2) t):
    // past e^-60 the motion has left, and the infinite-time answer is exact enough.
    let decay = std::f64::consts::PI.powi(2) / (2.0 * width * width) + nu * nu / 2.0;
    if t.is_infinite() || decay * t > 60.0 + nu.abs() * width {
        let h = 2.0 * nu;
        if (h * width).abs() < 1e-12 {
            return -a / width;
        }
        // (1 - e^(-h a)) / (e^(-h b) - e^(-h a)), rescaled so neither exponent overflows.
        let (ea, eb) = (-h * a, -h * b);
        let top = ea.max(eb);
        return ((-top).exp() - (ea - top).exp()) / ((eb - top).exp() - (ea - top).exp());
    }
    let root = t.sqrt();
    let term = |c: f64| -> f64 {
        let m = c.abs();
        let first = (nu * b - nu * m + ln_phi((nu * t - m) / root)).exp();
        let second = (nu * b + nu * m + ln_phi((-nu * t - m) / root)).exp();
        c.signum() * (first + second)
    };
    // Past |c| = |nu| t + 40 sqrt(t) the terms fall like exp(-c^2 / 2t): sum until
    // they no longer count.
    let reach = nu.abs() * t + 40.0 * root;
    let mut sum = 0.0;
    for k in 0..1_000_000u32 {
        let up = b + 2.0 * f64::from(k) * width;
        let down = b - 2.0 * f64::from(k + 1) * width;
        let (x, y) = (term(up), term(down));
        sum += x + y;
        let size = x.abs() + y.abs();
        if up.abs() > reach && down.abs() > reach && (size <= 1e-17 * sum.abs() || size < 1e-300) {
            break;
        }
    }
    sum.clamp(0.0, 1.0)
}

/// The Brownian approximation of an SPRT's LLR for one shape of results: the
/// pentanomial frequencies `q`, their fits at the two hypotheses, and the LLR
/// increment of each outcome, `ln(p1_k / p0_k)`.
#[derive(Clone, Copy, Debug)]
struct LlrModel {
    q: [f64; 5],
    increments: [f64; 5],
}

impl LlrModel {
    fn new(q: [f64; 5], design: &SprtDesign) -> Self {
        let p0 = mle_with_mean(&q, score_from_elo(design.elo0));
        let p1 = mle_with_mean(&q, score_from_elo(design.elo1));
        let increments = std::array::from_fn(|k| (p1[k] / p0[k]).ln());
        LlrModel { q, increments }
    }

    /// The LLR's drift and variance per game pair when the true Elo is `elo`: the
    /// moments of the increments under the fit of `q` with that mean score.
    fn drift_variance(&self, elo: f64) -> (f64, f64) {
        let p = normalised(&mle_with_mean(&self.q, score_from_elo(elo)));
        let mean: f64 = (0..5).map(|k| p[k] * self.increments[k]).sum();
        let square: f64 = (0..5).map(|k| p[k] * self.increments[k].powi(2)).sum();
        (mean, (square - mean * mean).max(1e-300))
    }

    /// The drift at the observed frequencies themselves (`LLR / N`).
    fn observed_drift(&self) -> f64 {
        (0..5).map(|k| self.q[k] * self.increments[k]).sum()
    }

    fn brownian(&self, design: &SprtDesign, elo: f64) -> Brownian {
        let (drift, variance) = self.drift_variance(elo);
        let (lower, upper) = design.bounds();
        Brownian {
            drift,
            sd: variance.sqrt(),
            lower,
            upper,
        }
    }
}

/// The Elo range searched for estimates and plans, as fishtest's.
pub const ELO_RANGE: (f64, f64) = (-1000.0, 1000.0);

/// An Elo estimate with its interval after an SPRT stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtEstimate {
    /// The median-unbiased Elo.
    pub elo: f64,
    /// The lower end of its 95% interval.
    pub low: f64,
    /// The upper end.
    pub high: f64,
    /// Whether a figure ran into the end of [`ELO_RANGE`].
    pub clamped: bool,
}

/// The median-unbiased Elo and its 95% interval after an SPRT of `design` stopped
/// with `verdict` on `counts` (M. Van den Bergh's Brownian approximation, as fishtest
/// reports it). The test's outcome is the stopping time T at which a line with the
/// observed LLR slope meets the nominal bound (which removes the overshoot), ordered
/// H0 early < H0 late < H1 late < H1 early. G(elo) is the probability, for a
/// Brownian LLR with that Elo's drift and variance, of an outcome worse than the one
/// observed; it falls with the Elo. The estimate solves G = 1/2, the interval's
/// ends G = 0.975 and G = 0.025. `None` without game pairs.
#[must_use]
pub fn median_unbiased(
    design: &SprtDesign,
    counts: &Pentanomial,
    verdict: Verdict,
) -> Option<SprtEstimate> {
    if counts.pairs() == 0 {
        return None;
    }
    let model = LlrModel::new(normalised(&regularised(&counts.0)), design);
    let slope = model.observed_drift();
    let (lower, upper) = design.bounds();
    let bound = match verdict {
        Verdict::H0 => lower,
        Verdict::H1 => upper,
    };
    // A slope of the wrong sign cannot have stopped there; the nearest such
    // outcome is an instant stop.
    let stop = if slope * bound > 0.0 {
        bound / slope
    } else {
        f64::MIN_POSITIVE
    };
    let worse = |elo: f64| -> f64 {
        let (at_lower, at_upper) = model.brownian(design, elo).exit_by(stop);
        match verdict {
            Verdict::H0 => at_lower,
            Verdict::H1 => 1.0 - at_upper,
        }
    };
    let mut clamped = false;
    let mut solve = |level: f64| -> f64 {
        let (elo, hit_end) = falling_root(&worse, level);
        clamped |= hit_end;
        elo
    };
    let elo = solve(0.5);
    let low = solve(0.975);
    let high = solve(0.025);
    Some(SprtEstimate {
        elo,
        low,
        high,
        clamped,
    })
}

/// The Elo in [`ELO_RANGE`] where the falling function `f` crosses `level`, by
/// bisection; the end of the range (and true) when it does not cross there.
fn falling_root(f: &dyn Fn(f64) -> f64, level: f64) -> (f64, bool) {
    let (mut low, mut high) = ELO_RANGE;
    if f(low) < level {
        return (low, true);
    }
    if f(high) > level {
        return (high, true);
    }
    for _ in 0..100 {
        let mid = 0.5 * (low + high);
        if high - low < 1e-9 {
            break;
        }
        if f(mid) > level {
            low = mid;
        } else {
            high = mid;
        }
    }
    (0.5 * (low + high), false)
}

/// One row of an SPRT plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanPoint {
    /// The true Elo.
    pub elo: f64,
    /// The probability that the test accepts H1.
    pub pass_probability: f64,
    /// The expected game pairs until it stops.
    pub expected_pairs: f64,
}

/// The pentanomial distribution of two independent games at equal strength that
/// draw with probability `draw_ratio`: each is lost or won with `(1 - d) / 2`.
#[must_use]
pub fn pairs_from_draw_ratio(draw_ratio: f64) -> [f64; 5] {
    let d = draw_ratio.clamp(0.0, 1.0);
    let side = (1.0 - d) / 2.0;
    let cells = [
        side * side,
        2.0 * side * d,
        d * d + 2.0 * side * side,
        2.0 * side * d,
        side * side,
    ];
    // A fit needs every outcome possible.
    normalised(&cells.map(|c| c.max(1e-12)))
}

/// The pass probability and expected length of an SPRT of `design` at each true
/// Elo, from the Brownian approximation of its LLR for results shaped like
/// `frequencies` (pentanomial, any scale): the fits of that shape at the true Elo
/// and at the hypotheses give the LLR's drift and variance per pair. The plan
/// assumes the bounds behave as nominal, which the overshoot correction provides.
#[must_use]
pub fn plan(design: &SprtDesign, frequencies: &[f64; 5], elos: &[f64]) -> Vec<PlanPoint> {
    let q = normalised(&frequencies.map(|c| c.max(1e-12)));
    let model = LlrModel::new(q, design);
    elos.iter()
        .map(|&elo| {
            let motion = model.brownian(design, elo);
            PlanPoint {
                elo,
                pass_probability: motion.pass_probability(),
                expected_pairs: motion.expected_time(),
            }
        })
        .collect()
}
