//! The alpha-beta node search behind `alphabeta`: negamax with principal variation
//! search, a transposition table with enhanced cut-offs, and move ordering by table
//! move, killers, fastest-first mobility and history.

use super::probcut::{self, Table};
use super::{terminal_value, AlphaBeta, EVAL_LIMIT};
use crate::board::{neighbours, Bits, Board, Geometry, Indices, Square};
use crate::strategy::table::Bound;
use crate::strategy::{Evaluator, Memory, TranspositionTable};
use std::time::Instant;

/// Remaining depth below which the table is neither probed nor filled: nodes just
/// above the leaves are the most numerous and the cheapest to search again, so a
/// probe (a likely cache miss) costs more than it saves.
const TABLE_MIN_DEPTH: u32 = 2;

/// Remaining depth from which moves are sorted fastest-first (by the opponent's
/// replies after them) in a list. Below it, moves go in groups of squares (no list
/// to build): a reply count costs about as much as the child's own search, which a
/// cut-off after the first move makes unnecessary. Measured (instructions of 20
/// depth-6 games): from depth 3, 4, 5, 6 on: 1.24, 1.12, 1.10, 1.13 billion.
const MOBILITY_MIN_DEPTH: u32 = 5;

/// Remaining depth from which the grouped loop searches the moves after the first
/// with a null window (principal variation search), when ordering is on (the plain
/// search is plain alpha-beta); the ordered list always does.
const PVS_MIN_DEPTH: u32 = 3;

/// The killer slots kept per remaining depth: the last two moves that caused a
/// cut-off among siblings, tried right after the table move.
const KILLERS: usize = 2;

/// Nodes between two looks at the clock in a timed search: some 50 microseconds.
const CLOCK_EVERY: u64 = 4096;

/// The deepest remaining depth with its own killer slots; deeper nodes share the last.
const KILLER_DEPTHS: usize = 64;

/// Ordering keys, lowest first: the table move, then the killers, then the rest.
const TABLE_MOVE_KEY: i32 = i32::MIN;
const KILLER_KEY: i32 = i32::MIN + 1;

/// What a fastest-first key weighs: each opponent reply after the move costs
/// `REPLY_WEIGHT`, a corner is worth `CORNER_BONUS` replies less and an X- or
/// C-square next to an empty corner `DANGER_PENALTY` replies more; history breaks
/// the remaining ties (capped below one reply).
const REPLY_WEIGHT: i32 = 1 << 12;
const CORNER_BONUS: i32 = 3 * REPLY_WEIGHT;
const DANGER_PENALTY: i32 = REPLY_WEIGHT;

/// What a move at `index` flipping `flips` adds to the mover's square-weight
/// evaluation `eval` (with `weights`): its square, and each flipped disc twice (it
/// changes sides), summed without a branch per disc (`Evaluator::weight_sum`).
#[inline]
fn gain<G: Geometry, E: Evaluator<G>>(
    eval: &E,
    weights: &[i32],
    index: u32,
    flips: G::Bits,
) -> i32 {
    weights[index as usize] + 2 * eval.weight_sum(flips)
}

/// One move of a node's list: its ordering key, its square and the position after it.
#[derive(Clone, Copy)]
struct Item<G: Geometry> {
    key: i32,
    square: Square,
    child: Board<G>,
    /// The child's legal moves, counted for the ordering (the child's search then
    /// need not generate them again).
    replies: G::Bits,
}

