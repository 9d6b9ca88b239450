//! Multi-ProbCut (Buro, 1997): a shallow search predicts a deep one, so a node whose
//! shallow value lies far enough outside the window is cut without the deep search.
//! The prediction is a line fitted per stage and depth from shallow-against-deep value
//! pairs (`fit-probcut`), shipped as `probcut-8x8.csv`; see docs/training.md.

use crate::strategy::pattern::SCALE;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The shallowest remaining depth that tries a cut (its shallow search is depth 1).
pub const MIN_DEPTH: u32 = 3;
/// Empties per stage of the fitted table.
pub const STAGE_EMPTIES: u32 = 4;
/// The shipped fit, for the shipped pattern weights on 8x8 under the standard rules.
static SHIPPED: &str = include_str!("probcut-8x8.csv");

/// The shallow depth that predicts a search of `depth` plies: about half as deep,
/// of the same parity (an odd search ends on the mover's ply, an even one on the
/// opponent's, and pattern values differ between the two on average).
#[must_use]
pub const fn shallow_depth(depth: u32) -> u32 {
    let half = depth / 2;
    let same_parity = (half & !1) | (depth & 1);
    if same_parity == 0 {
        1
    } else {
        same_parity
    }
}

/// The stage (row group) of a position with `empties` empty squares.
#[must_use]
pub const fn stage_of(empties: u32) -> u32 {
    empties / STAGE_EMPTIES
}

/// One fitted line: a deep value is `slope` times the shallow one plus
/// `intercept`, with residuals of standard deviation `sigma` (both in discs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The stage: positions with `STAGE_EMPTIES * stage` up to 3 more empties.
    pub stage: u32,
    /// The deep search's depth.
    pub depth: u32,
    /// The shallow search's depth (`shallow_depth(depth)`).
    pub shallow: u32,
    /// The value pairs fitted.
    pub pairs: u32,
    /// The line's slope.
    pub slope: f64,
    /// The line's intercept, in discs.
    pub intercept: f64,
    /// The residuals' standard deviation, in discs.
    pub sigma: f64,
}

/// What a node of `depth` plies tries: the shallow depth and the line in the
/// evaluation's units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// The shallow search's depth.
    pub shallow: u32,
    /// See [`Row::slope`].
    pub slope: f32,
    /// See [`Row::intercept`], in evaluation units.
    pub intercept: f32,
    /// See [`Row::sigma`], in evaluation units.
    pub sigma: f32,
}

impl Cut {
    /// The shallow value at or above which the deep one is at least `beta` with the
    /// confidence `t` (standard deviations), and the one at or below which it is at
    /// most `alpha`.
    #[must_use]
    pub fn bounds(&self, t: f32, alpha: i32, beta: i32) -> (i32, i32) {
        let margin = t * self.sigma;
        let high = ((beta as f32 + margin - self.intercept) / self.slope).ceil();
        let low = ((alpha as f32 - margin - self.intercept) / self.slope).floor();
        (low as i32, high as i32)
    }
}

/// The fitted lines by stage and depth.
#[derive(Clone, Debug)]
pub struct Table {
    /// Indexed by stage, then by depth - `MIN_DEPTH`.
    cuts: Vec<Vec<Option<Cut>>>,
}

/// Fewer pairs than this give no line: too few to trust its deviation.
pub const MIN_PAIRS: u32 = 30;

impl Table {
    /// The table the rows give (rows of too few pairs or a flat line are left out).
    #[must_use]
    pub fn from_rows(rows: &[Row]) -> Self {
        let stages = rows.iter().map(|r| r.stage + 1).max().unwrap_or(0) as usize;
        let depths = rows.iter().map(|r| r.depth + 1).max().unwrap_or(0);
        let depths = depths.saturating_sub(MIN_DEPTH) as usize;
        let mut cuts = vec![vec![None; depths]; stages];
        for row in rows {
            if row.depth < MIN_DEPTH || row.pairs < MIN_PAIRS || row.slope < 0.25 {
                continue;
            }
            cuts[row.stage as usize][(row.depth - MIN_DEPTH) as usize] = Some(Cut {
                shallow: row.shallow,
                slope: row.slope as f32,
                intercept: (row.intercept * f64::from(SCALE)) as f32,
                sigma: (row.sigma * f64::from(SCALE)) as f32,
            });
        }
        Table { cuts }
    }

    /// The shipped table.
    #[must_use]
    pub fn shipped() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        TABLE.get_or_init(|| {
            let rows = read_rows(SHIPPED.as_bytes()).expect("the shipped probcut table parses");
            Table::from_rows(&rows)
        })
    }

    /// The cut a node of `depth` plies with `empties` empties tries: its stage's line
    /// for that depth, or for the deepest depth fitted where the search is deeper.
    #[must_use]
    pub fn cut(&self, empties: u32, depth: u32) -> Option<Cut> {
        let row = self.cuts.get(stage_of(empties) as usize)?;
        let last = row.len().checked_sub(1)?;
        let at = (depth.checked_sub(MIN_DEPTH)? as usize).min(last);
        let cut = row[at]?;
        // A deeper search than the fit uses its own shallow depth with the deepest line.
        Some(Cut {
            shallow: if at == last {
                shallow_depth(depth)
            } else {
                cut.shallow
            },
            ..cut
        })
    }
}

