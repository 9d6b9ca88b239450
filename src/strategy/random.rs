//! `random`: a uniformly random legal move.

use super::kind::Kind;
use super::param_info::{params, ParamInfo};
use super::spec::typed;
use super::SpecError;
use super::{random_square, Context, Pick, Picked, Strategy};
use crate::board::{Board, Geometry};
use crate::game::Rules;

params! {
    /// Parameters of `random`: none.
    pub struct RandomSpec {}
}

impl Kind for RandomSpec {
    const NAME: &'static str = "random";
    const HELP: &'static str = "a uniformly random legal move";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(RandomMove))
    }
}

/// Plays a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomMove;

impl<G: Geometry> Strategy<G> for RandomMove {
    fn pick(&self, _board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        Ok(Pick::of(random_square(moves, context.rng)))
    }

    fn uniform_random(&self) -> bool {
        true
    }
}
