//! `alphabeta`: negamax alpha-beta over any evaluation, with iterative deepening and
//! aspiration windows, move ordering, a transposition table, an exact endgame and an
//! optional node budget (the node search itself is in `search`).

pub mod probcut;
mod search;
mod spec;

pub use spec::AlphaBetaSpec;

use super::solver::Solution;
use super::spec::MAX_SOLVE_EMPTIES;
use super::{
    random_square, Budget, Context, Evaluator, Memory, Pick, Picked, Solver, Strategy,
    TranspositionTable,
};
use crate::board::{squares, Bits, Board, Geometry, Indices, Square};
use crate::game::Rules;
use search::Search;
use std::time::{Duration, Instant};

/// A finished game is worth more than any evaluation: `WIN` plus the margin.
/// NOTE: evaluations must stay within +/- `EVAL_LIMIT` (FeatureEval clamps to it).
pub const WIN: i32 = 1 << 30;
/// The largest evaluation magnitude the search expects.
pub const EVAL_LIMIT: i32 = 100_000_000;

/// The shallowest search that deepens iteratively (given a table and no node
/// budget): the shallower iterations leave best moves in the table and order the
/// root. Measured with the weighted classic table, 20 depth-6 games (`match
/// --openings 4`): 5,740 nodes a move instead of 8,190 searching depth 6 at once.
const ITERATIVE_MIN_DEPTH: u32 = 6;

/// What a solve costs in play, to decide on a clock whether one is worth trying: the
/// median time at 18 empties, and the factor each further empty multiplies it by.
/// Measured on 12 self-play positions each (one thread, 2^20 entries, a 2-core AMD
/// EPYC, 2026-12-03): medians of 42 ms at 18 empties, 134 ms at 20, 1.40 s at 22 and
/// 2.03 s at 24, a factor of about 1.9 an empty.
const SOLVE_AT_18: Duration = Duration::from_millis(42);
const SOLVE_GROWTH: f64 = 1.9;

/// The most empties whose solve takes `time` or less by the estimate: a time-managed
/// player hands over to the solver at this count (capped by its `endgame`).
#[must_use]
pub fn solvable_within(time: Duration) -> u32 {
    let ratio = time.as_secs_f64() / SOLVE_AT_18.as_secs_f64();
    // No time at all: ln 0 is minus infinity, and no empties are solvable.
    (18.0 + ratio.ln() / SOLVE_GROWTH.ln())
        .floor()
        .clamp(0.0, 60.0) as u32
}

/// The root window of the next iteration, given the best values of the iterations
/// so far: the whole range at first, then an aspiration window around the last
/// value, as wide as the last change between iterations (the search widens a side
/// that the value falls outside, so the window changes speed, never a value).
fn aspiration_window(found: &[i32]) -> (i32, i32) {
    let full = (-i32::MAX, i32::MAX);
    match found {
        [.., before, last] => {
            let (before, last) = (i64::from(*before), i64::from(*last));
            let delta = (last - before).abs().max(1);
            let clamp = |v: i64| v.clamp(-i64::from(i32::MAX), i64::from(i32::MAX)) as i32;
            (clamp(last - delta), clamp(last + delta))
        }
        _ => full,
    }
}

/// The alpha-beta player, generic over its evaluation so that leaf evaluations
/// are inlined (a boxed evaluation works too: `Box<dyn Evaluator<G>>`).
pub struct AlphaBeta<G: Geometry, E: Evaluator<G> = Box<dyn Evaluator<G>>> {
    /// Plies to search (a pass does not count).
    pub depth: u32,
    /// The evaluation at the leaves, from the side to move's point of view.
    pub eval: E,
    /// Solve exactly when at most this many squares are empty (0: never).
    pub endgame: u32,
    /// Stop deepening once a move has cost this many nodes (None: no budget).
    pub nodes: Option<u64>,
    /// Stop deepening once a move has taken this long (None: no budget; a time
    /// control's deadline, in the memory's clock, applies as well).
    pub time: Option<Duration>,
    /// Multi-ProbCut's confidence in standard deviations of the fitted lines
    /// (`probcut`; None: a full-width search). Only with the pattern evaluation on
    /// 8x8, whose values the lines were fitted to.
    pub probcut: Option<f32>,
    /// Use a transposition table (and deepen iteratively from `ITERATIVE_MIN_DEPTH`).
    pub table: bool,
    /// Order moves: table move, killers, then fastest-first (see `search`).
    pub ordering: bool,
    /// log2 of the transposition table size.
    pub table_bits: u32,
    /// The rules finished games are scored under.
    pub rules: Rules,
    /// Ties the geometry to the player.
    pub geometry: std::marker::PhantomData<G>,
}

/// The value of a finished game for the side to move, on the search's scale.
#[inline]
#[must_use]
pub fn terminal_value<G: Geometry>(rules: Rules, board: Board<G>) -> i32 {
    let score = rules.final_score(board);
    match score.signum() {
        1 => WIN + score,
        -1 => -WIN + score,
        _ => 0,
    }
}

