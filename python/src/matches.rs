//! `match`: two strategies played from Python exactly as `reversi-lab match` plays them
//! (its checks, schedule and driver), with every game kept for a DataFrame.

use crate::args;
use crate::background::{in_background, Watch};
use crate::board::rules;
use crate::errors::{keyword_error, py_error};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use reversi_lab::board::{Geometry, Square};
use reversi_lab::game::{Game, Rules};
use reversi_lab::lab::{summary, summary_json, MatchOptions, MatchPlan, MatchTally};
use reversi_lab::lab::{Driver, Flow};
use reversi_lab::strategy::Strategy;
use reversi_lab::with_geometry;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The most moves a game can have: every square of a 10x10 board but the first four.
const MOST_MOVES: usize = 96;

/// A finished game in a few bytes, copied on the worker that played it: the
/// DataFrame's text columns are made only if asked for.
#[derive(Clone, Copy)]
struct Kept {
    a_black: bool,
    black_discs: u8,
    white_discs: u8,
    margin: i16,
    passes: u8,
    plies: u8,
    /// Plies of the opening, a prefix of `moves`.
    opening: u8,
    seed: u64,
    moves: [u8; MOST_MOVES],
    /// How it ended (games.csv's `termination`).
    termination: reversi_lab::game::Termination,
}

impl Kept {
    fn of<G: Geometry>(
        game: &Game<G>,
        rules: Rules,
        a_black: bool,
        opening: u8,
        seed: u64,
    ) -> Self {
        let outcome = game.outcome(rules).expect("played to the end");
        let mut moves = [0u8; MOST_MOVES];
        for (slot, square) in moves.iter_mut().zip(game.moves()) {
            *slot = square.index() as u8;
        }
        Kept {
            a_black,
            black_discs: outcome.black_discs as u8,
            white_discs: outcome.white_discs as u8,
            margin: outcome.margin as i16,
            passes: game.passes() as u8,
            plies: game.moves().len() as u8,
            opening,
            seed,
            moves,
            termination: game.termination(),
        }
    }
}

/// The result of `match`: the CLI's summary line and JSON object, and the games.
#[pyclass(module = "reversi_lab._core", frozen)]
pub struct MatchResult {
    /// The one-line summary `reversi-lab match` prints.
    #[pyo3(get)]
    summary: String,
    /// The object `reversi-lab match --format json` prints.
    #[pyo3(get)]
    json: String,
    names: [String; 2],
    size: u32,
    games: Vec<Kept>,
}

fn integers<'py>(py: Python<'py>, values: impl Iterator<Item = i64>) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.flat_map(i64::to_le_bytes).collect();
    PyBytes::new(py, &bytes)
}

#[pymethods]
impl MatchResult {
    /// The games as `(name, dtype, data)` columns in the order of `games.csv`: numbers
    /// as little-endian bytes of `dtype` (`<i8`, `<u8`), text as lists of str.
    fn columns<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Vec<(&'static str, &'static str, Bound<'py, PyAny>)>> {
        let n = self.size;
        let names: Vec<String> = (0..n * n).map(|i| Square::new(i).name(n)).collect();
        let transcript = |moves: &[u8]| -> String {
            moves.iter().map(|&m| names[m as usize].as_str()).collect()
        };
        let games = &self.games;
        let [a, b] = self.names.each_ref().map(|name| PyString::new(py, name));
        let result = |k: &Kept| match k.margin.signum() {
            1 => "black",
            -1 => "white",
            _ => "draw",
        };
        let text = |f: &dyn Fn(&Kept) -> Bound<'py, PyString>| -> PyResult<Bound<'py, PyAny>> {
            Ok(PyList::new(py, games.iter().map(f))?.into_any())
        };
        let number = |f: &dyn Fn(&Kept) -> i64| integers(py, games.iter().map(f)).into_any();
        let seat = |k: &Kept, black: bool| {
            if k.a_black == black {
                a.clone()
            } else {
                b.clone()
            }
        };
        Ok(vec![
            (
                "game_id",
                "<i8",
                integers(py, 0..games.len() as i64).into_any(),
            ),
            (
                "pair_id",
                "<i8",
                integers(py, games.iter().map(|_| 0)).into_any(),
            ),
            (
                "opening",
                "str",
                text(&|k| PyString::new(py, &transcript(&k.moves[..k.opening as usize])))?,
            ),
            ("black", "str", text(&|k| seat(k, true))?),
            ("white", "str", text(&|k| seat(k, false))?),
            ("black_discs", "<i8", number(&|k| k.black_discs.into())),
            ("white_discs", "<i8", number(&|k| k.white_discs.into())),
            ("result", "str", text(&|k| PyString::intern(py, result(k)))?),
            ("margin", "<i8", number(&|k| k.margin.into())),
            ("plies", "<i8", number(&|k| k.plies.into())),
            ("passes", "<i8", number(&|k| k.passes.into())),
            (
                "moves",
                "str",
                text(&|k| PyString::new(py, &transcript(&k.moves[..k.plies as usize])))?,
            ),
            ("seed", "<u8", {
                let bytes: Vec<u8> = games.iter().flat_map(|k| k.seed.to_le_bytes()).collect();
                PyBytes::new(py, &bytes).into_any()
            }),
            (
                "termination",
                "str",
                text(&|k| PyString::intern(py, k.termination.name()))?,
            ),
        ])
    }

