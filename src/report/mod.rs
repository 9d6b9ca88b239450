//! Reports a person reads: charts (PNG and SVG) and `report.md` / `report.html`, one
//! file per format, for every kind of results folder: a run (an ablation or a sweep
//! is a run with `ablation.csv` or `sweep.csv` beside it) or a tune.

pub mod animate;
pub(crate) mod charts;
mod data;
mod diversity;
pub mod doc;
mod engines;
mod field;
mod html;
mod look;
mod markdown;
mod notable;
mod quality;
pub mod replay;
mod run;
mod svg_game;
mod sweep;
mod tune;
mod viewer;

pub use crate::chart::{interval_chart, Chart};
pub use animate::write_game;
pub use charts::draw_all;
pub use data::{PairRow, Results, StandingRow};
pub use doc::Document;
pub use notable::Notable;

use crate::error::Result;
use std::path::{Path, PathBuf};

/// A report format: renders a report document as one file.
pub trait ReportFormat {
    /// The file written into the results folder.
    fn file_name(&self) -> &'static str;
    /// The file's text.
    fn render(&self, doc: &Document) -> Result<String>;
}

/// Every format `report` writes.
#[must_use]
pub fn formats() -> Vec<Box<dyn ReportFormat>> {
    vec![Box::new(markdown::Markdown), Box::new(html::Html)]
}

/// What [`write_report`] wrote, and what the person running it should hear as well
/// as read in the report (the command says it: the library prints nothing).
#[derive(Debug, Default)]
pub struct Written {
    /// The files written: charts (PNG and SVG) and each report format.
    pub files: Vec<PathBuf>,
    /// Warnings the report also opens with (replayed games), a line each.
    pub warnings: Vec<String>,
}

/// Draws the charts and writes every report format into a results folder: a run's
/// (with its ablation, if it is one) or a tune's.
pub fn write_report(dir: &Path) -> Result<Written> {
    let mut warnings = Vec::new();
    let (doc, charts) = if tune::is_tune_folder(dir) {
        let (doc, charts, nested) = tune::report(dir)?;
        warnings = nested;
        (doc, charts)
    } else {
        let results = Results::load(dir)?;
        let mut charts = draw_all(&results)?;
        let ablation = match crate::studies::ablate::read_worths(dir)? {
            Some(worths) => {
                let drawn =
                    crate::studies::ablate::write_outputs(dir, &results.setting("name"), &worths)?;
                charts.extend(drawn.iter().cloned());
                Some((worths, drawn))
            }
            None => None,
        };
        warnings.extend(diversity::warning(&results));
        let mut doc = run::document(&results, &charts, ablation.as_ref());
        // A sweep's own section comes first, its charts beside it rather than among the run's.
        if let Some(rows) = crate::studies::sweep::read_rows(dir)? {
            let drawn = sweep::draw(&dir.join("charts"), &rows, &results)?;
            doc.sections
                .insert(0, sweep::section(&rows, &results, &drawn));
            doc.title = format!("Sweep report: {}", results.setting("name"));
            charts.extend(drawn);
        }
        if let Some((section, drawn)) = quality::section(dir)? {
            doc.sections.push(section);
            charts.extend(drawn);
        }
        (doc, charts)
    };
    let mut written: Vec<PathBuf> = charts
        .iter()
        .flat_map(|c| [c.png.clone(), c.svg.clone()])
        .collect();
    for format in formats() {
        let path = dir.join(format.file_name());
        let text = format.render(&doc)?;
        crate::lab::folder::write_atomically(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(Written {
        files: written,
        warnings,
    })
}

/// The warning a report of an unfinished run opens with, if it is one.
#[must_use]
pub fn partial_note(results: &Results) -> Option<String> {
    results.partial.map(|(played, total)| {
        format!(
            "PARTIAL RESULTS: {played} of {total} games so far (the run is still going or was interrupted; `reversi-lab run --resume` finishes it). Every figure below counts only these games."
        )
    })
}

/// A percentage with its interval: `61.3% [60.1%, 62.5%]` (intervals need not be symmetric).
#[must_use]
pub fn percent_interval(mean: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    match (mean, low, high) {
        (Some(m), Some(l), Some(h)) if m.is_finite() => {
            format!("{:.1}% [{:.1}%, {:.1}%]", 100.0 * m, 100.0 * l, 100.0 * h)
        }
        (Some(m), _, _) if m.is_finite() => format!("{:.1}%", 100.0 * m),
        _ => "-".into(),
    }
}

/// An Elo value with its interval: `+120 [+98, +143]`, `0 [-166, +166]` (zero
/// unsigned), `+inf` for an infinite end; `-` for a missing value.
#[must_use]
pub fn elo_interval(elo: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    match (elo, low, high) {
        (Some(e), Some(l), Some(h)) => crate::numbers::elo_interval(e, l, h),
        (Some(e), _, _) => crate::numbers::signed(e, 0),
        _ => "-".into(),
    }
}
