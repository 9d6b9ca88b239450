//! Cells and small tables more than one report shares: an interval as text, the
//! sample behind a pair's interval, and how a run was made.

use super::Table;
use crate::lab::PairRow;

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

/// How the run was made, from `[run]` of run.toml: the command line, commit and
/// host (recorded since they were added; older folders lack them), then, unless
/// `origin_only` (a tune shows where its validation runs were made, not how they went),
/// the session.
pub fn how_run(run: &toml::Table, origin_only: bool) -> Table {
    let text = |v: &toml::Value| match v {
        toml::Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    let rows: Vec<(String, String)> = [
        ("command", "command line"),
        ("commit", "git commit"),
        ("host", "host"),
        ("version", "reversi-lab version"),
        ("status", "status"),
        ("started", "started"),
        ("threads", "threads"),
        ("games", "games"),
        ("elapsed_seconds", "seconds (last session)"),
        ("games_per_second", "games per second (last session)"),
    ]
    .iter()
    .filter(|(key, _)| {
        !origin_only || ["command", "commit", "host", "version", "started"].contains(key)
    })
    .filter_map(|(key, label)| Some((label.to_string(), text(run.get(*key)?))))
    .collect();
    Table::pairs(["recorded", "value"], &rows)
}
