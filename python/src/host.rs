//! Python callables handed to the library in this process: the package's side of the
//! `python` kind's [`Host`] hook. A `{kind = "python", name = "mine"}` spec gets the
//! callable the caller passed under that name (`rl.match(my_choose, ...)`,
//! `rl.run(..., players={"mine": my_choose})`, `Strategy(..., eval=my_value)`); the
//! library's player then asks a [`Session`] of this module for each move, on the
//! driver's threads, each call taking the interpreter lock for itself alone.

use crate::board::{named_square, Board};
use crate::errors::FaultWarning;
use crate::state::{self, AnyState};
use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString};
use reversi_lab::board::Square;
use reversi_lab::game::Rules;
use reversi_lab::lab::setup::size_of_obf;
use reversi_lab::strategy::kind::{Kind, VisitMut};
use reversi_lab::strategy::python::{
    set_resolver, Failure, Host, PythonSpec, Reply, Resolver, Role, Session, Turn,
};
use reversi_lab::strategy::StrategySpec;
use std::ffi::CString;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// The package's helpers shared with the worker processes (`reversi_lab._worker`): one
/// way to show an exception and to check parameters, in a process or out of it.
fn worker<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module = MODULE.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("reversi_lab._worker")?.unbind())
    })?;
    module.bind(py).getattr(name)
}

/// An exception as the last line of its traceback (`ValueError: no move`), on one line.
pub fn last_line(py: Python<'_>, error: &PyErr) -> String {
    worker(py, "_last_line")
        .and_then(|f| f.call1((error.value(py),)))
        .and_then(|line| line.extract::<String>())
        .unwrap_or_else(|_| {
            let kind = error
                .get_type(py)
                .name()
                .map_or_else(|_| "Exception".to_string(), |n| n.to_string());
            format!("{kind}: {}", error.value(py))
        })
}

/// A driver thread's own Python thread state, kept from call to call: made by the
/// first call on a thread Python does not know, and let go when the thread ends.
/// Without it every call made and dropped one (in CPython 3.11 with a frame stack
/// mapped and unmapped), which cost many times the call itself.
struct KeptState {
    kept: std::cell::Cell<Option<(ffi::PyGILState_STATE, *mut ffi::PyThreadState)>>,
}

impl KeptState {
    fn keep(&self) {
        if self.kept.get().is_some() {
            return;
        }
        // SAFETY: the interpreter is running (this module was imported), and this
        // thread neither holds the lock nor has a state of its own: `PyGILState_Ensure`
        // makes one and takes the lock, `PyEval_SaveThread` lets the lock go and keeps
        // the state, which `Python::attach` then finds on every call.
        unsafe {
            if !ffi::PyGILState_GetThisThreadState().is_null() {
                return;
            }
            let state = ffi::PyGILState_Ensure();
            let saved = ffi::PyEval_SaveThread();
            self.kept.set(Some((state, saved)));
        }
    }
}

impl Drop for KeptState {
    fn drop(&mut self) {
        if let Some((state, saved)) = self.kept.take() {
            // SAFETY: the state was made on this thread by `keep`, which let the lock
            // go; it is taken back and released the way it was made.
            unsafe {
                if ffi::Py_IsInitialized() != 0 {
                    ffi::PyEval_RestoreThread(saved);
                    ffi::PyGILState_Release(state);
                }
            }
        }
    }
}

thread_local! {
    static KEPT: KeptState = const {
        KeptState {
            kept: std::cell::Cell::new(None),
        }
    };
}

/// Runs `f` with the interpreter lock, on a thread that keeps its Python state.
fn attached<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> R {
    KEPT.with(KeptState::keep);
    Python::attach(f)
}

/// `random.Random`, looked up once.
fn random_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    CLASS.import(py, "random", "Random")
}

