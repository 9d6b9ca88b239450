//! `minimum-disc` (evaporation): flip as few discs as possible, maximise them near the end.

use super::kind::Kind;
use super::param_info::{params, ParamInfo};
use super::spec::typed;
use super::SpecError;
use super::{best_valued_by, Context, Picked, Strategy};
use crate::board::{squares, Bits, Board, Geometry, Square};
use crate::game::Rules;

params! {
    /// Parameters of `minimum-disc`.
    pub struct MinimumDiscSpec {
        endgame: u32 = 0
            => "maximise discs instead when at most this many squares are empty (0: never)",
    }
}

impl Kind for MinimumDiscSpec {
    const NAME: &'static str = "minimum-disc";
    const HELP: &'static str = "evaporation: the move that flips the fewest discs";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn scale(&self) -> Option<crate::strategy::scale::Scale> {
        Some(crate::strategy::scale::Scale::discs(
            "discs",
            "discs (fewer flipped is better)",
        ))
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(MinimumDisc {
            endgame: self.endgame,
        }))
    }
}

/// Flips the fewest discs; with at most `endgame` empty squares it flips the most instead.
#[derive(Clone, Copy, Debug, Default)]
pub struct MinimumDisc {
    /// Empty squares at or below which the strategy switches to maximising discs (0: never).
    pub endgame: u32,
}

impl MinimumDisc {
    /// How much the strategy likes `square`: fewer flips, or more in the endgame.
    fn value<G: Geometry>(self, board: Board<G>, square: Square) -> i32 {
        let flips = board.flips(square).count() as i32;
        if board.empty_count() <= self.endgame {
            flips
        } else {
            -flips
        }
    }
}

impl<G: Geometry> Strategy<G> for MinimumDisc {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        Ok(best_valued_by(moves, context.rng, |square| {
            self.value(board, square)
        }))
    }

    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        _: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        Some(squares(moves).map(|s| (s, self.value(board, s))).collect())
    }
}
