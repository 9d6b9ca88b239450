//! SPSA (Spall) with the standard gains, as chess testing frameworks tune by it.

use super::config::Tune;
use super::trace::{Trace, TraceRow};
use super::Games;
use crate::board::Geometry;
use crate::error::Result;
use crate::lab::schedule::{game_rng, Seeds};
use crate::progress::Progress;
use crate::strategy::Strategy;
use rand::Rng;
use std::sync::atomic::{AtomicBool, Ordering};

/// Runs the iterations not yet in `rows`: a_k = a/(A+k)^0.602, c_k = c/k^0.101,
/// A = 10% of the iterations; per parameter c = step K^0.101 (so the last
/// perturbation is `step`) and a = r_end step^2 (A+K)^0.602 (so the last update
/// is r_end step per unit result). Returns the final parameters and whether the
/// stop flag ended it early.
pub fn spsa<G: Geometry>(
    tune: &Tune,
    games: &Games<'_, G>,
    rows: &mut Vec<TraceRow>,
    trace: &Trace,
    progress: &Progress,
    stop: &AtomicBool,
) -> Result<(Vec<f64>, bool)> {
    let mut theta: Vec<f64> = rows
        .last()
        .map_or_else(|| tune.start(), |r| r.theta.clone());
    let panel = games.panel()?;
    for k in rows.len() as u64 + 1..=tune.iterations {
        if stop.load(Ordering::Relaxed) {
            return Ok((theta, true));
        }
        let result = iteration(tune, &mut theta, k, |plus, minus| {
            let (sp, sm) = (games.build(plus)?, games.build(minus)?);
            // How much better theta+ did than theta-, per game, in [-1, 1].
            Ok(if panel.is_empty() {
                let t = games.play(sp.as_ref(), &[sm.as_ref()], k, tune.games);
                (t.wins as f64 - t.losses as f64) / t.games() as f64
            } else {
                let opponents: Vec<&dyn Strategy<G>> = panel.iter().map(AsRef::as_ref).collect();
                let tp = games.play(sp.as_ref(), &opponents, k, tune.games / 2);
                let tm = games.play(sm.as_ref(), &opponents, k, tune.games / 2);
                tp.score().mean - tm.score().mean
            })
        })?;
        let row = TraceRow {
            iteration: k,
            result,
            theta: theta.clone(),
        };
        trace.append(&row)?;
        rows.push(row);
        progress.advance(1);
        let recent: Vec<f64> = rows.iter().rev().take(20).map(|r| r.result).collect();
        progress.message(format!(
            "recent result {}",
            crate::numbers::signed(recent.iter().sum::<f64>() / recent.len() as f64, 3)
        ));
    }
    Ok((theta, false))
}

/// The gains (a_k, c_k) of iteration `k` (from 1) of `iterations` for a parameter
/// of `step`, by the formulas on [`spsa`].
fn gains(step: f64, r_end: f64, k: u64, iterations: u64) -> (f64, f64) {
    let k_total = iterations as f64;
    let big_a = 0.1 * k_total;
    let kf = k as f64;
    let c = step * k_total.powf(0.101) / kf.powf(0.101);
    let a = r_end * step * step * (big_a + k_total).powf(0.602) / (big_a + kf).powf(0.602);
    (a, c)
}