/// The final margin a search value proves (it saw the end of the game: `WIN` plus
/// the margin), or None for a value of the evaluation.
#[must_use]
pub const fn proven_margin(value: i32) -> Option<i32> {
    if value > EVAL_LIMIT {
        Some(value - WIN)
    } else if value < -EVAL_LIMIT {
        Some(value + WIN)
    } else {
        None
    }
}

impl<G: Geometry, E: Evaluator<G>> AlphaBeta<G, E> {
    /// The best value at the final depth reached and every move that reaches it.
    pub fn search(
        &self,
        board: Board<G>,
        moves: G::Bits,
        memory: &mut Memory<G>,
    ) -> (i32, G::Bits) {
        let deadline = memory.clock.deadline_with(self.time, Instant::now());
        let (value, ties, _) = self.search_until(board, moves, memory, deadline);
        (value, ties)
    }

    /// [`search`](Self::search), deepening no further once `deadline` has passed; also
    /// the plies of the last iteration completed.
    fn search_until(
        &self,
        board: Board<G>,
        moves: G::Bits,
        memory: &mut Memory<G>,
        deadline: Option<Instant>,
    ) -> (i32, G::Bits, u32) {
        let started = Instant::now();
        let mut search = Search::new(self, memory);
        let depth = self.depth.max(1);
        let first_depth = self.first_depth(deadline.is_some());
        let mut result = None;
        let mut found: Vec<i32> = Vec::new();
        let mut order: Vec<(i32, u32)> = Indices(moves).map(|i| (0, i)).collect();
        // The first iteration ignores the budgets, but not an answer no longer wanted.
        search.limit(None, None);
        for d in first_depth..=depth {
            // The first iteration completes unless cancelled, so a move is found.
            if result.is_some() {
                // An iteration takes a few times the one before: one that would end
                // far past the deadline is not begun.
                if deadline.is_some_and(|end| started + (Instant::now() - started) * 3 > end) {
                    break;
                }
                search.limit(self.nodes, deadline);
            }
            match search.root(board, d, &mut order, aspiration_window(&found)) {
                Some((value, ties)) => {
                    result = Some((value, ties, d));
                    found.push(value);
                }
                None => break,
            }
            // Best first for the next iteration (a stable sort keeps square order among equals).
            order.sort_by_key(|&(value, _)| std::cmp::Reverse(value));
        }
        memory.nodes += search.finish();
        // Only a cancelled search finds nothing, and its answer is not wanted: any move does.
        result.unwrap_or((0, moves, 0))
    }

    /// Every move's value at the full depth. Each move is searched with an open
    /// window, so every value is exact, where `search` only proves the others worse.
    /// Deepens a ply at a time as `search` does, so a node budget stops it at the
    /// last depth completed.
    pub fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        memory: &mut Memory<G>,
    ) -> Vec<(Square, i32)> {
        let deadline = memory.clock.deadline_with(self.time, Instant::now());
        // A timed search may have an endgame too deep to solve in any budget (it is
        // accepted because `choose` gives up on time): its values are then searched.
        let solvable = deadline.is_none() || board.empty_count() <= MAX_SOLVE_EMPTIES;
        if board.empty_count() <= self.endgame && solvable {
            return self.solver().move_values(board, moves, memory);
        }
        let mut search = Search::new(self, memory);
        let depth = self.depth.max(1);
        let first_depth = self.first_depth(deadline.is_some());
        let mut values = Vec::new();
        search.limit(None, None);
        for d in first_depth..=depth {
            if !values.is_empty() {
                search.limit(self.nodes, deadline);
            }
            let found: Vec<(Square, i32)> = squares(moves)
                .map(|s| (s, -search.value(board.play(s), d - 1, -i32::MAX, i32::MAX)))
                .collect();
            if search.aborted {
                break;
            }
            values = found;
        }
        memory.nodes += search.finish();
        values
    }

    /// The depth iterative deepening starts from: 1 where shallower iterations pay
    /// for themselves (with a table, from `ITERATIVE_MIN_DEPTH` on) or are needed (a
    /// node or time budget stops at the last depth completed), else the full depth at once.
    fn first_depth(&self, timed: bool) -> u32 {
        let depth = self.depth.max(1);
        if timed || self.nodes.is_some() || (self.table && depth >= ITERATIVE_MIN_DEPTH) {
            1
        } else {
            depth
        }
    }

    /// The choice of a solve of the endgame: a best move at random, its proven value
    /// and the line of best play to the end of the game.
    fn solved(
        &self,
        board: Board<G>,
        solution: Solution<G::Bits>,
        context: &mut Context<'_, G>,
    ) -> Pick {
        let square = random_square(solution.best, context.rng);
        let pv = (self.solver()).principal_variation(board, square, solution.score, context.memory);
        context.memory.notes.set_pv(pv);
        Pick::valued(square, proven_value(solution.score)).proven()
    }

    /// The principal variation after the search chose `first`: each position's best
    /// move as the table holds it, for as many plies as the search completed (read
    /// once the search is done, so that the search pays nothing for it; without a
    /// table, the move alone). Passes are implied.
    fn table_line(
        &self,
        board: Board<G>,
        first: Square,
        plies: u32,
        memory: &mut Memory<G>,
    ) -> Vec<Square> {
        let mut line = vec![first];
        let table = memory
            .find_state::<TranspositionTable<G>>()
            .filter(|_| self.table);
        let Some(table) = table else {
            return line;
        };
        let mut position = board.play(first);
        while (line.len() as u32) < plies {
            if !position.can_move() {
                position = position.pass();
            }
            let moves = position.moves();
            let best = table.probe(position).and_then(|entry| entry.best);
            match best.filter(|square| moves.has(square.index())) {
                Some(square) => {
                    line.push(square);
                    position = position.play(square);
                }
                None => break,
            }
        }
        line
    }

    /// The exact solver this player hands the endgame to.
    fn solver(&self) -> Solver {
        Solver::for_play(self.rules, self.table_bits)
    }
}

