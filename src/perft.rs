//! perft: counting the leaves of the game tree, the standard check of a move generator.
//!
//! Convention (the one behind the public 8x8 reference counts): a pass counts as a
//! ply, and a finished game counts as one leaf at every depth past its end. From
//! the 8x8 start, depths 1..=13 give 4, 12, 56, 244, 1396, 8200, 55092, 390216,
//! 3005288, 24571284, 212258800, 1939886636, 18429641748.

use crate::board::{Bits, Board, Geometry, Indices, Square};
use rayon::prelude::*;

/// Leaves of the game tree `depth` plies below `board`.
#[must_use]
pub fn perft<G: Geometry>(board: Board<G>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves.is_empty() {
        let passed = board.pass();
        if !passed.can_move() {
            return 1; // game over: one leaf at every depth past the end
        }
        return perft(passed, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count()); // bulk counting at the frontier
    }
    Indices(moves)
        .map(|index| perft(board.play_portable(Square::new(index)), depth - 1))
        .sum()
}

/// [`perft`] with the root's subtrees shared among rayon's threads. Worth it
/// only for deep counts; the sum is the same whatever the thread count.
#[must_use]
pub fn perft_parallel<G: Geometry>(board: Board<G>, depth: u32) -> u64 {
    // Split two plies deep so 2 cores get about a dozen tasks to balance.
    if depth < 6 {
        return perft(board, depth);
    }
    let mut frontier = vec![board];
    for _ in 0..2 {
        let mut next = Vec::new();
        for b in frontier {
            let moves = b.moves();
            if moves.is_empty() {
                next.push(b.pass());
            } else {
                next.extend(Indices(moves).map(|i| b.play(Square::new(i))));
            }
        }
        frontier = next;
    }
    // A finished game in the first two plies still yields one frontier entry
    // (passed, possibly twice) and so exactly one leaf, as in `perft`.
    frontier.par_iter().map(|&b| perft(b, depth - 2)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size10, Size4, Size6, Size8};

    /// Source: Aart Bik's published 8x8 perft counts (also produced by Egaroucid).
    const START_8X8: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

    #[test]
    fn start_counts_8x8() {
        for (depth, &expected) in START_8X8.iter().enumerate() {
            assert_eq!(perft(Board::<Size8>::start(), depth as u32 + 1), expected);
        }
    }

    #[test]
    fn parallel_matches_serial() {
        let start = Board::<Size8>::start();
        assert_eq!(perft_parallel(start, 8), perft(start, 8));
        let start = Board::<Size6>::start();
        assert_eq!(perft_parallel(start, 9), perft(start, 9));
    }

    #[test]
    fn small_and_large_boards() {
        // 4x4 has a tiny tree: the whole game ends within 12 plies (plus passes).
        let start4 = Board::<Size4>::start();
        assert_eq!(perft(start4, 1), 4);
        assert_eq!(perft(start4, 2), 12);
        assert_eq!(perft(Board::<Size6>::start(), 1), 4);
        assert_eq!(perft(Board::<Size6>::start(), 2), 12);
        assert_eq!(perft(Board::<Size10>::start(), 1), 4);
        assert_eq!(perft(Board::<Size10>::start(), 2), 12);
    }
}