/// One move's search: the player, its memory, node counts and the move-ordering
/// statistics, all reset per move so that a move depends on its position alone.
pub(super) struct Search<'a, G: Geometry, E: Evaluator<G>> {
    player: &'a AlphaBeta<G, E>,
    /// The player's table, when it uses one.
    table: Option<&'a mut TranspositionTable<G>>,
    /// Nodes visited so far (interior nodes, leaves and passes alike).
    pub nodes: u64,
    /// Nodes after which the search looks at its limits: the node budget, or the next
    /// look at the clock (see [`limit`](Self::limit)).
    budget: u64,
    /// The node budget.
    nodes_limit: u64,
    /// When to give up, if the move is timed.
    deadline: Option<Instant>,
    /// The memory's flag for an answer no longer wanted (read with the clock).
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Whether the budget ran out: every value since is meaningless.
    pub aborted: bool,
    /// Multi-ProbCut's lines and confidence, while cuts may be tried (not inside
    /// the shallow search of a cut).
    probcut: Option<(&'static Table, f32)>,
    /// History heuristic: how often (weighted by depth squared) each square caused
    /// a cut-off during this move's search.
    history: [u32; 128],
    /// Killer moves by remaining depth, most recent first.
    killers: [[Option<Square>; KILLERS]; KILLER_DEPTHS],
    /// The squares next to a corner (X- and C-squares), computed once.
    near_corners: G::Bits,
    /// Under square weights, the other squares of positive weight: tried before
    /// the rest one ply above the horizon, where a move's weight is most of its value.
    good: G::Bits,
}

impl<'a, G: Geometry, E: Evaluator<G>> Search<'a, G, E> {
    /// A fresh search (no budget) for `player` with `memory`.
    pub fn new(player: &'a AlphaBeta<G, E>, memory: &'a mut Memory<G>) -> Self {
        let cancel = memory.cancel.clone();
        let table = player
            .table
            .then(|| TranspositionTable::kept(memory, player.table_bits));
        let near_corners = neighbours::<G>(G::CORNERS);
        let mut good = G::Bits::ZERO;
        if let Some(weights) = player.eval.square_weights() {
            for (index, &weight) in weights.iter().enumerate() {
                if weight > 0 {
                    good |= G::Bits::bit(index as u32);
                }
            }
        }
        let good = good & !G::CORNERS & !near_corners;
        Search {
            player,
            table,
            nodes: 0,
            budget: u64::MAX,
            nodes_limit: u64::MAX,
            deadline: None,
            cancel,
            aborted: false,
            probcut: player.probcut.map(|t| (Table::shipped(), t)),
            history: [0; 128],
            killers: [[None; KILLERS]; KILLER_DEPTHS],
            near_corners,
            good,
        }
    }

    /// From now on, stop after `nodes` nodes in all or at `deadline`.
    pub fn limit(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.nodes_limit = nodes.unwrap_or(u64::MAX);
        self.deadline = deadline;
        self.budget = self.next_look();
    }

    /// The node count of the next look at the limits: the budget, or sooner where
    /// there is a clock to read (reading it at every node would cost a tenth of a search).
    fn next_look(&self) -> u64 {
        if self.deadline.is_some() || self.cancel.is_some() {
            self.nodes.saturating_add(CLOCK_EVERY).min(self.nodes_limit)
        } else {
            self.nodes_limit
        }
    }

    /// Past `budget`: whether a limit is reached (then the search is `aborted`).
    #[cold]
    fn out_of_budget(&mut self) -> bool {
        let late = self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
        if late || self.nodes > self.nodes_limit {
            self.aborted = true;
        } else {
            self.budget = self.next_look();
        }
        self.aborted
    }

    /// The nodes searched, for the memory's count (once, when the move is chosen).
    pub fn finish(self) -> u64 {
        self.nodes
    }

    /// The table: only asked for where `table` is on.
    #[inline]
    fn table(&mut self) -> &mut TranspositionTable<G> {
        self.table
            .as_deref_mut()
            .expect("a search with table = true has its table")
    }

    /// The killers stored for `depth`.
    fn killers(&self, depth: u32) -> [Option<Square>; KILLERS] {
        self.killers[(depth as usize).min(KILLER_DEPTHS - 1)]
    }

    /// Notes that `square` caused a cut-off at remaining `depth`.
    fn cut_off(&mut self, square: Square, depth: u32) {
        self.history[square.index() as usize] += depth * depth;
        self.killer(square, depth);
    }

    /// Makes `square` the first killer of remaining `depth`.
    fn killer(&mut self, square: Square, depth: u32) {
        let slots = &mut self.killers[(depth as usize).min(KILLER_DEPTHS - 1)];
        if slots[0] != Some(square) {
            slots[1] = slots[0];
            slots[0] = Some(square);
        }
    }

