//! `alphabeta`: negamax alpha-beta over any evaluation, with iterative deepening, move
//! ordering, a transposition table, an exact endgame and an optional node budget.

use super::table::Bound;
use super::{random_square, Context, Evaluator, Memory, Solver, Strategy};
use crate::board::{Bits, Board, Geometry, Indices, Square};
use crate::game::Rules;

/// A finished game is worth more than any evaluation: `WIN` plus the margin.
/// NOTE: evaluations must stay within +/- `EVAL_LIMIT` (FeatureEval clamps to it).
pub const WIN: i32 = 1 << 30;
/// The largest evaluation magnitude the search expects.
pub const EVAL_LIMIT: i32 = 100_000_000;

/// The alpha-beta player.
pub struct AlphaBeta<G: Geometry> {
    /// Plies to search (a pass does not count).
    pub depth: u32,
    /// The evaluation at the leaves, from the side to move's point of view.
    pub eval: Box<dyn Evaluator<G>>,
    /// Solve exactly when at most this many squares are empty (0: never).
    pub endgame: u32,
    /// Stop deepening once a move has cost this many nodes (None: no budget).
    pub nodes: Option<u64>,
    /// Use a transposition table (and so iterative deepening).
    pub table: bool,
    /// Order moves (table move first, then by the evaluation).
    pub ordering: bool,
    /// log2 of the transposition table size.
    pub table_bits: u32,
    /// The rules finished games are scored under.
    pub rules: Rules,
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

struct Search<'a, G: Geometry> {
    player: &'a AlphaBeta<G>,
    memory: &'a mut Memory<G>,
    nodes: u64,
    budget: u64,
    aborted: bool,
}

impl<G: Geometry> Search<'_, G> {
    fn value(&mut self, board: Board<G>, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return 0;
        }
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if !passed.can_move() {
                return terminal_value(self.player.rules, board);
            }
            return -self.value(passed, depth, -beta, -alpha);
        }
        if depth == 0 {
            return self.player.eval.evaluate(board);
        }
        let alpha_in = alpha;
        let mut table_move = None;
        let table_bits = self.player.table_bits;
        if self.player.table {
            if let Some(entry) = self.memory.search_table(table_bits).probe(board) {
                if u32::from(entry.depth) >= depth {
                    match entry.bound {
                        Bound::Exact => return entry.value,
                        Bound::Lower if entry.value >= beta => return entry.value,
                        Bound::Upper if entry.value <= alpha => return entry.value,
                        _ => {}
                    }
                }
                table_move = entry.best;
            }
        }
        let mut list = [(0i32, 0u8); 128];
        let mut count = 0;
        for index in Indices(moves) {
            list[count] = (0, index as u8);
            count += 1;
        }
        let list = &mut list[..count];
        if self.player.ordering && depth >= 2 {
            for item in list.iter_mut() {
                let square = Square::new(u32::from(item.1));
                item.0 = if table_move == Some(square) {
                    i32::MIN
                } else {
                    // The child is the opponent's to move: a low value for them first.
                    self.player.eval.evaluate(board.play(square))
                };
            }
            list.sort_by_key(|&(key, index)| (key, index));
        } else if let Some(first) = table_move {
            if let Some(pos) = list
                .iter()
                .position(|&(_, i)| u32::from(i) == first.index())
            {
                list.swap(0, pos);
            }
        }
        let mut best = i32::MIN;
        let mut best_move = None;
        for &(_, index) in list.iter() {
            let square = Square::new(u32::from(index));
            let value = -self.value(board.play(square), depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(square);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if self.player.table {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_in {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let stored_depth = depth.min(u32::from(u8::MAX - 1)) as u8;
            self.memory
                .search_table(table_bits)
                .store(board, best, stored_depth, bound, best_move);
        }
        best
    }

    /// Searches every root move to `depth`; returns the best value and every
    /// move that reaches it (ties found exactly with the window (best - 1, +inf)).
    fn root(
        &mut self,
        board: Board<G>,
        moves: G::Bits,
        depth: u32,
        first: Option<Square>,
    ) -> Option<(i32, G::Bits)> {
        let mut order: Vec<u32> = Indices(moves).collect();
        if let Some(first) = first {
            if let Some(pos) = order.iter().position(|&i| i == first.index()) {
                order[..=pos].rotate_right(1);
            }
        }
        let mut best = i32::MIN;
        let mut ties = G::Bits::ZERO;
        for index in order {
            let alpha = if best == i32::MIN {
                -i32::MAX
            } else {
                best - 1
            };
            let value = -self.value(board.play(Square::new(index)), depth - 1, -i32::MAX, -alpha);
            if self.aborted {
                return None;
            }
            if value > best {
                best = value;
                ties = G::Bits::bit(index);
            } else if value == best {
                ties |= G::Bits::bit(index);
            }
        }
        Some((best, ties))
    }
}

impl<G: Geometry> AlphaBeta<G> {
    /// The best value at the final depth reached and every move that reaches it.
    pub fn search(
        &self,
        board: Board<G>,
        moves: G::Bits,
        memory: &mut Memory<G>,
    ) -> (i32, G::Bits) {
        let mut search = Search {
            player: self,
            memory,
            nodes: 0,
            budget: u64::MAX,
            aborted: false,
        };
        let depth = self.depth.max(1);
        // Without a table, shallower iterations teach the deeper ones nothing.
        let first_depth = if self.table { 1 } else { depth };
        let mut result = None;
        let mut first = None;
        for d in first_depth..=depth {
            // The first iteration always completes, so a move is always found.
            if result.is_some() {
                search.budget = self.nodes.unwrap_or(u64::MAX);
            }
            match search.root(board, moves, d, first) {
                Some((value, ties)) => {
                    first = Some(Square::new(ties.lowest()));
                    result = Some((value, ties));
                }
                None => break,
            }
        }
        let nodes = search.nodes;
        memory.nodes += nodes;
        result.expect("the first iteration has no budget")
    }
}

impl<G: Geometry> Strategy<G> for AlphaBeta<G> {
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square {
        if board.empty_count() <= self.endgame {
            let solver = Solver {
                rules: self.rules,
                table_bits: self.table_bits,
            };
            return solver.choose(board, moves, context);
        }
        let (_, ties) = self.search(board, moves, context.memory);
        random_square(ties, context.rng)
    }
}
