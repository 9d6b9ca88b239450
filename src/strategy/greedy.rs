//! `greedy`: the move that flips the most discs (and the disc-count evaluation).

use super::kind::Evaluation;
use super::kind::Kind;
use super::param_info::{params, ParamInfo};
use super::spec::typed;
use super::SpecError;
use super::{best_valued_by, Context, Evaluator, Picked, Strategy};
use crate::board::{squares, Bits, Board, Geometry, Square};
use crate::game::Rules;

params! {
    /// Parameters of `greedy`: none.
    pub struct GreedySpec {}
}

impl Kind for GreedySpec {
    const NAME: &'static str = "greedy";
    const HELP: &'static str = "the move that flips the most discs";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn scale(&self) -> Option<crate::strategy::scale::Scale> {
        Some(crate::strategy::scale::Scale::discs(
            "discs flipped",
            "discs flipped",
        ))
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        // As a player it has its own rule; as an evaluation it is the disc count.
        Ok(Box::new(Greedy))
    }
}

impl Evaluation for GreedySpec {
    fn value_scale(&self) -> crate::strategy::scale::Scale {
        crate::strategy::scale::Scale::discs("discs", "discs, own minus the opponent's")
    }

    fn evaluator<G: Geometry>(&self) -> Result<impl Evaluator<G> + 'static, SpecError> {
        Ok(DiscEval)
    }
}

/// Flips the most discs; ties at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl<G: Geometry> Strategy<G> for Greedy {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        Ok(best_valued_by(moves, context.rng, |square| {
            board.flips(square).count() as i32
        }))
    }

    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        _: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        let flips = |square| board.flips(square).count() as i32;
        Some(squares(moves).map(|s| (s, flips(s))).collect())
    }
}

/// Own discs minus the opponent's: the evaluation `greedy` stands for in a search.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiscEval;

impl<G: Geometry> Evaluator<G> for DiscEval {
    #[inline]
    fn evaluate(&self, board: Board<G>) -> i32 {
        board.player_count() as i32 - board.opponent_count() as i32
    }

    fn square_weights(&self) -> Option<&[i32]> {
        Some(&ONES[..G::CELLS as usize])
    }

    #[inline]
    fn weight_sum(&self, squares: G::Bits) -> i32 {
        squares.count() as i32
    }
}

/// The disc count as square weights: every square weighs one (10x10 at most).
static ONES: [i32; 100] = [1; 100];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size10, Size8};

    #[test]
    fn disc_weight_sum_is_the_disc_count() {
        let set = 0b1011_0000_0110_u64 | 1 << 63;
        assert_eq!(Evaluator::<Size8>::weight_sum(&DiscEval, set), 6);
        let wide = 1u128 << 99 | 1 << 64 | 7;
        assert_eq!(Evaluator::<Size10>::weight_sum(&DiscEval, wide), 5);
    }
}
