//! Fits the 8x8 pattern evaluation: a least-squares fit of the pattern tables per
//! stage of the game to labelled positions (every position of recorded games with the
//! game's final margin, or `label`'s deep-search and exact values), with each stage's
//! held-out error before and after.

mod error;
mod samples;

pub use error::{stage_errors, Named, StageError};

pub use samples::{positions_before_moves, standard_games, Sample, HOLD_OUT_EVERY};

use crate::error::{Error, Result};
use crate::strategy::pattern::{
    canonical, digit_symmetries, instances, stage, table_len, Weights, PATTERNS, SCALE, STAGES,
    STAGE_WIDTH,
};
use rayon::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A stage is fitted on positions up to this many stages either side of it too:
/// neighbouring stages are alike, and a table has more entries than one stage has
/// positions.
const NEIGHBOURS: usize = 1;
/// The ridge penalty by default: a configuration seen a few times is pulled towards 0
/// as if this many more positions had shown it worth nothing.
pub const DEFAULT_RIDGE: f64 = 2.0;
/// Placements per position, at most (46 for the shipped patterns).
const MAX_PLACEMENTS: usize = 64;

/// What a fit is asked for.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Results folders (their games' positions, labelled with the final margin) and
    /// labelled-positions files, in any mix.
    pub inputs: Vec<PathBuf>,
    /// Conjugate-gradient passes per stage.
    pub iterations: usize,
    /// The ridge penalty.
    pub ridge: f64,
    /// Weights to start from (None: zero): the fit is of the change from them, and the
    /// ridge pulls each weight towards its start, so that configurations the positions
    /// seldom show keep the start's value.
    pub start: Option<Weights>,
}

/// How well one stage was fitted: one row of the errors CSV.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageFit {
    /// The stage's fewest empty squares.
    pub empties_from: u32,
    /// Its most.
    pub empties_to: u32,
    /// Positions fitted on (the stage and its neighbours, held-out games excluded).
    pub train: usize,
    /// Held-out positions of the stage itself.
    pub test: usize,
    /// Mean absolute error on the held-out positions, in discs, of the fitted weights.
    pub mae: f64,
    /// Root mean square error of the same.
    pub rmse: f64,
    /// The mean absolute error of the weights compared with (the shipped ones by default).
    pub mae_before: f64,
    /// The root mean square error of the same.
    pub rmse_before: f64,
    /// The root mean square of the labels themselves (the error of a constant 0).
    pub spread: f64,
}

/// What `fit` produced.
pub struct Fit {
    /// The weights.
    pub weights: Weights,
    /// Per stage, how well.
    pub stages: Vec<StageFit>,
    /// Games read.
    pub games: usize,
    /// Positions read.
    pub positions: usize,
}

/// Where every global weight index goes once symmetric configurations are merged.
fn merged_indices() -> Vec<u32> {
    let mut map = vec![0u32; table_len()];
    let mut offset = 0;
    for (p, pattern) in PATTERNS.iter().enumerate() {
        let len = pattern.squares.len();
        let perms = digit_symmetries(p);
        let size = 3usize.pow(len as u32);
        for index in 0..size {
            map[offset + index] = (offset + canonical(index, len, &perms)) as u32;
        }
        offset += size;
    }
    map
}

/// The merged weight indices of a position's placements, one after another.
fn placements(samples: &[&Sample], merged: &[u32]) -> Vec<u32> {
    let all = instances();
    assert!(all.len() <= MAX_PLACEMENTS);
    let mut out = Vec::with_capacity(samples.len() * all.len());
    for s in samples {
        out.extend(
            all.iter()
                .map(|i| merged[i.offset + i.index(s.player, s.opponent)]),
        );
    }
    out
}

/// Fits one stage's table (the merged entries only) on `train` by conjugate
/// gradients on the ridge least-squares problem; returns it in discs.
fn fit_stage(labels: &[f32], indices: &[u32], iterations: usize, ridge: f64) -> Vec<f32> {
    let len = table_len();
    if labels.is_empty() {
        // A stage no position reaches keeps its start.
        return vec![0.0; len];
    }
    let per = indices.len() / labels.len();
    // The normal matrix times v: the sum over positions of their placements' row
    // times the row's value under v, plus the ridge.
    let times = |v: &[f64], out: &mut [f64]| {
        out.iter_mut().zip(v).for_each(|(o, x)| *o = ridge * x);
        for row in indices.chunks_exact(per) {
            let value: f64 = row.iter().map(|&i| v[i as usize]).sum();
            for &i in row {
                out[i as usize] += value;
            }
        }
    };
    let mut seen = vec![false; len];
    let mut residual = vec![0f64; len];
    for (&label, row) in labels.iter().zip(indices.chunks_exact(per)) {
        for &i in row {
            residual[i as usize] += f64::from(label);
            seen[i as usize] = true;
        }
    }
    let mut weights = vec![0f64; len];
    let mut direction = residual.clone();
    let mut product = vec![0f64; len];
    let mut norm: f64 = residual.iter().map(|r| r * r).sum();
    for _ in 0..iterations {
        if norm <= 1e-12 {
            break;
        }
        times(&direction, &mut product);
        let curvature: f64 = direction.iter().zip(&product).map(|(d, p)| d * p).sum();
        let step = norm / curvature;
        for i in 0..len {
            weights[i] += step * direction[i];
            residual[i] -= step * product[i];
        }
        let next: f64 = residual.iter().map(|r| r * r).sum();
        let keep = next / norm;
        norm = next;
        for (d, r) in direction.iter_mut().zip(&residual) {
            *d = r + keep * *d;
        }
    }
    debug_assert!(weights.iter().zip(&seen).all(|(w, s)| *s || *w == 0.0));
    weights.iter().map(|&w| w as f32).collect()
}