/// The value on a search's scale of a proven final `margin` (see [`terminal_value`]).
const fn proven_value(margin: i32) -> i32 {
    match margin.signum() {
        1 => WIN + margin,
        -1 => -WIN + margin,
        _ => 0,
    }
}

impl<G: Geometry, E: Evaluator<G>> Strategy<G> for AlphaBeta<G, E> {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let now = Instant::now();
        let deadline = context.memory.clock.deadline_with(self.time, now);
        if board.empty_count() <= self.endgame {
            let Some(deadline) = deadline else {
                let solution = self.solver().solve(board, context.memory);
                let pick = self.solved(board, solution, context);
                context.memory.notes.timed_from(now);
                return Ok(pick);
            };
            // On a clock the solver takes over where its estimated time is a quarter
            // of the move's or less, and gets half: if it cannot finish, the search
            // takes the rest.
            let left = deadline.saturating_duration_since(now);
            if board.empty_count() <= solvable_within(left / 4) {
                let budget = Budget {
                    time: Some(left / 2),
                    ..Budget::default()
                };
                if let Ok(solution) = self.solver().solve_within(board, context.memory, budget) {
                    let pick = self.solved(board, solution, context);
                    context.memory.notes.timed_from(now);
                    return Ok(pick);
                }
            }
        }
        let (value, ties, plies) = self.search_until(board, moves, context.memory, deadline);
        let square = random_square(ties, context.rng);
        let pv = self.table_line(board, square, plies, context.memory);
        let notes = &mut context.memory.notes;
        notes.searched(plies);
        notes.set_pv(pv);
        notes.timed_from(now);
        let pick = Pick::valued(square, value);
        // A search that saw every line end has proven its value; a proven draw scores
        // 0 like an estimate, so only wins and losses are known proven here.
        Ok(if proven_margin(value).is_some() {
            pick.proven()
        } else {
            pick
        })
    }

    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        Some(AlphaBeta::move_values(self, board, moves, context.memory))
    }
}

#[cfg(test)]
mod tests {
    use super::solvable_within;
    use crate::board::{Board, Size8};
    use crate::strategy::reference::play_line;
    use crate::strategy::{Context, GameRng, History, Memory, StrategySpec};
    use rand::SeedableRng;
    use std::time::Duration;

    /// A search's line is legal from the position, starts with its move, is no longer
    /// than the plies it searched and, with a table, longer than the move alone; an
    /// endgame solved by the search's solver is played out to its proven margin.
    #[test]
    fn the_principal_variation_is_a_legal_line_from_the_position() {
        let mut board = Board::<Size8>::start();
        let player = StrategySpec::parse("alphabeta:depth=6,endgame=12")
            .unwrap()
            .build::<Size8>(crate::game::Rules::default())
            .unwrap();
        let mut memory = Memory::new();
        let mut rng = GameRng::seed_from_u64(3);
        let mut lines = 0;
        while !board.is_game_over() {
            if !board.can_move() {
                board = board.pass();
            }
            let moves = board.moves();
            let mut context = Context {
                rng: &mut rng,
                memory: &mut memory,
                history: History::from_start(&[]),
            };
            let choice = player.choose(board, moves, &mut context).unwrap();
            let pv = choice.pv();
            assert_eq!(pv.first(), Some(&choice.square));
            let (end, same) = play_line(board, pv);
            if board.empty_count() <= 12 {
                assert!(end.is_game_over(), "{pv:?} stops short of the end");
                let margin = crate::game::Rules::default().final_score(end);
                let margin = if same { margin } else { -margin };
                assert_eq!(choice.value, Some(super::proven_value(margin)), "{pv:?}");
            } else {
                let plies = choice.depth().unwrap();
                assert!(pv.len() as u32 <= plies, "{pv:?} past {plies} plies");
                lines += usize::from(pv.len() > 1);
            }
            board = board.play(choice.square);
        }
        assert!(lines >= 10, "only {lines} lines longer than the move");
    }

    #[test]
    fn the_hand_over_to_the_solver_deepens_with_the_time_left() {
        let at = |ms| solvable_within(Duration::from_millis(ms));
        assert_eq!(
            [at(0), at(5), at(42), at(50), at(160), at(1000), at(60_000)],
            [0, 14, 18, 18, 20, 22, 29]
        );
    }
}
