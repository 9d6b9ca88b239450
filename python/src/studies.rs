//! `sweep` and `tune` from Python: the library's studies as the CLI runs them (the same
//! files, folders and reports), with the CLI's options as keyword arguments and Python
//! strategies handed over by name.

use crate::args;
use crate::background::{in_background, Watch};
use crate::errors::py_error;
use crate::host;
use crate::lab::{check_resume, report_warned};
use crate::values::to_python;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use reversi_lab::lab::{RunOptions, Status};
use reversi_lab::setting::Edge;
use reversi_lab::studies::sweep::{self, Sweep};
use reversi_lab::studies::tune::{self, Tune};
use std::path::PathBuf;

/// A thread count that overrides a file's (None leaves the file's), refused as the
/// CLI's `--threads` is.
fn threads(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    args::threads(value, "use a number of threads, or None for the file's")
}

/// Plays a sweep file's variants (see `reversi_lab.sweep`); returns what the run did,
/// with the CLI's closing line and one line per variant.
#[pyfunction]
#[pyo3(signature = (config, *, out, games, threads, resume, force, report, quiet, progress = None, players = None))]
#[allow(clippy::too_many_arguments)]
pub fn run_sweep<'py>(
    py: Python<'py>,
    config: PathBuf,
    out: Option<PathBuf>,
    games: Option<Bound<'py, PyAny>>,
    threads: Option<Bound<'py, PyAny>>,
    resume: bool,
    force: bool,
    report: bool,
    quiet: bool,
    progress: Option<Bound<'py, PyAny>>,
    players: Option<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    check_resume(resume, force)?;
    let games = args::optional(games.as_ref(), "games", "play at least 2 games per pair")?;
    let threads = self::threads(threads.as_ref())?;
    let players = players.unwrap_or_else(|| PyDict::new(py));
    let resolving = host::resolving(py, &players);
    // The bar's total; a file that does not load is refused by the sweep itself.
    let total = Sweep::load(&config).map_or(0, |s| {
        games.map_or(s.experiment.total_games(), |g| {
            s.experiment.total_games() / s.experiment.games_per_pair.max(1) * g
        })
    });
    let watch = Watch::new(total);
    let options = RunOptions {
        out,
        resume,
        force,
        quiet,
        stop: &watch.stop,
        shard: None,
        played: Some(&watch.done),
    };
    let swept = in_background(py, &watch, progress.as_ref(), || {
        sweep::sweep(&config, games, threads, &options, Default::default())
    })?
    .map_err(py_error);
    resolving.faults.warn(py)?;
    let (summary, rows) = swept?;
    if report && summary.status != Status::Interrupted {
        report_warned(py, &summary.out)?;
    }
    let done = PyDict::new(py);
    done.set_item("out", &summary.out)?;
    done.set_item("line", summary.line.worded(Edge::Python))?;
    done.set_item("status", to_python(py, &summary.status)?)?;
    done.set_item("variants", rows.len())?;
    Ok(done)
}

/// Tunes a tune file's player (see `reversi_lab.tune`); returns the tuned values by
/// parameter, the CLI's lines and the validation runs' folders.
#[pyfunction]
#[pyo3(signature = (config, *, out, threads, resume, force, report, quiet, players = None))]
#[allow(clippy::too_many_arguments)]
pub fn run_tune<'py>(
    py: Python<'py>,
    config: PathBuf,
    out: Option<PathBuf>,
    threads: Option<Bound<'py, PyAny>>,
    resume: bool,
    force: bool,
    report: bool,
    quiet: bool,
    players: Option<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    check_resume(resume, force)?;
    let threads = self::threads(threads.as_ref())?;
    let players = players.unwrap_or_else(|| PyDict::new(py));
    let resolving = host::resolving(py, &players);
    let names: Vec<String> = Tune::load(&config)
        .map(|t| t.params.iter().map(|p| p.name.clone()).collect())
        .unwrap_or_default();
    // The tune draws its own bar (iterations), unless quiet; Ctrl-C stops it.
    let watch = Watch::new(0);
    let options = RunOptions {
        out,
        resume,
        force,
        quiet,
        stop: &watch.stop,
        shard: None,
        played: None,
    };
    let tuned = in_background(py, &watch, None, || tune::tune(&config, threads, &options))?
        .map_err(py_error);
    resolving.faults.warn(py)?;
    let summary = tuned?;
    if report && !summary.interrupted {
        report_warned(py, &summary.out)?;
    }
    let best = PyDict::new(py);
    for (name, value) in names.iter().zip(&summary.best) {
        best.set_item(name, value)?;
    }
    let done = PyDict::new(py);
    done.set_item("out", &summary.out)?;
    done.set_item("best", best)?;
    done.set_item("lines", &summary.lines)?;
    done.set_item("validations", &summary.validations)?;
    done.set_item("interrupted", summary.interrupted)?;
    Ok(done)
}
