//! `stability`: own stable discs minus the opponent's.

use super::Evaluator;
use crate::board::{stable_discs, Bits, Board, Geometry};

/// Stable-disc difference from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StabilityEval;

impl<G: Geometry> Evaluator<G> for StabilityEval {
    fn evaluate(&self, board: Board<G>) -> i32 {
        let (own, other) = stable_discs(board);
        own.count() as i32 - other.count() as i32
    }
}