/// Iteration `k` from `theta`: a random sign per parameter (from the tune's seed and
/// `k`), theta+ and theta- at c_k along it, `compare(theta+, theta-)` (how much better
/// theta+ did, in [-1, 1]), and theta moved by a_k / c_k times that along the signs.
/// Apart from the games, so a test can hand it a problem whose optimum is known.
fn iteration(
    tune: &Tune,
    theta: &mut [f64],
    k: u64,
    compare: impl FnOnce(&[f64], &[f64]) -> Result<f64>,
) -> Result<f64> {
    let mut rng = game_rng(Seeds(tune.setup.seed).perturbation(k));
    let delta: Vec<f64> = tune
        .params
        .iter()
        .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
        .collect();
    let (a, c): (Vec<f64>, Vec<f64>) = tune
        .params
        .iter()
        .map(|p| gains(p.step, tune.r_end, k, tune.iterations))
        .unzip();
    let mut plus = theta.to_vec();
    let mut minus = theta.to_vec();
    for i in 0..theta.len() {
        plus[i] += c[i] * delta[i];
        minus[i] -= c[i] * delta[i];
    }
    tune.clamp(&mut plus);
    tune.clamp(&mut minus);
    let result = compare(&plus, &minus)?;
    for i in 0..theta.len() {
        theta[i] += a[i] / c[i] * result * delta[i];
    }
    tune.clamp(theta);
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use std::path::Path;

    /// A tune of one parameter, `corners` of `eval`, in [0, 40] from `start`.
    fn one_parameter(start: f64, iterations: u64, r_end: f64) -> Tune {
        let text = format!(
            "name = \"t\"\nseed = 5\niterations = {iterations}\ngames_per_iteration = 8\n\
             [player]\nkind = \"eval\"\n[[params]]\nname = \"corners\"\nmin = 0\nmax = 40\n\
             step = 2\nstart = {start}\n[spsa]\nr_end = {r_end}\n[validation]\nskip = true\n"
        );
        Tune::parse(&text, "t.toml", Path::new(".")).unwrap()
    }

    #[test]
    fn the_gains_follow_their_formulas() {
        let (step, r_end, total) = (3.0_f64, 2.0_f64, 200_u64);
        let big_a = 0.1 * total as f64;
        // The constants a and c the doc comment gives, and the gains from them.
        let c0 = step * (total as f64).powf(0.101);
        let a0 = r_end * step * step * (big_a + total as f64).powf(0.602);
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * y.abs();
        for k in [1, 2, 7, 20, 100, 199, 200] {
            let (a, c) = gains(step, r_end, k, total);
            assert!(close(c, c0 / (k as f64).powf(0.101)), "c_{k} = {c}");
            assert!(close(a, a0 / (big_a + k as f64).powf(0.602)), "a_{k} = {a}");
        }
        // The last perturbation is `step`, the last update r_end step per unit result.
        let (a, c) = gains(step, r_end, total, total);
        assert!(close(c, step));
        assert!(close(a / c, r_end * step));
        // Both shrink, c_k by 2^0.101 when k doubles and a_k by Spall's 0.602 power.
        let (a1, c1) = gains(step, r_end, 1, total);
        let (a50, c50) = gains(step, r_end, 50, total);
        let (_, c100) = gains(step, r_end, 100, total);
        assert!(a1 > a50 && c1 > c50 && c50 > c100);
        assert!(close(c50 / c100, 2f64.powf(0.101)));
        assert!(close(
            a1 / a50,
            ((big_a + 50.0) / (big_a + 1.0)).powf(0.602)
        ));
    }

    /// A comparison with a known optimum: 32 noisy games whose expected result is
    /// the difference of a concave score peaking at `best`, like a tune's games.
    fn noisy_games(
        best: f64,
        rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
    ) -> impl FnMut(&[f64], &[f64]) -> Result<f64> + '_ {
        move |plus, minus| {
            let score = |x: f64| 1.0 - ((x - best) / 40.0).powi(2);
            let edge = ((score(plus[0]) - score(minus[0])) * 4.0).clamp(-1.0, 1.0);
            let games = 32;
            let mut total = 0.0;
            for _ in 0..games {
                // Win with probability (1 + edge) / 2, else lose.
                total += if rng.gen::<f64>() < (1.0 + edge) / 2.0 {
                    1.0
                } else {
                    -1.0
                };
            }
            Ok(total / f64::from(games))
        }
    }

    /// From either side of a known optimum, the iterations end near it.
    #[test]
    fn iterations_move_towards_the_optimum() {
        for (start, best) in [(2.0, 26.0), (38.0, 12.0)] {
            let tune = one_parameter(start, 400, 2.0);
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
            let mut theta = tune.start();
            let mut compare = noisy_games(best, &mut rng);
            for k in 1..=tune.iterations {
                iteration(&tune, &mut theta, k, &mut compare).unwrap();
                assert!((0.0..=40.0).contains(&theta[0]), "clamped: {theta:?}");
            }
            let (before, after) = ((start - best).abs(), (theta[0] - best).abs());
            assert!(
                after < before / 3.0,
                "from {start} towards {best}: {theta:?}"
            );
        }
    }

    /// Without a difference between theta+ and theta- nothing moves, and the
    /// perturbation is +-c_k around theta (clamped to the range).
    #[test]
    fn a_draw_moves_nothing_and_the_perturbation_is_c_k() {
        let tune = one_parameter(20.0, 50, 2.0);
        let mut theta = tune.start();
        for k in 1..=tune.iterations {
            let (_, c) = gains(2.0, 2.0, k, 50);
            iteration(&tune, &mut theta, k, |plus, minus| {
                assert!(((plus[0] - minus[0]).abs() - 2.0 * c).abs() < 1e-9);
                assert!(((plus[0] + minus[0]) / 2.0 - 20.0).abs() < 1e-9);
                Ok(0.0)
            })
            .unwrap();
            assert_eq!(theta, [20.0]);
        }
    }
}
