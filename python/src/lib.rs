//! `reversi_lab._core`: the Rust half of the Python package `reversi_lab`, on the same
//! library as the `reversi-lab` binary. The pure-Python half (`reversi_lab/`) adds
//! the DataFrames, progress bars and the PettingZoo environment.

mod args;
mod background;
mod board;
mod errors;
mod host;
mod lab;
mod matches;
mod seeding;
mod state;
mod strategy;
mod studies;
mod svg;
mod table;
mod values;

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use reversi_lab::cpu::missing_features;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let missing = missing_features();
    if !missing.is_empty() {
        // Better than dying with SIGILL on the first bitboard instruction.
        return Err(PyImportError::new_err(format!(
            "this reversi_lab was built for x86-64-v3 processors, and this one lacks {}: reinstall it for this machine with RUSTFLAGS='-C target-cpu=native' pip install ./python",
            missing.join(", ")
        )));
    }
    let py = m.py();
    m.add_class::<board::Board>()?;
    m.add_class::<board::Outcome>()?;
    m.add_class::<strategy::Strategy>()?;
    m.add_class::<matches::MatchResult>()?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("ReplayWarning", py.get_type::<errors::ReplayWarning>())?;
    m.add("FaultWarning", py.get_type::<errors::FaultWarning>())?;
    m.add_function(wrap_pyfunction!(matches::play_match, m)?)?;
    m.add_function(wrap_pyfunction!(matches::game_columns, m)?)?;
    m.add_function(wrap_pyfunction!(lab::run_experiment, m)?)?;
    m.add_function(wrap_pyfunction!(lab::load_results, m)?)?;
    m.add_function(wrap_pyfunction!(lab::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(lab::strategies, m)?)?;
    m.add_function(wrap_pyfunction!(lab::perft, m)?)?;
    m.add_function(wrap_pyfunction!(studies::run_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(studies::run_tune, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
