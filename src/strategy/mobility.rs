//! `mobility`: own legal moves minus the opponent's, with optional potential-mobility and frontier terms.

use super::kind::Kind;
use super::kind::{one_ply, Evaluation};
use super::param_info::{params, ParamInfo};
use super::spec::typed;
use super::Evaluator;
use super::SpecError;
use super::Strategy;
use crate::board::{neighbours, Bits, Board, Geometry};
use crate::game::Rules;

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

impl Kind for MobilitySpec {
    const NAME: &'static str = "mobility";
    const HELP: &'static str = "maximise own legal moves minus the opponent's after the move";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        one_ply(self)
    }
}

impl Evaluation for MobilitySpec {
    fn value_scale(&self) -> crate::strategy::scale::Scale {
        crate::strategy::scale::Scale::points("mobility points", "mobility points, not discs")
    }

    fn evaluator<G: Geometry>(&self) -> Result<impl Evaluator<G> + 'static, SpecError> {
        Ok(MobilityEval {
            normalised: self.normalised,
            potential: self.potential,
            frontier: self.frontier,
        })
    }
}

/// Mobility evaluation from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MobilityEval {
    /// Use `100 * (a - b) / (a + b)` instead of `a - b`.
    pub normalised: bool,
    /// Weight of potential mobility (empty squares next to opponent discs), own minus opponent's.
    pub potential: i32,
    /// Penalty per frontier disc (a disc next to an empty square), own minus opponent's.
    pub frontier: i32,
}

/// Empty squares next to the opponent's discs: where the player may one day move.
#[inline]
#[must_use]
pub fn potential_mobility<G: Geometry>(board: Board<G>) -> u32 {
    (neighbours::<G>(board.opponent) & board.empty()).count()
}

/// The player's discs next to an empty square.
#[inline]
#[must_use]
pub fn frontier<G: Geometry>(board: Board<G>) -> u32 {
    (neighbours::<G>(board.empty()) & board.player).count()
}

impl<G: Geometry> Evaluator<G> for MobilityEval {
    fn evaluate(&self, board: Board<G>) -> i32 {
        let own = board.moves().count() as i32;
        let other = board.pass().moves().count() as i32;
        let mut value = if self.normalised {
            if own + other == 0 {
                0
            } else {
                100 * (own - other) / (own + other)
            }
        } else {
            own - other
        };
        if self.potential != 0 {
            let diff = potential_mobility(board) as i32 - potential_mobility(board.pass()) as i32;
            value += self.potential * diff;
        }
        if self.frontier != 0 {
            let diff = frontier(board) as i32 - frontier(board.pass()) as i32;
            value -= self.frontier * diff;
        }
        value
    }
}
