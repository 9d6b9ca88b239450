//! The solver's guide: a heuristic search of the pattern evaluation before the exact
//! one, which leaves a best move in the table for the positions near the root (and no
//! bound, so no exact value ever depends on it), for the exact search to try first.

use super::search::{Search, INF};
use super::table::Bounds;
use crate::board::{Bits, Board, Geometry, Indices, Square};
use crate::strategy::pattern::{Weights, SCALE};

/// Empties from which the guide stores a best move, and so from which a solve is
/// guided: below, the exact search's own ordering did better. Chosen by nodes on one
/// thread over FFO #40-#44 and #45 (storing from 16, 18, 19, 20, 21, 22 and 24
/// empties): from 20, 94.9 M and 332.6 M nodes against 168.9 M and 447.7 M unguided.
const GUIDE_MIN: u32 = 20;
/// Empties at which the guide's search stops and evaluates: it searches from the root
/// down to positions of this many empties, iteratively deepened. 12 beat 10, 11, 13,
/// 14 and 16 (10 and 11 spend more on the guide than it saves).
const GUIDE_LEAF: u32 = 12;
/// The guide's deepest search: its cost about doubles a ply, while what it stores
/// stays near the root (FFO #49: 1.7 M nodes at depth 12, 6.9 M at 14, and within
/// 0.1% the same nodes for the exact search after either).
const GUIDE_DEPTH_MAX: u32 = 12;

impl<G: Geometry> Search<'_, '_, G> {
    /// Searches `board` with the pattern evaluation at depths 1, 2, ... until the
    /// leaves reach `GUIDE_LEAF` empties (or `GUIDE_DEPTH_MAX`), storing the best move
    /// of each position of at least `GUIDE_MIN` empties (with bounds that say
    /// nothing) for the exact search. Only on 8x8 under the standard rules, where the
    /// solver orders by patterns at all, and with the shipped (strongest) weights.
    pub(super) fn guide(&mut self, board: Board<G>) {
        let Some(eval) = self.eval.map(|_| Weights::shipped()) else {
            return;
        };
        let empties = board.empty_count();
        if empties < GUIDE_MIN {
            return;
        }
        for depth in 1..=(empties - GUIDE_LEAF).min(GUIDE_DEPTH_MAX) {
            self.guide_node(eval, board, depth, -INF * SCALE, INF * SCALE);
            if self.halted() {
                return;
            }
        }
    }

    /// A fail-soft alpha-beta node of the guide: the table's move first, then the
    /// others by the evaluation of the position after them.
    fn guide_node(
        &mut self,
        eval: &Weights,
        board: Board<G>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth <= 1 {
            // Nothing is stored this near the leaves: the plain search does.
            return self.estimate(eval, board, depth, alpha, beta);
        }
        if self.stopped() {
            return 0;
        }
        self.nodes += 1;
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if !passed.can_move() {
                return self.shared.rules.final_score(board) * SCALE;
            }
            return -self.guide_node(eval, passed, depth, -beta, -alpha);
        }
        let empties = board.empty_count();
        let table = self.shared.table;
        let hint = table
            .probe(board)
            .and_then(|bounds| bounds.best)
            .filter(|square| moves.has(square.index()));
        // The moves by the evaluation after them (a move list of at most 32 on 8x8).
        let mut keys = [0i32; 64];
        let mut squares = [0u8; 64];
        let mut len = 0;
        for index in Indices(moves) {
            let key = if hint.is_some_and(|h| h.index() == index) {
                i32::MAX
            } else {
                -eval
                    .evaluate_board(board.play(Square::new(index)))
                    .unwrap_or(0)
            };
            let mut at = len;
            while at > 0 && keys[at - 1] < key {
                keys[at] = keys[at - 1];
                squares[at] = squares[at - 1];
                at -= 1;
            }
            keys[at] = key;
            squares[at] = index as u8;
            len += 1;
        }
        let mut best = -INF * SCALE;
        let mut best_move = None;
        for &index in &squares[..len] {
            let square = Square::new(u32::from(index));
            let value = -self.guide_node(eval, board.play(square), depth - 1, -beta, -alpha);
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
        if empties >= GUIDE_MIN && !self.halted() {
            let nothing = Bounds {
                lower: -INF,
                upper: INF,
                best: best_move,
            };
            table.store(board, empties, nothing);
        }
        best
    }
}
