//! Strategies: what chooses a move, one heuristic per file, built from a spec (see `spec`).

mod alphabeta;
mod corner;
mod error;
mod eval;
mod greedy;
mod minimum_disc;
mod mobility;
mod parity;
mod random;
pub mod solver;
pub mod spec;
mod stability;
mod table;
mod weighted;

pub use alphabeta::{proven_margin, terminal_value, AlphaBeta, EVAL_LIMIT, WIN};
pub use corner::{CornerEdge, CornerFirst};
pub use error::SpecError;
pub use eval::{EvalWeights, FeatureEval, FEATURES};
pub use greedy::{DiscEval, Greedy};
pub use minimum_disc::MinimumDisc;
pub use mobility::MobilityEval;
pub use parity::Parity;
pub use random::RandomMove;
pub use solver::{Budget, Mode, Solver, SolverTable};
pub use spec::StrategySpec;
pub use stability::StabilityEval;
pub use table::TranspositionTable;
pub use weighted::WeightedEval;

use crate::board::{squares, Bits, Board, Geometry, Square};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The per-game random number generator: seedable and the same on every platform.
pub type GameRng = ChaCha8Rng;

/// What a strategy may change while it thinks: per player and per game, never shared.
#[derive(Debug, Default)]
pub struct Memory<G: Geometry> {
    search_table: Option<TranspositionTable<G>>,
    solver_table: Option<SolverTable<G>>,
    /// Nodes searched since the memory was made (search strategies count here).
    pub nodes: u64,
}

impl<G: Geometry> Memory<G> {
    /// Empty memory.
    #[must_use]
    pub fn new() -> Self {
        Memory {
            search_table: None,
            solver_table: None,
            nodes: 0,
        }
    }

    /// Forgets everything learnt in the previous game, so that a game's moves
    /// depend only on that game (and so on neither thread count nor game order).
    pub fn new_game(&mut self) {
        if let Some(table) = &mut self.search_table {
            table.clear();
        }
        if let Some(table) = &mut self.solver_table {
            table.clear();
        }
    }

    /// The heuristic search's transposition table, made on first use with 2^`bits` entries.
    pub fn search_table(&mut self, bits: u32) -> &mut TranspositionTable<G> {
        table_slot(
            &mut self.search_table,
            bits,
            TranspositionTable::bits,
            TranspositionTable::new,
        )
    }

    /// The exact solver's table, kept apart because its values are on another scale.
    pub fn solver_table(&mut self, bits: u32) -> &mut SolverTable<G> {
        table_slot(
            &mut self.solver_table,
            bits,
            SolverTable::bits,
            SolverTable::new,
        )
    }
}

/// The table in `slot`, made anew when there is none or it has another size.
fn table_slot<T>(
    slot: &mut Option<T>,
    bits: u32,
    bits_of: impl Fn(&T) -> u32,
    make: impl Fn(u32) -> T,
) -> &mut T {
    if slot.as_ref().is_none_or(|t| bits_of(t) != bits) {
        *slot = Some(make(bits));
    }
    slot.as_mut().expect("just made")
}

/// What a strategy is given besides the position.
pub struct Context<'a, G: Geometry> {
    /// The game's random number generator: the only source of randomness.
    pub rng: &'a mut GameRng,
    /// The player's memory for this game.
    pub memory: &'a mut Memory<G>,
}

/// Chooses a move for the side to move. Strategies are shared by all threads, so
/// everything mutable lives in the [`Context`].
pub trait Strategy<G: Geometry>: Send + Sync {
    /// Chooses one of `moves` (never empty, always legal moves of `board`).
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square;

    /// The value of each of `moves` for the side to move on the strategy's own scale
    /// (larger is better), in square order; None for strategies that choose by a rule
    /// rather than by a value (random, corner-first, parity). For analysis (the Python
    /// package's `Strategy.scores`): games never call it.
    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        let _ = (board, moves, context);
        None
    }

    /// Whether its moves are timed for `costs.csv`: a search takes microseconds to
    /// seconds, while a one-ply rule takes about as long as reading the clock, so
    /// timing each of its moves would slow a run by a third and measure mostly the clock.
    fn searches(&self) -> bool {
        false
    }
}

/// A static evaluation of a position from the point of view of the side to move
/// (`board.player`). Larger is better for that side.
pub trait Evaluator<G: Geometry>: Send + Sync {
    /// The value of `board` for `board.player`.
    fn evaluate(&self, board: Board<G>) -> i32;

    /// The square weights (row-major from a1) when the evaluation is exactly the
    /// sum of the weights of own discs minus those of the opponent's, else None.
    /// A search then values a move from the discs it flips, without the position
    /// after it (see `alphabeta`'s horizon nodes).
    fn square_weights(&self) -> Option<&[i32]> {
        None
    }
}

/// A uniformly random square of a non-empty set.
#[must_use]
pub fn random_square<B: Bits>(set: B, rng: &mut GameRng) -> Square {
    let count = set.count();
    debug_assert!(count > 0, "random_square of an empty set");
    let mut rest = set;
    for _ in 0..rng.gen_range(0..count) {
        rest = rest.without_lowest();
    }
    Square::new(rest.lowest())
}

/// The move with the highest score, ties broken uniformly at random.
#[must_use]
pub fn best_by<B: Bits>(
    moves: B,
    rng: &mut GameRng,
    mut score: impl FnMut(Square) -> i32,
) -> Square {
    let mut best = i32::MIN;
    let mut ties = B::ZERO;
    for square in squares(moves) {
        let value = score(square);
        if value > best {
            best = value;
            ties = B::bit(square.index());
        } else if value == best {
            ties |= B::bit(square.index());
        }
    }
    random_square(ties, rng)
}

/// A one-ply player over an evaluation: the move after which the evaluation,
/// from the mover's point of view, is highest.
pub struct OnePly<E> {
    /// The evaluation.
    pub eval: E,
}

impl<G: Geometry, E: Evaluator<G>> Strategy<G> for OnePly<E> {
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square {
        best_by(moves, context.rng, |square| {
            // After the move the opponent is to move; pass to look from the mover's side.
            self.eval.evaluate(board.play(square).pass())
        })
    }

    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        _: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        let value = |square| self.eval.evaluate(board.play(square).pass());
        Some(squares(moves).map(|s| (s, value(s))).collect())
    }
}

impl<G: Geometry> Evaluator<G> for Box<dyn Evaluator<G>> {
    fn evaluate(&self, board: Board<G>) -> i32 {
        (**self).evaluate(board)
    }

    fn square_weights(&self) -> Option<&[i32]> {
        (**self).square_weights()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn ties_are_broken_uniformly() {
        let mut rng = GameRng::seed_from_u64(1);
        let set = 0b1011u64;
        let mut counts = [0u32; 4];
        for _ in 0..3000 {
            counts[random_square(set, &mut rng).index() as usize] += 1;
        }
        assert_eq!(counts[2], 0);
        for &c in &[counts[0], counts[1], counts[3]] {
            assert!((850..1150).contains(&c), "{counts:?}");
        }
        let mut seen = 0u64;
        for _ in 0..200 {
            let s = best_by(
                0b1111u64,
                &mut rng,
                |s| if s.index() % 2 == 0 { 5 } else { 1 },
            );
            seen |= 1 << s.index();
        }
        assert_eq!(seen, 0b0101);
    }
}
