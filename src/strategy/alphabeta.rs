//! `alphabeta`: negamax alpha-beta over any evaluation, with iterative deepening, move
//! ordering, a transposition table, an exact endgame and an optional node budget.

use super::table::Bound;
use super::{random_square, Context, Evaluator, Memory, Solver, Strategy};
use crate::board::{neighbours, squares, Bits, Board, Geometry, Indices, Square};
use crate::game::Rules;

/// A finished game is worth more than any evaluation: `WIN` plus the margin.
/// NOTE: evaluations must stay within +/- `EVAL_LIMIT` (FeatureEval clamps to it).
pub const WIN: i32 = 1 << 30;
/// The largest evaluation magnitude the search expects.
pub const EVAL_LIMIT: i32 = 100_000_000;

/// Remaining depth below which the table is neither probed nor filled: nodes just
/// above the leaves are the most numerous and the cheapest to search again, so a
/// probe (a likely cache miss) costs more than it saves.
const TABLE_MIN_DEPTH: u32 = 2;

/// Remaining depth from which moves are sorted by the evaluation of the position after them.
const ORDER_MIN_DEPTH: u32 = 4;

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
    /// Use a transposition table (and so iterative deepening).
    pub table: bool,
    /// Order moves (table move first, then by the evaluation).
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

struct Search<'a, G: Geometry, E: Evaluator<G>> {
    player: &'a AlphaBeta<G, E>,
    memory: &'a mut Memory<G>,
    nodes: u64,
    budget: u64,
    aborted: bool,
    /// History heuristic: how often (weighted by depth) each square caused a cut-off
    /// during this move's search. Reset per move, so it is deterministic.
    history: [u32; 128],
}

