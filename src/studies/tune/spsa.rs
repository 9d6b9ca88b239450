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
    let k_total = tune.iterations as f64;
    let big_a = 0.1 * k_total;
    let mut theta: Vec<f64> = rows
        .last()
        .map_or_else(|| tune.start(), |r| r.theta.clone());
    let panel = games.panel()?;
    for k in rows.len() as u64 + 1..=tune.iterations {
        if stop.load(Ordering::Relaxed) {
            return Ok((theta, true));
        }
        let kf = k as f64;
        let mut rng = game_rng(Seeds(tune.setup.seed).perturbation(k));
        let delta: Vec<f64> = tune
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let c: Vec<f64> = tune
            .params
            .iter()
            .map(|p| p.step * k_total.powf(0.101) / kf.powf(0.101))
            .collect();
        let a: Vec<f64> = tune
            .params
            .iter()
            .map(|p| {
                tune.r_end * p.step * p.step * (big_a + k_total).powf(0.602)
                    / (big_a + kf).powf(0.602)
            })
            .collect();
        let mut plus = theta.clone();
        let mut minus = theta.clone();
        for i in 0..theta.len() {
            plus[i] += c[i] * delta[i];
            minus[i] -= c[i] * delta[i];
        }
        tune.clamp(&mut plus);
        tune.clamp(&mut minus);
        let (sp, sm) = (games.build(&plus)?, games.build(&minus)?);
        // The result: how much better theta+ did than theta-, per game, in [-1, 1].
        let result = if panel.is_empty() {
            let t = games.play(sp.as_ref(), &[sm.as_ref()], k, tune.games);
            (t.wins as f64 - t.losses as f64) / t.games() as f64
        } else {
            let opponents: Vec<&dyn Strategy<G>> = panel.iter().map(AsRef::as_ref).collect();
            let tp = games.play(sp.as_ref(), &opponents, k, tune.games / 2);
            let tm = games.play(sm.as_ref(), &opponents, k, tune.games / 2);
            tp.score().mean - tm.score().mean
        };
        for i in 0..theta.len() {
            theta[i] += a[i] / c[i] * result * delta[i];
        }
        tune.clamp(&mut theta);
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
