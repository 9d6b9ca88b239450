//! The 8 symmetries of the square board (the dihedral group D4).

use super::bits::{Bits, Indices};
use super::geometry::Geometry;
use super::square::Square;

/// One of the 8 ways to map the board onto itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every square in place.
    Identity,
    /// Mirrors columns (a <-> h).
    FlipHorizontal,
    /// Mirrors rows (1 <-> 8).
    FlipVertical,
    /// Turns the board half a turn.
    Rotate180,
    /// Mirrors in the a1-h8 diagonal.
    Transpose,
    /// Mirrors in the h1-a8 diagonal.
    AntiTranspose,
    /// Turns the board a quarter turn clockwise.
    Rotate90,
    /// Turns the board a quarter turn anticlockwise.
    Rotate270,
}

impl Symmetry {
    /// All 8 symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// Where `square` goes on a board of `size`.
    #[must_use]
    pub const fn apply(self, square: Square, size: u32) -> Square {
        let c = square.column(size);
        let r = square.row(size);
        let last = size - 1;
        let (column, row) = match self {
            Symmetry::Identity => (c, r),
            Symmetry::FlipHorizontal => (last - c, r),
            Symmetry::FlipVertical => (c, last - r),
            Symmetry::Rotate180 => (last - c, last - r),
            Symmetry::Transpose => (r, c),
            Symmetry::AntiTranspose => (last - r, last - c),
            Symmetry::Rotate90 => (last - r, c),
            Symmetry::Rotate270 => (r, last - c),
        };
        Square::at(column, row, size)
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Self {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// Maps every square of a set.
    #[must_use]
    pub fn apply_bits<G: Geometry>(self, bits: G::Bits) -> G::Bits {
        if self == Symmetry::Identity {
            return bits;
        }
        let mut out = G::Bits::ZERO;
        for index in Indices(bits) {
            out |= G::Bits::bit(self.apply(Square::new(index), G::SIZE).index());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_and_all_are_distinct() {
        for size in [4, 6, 8, 10] {
            let mut images = Vec::new();
            for sym in Symmetry::ALL {
                let mut image = Vec::new();
                for index in 0..size * size {
                    let s = Square::new(index);
                    assert_eq!(sym.inverse().apply(sym.apply(s, size), size), s);
                    image.push(sym.apply(s, size));
                }
                images.push(image);
            }
            images.sort();
            images.dedup();
            assert_eq!(images.len(), 8);
        }
    }

    #[test]
    fn rotate90_turns_clockwise() {
        let a1 = Square::parse("a1", 8).unwrap();
        assert_eq!(Symmetry::Rotate90.apply(a1, 8).name(8), "h1");
    }
}
