//! `report.md`: the report as Markdown, charts linked as SVG files.

use super::{tables, Chart, ReportFormat, Results};
use crate::error::Result;
use std::fmt::Write as _;

/// The Markdown report.
pub struct Markdown;

fn table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    let cell = |s: &str| s.replace('|', "\\|");
    writeln!(out, "| {} |", header.join(" | ")).ok();
    writeln!(out, "|{}", "---|".repeat(header.len())).ok();
    for row in rows {
        writeln!(
            out,
            "| {} |",
            row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")
        )
        .ok();
    }
    writeln!(out).ok();
}

impl ReportFormat for Markdown {
    fn file_name(&self) -> &'static str {
        "report.md"
    }

    fn render(&self, results: &Results, charts: &[Chart]) -> Result<String> {
        let t = tables(results);
        let mut out = String::new();
        writeln!(out, "# Experiment report: {}\n", results.setting("name")).ok();
        if let Some(note) = super::partial_note(results) {
            writeln!(out, "**{note}**\n").ok();
        }
        writeln!(out, "## The experiment as run\n").ok();
        let setup: Vec<Vec<String>> = t
            .setup
            .iter()
            .map(|(k, v)| vec![k.clone(), v.clone()])
            .collect();
        table(&mut out, &["setting", "value"], &setup);
        let players: Vec<Vec<String>> = t
            .players
            .iter()
            .map(|(n, s)| vec![n.clone(), format!("`{s}`")])
            .collect();
        table(&mut out, &["player", "strategy"], &players);
        writeln!(out, "## Standings\n").ok();
        writeln!(out, "Ratings: a Bradley-Terry (logistic Elo) MAP fit with a weak prior over all games, averaging 0, with 95% intervals (see Statistics).\n").ok();
        table(&mut out, &t.standings_header, &t.standings);
        writeln!(out, "## Pairs\n").ok();
        writeln!(out, "From A's point of view, with 95% intervals in the model the \"model, sample\" column names (see Statistics); LOS is the likelihood that A is stronger.\n").ok();
        table(&mut out, &t.pairs_header, &t.pairs);
        writeln!(out, "## Results by colour\n").ok();
        table(&mut out, &t.colours_header, &t.colours);
        writeln!(out, "## Statistics\n").ok();
        for line in &t.statistics {
            writeln!(out, "- {line}").ok();
        }
        writeln!(out).ok();
        writeln!(out, "## Charts\n").ok();
        for chart in charts {
            writeln!(
                out,
                "### {}\n\n![{}](charts/{}.svg)\n",
                chart.title, chart.title, chart.name
            )
            .ok();
        }
        writeln!(out, "## Run\n").ok();
        let meta: Vec<Vec<String>> = t
            .metadata
            .iter()
            .map(|(k, v)| vec![k.clone(), v.clone()])
            .collect();
        table(&mut out, &["", ""], &meta);
        Ok(out)
    }
}
