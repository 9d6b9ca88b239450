//! `mcts`: Monte-Carlo tree search. UCT (UCB1) or PUCT with priors from any evaluation,
//! RAVE, leaves valued by playouts (random or by any strategy) or by an evaluation, the
//! objective a win or the final margin under the rules in force, and score-bounded
//! MCTS-Solver (proven margins backed up, leaves solved exactly near the end). The
//! search (`search`, over the arena of `tree`) knows nothing of the `Strategy` trait:
//! [`Mcts`] is the one small piece of glue.

mod leaf;
mod reuse;
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
use reuse::Kept;
use search::Search;
use std::time::Instant;

/// log2 of the entries of the exact solver's table, one for the leaves' solves and the
/// root's: the player keeps one table in its memory (`SolverTable::kept` finds it by
/// its size), so a second size would replace it at each switch, and what the leaves'
/// solves stored (exact bounds, valid for the whole game) would be lost.
pub(crate) const SOLVER_BITS: u32 = 18;

/// The player: settings and the means of valuing leaves; every search's state is a
/// [`Tree`] of its own.
pub struct Mcts<G: Geometry> {
    /// The search's settings.
    pub settings: Settings,
    pub(crate) leaf: Leaf<G>,
    prior: Option<Box<dyn Evaluator<G>>>,
}

impl<G: Geometry> Mcts<G> {
    /// Searches `board` (considering `moves`) afresh within the budgets and the clock's
    /// deadline: the tree grown.
    pub fn search(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Tree<G> {
        let mut tree = Tree::new(board, moves, self.capacity(), self.settings.rave > 0);
        self.grow(&mut tree, context);
        tree
    }

    /// Searches on from the tree kept from the game's previous move when it holds the
    /// line played since (`reuse`), else afresh.
    fn search_on(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Tree<G> {
        let history = context.history;
        let kept = context
            .memory
            .find_state::<Kept<G>>()
            .and_then(|kept| kept.take(board, moves, &history, self.capacity()));
        match kept {
            Some(mut tree) => {
                self.grow(&mut tree, context);
                tree
            }
            None => self.search(board, moves, context),
        }
    }

    /// The nodes reserved ahead for a search: a few a budgeted iteration.
    fn capacity(&self) -> usize {
        self.settings
            .iterations
            .into_iter()
            .chain(self.settings.nodes)
            .min()
            .map_or(1 << 16, |n| (n as usize).saturating_mul(4).min(1 << 24))
    }

    /// Runs iterations on `tree` until a budget or the clock's deadline is spent.
    fn grow(&self, tree: &mut Tree<G>, context: &mut Context<'_, G>) {
        let deadline = context
            .memory
            .clock
            .deadline_with(self.settings.time, Instant::now());
        let search = Search {
            settings: &self.settings,
            leaf: &self.leaf,
            prior: self.prior.as_deref(),
        };
        search.run(tree, deadline, context);
    }
}

impl<G: Geometry> Strategy<G> for Mcts<G> {
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Answer {
        let began = Instant::now();
        if board.empty_count() <= self.settings.solve && moves == board.moves() {
            let solver = Solver::for_play(self.settings.rules, SOLVER_BITS);
            let square = random_square(solver.solve(board, context.memory).best, context.rng);
            return Ok(Choice::of(square).timed_from(began));
        }
        let tree = if self.settings.reuse {
            self.search_on(board, moves, context)
        } else {
            self.search(board, moves, context)
        };
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
        let pv = tree.most_visited_line(square);
        if self.settings.reuse {
            let history = context.history;
            context
                .memory
                .state(|_| true, Kept::default)
                .keep(tree, &history);
        }
        Ok(Choice::valued(square, (mean * 1000.0).round() as i32)
            .with_pv(pv)
            .timed_from(began))
    }

    /// Each move's mean result for the mover, in thousandths.
    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        let visits = self.move_visits(board, moves, context)?;
        Some(visits.into_iter().map(|(s, v, _)| (s, v)).collect())
    }

    /// Each move's mean result for the mover, in thousandths, and its visits.
    fn move_visits(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32, u64)>> {
        let tree = self.search(board, moves, context);
        Some(
            tree.stats()
                .iter()
                .map(|m| {
                    let value = (m.mean * 1000.0).round() as i32;
                    (m.square, value, u64::from(m.visits))
                })
                .collect(),
        )
    }
}
