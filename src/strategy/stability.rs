//! `stability`: own stable discs minus the opponent's.

use super::kind::Kind;
use super::kind::{one_ply, Evaluation};
use super::param_info::{params, ParamInfo};
use super::spec::typed;
use super::Evaluator;
use super::SpecError;
use super::Strategy;
use crate::board::{stable_discs, Bits, Board, Geometry};
use crate::game::Rules;

params! {
    /// Parameters of `stability`: none.
    pub struct StabilitySpec {}
}

impl Kind for StabilitySpec {
    const NAME: &'static str = "stability";
    const HELP: &'static str = "maximise own stable discs minus the opponent's after the move";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        one_ply(self)
    }
}

impl Evaluation for StabilitySpec {
    fn value_scale(&self) -> crate::strategy::scale::Scale {
        crate::strategy::scale::Scale::discs(
            "stable discs",
            "stable discs, own minus the opponent's",
        )
    }

    fn evaluator<G: Geometry>(&self) -> Result<impl Evaluator<G> + 'static, SpecError> {
        Ok(StabilityEval)
    }
}

/// Stable-disc difference from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StabilityEval;

impl<G: Geometry> Evaluator<G> for StabilityEval {
    fn evaluate(&self, board: Board<G>) -> i32 {
        let (own, other) = stable_discs(board);
        own.count() as i32 - other.count() as i32
    }
}
