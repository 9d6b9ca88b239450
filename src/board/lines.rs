//! Shifts along the board's lines, and what is built from them: neighbours and stable discs.

use super::bits::Bits;
use super::geometry::Geometry;
use super::Board;

/// One of the 4 line directions, each with its two senses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// Along a row.
    Horizontal,
    /// Along a column.
    Vertical,
    /// From a1 towards the bottom-right corner.
    Diagonal,
    /// From the top-right corner towards the bottom-left.
    AntiDiagonal,
}

impl Line {
    /// The four lines.
    pub const ALL: [Line; 4] = [
        Line::Horizontal,
        Line::Vertical,
        Line::Diagonal,
        Line::AntiDiagonal,
    ];

    /// Every square moved one step forward along the line (towards higher indices),
    /// squares that would leave the board dropped.
    #[inline(always)]
    #[must_use]
    pub fn forward<G: Geometry>(self, bits: G::Bits) -> G::Bits {
        match self {
            Line::Horizontal => (bits << 1) & G::NOT_FIRST_COLUMN,
            Line::Vertical => (bits << G::SIZE) & G::FULL,
            Line::Diagonal => (bits << (G::SIZE + 1)) & G::NOT_FIRST_COLUMN,
            Line::AntiDiagonal => (bits << (G::SIZE - 1)) & G::NOT_LAST_COLUMN,
        }
    }

    /// Every square moved one step backward along the line.
    #[inline(always)]
    #[must_use]
    pub fn backward<G: Geometry>(self, bits: G::Bits) -> G::Bits {
        match self {
            Line::Horizontal => (bits >> 1) & G::NOT_LAST_COLUMN,
            Line::Vertical => bits >> G::SIZE,
            Line::Diagonal => (bits >> (G::SIZE + 1)) & G::NOT_LAST_COLUMN,
            Line::AntiDiagonal => (bits >> (G::SIZE - 1)) & G::NOT_FIRST_COLUMN,
        }
    }

    /// Squares with a neighbour off the board along this line.
    #[inline(always)]
    #[must_use]
    pub fn border<G: Geometry>(self) -> G::Bits {
        match self {
            Line::Horizontal => G::LEFT_RIGHT,
            Line::Vertical => G::TOP_BOTTOM,
            Line::Diagonal | Line::AntiDiagonal => G::EDGES,
        }
    }

    /// Squares of `filled` whose whole line (in this direction) is in `filled`.
    #[inline]
    #[must_use]
    pub fn full_lines<G: Geometry>(self, filled: G::Bits) -> G::Bits {
        if G::CELLS == 64 {
            let full = self.full_lines_8x8(filled.to_u128() as u64);
            return G::Bits::from_u128(u128::from(full));
        }
        self.full_lines_stepwise::<G>(filled)
    }

    /// [`Self::full_lines`] on 8x8 in a few word operations: rows and columns by
    /// folding each onto one bit, diagonals by doubling (each square ANDs itself with
    /// the square 1, 2, then 4 steps behind, or ahead, squares off the board counting
    /// as filled), instead of one step at a time.
    #[inline]
    fn full_lines_8x8(self, filled: u64) -> u64 {
        // Per direction of the diagonals: the shift of one step, and for 1, 2 and 4
        // steps the squares whose square that far behind (then ahead) is off the board.
        const DIAGONAL: (u32, [u64; 3], [u64; 3]) = (
            9,
            [
                0x0101_0101_0101_01FF,
                0x0303_0303_0303_FFFF,
                0x0F0F_0F0F_FFFF_FFFF,
            ],
            [
                0xFF80_8080_8080_8080,
                0xFFFF_C0C0_C0C0_C0C0,
                0xFFFF_FFFF_F0F0_F0F0,
            ],
        );
        const ANTI_DIAGONAL: (u32, [u64; 3], [u64; 3]) = (
            7,
            [
                0x8080_8080_8080_80FF,
                0xC0C0_C0C0_C0C0_FFFF,
                0xF0F0_F0F0_FFFF_FFFF,
            ],
            [
                0xFF01_0101_0101_0101,
                0xFFFF_0303_0303_0303,
                0xFFFF_FFFF_0F0F_0F0F,
            ],
        );
        let doubling = |(shift, behind, ahead): (u32, [u64; 3], [u64; 3])| {
            let (mut back, mut front) = (filled, filled);
            for (step, (behind, ahead)) in behind.into_iter().zip(ahead).enumerate() {
                let by = shift << step;
                back &= (back << by) | behind;
                front &= (front >> by) | ahead;
            }
            back & front
        };
        match self {
            Line::Horizontal => {
                let mut rows = filled & (filled >> 4);
                rows &= rows >> 2;
                rows &= rows >> 1;
                (rows & 0x0101_0101_0101_0101) * 0xFF
            }
            Line::Vertical => {
                let mut columns = filled & (filled >> 32);
                columns &= columns >> 16;
                columns &= columns >> 8;
                (columns & 0xFF) * 0x0101_0101_0101_0101
            }
            Line::Diagonal => doubling(DIAGONAL),
            Line::AntiDiagonal => doubling(ANTI_DIAGONAL),
        }
    }

