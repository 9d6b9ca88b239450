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
    let start_strategy = games.build(&tune.start())?;
    let panel = games.panel()?;
    let opponents: Vec<&dyn Strategy<G>> = if panel.is_empty() {
        vec![start_strategy.as_ref()]
    } else {
        panel.iter().map(AsRef::as_ref).collect()
    };
    optimise(
        tune,
        rows,
        stop,
        |evaluation, theta| {
            let strategy = games.build(theta)?;
            Ok(games
                .play(strategy.as_ref(), &opponents, evaluation, tune.games)
                .score()
                .mean)
        },
        |row| {
            let appended = trace.append(row);
            progress.advance(1);
            progress.message(format!("score {:.3}", row.result));
            appended
        },
    )
}

/// The optimisation loop apart from the games, so a test can hand it a problem whose
/// optimum is known. `evaluate(evaluation, theta)` scores a candidate (higher is
/// better; evaluations count from 1, theta is clamped into the bounds) and `record`
/// keeps each fresh row as it comes. The first `rows` are replayed instead of
/// evaluated; the fresh ones are added to them once the loop ends without a failure.
/// Returns the final mean (clamped) and whether the stop flag ended it early.
fn optimise(
    tune: &Tune,
    rows: &mut Vec<TraceRow>,
    stop: &AtomicBool,
    mut evaluate: impl FnMut(u64, &[f64]) -> Result<f64>,
    mut record: impl FnMut(&TraceRow) -> Result<()>,
) -> Result<(Vec<f64>, bool)> {
    let start: Vec<f64> = tune.params.iter().map(|p| p.start / p.step).collect();
    let replay: Vec<TraceRow> = rows.clone();
    let mut evaluations = 0u64;
    let mut failure: Option<Error> = None;
    let mut fresh: Vec<TraceRow> = Vec::new();
    let objective = |x: &nalgebra::DVector<f64>| -> f64 {
        evaluations += 1;
        if let Some(row) = replay.get(evaluations as usize - 1) {
            return -row.result;
        }
        // The crate asks for whole generations: what it asks for past the end (or
        // after a failure or a stop) is not played, and its value is never used.
        if failure.is_some() || stop.load(Ordering::Relaxed) || evaluations > tune.iterations {
            return 0.0;
        }
        let mut theta: Vec<f64> = x
            .iter()
            .zip(&tune.params)
            .map(|(v, p)| v * p.step)
            .collect();
        tune.clamp(&mut theta);
        let score = match evaluate(evaluations, &theta) {
            Ok(score) => score,
            Err(e) => {
                failure = Some(e);
                return 0.0;
            }
        };
        let row = TraceRow {
            iteration: evaluations,
            result: score,
            theta,
        };
        if let Err(e) = record(&row) {
            failure = Some(e);
        }
        fresh.push(row);
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::path::Path;

    /// A CMA-ES tune of two parameters of `eval`, `corners` and `mobility`, each in
    /// [0, 40] with a step of 2, from `start`.
    fn two_parameters(start: [f64; 2], iterations: u64) -> Tune {
        let text = format!(
            "name = \"t\"\nmethod = \"cmaes\"\nseed = 5\niterations = {iterations}\n\
             games_per_iteration = 8\n[player]\nkind = \"eval\"\n\
             [[params]]\nname = \"corners\"\nmin = 0\nmax = 40\nstep = 2\nstart = {}\n\
             [[params]]\nname = \"mobility\"\nmin = 0\nmax = 40\nstep = 2\nstart = {}\n\
             [validation]\nskip = true\n",
            start[0], start[1]
        );
        Tune::parse(&text, "t.toml", Path::new(".")).unwrap()
    }

    /// A score with a known optimum: a concave quadratic peaking at 1 at `best`, like
    /// a tune's score in [0, 1], plus uniform noise of up to `noise` either way drawn
    /// from the evaluation's number (so a replay meets the same noise).
    fn quadratic(best: [f64; 2], noise: f64) -> impl Fn(u64, &[f64]) -> Result<f64> {
        move |evaluation, theta| {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(evaluation);
            let distance = (theta[0] - best[0]).hypot(theta[1] - best[1]);
            Ok(1.0 - (distance / 40.0).powi(2) + noise * (2.0 * rng.gen::<f64>() - 1.0))
        }
    }

    fn distance(a: &[f64], b: &[f64]) -> f64 {
        (a[0] - b[0]).hypot(a[1] - b[1])
    }

    /// Runs the loop on `rows` with `evaluate`, keeping nothing beyond `rows`.
    fn run(
        tune: &Tune,
        rows: &mut Vec<TraceRow>,
        stop: &AtomicBool,
        evaluate: impl FnMut(u64, &[f64]) -> Result<f64>,
    ) -> (Vec<f64>, bool) {
        optimise(tune, rows, stop, evaluate, |_| Ok(())).unwrap()
    }

    /// With or without noise, from either side of a known optimum, the mean ends
    /// much nearer it than the start, within the bounds.
    #[test]
    fn the_mean_moves_towards_the_optimum() {
        for noise in [0.0, 0.05] {
            for (start, best) in [([4.0, 36.0], [30.0, 10.0]), ([38.0, 2.0], [12.0, 24.0])] {
                let tune = two_parameters(start, 300);
                let (mean, interrupted) = run(
                    &tune,
                    &mut Vec::new(),
                    &AtomicBool::new(false),
                    quadratic(best, noise),
                );
                assert!(!interrupted);
                assert!(mean.iter().all(|v| (0.0..=40.0).contains(v)), "{mean:?}");
                let (before, after) = (distance(&start, &best), distance(&mean, &best));
                assert!(
                    after < before / 5.0,
                    "noise {noise}, from {start:?} towards {best:?}: {mean:?}"
                );
            }
        }
    }

    /// No more evaluations than `tune.iterations`, each recorded once, in order, at a
    /// point within the bounds.
    #[test]
    fn evaluations_respect_the_iteration_limit() {
        for iterations in [1, 5, 50, 101] {
            let tune = two_parameters([4.0, 36.0], iterations);
            let mut calls = Vec::new();
            let mut recorded = Vec::new();
            let score = quadratic([30.0, 10.0], 0.05);
            let mut rows = Vec::new();
            let (_, interrupted) = optimise(
                &tune,
                &mut rows,
                &AtomicBool::new(false),
                |evaluation, theta| {
                    assert!(theta.iter().all(|v| (0.0..=40.0).contains(v)), "{theta:?}");
                    calls.push(evaluation);
                    score(evaluation, theta)
                },
                |row| {
                    recorded.push(row.clone());
                    Ok(())
                },
            )
            .unwrap();
            assert!(!interrupted);
            assert_eq!(calls, (1..=iterations).collect::<Vec<_>>());
            assert_eq!(rows, recorded);
            assert!(rows.iter().map(|r| r.iteration).eq(1..=iterations));
        }
    }

    /// A run stopped after N evaluations and resumed from its N rows (which are
    /// replayed, not evaluated again) ends where an uninterrupted one does.
    #[test]
    fn a_resumed_run_reaches_the_same_mean() {
        let tune = two_parameters([4.0, 36.0], 120);
        let score = quadratic([30.0, 10.0], 0.05);
        let mut whole = Vec::new();
        let (mean, _) = run(&tune, &mut whole, &AtomicBool::new(false), &score);
        assert_eq!(whole.len(), 120);
        for n in [1, 6, 7, 50, 119] {
            let stop = AtomicBool::new(false);
            let mut rows = Vec::new();
            let (_, interrupted) = run(&tune, &mut rows, &stop, |evaluation, theta| {
                if evaluation == n {
                    stop.store(true, Ordering::Relaxed);
                }
                score(evaluation, theta)
            });
            assert!(interrupted, "stopped after {n}");
            assert_eq!(rows[..], whole[..n as usize], "stopped after {n}");
            let (resumed, interrupted) = run(
                &tune,
                &mut rows,
                &AtomicBool::new(false),
                |evaluation, theta| {
                    assert!(evaluation > n, "evaluation {evaluation} is replayed");
                    score(evaluation, theta)
                },
            );
            assert!(!interrupted);
            assert_eq!(resumed, mean, "resumed after {n}");
            assert_eq!(rows, whole, "resumed after {n}");
        }
    }

    /// A failed evaluation ends the loop with its error, keeping no fresh row.
    #[test]
    fn a_failure_is_returned_and_keeps_nothing() {
        let tune = two_parameters([4.0, 36.0], 40);
        let mut rows = Vec::new();
        let mut calls = 0;
        let result = optimise(
            &tune,
            &mut rows,
            &AtomicBool::new(false),
            |evaluation, _| {
                calls += 1;
                if evaluation == 3 {
                    Err(Error::input("no such player"))
                } else {
                    Ok(0.5)
                }
            },
            |_| Ok(()),
        );
        assert!(result.unwrap_err().to_string().contains("no such player"));
        assert_eq!((calls, rows.len()), (3, 0));
    }
}
