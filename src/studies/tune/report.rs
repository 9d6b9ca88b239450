//! The report of a tune's folder (`tune.toml`, `trace.csv`, `best.toml` and the
//! validation runs): the method, each parameter's start and tuned value, the
//! validation verdicts with their intervals, and the trace charts. `tune` writes it
//! when it ends and `report DIR` redraws it, both through [`report`].

use super::{charts, openings, trace, validate, Method, Tune};
use crate::chart::interval_chart;
use crate::chart::Chart;
use crate::doc::{elo_interval, how_run, model_cell, percent_interval};
use crate::doc::{Block, Document, Section, Table};
use crate::error::{Error, Result};
use crate::lab::rows::{read_csv, Status};
use crate::lab::PairRow;
use crate::lab::{FolderFile, FolderKind, ResultsFolder};
use crate::numbers::{fixed, tick};
use crate::shown::ShowPath;
use std::path::Path;

/// Whether `dir` is a tune's folder: it has the tune's file or trace and, unlike a
/// run's folder, no `run.toml` (see [`ResultsFolder::kind`]).
pub fn is_tune_folder(dir: &Path) -> bool {
    ResultsFolder::at(dir).kind() == Some(FolderKind::Tune)
}

/// The tune as its folder keeps it. The report needs no openings, and an openings
/// file named relative to where the tune was started need not be reachable from
/// the folder, so `[openings]` is read only for display.
fn load(dir: &Path) -> Result<(Tune, toml::Table)> {
    let path = ResultsFolder::at(dir).path(FolderFile::TuneFile);
    if !path.is_file() {
        return Err(Error::input(format!(
            "{} has a trace.csv but no tune.toml (tunes made before they kept their file): copy the tune file there as tune.toml, then run report again",
            dir.shown()
        )));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| Error::unreadable(&path, &e))?;
    let raw: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        Error::input(format!("{}: {}", path.shown(), e.message().trim()))
    })?;
    let mut table = raw.clone();
    table.remove("openings");
    table.remove("threads");
    let text = toml::to_string(&table)
        .map_err(|e| Error::internal_from("cannot write the settings as TOML", e))?;
    let tune = Tune::parse_kept(&text, &path.shown().to_string(), dir)?;
    Ok((tune, raw))
}

/// A value of the tune file as text.
fn setting(raw: &toml::Table, key: &str) -> Option<String> {
    raw.get(key).map(|v| match v {
        toml::Value::String(s) => s.clone(),
        v => v.to_string(),
    })
}

/// One validation run as its folder holds it.
struct Validation {
    /// The pair row (the tuned player is A) and how the run ended, once it finished.
    result: Option<(PairRow, Status)>,
    /// Whether the folder exists (with a run.toml).
    started: bool,
}

fn validation(dir: &Path, opponent: &str) -> Result<Validation> {
    let folder = ResultsFolder::at(&validate::folder(dir, opponent));
    let status = folder.status()?;
    let mut found = Validation {
        result: None,
        started: status.is_some(),
    };
    if let Some(status) = status {
        let pairs_path = folder.path(FolderFile::Pairs);
        if status.is_finished() && pairs_path.is_file() {
            let pairs: Vec<PairRow> = read_csv(&pairs_path)?;
            found.result = pairs.into_iter().next().map(|p| (p, status));
        }
    }
    Ok(found)
}

/// The settings a reader checks first, from the tune as parsed (defaults included).
fn settings(tune: &Tune, raw: &toml::Table) -> Vec<(String, String)> {
    let names = |panel: &[crate::studies::tune::config::Opponent]| {
        panel
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut rows = vec![
        ("name".to_string(), tune.name.clone()),
        ("method".into(), tune.method.name().to_string()),
        ("iterations".into(), tune.iterations.to_string()),
        ("games per iteration".into(), tune.games.to_string()),
        ("seed".into(), tune.setup.seed.to_string()),
        ("size".into(), tune.setup.size.to_string()),
        (
            "openings".into(),
            setting(raw, "openings").unwrap_or_else(|| "the start position".into()),
        ),
        (
            "player (at its start)".into(),
            toml::Value::Table(tune.player.to_table()).to_string(),
        ),
        (
            "opponents".into(),
            if tune.panel.is_empty() {
                "self-play".into()
            } else {
                names(&tune.panel)
            },
        ),
    ];
    if tune.method == Method::Spsa {
        rows.push(("SPSA r_end".into(), tick(tune.r_end)));
    }
    rows.push((
        "validation".into(),
        if tune.validation_games == 0 {
            "skipped".into()
        } else {
            format!(
                "{} games against the start (SPRT elo0 0, elo1 {}){}",
                tune.validation_games,
                tick(tune.validation_elo1),
                if tune.validation_panel.is_empty() {
                    String::new()
                } else {
                    format!(" and {}", names(&tune.validation_panel))
                }
            )
        },
    ));
    rows
}

/// Each parameter's start, tuned value, final iteration's value and bounds.
fn parameters_table(tune: &Tune, tuned: &[f64], last: &[f64]) -> Table {
    Table::new(
        &["parameter", "start", "tuned", "final iteration", "bounds"],
        tune.params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                vec![
                    p.name.clone(),
                    tick(p.start),
                    fixed(tuned[i], 3),
                    fixed(last[i], 3),
                    format!("[{}, {}]", tick(p.min), tick(p.max)),
                ]
            })
            .collect(),
    )
}