/// Rows from CSV text with a header.
///
/// # Errors
/// When the text is not such a table.
pub fn read_rows(bytes: &[u8]) -> Result<Vec<Row>, csv::Error> {
    csv::Reader::from_reader(bytes).deserialize().collect()
}

/// The least-squares line through `pairs` of (shallow, deep) values in discs, and
/// its residuals' standard deviation: (slope, intercept, sigma). None for fewer than
/// two pairs or shallow values that do not vary.
#[must_use]
pub fn fit_line(pairs: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = pairs.len() as f64;
    if pairs.len() < 2 {
        return None;
    }
    let mean_x = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = mean_y - slope * mean_x;
    let squares: f64 = pairs
        .iter()
        .map(|p| (p.1 - slope * p.0 - intercept).powi(2))
        .sum();
    // Two parameters fitted: n - 2 degrees of freedom.
    let sigma = (squares / (n - 2.0).max(1.0)).sqrt();
    Some((slope, intercept, sigma))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{squares, Bits, Board, Size8};
    use crate::strategy::pattern::PatternEval;
    use crate::strategy::Memory;

    #[test]
    fn shallow_depths_are_about_half_with_the_same_parity() {
        let pairs: Vec<(u32, u32)> = (3..=12).map(|d| (d, shallow_depth(d))).collect();
        assert_eq!(
            pairs,
            [
                (3, 1),
                (4, 2),
                (5, 3),
                (6, 2),
                (7, 3),
                (8, 4),
                (9, 5),
                (10, 4),
                (11, 5),
                (12, 6)
            ]
        );
    }

    #[test]
    fn a_line_is_recovered_with_its_spread() {
        // y = 0.9 x + 2 with residuals +1, -1 alternating: sigma = sqrt(n / (n - 2)).
        let pairs: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = f64::from(i) - 50.0;
                (x, 0.9 * x + 2.0 + if i % 2 == 0 { 1.0 } else { -1.0 })
            })
            .collect();
        let (slope, intercept, sigma) = fit_line(&pairs).unwrap();
        assert!((slope - 0.9).abs() < 1e-3, "{slope}");
        assert!((intercept - 2.0).abs() < 0.05, "{intercept}");
        assert!((sigma - (100.0f64 / 98.0).sqrt()).abs() < 0.01, "{sigma}");
        assert_eq!(fit_line(&[(1.0, 2.0), (1.0, 3.0)]), None);
    }

    #[test]
    fn bounds_put_the_window_t_deviations_past_the_line() {
        let cut = Cut {
            shallow: 2,
            slope: 1.0,
            intercept: 64.0,
            sigma: 128.0,
        };
        // beta 1000: the shallow value must reach 1000 + 1.5 * 128 - 64.
        assert_eq!(
            cut.bounds(1.5, -1000, 1000),
            (-1000 - 192 - 64, 1000 + 192 - 64)
        );
    }

    /// A search of `depth` over the shipped pattern weights, with `probcut`.
    fn player(depth: u32, probcut: Option<f32>) -> super::super::AlphaBeta<Size8, PatternEval> {
        super::super::AlphaBeta {
            depth,
            eval: PatternEval::for_board::<Size8>().unwrap(),
            endgame: 0,
            nodes: None,
            time: None,
            probcut,
            table: true,
            ordering: true,
            table_bits: 16,
            rules: crate::game::Rules::default(),
            geometry: std::marker::PhantomData,
        }
    }

    /// The position after `plies` moves, spread over the legal squares.
    fn after(plies: usize) -> Board<Size8> {
        let mut board = Board::<Size8>::start();
        for ply in 0..plies {
            if !board.can_move() {
                board = board.pass();
            }
            let count = board.moves().count() as usize;
            board = board.play(squares(board.moves()).nth(ply * 7 % count).unwrap());
        }
        assert!(board.can_move(), "{plies} plies");
        board
    }

    #[test]
    fn cuts_save_nodes_in_the_midgame_and_leave_proven_endgames_exact() {
        for plies in [12, 20, 28] {
            let board = after(plies);
            let (mut full, mut selective) = (Memory::new(), Memory::new());
            player(8, None).search(board, board.moves(), &mut full);
            player(8, Some(1.5)).search(board, board.moves(), &mut selective);
            assert!(
                selective.nodes * 2 < full.nodes,
                "{plies} plies: {} nodes with cuts, {} without",
                selective.nodes,
                full.nodes
            );
        }
        // Searched to the end, every window is a proven result: nothing is cut.
        let board = after(48);
        let depth = board.empty_count();
        let plain = player(depth, None).search(board, board.moves(), &mut Memory::new());
        let cut = player(depth, Some(1.0)).search(board, board.moves(), &mut Memory::new());
        assert!(crate::strategy::proven_margin(plain.0).is_some());
        assert_eq!(plain, cut);
    }

    #[test]
    fn the_shipped_table_parses_and_deeper_searches_use_the_deepest_line() {
        let table = Table::shipped();
        let cut = table.cut(40, 6).expect("a midgame line at depth 6");
        assert_eq!(cut.shallow, 2);
        let deep = table
            .cut(40, 30)
            .expect("the deepest line serves deeper searches");
        assert_eq!(deep.shallow, shallow_depth(30));
        assert_eq!(table.cut(40, 2), None);
    }
}
