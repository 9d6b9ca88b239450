//! The SPRT as a sequential procedure: its design, its running decision with the
//! dynamic overshoot correction, the Brownian approximation of its log-likelihood
//! ratio, the median-unbiased Elo and its interval once it has stopped, and its plan
//! (pass probability and expected length by true Elo). See `docs/statistics.md`.

use super::fit::{mle_variance, mle_with_mean, normalised, regularised};
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

/// The LLR's increment for each pair outcome, `ln(p1_k / p0_k)`, for results shaped
/// like the pentanomial frequencies `q` (p0 and p1 their fits at the hypotheses).
pub(super) fn llr_increments(q: &[f64; 5], design: &SprtDesign) -> [f64; 5] {
    let p0 = mle_with_mean(q, score_from_elo(design.elo0));
    let p1 = mle_with_mean(q, score_from_elo(design.elo1));
    std::array::from_fn(|k| (p1[k] / p0[k]).ln())
}

/// The Elo range searched for estimates and plans, as fishtest's.
pub const ELO_RANGE: (f64, f64) = (-1000.0, 1000.0);

/// An Elo estimate with its interval after an SPRT stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtEstimate {
    /// The median-unbiased Elo (infinite when it lies beyond [`ELO_RANGE`]).
    pub elo: f64,
    /// The lower end of its 95% interval (-infinity when the data bound it nowhere
    /// within [`ELO_RANGE`]).
    pub low: f64,
    /// The upper end (+infinity likewise).
    pub high: f64,
    /// Whether a figure ran past the end of [`ELO_RANGE`] (and is infinite).
    pub clamped: bool,
}

/// The median-unbiased Elo and its 95% interval after an SPRT of `design` stopped
/// with `verdict` on `counts` (M. Van den Bergh's Brownian approximation, as fishtest
/// reports it, taken on the pairs' scores). Near the bounds the LLR is linear in the
/// pairs' total score, `LLR = c (sum of scores - n m)` with `m = (s0 + s1) / 2`, and
/// `c` is fixed by the observed LLR; the test is then a Brownian motion of the pair
/// score with a true Elo e's drift `s(e) - m` and variance `v(e)` (the variance of the
/// observed shape fitted at `s(e)`), absorbed at `a / c` and `b / c`. (The LLR's own
/// increments, used before, blow its variance up far from the data when a pair
/// outcome was never seen: the fitted shape moves weight onto the regularised cells,
/// whose increments are huge, and the interval reached hundreds of Elo below a clear
/// result, or the end of the search.) The test's outcome is the stopping time T at
/// which the line of the observed slope meets the nominal bound (which removes the
/// overshoot), ordered H0 early < H0 late < H1 late < H1 early. G(e) is the
/// probability of an outcome worse than the one observed. The estimate solves
/// G = 1/2; the interval holds every e with `0.025 <= G(e) <= 0.975`, found by a
/// scan of [`ELO_RANGE`] refined by bisection, so it holds the estimate even where G
/// is not monotone. An end with no crossing within the range is infinite, and
/// `clamped` says so. `None` without game pairs.
#[must_use]
pub fn median_unbiased(
    design: &SprtDesign,
    counts: &Pentanomial,
    verdict: Verdict,
) -> Option<SprtEstimate> {
    let pairs = counts.pairs();
    if pairs == 0 {
        return None;
    }
    let n = pairs as f64;
    let q = normalised(&regularised(&counts.0));
    let mean = (0..5)
        .map(|k| counts.0[k] as f64 * k as f64 / 4.0)
        .sum::<f64>()
        / n;
    let (s0, s1) = (score_from_elo(design.elo0), score_from_elo(design.elo1));
    let middle = 0.5 * (s0 + s1);
    let llr = counts.llr(design.elo0, design.elo1);
    let (lower, upper) = design.bounds();
    // LLR per point of score above the middle: from the observed LLR when it has the
    // sign of the score's excess, else the normal approximation's (s1 - s0) / v.
    let observed = llr / (n * (mean - middle));
    let scale = if observed.is_finite() && observed > 0.0 {
        observed
    } else {
        (s1 - s0) / mle_variance(&q, middle).max(1e-12)
    };
    let bound = match verdict {
        Verdict::H0 => lower,
        Verdict::H1 => upper,
    };
    let slope = llr / n;
    // A slope of the wrong sign cannot have stopped there; the nearest such
    // outcome is an instant stop.
    let stop = if slope * bound > 0.0 {
        bound / slope
    } else {
        f64::MIN_POSITIVE
    };
    let worse = |elo: f64| -> f64 {
        let s = score_from_elo(elo);
        let motion = Brownian {
            drift: s - middle,
            sd: mle_variance(&q, s).max(1e-300).sqrt(),
            lower: lower / scale,
            upper: upper / scale,
        };
        let (at_lower, at_upper) = motion.exit_by(stop);
        match verdict {
            Verdict::H0 => at_lower,
            Verdict::H1 => 1.0 - at_upper,
        }
    };
    let scan = Scan::new(&worse);
    let (elo, c0) = scan.level_set_middle(&worse, 0.5);
    let (low, c1) = scan.first_below(&worse, 0.975);
    let (high, c2) = scan.last_above(&worse, 0.025);
    // G's level sets are nested (0.975 > 1/2 > 0.025), so low <= elo <= high.
    Some(SprtEstimate {
        elo,
        low: low.min(elo),
        high: high.max(elo),
        clamped: c0 || c1 || c2,
    })
}

