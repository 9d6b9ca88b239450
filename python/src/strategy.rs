//! `Strategy`: a player described in the CLI's spec syntax (or a dict, as in a config
//! file) that chooses and values moves on a `Board`.

use crate::args;
use crate::board::Board;
use crate::errors::value_error;
use crate::table::to_toml;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use reversi_lab::board::{Geometry, Position};
use reversi_lab::game::Rules;
use reversi_lab::lab::schedule::game_rng;
use reversi_lab::strategy::spec::MAX_SOLVE_EMPTIES;
use reversi_lab::strategy::{Context, History, Memory, Strategy as Player, StrategySpec};
use reversi_lab::with_geometry;
use std::any::Any;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// A strategy made for one geometry and rule set, with its memory (the
/// transposition tables) kept between calls.
struct Built<G: Geometry> {
    player: Box<dyn Player<G>>,
    memory: Memory<G>,
}

/// A strategy such as `Strategy("alphabeta:depth=4,eval=mobility")`.
#[pyclass(module = "reversi_lab", name = "Strategy")]
pub struct Strategy {
    text: String,
    spec: StrategySpec,
    /// The Python callables its `python` specs name, by name (see `host`).
    hosted: Py<PyDict>,
    /// One `Built<G>` per board size and rules it has played under.
    built: HashMap<(u32, Rules), Box<dyn Any + Send + Sync>>,
    /// The faults of its Python callables, one line each (see `faults`).
    faults: crate::host::Faults,
}

/// A spec as one line: a string as given, a dict as a TOML inline table (which the
/// one-line syntax also reads).
fn spec_text(spec: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = spec.cast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    if spec.cast::<PyDict>().is_ok() {
        return Ok(to_toml(spec, "the strategy dict", "")?.to_string());
    }
    Err(PyTypeError::new_err(
        "a strategy is a spec string such as 'alphabeta:depth=4' or a dict such as {'kind': 'alphabeta', 'depth': 4}",
    ))
}

/// What a strategy pickles as: `Strategy._restore` and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Bound<'py, PyDict>));

/// The keyword arguments of `Strategy` that put a Python evaluation into a search.
const EVALUATION_KEYS: [&str; 3] = ["eval", "value", "prior"];

/// A spec as a TOML inline table, the form the one-line syntax also reads.
fn inline(table: toml::Table) -> String {
    toml::Value::Table(table).to_string()
}

impl Strategy {
    /// The spec in the one-line syntax, as `match` passes it on.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A strategy from its spec's text and the callables it names, hosted.
    fn made(text: String, hosted: Bound<'_, PyDict>) -> PyResult<Self> {
        let mut spec = StrategySpec::parse(&text).map_err(value_error)?;
        // Its faults are said by `choose` and `scores` raising, not as warnings, and
        // kept for `faults`.
        let faults = crate::host::Faults::default();
        crate::host::host_all(hosted.py(), &mut spec, &hosted, &faults)?;
        Ok(Strategy {
            text,
            spec,
            hosted: hosted.unbind(),
            built: HashMap::new(),
            faults,
        })
    }

    /// The spec with every default written out, for equality and hashing.
    fn canonical(&self) -> String {
        self.spec.to_table().to_string()
    }

    /// This strategy for geometry `G` under `rules`, made on first use; its memory
    /// forgets the previous call, so a choice depends on the position and seed alone.
    fn built<G: Geometry>(&mut self, rules: Rules) -> PyResult<&mut Built<G>> {
        let key = (G::SIZE, rules);
        if self.spec.kind() == "engine" {
            // A position alone does not tell an engine the game it is in.
            return Err(value_error(
                "an external engine plays in match() and run(), which tell it the whole game; Strategy takes the built-in strategies",
            ));
        }
        if !self.built.contains_key(&key) {
            let player = self.spec.build::<G>(rules).map_err(value_error)?;
            let built = Built {
                player,
                memory: Memory::<G>::new(),
            };
            self.built.insert(key, Box::new(built));
        }
        let built = self
            .built
            .get_mut(&key)
            .and_then(|b| b.downcast_mut::<Built<G>>())
            .expect("stored under its own size");
        built.memory.new_game();
        Ok(built)
    }

