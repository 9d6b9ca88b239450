//! How long an SPRT still runs from where it stands, as a range: the walk that
//! `plan` and [`expected_pairs_left`] reason about, continued many times from the
//! LLR now, each continuation at a true Elo drawn from the estimate's uncertainty.
//! Wald's expectation at the point estimate alone ran 4 to 5 times short of a real
//! test whose true Elo sat at elo0: near the hypotheses the drift is small, one
//! test's length scatters widely about its expectation, and the estimate itself
//! moves. The quantiles of the continued walks say both.
//!
//! [`expected_pairs_left`]: super::expected_pairs_left

use super::fit::{mle_with_mean, normalised};
use super::score_from_elo;
use super::sequential::{llr_increments, SprtDesign, ELO_RANGE};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Continuations walked for one answer.
const WALKS: usize = 200;

/// At most this many pairs are walked in all for one answer, so that its cost is
/// bounded whatever the test (some 40,000 pairs a walk, past the length of most
/// tests): a walk still going then counts as that long, so the top can only read
/// short when tests run longer still.
const STEPS: u64 = 8_000_000;

/// The game pairs an SPRT still needs: the 10%, 50% and 90% points of its remaining
/// length over the continued walks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairsLeft {
    /// One test in ten ends sooner than this.
    pub low: f64,
    /// Half the tests end sooner.
    pub median: f64,
    /// One test in ten ends later than this (or runs into `most`).
    pub high: f64,
}

/// The remaining game pairs of an SPRT of `design` whose LLR is `llr` between the
/// bounds in force `(lower, upper)`, for results shaped like `frequencies` (counts of
/// 0 to 2 points a pair), with the Elo estimated at `elo.0` with standard error
/// `elo.1`; no walk goes past `most` pairs (what the run has left). The same `seed`
/// gives the same answer.
#[must_use]
pub fn pairs_left(
    design: &SprtDesign,
    frequencies: &[f64; 5],
    elo: (f64, f64),
    llr: f64,
    (lower, upper): (f64, f64),
    most: f64,
    seed: u64,
) -> PairsLeft {
    if llr <= lower || llr >= upper || most <= 0.0 {
        return PairsLeft {
            low: 0.0,
            median: 0.0,
            high: 0.0,
        };
    }
    let q = normalised(&frequencies.map(|c| c.max(1e-12)));
    let increments = llr_increments(&q, design);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let cap = most.min(1e12) as u64;
    let per_walk = (STEPS / WALKS as u64).max(1);
    let mut lengths: Vec<u64> = (0..WALKS)
        .map(|_| {
            // Box-Muller: the true Elo of this continuation.
            let (u, v): (f64, f64) = (rng.gen_range(f64::EPSILON..1.0), rng.gen());
            let z = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
            let truth = (elo.0 + elo.1.max(0.0) * z).clamp(ELO_RANGE.0, ELO_RANGE.1);
            let p = normalised(&mle_with_mean(&q, score_from_elo(truth)));
            let mut at = llr;
            let mut pairs = 0;
            while at > lower && at < upper && pairs < cap {
                if pairs >= per_walk {
                    return pairs;
                }
                let mut u: f64 = rng.gen();
                let mut k = 4;
                for (i, &pk) in p.iter().enumerate() {
                    if u < pk {
                        k = i;
                        break;
                    }
                    u -= pk;
                }
                at += increments[k];
                pairs += 1;
            }
            pairs
        })
        .collect();
    lengths.sort_unstable();
    let at = |fraction: f64| lengths[((WALKS - 1) as f64 * fraction).round() as usize] as f64;
    PairsLeft {
        low: at(0.1),
        median: at(0.5),
        high: at(0.9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{elo_from_score, pairs_of_independent_games, Pentanomial, SprtWatch};

    /// Real SPRTs (the LLR the runs compute, with its overshoot correction) on
    /// simulated pairs at a known true Elo, each stopped at a checkpoint, asked how
    /// long it has left, and then played to its end: the range holds the true rest
    /// about as often as it says (80%), where Wald's expectation at the point
    /// estimate ran short of most.
    #[test]
    fn the_range_holds_the_rest_of_simulated_tests_about_as_often_as_it_says() {
        let design = SprtDesign {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            overshoot: true,
        };
        let mut inside = 0;
        let mut asked = 0;
        let mut wald_short = 0;
        for (trial, truth_elo) in (0..60u64).zip([0.0, 5.0, 10.0].into_iter().cycle()) {
            let truth = pairs_of_independent_games(score_from_elo(truth_elo), 0.1);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1000 + trial);
            let mut counts = Pentanomial::default();
            let mut watch = SprtWatch::default();
            let mut estimate = None;
            let checkpoint = 300;
            let mut played = 0u64;
            loop {
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
                played += 1;
                let (llr, verdict) = watch.judge(&design, &counts);
                if verdict.is_some() || played > 200_000 {
                    break;
                }
                if played == checkpoint {
                    let score = counts.score();
                    let elo = elo_from_score(score.mean);
                    let se = (elo_from_score(score.mean + score.se)
                        - elo_from_score(score.mean - score.se))
                        / 2.0;
                    let frequencies = counts.0.map(|c| c as f64);
                    let bounds = watch.bounds(&design);
                    let range =
                        pairs_left(&design, &frequencies, (elo, se), llr, bounds, 1e9, trial);
                    let wald =
                        crate::stats::expected_pairs_left(&design, &frequencies, elo, llr, bounds);
                    estimate = Some((range, wald));
                }
            }
            if let Some((range, wald)) = estimate {
                let rest = (played - checkpoint) as f64;
                asked += 1;
                if (range.low..=range.high).contains(&rest) {
                    inside += 1;
                }
                if wald < rest {
                    wald_short += 1;
                }
            }
        }
        assert!(asked >= 40, "most tests outlive the checkpoint: {asked}");
        let share = f64::from(inside) / f64::from(asked);
        assert!(
            (0.6..=0.97).contains(&share),
            "the 10-90% range held {inside} of {asked}"
        );
        assert!(wald_short > 0, "{wald_short} of {asked}");
    }

    #[test]
    fn a_decided_test_has_nothing_left_and_answers_repeat() {
        let design = SprtDesign {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            overshoot: false,
        };
        let f = [10.0, 40.0, 100.0, 40.0, 10.0];
        let done = pairs_left(&design, &f, (0.0, 5.0), 3.0, (-2.9, 2.9), 1e6, 1);
        assert_eq!(done.median, 0.0);
        let a = pairs_left(&design, &f, (0.0, 5.0), 0.5, (-2.9, 2.9), 1e6, 7);
        let b = pairs_left(&design, &f, (0.0, 5.0), 0.5, (-2.9, 2.9), 1e6, 7);
        assert_eq!(a, b);
        assert!(
            a.low <= a.median && a.median <= a.high && a.low > 0.0,
            "{a:?}"
        );
        // No walk past what the run has left.
        let capped = pairs_left(&design, &f, (0.0, 5.0), 0.5, (-2.9, 2.9), 50.0, 7);
        assert!(capped.high <= 50.0, "{capped:?}");
    }
}
