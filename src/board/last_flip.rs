//! 8x8 tables for the solver's last plies: how many discs a move into the last empty
//! square flips, read from its four lines, and each square's neighbours.
//!
//! With one empty square every other square is someone's, so a line is fully
//! described by the mover's discs on it: gathered into one byte (the row by a
//! shift, the column and the two diagonals by a multiplication that carries no
//! bit into another), the flips along the line are a table lookup.

/// `COUNTS[k][line]`: discs flipped along a line of 8 by a move at position `k`
/// when the mover holds the positions set in `line` and the opponent all others.
/// A line shorter than 8 (a diagonal) reads as opponent discs past its ends,
/// which no mover's disc closes, so they never count.
static COUNTS: [[u8; 256]; 8] = counts();

const fn counts() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut k = 0;
    while k < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Upwards: a run of opponent positions closed by a mover's.
            let mut j = k + 1;
            while j < 8 && line & (1 << j) == 0 {
                j += 1;
            }
            if j < 8 {
                total += j - k - 1;
            }
            // Downwards.
            let mut j = k as i32 - 1;
            while j >= 0 && line & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                total += k - j as usize - 1;
            }
            table[k][line] = total as u8;
            line += 1;
        }
        k += 1;
    }
    table
}

/// The squares on each square's two diagonals: `[a1-h8 direction, a8-h1 direction]`.
static DIAGONALS: [[u64; 2]; 64] = diagonals();

const fn diagonals() -> [[u64; 2]; 64] {
    let mut table = [[0u64; 2]; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = ((square / 8) as i32, (square % 8) as i32);
        let mut other: usize = 0;
        while other < 64 {
            let (r, c) = ((other / 8) as i32, (other % 8) as i32);
            if c - r == col - row {
                table[square][0] |= 1 << other;
            }
            if c + r == col + row {
                table[square][1] |= 1 << other;
            }
            other += 1;
        }
        square += 1;
    }
    table
}

/// Each square's neighbours in the 8 directions.
static NEIGHBOURS: [u64; 64] = neighbour_table();

const fn neighbour_table() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = ((square / 8) as i32, (square % 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (r, c) = ((other / 8) as i32, (other % 8) as i32);
            if other != square && (r - row).abs() <= 1 && (c - col).abs() <= 1 {
                table[square] |= 1 << other;
            }
            other += 1;
        }
        square += 1;
    }
    table
}

/// The squares next to `square` on 8x8: a move there flips nothing unless one of
/// them holds an opponent's disc.
#[inline(always)]
#[must_use]
pub fn neighbours_8x8(square: u32) -> u64 {
    NEIGHBOURS[square as usize]
}

/// The discs a move at `square` flips on an 8x8 board whose only empty square it
/// is, for the side holding `player` (the other side holds every other square).
#[inline(always)]
#[must_use]
pub fn last_flip_count(player: u64, square: u32) -> u32 {
    // Gathers the bits of one column or diagonal into the top byte, indexed by
    // column (a diagonal) or by row (a column): no two products share a bit.
    const GATHER: u64 = 0x0101_0101_0101_0101;
    const GATHER_COLUMN: u64 = 0x0102_0408_1020_4080;
    let (row, col) = ((square / 8) as usize, (square % 8) as usize);
    let [diagonal, anti] = DIAGONALS[square as usize];
    let horizontal = (player >> (8 * row)) as u8;
    let vertical = (((player >> col) & GATHER).wrapping_mul(GATHER_COLUMN) >> 56) as u8;
    let diagonal = ((player & diagonal).wrapping_mul(GATHER) >> 56) as u8;
    let anti = ((player & anti).wrapping_mul(GATHER) >> 56) as u8;
    u32::from(COUNTS[col][usize::from(horizontal)])
        + u32::from(COUNTS[row][usize::from(vertical)])
        + u32::from(COUNTS[col][usize::from(diagonal)])
        + u32::from(COUNTS[col][usize::from(anti)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{neighbours, portable_flips, Bits, Size8};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn counts_equal_the_flips_on_every_square_of_random_full_boards() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..5_000 {
            // Sparse, even and dense: long runs of either colour.
            let (a, b): (u64, u64) = (rng.gen(), rng.gen());
            for discs in [a & b, a, a | b] {
                for square in 0..64 {
                    let player = discs & !(1 << square);
                    let opponent = !discs & !(1 << square);
                    for (mover, other) in [(player, opponent), (opponent, player)] {
                        let flips = portable_flips::<Size8>(mover, other, square);
                        assert_eq!(
                            last_flip_count(mover, square),
                            flips.count(),
                            "{discs:#x} at {square}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn neighbours_are_those_of_the_line_shifts() {
        for square in 0..64 {
            assert_eq!(
                neighbours_8x8(square),
                neighbours::<Size8>(u64::bit(square))
            );
        }
    }
}