/// A callable with its parameters, as one spec hands it over.
struct Callable {
    /// The name it was handed over by.
    name: String,
    /// What it is, for `run.toml` and messages: `module.qualname`.
    describe: String,
    /// What was handed over: a function, or an object that each session copies.
    target: Py<PyAny>,
    /// Whether each session plays its own copy of `target` (an object, which may keep
    /// state: see `_host.for_thread`).
    copied: bool,
    /// `choose(board, rng, **params)` or `value(board, **params)` of `target`.
    call: Py<PyAny>,
    /// `new_game()` of `target`, when the object has one.
    new_game: Option<Py<PyAny>>,
    /// The spec's `params`, as keyword arguments; None when there are none.
    params: Option<Py<PyDict>>,
}

/// The faults of in-process callables, one line each (`mine: error after 12 moves:
/// ValueError: no move`), in the order they happened, until [`Faults::warn`] says them.
/// One record per match or study, so that two at once from two Python threads each say
/// only their own.
#[derive(Clone, Default)]
pub struct Faults(Arc<Mutex<Vec<String>>>);

impl Faults {
    fn note(&self, line: String) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(line);
    }

    /// Every fault noted and not yet said, oldest first.
    pub fn lines(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Says every fault noted since the last call as a `reversi_lab.FaultWarning`,
    /// attributed to the caller of the package's function.
    pub fn warn(&self, py: Python<'_>) -> PyResult<()> {
        let lines = std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner));
        let category = py.get_type::<FaultWarning>();
        for line in lines {
            let message = CString::new(line.replace('\0', " ")).unwrap_or_default();
            PyErr::warn(py, &category, &message, 3)?;
        }
        Ok(())
    }
}

/// The host of one `name` spec: its callable and parameters, and where its faults go.
struct PyHost {
    callable: Arc<Callable>,
    faults: Faults,
}

impl Host for PyHost {
    fn describe(&self) -> String {
        self.callable.describe.clone()
    }

    fn session(&self, role: Role) -> Result<Box<dyn Session>, String> {
        let callable = &self.callable;
        let (call, new_game) = if callable.copied {
            attached(|py| {
                worker_copy(py, callable, role).map_err(|e| {
                    format!(
                        "'{}' could not be copied for a playing thread: {}",
                        callable.name,
                        last_line(py, &e)
                    )
                })
            })?
        } else {
            attached(|py| {
                (
                    callable.call.clone_ref(py),
                    callable.new_game.as_ref().map(|f| f.clone_ref(py)),
                )
            })
        };
        Ok(Box::new(PySession {
            callable: callable.clone(),
            call,
            new_game,
            faults: self.faults.clone(),
            game: None,
            behind: Vec::new(),
            board: None,
            rules: Rules::default(),
            rng: None,
        }))
    }
}

/// A session's own copy of an object's methods (`_host.for_thread`).
fn worker_copy(
    py: Python<'_>,
    callable: &Callable,
    role: Role,
) -> PyResult<(Py<PyAny>, Option<Py<PyAny>>)> {
    py.import("reversi_lab._host")?
        .getattr("for_thread")?
        .call1((callable.target.bind(py), role.name()))?
        .extract()
}

/// One playing thread's calls: its own function (of its own copy of an object), the
/// game so far, and its `random.Random`.
struct PySession {
    callable: Arc<Callable>,
    call: Py<PyAny>,
    new_game: Option<Py<PyAny>>,
    faults: Faults,
    /// The game, but for the plies in `behind`.
    game: Option<Box<dyn AnyState>>,
    /// Plies the kept board has followed and `game` has not yet: while a board is
    /// kept, the game is not played twice; it catches up only when a new board is made.
    behind: Vec<Option<u32>>,
    /// The board the last call was given, when nothing else holds it and Python code
    /// did not change it: the next call gets it again, moved on, instead of a copy of
    /// the game (a new board a call was a good part of a random mover's time).
    board: Option<Py<Board>>,
    rules: Rules,
    rng: Option<Py<PyAny>>,
}

