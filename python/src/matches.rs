//! `match`: two strategies played from Python exactly as `reversi-lab match` plays them
//! (the library's [`MatchPlan`]: its checks, schedule, driver, tally and fault stop),
//! with every game's `games.csv` row kept for a DataFrame.

use crate::args;
use crate::background::{in_background, Watch};
use crate::board::rules;
use crate::errors::py_error;
use crate::values::to_python;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use reversi_lab::lab::matches::{default_logs, summary_value, MatchPlayed, MatchWatch};
use reversi_lab::lab::rows::{csv_columns, csv_header, parse_csv};
use reversi_lab::lab::{summary, GameRow, MatchOptions, MatchPlan, MatchTally};
use reversi_lab::Error;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What the kept rows are called in a message about them.
const KEPT: &str = "the match's games";

/// The result of `match`: the CLI's summary line and JSON object, A's tally, and the games.
#[pyclass(module = "reversi_lab._core", frozen)]
pub struct MatchResult {
    /// The one-line summary `reversi-lab match` prints.
    #[pyo3(get)]
    summary: String,
    /// The object `reversi-lab match --format json` prints, as a dict.
    #[pyo3(get)]
    info: Py<PyAny>,
    /// Strategies A and B as given.
    #[pyo3(get)]
    a: String,
    #[pyo3(get)]
    b: String,
    /// The worker threads.
    #[pyo3(get)]
    threads: usize,
    /// Seconds the games took.
    #[pyo3(get)]
    seconds: f64,
    /// Where an external engine's logs are (`DIR/engines/A-*.log`), if one played.
    #[pyo3(get)]
    logs: Option<PathBuf>,
    tally: MatchTally,
    /// The games' `games.csv` rows (no header), if kept.
    rows: Option<Vec<u8>>,
}

/// A column of numbers as little-endian bytes of its dtype: `<i8` when every value
/// fits, as pandas reads the same column of `games.csv`, else `<u8` (seeds).
fn numbers<'py>(
    py: Python<'py>,
    values: &[serde_json::Value],
) -> (&'static str, Bound<'py, PyAny>) {
    let signed: Option<Vec<i64>> = values.iter().map(serde_json::Value::as_i64).collect();
    let bytes: Vec<u8> = match &signed {
        Some(signed) => signed.iter().flat_map(|v| v.to_le_bytes()).collect(),
        None => values
            .iter()
            .flat_map(|v| v.as_u64().unwrap_or_default().to_le_bytes())
            .collect(),
    };
    let dtype = if signed.is_some() { "<i8" } else { "<u8" };
    (dtype, PyBytes::new(py, &bytes).into_any())
}

#[pymethods]
impl MatchResult {
    /// The games as `(name, dtype, data)` columns, named and ordered as `games.csv`'s
    /// row type has them: numbers as little-endian bytes of `dtype` (`<i8`, `<u8`),
    /// text (`str`) as lists of str.
    fn columns<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Vec<(String, &'static str, Bound<'py, PyAny>)>> {
        let Some(rows) = &self.rows else {
            return Ok(Vec::new());
        };
        let mut bytes = csv_header::<GameRow>();
        bytes.extend_from_slice(rows);
        let games: Vec<GameRow<'static>> = py
            .detach(|| parse_csv(&bytes, Path::new(KEPT)))
            .map_err(py_error)?;
        // Each row in its serde form, so that its fields are found by the header's names.
        let values: Vec<serde_json::Map<String, serde_json::Value>> = games
            .iter()
            .map(|row| match serde_json::to_value(row) {
                Ok(serde_json::Value::Object(map)) => Ok(map),
                _ => Err(py_error(Error::internal("a games.csv row is not a record"))),
            })
            .collect::<PyResult<_>>()?;
        csv_columns::<GameRow>()
            .into_iter()
            .map(|name| {
                let column: Vec<serde_json::Value> = values
                    .iter()
                    .map(|row| row.get(&name).cloned().unwrap_or_default())
                    .collect();
                let (dtype, data) = if column.iter().all(serde_json::Value::is_number) {
                    numbers(py, &column)
                } else {
                    let text = column.iter().map(|v| match v {
                        serde_json::Value::String(s) => PyString::intern(py, s),
                        other => PyString::new(py, &other.to_string()),
                    });
                    ("str", PyList::new(py, text)?.into_any())
                };
                Ok((name, dtype, data))
            })
            .collect()
    }

    /// Whether the games were kept (`keep_games=True`).
    #[getter]
    fn kept(&self) -> bool {
        self.rows.is_some()
    }

