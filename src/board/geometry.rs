//! Board sizes as types, so each size gets its own monomorphised, constant-folded code.

use super::bits::Bits;
use std::fmt::Debug;
use std::hash::Hash;

/// The supported board sizes, as users type them.
pub const SIZES: [u32; 4] = [4, 6, 8, 10];

/// A board size known at compile time. Squares are numbered row-major from the
/// top-left corner (`a1` = 0, `b1` = 1, ..., `a2` = SIZE).
pub trait Geometry: Copy + Clone + Debug + Default + Eq + Hash + Send + Sync + 'static {
    /// The integer that holds one bit per square.
    type Bits: Bits;
    /// Squares per side.
    const SIZE: u32;
    /// Squares on the board.
    const CELLS: u32 = Self::SIZE * Self::SIZE;
    /// Every square of the board.
    const FULL: Self::Bits;
    /// Every square except those in the first and last columns: horizontal and
    /// diagonal shifts mask with it so that runs never wrap from one row to the next.
    const INNER_COLUMNS: Self::Bits;
    /// Every square except the first column (`a`): the mask after shifting towards higher columns.
    const NOT_FIRST_COLUMN: Self::Bits;
    /// Every square except the last column: the mask after shifting towards lower columns.
    const NOT_LAST_COLUMN: Self::Bits;
    /// The first and last rows.
    const TOP_BOTTOM: Self::Bits;
    /// The first and last columns.
    const LEFT_RIGHT: Self::Bits;
    /// The four corners.
    const CORNERS: Self::Bits;
    /// Every square on the outer ring.
    const EDGES: Self::Bits;

    /// The discs a move at `square` flips (see [`super::Board::flips`]). Sizes
    /// may override the portable version with a faster one.
    #[inline(always)]
    #[must_use]
    fn flips(player: Self::Bits, opponent: Self::Bits, square: u32) -> Self::Bits {
        super::portable_flips::<Self>(player, opponent, square)
    }
}

const fn full_mask(size: u32) -> u128 {
    let cells = size * size;
    if cells == 128 {
        u128::MAX
    } else {
        (1u128 << cells) - 1
    }
}

const fn column_mask(size: u32, column: u32) -> u128 {
    let mut mask = 0u128;
    let mut row = 0;
    while row < size {
        mask |= 1u128 << (row * size + column);
        row += 1;
    }
    mask
}

const fn inner_columns(size: u32) -> u128 {
    full_mask(size) & !column_mask(size, 0) & !column_mask(size, size - 1)
}

const fn corners(size: u32) -> u128 {
    let last = size * size - 1;
    1u128 | (1u128 << (size - 1)) | (1u128 << (last - (size - 1))) | (1u128 << last)
}

const fn edges(size: u32) -> u128 {
    let first_row = (1u128 << size) - 1;
    let last_row = first_row << (size * (size - 1));
    first_row | last_row | column_mask(size, 0) | column_mask(size, size - 1)
}

macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, $bits:ty, $size:expr) => {
        geometry!($(#[$doc])* $name, $bits, $size, {});
    };
    ($(#[$doc:meta])* $name:ident, $bits:ty, $size:expr, { $($extra:item)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Geometry for $name {
            type Bits = $bits;
            const SIZE: u32 = $size;
            const FULL: $bits = full_mask($size) as $bits;
            const INNER_COLUMNS: $bits = inner_columns($size) as $bits;
            const NOT_FIRST_COLUMN: $bits = (full_mask($size) & !column_mask($size, 0)) as $bits;
            const NOT_LAST_COLUMN: $bits = (full_mask($size) & !column_mask($size, $size - 1)) as $bits;
            const TOP_BOTTOM: $bits = (edges($size) & !column_mask($size, 0) & !column_mask($size, $size - 1)
                | corners($size)) as $bits;
            const LEFT_RIGHT: $bits = (column_mask($size, 0) | column_mask($size, $size - 1)) as $bits;
            const CORNERS: $bits = corners($size) as $bits;
            const EDGES: $bits = edges($size) as $bits;
            $($extra)*
        }
    };
}

geometry!(
    /// The 4x4 board.
    Size4, u64, 4
);
geometry!(
    /// The 6x6 board.
    Size6, u64, 6
);
geometry!(
    /// The standard 8x8 Othello board: the hot path.
    Size8, u64, 8, {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        #[inline(always)]
        fn flips(player: u64, opponent: u64, square: u32) -> u64 {
            super::avx2::flips(player, opponent, square)
        }
    }
);
geometry!(
    /// The 10x10 board (Grand Othello).
    Size10, u128, 10
);

/// Runs `$body` with `$g` bound to the geometry type for a runtime board size.
/// The size must already be validated (one of [`SIZES`]).
#[macro_export]
macro_rules! with_geometry {
    ($size:expr, $g:ident => $body:expr) => {
        match $size {
            4 => {
                type $g = $crate::board::Size4;
                $body
            }
            6 => {
                type $g = $crate::board::Size6;
                $body
            }
            8 => {
                type $g = $crate::board::Size8;
                $body
            }
            10 => {
                type $g = $crate::board::Size10;
                $body
            }
            other => unreachable!("board size {other} was not validated"),
        }
    };
}

/// The board's four quarters (on odd halves the middle goes to the lower ones).
#[must_use]
pub fn quadrants<G: Geometry>() -> [G::Bits; 4] {
    let mut out = [G::Bits::ZERO; 4];
    let half = G::SIZE / 2;
    for index in 0..G::CELLS {
        let (row, column) = (index / G::SIZE, index % G::SIZE);
        let quadrant = usize::from(row >= half) * 2 + usize::from(column >= half);
        out[quadrant] |= G::Bits::bit(index);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_for_8x8_match_the_well_known_constants() {
        assert_eq!(Size8::FULL, u64::MAX);
        assert_eq!(Size8::INNER_COLUMNS, 0x7E7E_7E7E_7E7E_7E7E);
        assert_eq!(Size8::CORNERS, 0x8100_0000_0000_0081);
        assert_eq!(Size8::EDGES, 0xFF81_8181_8181_81FF);
    }

    #[test]
    fn masks_for_small_and_large_boards() {
        assert_eq!(Size4::FULL, 0xFFFF);
        assert_eq!(Size4::INNER_COLUMNS, 0b0110_0110_0110_0110);
        assert_eq!(Size4::CORNERS.count_ones(), 4);
        assert_eq!(Size6::EDGES.count_ones(), 20);
        assert_eq!(Size10::FULL.count_ones(), 100);
        assert_eq!(Size10::EDGES.count_ones(), 36);
        assert_eq!(Size10::INNER_COLUMNS.count_ones(), 80);
    }

    #[test]
    fn quadrants_cover_the_board_once() {
        fn check<G: Geometry>() {
            let q = quadrants::<G>();
            assert_eq!(q[0] | q[1] | q[2] | q[3], G::FULL);
            assert_eq!(q.iter().map(|b| b.count()).sum::<u32>(), G::CELLS);
            assert!(q.iter().all(|b| b.count() == G::CELLS / 4));
        }
        check::<Size4>();
        check::<Size8>();
        check::<Size10>();
        assert_eq!(quadrants::<Size8>()[0], 0x0F0F_0F0F);
    }
}
