//! `report.html`: a report document as one self-contained HTML page, with a contents
//! list at the top and the charts inlined as SVG.

use super::look::escape;
use super::{viewer, ReportFormat};
use crate::doc::{Block, Document, Table};
use crate::error::{Error, Result};
use std::fmt::Write as _;

/// The HTML report.
pub struct Html;

/// Cells are right-aligned by the style sheet; text columns (class `l`) are not,
/// so a number sits under its header and names read from the left. Numbers do not
/// wrap (an interval split over three lines is hard to read): a table wider than the
/// page scrolls sideways instead.
fn table(out: &mut String, table: &Table) {
    let numeric = table.numeric();
    let class = |i: usize| {
        if numeric.get(i).copied().unwrap_or(false) {
            ""
        } else {
            " class=\"l\""
        }
    };
    out.push_str("<div class=\"wide\"><table>\n<tr>");
    for (i, h) in table.header.iter().enumerate() {
        write!(out, "<th{}>{}</th>", class(i), escape(h)).ok();
    }
    out.push_str("</tr>\n");
    for row in &table.rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            if table.code.contains(&i) {
                write!(out, "<td{}><code>{}</code></td>", class(i), escape(cell)).ok();
            } else {
                write!(out, "<td{}>{}</td>", class(i), escape(cell)).ok();
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right;vertical-align:top}\
.l{text-align:left}td:not(.l){white-space:nowrap}.wide{overflow-x:auto}th{background:#f0f0f0}nav{background:#f7f7f7;border:1px solid #ddd;padding:0.5em 1.5em;display:inline-block}\
nav ol{margin:0.3em 0;padding-left:1.2em}.warning{color:#a00}\
svg{max-width:100%;height:auto}code{font-size:90%}figure.game{margin:0.5em 2em 1em 0;display:inline-block;vertical-align:top;max-width:24em}\
figure.game figcaption{font-size:95%}figure.game p{margin:0.2em 0}code.transcript{word-break:break-all;font-size:80%;color:#555}";

impl ReportFormat for Html {
    fn file_name(&self) -> &'static str {
        "report.html"
    }

    fn render(&self, doc: &Document) -> Result<String> {
        let title = escape(&doc.title);
        let has_games = doc
            .sections
            .iter()
            .flat_map(|s| &s.blocks)
            .any(|b| matches!(b, Block::Game(_)));
        let games_style = if has_games {
            viewer::style()
        } else {
            String::new()
        };
        let mut out = String::new();
        write!(
            out,
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title><style>{STYLE}{games_style}</style></head><body>\n<h1>{title}</h1>\n"
        )
        .ok();
        if let Some(warning) = &doc.warning {
            writeln!(
                out,
                "<p class=\"warning\"><strong>{}</strong></p>",
                escape(warning)
            )
            .ok();
        }
        out.push_str("<nav id=\"contents\"><strong>Contents</strong>\n<ol>\n");
        for section in &doc.sections {
            writeln!(
                out,
                "<li><a href=\"#{}\">{}</a></li>",
                section.id,
                escape(&section.heading)
            )
            .ok();
        }
        out.push_str("</ol>\n</nav>\n");
        for section in &doc.sections {
            writeln!(
                out,
                "<section id=\"{}\">\n<h2>{}</h2>",
                section.id,
                escape(&section.heading)
            )
            .ok();
            for block in &section.blocks {
                match block {
                    Block::Text(text) => writeln!(out, "<p>{}</p>", escape(text)).ok(),
                    Block::Subheading(text) => writeln!(out, "<h3>{}</h3>", escape(text)).ok(),
                    Block::List(lines) => {
                        out.push_str("<ul>\n");
                        for line in lines {
                            writeln!(out, "<li>{}</li>", escape(line)).ok();
                        }
                        writeln!(out, "</ul>").ok()
                    }
                    Block::Links(links) => {
                        out.push_str("<ul>\n");
                        for (text, href) in links {
                            writeln!(
                                out,
                                "<li><a href=\"{}\">{}</a></li>",
                                escape(href),
                                escape(text)
                            )
                            .ok();
                        }
                        writeln!(out, "</ul>").ok()
                    }
                    Block::Table(t) => {
                        table(&mut out, t);
                        Some(())
                    }
                    Block::Game(game) => {
                        // A report's games open at their end: the final position says
                        // most at a glance.
                        write!(
                            out,
                            "<figure class=\"game\"><figcaption>{}</figcaption>\n{}\n<p><code class=\"transcript\">{}</code></p></figure>\n",
                            escape(&game.caption),
                            viewer::markup(&game.replay, &game.id, Some(game.game), game.replay.plies()),
                            escape(&game.transcript)
                        )
                        .ok()
                    }
                    Block::Chart(chart) => {
                        let svg = std::fs::read_to_string(&chart.svg)
                            .map_err(|e| Error::io_during("read", &chart.svg, e))?;
                        // Drop any XML prologue: the SVG element is inlined as it is.
                        let start = svg.find("<svg").unwrap_or(0);
                        write!(
                            out,
                            "<h3 id=\"chart-{}\">{}</h3>\n<div>{}</div>\n",
                            chart.name,
                            escape(&chart.title),
                            &svg[start..]
                        )
                        .ok()
                    }
                };
            }
            out.push_str("</section>\n");
        }
        if has_games {
            // One script runs every viewer; it needs the page loaded, so it comes last.
            writeln!(out, "<script>{}</script>", viewer::SCRIPT).ok();
        }
        out.push_str("</body></html>\n");
        Ok(out)
    }
}
