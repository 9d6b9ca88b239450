//! The 8x8 pattern evaluation: a fitted value for every configuration of a few
//! lines, edges and corner regions, summed over the board, per stage of the game.
//! It estimates the final disc margin for the side to move; the solver orders its
//! deep nodes by it, and the `pattern` strategy kind plays by it. The weights are
//! fitted by `reversi-lab fit-patterns`: the shipped ones (`weights-8x8.bin.zst`) to
//! labelled self-play positions; `ordering-8x8.bin.zst`, the first fit, to final
//! margins (kept for `pattern-error --weights ordering`).

mod index;
mod spec;

pub use index::{canonical, digit_symmetries, instances, table_len, Instance, Pattern, PATTERNS};
pub use spec::PatternSpec;

use crate::board::{Bits, Board, Geometry};
use crate::strategy::Evaluator;
use std::io::Read;
use std::sync::OnceLock;

/// Weights are stored in 1/`SCALE` of a disc.
pub const SCALE: i32 = 64;
/// Empties per stage: a stage's weights serve positions with
/// `STAGE_WIDTH * s ..= STAGE_WIDTH * s + STAGE_WIDTH - 1` empties.
pub const STAGE_WIDTH: u32 = 4;
/// Stages: 0 to 60 empties.
pub const STAGES: usize = 16;
/// The first bytes of a weights file, with its format's version.
const MAGIC: &[u8] = b"reversi-lab patterns 1\n";

/// The shipped weights, compressed, built into the binary: the second self-play round
/// of docs/training.md (`experiments/weights/selfplay-8x8-2.bin.zst`), what `pattern`
/// plays with.
static SHIPPED: &[u8] = include_bytes!("weights-8x8.bin.zst");
/// The first fit, to the final margins of 96,000 games (recipe in the header of
/// `experiments/patterns-8x8.toml`): the solver ordered by them until 2026-12-04
/// (docs/patterns.md); kept so that `pattern-error --weights ordering` can compare.
static ORDERING: &[u8] = include_bytes!("ordering-8x8.bin.zst");

/// A weights file that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct FormatError(String);

/// Every stage's weights, one table after another per pattern (`Instance::offset`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    stages: Vec<Vec<i16>>,
}

/// The stage of a position with `empties` empty squares.
#[must_use]
pub const fn stage(empties: u32) -> usize {
    let s = (empties / STAGE_WIDTH) as usize;
    if s < STAGES {
        s
    } else {
        STAGES - 1
    }
}

impl Weights {
    /// All-zero weights.
    #[must_use]
    pub fn zero() -> Self {
        Weights {
            stages: vec![vec![0; table_len()]; STAGES],
        }
    }

    /// Weights from fitted values in discs, per stage (each of `table_len` entries).
    #[must_use]
    pub fn from_discs(stages: &[Vec<f32>]) -> Self {
        let stages = stages
            .iter()
            .map(|w| {
                w.iter()
                    .map(|&v| {
                        (v * SCALE as f32)
                            .round()
                            .clamp(f32::from(i16::MIN), f32::from(i16::MAX))
                            as i16
                    })
                    .collect()
            })
            .collect();
        Weights { stages }
    }

