//! The error of pattern weights on a fixed set of labelled positions: per stage of 4
//! empties and per kind of label (exact solves, deep searches), the mean absolute and
//! root mean square difference between each weights' estimate and the label.

use crate::error::{Error, Result};
use crate::lab::positions::{Label, Reader};
use crate::strategy::pattern::{stage, Weights, SCALE, STAGE_WIDTH};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Weights under a name, to measure.
pub struct Named<'w> {
    /// What the rows call them (a file's path, `shipped`, `ordering`).
    pub name: String,
    /// The weights.
    pub weights: &'w Weights,
}

/// One row of the errors CSV: one set of weights on the positions of one stage and one
/// kind of label.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageError {
    /// The weights' name.
    pub weights: String,
    /// The stage's fewest empty squares.
    pub empties_from: u32,
    /// Its most.
    pub empties_to: u32,
    /// `exact` (a solve) or `search` (a search of `depth` plies).
    pub label: &'static str,
    /// The depth of the searches (the deepest, if they differ); 0 for exact labels.
    pub depth: u8,
    /// Positions measured.
    pub positions: usize,
    /// Mean absolute error, in discs.
    pub mae: f64,
    /// Root mean square error, in discs.
    pub rmse: f64,
    /// Mean of estimate minus label, in discs (positive: the weights are optimistic).
    pub bias: f64,
}

#[derive(Default)]
struct Sums {
    positions: usize,
    depth: u8,
    absolute: f64,
    square: f64,
    signed: f64,
}

/// Each set of weights' error on every record of `files`, rows ordered by weights,
/// stage and label (exact first).
pub fn stage_errors(files: &[PathBuf], weights: &[Named<'_>]) -> Result<Vec<StageError>> {
    // (weights, stage, searched) -> sums
    let mut sums: BTreeMap<(usize, usize, bool), Sums> = BTreeMap::new();
    let mut records = 0u64;
    for path in files {
        for record in Reader::open(path)? {
            let record = record?;
            records += 1;
            let (searched, depth) = match record.label {
                Label::Exact => (false, 0),
                Label::Search { depth } => (true, depth),
            };
            let key_stage = stage(record.empties());
            for (w, named) in weights.iter().enumerate() {
                let estimate = named.weights.evaluate(record.player, record.opponent);
                let e = f64::from(estimate - i32::from(record.value)) / f64::from(SCALE);
                let s = sums.entry((w, key_stage, searched)).or_default();
                s.positions += 1;
                s.depth = s.depth.max(depth);
                s.absolute += e.abs();
                s.square += e * e;
                s.signed += e;
            }
        }
    }
    if records == 0 {
        return Err(Error::input(
            "the positions files hold no positions: label some games first (`reversi-lab label`)",
        ));
    }
    Ok(sums
        .into_iter()
        .map(|((w, st, searched), s)| {
            let n = s.positions as f64;
            StageError {
                weights: weights[w].name.clone(),
                empties_from: st as u32 * STAGE_WIDTH,
                empties_to: (st as u32 + 1) * STAGE_WIDTH - 1,
                label: if searched { "search" } else { "exact" },
                depth: s.depth,
                positions: s.positions,
                mae: s.absolute / n,
                rmse: (s.square / n).sqrt(),
                bias: s.signed / n,
            }
        })
        .collect())
}
