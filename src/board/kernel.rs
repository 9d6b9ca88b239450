//! The interchangeable flip kernels as types, so that code generic over one (perft)
//! is compiled once per kernel and picks it once, with no dispatch per call.

use super::{carry, portable_flips, Bits, Geometry};

/// A flip kernel: each computes the same flips (property tests check they agree);
/// which is fastest depends on the CPU. The 8x8 ones fall back to the portable
/// code on other sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlipKernel {
    /// Doubling runs in the 4 line directions, any size ([`portable_flips`]).
    Portable,
    /// Carry propagation along the 8 rays of the square, 8x8 (plain u64, no SIMD).
    Carry,
    /// The 4 line directions in the lanes of one AVX2 register, 8x8.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    Avx2,
}

impl FlipKernel {
    /// Every kernel this build has.
    pub const ALL: &'static [FlipKernel] = &[
        FlipKernel::Portable,
        FlipKernel::Carry,
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        FlipKernel::Avx2,
    ];

    /// The name users type (`--kernel`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FlipKernel::Portable => "portable",
            FlipKernel::Carry => "carry",
            #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
            FlipKernel::Avx2 => "avx2",
        }
    }
}

/// A flip kernel as a type (see [`FlipKernel`]).
pub trait Flipper: Copy + Send + Sync + 'static {
    /// Which kernel this is.
    const KERNEL: FlipKernel;
    /// The discs a move at `square` flips (see [`super::Board::flips`]).
    #[must_use]
    fn flips<G: Geometry>(player: G::Bits, opponent: G::Bits, square: u32) -> G::Bits;
}

/// [`FlipKernel::Portable`].
#[derive(Clone, Copy, Debug)]
pub struct PortableFlips;

/// [`FlipKernel::Carry`].
#[derive(Clone, Copy, Debug)]
pub struct CarryFlips;

/// [`FlipKernel::Avx2`].
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[derive(Clone, Copy, Debug)]
pub struct Avx2Flips;

impl Flipper for PortableFlips {
    const KERNEL: FlipKernel = FlipKernel::Portable;
    #[inline(always)]
    fn flips<G: Geometry>(player: G::Bits, opponent: G::Bits, square: u32) -> G::Bits {
        portable_flips::<G>(player, opponent, square)
    }
}

/// Runs an 8x8 `u64` kernel on `G`'s bits (a no-op conversion, as `G::Bits` is
/// `u64` on 8x8), or the portable code on other sizes; `G::CELLS` is a constant,
/// so the branch disappears.
#[inline(always)]
fn on_8x8<G: Geometry>(
    kernel: impl Fn(u64, u64, u32) -> u64,
    player: G::Bits,
    opponent: G::Bits,
    square: u32,
) -> G::Bits {
    if G::CELLS == 64 {
        let flips = kernel(player.to_u128() as u64, opponent.to_u128() as u64, square);
        G::Bits::from_u128(u128::from(flips))
    } else {
        portable_flips::<G>(player, opponent, square)
    }
}

impl Flipper for CarryFlips {
    const KERNEL: FlipKernel = FlipKernel::Carry;
    #[inline(always)]
    fn flips<G: Geometry>(player: G::Bits, opponent: G::Bits, square: u32) -> G::Bits {
        on_8x8::<G>(carry::flips, player, opponent, square)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
impl Flipper for Avx2Flips {
    const KERNEL: FlipKernel = FlipKernel::Avx2;
    #[inline(always)]
    fn flips<G: Geometry>(player: G::Bits, opponent: G::Bits, square: u32) -> G::Bits {
        on_8x8::<G>(super::avx2::flips, player, opponent, square)
    }
}

/// Runs `$body` with `$f` bound to the [`Flipper`] type of a [`FlipKernel`] value:
/// the one place a kernel chosen at run time becomes a type.
#[macro_export]
macro_rules! with_flipper {
    ($kernel:expr, $f:ident => $body:expr) => {
        match $kernel {
            $crate::board::FlipKernel::Portable => {
                type $f = $crate::board::PortableFlips;
                $body
            }
            $crate::board::FlipKernel::Carry => {
                type $f = $crate::board::CarryFlips;
                $body
            }
            #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
            $crate::board::FlipKernel::Avx2 => {
                type $f = $crate::board::Avx2Flips;
                $body
            }
        }
    };
}
