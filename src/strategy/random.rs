//! `random`: a uniformly random legal move.

use super::{random_square, Context, Strategy};
use crate::board::{Board, Geometry, Square};

/// Plays a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomMove;

impl<G: Geometry> Strategy<G> for RandomMove {
    fn choose(&self, _board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square {
        random_square(moves, context.rng)
    }

    fn uniform_random(&self) -> bool {
        true
    }
}
