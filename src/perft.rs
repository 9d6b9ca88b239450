//! perft: counting the leaves of the game tree, the standard check of a move generator.
//!
//! Convention (the one behind the public 8x8 reference counts): a pass counts as a
//! ply, and a finished game counts as one leaf at every depth past its end. From
//! the 8x8 start, depths 1..=13 give 4, 12, 56, 244, 1396, 8200, 55092, 390216,
//! 3005288, 24571284, 212258800, 1939886636, 18429641748.

use crate::board::{Bits, Board, FlipKernel, Flipper, Geometry, Indices, Size8, Square};
use crate::with_flipper;
use rayon::prelude::*;
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Leaves of the game tree `depth` plies below `board`, with the flip kernel
/// [`perft_kernel`] picks for this CPU.
#[must_use]
pub fn perft<G: Geometry>(board: Board<G>, depth: u32) -> u64 {
    perft_with(board, depth, perft_kernel::<G>(depth))
}

/// [`perft`] with a given flip kernel: the same count, at that kernel's speed.
#[must_use]
pub fn perft_with<G: Geometry>(board: Board<G>, depth: u32, kernel: FlipKernel) -> u64 {
    with_flipper!(kernel, F => count::<G, F>(board, depth))
}

/// The recursion, compiled once per kernel so that choosing one costs nothing per node.
fn count<G: Geometry, F: Flipper>(board: Board<G>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves.is_empty() {
        let passed = board.pass();
        if !passed.can_move() {
            return 1; // game over: one leaf at every depth past the end
        }
        return count::<G, F>(passed, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count()); // bulk counting at the frontier
    }
    let child = |index| {
        let flips = F::flips::<G>(board.player, board.opponent, index);
        board.play_flips(Square::new(index), flips)
    };
    if depth == 2 {
        // Most of the work: spelt out rather than recursing, so that the children's
        // move generation is inlined whichever kernel (the compiler inlined the
        // recursion for some kernels only: 1.5x the instructions for the others).
        return Indices(moves).map(|index| frontier(child(index))).sum();
    }
    Indices(moves)
        .map(|index| count::<G, F>(child(index), depth - 1))
        .sum()
}

/// `count(board, 1)`: the legal moves, or one leaf when there are none (after a
/// pass, depth 0; or the game is over).
#[inline(always)]
fn frontier<G: Geometry>(board: Board<G>) -> u64 {
    u64::from(board.moves().count().max(1))
}

/// Choosing takes about 10 ms (27 counts of perft 7: 46 M instructions, where 8x8
/// perft 9 takes 55 M): only deeper counts gain from it.
const MEASURED_FROM_DEPTH: u32 = 10;

/// The flip kernel for a perft of `depth` on `G`: on 8x8, for counts deep enough
/// to gain from it, the fastest kernel on this CPU, measured once per process
/// ([`fastest_kernel`]); for shallower 8x8 counts `carry` (plain u64 code, so no
/// CPU penalises it; 0.64x the portable kernel's instructions); on other sizes the
/// portable one (the kernels differ only on 8x8).
#[must_use]
pub fn perft_kernel<G: Geometry>(depth: u32) -> FlipKernel {
    if G::CELLS != 64 {
        FlipKernel::Portable
    } else if depth >= MEASURED_FROM_DEPTH {
        static FASTEST: OnceLock<FlipKernel> = OnceLock::new();
        *FASTEST.get_or_init(fastest_kernel)
    } else {
        FlipKernel::Carry
    }
}

/// The kernel whose 8x8 perft 7 (55,092 leaves, a fraction of a millisecond) is
/// fastest, each timed several times in turn and judged by its best time, which
/// other processes on the machine can only lengthen. Which kernel wins depends on
/// the CPU: the AVX2 one pays for moving the board into vector registers, which
/// costs more on some processors than others (see docs/performance.md).
#[must_use]
pub fn fastest_kernel() -> FlipKernel {
    const ROUNDS: usize = 9;
    let start = Board::<Size8>::start();
    let mut best = vec![Duration::MAX; FlipKernel::ALL.len()];
    for _ in 0..ROUNDS {
        for (slot, &kernel) in best.iter_mut().zip(FlipKernel::ALL) {
            let started = Instant::now();
            black_box(perft_with(black_box(start), 7, kernel));
            *slot = (*slot).min(started.elapsed());
        }
    }
    let fastest = (0..best.len()).min_by_key(|&i| best[i]).unwrap_or(0);
    FlipKernel::ALL[fastest]
}

/// [`perft`] with the root's subtrees shared among rayon's threads. Worth it
/// only for deep counts; the sum is the same whatever the thread count.
#[must_use]
pub fn perft_parallel<G: Geometry>(board: Board<G>, depth: u32) -> u64 {
    perft_parallel_with(board, depth, perft_kernel::<G>(depth))
}

/// [`perft_parallel`] with a given flip kernel.
#[must_use]
pub fn perft_parallel_with<G: Geometry>(board: Board<G>, depth: u32, kernel: FlipKernel) -> u64 {
    // Split two plies deep so 2 cores get about a dozen tasks to balance.
    if depth < 6 {
        return perft_with(board, depth, kernel);
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
    with_flipper!(kernel, F => frontier.par_iter().map(|&b| count::<G, F>(b, depth - 2)).sum())
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
    fn every_kernel_counts_the_same() {
        for &kernel in FlipKernel::ALL {
            for (depth, &expected) in START_8X8.iter().enumerate().take(8) {
                let depth = depth as u32 + 1;
                assert_eq!(perft_with(Board::<Size8>::start(), depth, kernel), expected);
            }
            assert_eq!(
                perft_parallel_with(Board::<Size8>::start(), 8, kernel),
                START_8X8[7]
            );
            let start6 = Board::<Size6>::start();
            assert_eq!(
                perft_with(start6, 8, kernel),
                perft_with(start6, 8, FlipKernel::Portable)
            );
        }
        assert!(FlipKernel::ALL.contains(&fastest_kernel()));
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
