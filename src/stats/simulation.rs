//! SPRTs simulated on synthetic game pairs with a known true Elo: how the tests and
//! `examples/sprt_simulation.rs` check the median-unbiased estimate, both intervals'
//! coverage and the error rates with and without the overshoot correction.

use super::sequential::{median_unbiased, SprtDesign, SprtWatch, Verdict};
use super::{score_from_elo, Pentanomial};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The pentanomial distribution of two independent games that each score
/// `score` on average and draw with probability `draw_ratio` (clamped so the win
/// and loss chances stay non-negative). A different family from the fits the
/// estimator assumes, so the simulation does not check the model against itself.
#[must_use]
pub fn pairs_of_independent_games(score: f64, draw_ratio: f64) -> [f64; 5] {
    let d = draw_ratio.min(2.0 * score.min(1.0 - score)).max(0.0);
    let (win, loss) = (score - d / 2.0, 1.0 - score - d / 2.0);
    [
        loss * loss,
        2.0 * loss * d,
        d * d + 2.0 * win * loss,
        2.0 * win * d,
        win * win,
    ]
}

/// One simulated test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimulatedTest {
    /// Its verdict (None: it reached `max_pairs` undecided).
    pub verdict: Option<Verdict>,
    /// Its game pairs by outcome.
    pub counts: Pentanomial,
}

/// Runs one SPRT of `design` on pairs drawn from `truth` (probabilities of 0, 1/2,
/// 1, 3/2 and 2 points) until it stops or reaches `max_pairs`.
#[must_use]
pub fn simulate(design: &SprtDesign, truth: &[f64; 5], seed: u64, max_pairs: u64) -> SimulatedTest {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut counts = Pentanomial::default();
    let mut watch = SprtWatch::default();
    for _ in 0..max_pairs {
        let mut u: f64 = rng.gen();
        let mut k = 4;
        for (i, &p) in truth.iter().enumerate() {
            if u < p {
                k = i;
                break;
            }
            u -= p;
        }
        counts.0[k] += 1;
        if let (_, Some(verdict)) = watch.judge(design, &counts) {
            return SimulatedTest {
                verdict: Some(verdict),
                counts,
            };
        }
    }
    SimulatedTest {
        verdict: None,
        counts,
    }
}

/// What many simulated tests at one true Elo show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimulationSummary {
    /// The true Elo.
    pub elo: f64,
    /// Tests run.
    pub runs: u64,
    /// The share that accepted H1.
    pub accepted_h1: f64,
    /// The share that accepted H0.
    pub accepted_h0: f64,
    /// Mean game pairs per test.
    pub mean_pairs: f64,
    /// The median of the median-unbiased estimates of the stopped tests.
    pub median_unbiased: f64,
    /// The median of the fixed-sample Elo of the stopped tests.
    pub median_fixed: f64,
    /// The share of stopped tests whose corrected 95% interval holds the truth.
    pub coverage_corrected: f64,
    /// The share of stopped tests whose fixed-sample 95% interval holds the truth.
    pub coverage_fixed: f64,
}

/// Runs `runs` tests of `design` (seeds `seed`, `seed + 1`, ...) on independent
/// games at true Elo `elo` drawing `draw_ratio` of the time, and summarises them.
#[must_use]
pub fn summarise(
    design: &SprtDesign,
    elo: f64,
    draw_ratio: f64,
    runs: u64,
    seed: u64,
    max_pairs: u64,
) -> SimulationSummary {
    use rayon::prelude::*;
    let truth = pairs_of_independent_games(score_from_elo(elo), draw_ratio);
    let tests: Vec<SimulatedTest> = (0..runs)
        .into_par_iter()
        .map(|i| simulate(design, &truth, seed.wrapping_add(i), max_pairs))
        .collect();
    // (median-unbiased, its interval holds the truth, fixed-sample, its interval holds it)
    let stopped: Vec<(f64, bool, f64, bool)> = tests
        .par_iter()
        .filter_map(|t| {
            let verdict = t.verdict?;
            let estimate = median_unbiased(design, &t.counts, verdict)?;
            let (fixed, low, high) = t.counts.interval95().elo();
            Some((
                estimate.elo,
                estimate.low <= elo && elo <= estimate.high,
                fixed,
                low <= elo && elo <= high,
            ))
        })
        .collect();
    let share = |n: usize, of: usize| n as f64 / of.max(1) as f64;
    let median = |mut v: Vec<f64>| -> f64 {
        if v.is_empty() {
            return f64::NAN;
        }
        v.sort_by(f64::total_cmp);
        let m = v.len() / 2;
        if v.len() % 2 == 1 {
            v[m]
        } else {
            0.5 * (v[m - 1] + v[m])
        }
    };
    let count = |verdict: Verdict| tests.iter().filter(|t| t.verdict == Some(verdict)).count();
    SimulationSummary {
        elo,
        runs,
        accepted_h1: share(count(Verdict::H1), tests.len()),
        accepted_h0: share(count(Verdict::H0), tests.len()),
        mean_pairs: tests.iter().map(|t| t.counts.pairs() as f64).sum::<f64>()
            / tests.len().max(1) as f64,
        median_unbiased: median(stopped.iter().map(|s| s.0).collect()),
        median_fixed: median(stopped.iter().map(|s| s.2).collect()),
        coverage_corrected: share(stopped.iter().filter(|s| s.1).count(), stopped.len()),
        coverage_fixed: share(stopped.iter().filter(|s| s.3).count(), stopped.len()),
    }
}

/// (elo0, elo1, true Elo, draw ratio): the grid of designs, true Elos and draw ratios the estimate is checked on: true
/// Elos between, at and far beyond the hypotheses, results near-perfect and perfect
/// (true Elo 800 and more), draw ratios 0 to 0.9.
pub const ESTIMATE_GRID: [(f64, f64, f64, f64); 14] = [
    (0.0, 5.0, -40.0, 0.5),
    (0.0, 5.0, 50.0, 0.5),
    (0.0, 50.0, 0.0, 0.3),
    (0.0, 50.0, 50.0, 0.3),
    (0.0, 50.0, 200.0, 0.3),
    (0.0, 50.0, -200.0, 0.0),
    (0.0, 50.0, 25.0, 0.9),
    (0.0, 50.0, 150.0, 0.9),
    (200.0, 300.0, 250.0, 0.3),
    (200.0, 300.0, 500.0, 0.3),
    (300.0, 400.0, 430.0, 0.3),
    (300.0, 400.0, 800.0, 0.1),
    (300.0, 400.0, 1200.0, 0.0),
    (0.0, 50.0, 1200.0, 0.0),
];
