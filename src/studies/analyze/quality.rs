//! `quality.csv` and the quality charts: `analysis.csv` summed up per player and
//! empties (best-move share, mean disc loss with its interval over games, blunders,
//! the moves that changed the exact result).

use super::MoveRow;
use crate::chart::{both, tick, Chart, DrawResult, FONT};
use crate::error::{Error, Result};
use crate::lab::rows::{decimals, read_csv};
use crate::stats::Z95;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The `empties` value of a player's row over every analysed position.
pub const ALL: &str = "all";

/// One row of `quality.csv`: one player's moves with a choice (more than one legal
/// move) at one count of empties, or over all of them (`empties` = `all`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualityRow {
    /// The player.
    pub player: String,
    /// Empty squares before the move, or `all`.
    pub empties: String,
    /// Games with at least one of these moves.
    pub games: u64,
    /// Moves with a choice.
    pub moves: u64,
    /// Moves that reached the best score.
    pub best: u64,
    /// `best / moves`.
    #[serde(serialize_with = "decimals::four")]
    pub best_share: Option<f64>,
    /// Mean disc loss per move.
    #[serde(serialize_with = "decimals::three")]
    pub loss_mean: Option<f64>,
    /// 95% interval of the mean loss, normal over games (clustered by game).
    #[serde(serialize_with = "decimals::three")]
    pub loss_low: Option<f64>,
    /// Its upper end.
    #[serde(serialize_with = "decimals::three")]
    pub loss_high: Option<f64>,
    /// The blunder threshold in discs (`--blunder`).
    pub blunder_at: u32,
    /// Moves that lost at least `blunder_at` discs.
    pub blunders: u64,
    /// `blunders / moves`.
    #[serde(serialize_with = "decimals::four")]
    pub blunder_rate: Option<f64>,
    /// Moves that changed the exact result (win to draw or loss, draw to loss).
    pub turns: u64,
    /// Games whose first change of exact result was this player's move.
    pub first_turns: u64,
}

/// Sums of one player's moves in one bucket, per game for the interval.
#[derive(Default)]
struct Bucket {
    /// game_id -> (moves, summed loss).
    per_game: BTreeMap<u64, (u64, i64)>,
    best: u64,
    blunders: u64,
    turns: u64,
    first_turns: u64,
}

impl Bucket {
    fn add(&mut self, row: &MoveRow, blunder: u32) {
        if row.first_turn {
            self.first_turns += 1;
        }
        if !row.turn.is_empty() {
            self.turns += 1;
        }
        if row.legal < 2 {
            return;
        }
        let entry = self.per_game.entry(row.game_id).or_default();
        entry.0 += 1;
        entry.1 += i64::from(row.loss);
        self.best += u64::from(row.loss == 0);
        self.blunders += u64::from(row.loss >= blunder as i32);
    }

    fn row(&self, player: &str, empties: String, blunder: u32) -> QualityRow {
        let moves: u64 = self.per_game.values().map(|v| v.0).sum();
        let loss: i64 = self.per_game.values().map(|v| v.1).sum();
        let share = |k: u64| (moves > 0).then(|| k as f64 / moves as f64);
        let mean = share(0).map(|_| loss as f64 / moves as f64);
        // The ratio estimator's variance with games as clusters: moves of one game
        // are not independent (one bad position gives several bad moves).
        let clusters = self.per_game.len() as f64;
        let (low, high) = match mean {
            Some(m) if clusters >= 2.0 => {
                let spread: f64 = self
                    .per_game
                    .values()
                    .map(|&(n, s)| (s as f64 - m * n as f64).powi(2))
                    .sum();
                let se = (clusters / (clusters - 1.0) * spread).sqrt() / moves as f64;
                (Some(m - Z95 * se), Some(m + Z95 * se))
            }
            _ => (None, None),
        };
        QualityRow {
            player: player.to_string(),
            empties,
            games: self.per_game.len() as u64,
            moves,
            best: self.best,
            best_share: share(self.best),
            loss_mean: mean,
            loss_low: low,
            loss_high: high,
            blunder_at: blunder,
            blunders: self.blunders,
            blunder_rate: share(self.blunders),
            turns: self.turns,
            first_turns: self.first_turns,
        }
    }
}

/// `quality.csv`'s rows from `analysis.csv`'s: per player (by name), the row over
/// all empties, then one per count of empties from `endgame` down to 1 that had a
/// move with a choice.
#[must_use]
pub fn quality_rows(moves: &[MoveRow], endgame: u32, blunder: u32) -> Vec<QualityRow> {
    let mut players: BTreeMap<&str, (Bucket, BTreeMap<u32, Bucket>)> = BTreeMap::new();
    for row in moves {
        let (all, by_empties) = players.entry(&row.player).or_default();
        all.add(row, blunder);
        by_empties.entry(row.empties).or_default().add(row, blunder);
    }
    let mut rows = Vec::new();
    for (player, (all, by_empties)) in &players {
        rows.push(all.row(player, ALL.to_string(), blunder));
        for empties in (1..=endgame).rev() {
            // Counts with only forced moves (always 1 empty) say nothing: no row.
            if let Some(bucket) = by_empties.get(&empties).filter(|b| !b.per_game.is_empty()) {
                rows.push(bucket.row(player, empties.to_string(), blunder));
            }
        }
    }
    rows
}

