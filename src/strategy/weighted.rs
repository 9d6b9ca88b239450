//! `weighted`: square weights over own discs minus the opponent's; presets, square classes or a full table.

use super::kind::{one_ply, Evaluation, Kind};
use super::param_info::{concat, params, ParamInfo};
use super::spec::{typed, SquaresSpec};
use super::Strategy;
use super::{Evaluator, SpecError};
use crate::board::{Bits, Board, Geometry};
use crate::game::Rules;
use serde::{Deserialize, Serialize};

params! {
    /// `weighted`'s own parameter, beside its table.
    pub struct WeightedOptions {
        #[serde(skip_serializing_if = "Option::is_none")]
        own_only: Option<bool> = None
            => "sum over own discs only"
            (default "true for explorer, else false"),
    }
}

/// Parameters of `weighted`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightedSpec {
    /// The table.
    #[serde(flatten)]
    pub squares: SquaresSpec,
    /// How it is summed.
    #[serde(flatten)]
    pub options: WeightedOptions,
}

impl WeightedSpec {
    /// Its parameters: the table's, then its own.
    pub const PARAMS: [ParamInfo; SquaresSpec::PARAMS.len() + WeightedOptions::PARAMS.len()] =
        concat(&[SquaresSpec::PARAMS, WeightedOptions::PARAMS]);

    /// The evaluation for a board of `size`.
    pub fn build(&self, size: u32) -> Result<WeightedEval, SpecError> {
        let table = self.squares.table(size)?;
        let own_only = self
            .options
            .own_only
            .unwrap_or(self.squares.preset.as_deref() == Some("explorer"));
        Ok(WeightedEval::new(table, own_only))
    }
}

impl Kind for WeightedSpec {
    const NAME: &'static str = "weighted";
    const HELP: &'static str = "maximise own square weights minus the opponent's after the move";
    const PARAMS: &'static [ParamInfo] = &Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        one_ply(self)
    }
}

impl Evaluation for WeightedSpec {
    fn value_scale(&self) -> crate::strategy::scale::Scale {
        crate::strategy::scale::Scale::points(
            "square-table points",
            "square-table points, not discs",
        )
    }

    fn evaluator<G: Geometry>(&self) -> Result<impl Evaluator<G> + 'static, SpecError> {
        self.build(G::SIZE)
    }
}

/// The names of the built-in weight tables.
pub const PRESETS: [&str; 3] = ["classic", "paip", "explorer"];

/// Rows 1-4 of the classic 8x8 table; rows 5-8 mirror them.
const CLASSIC: [[i32; 8]; 4] = [
    [100, -20, 10, 5, 5, 10, -20, 100],
    [-20, -50, -2, -2, -2, -2, -50, -20],
    [10, -2, -1, -1, -1, -1, -2, 10],
    [5, -2, -1, -1, -1, -1, -2, 5],
];

/// Rows 1-4 of Norvig's table from *Paradigms of AI Programming*; rows 5-8 mirror them.
const PAIP: [[i32; 8]; 4] = [
    [120, -20, 20, 5, 5, 20, -20, 120],
    [-20, -40, -5, -5, -5, -5, -40, -20],
    [20, -5, 15, 3, 3, 15, -5, 20],
    [5, -5, 3, 3, 3, 3, -5, 5],
];

fn mirrored(top: &[[i32; 8]; 4]) -> Vec<i32> {
    (0..8)
        .flat_map(|row| top[if row < 4 { row } else { 7 - row }])
        .collect()
}

impl crate::strategy::param_info::Shaped for SquareClasses {
    const SHAPE: crate::strategy::param_info::Shape = crate::strategy::param_info::Shape {
        wanted: Some("a table of whole numbers in braces, with keys among corner, c_square, x_square, edge, centre and inner, such as { corner = 100, x_square = -50 }"),
        accepts: |value| {
            const CLASSES: [&str; 6] = ["corner", "c_square", "x_square", "edge", "centre", "inner"];
            value.as_table().is_some_and(|table| {
                table.iter().all(|(key, weight)| {
                    CLASSES.contains(&key.as_str())
                        && weight.as_integer().is_some_and(|w| i32::try_from(w).is_ok())
                })
            })
        },
        time: false,
    };
}

