//! `minimum-disc` (evaporation): flip as few discs as possible, maximise them near the end.

use super::{best_by, Context, Strategy};
use crate::board::{Bits, Board, Geometry, Square};

/// Flips the fewest discs; with at most `endgame` empty squares it flips the most instead.
#[derive(Clone, Copy, Debug, Default)]
pub struct MinimumDisc {
    /// Empty squares at or below which the strategy switches to maximising discs (0: never).
    pub endgame: u32,
}

impl<G: Geometry> Strategy<G> for MinimumDisc {
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square {
        let maximise = board.empty_count() <= self.endgame;
        best_by(moves, context.rng, |square| {
            let flips = board.flips(square).count() as i32;
            if maximise {
                flips
            } else {
                -flips
            }
        })
    }
}
