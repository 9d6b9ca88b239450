//! The solver's last plies: parity-ordered moves without a table, and the last
//! 1 to 5 empties played square by square (no move generation; at the very last
//! empty only the flips are counted, from tables on 8x8).

use super::search::{Search, INF, LAST};
use crate::board::{last_flip_count, neighbours_8x8, Bits, Board, Geometry, Indices, Square};

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

    /// `squares` split into the order they are tried in a few empties from the
    /// end: squares in odd regions first, and within each parity by kind of
    /// square (see [`crate::board::square_kinds`]).
    #[inline(always)]
    fn tiers(&self, squares: G::Bits, odd: G::Bits) -> [G::Bits; 8] {
        let [a, b, c, d] = self.kinds;
        let (odd, even) = (squares & odd, squares & !odd);
        [
            odd & a,
            odd & b,
            odd & c,
            odd & d,
            even & a,
            even & b,
            even & c,
            even & d,
        ]
    }

    /// A node a few empties from the end: moves into odd regions first, then by
    /// kind of square; no table.
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
        'tiers: for tier in self.tiers(moves, odd) {
            for index in Indices(tier) {
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
                            break 'tiers;
                        }
                    }
                }
            }
        }
        best
    }

    /// The value with `empties` (at most `LAST`) empty squares, tried in
    /// parity order, then by kind of square.
    pub(super) fn last(&mut self, board: Board<G>, alpha: i32, beta: i32, empties: u32) -> i32 {
        const _: () = assert!(LAST == 5, "one function a count of empties");
        let empty = board.empty();
        let odd = self.odd_regions(empty);
        let mut squares = [0u8; LAST as usize];
        let mut filled = 0;
        for tier in self.tiers(empty, odd) {
            for index in Indices(tier) {
                squares[filled] = index as u8;
                filled += 1;
            }
        }
        let [a, b, c, d, e] = squares;
        match empties {
            0 => {
                self.nodes += 1;
                self.shared.rules.final_score(board)
            }
            1 => self.last_1(board, u32::from(a)),
            2 => self.last_2(board, alpha, beta, [a, b]),
            3 => self.last_3(board, alpha, beta, [a, b, c]),
            4 => self.last_4(board, alpha, beta, [a, b, c, d]),
            _ => self.last_5(board, alpha, beta, [a, b, c, d, e]),
        }
    }

    last_level!(
        /// Five empties left.
        last_5, moves_5, 5, last_4
    );
    last_level!(
        /// Four empties left.
        last_4, moves_4, 4, last_3
    );
    last_level!(
        /// Three empties left.
        last_3, moves_3, 3, last_2
    );
    last_level!(
        /// Two empties left.
        last_2, moves_2, 2, last_1_of
    );

    #[inline(always)]
    fn last_1_of(&mut self, board: Board<G>, _alpha: i32, _beta: i32, square: [u8; 1]) -> i32 {
        self.last_1(board, u32::from(square[0]))
    }

    /// The final score with one empty square: whoever can play it does; only
    /// the flips are counted, no board is built.
    #[inline]
    fn last_1(&mut self, board: Board<G>, index: u32) -> i32 {
        self.nodes += 1;
        let rules = self.shared.rules;
        let own = board.player.count() as i32;
        let other = board.opponent.count() as i32;
        let flips = last_count::<G>(board.player, board.opponent, index);
        if flips > 0 {
            return rules.score_of_counts(own + flips + 1, other - flips, 0);
        }
        let flips = last_count::<G>(board.opponent, board.player, index);
        if flips > 0 {
            return rules.score_of_counts(own - flips, other + flips + 1, 0);
        }
        rules.score_of_counts(own, other, 1)
    }
}

/// Defines `$name`, the value with the `$n` empty `squares` (in the order to try
/// them), and `$moves`, its moves' best value or `None` when the side to move has
/// none: each a function of its own, so that the loops unroll and the square lists
/// stay in registers.
macro_rules! last_level {
    ($(#[$doc:meta])* $name:ident, $moves:ident, $n:literal, $next:ident) => {
        $(#[$doc])*
        fn $name(&mut self, board: Board<G>, alpha: i32, beta: i32, squares: [u8; $n]) -> i32 {
            self.nodes += 1;
            if let Some(value) = self.$moves(board, alpha, beta, squares) {
                return value;
            }
            match self.$moves(board.pass(), -beta, -alpha, squares) {
                Some(value) => -value,
                None => self.shared.rules.final_score(board),
            }
        }

        #[inline(always)]
        fn $moves(
            &mut self,
            board: Board<G>,
            mut alpha: i32,
            beta: i32,
            squares: [u8; $n],
        ) -> Option<i32> {
            let mut best = None;
            for i in 0..$n {
                let index = u32::from(squares[i]);
                if !may_flip::<G>(board.opponent, index) {
                    continue;
                }
                let flips = G::flips(board.player, board.opponent, index);
                if flips.is_empty() {
                    continue;
                }
                let child = board.play_flips(Square::new(index), flips);
                let value = -self.$next(child, -beta, -alpha, without(squares, i));
                if best.is_none_or(|best| value > best) {
                    best = Some(value);
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
    };
}
use last_level;

/// `squares` without its `skip`th, in the same order.
#[inline(always)]
fn without<const N: usize, const M: usize>(squares: [u8; N], skip: usize) -> [u8; M] {
    let mut rest = [0u8; M];
    let mut j = 0;
    for (i, &square) in squares.iter().enumerate() {
        if i != skip {
            rest[j] = square;
            j += 1;
        }
    }
    rest
}

/// Whether a move at `index` may flip anything: on 8x8, only next to an
/// opponent's disc (a table lookup, cheaper than computing no flips).
#[inline(always)]
fn may_flip<G: Geometry>(opponent: G::Bits, index: u32) -> bool {
    G::CELLS != 64 || opponent.to_u128() as u64 & neighbours_8x8(index) != 0
}

/// The discs `mover` flips by playing `index`, the board's last empty square.
#[inline(always)]
fn last_count<G: Geometry>(mover: G::Bits, other: G::Bits, index: u32) -> i32 {
    if G::CELLS == 64 {
        last_flip_count(mover.to_u128() as u64, index) as i32
    } else {
        G::flips(mover, other, index).count() as i32
    }
}