/// Writes `quality.csv`.
pub fn write_quality(path: &Path, rows: &[QualityRow]) -> Result<()> {
    let mut writer = csv::Writer::from_path(path).map_err(|e| Error::csv("write", path, e))?;
    for row in rows {
        writer
            .serialize(row)
            .map_err(|e| Error::csv("write", path, e))?;
    }
    writer.flush().map_err(|e| Error::io(path, e))
}

/// The rows of `dir`'s `quality.csv`, if it has one.
pub fn read_quality(dir: &Path) -> Result<Option<Vec<QualityRow>>> {
    let path = dir.join(super::QUALITY_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    read_csv(&path).map(Some)
}

/// One line per player: (name, [(empties, value)]).
type Series = Vec<(String, Vec<(u32, f64)>)>;

fn series(rows: &[QualityRow], value: impl Fn(&QualityRow) -> Option<f64>) -> Series {
    let mut out: Series = Vec::new();
    for row in rows {
        let (Ok(empties), Some(v)) = (row.empties.parse::<u32>(), value(row)) else {
            continue;
        };
        match out.last_mut() {
            Some((name, points)) if *name == row.player => points.push((empties, v)),
            _ => out.push((row.player.clone(), vec![(empties, v)])),
        }
    }
    out
}

/// Draws `quality-loss` (mean disc loss by empties, one line per player) and
/// `quality-blunders` (blunder rate by empties) into `dir`.
pub fn draw_charts(dir: &Path, rows: &[QualityRow]) -> Result<Vec<Chart>> {
    let blunder = rows
        .first()
        .map_or(super::DEFAULT_BLUNDER, |r| r.blunder_at);
    let loss = series(rows, |r| r.loss_mean);
    if loss.is_empty() {
        return Ok(Vec::new());
    }
    let rate = series(rows, |r| r.blunder_rate.map(|x| 100.0 * x));
    let loss_title = "Mean disc loss per move against perfect play, by empty squares";
    let rate_title =
        format!("Blunders (a loss of at least {blunder} discs) per 100 moves, by empty squares");
    Ok(vec![
        both!(dir, "quality-loss", loss_title, (900, 520), |root| draw(
            root,
            &loss,
            loss_title,
            "mean disc loss per move"
        ))?,
        both!(dir, "quality-blunders", &rate_title, (900, 520), |root| {
            draw(root, &rate, &rate_title, "blunders per 100 moves")
        })?,
    ])
}

/// Lines by empties, most empties on the left (the order the game plays them).
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lines: &Series,
    title: &str,
    y_desc: &str,
) -> DrawResult<DB> {
    let most = lines
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.0))
        .max()
        .unwrap_or(1) as i32;
    let top = lines
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .fold(0.0, f64::max)
        .max(0.1)
        * 1.15;
    // x is minus the empties, so that the axis reads in the game's order, down to
    // 1 empty (0 has no move). The legend goes top right, where the losses are small.
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 20))
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(60)
        .build_cartesian_2d(-most..-1, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc("empty squares before the move")
        .y_desc(y_desc)
        .x_labels(most as usize)
        .x_label_formatter(&|x| (-x).to_string())
        .y_label_formatter(&|y| tick(*y))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()?;
    for (i, (name, points)) in lines.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let xy: Vec<(i32, f64)> = points.iter().map(|&(e, v)| (-(e as i32), v)).collect();
        chart
            .draw_series(LineSeries::new(xy.clone(), colour.stroke_width(2)))?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        chart.draw_series(xy.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game_id: u64, player: &str, empties: u32, legal: u32, loss: i32, turn: &str) -> MoveRow {
        MoveRow {
            first_turn: false,
            game_id,
            empties,
            player: player.into(),
            legal,
            loss,
            turn: turn.into(),
            ..MoveRow::default()
        }
    }

    #[test]
    fn sums_per_player_with_a_game_clustered_interval() {
        let moves = [
            row(0, "a", 3, 2, 0, ""),
            MoveRow {
                first_turn: true,
                ..row(0, "b", 2, 3, 8, "win-loss")
            },
            row(0, "a", 1, 1, 0, ""),
            MoveRow {
                first_turn: true,
                ..row(1, "a", 3, 4, 4, "draw-loss")
            },
            row(1, "b", 2, 2, 2, "win-draw"),
        ];
        let rows = quality_rows(&moves, 3, 6);
        let keys: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.player.as_str(), r.empties.as_str()))
            .collect();
        // No row for 1 empty: its only move was forced.
        assert_eq!(keys, [("a", "all"), ("a", "3"), ("b", "all"), ("b", "2")]);
        let a = &rows[0];
        assert_eq!((a.games, a.moves, a.best, a.blunders), (2, 2, 1, 0));
        assert_eq!(a.loss_mean, Some(2.0));
        // Games as clusters: per-game sums 0 and 4 around 2 per move, G/(G-1) = 2,
        // se = sqrt(2 * (4 + 4)) / 2 = 2.
        assert!((a.loss_high.unwrap() - (2.0 + Z95 * 2.0)).abs() < 1e-9);
        assert_eq!((a.turns, a.first_turns), (1, 1));
        let b = &rows[2];
        assert_eq!((b.blunders, b.turns, b.first_turns), (1, 2, 1));
        assert_eq!(b.blunder_rate, Some(0.5));
    }

    #[test]
    fn one_game_has_no_interval() {
        let rows = quality_rows(&[row(0, "a", 2, 2, 3, "")], 2, 6);
        assert_eq!(rows[0].loss_mean, Some(3.0));
        assert_eq!((rows[0].loss_low, rows[0].loss_high), (None, None));
    }
}
