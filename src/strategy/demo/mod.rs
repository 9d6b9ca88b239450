//! `first-legal` (tests only): the demonstration that a new strategy kind is this
//! folder and its one line in `registry.rs`. It plays the nth legal move in square
//! order; `nth` shows a parameter declared with its range.

use crate::board::{squares, Board, Geometry};
use crate::game::Rules;
use crate::strategy::kind::Kind;
use crate::strategy::param_info::{params, ParamInfo};
use crate::strategy::spec::typed;
use crate::strategy::{Context, Pick, Picked, SpecError, Strategy};

params! {
    /// Parameters of `first-legal`.
    pub struct FirstLegalSpec {
        nth: u32 = 1, range 1..=4 => "which legal move in square order (the last when there are fewer)",
    }
}

impl Kind for FirstLegalSpec {
    const NAME: &'static str = "first-legal";
    const HELP: &'static str = "the nth legal move in square order (a demonstration)";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(FirstLegal { nth: self.nth }))
    }
}

/// Plays the nth legal move in square order.
struct FirstLegal {
    nth: u32,
}

impl<G: Geometry> Strategy<G> for FirstLegal {
    fn pick(&self, _board: Board<G>, moves: G::Bits, _: &mut Context<'_, G>) -> Picked {
        let nth = self.nth as usize - 1;
        let square = squares(moves)
            .take(nth + 1)
            .last()
            .expect("a strategy is asked only when it has a move");
        Ok(Pick::of(square))
    }
}

#[cfg(test)]
mod tests;
