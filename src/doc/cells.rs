//! Cells and small tables more than one report shares: an interval as text, the
//! sample behind a pair's interval, and how a run was made.

use super::Table;
use crate::lab::provenance::{command_words, join_words};
use crate::lab::{recorded_text, PairRow, RunInfo};
use crate::shown::ShowPath;
use std::path::Path;

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

/// The sample behind a pair's headline interval: `pentanomial, 44 game pairs`.
pub fn model_cell(p: &PairRow) -> String {
    let paired = p.paired();
    let model = p.model.as_deref().unwrap_or("trinomial");
    if model == "pentanomial" {
        format!("pentanomial, {} game pairs", paired.pairs.pairs())
    } else {
        format!("trinomial, {} games", p.games)
    }
}

/// A recorded command line with each path in it shown as messages show paths (see
/// [`crate::shown`]): an argument that is a path, or the value of `--flag=PATH`.
fn command_cell(line: &String) -> String {
    let line = recorded_text(line);
    let Some(words) = command_words(&line) else {
        return line;
    };
    let shown = |path: &str| Path::new(path).shown().to_string();
    // The program by its name: where the binary lay on the machine that ran (often a
    // build folder) says nothing of how the run was made, and a reader elsewhere
    // would see it as a long relative path.
    let program = words.first().map(|word| {
        Path::new(word)
            .file_name()
            .map_or_else(|| word.clone(), |name| name.to_string_lossy().into_owned())
    });
    join_words(program.into_iter().chain(words.iter().skip(1).map(
        |word| match word.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => format!("{flag}={}", shown(value)),
            _ => shown(word),
        },
    )))
}

/// How the run was made, from `[run]` of run.toml: the command line, commit and
/// host (recorded since they were added; older folders lack them), then, unless
/// `origin_only` (a tune shows where its validation runs were made, not how they went),
/// the session.
pub fn how_run(run: &RunInfo, origin_only: bool) -> Table {
    let text = |value: &String| recorded_text(value);
    let origin = [
        ("command line", run.command.as_ref().map(command_cell)),
        ("git commit", run.commit.as_ref().map(text)),
        ("host", run.host.as_ref().map(text)),
        ("reversi-lab version", Some(text(&run.version))),
    ];
    let session = [
        (
            "status",
            Some(recorded_text(&run.status)).filter(|_| !origin_only),
        ),
        ("started", Some(text(&run.started))),
    ];
    let counts = [
        ("threads", Some(recorded_text(&run.threads))),
        ("games", run.games.as_ref().map(recorded_text)),
        (
            "seconds (last session)",
            run.elapsed_seconds.as_ref().map(recorded_text),
        ),
        (
            "games per second (last session)",
            run.games_per_second.as_ref().map(recorded_text),
        ),
    ]
    .map(|(label, value)| (label, value.filter(|_| !origin_only)));
    let rows: Vec<(String, String)> = origin
        .into_iter()
        .chain(session)
        .chain(counts)
        .filter_map(|(label, value)| Some((label.to_string(), value?)))
        .collect();
    Table::pairs(["recorded", "value"], &rows)
}
