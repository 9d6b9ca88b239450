//! `run`, `load`, `strategies` and `perft` from Python: the CLI's experiment runner,
//! results loader, strategy listing and perft, with the CLI's checks and messages.

use crate::args;
use crate::background::{in_background, Watch};
use crate::board::Board;
use crate::errors::{py_error, ReplayWarning};
use crate::table::to_toml;
use crate::values::to_python;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use reversi_lab::lab::rows::csv_bytes;
use reversi_lab::lab::{
    games_file, run, Experiment, FolderFile, Overrides, ResultsFolder, RunOptions, Status,
};
use reversi_lab::report::{write_report, Results};
use reversi_lab::setting::Edge;
use reversi_lab::Error;
use std::ffi::CString;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where errors in an experiment given as a dict say they are.
const DICT_ORIGIN: &str = "the experiment dict";

/// An experiment given as a dict as the text of a config file.
fn toml_text(experiment: &Bound<'_, PyAny>) -> PyResult<String> {
    let value = to_toml(experiment, DICT_ORIGIN, "")?;
    toml::to_string(&value).map_err(|e| PyValueError::new_err(format!("{DICT_ORIGIN}: {e}")))
}

/// `resume=True` with `force=True`, refused as the CLI's clap refuses `--resume --force`
/// before the runner, which would quietly replace the folder.
pub fn check_resume(resume: bool, force: bool) -> PyResult<()> {
    if resume && force {
        return Err(PyValueError::new_err(
            "resume=True and force=True contradict each other: resume=True continues the folder, force=True replaces it; pass one of them",
        ));
    }
    Ok(())
}

/// Writes the report of the folder `out`, its warnings said as `ReplayWarning`s where
/// the CLI prints them on stderr; returns the files written.
pub fn report_warned(py: Python<'_>, out: &Path) -> PyResult<usize> {
    let report = py.detach(|| write_report(out)).map_err(py_error)?;
    // Stack level 2 is the caller of the package's function, past its wrapper.
    let category = py.get_type::<ReplayWarning>();
    for warning in &report.warnings {
        let message = CString::new(warning.as_str())
            .map_err(|e| py_error(Error::internal_from("cannot pass a warning to Python", e)))?;
        PyErr::warn(py, &category, &message, 2)?;
    }
    Ok(report.files.len())
}

/// Plays an experiment into a results folder (see `reversi_lab.run`): `config` a
/// TOML file, or `table` a dict with the same keys; returns what the run did, with
/// the CLI's closing line.
#[pyfunction]
#[pyo3(signature = (config, table, *, out, games, seed, threads, resume, force, report, quiet, progress = None, players = None))]
#[allow(clippy::too_many_arguments)]
pub fn run_experiment<'py>(
    py: Python<'py>,
    config: Option<PathBuf>,
    table: Option<Bound<'py, PyAny>>,
    out: Option<PathBuf>,
    games: Option<Bound<'py, PyAny>>,
    seed: Option<Bound<'py, PyAny>>,
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
    let seed = seed.as_ref().map(args::seed).transpose()?;
    let threads = args::threads(
        threads.as_ref(),
        "use a number of threads, or None for the experiment's",
    )?;
    let overrides = Overrides {
        out,
        resume,
        games,
        seed,
        threads,
        shard: None,
    };
    let players = players.unwrap_or_else(|| PyDict::new(py));
    // Its `python` players by name, from the config's text on.
    let resolving = crate::host::resolving(py, &players);
    let experiment = match table {
        Some(table) => Experiment::parse_made(&toml_text(&table)?, DICT_ORIGIN, Path::new("."))
            .and_then(|e| overrides.apply(e, true)),
        None => overrides.load(config.as_deref()),
    }
    .map_err(py_error)?;
    let watch = Watch::new(experiment.total_games());
    let options = RunOptions {
        out: overrides.out.clone(),
        resume,
        force,
        quiet,
        stop: &watch.stop,
        shard: None,
        played: Some(&watch.done),
    };
    let summary = in_background(py, &watch, progress.as_ref(), || run(&experiment, &options))?
        .map_err(py_error);
    resolving.faults.warn(py)?;
    let summary = summary?;
    let mut written = 0;
    if report && summary.status != Status::Interrupted {
        written = report_warned(py, &summary.out)?;
    }
    let done = PyDict::new(py);
    done.set_item("out", &summary.out)?;
    done.set_item("line", summary.line().worded(Edge::Python))?;
    done.set_item("status", to_python(py, &summary.status)?)?;
    done.set_item("games", summary.games)?;
    done.set_item("played", summary.played)?;
    done.set_item("seconds", summary.seconds)?;
    done.set_item("threads", summary.threads)?;
    done.set_item("report_files", written)?;
    Ok(done)
}

