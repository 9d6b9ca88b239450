//! The yardstick for the project's perft (issue 14): a plain scalar 8x8 bitboard
//! perft as anyone would first write it, sharing no code with the library.
//!
//! Moves come from the classic shift-and-mask fill in 8 directions, flips from a
//! walk along each direction from the move square. The loop keeps the library's
//! convention (see `src/perft.rs`): a pass is a ply, a finished game is one leaf
//! at every depth past its end, and the last ply is bulk-counted.

const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const ALL: u64 = u64::MAX;

/// One step in a direction: a shift by `SHIFT` (positive: towards higher squares),
/// then `MASK` drops the squares that wrapped around a row edge. Constant
/// parameters, so each of the 8 directions compiles to straight-line code (a loop
/// over a table of directions measured 1.5x the instructions).
#[inline(always)]
const fn step<const SHIFT: i32, const MASK: u64>(bits: u64) -> u64 {
    let moved = if SHIFT > 0 {
        bits << SHIFT
    } else {
        bits >> -SHIFT
    };
    moved & MASK
}

/// Moves in one direction: runs of opponent discs (at most 6) from a player disc,
/// followed by an empty square.
#[inline(always)]
const fn direction_moves<const SHIFT: i32, const MASK: u64>(
    player: u64,
    opponent: u64,
    empty: u64,
) -> u64 {
    let mut run = step::<SHIFT, MASK>(player) & opponent;
    run |= step::<SHIFT, MASK>(run) & opponent;
    run |= step::<SHIFT, MASK>(run) & opponent;
    run |= step::<SHIFT, MASK>(run) & opponent;
    run |= step::<SHIFT, MASK>(run) & opponent;
    run |= step::<SHIFT, MASK>(run) & opponent;
    step::<SHIFT, MASK>(run) & empty
}

/// Legal moves of `player`.
#[inline(always)]
fn moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    direction_moves::<1, NOT_A>(player, opponent, empty)
        | direction_moves::<-1, NOT_H>(player, opponent, empty)
        | direction_moves::<8, ALL>(player, opponent, empty)
        | direction_moves::<-8, ALL>(player, opponent, empty)
        | direction_moves::<9, NOT_A>(player, opponent, empty)
        | direction_moves::<-9, NOT_H>(player, opponent, empty)
        | direction_moves::<7, NOT_H>(player, opponent, empty)
        | direction_moves::<-7, NOT_A>(player, opponent, empty)
}

/// Flips in one direction: walk over opponent discs from the placed disc, and
/// keep the run if a player disc ends it.
#[inline(always)]
fn direction_flips<const SHIFT: i32, const MASK: u64>(
    player: u64,
    opponent: u64,
    placed: u64,
) -> u64 {
    let mut run = 0;
    let mut next = step::<SHIFT, MASK>(placed);
    while next & opponent != 0 {
        run |= next;
        next = step::<SHIFT, MASK>(next);
    }
    if next & player != 0 {
        run
    } else {
        0
    }
}

/// The discs a move at `square` flips.
#[inline(always)]
fn flips(player: u64, opponent: u64, square: u32) -> u64 {
    let placed = 1u64 << square;
    direction_flips::<1, NOT_A>(player, opponent, placed)
        | direction_flips::<-1, NOT_H>(player, opponent, placed)
        | direction_flips::<8, ALL>(player, opponent, placed)
        | direction_flips::<-8, ALL>(player, opponent, placed)
        | direction_flips::<9, NOT_A>(player, opponent, placed)
        | direction_flips::<-9, NOT_H>(player, opponent, placed)
        | direction_flips::<7, NOT_H>(player, opponent, placed)
        | direction_flips::<-7, NOT_A>(player, opponent, placed)
}

/// Leaves of the game tree `depth` plies below the position (`player` to move).
pub fn perft(player: u64, opponent: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut remaining = moves(player, opponent);
    if remaining == 0 {
        if moves(opponent, player) == 0 {
            return 1;
        }
        return perft(opponent, player, depth - 1);
    }
    if depth == 1 {
        return u64::from(remaining.count_ones());
    }
    let mut leaves = 0;
    while remaining != 0 {
        let square = remaining.trailing_zeros();
        remaining &= remaining - 1;
        let flipped = flips(player, opponent, square);
        leaves += perft(
            opponent ^ flipped,
            player ^ flipped ^ (1u64 << square),
            depth - 1,
        );
    }
    leaves
}

/// The 8x8 start, black to move: black on e4 and d5, white on d4 and e5.
pub const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
