//! `report.md`: a report document as Markdown, charts linked as SVG files.

use super::ReportFormat;
use crate::doc::{Block, Document, Table};
use crate::error::Result;
use std::fmt::Write as _;

/// The Markdown report.
pub struct Markdown;

fn table(out: &mut String, table: &Table) {
    let cell = |s: &str| s.replace('|', "\\|");
    writeln!(out, "| {} |", table.header.join(" | ")).ok();
    // Numbers right-aligned, as in the HTML report.
    let rule: String = table
        .numeric()
        .iter()
        .map(|&n| if n { "---:|" } else { "---|" })
        .collect();
    writeln!(out, "|{rule}").ok();
    for row in &table.rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if table.code.contains(&i) {
                    format!("`{c}`")
                } else {
                    cell(c)
                }
            })
            .collect();
        writeln!(out, "| {} |", cells.join(" | ")).ok();
    }
    writeln!(out).ok();
}

impl ReportFormat for Markdown {
    fn file_name(&self) -> &'static str {
        "report.md"
    }

    fn render(&self, doc: &Document) -> Result<String> {
        let mut out = String::new();
        writeln!(out, "# {}\n", doc.title).ok();
        if let Some(warning) = &doc.warning {
            writeln!(out, "**{warning}**\n").ok();
        }
        for section in &doc.sections {
            writeln!(out, "## {}\n", section.heading).ok();
            for block in &section.blocks {
                match block {
                    Block::Text(text) => writeln!(out, "{text}\n").ok(),
                    Block::Subheading(text) => writeln!(out, "### {text}\n").ok(),
                    Block::List(lines) => {
                        for line in lines {
                            writeln!(out, "- {line}").ok();
                        }
                        writeln!(out).ok()
                    }
                    Block::Links(links) => {
                        for (text, href) in links {
                            writeln!(out, "- [{text}]({href})").ok();
                        }
                        writeln!(out).ok()
                    }
                    Block::Table(t) => {
                        table(&mut out, t);
                        Some(())
                    }
                    Block::Game(game) => {
                        writeln!(out, "{}\n\n```\n{}\n```\n", game.caption, game.transcript).ok()
                    }
                    Block::Chart(chart) => writeln!(
                        out,
                        "### {}\n\n![{}](charts/{}.svg)\n",
                        chart.title, chart.title, chart.name
                    )
                    .ok(),
                };
            }
        }
        Ok(out)
    }
}
