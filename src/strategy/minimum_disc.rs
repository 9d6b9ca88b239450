//! `minimum-disc` (evaporation): flip as few discs as possible, maximise them near the end.

use super::{best_by, Context, Strategy};
use crate::board::{squares, Bits, Board, Geometry, Square};

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
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square {
        best_by(moves, context.rng, |square| self.value(board, square))
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