/// The parameters and their traces as they stand, the charts drawn into `chart_dir`
/// (not the folder's): what a live view shows while the tune runs. The full report
/// ([`report`]) also reads the validation runs and draws into the folder.
pub fn traces(dir: &Path, chart_dir: &Path) -> Result<Document> {
    let (tune, _) = load(dir)?;
    let trace_path = ResultsFolder::at(dir).path(FolderFile::Trace);
    let rows = if trace_path.is_file() {
        trace::read(&trace_path, &tune)?
    } else {
        Vec::new()
    };
    let start = tune.start();
    let tuned = trace::tail_mean(&rows).unwrap_or_else(|| start.clone());
    let last = rows
        .last()
        .map_or_else(|| start.clone(), |r| r.theta.clone());
    let mut trace_section = Section::new("trace", "Trace");
    if !rows.is_empty() {
        for chart in charts::draw(&tune, &rows, chart_dir)? {
            trace_section = trace_section.with(Block::Chart(chart));
        }
    }
    Ok(Document {
        title: format!("Tune: {}", tune.name),
        warning: Some(format!(
            "{} of {} iterations of {} games so far; the tuned values are the mean of the last 10% of them.",
            rows.len(),
            tune.iterations,
            tune.games
        )),
        sections: vec![
            Section::new("parameters", "Parameters").with(Block::Table(parameters_table(
                &tune, &tuned, &last,
            ))),
            trace_section,
        ],
    })
}