    /// The value of `board` for its side to move, searched `depth` plies deep within
    /// (`alpha`, `beta`): exact inside the window, a bound outside it (fail-soft).
    pub fn value(&mut self, board: Board<G>, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.value_with(board, None, None, depth, alpha, beta)
    }

    /// [`value`](Self::value) of a position whose legal moves may be known already,
    /// and under square weights its evaluation (derived from the parent's).
    fn value_with(
        &mut self,
        board: Board<G>,
        known: Option<G::Bits>,
        eval: Option<i32>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget && self.out_of_budget() {
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
        let moves = known.unwrap_or_else(|| board.moves());
        if moves.is_empty() {
            let passed = board.pass();
            if !passed.can_move() {
                return terminal_value(self.player.rules, board);
            }
            // A square-weight evaluation changes sign with the side to move.
            return -self.value_with(passed, None, eval.map(|e| -e), depth, -beta, -alpha);
        }
        if depth == 1 && self.player.ordering {
            let player = self.player;
            if let Some(weights) = player.eval.square_weights() {
                let here = eval.unwrap_or_else(|| player.eval.evaluate(board));
                return self.value_by_weights(board, moves, weights, here, beta);
            }
        }
        let alpha_in = alpha;
        let mut table_move = None;
        let use_table = self.player.table && depth >= TABLE_MIN_DEPTH;
        if use_table {
            if let Some(entry) = self.table().probe(board) {
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
        if depth >= probcut::MIN_DEPTH && self.probcut.is_some() {
            if let Some(value) = self.probcut(board, moves, depth, alpha, beta) {
                return value;
            }
        }
        if !(self.player.ordering && depth >= MOBILITY_MIN_DEPTH) {
            return self.value_in_groups(board, moves, table_move, depth, alpha, beta);
        }
        // A small stack buffer covers every 8x8 position (at most 33 legal moves
        // are known); larger boards may need the heap.
        let mut small = [Item {
            key: 0,
            square: Square::new(0),
            child: board,
            replies: G::Bits::ZERO,
        }; 40];
        let mut large = Vec::new();
        let item = |index| {
            let square = Square::new(index);
            let child = board.play(square);
            Item {
                key: 0,
                square,
                child,
                replies: child.moves(),
            }
        };
        let list: &mut [Item<G>] = if moves.count() as usize <= small.len() {
            let mut count = 0;
            for index in Indices(moves) {
                small[count] = item(index);
                count += 1;
            }
            &mut small[..count]
        } else {
            large.extend(Indices(moves).map(item));
            &mut large
        };
        // Enhanced transposition cut-off where the children are known anyway: one
        // child proven good enough for a cut-off saves the search of them all.
        if use_table {
            if let Some((value, square)) = self.transposition_cut_off(list, depth, beta) {
                self.store(board, depth, alpha_in, beta, value, Some(square));
                return value;
            }
        }
        self.order(board, list, depth, table_move);
        let mut best = i32::MIN;
        let mut best_move = None;
        for position in 0..list.len() {
            // Selection instead of a full sort: a cut-off usually comes early, and
            // then the rest never needs ordering. Ties keep square order.
            let mut pick = position;
            for other in position + 1..list.len() {
                if (list[other].key, list[other].square) < (list[pick].key, list[pick].square) {
                    pick = other;
                }
            }
            list.swap(position, pick);
            let Item {
                square,
                child,
                replies,
                ..
            } = list[position];
            // Principal variation search: after the first move, prove with a null
            // window that a move is no better, and search again only if it is.
            let value = if position == 0 || i64::from(beta) - i64::from(alpha) <= 1 {
                -self.value_with(child, Some(replies), None, depth - 1, -beta, -alpha)
            } else {
                let probe =
                    -self.value_with(child, Some(replies), None, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.value_with(child, Some(replies), None, depth - 1, -beta, -probe)
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
                        self.cut_off(square, depth);
                        break;
                    }
                }
            }
        }
        self.store(board, depth, alpha_in, beta, best, best_move);
        best
    }

    /// Multi-ProbCut: a bound the shallow search predicts with the player's
    /// confidence, when its value lies far enough outside (`alpha`, `beta`). The
    /// shallow search itself cuts nothing, and windows at a proven result (a won or
    /// lost game) are never cut: a selective search still proves its endgames.
    fn probcut(
        &mut self,
        board: Board<G>,
        moves: G::Bits,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let (table, t) = self.probcut?;
        let cut = table.cut(board.empty_count(), depth)?;
        let (low, high) = cut.bounds(t, alpha, beta);
        let in_range = |v: i32| -EVAL_LIMIT < v && v < EVAL_LIMIT;
        self.probcut = None;
        let mut found = None;
        if in_range(beta) && in_range(high) {
            let value = self.value_with(board, Some(moves), None, cut.shallow, high - 1, high);
            if value >= high {
                found = Some(beta);
            }
        }
        if found.is_none() && !self.aborted && in_range(alpha) && in_range(low) {
            let value = self.value_with(board, Some(moves), None, cut.shallow, low, low + 1);
            if value <= low {
                found = Some(alpha);
            }
        }
        self.probcut = Some((table, t));
        if self.aborted {
            return Some(0);
        }
        found
    }

    /// The plain loop, with no list to build: square order without ordering; with
    /// it (just above the leaves, where a list costs more than it saves) the killers
    /// first, then corners, then squares not next to a corner, then X- and C-squares.
    fn value_in_groups(
        &mut self,
        board: Board<G>,
        moves: G::Bits,
        table_move: Option<Square>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let alpha_in = alpha;
        let mut best = i32::MIN;
        let mut best_move = None;
        // Two plies above the horizon under square weights, the children's
        // evaluations come from this node's and the flips (one evaluation here
        // instead of one per child).
        let player = self.player;
        let weighted = (self.player.ordering && depth == 2)
            .then(|| player.eval.square_weights())
            .flatten()
            .map(|weights| (weights, player.eval.evaluate(board)));
        let first = table_move.map_or(G::Bits::ZERO, |s| G::Bits::bit(s.index()));
        let rest = moves & !first;
        let groups = if self.player.ordering {
            let mut killers = G::Bits::ZERO;
            for square in self.killers(depth).into_iter().flatten() {
                killers |= G::Bits::bit(square.index());
            }
            let killers = killers & rest;
            let rest = rest & !killers;
            [
                first,
                killers,
                rest & G::CORNERS,
                rest & !G::CORNERS & !self.near_corners,
                rest & self.near_corners,
            ]
        } else {
            [first, rest, G::Bits::ZERO, G::Bits::ZERO, G::Bits::ZERO]
        };
        'groups: for group in groups {
            for index in Indices(group) {
                let square = Square::new(index);
                let flips = board.flips(square);
                let child = board.play_flips(square, flips);
                let eval = weighted
                    .map(|(weights, here)| -(here + gain(&player.eval, weights, index, flips)));
                let value = if best == i32::MIN
                    || !self.player.ordering
                    || depth < PVS_MIN_DEPTH
                    || i64::from(beta) - i64::from(alpha) <= 1
                {
                    -self.value_with(child, None, eval, depth - 1, -beta, -alpha)
                } else {
                    // Principal variation search, as in the ordered loop.
                    let probe = -self.value_with(child, None, eval, depth - 1, -alpha - 1, -alpha);
                    if probe > alpha && probe < beta && !self.aborted {
                        -self.value_with(child, None, eval, depth - 1, -beta, -probe)
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
                            self.cut_off(square, depth);
                            break 'groups;
                        }
                    }
                }
            }
        }
        self.store(board, depth, alpha_in, beta, best, best_move);
        best
    }

