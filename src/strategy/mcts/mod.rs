//! `mcts`: Monte-Carlo tree search. UCT (UCB1) or PUCT with priors from any evaluation,
//! RAVE, leaves valued by playouts (random or by any strategy) or by an evaluation, the
//! objective a win or the final margin under the rules in force, and score-bounded
//! MCTS-Solver (proven margins backed up, leaves solved exactly near the end). The
//! search (`search`, over the arena of `tree`) knows nothing of the `Strategy` trait:
//! [`Mcts`] is the one small piece of glue.

#[cfg(test)]
mod audit;
#[cfg(test)]
mod counting;
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

use super::{
    random_square, Budget, Choice, Context, Evaluator, Notes, Pick, Picked, Solver, Strategy,
    Visited, Visits, WIN,
};
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
        self.search_from(board, moves, context, Instant::now())
    }

    /// [`search`](Self::search) for a move begun at `began`, which its time counts from.
    fn search_from(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
        began: Instant,
    ) -> Tree<G> {
        let mut tree = Tree::new(board, moves, self.capacity(), self.settings.rave > 0);
        self.grow(&mut tree, context, began);
        tree
    }

    /// Searches on from the tree kept from the game's previous move when it holds the
    /// line played since (`reuse`), else afresh.
    fn search_on(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
        began: Instant,
    ) -> Tree<G> {
        let history = context.history;
        let kept = context
            .memory
            .find_state::<Kept<G>>()
            .and_then(|kept| kept.take(board, moves, &history, self.capacity()));
        match kept {
            Some(mut tree) => {
                self.grow(&mut tree, context, began);
                tree
            }
            None => self.search_from(board, moves, context, began),
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

    /// Runs iterations on `tree` until a budget or the deadline of the move begun at
    /// `began` is spent.
    fn grow(&self, tree: &mut Tree<G>, context: &mut Context<'_, G>, began: Instant) {
        let deadline = context
            .memory
            .clock
            .deadline_with(self.settings.time, began);
        let search = Search {
            settings: &self.settings,
            leaf: &self.leaf,
            prior: self.prior.as_deref(),
        };
        search.run(tree, deadline, context);
    }
}

impl<G: Geometry> Mcts<G> {
    /// Whether `board` is solved outright rather than searched: few enough empties
    /// (`solve`), and every legal move considered.
    fn solves_root(&self, board: Board<G>, moves: G::Bits) -> bool {
        board.empty_count() <= self.settings.solve && moves == board.moves()
    }

    /// The root's exact solve within the move's clock: half of what the move may take,
    /// so that the tree has the rest when the solve runs out; no limit without a clock
    /// (an iteration budget: the same games on any machine). None when it ran out.
    fn solve_root(&self, board: Board<G>, context: &mut Context<'_, G>) -> Option<(i32, G::Bits)> {
        let now = Instant::now();
        let deadline = context.memory.clock.deadline_with(self.settings.time, now);
        let budget = Budget {
            nodes: None,
            time: deadline.map(|d| d.saturating_duration_since(now) / 2),
        };
        let solver = Solver::for_play(self.settings.rules, SOLVER_BITS);
        let solution = solver.solve_within(board, context.memory, budget).ok()?;
        Some((solution.score, solution.best))
    }
}

/// A proven final margin on the values' scale, where its sign says it: a win or a loss
/// as `WIN` plus the margin (shown as "wins by"), which no mean in thousandths reaches.
fn proven_value(margin: i32) -> Option<i32> {
    match margin.signum() {
        1 => Some(WIN + margin),
        -1 => Some(-WIN + margin),
        _ => None,
    }
}

impl<G: Geometry> Strategy<G> for Mcts<G> {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let began = Instant::now();
        if self.solves_root(board, moves) {
            if let Some((score, best)) = self.solve_root(board, context) {
                let square = random_square(best, context.rng);
                // The solve's own line, as the solver gives it: `eval`, `watch` and
                // NBoard's hint show it.
                let line = Solver::for_play(self.settings.rules, SOLVER_BITS).principal_variation(
                    board,
                    square,
                    score,
                    context.memory,
                );
                let notes = &mut context.memory.notes;
                notes.set_pv(line);
                notes.timed_from(began);
                return Ok(Pick::valued(square, score).proven());
            }
        }
        let tree = if self.settings.reuse {
            self.search_on(board, moves, context, began)
        } else {
            self.search_from(board, moves, context, began)
        };
        let (pick, line) = self.choice_of(&tree, moves);
        if self.settings.reuse {
            let history = context.history;
            context
                .memory
                .state(|_| true, Kept::default)
                .keep(tree, &history);
        }
        let notes = &mut context.memory.notes;
        notes.set_pv(line);
        notes.timed_from(began);
        Ok(pick)
    }

    /// Each move's mean result for the mover, in thousandths; a move proven to win or
    /// lose, its margin (`WIN` plus it); at `solve` empties or fewer, every move's exact
    /// final margin, as the moves are played there.
    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        if self.solves_root(board, moves) {
            let solver = Solver::for_play(self.settings.rules, SOLVER_BITS);
            return Some(solver.move_values(board, moves, context.memory));
        }
        let visits = self.move_visits(board, moves, context)?;
        let mut values: Vec<(Square, i32)> = visits
            .moves
            .into_iter()
            .map(|v| (v.square, v.value))
            .collect();
        values.sort_by_key(|&(square, _)| square.index());
        Some(values)
    }

    /// [`move_values`](Strategy::move_values) and each move's visits and proven
    /// bounds from one search, the move it chooses first and the rest by visits, with
    /// that choice and its line; None where the root is solved outright (no visits: its
    /// values are the solver's).
    fn move_visits(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Visits> {
        if self.solves_root(board, moves) {
            return None;
        }
        let tree = self.search(board, moves, context);
        let (pick, line) = self.choice_of(&tree, moves);
        let mut notes = Notes::default();
        notes.set_pv(line);
        let choice = Choice::noted(pick, &notes);
        let most = G::CELLS.min(127) as i32;
        let mut visited: Vec<Visited> = tree
            .stats()
            .iter()
            .map(|m| {
                let exact = (m.bounds.0 == m.bounds.1).then_some(m.bounds.0);
                let value = exact
                    .and_then(proven_value)
                    .unwrap_or((m.mean * 1000.0).round() as i32);
                Visited {
                    square: m.square,
                    value,
                    visits: u64::from(m.visits),
                    bounds: (m.bounds != (-most, most)).then_some(m.bounds),
                }
            })
            .collect();
        visited.sort_by_key(|v| {
            (
                v.square != choice.square,
                std::cmp::Reverse(v.visits),
                std::cmp::Reverse(v.value),
                v.square.index(),
            )
        });
        Some(Visits {
            moves: visited,
            choice,
        })
    }
}

impl<G: Geometry> Mcts<G> {
    /// The move a searched `tree` plays, valued by its mean in thousandths, with the
    /// line of most visits after it: what `choose` answers and `eval` shows.
    fn choice_of(&self, tree: &Tree<G>, moves: G::Bits) -> (Pick, Vec<Square>) {
        // A search that ran out of budget before its first iteration (a clock nearly
        // spent, `nodes` below a playout) plays the first legal move.
        let square = tree
            .best(&self.settings)
            .unwrap_or_else(|| Square::new(moves.lowest()));
        let stats = tree.stats();
        let found = stats.iter().find(|m| m.square == square);
        let mean = found.map_or(0.5, |m| m.mean);
        let line = tree.most_visited_line(square);
        // A move proven to win or lose by an exact margin is valued so, as `eval` and
        // `watch` show it.
        let exact = found.filter(|m| m.bounds.0 == m.bounds.1);
        match exact.and_then(|m| proven_value(m.bounds.0)) {
            Some(value) => (Pick::valued(square, value).proven(), line),
            None => (Pick::valued(square, (mean * 1000.0).round() as i32), line),
        }
    }
}