/// Draws the tune's charts (and redraws each validation run's report through
/// `run_report`, which returns that report's warnings) and builds its report;
/// returns the validation reports' warnings with it.
pub fn report(
    dir: &Path,
    run_report: &dyn Fn(&Path) -> Result<Vec<String>>,
) -> Result<(Document, Vec<Chart>, Vec<String>)> {
    let (tune, raw) = load(dir)?;
    let folder = ResultsFolder::at(dir);
    let trace_path = folder.path(FolderFile::Trace);
    if !trace_path.is_file() {
        return Err(Error::input(format!(
            "{} is missing trace.csv: the tune has not started (run `reversi-lab tune FILE --out {}`)",
            dir.shown(),
            dir.shown()
        )));
    }
    let rows = trace::read(&trace_path, &tune)?;
    let chart_dir = folder.path(FolderFile::Charts);
    let mut charts = charts::draw(&tune, &rows, &chart_dir)?;
    let start = tune.start();
    let tuned = trace::tail_mean(&rows).unwrap_or_else(|| start.clone());
    let last = rows
        .last()
        .map_or_else(|| start.clone(), |r| r.theta.clone());
    let partial = (rows.len() as u64) < tune.iterations;

    let mut intro = format!(
        "Method {}, {} of {} iterations of {} games, seed {}. Tuned: the mean of the parameters over the last {} \
         iterations (10%), steadier than the final iteration's values, which trace.csv keeps.",
        tune.method.name(),
        rows.len(),
        tune.iterations,
        tune.games,
        tune.setup.seed,
        trace::tail_count(rows.len()),
    );
    if folder.has(FolderFile::Best) {
        intro
            .push_str(" best.toml holds the tuned player, ready to paste into an experiment file.");
    }
    let parameters = parameters_table(&tune, &tuned, &last);

    // The validation, from the runs' folders.
    let mut lines = Vec::new();
    let held = std::fs::read_to_string(dir.join(openings::FILE)).unwrap_or_default();
    if let Some(line) = held
        .lines()
        .find_map(|l| l.strip_prefix("# validation openings:"))
    {
        lines.push(format!("validation openings:{line}"));
    }
    let mut table = Vec::new();
    let mut interval_rows = Vec::new();
    let mut links = Vec::new();
    let mut first_run = None;
    let mut warnings = Vec::new();
    if let Some(line) = validate::skipped(&tune) {
        lines.push(line);
    }
    for opponent in validate::opponents(&tune) {
        let found = validation(dir, &opponent)?;
        let folder = validate::folder(dir, &opponent);
        if found.started {
            // Each validation run is a run folder with its own report.
            warnings.extend(run_report(&folder)?);
            links.push((
                format!("tuned vs {opponent}: the validation run's report"),
                format!("validation-{opponent}/report.html"),
            ));
            if first_run.is_none() {
                first_run = ResultsFolder::at(&folder).record_if_any()?.map(|r| r.run);
            }
        }
        match found.result {
            Some((pair, status)) => {
                lines.push(validate::verdict(&opponent, &pair, status));
                let nan = f64::NAN;
                table.push(vec![
                    format!("tuned vs {opponent}"),
                    pair.games.to_string(),
                    format!("{}/{}/{}", pair.wins, pair.draws, pair.losses),
                    percent_interval(pair.score, pair.score_low, pair.score_high),
                    elo_interval(pair.elo, pair.elo_low, pair.elo_high),
                    model_cell(&pair),
                    match status {
                        Status::SprtAcceptedH1 => "accepted H1".into(),
                        Status::SprtAcceptedH0 => "accepted H0".into(),
                        _ if opponent == "start" => "no decision".into(),
                        _ => "-".into(),
                    },
                ]);
                interval_rows.push((
                    format!("vs {opponent}"),
                    pair.elo_low.unwrap_or(nan),
                    pair.elo.unwrap_or(nan),
                    pair.elo_high.unwrap_or(nan),
                ));
            }
            None if found.started => lines.push(format!(
                "tuned vs {opponent}: the validation run did not finish (interrupted): rerun the tune with --resume"
            )),
            None if tune.validation_games > 0 => lines.push(format!(
                "tuned vs {opponent}: not played yet (the tune has not finished)"
            )),
            None => {}
        }
    }

    let mut validation = Section::new("validation", "Validation")
        .with(Block::List(lines))
        .with(Block::Text(
            "Scores and Elo: 95% score intervals in the model named on each line (pentanomial: each colour-swapped \
             game pair one sample), as in the validation runs' pairs.csv. A gain is significant when the whole \
             interval lies above 0."
                .into(),
        ));
    if !table.is_empty() {
        validation = validation.with(Block::Table(Table::new(
            &[
                "comparison",
                "games",
                "W/D/L (tuned)",
                "tuned's score [95%]",
                "Elo [95%]",
                "model, sample",
                "SPRT",
            ],
            table,
        )));
        // The start at the top: the chart draws its first row at the bottom.
        interval_rows.reverse();
        let chart = interval_chart(
            &chart_dir,
            "validation",
            "Validation: Elo of the tuned player over each opponent",
            "Elo (95% interval)",
            &interval_rows,
        )?;
        let chart = Chart {
            title: "Validation Elo with 95% intervals".into(),
            ..chart
        };
        validation = validation.with(Block::Chart(chart.clone()));
        charts.push(chart);
    }
    if !links.is_empty() {
        validation = validation.with(Block::Links(links));
    }

    let mut about = Section::new("tune", "The tune")
        .with(Block::Text(intro))
        .with(Block::Table(Table::pairs(
            ["setting", "value"],
            &settings(&tune, &raw),
        )))
        .with(Block::Subheading("How it was run".into()));
    about = match first_run {
        Some(run) => about
            .with(Block::Text(
                "As the first validation run recorded it (the tune's own command started it; `started` is when validation began):".into(),
            ))
            .with(Block::Table(how_run(&run, true))),
        None => about.with(Block::Text(
            "The command line, commit and host are recorded by the validation runs, and this tune has none yet."
                .into(),
        )),
    };
    let mut trace_section = Section::new("trace", "Trace");
    for chart in charts.iter().filter(|c| c.name != "validation") {
        trace_section = trace_section.with(Block::Chart(chart.clone()));
    }
    let doc = Document {
        title: format!("Tune report: {}", tune.name),
        warning: partial.then(|| {
            format!(
                "PARTIAL: {} of {} iterations so far (the tune is still going or was interrupted; \
                 `reversi-lab tune FILE --resume` continues it). The tuned values below are the mean of the last 10% of the iterations so far.",
                rows.len(),
                tune.iterations
            )
        }),
        sections: vec![
            about,
            Section::new("parameters", "Parameters")
                .with(Block::Table(parameters)),
            validation,
            trace_section,
        ],
    };
    Ok((doc, charts, warnings))
}
