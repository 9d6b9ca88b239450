//! The bitboard Reversi engine: a `Copy` board relative to the side to move, for every size.

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2;
mod bits;
mod carry;
mod drawing;
mod geometry;
mod kernel;
mod last_flip;
mod lines;
mod position;
mod square;
mod symmetry;

pub use bits::{Bits, Indices};
pub use drawing::{Drawing, COLOUR_LEGEND, PLAIN_LEGEND};
pub use geometry::{quadrants, Geometry, Size10, Size4, Size6, Size8, SIZES};
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub use kernel::Avx2Flips;
pub use kernel::{CarryFlips, FlipKernel, Flipper, PortableFlips};
pub use last_flip::{last_flip_count, neighbours_8x8};
pub use lines::{neighbours, square_kinds, stable_discs, Line, Protected};
pub use position::{ParsePositionError, Position};
pub use square::{Color, Square};
pub use symmetry::Symmetry;

use std::marker::PhantomData;

/// A position relative to the side to move: `player` holds the discs of the side
/// to move, `opponent` the other side's. Which colour is to move lives outside
/// (see [`Position`]), so the search code never branches on colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board<G: Geometry> {
    /// Discs of the side to move.
    pub player: G::Bits,
    /// Discs of the side not to move.
    pub opponent: G::Bits,
    geometry: PhantomData<G>,
}

/// One direction's contribution to the legal moves: the squares reached by
/// running from `player` over `mask` (opponent discs) in both senses of `shift`.
/// Runs are extended by doubling, so a run of length L costs log2(L) steps.
#[inline(always)]
fn direction_moves<G: Geometry>(player: G::Bits, mask: G::Bits, shift: u32) -> G::Bits {
    let mut left = mask & (player << shift);
    let mut right = mask & (player >> shift);
    left |= mask & (left << shift);
    right |= mask & (right >> shift);
    // Runs of length 1..=2 are found; each doubling step below adds two more.
    let pairs_left = mask & (mask << shift);
    let pairs_right = mask & (mask >> shift);
    let mut found = 2;
    while found < G::SIZE - 2 {
        left |= pairs_left & (left << (2 * shift));
        right |= pairs_right & (right >> (2 * shift));
        found += 2;
    }
    (left << shift) | (right >> shift)
}

/// The discs flipped in one direction by a move at `placed`: the run of `mask`
/// squares that starts next to it, if a `player` disc closes it.
#[inline(always)]
fn direction_flips<G: Geometry>(
    placed: G::Bits,
    player: G::Bits,
    mask: G::Bits,
    shift: u32,
) -> G::Bits {
    let mut left = mask & (placed << shift);
    let mut right = mask & (placed >> shift);
    left |= mask & (left << shift);
    right |= mask & (right >> shift);
    let pairs_left = mask & (mask << shift);
    let pairs_right = mask & (mask >> shift);
    let mut found = 2;
    while found < G::SIZE - 2 {
        left |= pairs_left & (left << (2 * shift));
        right |= pairs_right & (right >> (2 * shift));
        found += 2;
    }
    let mut flips = G::Bits::ZERO;
    if !((left << shift) & player).is_empty() {
        flips |= left;
    }
    if !((right >> shift) & player).is_empty() {
        flips |= right;
    }
    flips
}

/// The discs a move at `square` flips, for any size: the portable version.
#[inline(always)]
#[must_use]
pub fn portable_flips<G: Geometry>(player: G::Bits, opponent: G::Bits, square: u32) -> G::Bits {
    let placed = G::Bits::bit(square);
    let inner = opponent & G::INNER_COLUMNS;
    direction_flips::<G>(placed, player, opponent, G::SIZE)
        | direction_flips::<G>(placed, player, inner, 1)
        | direction_flips::<G>(placed, player, inner, G::SIZE + 1)
        | direction_flips::<G>(placed, player, inner, G::SIZE - 1)
}

