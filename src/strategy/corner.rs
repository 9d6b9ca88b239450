//! `corner-first` and `corner-edge`: take a corner (or an edge) when one is legal, else play greedily.

use super::kind::Kind;
use super::param_info::{params, ParamInfo};
use super::spec::typed;
use super::SpecError;
use super::{random_square, Context, Greedy, Pick, Picked, Strategy};
use crate::board::{Bits, Board, Geometry};
use crate::game::Rules;

params! {
    /// Parameters of `corner-first`: none.
    pub struct CornerFirstSpec {}
}

params! {
    /// Parameters of `corner-edge`: none.
    pub struct CornerEdgeSpec {}
}

impl Kind for CornerFirstSpec {
    const NAME: &'static str = "corner-first";
    const HELP: &'static str = "a corner if one is legal (random among them), otherwise greedy";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(CornerFirst))
    }
}

impl Kind for CornerEdgeSpec {
    const NAME: &'static str = "corner-edge";
    const HELP: &'static str = "a corner, else an edge move (random among them), else greedy";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(CornerEdge))
    }
}

/// A corner if one is legal (random among them), otherwise `greedy`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CornerFirst;

impl<G: Geometry> Strategy<G> for CornerFirst {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let corners = moves & G::CORNERS;
        if corners.is_empty() {
            Greedy.pick(board, moves, context)
        } else {
            Ok(Pick::of(random_square(corners, context.rng)))
        }
    }
}

/// A corner, else any edge move (random among them), else `greedy`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CornerEdge;

impl<G: Geometry> Strategy<G> for CornerEdge {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let corners = moves & G::CORNERS;
        let edges = moves & G::EDGES;
        if !corners.is_empty() {
            Ok(Pick::of(random_square(corners, context.rng)))
        } else if !edges.is_empty() {
            Ok(Pick::of(random_square(edges, context.rng)))
        } else {
            Greedy.pick(board, moves, context)
        }
    }
}