/// A results folder's contents for `reversi_lab.load`: run.toml's two tables as
/// dicts, the pairs and standings as CSV (counted from the games so far for a run
/// that has not finished, as the report does), and where the games are.
#[pyfunction]
pub fn load_results<'py>(py: Python<'py>, dir: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let results = py.detach(|| Results::load(&dir)).map_err(py_error)?;
    let csv = |rows: Vec<u8>| PyBytes::new(py, &rows);
    let folder = ResultsFolder::at(&dir);
    let loaded = PyDict::new(py);
    loaded.set_item("experiment", to_python(py, &results.experiment)?)?;
    loaded.set_item("run", to_python(py, &results.run)?)?;
    let (pairs, standings) = if results.partial.is_none() {
        // A finished folder's own files, byte for byte: rows read back and written
        // again lose what the types do not keep, such as an empty `sprt_pairs` (its
        // column went with it) or the columns of a file older than the types.
        let read = |file: FolderFile| {
            let path = folder.path(file);
            std::fs::read(&path).map_err(|e| py_error(Error::unreadable(&path, &e)))
        };
        (read(FolderFile::Pairs)?, read(FolderFile::Standings)?)
    } else {
        // Counted from the games so far: these files are not written until the end.
        (
            csv_bytes(&results.pairs, &folder.path(FolderFile::Pairs)).map_err(py_error)?,
            csv_bytes(&results.standings, &folder.path(FolderFile::Standings)).map_err(py_error)?,
        )
    };
    loaded.set_item("pairs_csv", csv(pairs))?;
    loaded.set_item("standings_csv", csv(standings))?;
    let games = folder.games().map(|(path, _)| path);
    loaded.set_item("games_path", games)?;
    loaded.set_item("partial", results.partial)?;
    Ok(loaded)
}

/// The bytes of a games file, decompressed if it is `games.csv.zst`.
#[pyfunction]
pub fn read_games<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = py
        .detach(|| -> Result<Vec<u8>, Error> {
            let mut bytes = Vec::new();
            games_file::reader(&path)?
                .read_to_end(&mut bytes)
                .map_err(|e| Error::io_during("read", &path, e))?;
            Ok(bytes)
        })
        .map_err(py_error)?;
    Ok(PyBytes::new(py, &bytes))
}

/// Every strategy with its parameters, as `reversi-lab strategies --format json` lists them.
#[pyfunction]
pub fn strategies(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_python(py, &reversi_lab::strategy::spec::kinds_json())
}

/// Leaves of the game tree `depth` plies below `board` (a pass counts as a ply, a
/// finished game as one leaf at every depth past its end): the CLI's `perft`.
#[pyfunction]
pub fn perft(py: Python<'_>, board: PyRef<'_, Board>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
    let depth = args::unsigned(depth, "depth", "use 0 to 30")?;
    if depth > 30 {
        return Err(PyValueError::new_err(format!(
            "perft depth {depth} is out of range: use 0 to 30"
        )));
    }
    let state = board.state().copied(false);
    Ok(py.detach(move || state.perft(depth as u32)))
}