impl<G: Geometry, E: Evaluator<G>> Search<'_, G, E> {
    fn value(&mut self, board: Board<G>, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return 0;
        }
        if depth == 0 {
            // At the horizon only the cheap signs of a finished game are checked
            // (a full board, a wipe-out): generating moves for every leaf would cost
            // about a third of the search, and a game ending by a double pass with
            // empties left, exactly at the horizon, is evaluated like any position.
            if board.empty().is_empty() || board.player.is_empty() || board.opponent.is_empty() {
                return terminal_value(self.player.rules, board);
            }
            return self.player.eval.evaluate(board);
        }
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if !passed.can_move() {
                return terminal_value(self.player.rules, board);
            }
            return -self.value(passed, depth, -beta, -alpha);
        }
        let alpha_in = alpha;
        let mut table_move = None;
        let table_bits = self.player.table_bits;
        let use_table = self.player.table && depth >= TABLE_MIN_DEPTH;
        if use_table {
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
        if !(self.player.ordering && depth >= 2) && table_move.is_none() {
            // The plain loop: no list to build.
            let mut best = i32::MIN;
            let mut best_move = None;
            // Cheap static order when ordering is on: corners, then squares not
            // next to a corner, then the X- and C-squares; plain square order otherwise.
            let near_corners = neighbours::<G>(G::CORNERS);
            let groups = if self.player.ordering {
                [
                    moves & G::CORNERS,
                    moves & !G::CORNERS & !near_corners,
                    moves & near_corners,
                ]
            } else {
                [moves, G::Bits::ZERO, G::Bits::ZERO]
            };
            'groups: for group in groups {
                for index in Indices(group) {
                    let square = Square::new(index);
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
                                self.history[index as usize] += depth * depth;
                                break 'groups;
                            }
                        }
                    }
                }
            }
            self.store(board, depth, alpha_in, beta, best, best_move);
            return best;
        }
        // A small stack buffer covers every 8x8 position (at most 33 legal moves
        // are known); larger boards may need the heap.
        let mut small = [(0i32, 0u8); 40];
        let mut large = Vec::new();
        let list: &mut [(i32, u8)] = if moves.count() as usize <= small.len() {
            let mut count = 0;
            for index in Indices(moves) {
                small[count] = (0, index as u8);
                count += 1;
            }
            &mut small[..count]
        } else {
            large.extend(Indices(moves).map(|index| (0, index as u8)));
            &mut large
        };
        if self.player.ordering && depth >= ORDER_MIN_DEPTH {
            for item in list.iter_mut() {
                let square = Square::new(u32::from(item.1));
                item.0 = if table_move == Some(square) {
                    i32::MIN
                } else {
                    // The child is the opponent's to move: a low value for them first.
                    self.player.eval.evaluate(board.play(square))
                };
            }
        } else if self.player.ordering && depth >= 2 {
            // Near the leaves the evaluation costs too much to order by: the
            // table move first, then the moves that caused cut-offs most often.
            for item in list.iter_mut() {
                let square = Square::new(u32::from(item.1));
                item.0 = if table_move == Some(square) {
                    i32::MIN
                } else {
                    let bit = G::Bits::bit(u32::from(item.1));
                    let class = if !(bit & G::CORNERS).is_empty() {
                        2
                    } else if (bit & neighbours::<G>(G::CORNERS)).is_empty() {
                        1
                    } else {
                        0
                    };
                    -((self.history[item.1 as usize] as i32) * 4 + class)
                };
            }
        } else if let Some(first) = table_move {
            for item in list.iter_mut() {
                if u32::from(item.1) == first.index() {
                    item.0 = i32::MIN;
                }
            }
        }
        let mut best = i32::MIN;
        let mut best_move = None;
        for position in 0..list.len() {
            // Selection instead of a full sort: a cut-off usually comes early, and
            // then the rest never needs ordering. Ties keep square order.
            let mut pick = position;
            for other in position + 1..list.len() {
                if list[other] < list[pick] {
                    pick = other;
                }
            }
            list.swap(position, pick);
            let index = list[position].1;
            let square = Square::new(u32::from(index));
            let child = board.play(square);
            // Principal variation search: after the first move, prove with a null
            // window that a move is no better, and search again only if it is.
            let value = if position == 0 || i64::from(beta) - i64::from(alpha) <= 1 {
                -self.value(child, depth - 1, -beta, -alpha)
            } else {
                let probe = -self.value(child, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.value(child, depth - 1, -beta, -probe)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(square);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        self.history[square.index() as usize] += depth * depth;
                        break;
                    }
                }
            }
        }
        self.store(board, depth, alpha_in, beta, best, best_move);
        best
    }

    fn store(
        &mut self,
        board: Board<G>,
        depth: u32,
        alpha_in: i32,
        beta: i32,
        best: i32,
        best_move: Option<Square>,
    ) {
        if self.player.table && depth >= TABLE_MIN_DEPTH {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_in {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let stored_depth = depth.min(u32::from(u8::MAX - 1)) as u8;
            self.memory.search_table(self.player.table_bits).store(
                board,
                best,
                stored_depth,
                bound,
                best_move,
            );
        }
    }

    /// Searches every root move to `depth`; returns the best value and every
    /// move that reaches it (ties found exactly with the window (best - 1, +inf)).
    /// Searches every root move to `depth` in the order given; returns the best
    /// value and every move that reaches it (ties found exactly), and leaves each
    /// move's value (or bound) in `order` for the next iteration's ordering.
    fn root(
        &mut self,
        board: Board<G>,
        depth: u32,
        order: &mut [(i32, u32)],
    ) -> Option<(i32, G::Bits)> {
        let mut best = i32::MIN;
        let mut ties = G::Bits::ZERO;
        for item in order.iter_mut() {
            let index = item.1;
            let child = board.play(Square::new(index));
            let value = if best == i32::MIN {
                -self.value(child, depth - 1, -i32::MAX, i32::MAX)
            } else {
                // A null window around best - 1 proves most moves worse cheaply; a
                // move that reaches best is searched again with (best - 1, +inf)
                // for its exact value, so that ties are found exactly.
                let probe = -self.value(child, depth - 1, -best, -(best - 1));
                if probe >= best && !self.aborted {
                    -self.value(child, depth - 1, -i32::MAX, -(best - 1))
                } else {
                    probe
                }
            };
            if self.aborted {
                return None;
            }
            item.0 = value;
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

impl<G: Geometry, E: Evaluator<G>> AlphaBeta<G, E> {
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
            history: [0; 128],
        };
        let depth = self.depth.max(1);
        // Without a table, shallower iterations teach the deeper ones nothing.
        let first_depth = if self.table { 1 } else { depth };
        let mut result = None;
        let mut order: Vec<(i32, u32)> = Indices(moves).map(|i| (0, i)).collect();
        for d in first_depth..=depth {
            // The first iteration always completes, so a move is always found.
            if result.is_some() {
                search.budget = self.nodes.unwrap_or(u64::MAX);
            }
            match search.root(board, d, &mut order) {
                Some((value, ties)) => result = Some((value, ties)),
                None => break,
            }
            // Best first for the next iteration (a stable sort keeps square order among equals).
            order.sort_by_key(|&(value, _)| std::cmp::Reverse(value));
        }
        let nodes = search.nodes;
        memory.nodes += nodes;
        result.expect("the first iteration has no budget")
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
        if board.empty_count() <= self.endgame {
            return self.solver().move_values(board, moves, memory);
        }
        let mut search = Search {
            player: self,
            memory,
            nodes: 0,
            budget: u64::MAX,
            aborted: false,
            history: [0; 128],
        };
        let depth = self.depth.max(1);
        let first_depth = if self.table { 1 } else { depth };
        let mut values = Vec::new();
        for d in first_depth..=depth {
            if !values.is_empty() {
                search.budget = self.nodes.unwrap_or(u64::MAX);
            }
            let found: Vec<(Square, i32)> = squares(moves)
                .map(|s| (s, -search.value(board.play(s), d - 1, -i32::MAX, i32::MAX)))
                .collect();
            if search.aborted {
                break;
            }
            values = found;
        }
        let nodes = search.nodes;
        memory.nodes += nodes;
        values
    }

    /// The exact solver this player hands the endgame to.
    fn solver(&self) -> Solver {
        Solver::for_play(self.rules, self.table_bits)
    }
}

impl<G: Geometry, E: Evaluator<G>> Strategy<G> for AlphaBeta<G, E> {
    fn choose(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Square {
        if board.empty_count() <= self.endgame {
            return self.solver().choose(board, moves, context);
        }
        let (_, ties) = self.search(board, moves, context.memory);
        random_square(ties, context.rng)
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
