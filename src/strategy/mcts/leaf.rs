//! What a leaf is worth: a playout to the end of the game (uniformly random on the fast
//! path, or by any strategy with a share of random moves), an evaluation mapped to an
//! expected result, or the mean of both.

use crate::board::{Bits, Board, Geometry, Square};
use crate::strategy::{draw_below, random_square, Context, Evaluator, Strategy};

/// How a playout chooses its moves.
pub enum Rollout<G: Geometry> {
    /// Uniformly at random: the game's own draw, inlined.
    Random,
    /// By a strategy, with a random move instead at the rate `epsilon`.
    Policy {
        /// The strategy.
        policy: Box<dyn Strategy<G>>,
        /// The share of random moves.
        epsilon: f64,
    },
}

/// How leaves are valued.
pub struct Leaf<G: Geometry> {
    /// The playout, if any.
    pub rollout: Option<Rollout<G>>,
    /// The evaluation, if any.
    pub value: Option<Box<dyn Evaluator<G>>>,
    /// The evaluation difference that is one logistic unit.
    pub scale: f64,
}

/// The end of a playout: the final board (relative to the side to move at its end) and
/// whether that side is the one to move at the leaf.
pub struct Ending<G: Geometry> {
    /// The finished board.
    pub board: Board<G>,
    /// Whether `board.player` is the leaf's side to move.
    pub same_side: bool,
    /// Every square played in the playout, by the leaf's side to move and the other.
    pub played: [G::Bits; 2],
}

impl<G: Geometry> Rollout<G> {
    /// Plays `board` out to the end of the game.
    pub fn play_out(&self, mut board: Board<G>, context: &mut Context<'_, G>) -> Ending<G> {
        let mut same_side = true;
        let mut played = [G::Bits::ZERO; 2];
        loop {
            let mut moves = board.moves();
            if moves.is_empty() {
                board = board.pass();
                same_side = !same_side;
                moves = board.moves();
                if moves.is_empty() {
                    return Ending {
                        board,
                        same_side,
                        played,
                    };
                }
            }
            let square = match self {
                Rollout::Random => Square::new(moves.nth(draw_below(moves.count(), context.rng))),
                Rollout::Policy { policy, epsilon } => {
                    if *epsilon > 0.0 && unit(context) < *epsilon {
                        random_square(moves, context.rng)
                    } else {
                        // A policy that faults (an engine) plays at random instead.
                        match policy.choose(board, moves, context) {
                            Ok(choice) => choice.square,
                            Err(_) => random_square(moves, context.rng),
                        }
                    }
                }
            };
            played[usize::from(!same_side)] |= G::Bits::bit(square.index());
            board = board.play(square);
            same_side = !same_side;
        }
    }
}

/// A uniform draw from [0, 1) from the game's generator.
fn unit<G: Geometry>(context: &mut Context<'_, G>) -> f64 {
    use rand::RngCore;
    (context.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// The expected result (0 to 1) for the side to move that `value` means.
#[must_use]
pub fn logistic(value: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-value / scale).exp())
}