/// Weights per square class, for any board size. A square takes the first class
/// that fits, in the order corner, x-square, c-square, edge, centre, inner.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SquareClasses {
    /// The four corners.
    pub corner: i32,
    /// Edge squares next to a corner.
    pub c_square: i32,
    /// Squares diagonally next to a corner.
    pub x_square: i32,
    /// Other edge squares.
    pub edge: i32,
    /// The four centre squares of the start position.
    pub centre: i32,
    /// Everything else.
    pub inner: i32,
}

impl Default for SquareClasses {
    fn default() -> Self {
        SquareClasses {
            corner: 100,
            c_square: -20,
            x_square: -50,
            edge: 5,
            centre: -1,
            inner: -1,
        }
    }
}

impl SquareClasses {
    /// The full table for a board of `size`.
    #[must_use]
    pub fn table(&self, size: u32) -> Vec<i32> {
        let last = size - 1;
        let mut table = Vec::with_capacity((size * size) as usize);
        for row in 0..size {
            for column in 0..size {
                let at_edge = |v: u32| v == 0 || v == last;
                let near_edge = |v: u32| v == 1 || v == last - 1;
                let centre = |v: u32| v == size / 2 - 1 || v == size / 2;
                table.push(if at_edge(column) && at_edge(row) {
                    self.corner
                } else if near_edge(column) && near_edge(row) {
                    self.x_square
                } else if (at_edge(column) && near_edge(row)) || (near_edge(column) && at_edge(row))
                {
                    self.c_square
                } else if at_edge(column) || at_edge(row) {
                    self.edge
                } else if centre(column) && centre(row) {
                    self.centre
                } else {
                    self.inner
                });
            }
        }
        table
    }
}

/// The table of a preset on a board of `size`, or why there is none.
pub fn preset_table(name: &str, size: u32) -> Result<Vec<i32>, SpecError> {
    let eight_by_eight = |name: &'static str, top: &[[i32; 8]; 4]| {
        if size == 8 {
            Ok(mirrored(top))
        } else {
            Err(SpecError::PresetSize { name, size })
        }
    };
    match name {
        "classic" => eight_by_eight("classic", &CLASSIC),
        "paip" => eight_by_eight("paip", &PAIP),
        "explorer" => Ok(SquareClasses {
            corner: 10,
            c_square: 4,
            x_square: 1,
            edge: 4,
            centre: 1,
            inner: 1,
        }
        .table(size)),
        other => Err(SpecError::UnknownPreset {
            name: other.to_string(),
        }),
    }
}

/// The square-weight evaluation: the sum of weights over own discs, minus the
/// sum over the opponent's unless `own_only`.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightedEval {
    /// One weight per square, row-major from a1.
    pub table: Vec<i32>,
    /// Count own discs only (as the "Reversi Strategy Explorer" did).
    pub own_only: bool,
    /// For each row, the weight sum of every pattern of discs in that row: a row
    /// costs one lookup instead of one per disc.
    row_sums: Vec<i32>,
    size: u32,
}

impl WeightedEval {
    /// The evaluation for a table of `size` x `size` weights.
    #[must_use]
    pub fn new(table: Vec<i32>, own_only: bool) -> Self {
        let size = (table.len() as f64).sqrt().round() as u32;
        assert_eq!((size * size) as usize, table.len(), "a square table");
        let patterns = 1usize << size;
        let mut row_sums = vec![0; size as usize * patterns];
        for row in 0..size as usize {
            for pattern in 0..patterns {
                row_sums[row * patterns + pattern] = (0..size as usize)
                    .filter(|c| pattern >> c & 1 == 1)
                    .map(|c| table[row * size as usize + c])
                    .sum();
            }
        }
        WeightedEval {
            table,
            own_only,
            row_sums,
            size,
        }
    }

    /// Sum of the weights of a set of squares.
    #[inline]
    #[must_use]
    pub fn sum<G: Geometry>(&self, bits: G::Bits) -> i32 {
        debug_assert_eq!(self.size, G::SIZE);
        let patterns = 1usize << G::SIZE;
        // One bounds check for the whole table: every index below is a row's start
        // plus a SIZE-bit field, which the compiler sees is in range.
        let rows = &self.row_sums[..G::SIZE as usize * patterns];
        let mut total = 0;
        for row in 0..G::SIZE {
            total += rows[row as usize * patterns + bits.field(row * G::SIZE, G::SIZE)];
        }
        total
    }
}