/// Elo steps of the scan of [`ELO_RANGE`].
const SCAN_STEP: f64 = 10.0;

/// A function of the Elo tabulated over [`ELO_RANGE`], to find where it crosses a
/// level without assuming it monotone.
struct Scan {
    elos: Vec<f64>,
    values: Vec<f64>,
}

impl Scan {
    fn new(f: &dyn Fn(f64) -> f64) -> Self {
        let (from, to) = ELO_RANGE;
        let steps = ((to - from) / SCAN_STEP).round() as usize;
        let elos: Vec<f64> = (0..=steps)
            .map(|i| from + (to - from) * i as f64 / steps as f64)
            .collect();
        let values = elos.iter().map(|&e| f(e)).collect();
        Scan { elos, values }
    }

    /// The lowest Elo where `f` falls to `level` or below (-infinity and true when
    /// it is below there already at the start of the range; +infinity when never).
    fn first_below(&self, f: &dyn Fn(f64) -> f64, level: f64) -> (f64, bool) {
        if self.values[0] <= level {
            return (f64::NEG_INFINITY, true);
        }
        match (1..self.elos.len()).find(|&i| self.values[i] <= level) {
            Some(i) => (bisect(f, level, self.elos[i - 1], self.elos[i]), false),
            None => (f64::INFINITY, true),
        }
    }

    /// The highest Elo where `f` is at `level` or above (+infinity and true when it
    /// is above there still at the end of the range; -infinity when never).
    fn last_above(&self, f: &dyn Fn(f64) -> f64, level: f64) -> (f64, bool) {
        let last = self.elos.len() - 1;
        if self.values[last] >= level {
            return (f64::INFINITY, true);
        }
        match (0..last).rev().find(|&i| self.values[i] >= level) {
            Some(i) => (bisect(f, level, self.elos[i], self.elos[i + 1]), false),
            None => (f64::NEG_INFINITY, true),
        }
    }

    /// The middle of the Elos where `f` crosses `level`: the one crossing when `f`
    /// falls (the usual case), the middle of the first and last otherwise.
    fn level_set_middle(&self, f: &dyn Fn(f64) -> f64, level: f64) -> (f64, bool) {
        let (first, c1) = self.first_below(f, level);
        let (last, c2) = self.last_above(f, level);
        if first.is_infinite() || last.is_infinite() {
            // Beyond the range on one side: the estimate is that side's infinity.
            let side = if first.is_infinite() { first } else { last };
            return (side, c1 || c2);
        }
        (0.5 * (first + last), false)
    }
}