impl PySession {
    fn raised(py: Python<'_>) -> impl Fn(PyErr) -> Failure + '_ {
        move |error| Failure::Raised(last_line(py, &error))
    }

    /// Starts a game: a fresh board, the generator seeded (`state` is `seed`'s, made
    /// without the lock), `new_game()` called.
    fn start(
        &mut self,
        py: Python<'_>,
        seed: u64,
        state: &[u32; 624],
        size: u32,
        start: Option<&str>,
    ) -> PyResult<()> {
        self.board = None;
        self.behind.clear();
        self.game = Some(match start {
            Some(obf) => {
                state::from_obf(obf, size).map_err(|e| PyValueError::new_err(e.to_string()))?
            }
            None => state::start(size),
        });
        let class = random_class(py)?;
        match &self.rng {
            Some(rng) => crate::seeding::seed(py, class, rng.bind(py), seed, state)?,
            None => self.rng = Some(class.call1((seed,))?.unbind()),
        }
        if let Some(new_game) = &self.new_game {
            new_game.bind(py).call0()?;
        }
        Ok(())
    }

    /// Plays the plies the library tells of, on the kept board if there is one, else on
    /// the game.
    fn follow(&mut self, py: Python<'_>, plies: &[Option<Square>]) -> Result<(), String> {
        if self.game.is_none() {
            return Err("a move was asked before the game started".into());
        }
        for ply in plies {
            let index = ply.map(Square::index);
            if let Some(board) = &self.board {
                if board.bind(py).borrow_mut().follow(index).is_ok() {
                    self.behind.push(index);
                    continue;
                }
                self.board = None;
            }
            self.catch_up()?;
            self.play(index)?;
        }
        Ok(())
    }

    /// Plays a ply on the game.
    fn play(&mut self, index: Option<u32>) -> Result<(), String> {
        let game = self
            .game
            .as_mut()
            .ok_or("a move was asked before the game started")?;
        match index {
            Some(index) => game.push(index),
            None => game.push_pass(),
        }
        .map_err(|e| e.to_string())
    }

    /// Brings the game up to the plies the kept board followed.
    fn catch_up(&mut self) -> Result<(), String> {
        // Taken and given back, so that its room is kept from game to game.
        let mut behind = std::mem::take(&mut self.behind);
        let played = behind.iter().try_for_each(|&index| self.play(index));
        behind.clear();
        self.behind = behind;
        played
    }
}

impl Session for PySession {
    fn note(&self, text: &str) {
        self.faults.note(format!("{}: {text}", self.callable.name));
    }

    fn choose(&mut self, turn: &Turn<'_>, _deadline: Instant) -> Result<Reply, Failure> {
        // Made before the lock is taken: the other threads' calls go on meanwhile.
        let state = turn
            .new_game
            .as_ref()
            .map(|new| crate::seeding::state(new.seed));
        attached(|py| {
            if let (Some(new), Some(state)) = (&turn.new_game, &state) {
                self.rules = new.rules;
                self.start(py, new.seed, state, new.size, new.start.as_deref())
                    .map_err(Self::raised(py))?;
            }
            let astray = |why| Failure::Raised(format!("the game went astray: {why}"));
            self.follow(py, turn.plies).map_err(astray)?;
            let board = match self.board.take() {
                Some(board) => board.into_bound(py),
                None => {
                    self.catch_up().map_err(astray)?;
                    let game = self.game.as_ref().expect("followed above");
                    Bound::new(py, Board::of(game.copied(true), self.rules))
                        .map_err(Self::raised(py))?
                }
            };
            let legal = board.borrow().state().legal();
            let rng = self.rng.as_ref().expect("made on a new game").bind(py);
            let params = self.callable.params.as_ref().map(|p| p.bind(py));
            let answer = self
                .call
                .bind(py)
                .call((&board, rng), params)
                .map_err(Self::raised(py))?;
            // Held by nothing else and unchanged: it is the game, for the next call.
            // SAFETY: `board` is a live object this thread holds, with the lock.
            let held = unsafe { ffi::Py_REFCNT(board.as_ptr()) };
            if held == 1 && !board.borrow().touched() {
                self.board = Some(board.unbind());
            }
            // One of the names `legal_moves` handed out, known by identity; anything
            // else read as text, and anything but a str shown as Python writes it, so
            // that the refusal quotes what came back (None, 19, ...).
            if let Some(index) = named_square(py, turn.size, legal, &answer) {
                return Ok(Reply::Square(Square::new(index)));
            }
            Ok(Reply::Text(match answer.cast::<PyString>() {
                Ok(text) => text.to_cow().map(|t| t.into_owned()).unwrap_or_default(),
                Err(_) => answer
                    .repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string()),
            }))
        })
    }

