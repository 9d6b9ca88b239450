//! The `alphabeta` kind: its parameters with their ranges and checks, and the search it
//! builds over whichever evaluation its `eval` names.

use super::AlphaBeta;
use crate::board::Geometry;
use crate::game::Rules;
use crate::strategy::kind::{take_nested, Depth, Kind, WithEvaluator};
use crate::strategy::param_info::{params, ParamInfo};
use crate::strategy::spec::{
    typed, StrategySpec, WeightedSpec, DEPTHS, MAX_MOVE_TIME, MAX_SOLVE_EMPTIES,
    MAX_UNBUDGETED_DEPTH, TABLE_BITS,
};
use crate::strategy::{Evaluator, SpecError, Strategy};
use std::time::Duration;

params! {
    /// Parameters of `alphabeta`.
    pub struct AlphaBetaSpec {
        // 4, or 60 when `time` is given and `depth` is not: set by the parser, which
        // knows whether `depth` was written.
        depth: u32 = 4, range DEPTHS => "plies to search (passes do not count)",
        // A strategy of its own, read by `take_nested` as `parity`'s base is.
        #[serde(skip_deserializing)]
        eval: Box<StrategySpec> = Box::new(WeightedSpec::default().into())
            => "the evaluation: weighted, mobility, stability, pattern, eval, python or greedy (disc count), as a table or spec",
        endgame: u32 = 0 => "solve exactly when at most this many squares are empty (0: never)",
        #[serde(skip_serializing_if = "Option::is_none")]
        nodes: Option<u64> = None, range NODES
            => "node budget per move: stop deepening once it is spent" (default "none"),
        #[serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "crate::strategy::clock::time_text",
            deserialize_with = "crate::strategy::clock::time_of_text"
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
        table_bits: u32 = 14, range TABLE_BITS => "log2 of the transposition table's entries (10 to 26)",
    }
}

/// The node budgets accepted.
const NODES: std::ops::RangeInclusive<u64> = 1..=i64::MAX as u64;

impl AlphaBetaSpec {
    /// The most standard deviations `probcut` accepts: past it hardly anything is cut.
    pub const MAX_PROBCUT: f64 = 4.0;

    /// Multi-ProbCut's confidence, if it is on.
    #[must_use]
    pub fn probcut_confidence(&self) -> Option<f32> {
        (self.probcut > 0.0).then_some(self.probcut as f32)
    }

    /// The search over the evaluation `eval`.
    pub fn search<G: Geometry, E: Evaluator<G>>(&self, eval: E, rules: Rules) -> AlphaBeta<G, E> {
        AlphaBeta {
            depth: self.depth,
            eval,
            endgame: self.endgame,
            nodes: self.nodes,
            time: self.time,
            probcut: self.probcut_confidence(),
            table: self.table,
            ordering: self.ordering,
            table_bits: self.table_bits,
            rules,
            geometry: std::marker::PhantomData,
        }
    }

    /// Whether a node or time budget bounds each move (a clock may too).
    fn budgeted(&self, clocked: bool) -> bool {
        clocked || self.time.is_some()
    }
}

/// The search over an evaluation once its concrete type is known.
struct SearchOver<'a> {
    spec: &'a AlphaBetaSpec,
    rules: Rules,
}

impl<G: Geometry> WithEvaluator<G> for SearchOver<'_> {
    type Output = Box<dyn Strategy<G>>;
    fn with<E: Evaluator<G> + 'static>(self, eval: E) -> Self::Output {
        Box::new(self.spec.search(eval, self.rules))
    }
}

impl Kind for AlphaBetaSpec {
    const NAME: &'static str = "alphabeta";
    const HELP: &'static str = "negamax alpha-beta search over an evaluation, with iterative deepening, ordering and a table";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;
    const SEARCHES: bool = true;