    /// Games A won, drew and lost.
    #[getter]
    fn wins(&self) -> u64 {
        self.tally.paired.games.wins
    }
    #[getter]
    fn draws(&self) -> u64 {
        self.tally.paired.games.draws
    }
    #[getter]
    fn losses(&self) -> u64 {
        self.tally.paired.games.losses
    }
    /// Games played.
    #[getter]
    fn games(&self) -> u64 {
        self.tally.paired.games.games()
    }
    /// A's score with its 95% interval, in the model `model` over `n` samples.
    #[getter]
    fn score(&self) -> f64 {
        self.tally.paired.interval95().mean
    }
    #[getter]
    fn score_low(&self) -> f64 {
        self.tally.paired.interval95().low
    }
    #[getter]
    fn score_high(&self) -> f64 {
        self.tally.paired.interval95().high
    }
    #[getter]
    fn model(&self) -> &'static str {
        self.tally.paired.interval95().model.name()
    }
    #[getter]
    fn n(&self) -> u64 {
        self.tally.paired.interval95().n
    }
}

/// The columns of `games.csv`, from its row type: every one, or those of one `kind`
/// (`str`: text, `int`: numbers).
#[pyfunction]
#[pyo3(signature = (kind = None))]
pub fn game_columns(kind: Option<&str>) -> PyResult<Vec<String>> {
    let row = match serde_json::to_value(GameRow::default()) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => return Err(py_error(Error::internal("a games.csv row is not a record"))),
    };
    let kind_of = |name: &str| match row.get(name) {
        Some(serde_json::Value::String(_)) => "str",
        _ => "int",
    };
    if let Some(kind) = kind.filter(|k| !matches!(*k, "str" | "int")) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "unknown kind of column '{kind}': use str or int"
        )));
    }
    Ok(csv_columns::<GameRow>()
        .into_iter()
        .filter(|name| kind.is_none_or(|k| k == kind_of(name)))
        .collect())
}

/// Plays `games` games between strategies A and B (see `reversi_lab.match`).
#[pyfunction]
#[pyo3(signature = (a, b, *, games, seed, threads, size, anti, scoring, openings, keep_games, progress = None, hosted = None))]
#[allow(clippy::too_many_arguments)]
pub fn play_match(
    py: Python<'_>,
    a: String,
    b: String,
    games: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    size: &Bound<'_, PyAny>,
    anti: bool,
    scoring: String,
    openings: &Bound<'_, PyAny>,
    keep_games: bool,
    progress: Option<Bound<'_, PyAny>>,
    hosted: Option<[Bound<'_, PyDict>; 2]>,
) -> PyResult<MatchResult> {
    let games = args::unsigned(games, "games", "play at least 1 game")?;
    let seed = args::seed(seed)?;
    // None: one per core; 0 is refused, as `--threads 0` is.
    let threads = args::threads(threads, "use a number of threads, or None for one per core")?;
    let size = args::size(size)?;
    let openings = args::unsigned(
        openings,
        "openings",
        "use 0 to start from the start position, or a number of random plies",
    )?;
    let openings = args::narrow::<u32>(openings, "openings", u32::MAX.into())?;
    let options = MatchOptions {
        games,
        seed,
        threads,
        size,
        rules: rules(anti, &scoring)?,
        openings,
        ..MatchOptions::new(a, b)
    };
    let mut plan = MatchPlan::new(&options).map_err(py_error)?;
    let faults = crate::host::Faults::default();
    if let Some(hosted) = &hosted {
        for (spec, hosted) in plan.specs.iter_mut().zip(hosted) {
            crate::host::host_all(py, spec, hosted, &faults)?;
        }
    }
    let names = [options.a.as_str(), options.b.as_str()];
    let logs = default_logs();
    let watch = Watch::new(plan.games);
    let started = Instant::now();
    let mut rows = keep_games.then(Vec::new);
    let played = in_background(py, &watch, progress.as_ref(), || {
        let out = rows
            .as_mut()
            .map(|rows| (Path::new(KEPT), rows as &mut (dyn std::io::Write + Send)));
        let watched = MatchWatch {
            stop: Some(&watch.stop),
            played: Some(&watch.done),
        };
        plan.play_watched(names, out, &logs, watched)
    })?
    .map_err(py_error);
    faults.warn(py)?;
    let played = played?;
    let seconds = started.elapsed().as_secs_f64();
    let MatchPlayed {
        tally,
        threads,
        broken,
        ..
    } = played;
    if let Some(broken) = broken {
        // As the CLI's match ends: the games before the stop are not a result.
        return Err(py_error(Error::said(broken.line("play the match again"))));
    }
    let engines = logs.join("engines");
    Ok(MatchResult {
        summary: summary(&tally, &options.a, &options.b),
        info: to_python(py, &summary_value(&tally, &options, seconds, threads))?.unbind(),
        a: options.a,
        b: options.b,
        threads,
        seconds,
        logs: engines.is_dir().then_some(engines),
        tally,
        rows,
    })
}
