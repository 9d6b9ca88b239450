//! `report.html`: the report as one self-contained HTML page, charts inlined as SVG.

use super::{tables, Chart, ReportFormat, Results};
use crate::error::{Error, Result};
use std::fmt::Write as _;

/// The HTML report.
pub struct Html;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    out.push_str("<table>\n<tr>");
    for h in header {
        write!(out, "<th>{}</th>", escape(h)).ok();
    }
    out.push_str("</tr>\n");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            write!(out, "<td>{}</td>", escape(cell)).ok();
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}\
td:first-child,th:first-child,td:nth-child(2){text-align:left}th{background:#f0f0f0}\
svg{max-width:100%;height:auto}code{font-size:90%}";

impl ReportFormat for Html {
    fn file_name(&self) -> &'static str {
        "report.html"
    }

    fn render(&self, results: &Results, charts: &[Chart]) -> Result<String> {
        let t = tables(results);
        let name = escape(&results.setting("name"));
        let mut out = String::new();
        write!(
            out,
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Experiment report: {name}</title><style>{STYLE}</style></head><body>\n<h1>Experiment report: {name}</h1>\n"
        )
        .ok();
        if let Some(note) = super::partial_note(results) {
            writeln!(
                out,
                "<p class=\"partial\"><strong>{}</strong></p>",
                escape(&note)
            )
            .ok();
        }
        out.push_str("<h2>The experiment as run</h2>\n");
        let setup: Vec<Vec<String>> = t
            .setup
            .iter()
            .map(|(k, v)| vec![k.clone(), v.clone()])
            .collect();
        table(&mut out, &["setting", "value"], &setup);
        let players: Vec<Vec<String>> = t
            .players
            .iter()
            .map(|(n, s)| vec![n.clone(), s.clone()])
            .collect();
        table(&mut out, &["player", "strategy"], &players);
        out.push_str("<h2>Standings</h2>\n<p>Ratings: a Bradley-Terry (logistic Elo) MAP fit with a weak prior over all games, averaging 0, with 95% intervals (see Statistics).</p>\n");
        table(&mut out, &t.standings_header, &t.standings);
        out.push_str("<h2>Pairs</h2>\n<p>From A's point of view, with 95% intervals in the model the &quot;model, sample&quot; column names (see Statistics); LOS is the likelihood that A is stronger.</p>\n");
        table(&mut out, &t.pairs_header, &t.pairs);
        out.push_str("<h2>Results by colour</h2>\n");
        table(&mut out, &t.colours_header, &t.colours);
        out.push_str("<h2>Statistics</h2>\n<ul>\n");
        for line in &t.statistics {
            writeln!(out, "<li>{}</li>", escape(line)).ok();
        }
        out.push_str("</ul>\n<h2>Charts</h2>\n");
        for chart in charts {
            let svg = std::fs::read_to_string(&chart.svg).map_err(|e| Error::io(&chart.svg, e))?;
            // Drop any XML prologue: the SVG element is inlined as it is.
            let start = svg.find("<svg").unwrap_or(0);
            write!(
                out,
                "<h3>{}</h3>\n<div>{}</div>\n",
                escape(&chart.title),
                &svg[start..]
            )
            .ok();
        }
        out.push_str("<h2>Run</h2>\n");
        let meta: Vec<Vec<String>> = t
            .metadata
            .iter()
            .map(|(k, v)| vec![k.clone(), v.clone()])
            .collect();
        table(&mut out, &["", ""], &meta);
        out.push_str("</body></html>\n");
        Ok(out)
    }
}
