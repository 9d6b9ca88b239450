//! The report's move-quality section, shown when `analyze` has written `quality.csv`:
//! each player's moves against perfect play, overall and by empties, with the charts.

use super::{draw_charts, read_quality, recorded_endgame, QualityRow, ALL};
use crate::chart::Chart;
use crate::doc::{Block, Section, Table};
use crate::error::Result;
use crate::studies::section::{Part, Place, RunStudy, RunTables};
use std::path::Path;

/// Move quality, as the report asks it.
pub struct Quality;

impl RunStudy for Quality {
    fn name(&self) -> &'static str {
        "analysis"
    }

    fn is_yours(&self, dir: &Path) -> bool {
        dir.join(super::QUALITY_FILE).is_file()
    }

    fn part(&self, dir: &Path, run: &RunTables<'_>) -> Result<Option<Part>> {
        let games: u64 = run.pairs.iter().map(|p| p.games).sum();
        Ok(section(dir, games)?.map(|(section, charts)| Part {
            section,
            charts,
            place: Place::Last,
        }))
    }
}

/// The section and its charts (drawn again into `dir/charts`), if `dir` holds
/// `quality.csv`; `games` is how many games the run holds now.
fn section(dir: &Path, games: u64) -> Result<Option<(Section, Vec<Chart>)>> {
    let Some(rows) = read_quality(dir)? else {
        return Ok(None);
    };
    let charts = draw_charts(
        &crate::lab::ResultsFolder::at(dir).path(crate::lab::FolderFile::Charts),
        &rows,
    )?;
    // K itself, not the most empties seen: a K no game reached would otherwise be misstated.
    let most = recorded_endgame(dir).unwrap_or_else(|| {
        rows.iter()
            .filter_map(|r| r.empties.parse::<u32>().ok())
            .max()
            .unwrap_or(0)
    });
    let blunder = rows.first().map_or(0, |r| r.blunder_at);
    let mut section = Section::new("quality", "Move quality against perfect play");
    // An analysis made before the run grew describes its first games only: said so.
    if let Some(analysed) = super::recorded_games(dir).filter(|&n| n < games) {
        section = section.with(Block::Text(format!(
            "This analysis covers the first {analysed} of the run's {games} games: it was made before the run grew. \
             `reversi-lab analyze {} --resume` extends it to the rest.",
            dir.display()
        )));
    }
    section = section.with(
        Block::Text(format!(
            "Every position with at most {most} empty squares was solved exactly under the run's rules \
             (reversi-lab analyze), so these numbers are true values for these games, not estimates: \
             a move's disc loss is the exact best score minus the exact score after the move played. \
             Only moves with a choice count (forced moves are left out); the opening's moves are not the players'. \
             The interval of the mean loss is a 95% normal interval with games as clusters (the moves of one game are not independent). \
             A blunder loses at least {blunder} discs. \"Threw\" counts the games whose exact result a player's move changed first \
             (win to draw or loss, draw to loss). Per move: analysis.csv; per player and empties: quality.csv."
        )),
    );
    section = section.with(Block::Table(overall(&rows)));
    for chart in &charts {
        section = section.with(Block::Chart(chart.clone()));
    }
    Ok(Some((section, charts)))
}

fn overall(rows: &[QualityRow]) -> Table {
    let percent = |x: Option<f64>| x.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v));
    let body = rows
        .iter()
        .filter(|r| r.empties == ALL)
        .map(|r| {
            vec![
                r.player.clone(),
                r.moves.to_string(),
                percent(r.best_share),
                match (r.loss_mean, r.loss_low, r.loss_high) {
                    (Some(m), Some(l), Some(h)) => format!("{m:.2} [{l:.2}, {h:.2}]"),
                    (Some(m), _, _) => format!("{m:.2}"),
                    _ => "-".into(),
                },
                percent(r.blunder_rate),
                r.turns.to_string(),
                r.first_turns.to_string(),
            ]
        })
        .collect();
    Table::new(
        &[
            "player",
            "moves",
            "best move",
            "mean disc loss [95%]",
            "blunders",
            "result changes",
            "threw first",
        ],
        body,
    )
}