    fn read(mut params: toml::Table) -> Result<Self, SpecError> {
        let kind = Self::NAME;
        let eval = take_nested(&mut params, kind, "eval", *Self::default().eval, true)?;
        let depth_given = params.contains_key("depth");
        // Said before the range (at least 1) that `typed` checks: 0 is a budget of nothing.
        if params.get("nodes").and_then(toml::Value::as_integer) == Some(0) {
            return Err(SpecError::NoNodes);
        }
        let mut spec: AlphaBetaSpec = typed(kind, params)?;
        spec.eval = Box::new(eval);
        // With a time budget the search deepens until the time is spent.
        if spec.time.is_some() && !depth_given {
            spec.depth = *DEPTHS.end();
        }
        if !(0.0..=Self::MAX_PROBCUT).contains(&spec.probcut) {
            return Err(SpecError::ProbCutRange {
                value: spec.probcut,
            });
        }
        if spec.probcut > 0.0 && !matches!(*spec.eval, StrategySpec::Pattern(_)) {
            return Err(SpecError::ProbCutEval {
                eval: spec.eval.kind(),
            });
        }
        Ok(spec)
    }

    fn scale(&self) -> Option<crate::strategy::scale::Scale> {
        let eval = self
            .eval
            .evaluation_scale()
            .unwrap_or(crate::strategy::scale::Scale::points(
                "points",
                "the strategy's own units, not discs",
            ));
        // A timed search solves no deeper than a solve may start (see
        // `AlphaBeta::move_values`).
        let exact_from = if self.time.is_some() {
            self.endgame.min(MAX_SOLVE_EMPTIES)
        } else {
            self.endgame
        };
        Some(eval.exact_from(exact_from))
    }

    fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        self.eval
            .with_evaluator::<G, _>(SearchOver { spec: self, rules })
    }

    fn nested(&self) -> Vec<&StrategySpec> {
        vec![&self.eval]
    }

    fn nested_mut(&mut self) -> Vec<&mut StrategySpec> {
        vec![&mut self.eval]
    }

    fn timed(&self) -> bool {
        self.time.is_some()
    }

    fn check_practical(&self, empties: u32, clocked: bool) -> Result<(), SpecError> {
        if self.endgame > MAX_SOLVE_EMPTIES
            && empties > MAX_SOLVE_EMPTIES
            && !self.budgeted(clocked)
        {
            return Err(SpecError::Impractical(format!(
                "strategy 'alphabeta': endgame = {} would solve positions with up to {} empty squares exactly, which can take hours: use endgame = {MAX_SOLVE_EMPTIES} or less",
                self.endgame, self.endgame
            )));
        }
        if let Some(time) = self.time.filter(|&t| t > MAX_MOVE_TIME && !clocked) {
            return Err(SpecError::Impractical(format!(
                "strategy 'alphabeta': time = {} a move makes a game of about 30 moves a side take hours: use time = {} or less, or play it on a clock (move_time or clock)",
                humantime::format_duration(time),
                humantime::format_duration(MAX_MOVE_TIME)
            )));
        }
        if self.depth > MAX_UNBUDGETED_DEPTH && self.nodes.is_none() && !self.budgeted(clocked) {
            return Err(SpecError::Impractical(format!(
                "strategy 'alphabeta': depth = {} with no node budget can take hours per move: use depth {MAX_UNBUDGETED_DEPTH} or less, or bound each move with nodes = N (such as nodes=1000000) or time = T (such as time=1s), or play it on a clock (move_time)",
                self.depth
            )));
        }
        Ok(())
    }

    fn exact_from(&self) -> u32 {
        self.endgame
    }

    fn depth(&self) -> Option<Depth> {
        let budgeted = self.nodes.is_some() || self.time.is_some();
        Some(Depth {
            now: self.depth,
            most: if budgeted {
                *DEPTHS.end()
            } else {
                MAX_UNBUDGETED_DEPTH
            },
            budgeted,
        })
    }

    fn set_depth(&mut self, depth: u32) {
        self.depth = depth;
    }
}

/// Whether a number parameter is at its default of 0 (off).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(value: &f64) -> bool {
    *value == 0.0
}
