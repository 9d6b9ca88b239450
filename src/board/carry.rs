//! Branch-free scalar flips for 8x8 by carry propagation: a plain u64 kernel,
//! no SIMD, so it suits CPUs where moving data to vector registers costs more.

/// For each square, the 8 rays leaving it (the squares up to the board's edge):
/// the first 4 run towards higher indices, the last 4 towards lower ones.
const RAYS: [[u64; 8]; 64] = rays();

const fn rays() -> [[u64; 8]; 64] {
    // (column step, row step); rows grow with the index, so a positive row step
    // (or a zero one with a positive column step) runs towards higher indices.
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut k = 0;
        while k < 8 {
            let (dx, dy) = STEPS[k];
            let mut column = (square % 8) as i32 + dx;
            let mut row = (square / 8) as i32 + dy;
            while column >= 0 && column < 8 && row >= 0 && row < 8 {
                rays[square][k] |= 1u64 << (row * 8 + column);
                column += dx;
                row += dy;
            }
            k += 1;
        }
        square += 1;
    }
    rays
}

/// The discs a move at `square` flips on 8x8; the same result as `portable_flips`
/// (a property test checks this).
///
/// Upwards, adding the ray's lowest square to `opponent | !ray` carries through
/// the run of opponent discs (and the squares off the ray, all ones) and stops on
/// the first square that is not the opponent's: the outflanking disc if it is the
/// player's. Downwards the same square is the highest non-opponent one (lzcnt).
#[inline(always)]
#[must_use]
pub fn flips(player: u64, opponent: u64, square: u32) -> u64 {
    let rays = &RAYS[square as usize];
    let mut flips = 0;
    for &ray in &rays[..4] {
        let first = ray & ray.wrapping_neg();
        let outflank = (opponent | !ray).wrapping_add(first) & ray & player;
        // Empty when nothing outflanks (0 - 0), else the squares below it on the ray.
        flips |= outflank.wrapping_sub(u64::from(outflank != 0)) & ray;
    }
    for &ray in &rays[4..] {
        let stops = ray & !opponent;
        let outflank = (1u64 << 63).wrapping_shr(stops.leading_zeros()) & stops & player;
        // The squares above the outflanking disc: none when there is none.
        flips |= (outflank << 1).wrapping_neg() & ray;
    }
    flips
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_of_a_corner_and_the_centre() {
        // a1: right along row 1, down column a, and the long diagonal; nothing else.
        assert_eq!(RAYS[0][0], 0xFE);
        assert_eq!(RAYS[0][1], 0x0101_0101_0101_0100);
        assert_eq!(RAYS[0][2], 0x8040_2010_0804_0200);
        assert_eq!(RAYS[0][3..], [0; 5]);
        let lengths: Vec<u32> = RAYS[27].iter().map(|r| r.count_ones()).collect();
        assert_eq!(lengths, [4, 4, 4, 3, 3, 3, 3, 3]);
    }

    #[test]
    fn flips_a_run_and_not_an_open_one() {
        // Row 1: player a1, opponent b1 c1; a move at d1 flips both. Without a1 it flips nothing.
        assert_eq!(flips(0b1, 0b110, 3), 0b110);
        assert_eq!(flips(0, 0b110, 3), 0);
        // Column a, downwards from a4 over a3 a2 to the player's a1.
        let (a1, a2, a3) = (1u64, 1u64 << 8, 1u64 << 16);
        assert_eq!(flips(a1, a2 | a3, 24), a2 | a3);
    }
}