    fn value(&mut self, obf: &str, _deadline: Instant) -> Result<f64, Failure> {
        attached(|py| {
            let size = size_of_obf(obf).map_err(|e| Failure::Raised(e.to_string()))?;
            let position =
                state::from_obf(obf, size).map_err(|e| Failure::Raised(e.to_string()))?;
            let board =
                Bound::new(py, Board::of(position, self.rules)).map_err(Self::raised(py))?;
            let params = self.callable.params.as_ref().map(|p| p.bind(py));
            let value = self
                .call
                .bind(py)
                .call((board,), params)
                .map_err(Self::raised(py))?;
            value.extract::<f64>().map_err(|_| {
                let shown = value
                    .repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string());
                Failure::Raised(format!("TypeError: value returned {shown}, not a number"))
            })
        })
    }
}

/// Where a callable's `python` spec sits: its role unless the spec says one.
#[derive(Clone, Copy)]
enum Seat {
    /// A player of its own.
    Player,
    /// Inside another strategy (a search's `eval`, `value` or `prior`).
    Nested,
}

/// `target` made ready to be called with `params` in `role`: its method (`choose` or
/// `value` on an object), `new_game`, and a refusal in one line when `params` are not
/// keywords it takes.
fn prepare(
    py: Python<'_>,
    name: &str,
    target: &Bound<'_, PyAny>,
    role: Role,
    params: &toml::Table,
) -> PyResult<Callable> {
    let json = serde_json::to_value(params).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let kwargs = crate::values::to_python(py, &json)?;
    let prepared = py.import("reversi_lab._host")?.getattr("prepare")?.call1((
        name,
        target,
        role.name(),
        &kwargs,
    ))?;
    let (call, new_game, describe, copied): (Py<PyAny>, Option<Py<PyAny>>, String, bool) =
        prepared.extract()?;
    let kwargs = kwargs.cast_into::<PyDict>()?;
    Ok(Callable {
        name: name.to_string(),
        describe,
        target: target.clone().unbind(),
        copied,
        call,
        new_game,
        params: (!kwargs.is_empty()).then(|| kwargs.unbind()),
    })
}

/// Gives every `python` spec with a `name` in `spec`, at any depth, the callable of
/// that name from `hosted`; a name `hosted` lacks is refused in one line.
/// Their faults go to `faults`.
pub fn host_all(
    py: Python<'_>,
    spec: &mut StrategySpec,
    hosted: &Bound<'_, PyDict>,
    faults: &Faults,
) -> PyResult<()> {
    host_at(py, spec, hosted, faults, Seat::Player)
}

