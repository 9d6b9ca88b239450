//! `fit-probcut`: fits Multi-ProbCut's lines. Positions sampled from recorded games
//! are searched at every depth up to the deepest with the pattern evaluation
//! (full width, a cleared table per search), and per stage and depth the deep value
//! is regressed on the shallow one (`strategy::probcut::fit_line`).

use crate::board::{Board, Size8};
use crate::error::Result;
use crate::lab::driver::thread_pool;
use crate::lab::games_file;
use crate::lab::rows::GameRow;
use crate::progress::Progress;
use crate::strategy::pattern::{PatternEval, SCALE};
use crate::strategy::probcut::{self, fit_line, shallow_depth, stage_of, Row};
use crate::strategy::{proven_margin, AlphaBeta, Memory};
use crate::studies::patterns::{positions_before_moves, read_weights, standard_games};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

/// log2 of the searches' table entries.
const TABLE_BITS: u32 = 18;
/// The deepest search accepted.
pub const MAX_DEPTH: u32 = 16;

/// What `fit-probcut` is asked to do.
#[derive(Clone, Debug)]
pub struct ProbCutOptions {
    /// Results folders whose games' positions are sampled (8x8, standard rules).
    pub inputs: Vec<PathBuf>,
    /// The deepest search (lines are fitted for depths `MIN_DEPTH` up to it).
    pub depth: u32,
    /// One position in this many (each position once, in the games' order).
    pub every: usize,
    /// Only positions with `empties.0..=empties.1` empty squares.
    pub empties: (u32, u32),
    /// The evaluation's weights file (None: the shipped weights).
    pub weights: Option<PathBuf>,
    /// Worker threads (None: one per core); the rows do not depend on it.
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct ProbCutFit {
    /// One line per stage and depth with enough pairs.
    pub rows: Vec<Row>,
    /// Positions searched.
    pub positions: usize,
    /// Wall time.
    pub seconds: f64,
}

/// A search of `depth` plies, full width.
fn searcher(depth: u32, eval: PatternEval) -> AlphaBeta<Size8, PatternEval> {
    AlphaBeta {
        depth,
        eval,
        endgame: 0,
        nodes: None,
        time: None,
        probcut: None,
        table: true,
        ordering: true,
        table_bits: TABLE_BITS,
        rules: crate::game::Rules::default(),
        geometry: std::marker::PhantomData,
    }
}

/// The sampled positions: each distinct position once, one in `every`.
fn sample(options: &ProbCutOptions) -> Result<Vec<Board<Size8>>> {
    let (low, high) = options.empties;
    let mut seen = HashSet::new();
    let mut boards = Vec::new();
    for dir in &options.inputs {
        let path = standard_games(dir, "fit-probcut", "positions are sampled from")?;
        let mut reader = games_file::csv_reader(&path)?;
        for row in reader.deserialize::<GameRow>() {
            let row = row.map_err(|e| games_file::row_error(&path, &e))?;
            for (board, _) in positions_before_moves(&row, &path)? {
                if (low..=high).contains(&board.empty_count())
                    && seen.insert((board.player, board.opponent))
                {
                    boards.push(board);
                }
            }
        }
    }
    Ok(boards.into_iter().step_by(options.every.max(1)).collect())
}

/// Fits the lines for `options`.
///
/// # Errors
/// Unreadable or foreign inputs, an unreadable weights file, a bad thread count.
pub fn fit(options: &ProbCutOptions) -> Result<ProbCutFit> {
    let started = Instant::now();
    let eval = match &options.weights {
        Some(path) => PatternEval::with(Box::leak(Box::new(read_weights(path)?))),
        None => PatternEval::for_board::<Size8>().expect("8x8"),
    };
    let boards = sample(options)?;
    let pool = thread_pool(options.threads)?;
    let progress = Progress::new(boards.len() as u64, 0, options.quiet, "positions");
    let depth = options.depth;
    // values[p][d - 1]: position p's value at depth d, None where the search saw the end.
    let values: Vec<Vec<Option<i32>>> = pool.install(|| {
        boards
            .par_iter()
            .map_init(Memory::new, |memory, &board| {
                let found = (1..=depth)
                    .map(|d| {
                        memory.new_game();
                        let (value, _) = searcher(d, eval).search(board, board.moves(), memory);
                        proven_margin(value).is_none().then_some(value)
                    })
                    .collect();
                progress.advance(1);
                found
            })
            .collect()
    });
    progress.finish();
    let mut rows = Vec::new();
    let stages = boards.iter().map(|b| stage_of(b.empty_count())).max();
    for stage in 0..=stages.unwrap_or(0) {
        for d in probcut::MIN_DEPTH..=depth {
            let s = shallow_depth(d);
            let disc = |v: i32| f64::from(v) / f64::from(SCALE);
            let pairs: Vec<(f64, f64)> = (boards.iter().zip(&values))
                .filter(|(b, _)| stage_of(b.empty_count()) == stage)
                .filter_map(|(_, v)| Some((disc(v[s as usize - 1]?), disc(v[d as usize - 1]?))))
                .collect();
            if let Some((slope, intercept, sigma)) = fit_line(&pairs) {
                rows.push(Row {
                    stage,
                    depth: d,
                    shallow: s,
                    pairs: pairs.len() as u32,
                    slope,
                    intercept,
                    sigma,
                });
            }
        }
    }
    Ok(ProbCutFit {
        rows,
        positions: boards.len(),
        seconds: started.elapsed().as_secs_f64(),
    })
}