impl<G: Geometry> Board<G> {
    /// A board from the two disc sets. Bits outside the board are dropped.
    #[inline(always)]
    #[must_use]
    pub fn new(player: G::Bits, opponent: G::Bits) -> Self {
        Board {
            player: player & G::FULL,
            opponent: opponent & G::FULL,
            geometry: PhantomData,
        }
    }

    /// The standard start with black to move: on 8x8 white on d4 and e5, black
    /// on d5 and e4; the same four discs around the centre on every size.
    #[must_use]
    pub fn start() -> Self {
        let low = G::SIZE / 2 - 1;
        let high = G::SIZE / 2;
        let bit = |column, row| G::Bits::bit(Square::at(column, row, G::SIZE).index());
        let white = bit(low, low) | bit(high, high);
        let black = bit(high, low) | bit(low, high);
        Board::new(black, white)
    }

    /// Empty squares.
    #[inline(always)]
    #[must_use]
    pub fn empty(self) -> G::Bits {
        !(self.player | self.opponent) & G::FULL
    }

    /// Number of empty squares.
    #[inline(always)]
    #[must_use]
    pub fn empty_count(self) -> u32 {
        G::CELLS - (self.player | self.opponent).count()
    }

    /// The legal moves of the side to move.
    #[inline(always)]
    #[must_use]
    pub fn moves(self) -> G::Bits {
        let inner = self.opponent & G::INNER_COLUMNS;
        let vertical = direction_moves::<G>(self.player, self.opponent, G::SIZE);
        let horizontal = direction_moves::<G>(self.player, inner, 1);
        let diagonal = direction_moves::<G>(self.player, inner, G::SIZE + 1);
        let anti_diagonal = direction_moves::<G>(self.player, inner, G::SIZE - 1);
        (vertical | horizontal | diagonal | anti_diagonal) & self.empty()
    }

    /// Whether the side to move has a legal move.
    #[inline(always)]
    #[must_use]
    pub fn can_move(self) -> bool {
        !self.moves().is_empty()
    }

    /// The discs a move at `square` would flip (empty if the move is illegal,
    /// or if `square` is occupied the result is meaningless: check `moves` first).
    #[inline(always)]
    #[must_use]
    pub fn flips(self, square: Square) -> G::Bits {
        G::flips(self.player, self.opponent, square.index())
    }

    /// Plays a legal move and hands the turn over. The move must be legal.
    #[inline(always)]
    #[must_use]
    pub fn play(self, square: Square) -> Self {
        self.play_flips(square, self.flips(square))
    }

    /// Plays a move whose flips are already known and hands the turn over.
    #[inline(always)]
    #[must_use]
    pub fn play_flips(self, square: Square, flips: G::Bits) -> Self {
        let placed = G::Bits::bit(square.index());
        Board {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ placed,
            geometry: PhantomData,
        }
    }

    /// Passes: the same discs, the other side to move.
    #[inline(always)]
    #[must_use]
    pub fn pass(self) -> Self {
        Board {
            player: self.opponent,
            opponent: self.player,
            geometry: PhantomData,
        }
    }

    /// Whether neither side can move.
    #[inline(always)]
    #[must_use]
    pub fn is_game_over(self) -> bool {
        !self.can_move() && !self.pass().can_move()
    }

    /// Discs of the side to move.
    #[inline(always)]
    #[must_use]
    pub fn player_count(self) -> u32 {
        self.player.count()
    }

    /// Discs of the side not to move.
    #[inline(always)]
    #[must_use]
    pub fn opponent_count(self) -> u32 {
        self.opponent.count()
    }

    /// The board seen through one of the 8 symmetries of the square.
    #[must_use]
    pub fn transform(self, symmetry: Symmetry) -> Self {
        Board::new(
            symmetry.apply_bits::<G>(self.player),
            symmetry.apply_bits::<G>(self.opponent),
        )
    }