impl<G: Geometry> Evaluator<G> for WeightedEval {
    #[inline]
    fn evaluate(&self, board: Board<G>) -> i32 {
        let own = self.sum::<G>(board.player);
        if self.own_only {
            own
        } else {
            own - self.sum::<G>(board.opponent)
        }
    }

    fn square_weights(&self) -> Option<&[i32]> {
        (!self.own_only).then_some(&self.table[..])
    }

    #[inline]
    fn weight_sum(&self, squares: G::Bits) -> i32 {
        // A row at a time, without a branch per square (a move flips 1 to 18 discs).
        self.sum::<G>(squares)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_symmetric_tables() {
        for name in ["classic", "paip"] {
            let t = preset_table(name, 8).unwrap();
            assert_eq!(t.len(), 64);
            for r in 0..8 {
                for c in 0..8 {
                    assert_eq!(t[r * 8 + c], t[c * 8 + r], "{name} transpose");
                    assert_eq!(t[r * 8 + c], t[r * 8 + 7 - c], "{name} mirror");
                }
            }
        }
        assert_eq!(preset_table("classic", 8).unwrap()[9], -50);
        assert_eq!(preset_table("paip", 8).unwrap()[0], 120);
        assert!(preset_table("classic", 6)
            .unwrap_err()
            .to_string()
            .contains("8x8 table"));
        assert!(preset_table("clasic", 8)
            .unwrap_err()
            .to_string()
            .contains("did you mean 'classic'"));
    }

    #[test]
    fn square_weights_sum_to_the_evaluation() {
        use crate::board::{Size8, Square};
        let board = Board::<Size8>::start().play(Square::new(19));
        let eval = WeightedEval::new(preset_table("paip", 8).unwrap(), false);
        let weights = Evaluator::<Size8>::square_weights(&eval).unwrap();
        let sum = |bits: u64| {
            (0..64)
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| weights[i])
                .sum::<i32>()
        };
        assert_eq!(
            eval.evaluate(board),
            sum(board.player) - sum(board.opponent)
        );
        let own_only = WeightedEval::new(preset_table("paip", 8).unwrap(), true);
        assert!(Evaluator::<Size8>::square_weights(&own_only).is_none());
    }

    /// `weight_sum` (a row at a time) agrees with adding the square weights one by
    /// one (the trait's default), on every board size and on sets of many shapes.
    fn weight_sum_is_the_sum_of_weights<G: Geometry>(preset: &str) {
        let eval = WeightedEval::new(preset_table(preset, G::SIZE).unwrap(), false);
        let weights = Evaluator::<G>::square_weights(&eval).unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15_u128 * 0x1234_5678_9abc_def1;
        for _ in 0..200 {
            x = x.wrapping_mul(0x2545_f491_4f6c_dd1d_0000_0000_0000_0001) ^ (x >> 61);
            let set = G::Bits::from_u128(x) & G::FULL;
            let by_square: i32 = crate::board::Indices(set)
                .map(|i| weights[i as usize])
                .sum();
            assert_eq!(Evaluator::<G>::weight_sum(&eval, set), by_square);
        }
        assert_eq!(Evaluator::<G>::weight_sum(&eval, G::Bits::ZERO), 0);
        assert_eq!(
            Evaluator::<G>::weight_sum(&eval, G::FULL),
            weights.iter().sum::<i32>()
        );
    }

    #[test]
    fn weight_sums_agree_with_the_weights() {
        use crate::board::{Size10, Size6, Size8};
        weight_sum_is_the_sum_of_weights::<Size8>("classic");
        weight_sum_is_the_sum_of_weights::<Size6>("explorer");
        weight_sum_is_the_sum_of_weights::<Size10>("explorer");
    }

    #[test]
    fn explorer_and_classes() {
        let t = preset_table("explorer", 8).unwrap();
        assert_eq!((t[0], t[1], t[3], t[9], t[27]), (10, 4, 4, 1, 1));
        assert_eq!(t.iter().filter(|&&w| w == 10).count(), 4);
        assert_eq!(t.iter().filter(|&&w| w == 4).count(), 24);
        let classes = SquareClasses::default().table(10);
        assert_eq!(classes.len(), 100);
        assert_eq!(classes[11], -50);
        assert_eq!(classes[1], -20);
        assert_eq!(classes[44], -1);
    }
}
