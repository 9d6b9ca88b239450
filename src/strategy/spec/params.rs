//! The parameters of the kinds that have their own, each written once (with
//! `params!`): its field, type, default and help, from which come the struct the
//! parser fills, its TOML form and the listing's entries.

use super::{StrategySpec, WeightedSpec};
use crate::strategy::param_info::params;
use serde::Deserialize;
use std::time::Duration;

params! {
    /// Parameters of `minimum-disc`.
    pub struct MinimumDiscSpec {
        endgame: u32 = 0
            => "maximise discs instead when at most this many squares are empty (0: never)",
    }
}

params! {
    /// Parameters of `mobility`.
    pub struct MobilitySpec {
        normalised: bool = false => "use 100*(a-b)/(a+b) instead of a-b",
        potential: i32 = 0
            => "weight of potential mobility (empties next to opponent discs), own minus opponent's",
        frontier: i32 = 0
            => "penalty per frontier disc (next to an empty square), own minus opponent's",
    }
}

params! {
    /// Parameters of `parity`.
    pub struct ParitySpec {
        endgame: u32 = 14 => "empties at or below which parity applies",
        // A strategy of its own: read by `StrategySpec::from_value`, whose errors say
        // they are the base's.
        #[serde(skip_deserializing)]
        base: Box<StrategySpec> = Box::new(StrategySpec::Greedy)
            => "the strategy that chooses among the candidates (and alone before the endgame)",
    }
}

params! {
    /// Parameters of `alphabeta`.
    pub struct AlphaBetaSpec {
        // 4, or 60 when `time` is given and `depth` is not: set by the parser, which
        // knows whether `depth` was written.
        depth: u32 = 4 => "plies to search (passes do not count)",
        // A strategy of its own, read as `parity`'s base is.
        #[serde(skip_deserializing)]
        eval: Box<StrategySpec> = Box::new(StrategySpec::Weighted(WeightedSpec::default()))
            => "the evaluation: weighted, mobility, stability, pattern, eval or greedy (disc count), as a table or spec",
        endgame: u32 = 0 => "solve exactly when at most this many squares are empty (0: never)",
        #[serde(skip_serializing_if = "Option::is_none")]
        nodes: Option<u64> = None
            => "node budget per move: stop deepening once it is spent" (default "none"),
        #[serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "time_text",
            deserialize_with = "time_of_text"
        )]
        time: Option<Duration> = None
            => "time budget per move (\"100ms\", \"2s\"): deepen until it is spent; depth then defaults to 60" (default "none"),
        // Left out when off, so that a spec written before it existed reads the same.
        #[serde(skip_serializing_if = "is_zero")]
        probcut: f64 = 0.0
            => "Multi-ProbCut: cut where a shallow search is this many standard deviations outside the window (eval=pattern only; 1.5 is usual)" (default "0: off"),
        table: bool = true
            => "use a transposition table (and iterative deepening from depth 6, or with nodes or time)",
        ordering: bool = true
            => "order moves: table move, killers, then fewest opponent replies (corners first)",
        table_bits: u32 = 14 => "log2 of the transposition table's entries (10 to 26)",
    }
}

impl AlphaBetaSpec {
    /// The most standard deviations `probcut` accepts: past it hardly anything is cut.
    pub const MAX_PROBCUT: f64 = 4.0;

    /// Multi-ProbCut's confidence, if it is on.
    #[must_use]
    pub fn probcut_confidence(&self) -> Option<f32> {
        (self.probcut > 0.0).then_some(self.probcut as f32)
    }
}

params! {
    /// Parameters of `pattern`.
    pub struct PatternSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        weights: Option<std::path::PathBuf> = None
            => "a weights file fit-patterns wrote (from the working folder; in a config file, from its folder)" (default "the shipped weights"),
    }
}

params! {
    /// Parameters of `solver`.
    pub struct SolverSpec {
        table_bits: u32 = 20 => "log2 of the transposition table's entries (10 to 26)",
    }
}

/// Whether a number parameter is at its default of 0 (off).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

/// A time budget as a spec writes it (`100ms`).
fn time_text<S: serde::Serializer>(time: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
    match time {
        Some(d) => s.serialize_str(&humantime::format_duration(*d).to_string()),
        None => s.serialize_none(),
    }
}

/// A time budget from its text; the refusal is worded in full here, and the
/// parser's `readable` passes it on as it is.
fn time_of_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    let text = String::deserialize(d)?;
    match crate::strategy::clock::parse_time(&text) {
        Some(d) if d > Duration::ZERO => Ok(Some(d)),
        _ => Err(serde::de::Error::custom(format!(
            "time = {text} is not a time: write it like time=100ms or time=2s"
        ))),
    }
}