    /// A 64-bit hash of the position, for transposition tables.
    #[inline(always)]
    #[must_use]
    pub fn hash(self) -> u64 {
        let p = self.player.to_u128();
        let o = self.opponent.to_u128();
        let mix = |x: u64| {
            // splitmix64's finaliser: cheap, and every input bit reaches every output bit.
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let a = mix(p as u64 ^ ((p >> 64) as u64).rotate_left(17));
        let b = mix(o as u64 ^ ((o >> 64) as u64).rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15);
        a ^ b.rotate_left(32)
    }
}

impl<G: Geometry> Default for Board<G> {
    fn default() -> Self {
        Board::start()
    }
}

/// Iterates over the squares of a bitboard, lowest index first.
#[inline(always)]
pub fn squares<B: Bits>(bits: B) -> impl ExactSizeIterator<Item = Square> {
    Indices(bits).map(Square::new)
}

/// The names of a bitboard's squares on a board of `size`, space-separated (a
/// message's list of legal moves).
#[must_use]
pub fn square_names<B: Bits>(bits: B, size: u32) -> String {
    squares(bits)
        .map(|s| s.name(size))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names<G: Geometry>(bits: G::Bits) -> Vec<String> {
        squares(bits).map(|s| s.name(G::SIZE)).collect()
    }

    #[test]
    fn start_moves_on_8x8() {
        let board = Board::<Size8>::start();
        assert_eq!(board.player_count(), 2);
        assert_eq!(board.opponent_count(), 2);
        assert_eq!(names::<Size8>(board.moves()), ["d3", "c4", "f5", "e6"]);
        let after = board.play(Square::parse("f5", 8).unwrap());
        assert_eq!(after.player_count(), 1);
        assert_eq!(after.opponent_count(), 4);
        assert_eq!(names::<Size8>(after.moves()), ["f4", "d6", "f6"]);
    }

    #[test]
    fn start_moves_on_every_size() {
        fn check<G: Geometry>() {
            let board = Board::<G>::start();
            assert_eq!(board.moves().count(), 4, "size {}", G::SIZE);
            assert_eq!(board.empty_count(), G::CELLS - 4);
        }
        check::<Size4>();
        check::<Size6>();
        check::<Size8>();
        check::<Size10>();
    }

    #[test]
    fn a_move_flips_in_several_directions() {
        // Black at a1, c1, a3, c3 (and e1 beyond a gap); white at b1, a2, b2; black plays... (build by hand)
        let sq = |n: &str| Square::parse(n, 8).unwrap();
        let bit = |n: &str| 1u64 << sq(n).index();
        // Player to move surrounds d4 with lines in all 8 directions.
        let player = bit("b2")
            | bit("d2")
            | bit("f2")
            | bit("b4")
            | bit("f4")
            | bit("b6")
            | bit("d6")
            | bit("f6");
        let opponent = bit("c3")
            | bit("d3")
            | bit("e3")
            | bit("c4")
            | bit("e4")
            | bit("c5")
            | bit("d5")
            | bit("e5");
        let board = Board::<Size8>::new(player, opponent);
        assert!(board.moves() & bit("d4") != 0);
        assert_eq!(board.flips(sq("d4")), opponent);
        let after = board.play(sq("d4"));
        assert_eq!(after.player, 0);
        assert_eq!(after.opponent, player | opponent | bit("d4"));
    }

    #[test]
    fn runs_do_not_wrap_around_rows() {
        let sq = |n: &str| Square::parse(n, 8).unwrap();
        let bit = |n: &str| 1u64 << sq(n).index();
        // h1 (opponent) then a2 (player): a1-row run must not continue into the next row.
        let board = Board::<Size8>::new(bit("a2"), bit("h1"));
        assert_eq!(board.moves(), 0);
        let board = Board::<Size8>::new(bit("b2"), bit("a2"));
        assert_eq!(board.moves(), 0);
    }

    #[test]
    fn pass_and_game_over() {
        let board = Board::<Size8>::new(u64::MAX, 0);
        assert!(board.is_game_over());
        let start = Board::<Size8>::start();
        assert!(!start.is_game_over());
        assert_eq!(start.pass().pass(), start);
    }
}
