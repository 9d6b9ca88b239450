//! Fits the 8x8 pattern evaluation to recorded games: every position of every game,
//! labelled with the game's final margin for the side to move, and a least-squares
//! fit of the pattern tables per stage of the game.

use crate::board::{Color, Size8};
use crate::error::{Error, Result};
use crate::game::{Game, Rules};
use crate::lab::rows::GameRow;
use crate::lab::{games_file, recorded_run};
use crate::strategy::pattern::{
    canonical, digit_symmetries, instances, stage, table_len, Weights, PATTERNS, STAGES,
    STAGE_WIDTH,
};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Games whose id is a multiple of this are held out to measure the fit.
pub const HOLD_OUT_EVERY: u64 = 10;
/// A stage is fitted on positions up to this many stages either side of it too:
/// neighbouring stages are alike, and a table has more entries than one stage has
/// positions.
const NEIGHBOURS: usize = 1;
/// The ridge penalty: a configuration seen a few times is pulled towards 0 as if
/// this many more positions had shown it worth nothing.
const RIDGE: f64 = 2.0;

/// One position: its placements' weight indices (symmetric configurations merged)
/// and the final margin for the side to move.
struct Sample {
    indices: Vec<u32>,
    label: f32,
    empties: u32,
    held_out: bool,
}

/// How well one stage was fitted.
#[derive(Clone, Debug, PartialEq)]
pub struct StageFit {
    /// Empty squares of the stage's positions: `first..=last`.
    pub empties: (u32, u32),
    /// Positions fitted on (the stage and its neighbours, held-out games excluded).
    pub train: usize,
    /// Held-out positions of the stage itself.
    pub test: usize,
    /// Root mean square error on the held-out positions, in discs.
    pub rmse: f64,
    /// The same for a constant 0 (how far the margins spread).
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

/// Reads every position of the games in `dirs` (8x8 games under the standard rules).
fn read_samples(dirs: &[PathBuf], merged: &[u32]) -> Result<(Vec<Sample>, usize)> {
    let mut samples = Vec::new();
    let mut games = 0;
    for dir in dirs {
        let run = recorded_run(dir, "fit patterns to")?;
        games_file::check_has_games(&run.games)?;
        if run.size != 8 || run.rules != Rules::default() {
            let what = if run.size == 8 {
                "other rules than the standard ones".to_string()
            } else {
                format!("{}x{}", run.size, run.size)
            };
            return Err(Error::input(format!(
                "{} holds games on {what}: patterns are fitted to 8x8 games under the standard rules",
                dir.display()
            )));
        }
        let mut reader = games_file::csv_reader(&run.games)?;
        for row in reader.deserialize::<GameRow>() {
            let row = row.map_err(|e| games_file::row_error(&run.games, &e))?;
            samples.extend(game_samples(&row, dir, merged)?);
            games += 1;
        }
    }
    Ok((samples, games))
}

fn game_samples(row: &GameRow<'_>, dir: &Path, merged: &[u32]) -> Result<Vec<Sample>> {
    let played = Game::<Size8>::from_transcript(&row.moves).map_err(|e| {
        Error::input(format!(
            "game {} of {} does not replay: move {} {}: its games file is damaged",
            row.game_id,
            dir.display(),
            e.ply,
            e.reason
        ))
    })?;
    let held_out = row.game_id.is_multiple_of(HOLD_OUT_EVERY);
    let mut game = Game::<Size8>::new();
    let mut out = Vec::with_capacity(played.moves().len());
    for &square in played.moves() {
        let board = game.board();
        let margin = match game.side() {
            Color::Black => row.margin,
            Color::White => -row.margin,
        };
        let (player, opponent) = (board.player, board.opponent);
        out.push(Sample {
            indices: instances()
                .iter()
                .map(|i| merged[i.offset + i.index(player, opponent)])
                .collect(),
            label: margin as f32,
            empties: board.empty_count(),
            held_out,
        });
        game.play_unchecked(square);
    }
    Ok(out)
}

/// Fits one stage's table (the merged entries only) on `train` by conjugate
/// gradients on the ridge least-squares problem; returns it in discs.
fn fit_stage(train: &[&Sample], iterations: usize) -> Vec<f32> {
    let len = table_len();
    // The normal matrix times v: the sum over positions of their placements' row
    // times the row's value under v, plus the ridge.
    let times = |v: &[f64], out: &mut [f64]| {
        out.iter_mut().zip(v).for_each(|(o, x)| *o = RIDGE * x);
        for sample in train {
            let value: f64 = sample.indices.iter().map(|&i| v[i as usize]).sum();
            for &i in &sample.indices {
                out[i as usize] += value;
            }
        }
    };
    let mut seen = vec![false; len];
    let mut residual = vec![0f64; len];
    for sample in train {
        for &i in &sample.indices {
            residual[i as usize] += f64::from(sample.label);
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

/// Fits the pattern evaluation to every game of `dirs`, `iterations` passes per stage.
pub fn fit(dirs: &[PathBuf], iterations: usize) -> Result<Fit> {
    let merged = merged_indices();
    let (samples, games) = read_samples(dirs, &merged)?;
    let fitted: Vec<(Vec<f32>, StageFit)> = (0..STAGES)
        .into_par_iter()
        .map(|s| {
            let train: Vec<&Sample> = samples
                .iter()
                .filter(|x| !x.held_out && stage(x.empties).abs_diff(s) <= NEIGHBOURS)
                .collect();
            let merged_weights = fit_stage(&train, iterations);
            let table: Vec<f32> = merged.iter().map(|&m| merged_weights[m as usize]).collect();
            let test: Vec<&Sample> = samples
                .iter()
                .filter(|x| x.held_out && stage(x.empties) == s)
                .collect();
            let (mut error, mut spread) = (0f64, 0f64);
            for x in &test {
                let predicted: f32 = x.indices.iter().map(|&i| table[i as usize]).sum();
                error += f64::from(x.label - predicted).powi(2);
                spread += f64::from(x.label).powi(2);
            }
            let n = test.len().max(1) as f64;
            let first = s as u32 * STAGE_WIDTH;
            let fit = StageFit {
                empties: (first, first + STAGE_WIDTH - 1),
                train: train.len(),
                test: test.len(),
                rmse: (error / n).sqrt(),
                spread: (spread / n).sqrt(),
            };
            (table, fit)
        })
        .collect();
    let (tables, stages): (Vec<Vec<f32>>, Vec<StageFit>) = fitted.into_iter().unzip();
    Ok(Fit {
        weights: Weights::from_discs(&tables),
        stages,
        games,
        positions: samples.len(),
    })
}
