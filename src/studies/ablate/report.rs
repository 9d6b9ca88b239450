//! The ablation's part of its run's report: what was measured, then each part's
//! table and chart, before the run's own sections.

use super::Worth;
use crate::chart::Chart;
use crate::doc::{Block, Section, Table};
use crate::error::Result;
use crate::studies::section::{Part, Place, RunStudy, RunTables};
use std::path::Path;

/// The ablation study, as the report asks it.
pub struct Ablation;

impl RunStudy for Ablation {
    fn name(&self) -> &'static str {
        "ablation"
    }

    fn is_yours(&self, dir: &Path) -> bool {
        dir.join(super::ABLATION_FILE).is_file()
    }

    fn part(&self, dir: &Path, run: &RunTables<'_>) -> Result<Option<Part>> {
        let Some(worths) = super::read_worths(dir)? else {
            return Ok(None);
        };
        let charts = super::write_outputs(dir, run.name, &worths)?;
        Ok(Some(Part {
            section: section(&worths, &charts),
            charts,
            place: Place::First {
                title: "Ablation report",
            },
        }))
    }
}

/// The ablation's section: what was measured, then each part's table and chart.
fn section(worths: &[Worth], charts: &[Chart]) -> Section {
    let mut section = Section::new("ablation", "Ablation: what each feature is worth");
    for line in super::explanation(worths) {
        section = section.with(Block::Text(line));
    }
    for part in super::parts(worths) {
        let stem = if part.alone {
            "ablation-alone"
        } else {
            "ablation"
        };
        section = section
            .with(Block::Subheading(part.title.to_string()))
            .with(Block::Table(Table::new(&part.header, part.rows)));
        if let Some(chart) = charts.iter().find(|c| c.name == stem) {
            section = section.with(Block::Chart(chart.clone()));
        }
    }
    section
}