/// The Elo in `[low, high]` where `f` crosses `level`, `f(low) > level >= f(high)`, by
/// bisection to a millionth of an Elo.
fn bisect(f: &dyn Fn(f64) -> f64, level: f64, mut low: f64, mut high: f64) -> f64 {
    while high - low > 1e-6 {
        let mid = 0.5 * (low + high);
        if f(mid) > level {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
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
/// Elo, for results shaped like `frequencies` (pentanomial, any scale): the fits of
/// that shape at the true Elo and at the hypotheses give the LLR's increment per
/// outcome and their probabilities, a random walk of five steps. Its pass
/// probability is Wald's, `(1 - e^(-h a)) / (e^(-h b) - e^(-h a))`, with h the
/// non-zero root of `E[e^(-h L)] = 1` for the walk's own increments L (not the
/// Brownian `2 mu / sigma^2`, which is off by several points once draws make the rare
/// outcomes' increments large: 4.4% instead of 5% at elo0 at 95% draws); at either
/// hypothesis h is exactly -1 or 1, so the plan passes at alpha and 1 - beta as the
/// overshoot correction makes a run do. The expected length is Wald's identity,
/// `(b P + a (1 - P)) / E[L]`. Where one pair's step is too large against the
/// bounds for that (a coarse test at a high draw ratio decides in a few pairs and
/// overshoots by a large part of a bound), the plan is refused: see
/// [`PlanError::Coarse`].
///
/// # Errors
/// [`PlanError::Coarse`] when the approximation does not hold for the design and shape.
pub fn plan(
    design: &SprtDesign,
    frequencies: &[f64; 5],
    elos: &[f64],
) -> Result<Vec<PlanPoint>, PlanError> {
    let q = normalised(&frequencies.map(|c| c.max(1e-12)));
    let increments = llr_increments(&q, design);
    let (lower, upper) = design.bounds();
    // The largest step that is not negligible at the hypotheses.
    let step = [design.elo0, design.elo1]
        .iter()
        .flat_map(|&elo| {
            let p = normalised(&mle_with_mean(&q, score_from_elo(elo)));
            (0..5)
                .filter(move |&k| p[k] >= PLAN_RARE)
                .map(move |k| increments[k].abs())
                .collect::<Vec<_>>()
        })
        .fold(0.0, f64::max);
    if step > PLAN_STEP * upper.min(-lower) {
        return Err(PlanError::Coarse {
            step,
            bound: upper.min(-lower),
        });
    }
    Ok(wald_plan(design, &q, elos))
}

/// Wald's plan without [`plan`]'s check of its step (tests compare it with simulation).
pub(super) fn wald_plan(design: &SprtDesign, q: &[f64; 5], elos: &[f64]) -> Vec<PlanPoint> {
    let increments = llr_increments(q, design);
    let (lower, upper) = design.bounds();
    elos.iter()
        .map(|&elo| {
            let p = normalised(&mle_with_mean(q, score_from_elo(elo)));
            let mean: f64 = (0..5).map(|k| p[k] * increments[k]).sum();
            let square: f64 = (0..5).map(|k| p[k] * increments[k].powi(2)).sum();
            let h = wald_exponent(&p, &increments);
            let pass = wald_pass(h, lower, upper);
            let expected_pairs = if h == 0.0 || mean.abs() < 1e-15 {
                -lower * upper / square.max(1e-300)
            } else {
                (upper * pass + lower * (1.0 - pass)) / mean
            };
            PlanPoint {
                elo,
                pass_probability: pass,
                expected_pairs,
            }
        })
        .collect()
}

/// Outcomes rarer than this at both hypotheses do not count for [`PLAN_STEP`].
const PLAN_RARE: f64 = 1e-3;

/// The largest LLR step of one pair, as a share of the nearer bound, for which
/// Wald's approximation plans within a point of the simulated test (checked in
/// `sequential_tests`); a coarser test is refused.
pub const PLAN_STEP: f64 = 0.5;

/// Why a plan was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlanError {
    /// One pair moves the LLR by `step`, more than [`PLAN_STEP`] of `bound`: the test
    /// decides in a few pairs with overshoots no approximation sizes reliably.
    Coarse {
        /// The largest step of a pair outcome that is not rare.
        step: f64,
        /// The nearer bound's distance from 0.
        bound: f64,
    },
}

/// The non-zero root h of `sum_k p_k e^(-h l_k) = 1` (0 when the walk has no drift),
/// which makes `e^(-h LLR)` a martingale; it has the sign of the drift `sum p_k l_k`.
/// It is sought as the root of `phi(h) = sum_k p_k (e^(-h l_k) - 1) / h`, the slope
/// of the convex `E[e^(-h L)] - 1` from 0, which rises from `phi(0) = -drift`: no
/// cancellation of two tiny terms for the small h of a test between its hypotheses.
fn wald_exponent(p: &[f64; 5], l: &[f64; 5]) -> f64 {
    let mean: f64 = (0..5).map(|k| p[k] * l[k]).sum();
    if mean == 0.0 {
        return 0.0;
    }
    let phi = |h: f64| -> f64 {
        if (0..5).any(|k| p[k] > 0.0 && -h * l[k] > 700.0) {
            // E[e^(-h L)] is huge: phi has the sign of h.
            return h.signum() * f64::INFINITY;
        }
        (0..5).map(|k| p[k] * (-h * l[k]).exp_m1()).sum::<f64>() / h
    };
    // The root lies on the drift's side of 0, where phi changes sign.
    let side = mean.signum();
    let crossed = |h: f64| phi(h) * side > 0.0;
    let mut far = side;
    for _ in 0..2000 {
        if crossed(far) {
            break;
        }
        far *= 2.0;
        if far.is_infinite() {
            // No outcome steps against the drift: the walk is monotone.
            return side * f64::INFINITY;
        }
    }
    let mut near = 0.0;
    for _ in 0..2000 {
        let mid = 0.5 * (near + far);
        if mid == near || mid == far {
            break;
        }
        if crossed(mid) {
            far = mid;
        } else {
            near = mid;
        }
    }
    0.5 * (near + far)
}

/// Wald's pass probability `(1 - e^(-h a)) / (e^(-h b) - e^(-h a))` (`-a / (b - a)`
/// at h = 0), rescaled so that neither exponent overflows.
fn wald_pass(h: f64, a: f64, b: f64) -> f64 {
    if h.is_infinite() {
        return if h > 0.0 { 1.0 } else { 0.0 };
    }
    if (h * (b - a)).abs() < 1e-12 {
        return -a / (b - a);
    }
    let (ea, eb) = (-h * a, -h * b);
    let top = ea.max(eb);
    (((-top).exp() - (ea - top).exp()) / ((eb - top).exp() - (ea - top).exp())).clamp(0.0, 1.0)
}

/// The game pairs an SPRT still needs, expected, from its LLR `llr` now to the
/// bounds in force `(lower, upper)`, at a true Elo of `elo` for results shaped like
/// `frequencies`: [`plan`]'s walk and Wald's identity, started where the test stands
/// instead of at 0 (the live view's time left). 0 once the LLR is past a bound.
#[must_use]
pub fn expected_pairs_left(
    design: &SprtDesign,
    frequencies: &[f64; 5],
    elo: f64,
    llr: f64,
    (lower, upper): (f64, f64),
) -> f64 {
    let (a, b) = (lower - llr, upper - llr);
    if a >= 0.0 || b <= 0.0 {
        return 0.0;
    }
    let q = normalised(&frequencies.map(|c| c.max(1e-12)));
    let increments = llr_increments(&q, design);
    let p = normalised(&mle_with_mean(&q, score_from_elo(elo)));
    let mean: f64 = (0..5).map(|k| p[k] * increments[k]).sum();
    let square: f64 = (0..5).map(|k| p[k] * increments[k].powi(2)).sum();
    let h = wald_exponent(&p, &increments);
    if h == 0.0 || mean.abs() < 1e-15 {
        return -a * b / square.max(1e-300);
    }
    let pass = wald_pass(h, a, b);
    ((b * pass + a * (1.0 - pass)) / mean).max(0.0)
}