    /// Whether the games were kept (`keep_games=True`).
    #[getter]
    fn kept(&self) -> bool {
        !self.games.is_empty()
    }
}

/// The plies of an opening transcript: each move starts with its column letter.
fn plies_of(opening: &str) -> u8 {
    opening.bytes().filter(u8::is_ascii_alphabetic).count() as u8
}

/// Plays the plan's games on the library's driver, streaming them in order into the
/// tally (and the kept games), as the CLI's `match --csv` does.
fn play<G: Geometry>(
    py: Python<'_>,
    plan: &MatchPlan,
    keep: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<(MatchTally, Vec<Kept>, usize)> {
    let [a, b] = plan.players::<G>().map_err(keyword_error)?;
    let players: [&dyn Strategy<G>; 2] = [a.as_ref(), b.as_ref()];
    let driver = Driver::<G>::new(plan.setup.threads).map_err(py_error)?;
    let rules = plan.setup.rules;
    let watch = Watch::new(plan.games);
    let played = in_background(py, &watch, progress, || {
        let mut tally = MatchTally::default();
        let mut kept = Vec::with_capacity(if keep { plan.games as usize } else { 0 });
        let mut next = 0u64;
        driver
            .stream(
                &players,
                0..plan.games,
                |g| {
                    let (slot, opening, deal) = plan.schedule.deal::<G>(g);
                    ((slot.a_black(), plies_of(&opening), deal.seed), deal)
                },
                |_, (a_black, opening, seed), game| Kept::of(game, rules, a_black, opening, seed),
                &watch.stop,
                |game| {
                    let a_margin = if game.a_black {
                        game.margin
                    } else {
                        -game.margin
                    };
                    tally = std::mem::take(&mut tally) + MatchTally::game(next, a_margin.into());
                    next += 1;
                    watch.done.store(next, Ordering::Relaxed);
                    if keep {
                        kept.push(game);
                    }
                    Ok(Flow::Continue)
                },
            )
            .map(|_| (tally, kept))
    })?;
    let (tally, kept) = played.map_err(py_error)?;
    Ok((tally, kept, driver.threads()))
}

/// Plays `games` games between strategies A and B (see `reversi_lab.match`).
#[pyfunction]
#[pyo3(signature = (a, b, *, games, seed, threads, size, anti, scoring, openings, keep_games, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn play_match(
    py: Python<'_>,
    a: String,
    b: String,
    games: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
    size: &Bound<'_, PyAny>,
    anti: bool,
    scoring: String,
    openings: &Bound<'_, PyAny>,
    keep_games: bool,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<MatchResult> {
    let games = args::unsigned(games, "games", "play at least 1 game")?;
    let seed = args::unsigned(seed, "seed", &format!("use a seed from 0 to {}", u64::MAX))?;
    let threads = args::unsigned(
        threads,
        "threads",
        "use 0 for one thread per core, or a number of threads",
    )?;
    let threads = args::narrow::<usize>(threads, "threads", usize::MAX as u64)?;
    let size = args::size(size)?;
    let openings = args::unsigned(
        openings,
        "openings",
        "use 0 to start from the start position, or a number of random plies",
    )?;
    let openings = args::narrow::<u32>(openings, "openings", u32::MAX.into())?;
    let args = MatchOptions {
        games,
        seed,
        // 0: one per core, as the Python API has always taken it.
        threads: (threads > 0).then_some(threads),
        size,
        rules: rules(anti, &scoring)?,
        openings,
        ..MatchOptions::new(a, b)
    };
    let plan = MatchPlan::new(&args).map_err(keyword_error)?;
    let started = Instant::now();
    let (tally, games, threads) = with_geometry!(plan.setup.size, G => {
        play::<G>(py, &plan, keep_games, progress.as_ref())?
    });
    let seconds = started.elapsed().as_secs_f64();
    Ok(MatchResult {
        summary: summary(&tally, &args.a, &args.b),
        json: summary_json(&tally, &args, seconds, threads),
        names: [args.a, args.b],
        size: plan.setup.size,
        games,
    })
}
