//! Reports a person reads: charts (PNG and SVG) and `report.md` / `report.html`, one
//! file per format, for every kind of results folder: a tune's, or a run's with the
//! sections of the studies whose results sit beside it (each study's section lives
//! with the study, under `studies/`).

pub mod animate;
pub(crate) mod charts;
mod data;
mod diversity;
mod engines;
mod field;
mod html;
pub(crate) mod look;
mod markdown;
mod notable;
mod run;
mod svg_game;
pub mod viewer;

pub use crate::chart::{interval_chart, Chart};
pub use crate::doc::{replay, Document};
pub use animate::write_game;
pub use charts::draw_all;
pub use data::{PairRow, Results, StandingRow};
pub use notable::Notable;

use crate::error::Result;
use crate::studies::section::{Place, RunStudy, RunTables};
use crate::studies::tune::report as tune;
use std::path::{Path, PathBuf};

/// Every study a run's folder can hold, in the order their sections are placed.
pub const RUN_STUDIES: [&dyn RunStudy; 3] = [
    &crate::studies::ablate::report::Ablation,
    &crate::studies::sweep::report::Sweep,
    &crate::studies::analyze::report::Quality,
];

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

/// The report's page to open in a browser (`report.html`) in the folder `dir`.
#[must_use]
pub fn page(dir: &Path) -> PathBuf {
    dir.join(html::Html.file_name())
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

/// Draws the charts and writes every report format into a results folder: a tune's,
/// or a run's with the section of each study whose results it holds (an ablation, a
/// sweep, move quality; see [`RUN_STUDIES`]).
pub fn write_report(dir: &Path) -> Result<Written> {
    let mut warnings = Vec::new();
    let (doc, charts) = if tune::is_tune_folder(dir) {
        let run_report = |folder: &Path| write_report(folder).map(|w| w.warnings);
        let (doc, charts, nested) = tune::report(dir, &run_report)?;
        warnings = nested;
        (doc, charts)
    } else {
        let results = Results::load(dir)?;
        let mut charts = draw_all(&results)?;
        warnings.extend(diversity::warning(&results));
        let mut doc = run::document(&results, &charts);
        let name = results.name().to_string();
        let tables = RunTables {
            name: &name,
            pairs: &results.pairs,
            standings: &results.standings,
            costs: results.costs.as_deref(),
        };
        let mut first = Vec::new();
        for study in RUN_STUDIES.iter().filter(|s| s.is_yours(dir)) {
            let Some(part) = study.part(dir, &tables)? else {
                continue;
            };
            charts.extend(part.charts);
            match part.place {
                Place::First { title } => {
                    doc.title = format!("{title}: {name}");
                    first.push(part.section);
                }
                Place::Last => doc.sections.push(part.section),
            }
        }
        doc.sections.splice(0..0, first);
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

/// A run folder's `report.html` as text, without writing into the folder: its charts
/// are drawn into `charts` (the web view's own scratch folder). None for a tune's
/// folder or a run's with a study's results, whose sections draw into the folder.
pub fn html_page(dir: &Path, charts: &Path) -> Result<Option<String>> {
    if tune::is_tune_folder(dir) || RUN_STUDIES.iter().any(|s| s.is_yours(dir)) {
        return Ok(None);
    }
    let results = Results::load(dir)?;
    let drawn = charts::draw_all_in(&results, charts)?;
    html::Html
        .render(&run::document(&results, &drawn))
        .map(Some)
}

/// A tune's parameters and traces as they stand, as an HTML page with its charts
/// drawn into `charts`: the live view of a tune still running.
pub fn tune_traces_page(dir: &Path, charts: &Path) -> Result<String> {
    html::Html.render(&tune::traces(dir, charts)?)
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
