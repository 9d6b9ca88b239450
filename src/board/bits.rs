//! The integer types that hold one bit per square: `u64` up to 8x8, `u128` for 10x10.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A set of squares as an unsigned integer. Implemented for `u64` and `u128`;
/// every operation is a single instruction or two on x86-64-v3.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// The set holding only square 0.
    const ONE: Self;

    /// Number of squares in the set.
    #[must_use]
    fn count(self) -> u32;
    /// Index of the lowest square; meaningless for the empty set.
    #[must_use]
    fn lowest(self) -> u32;
    /// Widen to `u128` (for hashing, printing and generic tables).
    #[must_use]
    fn to_u128(self) -> u128;
    /// Narrow from `u128`, dropping bits that do not fit.
    #[must_use]
    fn from_u128(value: u128) -> Self;

    /// Whether the set is empty.
    #[inline(always)]
    #[must_use]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// The set holding only square `index`.
    #[inline(always)]
    #[must_use]
    fn bit(index: u32) -> Self {
        Self::ONE << index
    }
    /// Whether square `index` is in the set.
    #[inline(always)]
    #[must_use]
    fn has(self, index: u32) -> bool {
        !(self & Self::bit(index)).is_empty()
    }
    /// The set without its lowest square.
    #[must_use]
    fn without_lowest(self) -> Self;
    /// The `width` bits starting at `shift`, as an integer (for table lookups).
    #[must_use]
    fn field(self, shift: u32, width: u32) -> usize;
    /// Index of the `k`-th lowest square (k < the set's count): a random move's pick.
    #[must_use]
    fn nth(self, k: u32) -> u32;
}

impl Bits for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    #[inline(always)]
    fn from_u128(value: u128) -> Self {
        value as u64
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn field(self, shift: u32, width: u32) -> usize {
        ((self >> shift) & ((1u64 << width) - 1)) as usize
    }
    #[inline(always)]
    fn nth(self, k: u32) -> u32 {
        nth_bit(self, k)
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn from_u128(value: u128) -> Self {
        value
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn field(self, shift: u32, width: u32) -> usize {
        ((self >> shift) & ((1u128 << width) - 1)) as usize
    }
    #[inline(always)]
    fn nth(self, k: u32) -> u32 {
        let low = self as u64;
        let below = low.count_ones();
        if k < below {
            nth_bit(low, k)
        } else {
            64 + nth_bit((self >> 64) as u64, k - below)
        }
    }
}

/// The index of the `k`-th lowest set bit of `bits` (k < its count): one `pdep` and
/// one `tzcnt` where BMI2 is compiled in (the release build's x86-64-v3; fast from
/// Intel Haswell and AMD Zen 3 on, microcoded and slow on Zen 1 and 2).
#[inline(always)]
fn nth_bit(bits: u64, k: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the cfg above guarantees the BMI2 instruction is available.
        unsafe { std::arch::x86_64::_pdep_u64(1 << k, bits) }.trailing_zeros()
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut rest = bits;
        for _ in 0..k {
            rest &= rest - 1;
        }
        rest.trailing_zeros()
    }
}

/// Iterates over the square indices of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Indices<B: Bits>(pub B);

impl<B: Bits> Iterator for Indices<B> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let index = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(index)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> ExactSizeIterator for Indices<B> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kth_square_is_the_kth_lowest_on_both_widths() {
        let sets: [u128; 5] = [
            1,
            0b1011,
            u128::from(u64::MAX),
            (1 << 64) | (1 << 3) | (1 << 99),
            0x8000_0000_0000_0001_8000_0000_0000_0001,
        ];
        for set in sets {
            let indices: Vec<u32> = (0..128).filter(|&i| set >> i & 1 == 1).collect();
            for (k, &index) in indices.iter().enumerate() {
                assert_eq!(set.nth(k as u32), index, "{set:#x} {k}");
                if let Ok(narrow) = u64::try_from(set) {
                    assert_eq!(narrow.nth(k as u32), index, "{set:#x} {k}");
                }
            }
        }
    }
}