    /// The position to play from, refused when the game is over or the strategy
    /// would not finish in reasonable time (the CLI's checks).
    fn position_of<G: Geometry>(&self, board: &Board) -> PyResult<Position<G>> {
        let state = board.state();
        if state.is_over() {
            return Err(crate::errors::IllegalMoveError::new_err("the game is over"));
        }
        let empties = state.empties();
        self.spec.check_practical(empties).map_err(|e| match self.spec {
            // The library's message speaks of the games of a run; here it is one board.
            StrategySpec::Solver(_) => PyValueError::new_err(format!(
                "strategy 'solver' solves every move exactly, and this board has {empties} empty squares: the limit is {MAX_SOLVE_EMPTIES}; use it once at most {MAX_SOLVE_EMPTIES} squares are empty, or use alphabeta:endgame={MAX_SOLVE_EMPTIES} (search, then solve the last {MAX_SOLVE_EMPTIES} empties)"
            )),
            _ => value_error(e),
        })?;
        Ok(state
            .as_any()
            .downcast_ref::<reversi_lab::game::Line<G>>()
            .expect("the board's own size")
            .position())
    }
}

#[pymethods]
impl Strategy {
    /// A strategy from a one-line spec (`"alphabeta:depth=4,eval=mobility"`, see
    /// `strategies()`), a dict (`{"kind": "alphabeta", "depth": 4}`), or a Python
    /// callable `choose(board, rng, **params)` (or an object with `choose` and
    /// `new_game`) with its `params`, playing as `name` (default: its own name).
    /// `eval`, `value` or `prior` put a Python `value(board)` into a search's spec.
    #[new]
    #[pyo3(signature = (spec, *, params = None, name = None, eval = None, value = None, prior = None))]
    fn new(
        py: Python<'_>,
        spec: &Bound<'_, PyAny>,
        params: Option<&Bound<'_, PyAny>>,
        name: Option<String>,
        eval: Option<&Bound<'_, PyAny>>,
        value: Option<&Bound<'_, PyAny>>,
        prior: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let host = py.import("reversi_lab._host")?;
        let hosted = PyDict::new(py);
        let callable = host
            .getattr("is_callable_strategy")?
            .call1((spec,))?
            .is_truthy()?;
        let mut text = if callable {
            let name = match name {
                Some(name) => name,
                None => host.getattr("name_of")?.call1((spec,))?.extract()?,
            };
            let mut table = toml::Table::new();
            table.insert("kind".into(), "python".into());
            table.insert("name".into(), name.clone().into());
            if let Some(params) = params.filter(|p| !p.is_none()) {
                let params = to_toml(params, "params", "")?;
                if params.as_table().is_some_and(|t| !t.is_empty()) {
                    table.insert("params".into(), params);
                }
            }
            hosted.set_item(&name, spec)?;
            // The one-line form when it reads back alike: `python:name=mine`.
            match table.len() {
                2 => format!("python:name={name}"),
                _ => inline(table),
            }
        } else {
            if params.is_some_and(|p| !p.is_none()) || name.is_some() {
                return Err(PyTypeError::new_err(
                    "params= and name= are for a Python callable; a spec carries its own parameters",
                ));
            }
            spec_text(spec)?
        };
        for (key, evaluation) in EVALUATION_KEYS.iter().zip([eval, value, prior]) {
            let Some(evaluation) = evaluation.filter(|e| !e.is_none()) else {
                continue;
            };
            let parsed = StrategySpec::parse(&text).map_err(value_error)?;
            if !parsed.info().params.iter().any(|p| p.name == *key) {
                return Err(PyValueError::new_err(format!(
                    "strategy '{}' takes no {key}: a Python evaluation goes into alphabeta's eval, or mcts's value or prior",
                    parsed.kind()
                )));
            }
            // A second evaluation would silently replace the one the spec names.
            let given = parsed.to_table().get(*key).cloned();
            let default = StrategySpec::parse(parsed.kind())
                .ok()
                .and_then(|d| d.to_table().get(*key).cloned());
            if let Some(given) = given.filter(|g| Some(g) != default.as_ref()) {
                let shown = given
                    .get("kind")
                    .and_then(toml::Value::as_str)
                    .map_or_else(|| given.to_string(), str::to_string);
                return Err(PyValueError::new_err(format!(
                    "strategy '{}' already has {key} = {shown}: give one evaluation, in the spec or as {key}=",
                    parsed.kind()
                )));
            }
            let name: String = host.getattr("name_of")?.call1((evaluation,))?.extract()?;
            let name = if hosted.contains(&name)? {
                format!("{name}-{key}")
            } else {
                name
            };
            hosted.set_item(&name, evaluation)?;
            let mut nested = toml::Table::new();
            nested.insert("kind".into(), "python".into());
            nested.insert("name".into(), name.into());
            nested.insert("role".into(), "evaluation".into());
            let mut table = parsed.to_table();
            table.insert((*key).into(), nested.into());
            text = inline(table);
        }
        Self::made(text, hosted)
    }