    /// The shipped 8x8 weights, decoded once.
    pub fn shipped() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            Weights::decode(SHIPPED).unwrap_or_else(|e| panic!("shipped pattern weights: {e}"))
        })
    }

    /// The first fit's weights (see `ORDERING`), decoded once.
    pub fn ordering() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            Weights::decode(ORDERING).unwrap_or_else(|e| panic!("ordering pattern weights: {e}"))
        })
    }

    /// The file's bytes: zstd over the magic line, the stage count, the entries per
    /// stage (both u32) and every weight (i16), all little-endian.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut raw = MAGIC.to_vec();
        raw.extend((self.stages.len() as u32).to_le_bytes());
        raw.extend((table_len() as u32).to_le_bytes());
        for stage in &self.stages {
            for w in stage {
                raw.extend(w.to_le_bytes());
            }
        }
        zstd::encode_all(&raw[..], 19).unwrap_or_else(|_| unreachable!("in-memory zstd"))
    }

    /// Reads what `encode` wrote.
    pub fn decode(bytes: &[u8]) -> Result<Weights, FormatError> {
        let mut raw = Vec::new();
        zstd::Decoder::new(bytes)
            .and_then(|mut d| d.read_to_end(&mut raw))
            .map_err(|e| FormatError(format!("not zstd-compressed weights ({e})")))?;
        let rest = raw
            .strip_prefix(MAGIC)
            .ok_or_else(|| FormatError("not a reversi-lab patterns 1 file".into()))?;
        let word = |at: usize| {
            rest.get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let (Some(stages), Some(len)) = (word(0), word(4)) else {
            return Err(FormatError("the header is cut short".into()));
        };
        if stages != STAGES || len != table_len() {
            return Err(FormatError(format!(
                "{stages} stages of {len} weights, where this build has {STAGES} of {}",
                table_len()
            )));
        }
        let body = &rest[8..];
        if body.len() != 2 * stages * len {
            return Err(FormatError("the weights are cut short".into()));
        }
        let all: Vec<i16> = body
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        Ok(Weights {
            stages: all.chunks(len).map(<[i16]>::to_vec).collect(),
        })
    }

    /// Stage `s`'s table, one pattern's weights after another (`Instance::offset`).
    #[must_use]
    pub fn stage(&self, s: usize) -> &[i16] {
        &self.stages[s]
    }

    /// The estimated final margin for the side to move, in 1/`SCALE` discs.
    #[must_use]
    #[inline]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        let empties = 64 - (player | opponent).count_ones();
        let table = &self.stages[stage(empties)];
        instances()
            .iter()
            .map(|i| i32::from(table[i.offset + i.index(player, opponent)]))
            .sum()
    }

    /// `evaluate` for a board of any geometry: `None` unless it is 8x8.
    #[must_use]
    #[inline]
    pub fn evaluate_board<G: Geometry>(&self, board: Board<G>) -> Option<i32> {
        (G::CELLS == 64).then(|| {
            self.evaluate(
                board.player.to_u128() as u64,
                board.opponent.to_u128() as u64,
            )
        })
    }
}

/// `pattern`: the shipped weights as an evaluation (as a player, one ply deep; as a
/// search's `eval`, at its horizon), in 1/[`SCALE`] of a disc of estimated final margin.
#[derive(Clone, Copy, Debug)]
pub struct PatternEval {
    weights: &'static Weights,
}

impl PatternEval {
    /// The shipped weights for boards of `G`: None unless 8x8, the board their
    /// patterns (lines, edges, corner regions) were cut for.
    #[must_use]
    pub fn for_board<G: Geometry>() -> Option<Self> {
        (G::CELLS == 64).then(|| PatternEval {
            weights: Weights::shipped(),
        })
    }

    /// An 8x8 evaluation by `weights` (a fitted file's, kept for the whole run).
    #[must_use]
    pub const fn with(weights: &'static Weights) -> Self {
        PatternEval { weights }
    }
}

impl<G: Geometry> Evaluator<G> for PatternEval {
    #[inline]
    fn evaluate(&self, board: Board<G>) -> i32 {
        // Only made for 8x8 (`for_board`), whose bits are the u64 the patterns read.
        self.weights.evaluate(
            board.player.to_u128() as u64,
            board.opponent.to_u128() as u64,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_survive_a_round_trip() {
        let mut w = Weights::zero();
        w.stages[3][17] = -5;
        w.stages[15][table_len() - 1] = 1234;
        assert_eq!(Weights::decode(&w.encode()).unwrap(), w);
        assert!(Weights::decode(b"junk").is_err());
    }

    #[test]
    fn the_shipped_weights_decode_and_like_a_disc_majority_at_the_end() {
        for w in [Weights::shipped(), Weights::ordering()] {
            // Black owns all but the last square, which is empty: a near-certain win.
            let player = !(1u64 << 63) & !(1 << 62);
            let opponent = 1 << 62;
            assert!(w.evaluate(player, opponent) > 0);
            assert!(w.evaluate(opponent, player) < 0);
        }
    }

    #[test]
    fn symmetric_positions_evaluate_alike() {
        use crate::board::{Size8, Square, Symmetry};
        let w = Weights::shipped();
        // Positions along a game, from the opening to the endgame.
        let mut board = Board::<Size8>::start();
        let mut state = 7u64;
        for _ in 0..50 {
            let moves = board.moves();
            if moves == 0 {
                board = board.pass();
                if !board.can_move() {
                    break;
                }
                continue;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick = (state >> 33) as u32 % moves.count_ones();
            let square = (0..pick).fold(moves, |m, _| m & (m - 1)).trailing_zeros();
            board = board.play(Square::new(square));
            let here = w.evaluate_board(board).unwrap();
            for s in Symmetry::ALL {
                // Configurations a symmetry relates share their weight (`fit-patterns`).
                assert_eq!(w.evaluate_board(board.transform(s)).unwrap(), here, "{s:?}");
            }
        }
    }
}