    /// A node one ply above the horizon under an evaluation that sums square
    /// weights: each child's value is this node's evaluation `here` plus the
    /// move's [`gain`], without making or evaluating the child (each counts as a
    /// node all the same). The values are those of evaluating every child (a
    /// finished game still scores as one).
    fn value_by_weights(
        &mut self,
        board: Board<G>,
        moves: G::Bits,
        weights: &[i32],
        here: i32,
        beta: i32,
    ) -> i32 {
        let last_empty = board.empty_count() == 1;
        let mut best = i32::MIN;
        // The killers of the horizon first: a reply that refuted a sibling (a
        // corner, a wall) often refutes this position too.
        let mut killers = G::Bits::ZERO;
        for square in self.killers(1).into_iter().flatten() {
            killers |= G::Bits::bit(square.index());
        }
        let killers = killers & moves;
        let rest = moves & !killers;
        let groups = [
            killers,
            rest & G::CORNERS,
            rest & self.good,
            rest & !G::CORNERS & !self.near_corners & !self.good,
            rest & self.near_corners,
        ];
        for group in groups {
            for index in Indices(group) {
                self.nodes += 1;
                if self.nodes > self.budget && self.out_of_budget() {
                    return 0;
                }
                let flips = board.flips(Square::new(index));
                let value = if last_empty || flips == board.opponent {
                    -terminal_value(
                        self.player.rules,
                        board.play_flips(Square::new(index), flips),
                    )
                } else {
                    here + gain(&self.player.eval, weights, index, flips)
                };
                // A maximum without a branch; only the cut-off branches.
                best = best.max(value);
                if best >= beta {
                    self.killer(Square::new(index), 1);
                    return best;
                }
            }
        }
        best
    }