    /// A strategy as pickled: its spec and the callables it names.
    #[staticmethod]
    fn _restore(text: String, hosted: Bound<'_, PyDict>) -> PyResult<Self> {
        Self::made(text, hosted)
    }

    /// The spec in the one-line syntax.
    #[getter]
    fn spec(&self) -> &str {
        &self.text
    }

    /// The Python callables its `python` specs name, by name.
    #[getter]
    fn hosted<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.hosted.bind(py).copy()
    }

    /// The kind of strategy (`"alphabeta"`, `"greedy"`, ...).
    #[getter]
    fn kind(&self) -> &'static str {
        self.spec.kind()
    }

    /// The move this strategy plays on `board` (`"pass"` when the side to move has
    /// none); ties are broken by a generator seeded with `seed` (None: a random seed).
    #[pyo3(signature = (board, seed = None))]
    fn choose(
        &mut self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let seed = args::optional(
            seed,
            "seed",
            &format!(
                "use a seed from 0 to {}, or None for a random one",
                u64::MAX
            ),
        )?;
        let size = board.state().size();
        if board.state().legal() == 0 && !board.state().is_over() {
            return Ok("pass".to_string());
        }
        let rules = board.game_rules();
        let seed = seed.unwrap_or_else(rand::random);
        with_geometry!(size, G => {
            let position = self.position_of::<G>(&board)?;
            let built = self.built::<G>(rules)?;
            let square = py.detach(|| {
                let mut rng = game_rng(seed);
                let mut context = Context {
                    rng: &mut rng,
                    memory: &mut built.memory,
                    history: History::at(position),
                };
                built.player.choose(position.board, position.board.moves(), &mut context)
            });
            match square {
                Ok(choice) => Ok(choice.square.name(G::SIZE)),
                Err(fault) => Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "the strategy lost by a fault ({}: {})",
                    fault.termination.name(),
                    fault.reason
                ))),
            }
        })
    }

    /// Each legal move's value on the strategy's own scale (larger is better for the
    /// side to move), or None for strategies that choose by a rule (random,
    /// corner-first, corner-edge, parity). Search values of won or lost games are
    /// 2**30 plus the margin (minus for a loss); the solver's are the exact margin.
    fn scores<'py>(
        &mut self,
        py: Python<'py>,
        board: PyRef<'_, Board>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let size = board.state().size();
        let rules = board.game_rules();
        let before = self.faults.lines().len();
        let values = with_geometry!(size, G => {
            let position = self.position_of::<G>(&board)?;
            let built = self.built::<G>(rules)?;
            let values = py.detach(|| {
                let mut rng = game_rng(0);
                let mut context = Context {
                    rng: &mut rng,
                    memory: &mut built.memory,
                    history: History::at(position),
                };
                built.player.move_values(position.board, position.board.moves(), &mut context)
            });
            values.map(|v| v.into_iter().map(|(s, value)| (s.name(G::SIZE), value)).collect::<Vec<_>>())
        });
        // A fault of its Python evaluation leaves no values: said, not taken for a
        // strategy that chooses by a rule.
        if let Some(line) = self.faults.lines().get(before) {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "the strategy's values are lost to a fault ({line})"
            )));
        }
        let Some(values) = values else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        for (name, value) in values {
            dict.set_item(name, value)?;
        }
        Ok(Some(dict))
    }

    /// Every fault its Python callables met in `choose` and `scores` (each also raised
    /// there), oldest first, one line each: `mine: error after 12 moves: ValueError: no
    /// move`, `value: error in a search: ...`.
    #[getter]
    fn faults(&self) -> Vec<String> {
        self.faults.lines()
    }

    /// Pickling (for multiprocessing, joblib): the spec alone; the tables are
    /// rebuilt on first use, as they are forgotten between calls anyway.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        Ok((
            py.get_type::<Strategy>().getattr("_restore")?,
            (self.text.clone(), self.hosted.bind(py).clone()),
        ))
    }

    /// Equal when they play alike: the same spec with every default written out, so
    /// `Strategy("alphabeta:depth=4")` equals `Strategy({"kind": "alphabeta", "depth": 4})`,
    /// and the same callables under its names.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<Strategy>() else {
            return Ok(false);
        };
        let other = other.borrow();
        if self.canonical() != other.canonical() {
            return Ok(false);
        }
        self.hosted.bind(py).eq(other.hosted.bind(py))
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.canonical().hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self) -> String {
        if self.text.contains('\'') {
            format!("Strategy({:?})", self.text)
        } else {
            format!("Strategy('{}')", self.text)
        }
    }
}