    /// [`Self::full_lines`] on any size, one step at a time (and the reference the
    /// 8x8 one is tested against).
    fn full_lines_stepwise<G: Geometry>(self, filled: G::Bits) -> G::Bits {
        // A square is in `back` when it and everything behind it are filled; in
        // `front` likewise ahead. Both together: the whole line is filled.
        let mut back = filled & !self.forward::<G>(G::FULL);
        let mut front = filled & !self.backward::<G>(G::FULL);
        for _ in 1..G::SIZE {
            back |= filled & self.forward::<G>(back);
            front |= filled & self.backward::<G>(front);
        }
        back & front
    }
}

/// Squares next to at least one square of `bits` (in any of the 8 directions).
#[inline]
#[must_use]
pub fn neighbours<G: Geometry>(bits: G::Bits) -> G::Bits {
    let mut out = G::Bits::ZERO;
    for line in Line::ALL {
        out |= line.forward::<G>(bits) | line.backward::<G>(bits);
    }
    out
}

/// The board's squares in four kinds, in the order the solver's last plies try moves
/// within each parity: corners, the squares not next to a corner, the edge squares
/// next to one (C-squares), and the diagonal ones (X-squares), which most often give
/// a corner away. This order searched 3.0% fewer nodes than the squares' index order
/// over FFO #40-#44 on one thread (168.9 M against 174.1 M), and 0.5% fewer on #45.
#[must_use]
pub fn square_kinds<G: Geometry>() -> [G::Bits; 4] {
    let next_to_corner = neighbours::<G>(G::CORNERS) & !G::CORNERS;
    let c_squares = next_to_corner & G::EDGES;
    let x_squares = next_to_corner & !G::EDGES;
    let rest = G::FULL & !G::CORNERS & !next_to_corner;
    [G::CORNERS, rest, c_squares, x_squares]
}

/// Stable discs of each side: a disc is stable when along each of the 4 lines
/// through it the line is full, or a neighbour on that line is off the board or a
/// stable disc of the same colour; computed to a fixpoint starting from nothing
/// (so from the corners outwards). Returns (player's, opponent's).
#[must_use]
pub fn stable_discs<G: Geometry>(board: Board<G>) -> (G::Bits, G::Bits) {
    let protected = Protected::of(board);
    (
        protected.stable(board.player),
        protected.stable(board.opponent),
    )
}

/// Per line direction, the squares of a board that no move can reach along that
/// line: full lines and the board's border. What the stable discs of either side
/// are computed from, so that a caller needing one side pays for one.
#[derive(Clone, Copy, Debug)]
pub struct Protected<G: Geometry>([G::Bits; 4]);

impl<G: Geometry> Protected<G> {
    /// The protected squares of `board`.
    #[inline]
    #[must_use]
    pub fn of(board: Board<G>) -> Self {
        let filled = board.player | board.opponent;
        Protected(Line::ALL.map(|line| line.full_lines::<G>(filled) | line.border::<G>()))
    }

