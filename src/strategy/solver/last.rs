//! The solver's last plies: parity-ordered moves without a table, and the last
//! 1 to 4 empties played square by square (no move generation; at the very last
//! empty only the flips are counted).

use super::search::{Search, INF};
use crate::board::{Bits, Board, Geometry, Indices, Square};

impl<G: Geometry> Search<'_, '_, G> {
    /// The squares of the quarters with an odd number of empties: moving there
    /// tends to leave the last move of the region to the mover.
    #[inline]
    pub(super) fn odd_regions(&self, empty: G::Bits) -> G::Bits {
        let mut odd = G::Bits::ZERO;
        for quadrant in self.quadrants {
            if (empty & quadrant).count() % 2 == 1 {
                odd |= quadrant;
            }
        }
        odd
    }

    /// A node a few empties from the end: moves into odd regions first, no table.
    pub(super) fn parity_node(
        &mut self,
        board: Board<G>,
        moves: G::Bits,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let odd = self.odd_regions(board.empty());
        let mut best = -INF;
        let mut first = true;
        for index in Indices(moves & odd).chain(Indices(moves & !odd)) {
            let child = board.play(Square::new(index));
            let value = if first {
                first = false;
                -self.value(child, -beta, -alpha)
            } else {
                self.scout(child, alpha, beta)
            };
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The value with `empties` (at most `LAST`) empty squares, tried in
    /// parity order.
    pub(super) fn last(&mut self, board: Board<G>, alpha: i32, beta: i32, empties: u32) -> i32 {
        if empties == 0 {
            self.nodes += 1;
            return self.shared.rules.final_score(board);
        }
        let empty = board.empty();
        let odd = self.odd_regions(empty);
        let mut squares = [0u8; super::search::LAST as usize];
        for (slot, index) in squares
            .iter_mut()
            .zip(Indices(empty & odd).chain(Indices(empty & !odd)))
        {
            *slot = index as u8;
        }
        self.last_n(board, alpha, beta, &squares[..empties as usize], false)
    }

    fn last_n(
        &mut self,
        board: Board<G>,
        mut alpha: i32,
        beta: i32,
        squares: &[u8],
        passed: bool,
    ) -> i32 {
        if let [index] = *squares {
            return self.last_one(board, u32::from(index));
        }
        self.nodes += 1;
        let mut best = -INF;
        for (i, &index) in squares.iter().enumerate() {
            let flips = G::flips(board.player, board.opponent, u32::from(index));
            if flips.is_empty() {
                continue;
            }
            let child = board.play_flips(Square::new(u32::from(index)), flips);
            let mut rest = [0u8; super::search::LAST as usize];
            let mut len = 0;
            for (j, &other) in squares.iter().enumerate() {
                if j != i {
                    rest[len] = other;
                    len += 1;
                }
            }
            let value = -self.last_n(child, -beta, -alpha, &rest[..len], false);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        if best == -INF {
            if passed {
                return self.shared.rules.final_score(board);
            }
            return -self.last_n(board.pass(), -beta, -alpha, squares, true);
        }
        best
    }

    /// The final score with one empty square: whoever can play it does; only
    /// the flips are counted, no board is built.
    #[inline]
    fn last_one(&mut self, board: Board<G>, index: u32) -> i32 {
        self.nodes += 1;
        let rules = self.shared.rules;
        let own = board.player.count() as i32;
        let other = board.opponent.count() as i32;
        let flips = G::flips(board.player, board.opponent, index).count() as i32;
        if flips > 0 {
            return rules.score_of_counts(own + flips + 1, other - flips, 0);
        }
        let flips = G::flips(board.opponent, board.player, index).count() as i32;
        if flips > 0 {
            return rules.score_of_counts(own - flips, other + flips + 1, 0);
        }
        rules.score_of_counts(own, other, 1)
    }
}