    /// Enhanced transposition cut-off: a child whose stored value (at least as deep
    /// as needed) already proves a value of at least `beta` here.
    fn transposition_cut_off(
        &mut self,
        list: &[Item<G>],
        depth: u32,
        beta: i32,
    ) -> Option<(i32, Square)> {
        let table = self.table();
        list.iter().find_map(|item| {
            let entry = table.probe(item.child)?;
            // The child's value is at most entry.value (an upper bound or exact),
            // so this node's is at least its negation.
            let bounds_child_above = matches!(entry.bound, Bound::Upper | Bound::Exact);
            (u32::from(entry.depth) + 1 >= depth && bounds_child_above && -entry.value >= beta)
                .then_some((-entry.value, item.square))
        })
    }

    /// Gives every move of `list` its ordering key (lowest is searched first): the
    /// table move, the killers, then fastest first (the fewer replies the opponent
    /// has, the sooner a cut-off or a good alpha tends to come) with a bonus for
    /// corners and a penalty for squares next to an empty corner, then history.
    fn order(&self, board: Board<G>, list: &mut [Item<G>], depth: u32, table_move: Option<Square>) {
        let killers = self.killers(depth);
        let danger = neighbours::<G>(G::CORNERS & board.empty()) & self.near_corners;
        for item in list.iter_mut() {
            let square = item.square;
            let bit = G::Bits::bit(square.index());
            let replies = item.replies;
            item.key = if table_move == Some(square) {
                TABLE_MOVE_KEY
            } else if let Some(slot) = killers.iter().position(|&k| k == Some(square)) {
                KILLER_KEY + slot as i32
            } else {
                let history =
                    self.history[square.index() as usize].min(REPLY_WEIGHT as u32 - 1) as i32;
                let mut key = replies.count() as i32 * REPLY_WEIGHT - history;
                if !(bit & G::CORNERS).is_empty() {
                    key -= CORNER_BONUS;
                } else if !(bit & danger).is_empty() {
                    key += DANGER_PENALTY;
                }
                key
            };
        }
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
            self.table()
                .store(board, best, stored_depth, bound, best_move);
        }
    }

    /// Searches every root move to `depth` in the order given; returns the best
    /// value and every move that reaches it (ties found exactly), and leaves each
    /// move's value (or bound) in `order` for the next iteration's ordering. The
    /// first move is searched within `window` (an aspiration window around the
    /// previous iteration's value), and again with that side open if it falls outside.
    pub fn root(
        &mut self,
        board: Board<G>,
        depth: u32,
        order: &mut [(i32, u32)],
        window: (i32, i32),
    ) -> Option<(i32, G::Bits)> {
        let mut best = i32::MIN;
        let mut ties = G::Bits::ZERO;
        for item in order.iter_mut() {
            let index = item.1;
            let child = board.play(Square::new(index));
            let value = if best == i32::MIN {
                let (low, high) = window;
                let value = -self.value(child, depth - 1, -high, -low);
                if self.aborted {
                    return None;
                }
                if value <= low {
                    -self.value(child, depth - 1, -high, i32::MAX)
                } else if value >= high {
                    -self.value(child, depth - 1, -i32::MAX, -low)
                } else {
                    value
                }
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