    /// The stable discs among `own` (one side's discs of the board): computed to a
    /// fixpoint starting from nothing, as [`stable_discs`] says.
    #[inline]
    #[must_use]
    pub fn stable(&self, own: G::Bits) -> G::Bits {
        let mut stable = G::Bits::ZERO;
        loop {
            let mut next = own;
            for (line, &base) in Line::ALL.into_iter().zip(&self.0) {
                next &= base | line.forward::<G>(stable) | line.backward::<G>(stable);
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Size6, Size8, Square};

    fn bits(names: &[&str]) -> u64 {
        names
            .iter()
            .map(|n| 1u64 << Square::parse(n, 8).unwrap().index())
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn shifts_do_not_wrap() {
        let h1 = bits(&["h1"]);
        assert_eq!(Line::Horizontal.forward::<Size8>(h1), 0);
        assert_eq!(Line::Diagonal.forward::<Size8>(h1), 0);
        assert_eq!(Line::AntiDiagonal.forward::<Size8>(h1), bits(&["g2"]));
        assert_eq!(
            neighbours::<Size8>(bits(&["a1"])),
            bits(&["b1", "a2", "b2"])
        );
        assert_eq!(neighbours::<Size8>(bits(&["d4"])).count_ones(), 8);
    }

    #[test]
    fn full_lines() {
        let row1 = 0xFFu64;
        assert_eq!(
            Line::Horizontal.full_lines::<Size8>(row1 | bits(&["a2"])),
            row1
        );
        assert_eq!(Line::Vertical.full_lines::<Size8>(row1), 0);
        // The a8-h1 anti-diagonal.
        let anti = bits(&["h1", "g2", "f3", "e4", "d5", "c6", "b7", "a8"]);
        assert_eq!(Line::AntiDiagonal.full_lines::<Size8>(anti), anti);
        // The single-square diagonals through the corners are always full when filled.
        assert_eq!(
            Line::Diagonal.full_lines::<Size8>(bits(&["h1"])),
            bits(&["h1"])
        );
    }

    #[test]
    fn full_lines_on_8x8_match_the_stepwise_ones() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(64);
        for round in 0..20_000 {
            // Dense boards, so that full lines of every kind occur.
            let filled = match round % 3 {
                0 => rng.gen::<u64>(),
                1 => rng.gen::<u64>() | rng.gen::<u64>(),
                _ => !(rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>()),
            };
            for line in Line::ALL {
                assert_eq!(
                    line.full_lines::<Size8>(filled),
                    line.full_lines_stepwise::<Size8>(filled),
                    "{line:?} of {filled:#018x}"
                );
            }
        }
        for line in Line::ALL {
            assert_eq!(line.full_lines::<Size8>(u64::MAX), u64::MAX);
        }
    }

    #[test]
    fn square_kinds_split_the_board() {
        let [corners, rest, c_squares, x_squares] = square_kinds::<Size8>();
        assert_eq!(corners, bits(&["a1", "h1", "a8", "h8"]));
        assert_eq!(
            c_squares,
            bits(&["b1", "g1", "a2", "h2", "a7", "h7", "b8", "g8"])
        );
        assert_eq!(x_squares, bits(&["b2", "g2", "b7", "g7"]));
        assert_eq!(corners | rest | c_squares | x_squares, u64::MAX);
        assert_eq!(rest.count_ones(), 64 - 16);
    }

    #[test]
    fn stable_discs_from_the_corner() {
        // Black owns a1, b1, c1, a2, b2 and d4; white h8 and e5. a1, b1, c1 and a2
        // are stable from the corner along the edges; b2 then has a stable black
        // neighbour on each of its 4 lines (a2, b1, a1, c1); d4 is not stable.
        let black = bits(&["a1", "b1", "c1", "a2", "b2", "d4"]);
        let white = bits(&["h8", "e5"]);
        let p = Position::<Size8>::from_colors(black, white, crate::board::Color::Black);
        let (own, other) = stable_discs(p.board);
        assert_eq!(own, bits(&["a1", "b1", "c1", "a2", "b2"]));
        assert_eq!(other, bits(&["h8"]));
    }

    #[test]
    fn full_board_is_all_stable() {
        let p = crate::board::Board::<Size6>::new(0b1010_1010_1010, !0b1010_1010_1010);
        let (own, other) = stable_discs(p);
        assert_eq!(own | other, Size6::FULL);
    }
}
