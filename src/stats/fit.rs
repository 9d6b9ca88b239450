//! Maximum-likelihood fits of outcome distributions with a given mean score, and
//! what is built on them: the generalised score interval, the score statistic and
//! the exact log-likelihood ratio (see the notes of the `stats` module).

use super::REGULARISATION;

/// Outcome k of N scores `k / (N - 1)`: 0, 1/2, 1 or 0, 1/4, ..., 1.
pub(super) fn outcome_score<const N: usize>(k: usize) -> f64 {
    k as f64 / (N - 1) as f64
}

/// The counts with zero cells replaced by [`REGULARISATION`].
pub(super) fn regularised<const N: usize>(counts: &[u64; N]) -> [f64; N] {
    counts.map(|c| if c == 0 { REGULARISATION } else { c as f64 })
}

/// Frequencies that sum to 1.
pub(super) fn normalised<const N: usize>(counts: &[f64; N]) -> [f64; N] {
    let total: f64 = counts.iter().sum();
    counts.map(|c| c / total)
}

/// Hypothesis scores must lie strictly inside (0, 1) for a fit to exist: Elo
/// beyond about +/-3,600 is clamped there.
pub(super) fn inside_unit(s: f64) -> f64 {
    s.clamp(1e-9, 1.0 - 1e-9)
}

/// The theta of the maximum-likelihood distribution with mean `s` for the
/// frequencies `q` (all positive): the root of `sum q_k d_k / (1 + theta d_k)`,
/// `d_k = a_k - s`, which falls from +inf to -inf between the poles `-1 / max d`
/// and `-1 / min d`, by bisection down to adjacent floating-point numbers.
pub(super) fn mle_theta<const N: usize>(q: &[f64; N], s: f64) -> f64 {
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
pub(super) fn mle_with_mean<const N: usize>(q: &[f64; N], s: f64) -> [f64; N] {
    let s = inside_unit(s);
    let theta = mle_theta(q, s);
    std::array::from_fn(|k| q[k] / (1.0 + theta * (outcome_score::<N>(k) - s)))
}

/// The variance of the maximum-likelihood distribution with mean `s`.
pub(super) fn mle_variance<const N: usize>(q: &[f64; N], s: f64) -> f64 {
    let p = mle_with_mean(q, s);
    let total: f64 = p.iter().sum();
    let mean: f64 = (0..N).map(|k| p[k] * outcome_score::<N>(k)).sum::<f64>() / total;
    (0..N)
        .map(|k| p[k] * (outcome_score::<N>(k) - mean).powi(2))
        .sum::<f64>()
        / total
}

/// Samples and observed mean score of outcome counts.
pub(super) fn mean_of<const N: usize>(counts: &[u64; N]) -> (f64, f64) {
    let n: u64 = counts.iter().sum();
    let points: f64 = (0..N)
        .map(|k| counts[k] as f64 * outcome_score::<N>(k))
        .sum();
    (n as f64, points / n as f64)
}

/// The generalised score interval (see the module notes) at normal quantile `z`.
pub(super) fn score_interval<const N: usize>(counts: &[u64; N], z: f64) -> (f64, f64, f64) {
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
pub(super) fn score_statistic<const N: usize>(counts: &[u64; N], s0: f64) -> f64 {
    let (n, mean) = mean_of(counts);
    if n == 0.0 {
        return f64::NAN;
    }
    let q = normalised(&regularised(counts));
    (mean - s0) / (mle_variance(&q, s0) / n).sqrt()
}

/// The exact generalised log-likelihood ratio of mean score s1 against s0.
pub(super) fn llr_exact<const N: usize>(counts: &[u64; N], s0: f64, s1: f64) -> f64 {
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
