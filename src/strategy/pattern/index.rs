//! The patterns' squares, their placements on the board under its 8 symmetries,
//! and the base-3 index of a placement's configuration (0 empty, 1 the side to
//! move's disc, 2 the opponent's, the first square the lowest digit).

use crate::board::{Square, Symmetry};
use std::sync::OnceLock;

/// A pattern: a name and its squares in digit order, in one placement.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// What docs/patterns.md calls it.
    pub name: &'static str,
    /// Its squares, lowest digit first.
    pub squares: &'static [&'static str],
}

/// The patterns, after those of Buro's Logistello and the engines that followed it:
/// the corner regions, the edges with their X-squares, the inner lines and the diagonals.
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "corner 3x3",
        squares: &["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"],
    },
    Pattern {
        name: "edge and X-squares",
        squares: &["b2", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "g2"],
    },
    Pattern {
        name: "corner 2x5",
        squares: &["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"],
    },
    Pattern {
        name: "second line",
        squares: &["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"],
    },
    Pattern {
        name: "third line",
        squares: &["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"],
    },
    Pattern {
        name: "fourth line",
        squares: &["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"],
    },
    Pattern {
        name: "main diagonal",
        squares: &["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"],
    },
    Pattern {
        name: "diagonal of 7",
        squares: &["b1", "c2", "d3", "e4", "f5", "g6", "h7"],
    },
    Pattern {
        name: "diagonal of 6",
        squares: &["c1", "d2", "e3", "f4", "g5", "h6"],
    },
    Pattern {
        name: "diagonal of 5",
        squares: &["d1", "e2", "f3", "g4", "h5"],
    },
    Pattern {
        name: "diagonal of 4",
        squares: &["e1", "f2", "g3", "h4"],
    },
];

/// One placement of a pattern on the board.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Which of `PATTERNS`.
    pub pattern: usize,
    /// Where its table starts among all patterns' weights.
    pub offset: usize,
    /// Its squares as a bit set.
    pub mask: u64,
    /// Its squares in digit order.
    pub squares: Vec<u32>,
    /// For the mask's squares gathered in bit order (a `pext`), the digits they stand for.
    gathered: Vec<u16>,
}

const fn power3(n: usize) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < n {
        p *= 3;
        i += 1;
    }
    p
}

fn square(name: &str) -> u32 {
    match Square::parse(name, 8) {
        Some(s) => s.index(),
        None => unreachable!("pattern square {name}"),
    }
}

/// Where each pattern's table starts, and the total length.
fn offsets() -> ([usize; PATTERNS.len()], usize) {
    let mut offsets = [0; PATTERNS.len()];
    let mut total = 0;
    for (i, p) in PATTERNS.iter().enumerate() {
        offsets[i] = total;
        total += power3(p.squares.len());
    }
    (offsets, total)
}

/// Weights per stage: every pattern's table.
#[must_use]
pub fn table_len() -> usize {
    offsets().1
}

/// Every placement of every pattern: its images under the 8 symmetries, each set of
/// squares once.
pub fn instances() -> &'static [Instance] {
    static INSTANCES: OnceLock<Vec<Instance>> = OnceLock::new();
    INSTANCES.get_or_init(|| {
        let (offsets, _) = offsets();
        let mut all: Vec<Instance> = Vec::new();
        for (p, pattern) in PATTERNS.iter().enumerate() {
            let base: Vec<u32> = pattern.squares.iter().map(|s| square(s)).collect();
            for symmetry in Symmetry::ALL {
                let squares: Vec<u32> = base
                    .iter()
                    .map(|&s| symmetry.apply(Square::new(s), 8).index())
                    .collect();
                let mask = squares.iter().fold(0u64, |m, &s| m | 1 << s);
                if all.iter().any(|i| i.pattern == p && i.mask == mask) {
                    continue;
                }
                all.push(Instance::new(p, offsets[p], squares, mask));
            }
        }
        all
    })
}

