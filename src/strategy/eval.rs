//! `eval`: the tunable evaluation, a weighted sum of named features from the side to move's view.

use super::mobility::{frontier, potential_mobility};
use super::{Evaluator, WeightedEval};
use crate::board::{neighbours, stable_discs, Bits, Board, Geometry};
use serde::{Deserialize, Serialize};

/// The feature names, as written in config files and tune parameters.
/// NOTE: keep in step with the fields of [`EvalWeights`] and `EvalWeights::get`/`set`.
pub const FEATURES: [&str; 10] = [
    "discs",
    "mobility",
    "potential_mobility",
    "frontier",
    "corners",
    "x_squares",
    "c_squares",
    "stable",
    "parity",
    "squares",
];

/// One weight per feature. Each feature is own minus opponent's unless said otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalWeights {
    /// Discs.
    pub discs: f64,
    /// Legal moves.
    pub mobility: f64,
    /// Empty squares next to the other side's discs.
    pub potential_mobility: f64,
    /// Discs next to an empty square (a weight below 0 penalises them).
    pub frontier: f64,
    /// Corners held.
    pub corners: f64,
    /// X-squares held next to an empty corner.
    pub x_squares: f64,
    /// C-squares held next to an empty corner.
    pub c_squares: f64,
    /// Stable discs.
    pub stable: f64,
    /// +1 when the number of empties is odd (the side to move would get the last move), else -1.
    pub parity: f64,
    /// The square-weight sum (the `weighted` evaluation with the chosen table).
    pub squares: f64,
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            discs: 0.0,
            mobility: 8.0,
            potential_mobility: 2.0,
            frontier: -3.0,
            corners: 30.0,
            x_squares: -15.0,
            c_squares: -6.0,
            stable: 6.0,
            parity: 2.0,
            squares: 0.0,
        }
    }
}

impl EvalWeights {
    /// The weight of a feature by name.
    #[must_use]
    pub fn get(&self, feature: &str) -> Option<f64> {
        self.as_array()
            .iter()
            .zip(FEATURES)
            .find(|(_, name)| *name == feature)
            .map(|(w, _)| *w)
    }

    /// Sets the weight of a feature by name; false if there is no such feature.
    pub fn set(&mut self, feature: &str, value: f64) -> bool {
        let slot = match feature {
            "discs" => &mut self.discs,
            "mobility" => &mut self.mobility,
            "potential_mobility" => &mut self.potential_mobility,
            "frontier" => &mut self.frontier,
            "corners" => &mut self.corners,
            "x_squares" => &mut self.x_squares,
            "c_squares" => &mut self.c_squares,
            "stable" => &mut self.stable,
            "parity" => &mut self.parity,
            "squares" => &mut self.squares,
            _ => return false,
        };
        *slot = value;
        true
    }

    /// The weights in [`FEATURES`] order.
    #[must_use]
    pub fn as_array(&self) -> [f64; 10] {
        [
            self.discs,
            self.mobility,
            self.potential_mobility,
            self.frontier,
            self.corners,
            self.x_squares,
            self.c_squares,
            self.stable,
            self.parity,
            self.squares,
        ]
    }
}

/// The feature evaluation. Values are in hundredths of a weight unit, rounded.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureEval {
    /// The feature weights.
    pub weights: EvalWeights,
    /// The square table for the `squares` feature.
    pub squares: WeightedEval,
}

/// The features of `board` from `board.player`'s point of view, in [`FEATURES`]
/// order; features whose weight is zero are skipped (left 0) to save time.
#[must_use]
pub fn features<G: Geometry>(
    board: Board<G>,
    weights: &EvalWeights,
    squares: &WeightedEval,
) -> [i32; 10] {
    let w = weights.as_array();
    let mut f = [0i32; 10];
    let diff = |a: G::Bits, b: G::Bits| a.count() as i32 - b.count() as i32;
    let other = board.pass();
    if w[0] != 0.0 {
        f[0] = diff(board.player, board.opponent);
    }
    if w[1] != 0.0 {
        f[1] = diff(board.moves(), other.moves());
    }
    if w[2] != 0.0 {
        f[2] = potential_mobility(board) as i32 - potential_mobility(other) as i32;
    }
    if w[3] != 0.0 {
        f[3] = frontier(board) as i32 - frontier(other) as i32;
    }
    if w[4] != 0.0 {
        f[4] = diff(board.player & G::CORNERS, board.opponent & G::CORNERS);
    }
    if w[5] != 0.0 || w[6] != 0.0 {
        let near_empty_corner = neighbours::<G>(G::CORNERS & board.empty());
        let x = near_empty_corner & !G::EDGES;
        let c = near_empty_corner & G::EDGES & !G::CORNERS;
        f[5] = diff(board.player & x, board.opponent & x);
        f[6] = diff(board.player & c, board.opponent & c);
    }
    if w[7] != 0.0 {
        let (own, theirs) = stable_discs(board);
        f[7] = diff(own, theirs);
    }
    if w[8] != 0.0 {
        f[8] = if board.empty_count() % 2 == 1 { 1 } else { -1 };
    }
    if w[9] != 0.0 {
        f[9] = squares.sum::<G>(board.player) - squares.sum::<G>(board.opponent);
    }
    f
}

impl<G: Geometry> Evaluator<G> for FeatureEval {
    fn evaluate(&self, board: Board<G>) -> i32 {
        let f = features(board, &self.weights, &self.squares);
        let total: f64 = f
            .iter()
            .zip(self.weights.as_array())
            .map(|(&x, w)| f64::from(x) * w)
            .sum();
        let limit = f64::from(super::EVAL_LIMIT);
        (total * 100.0).round().clamp(-limit, limit) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Size8, Square};

    #[test]
    fn names_match_fields() {
        let mut w = EvalWeights::default();
        for (i, name) in FEATURES.iter().enumerate() {
            assert!(w.set(name, 100.0 + i as f64));
            assert_eq!(w.get(name), Some(100.0 + i as f64));
        }
        assert!(!w.set("mobilty", 1.0));
    }

    #[test]
    fn features_by_hand() {
        let bit = |n: &str| 1u64 << Square::parse(n, 8).unwrap().index();
        // Black (to move): a1 corner, b7 (X-square of empty a8), e4. White: d4, d5, b1 (C-square of a1, but a1 is taken).
        let black = bit("a1") | bit("b7") | bit("e4");
        let white = bit("d4") | bit("d5") | bit("b1");
        let p = Position::<Size8>::from_colors(black, white, crate::board::Color::Black);
        let all = EvalWeights {
            discs: 1.0,
            mobility: 1.0,
            potential_mobility: 1.0,
            frontier: 1.0,
            corners: 1.0,
            x_squares: 1.0,
            c_squares: 1.0,
            stable: 1.0,
            parity: 1.0,
            squares: 1.0,
        };
        let table = WeightedEval::new(vec![0; 64], false);
        let f = features(p.board, &all, &table);
        assert_eq!(f[0], 0, "3 discs each");
        assert_eq!(f[4], 1, "black holds a corner");
        assert_eq!(f[5], 1, "b7 is an X-square next to empty a8");
        assert_eq!(f[6], 0, "b1 is next to a1, which is taken");
        assert_eq!(f[7], 1, "a1 is stable");
        assert_eq!(
            f[8], -1,
            "58 empties: even, the opponent gets the last move"
        );
    }
}