fn host_at(
    py: Python<'_>,
    spec: &mut StrategySpec,
    hosted: &Bound<'_, PyDict>,
    faults: &Faults,
    seat: Seat,
) -> PyResult<()> {
    struct Hosting<'a, 'py> {
        py: Python<'py>,
        hosted: &'a Bound<'py, PyDict>,
        faults: &'a Faults,
        seat: Seat,
    }
    impl VisitMut for Hosting<'_, '_> {
        type Out = PyResult<()>;
        fn kind<K: Kind>(self, spec: &mut K) -> PyResult<()> {
            let any: &mut dyn std::any::Any = spec;
            if let Some(python) = any.downcast_mut::<PythonSpec>() {
                return host_one(self.py, python, self.hosted, self.faults, self.seat);
            }
            for nested in spec.nested_mut() {
                host_at(self.py, nested, self.hosted, self.faults, Seat::Nested)?;
            }
            Ok(())
        }
    }
    spec.visit_mut(Hosting {
        py,
        hosted,
        faults,
        seat,
    })
}

/// The refusal of a name no callable was handed over by, naming those that were.
fn missing(name: &str, hosted: &Bound<'_, PyDict>) -> String {
    let known: Vec<String> = hosted.keys().iter().map(|k| k.to_string()).collect();
    format!(
        "no callable is named '{name}': pass it as players={{'{name}': my_function}}{}",
        if known.is_empty() {
            String::new()
        } else {
            format!(" (given: {})", known.join(", "))
        }
    )
}

fn host_one(
    py: Python<'_>,
    spec: &mut PythonSpec,
    hosted: &Bound<'_, PyDict>,
    faults: &Faults,
    seat: Seat,
) -> PyResult<()> {
    let Some(name) = spec.host_name().map(str::to_string) else {
        return Ok(());
    };
    let Some(target) = hosted.get_item(&name)? else {
        return Err(PyValueError::new_err(missing(&name, hosted)));
    };
    let role = spec.role().unwrap_or(match seat {
        Seat::Player => Role::Strategy,
        Seat::Nested => Role::Evaluation,
    });
    let callable = prepare(py, &name, &target, role, &spec.params.params)?;
    spec.host(Arc::new(PyHost {
        callable: Arc::new(callable),
        faults: faults.clone(),
    }));
    Ok(())
}

/// Whether a run hands callables over by name now: one at a time (see [`resolving`]).
static RESOLVING: (Mutex<bool>, std::sync::Condvar) =
    (Mutex::new(false), std::sync::Condvar::new());

/// While alive, `name` specs made from text (a config's players, a sweep's variants,
/// a tune's candidates) find their callables in the dict it was made with; their faults
/// go to its own record.
pub struct Resolving {
    /// The faults of the callables handed over.
    pub faults: Faults,
}

impl Drop for Resolving {
    fn drop(&mut self) {
        set_resolver(None);
        let (busy, freed) = &RESOLVING;
        *busy.lock().unwrap_or_else(PoisonError::into_inner) = false;
        freed.notify_one();
    }
}

/// Hands `players`' callables to the library by name until the guard is dropped; a
/// second call from another Python thread waits for the first to end.
pub fn resolving(py: Python<'_>, players: &Bound<'_, PyDict>) -> Resolving {
    py.detach(|| {
        let (busy, freed) = &RESOLVING;
        let mut busy = busy.lock().unwrap_or_else(PoisonError::into_inner);
        while *busy {
            busy = freed.wait(busy).unwrap_or_else(PoisonError::into_inner);
        }
        *busy = true;
    });
    let players = players.clone().unbind();
    let faults = Faults::default();
    let record = faults.clone();
    let resolver: Arc<Resolver> = Arc::new(move |name, params, role| {
        attached(|py| {
            let Some(target) = players.bind(py).get_item(name).ok().flatten() else {
                return Some(Err(missing(name, players.bind(py))));
            };
            Some(
                prepare(py, name, &target, role, params)
                    .map(|callable| {
                        Arc::new(PyHost {
                            callable: Arc::new(callable),
                            faults: record.clone(),
                        }) as Arc<dyn Host>
                    })
                    .map_err(|e| e.value(py).to_string()),
            )
        })
    });
    set_resolver(Some(resolver));
    Resolving { faults }
}
