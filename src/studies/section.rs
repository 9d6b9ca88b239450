//! What a study adds to a run folder's report: each study that writes its own file
//! beside a run's results says whether a folder is its kind, and if so draws its
//! charts and writes its section. `report` asks every study in its list.

use crate::chart::Chart;
use crate::doc::Section;
use crate::error::Result;
use crate::lab::rows::{CostRow, PairRow, StandingRow};
use std::path::Path;

/// The run's tables a study's section may quote.
#[derive(Clone, Copy, Debug)]
pub struct RunTables<'a> {
    /// The experiment's name.
    pub name: &'a str,
    /// `pairs.csv`.
    pub pairs: &'a [PairRow],
    /// `standings.csv`.
    pub standings: &'a [StandingRow],
    /// `costs.csv`, where the run wrote one.
    pub costs: Option<&'a [CostRow]>,
}

/// Where a study's section goes in the run's report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Before the run's own sections, under the study's title: what the folder was run for.
    First {
        /// The report's title, before `: <name>` (`Sweep report`).
        title: &'static str,
    },
    /// After the run's sections: an analysis added to a run.
    Last,
}

/// A study's section with the charts it drew.
#[derive(Clone, Debug)]
pub struct Part {
    /// The section.
    pub section: Section,
    /// Its charts, drawn into the folder's `charts/`.
    pub charts: Vec<Chart>,
    /// Where it goes.
    pub place: Place,
}

/// A study whose results sit in a run's folder.
pub trait RunStudy: Sync {
    /// What the study is called where folders are listed (`sweep`, `ablation`).
    fn name(&self) -> &'static str;
    /// Whether `dir` holds this study's results.
    fn is_yours(&self, dir: &Path) -> bool;
    /// Draws the study's charts into `dir/charts` and writes its section; `None`
    /// when the folder is not the study's after all.
    fn part(&self, dir: &Path, run: &RunTables<'_>) -> Result<Option<Part>>;
}