/// Fits the pattern evaluation to every game of `dirs`, `iterations` passes per stage
/// (the default ridge; errors compared with the shipped weights).
pub fn fit(dirs: &[PathBuf], iterations: usize) -> Result<Fit> {
    fit_with(
        &FitOptions {
            inputs: dirs.to_vec(),
            iterations,
            ridge: DEFAULT_RIDGE,
            start: None,
        },
        Weights::shipped(),
    )
}

/// Fits as `options` say; each stage's held-out error is also measured for `before`.
pub fn fit_with(options: &FitOptions, before: &Weights) -> Result<Fit> {
    let merged = merged_indices();
    let read = samples::read(&options.inputs)?;
    let samples = &read.samples;
    if samples.is_empty() {
        return Err(Error::input(
            "the inputs hold no positions to fit: give labelled-positions files with records (`reversi-lab label`) or results folders with 8x8 games",
        ));
    }
    // Two stages at a time on two cores: each holds its positions' placements (46
    // indices of 4 bytes) while it is fitted, and the positions stay 24 bytes each.
    let fitted: Vec<(Vec<f32>, StageFit)> = (0..STAGES)
        .into_par_iter()
        .map(|s| {
            let train: Vec<&Sample> = samples
                .iter()
                .filter(|x| !x.held_out && stage(u32::from(x.empties)).abs_diff(s) <= NEIGHBOURS)
                .collect();
            let indices = placements(&train, &merged);
            let start: Option<Vec<f32>> = (options.start.as_ref()).map(|w| {
                (w.stage(s).iter())
                    .map(|&v| f32::from(v) / SCALE as f32)
                    .collect()
            });
            let labels: Vec<f32> = match &start {
                // The start's own value of each position, by its raw (unmerged)
                // indices: a start need not give symmetric configurations one value.
                Some(table) => (train.iter())
                    .map(|x| x.label - predict(table, x))
                    .collect(),
                None => train.iter().map(|x| x.label).collect(),
            };
            let merged_weights = fit_stage(&labels, &indices, options.iterations, options.ridge);
            drop(indices);
            let table: Vec<f32> = (merged.iter().enumerate())
                .map(|(i, &m)| merged_weights[m as usize] + start.as_ref().map_or(0.0, |t| t[i]))
                .collect();
            let test: Vec<&Sample> = samples
                .iter()
                .filter(|x| x.held_out && stage(u32::from(x.empties)) == s)
                .collect();
            let after = errors(&test, |x| predict(&table, x));
            let before = errors(&test, |x| {
                before.evaluate(x.player, x.opponent) as f32
                    / crate::strategy::pattern::SCALE as f32
            });
            let first = s as u32 * STAGE_WIDTH;
            let spread = errors(&test, |_| 0.0).1;
            let fit = StageFit {
                empties_from: first,
                empties_to: first + STAGE_WIDTH - 1,
                train: train.len(),
                test: test.len(),
                mae: after.0,
                rmse: after.1,
                mae_before: before.0,
                rmse_before: before.1,
                spread,
            };
            (table, fit)
        })
        .collect();
    let (tables, stages): (Vec<Vec<f32>>, Vec<StageFit>) = fitted.into_iter().unzip();
    Ok(Fit {
        weights: Weights::from_discs(&tables),
        stages,
        games: read.games,
        positions: samples.len(),
    })
}

/// The built-in weights `name` names: `shipped` (what `eval=pattern` plays and the
/// solver orders by) or `ordering` (the first fit, kept to compare with).
#[must_use]
pub fn built_in_weights(name: &Path) -> Option<&'static Weights> {
    match name.to_str() {
        Some("shipped") => Some(Weights::shipped()),
        Some("ordering") => Some(Weights::ordering()),
        _ => None,
    }
}

/// The weights `path` names: a built-in set ([`built_in_weights`]) or a file.
pub fn named_weights(path: &Path) -> Result<Weights> {
    match built_in_weights(path) {
        Some(weights) => Ok(weights.clone()),
        None => read_weights(path),
    }
}

/// The weights file `path` names (fit-patterns' output), a bad one refused as input.
pub fn read_weights(path: &Path) -> Result<Weights> {
    let bytes = std::fs::read(path).map_err(|e| Error::unreadable(path, &e))?;
    Weights::decode(&bytes).map_err(|e| {
        Error::input(format!(
            "{} is not a weights file ({e}): give one `reversi-lab fit-patterns` wrote",
            path.display()
        ))
    })
}

/// A stage table's value of `x`, in discs.
fn predict(table: &[f32], x: &Sample) -> f32 {
    (instances().iter())
        .map(|i| table[i.offset + i.index(x.player, x.opponent)])
        .sum()
}

/// The mean absolute and root mean square error of `predict` on `test` (0 for none).
fn errors(test: &[&Sample], predict: impl Fn(&Sample) -> f32) -> (f64, f64) {
    let (mut absolute, mut square) = (0f64, 0f64);
    for x in test {
        let e = f64::from(x.label - predict(x));
        absolute += e.abs();
        square += e * e;
    }
    let n = test.len().max(1) as f64;
    (absolute / n, (square / n).sqrt())
}
