//! CMA-ES (the `cmaes` crate) over the parameters scaled by their steps.

use super::config::Tune;
use super::trace::{Trace, TraceRow};
use super::Games;
use crate::board::Geometry;
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::strategy::Strategy;
use std::sync::atomic::{AtomicBool, Ordering};

/// Minimises minus the score against the panel (or against the starting player).
/// Each evaluation plays `tune.games` games seeded by its index, and a resumed tune
/// replays the stored results, so it reaches the state of an uninterrupted one.
/// Returns the final mean and whether the stop flag ended it early.
pub fn cmaes<G: Geometry>(
    tune: &Tune,
    games: &Games<'_, G>,
    rows: &mut Vec<TraceRow>,
    trace: &Trace,
    progress: &Progress,
    stop: &AtomicBool,
) -> Result<(Vec<f64>, bool)> {
    let start: Vec<f64> = tune.params.iter().map(|p| p.start / p.step).collect();
    let start_strategy = games.build(&tune.start())?;
    let panel = games.panel()?;
    let replay: Vec<TraceRow> = rows.clone();
    let mut evaluations = 0u64;
    let mut failure: Option<Error> = None;
    let mut fresh: Vec<TraceRow> = Vec::new();
    let objective = |x: &nalgebra::DVector<f64>| -> f64 {
        evaluations += 1;
        if let Some(row) = replay.get(evaluations as usize - 1) {
            return -row.result;
        }
        if failure.is_some() || stop.load(Ordering::Relaxed) || evaluations > tune.iterations {
            return 0.0;
        }
        let mut theta: Vec<f64> = x
            .iter()
            .zip(&tune.params)
            .map(|(v, p)| v * p.step)
            .collect();
        tune.clamp(&mut theta);
        let strategy = match games.build(&theta) {
            Ok(s) => s,
            Err(e) => {
                failure = Some(e);
                return 0.0;
            }
        };
        let opponents: Vec<&dyn Strategy<G>> = if panel.is_empty() {
            vec![start_strategy.as_ref()]
        } else {
            panel.iter().map(AsRef::as_ref).collect()
        };
        let score = games
            .play(strategy.as_ref(), &opponents, evaluations, tune.games)
            .score()
            .mean;
        let row = TraceRow {
            iteration: evaluations,
            result: score,
            theta,
        };
        if let Err(e) = trace.append(&row) {
            failure = Some(e);
        }
        fresh.push(row);
        progress.advance(1);
        progress.message(format!("score {score:.3}"));
        -score
    };
    let mut optimiser = cmaes::CMAESOptions::new(start, 1.0)
        .seed(tune.setup.seed)
        .max_function_evals(tune.iterations as usize)
        .build(objective)
        .map_err(|e| Error::internal(format!("CMA-ES cannot start: {e:?}")))?;
    let mut mean: Vec<f64>;
    loop {
        let done = optimiser.next();
        mean = optimiser
            .mean()
            .iter()
            .zip(&tune.params)
            .map(|(v, p)| (v * p.step).clamp(p.min, p.max))
            .collect();
        if done.is_some() || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    drop(optimiser);
    if let Some(e) = failure {
        return Err(e);
    }
    rows.extend(fresh);
    let interrupted = stop.load(Ordering::Relaxed) && (rows.len() as u64) < tune.iterations;
    Ok((mean, interrupted))
}
