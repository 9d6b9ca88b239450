//! `mcts`: Monte-Carlo tree search. UCT (UCB1) or PUCT with priors from any evaluation,
//! RAVE, leaves valued by playouts (random or by any strategy) or by an evaluation, the
//! objective a win or the final margin under the rules in force, and score-bounded
//! MCTS-Solver (proven margins backed up, leaves solved exactly near the end). The
//! search (`search`, over the arena of `tree`) knows nothing of the `Strategy` trait:
//! [`Mcts`] is the one small piece of glue.

mod leaf;
mod search;
mod spec;
#[cfg(test)]
mod tests;
mod tree;

pub use search::{Final, MoveStats, Objective, Settings};
pub use spec::MctsSpec;
pub use tree::{Node, Tree};

use super::{random_square, Answer, Choice, Context, Evaluator, Solver, Strategy};
use crate::board::{Bits, Board, Geometry, Square};
use leaf::Leaf;
use search::Search;
use std::time::Instant;

/// The solver's table size when the root itself is solved.
const ROOT_SOLVER_BITS: u32 = 18;

/// The player: settings and the means of valuing leaves; every search's state is a
/// [`Tree`] of its own.
pub struct Mcts<G: Geometry> {
    /// The search's settings.
    pub settings: Settings,
    leaf: Leaf<G>,
    prior: Option<Box<dyn Evaluator<G>>>,
}

impl<G: Geometry> Mcts<G> {
    /// Searches `board` (considering `moves`) within the budgets and the clock's
    /// deadline: the tree grown.
    pub fn search(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Tree<G> {
        let deadline = context
            .memory
            .clock
            .deadline_with(self.settings.time, Instant::now());
        let capacity = self
            .settings
            .iterations
            .into_iter()
            .chain(self.settings.nodes)
            .min()
            .map_or(1 << 16, |n| (n as usize).saturating_mul(4).min(1 << 24));
        let mut tree = Tree::new(board, moves, capacity, self.settings.rave > 0);
        let search = Search {
            settings: &self.settings,
            leaf: &self.leaf,
            prior: self.prior.as_deref(),
        };
        search.run(&mut tree, deadline, context);
        tree
    }
}

impl<G: Geometry> Strategy<G> for Mcts<G> {
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Answer {
        let began = Instant::now();
        if board.empty_count() <= self.settings.solve && moves == board.moves() {
            let solver = Solver::for_play(self.settings.rules, ROOT_SOLVER_BITS);
            let square = random_square(solver.solve(board, context.memory).best, context.rng);
            return Ok(Choice::of(square).timed_from(began));
        }
        let tree = self.search(board, moves, context);
        // A search that ran out of budget before its first iteration (a clock nearly
        // spent, `nodes` below a playout) plays the first legal move.
        let square = tree
            .best(&self.settings)
            .unwrap_or_else(|| Square::new(moves.lowest()));
        let mean = tree
            .stats()
            .iter()
            .find(|m| m.square == square)
            .map_or(0.5, |m| m.mean);
        Ok(Choice::valued(square, (mean * 1000.0).round() as i32).timed_from(began))
    }

    /// Each move's mean result for the mover, in thousandths.
    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        let tree = self.search(board, moves, context);
        Some(
            tree.stats()
                .iter()
                .map(|m| (m.square, (m.mean * 1000.0).round() as i32))
                .collect(),
        )
    }
}