impl Instance {
    fn new(pattern: usize, offset: usize, squares: Vec<u32>, mask: u64) -> Self {
        let n = squares.len();
        let mut in_order: Vec<u32> = squares.clone();
        in_order.sort_unstable();
        let digit_of_bit: Vec<usize> = in_order
            .iter()
            .map(|s| squares.iter().position(|q| q == s).unwrap_or(0))
            .collect();
        let gathered = (0..1usize << n)
            .map(|bits| {
                (0..n)
                    .filter(|j| bits >> j & 1 == 1)
                    .map(|j| power3(digit_of_bit[j]))
                    .sum::<usize>() as u16
            })
            .collect();
        Instance {
            pattern,
            offset,
            mask,
            squares,
            gathered,
        }
    }

    /// The configuration's index in the pattern's table.
    #[must_use]
    #[inline(always)]
    pub fn index(&self, player: u64, opponent: u64) -> usize {
        let own = usize::from(self.gathered[gather(player, self.mask)]);
        let other = usize::from(self.gathered[gather(opponent, self.mask)]);
        own + 2 * other
    }
}

/// The bits of `value` under `mask`, packed low.
#[inline(always)]
fn gather(value: u64, mask: u64) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: compiled only where the target has BMI2.
        unsafe { std::arch::x86_64::_pext_u64(value, mask) as usize }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut bit, mut m) = (0usize, 0, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if value & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// For each pattern, the permutations of its digits that a symmetry fixing its
/// squares makes (the identity included): configurations they relate are one
/// configuration seen from another side, and share a weight.
#[must_use]
pub fn digit_symmetries(pattern: usize) -> Vec<Vec<usize>> {
    let base: Vec<u32> = PATTERNS[pattern]
        .squares
        .iter()
        .map(|s| square(s))
        .collect();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for symmetry in Symmetry::ALL {
        let image: Vec<u32> = base
            .iter()
            .map(|&s| symmetry.apply(Square::new(s), 8).index())
            .collect();
        let moved: Option<Vec<usize>> = image
            .iter()
            .map(|s| base.iter().position(|b| b == s))
            .collect();
        if let Some(perm) = moved {
            if !out.contains(&perm) {
                out.push(perm);
            }
        }
    }
    out
}

/// The smallest index among a configuration's images under `perms`
/// (`digit_symmetries`): one representative per class of equal configurations.
#[must_use]
pub fn canonical(index: usize, len: usize, perms: &[Vec<usize>]) -> usize {
    let mut digits = [0usize; 16];
    let mut rest = index;
    for d in digits.iter_mut().take(len) {
        *d = rest % 3;
        rest /= 3;
    }
    perms
        .iter()
        .map(|perm| {
            (0..len).rev().fold(0, |acc, k| {
                acc * 3 + digits[perm.iter().position(|&p| p == k).unwrap_or(k)]
            })
        })
        .min()
        .unwrap_or(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_cover_what_the_symmetries_give() {
        let counts: Vec<usize> = (0..PATTERNS.len())
            .map(|p| instances().iter().filter(|i| i.pattern == p).count())
            .collect();
        assert_eq!(counts, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
    }

    #[test]
    fn the_gathered_index_is_the_base_3_index_of_the_squares_in_order() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let player = state & 0x5555_5555_5555_5555 & (state >> 7);
            let opponent = !player & (state >> 3) & 0x0F0F_F0F0_3333_CCCC;
            for i in instances() {
                let plain = i.squares.iter().rev().fold(0, |acc, &s| {
                    let digit = if player >> s & 1 == 1 {
                        1
                    } else if opponent >> s & 1 == 1 {
                        2
                    } else {
                        0
                    };
                    acc * 3 + digit
                });
                assert_eq!(i.index(player, opponent), plain);
            }
        }
    }

    #[test]
    fn the_corner_is_symmetric_in_its_diagonal() {
        let perms = digit_symmetries(0);
        assert_eq!(perms.len(), 2);
        // b1 (digit 1) and a2 (digit 3) trade places under the a1-h8 mirror.
        assert_eq!(canonical(3, 9, &perms), canonical(27, 9, &perms));
        assert_eq!(canonical(3, 9, &perms), 3);
    }
}
