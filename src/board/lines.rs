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
    #[must_use]
    pub fn full_lines<G: Geometry>(self, filled: G::Bits) -> G::Bits {
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

/// Stable discs of each side: a disc is stable when along each of the 4 lines
/// through it the line is full, or a neighbour on that line is off the board or a
/// stable disc of the same colour; computed to a fixpoint starting from nothing
/// (so from the corners outwards). Returns (player's, opponent's).
#[must_use]
pub fn stable_discs<G: Geometry>(board: Board<G>) -> (G::Bits, G::Bits) {
    let filled = board.player | board.opponent;
    let mut protected = [G::Bits::ZERO; 4];
    for (slot, line) in protected.iter_mut().zip(Line::ALL) {
        *slot = line.full_lines::<G>(filled) | line.border::<G>();
    }
    let stable_of = |own: G::Bits| {
        let mut stable = G::Bits::ZERO;
        loop {
            let mut next = own;
            for (line, &base) in Line::ALL.into_iter().zip(&protected) {
                next &= base | line.forward::<G>(stable) | line.backward::<G>(stable);
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    };
    (stable_of(board.player), stable_of(board.opponent))
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
