//! `python`: a Python callable as a player (`choose(board, rng, **params) -> move`) or as
//! an evaluation (`value(board, **params) -> float`, the side to move's view) inside a
//! search. Two sources, one player: `callable = "module:function"` runs in worker
//! processes (`python -m reversi_lab._worker`, see [`worker`]), one per playing thread,
//! reused game to game and restarted after a fault; `name = "..."` is a callable handed
//! over by a host program (the Python package) through the [`Host`] hook. Either way
//! every call goes through a [`Session`], so that faults, seeds and logs are the same.

mod eval_fault;
mod player;
mod worker;

pub use eval_fault::{building, EvalFaults};
pub use player::{PythonEval, PythonPlayer};
pub use worker::WorkerSource;

use crate::board::{Geometry, Square};
use crate::game::Rules;
use crate::strategy::kind::{one_ply, Evaluation, Kind};
use crate::strategy::param_info::{params, ParamInfo};
use crate::strategy::scale::Scale;
use crate::strategy::spec::typed;
use crate::strategy::{Evaluator, SpecError, Strategy};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default deadline for a worker's start-up (the interpreter, the package and the
/// callable's module imported).
pub const START_TIMEOUT: Duration = Duration::from_secs(20);
/// The default deadline for a move or a value.
pub const STALL_TIMEOUT: Duration = Duration::from_secs(30);
/// An evaluation's float is this many units of the search's integer values.
pub const VALUE_UNITS: f64 = 1000.0;

params! {
    /// The parameters of `python` as a spec writes them.
    pub struct PythonParams {
        #[serde(skip_serializing_if = "Option::is_none")]
        callable: Option<String> = None
            => "the callable as module:function (module:object for an object with choose/value), run in worker processes" (default "(this or name)"),
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<String> = None
            => "a callable the Python package hands over by this name (rl.run(..., players={name: fn}))" (default "(this or callable)"),
        #[serde(skip_serializing_if = "Option::is_none")]
        role: Option<String> = None
            => "strategy: choose(board, rng, **params) returns a move; evaluation: value(board, **params) returns a float for the side to move" (default "by use: evaluation inside a search, else strategy"),
        params: toml::Table = toml::Table::new()
            => "keyword arguments of every call: { corner = 25.0 }" (default "-"),
        #[serde(skip_serializing_if = "Option::is_none")]
        python: Option<PathBuf> = None
            => "the interpreter of the worker processes (a path in a config file is from its folder)" (default "python3"),
        #[serde(skip_serializing_if = "Option::is_none")]
        dir: Option<PathBuf> = None
            => "the workers' working folder, where the callable's module is imported from (in a config file, from its folder)" (default "-"),
        #[serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "crate::strategy::clock::time_text",
            deserialize_with = "crate::strategy::clock::time_of_text"
        )]
        start_timeout: Option<Duration> = None
            => "deadline for a worker's start-up (\"20s\")" (default "20s"),
        #[serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "crate::strategy::clock::time_text",
            deserialize_with = "crate::strategy::clock::time_of_text"
        )]
        stall_timeout: Option<Duration> = None
            => "deadline for a move or a value without a time control; past it the game ends `stalled`" (default "30s"),
    }
}

/// `python`'s spec: its parameters, and the callable a host handed over (never written).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PythonSpec {
    /// The parameters.
    #[serde(flatten)]
    pub params: PythonParams,
    /// The host's callable for a `name` spec (see [`Host`]).
    #[serde(skip)]
    pub hosted: Hosted,
}

/// The hook by which a host program (the Python package) supplies the callable of a
/// `name = "..."` spec: it walks the spec (`StrategySpec::visit_mut`, nested specs
/// through `Kind::nested_mut`) and calls [`PythonSpec::host`] on each python spec it has
/// a callable for. A spec keeps its host through clones; it is never written to a file.
pub trait Host: Send + Sync {
    /// What the callable is, for `run.toml`'s `engines` and messages (its qualified name).
    fn describe(&self) -> String;
    /// A session for one playing thread (or one evaluation call at a time); the error is
    /// one line.
    fn session(&self, role: Role) -> Result<Box<dyn Session>, String>;
}

/// The host of a spec, if any: compared by identity, so that a spec equals its clone.
#[derive(Clone, Default)]
pub struct Hosted(pub Option<Arc<dyn Host>>);

impl PartialEq for Hosted {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl std::fmt::Debug for Hosted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(host) => write!(f, "Hosted({})", host.describe()),
            None => f.write_str("Hosted(none)"),
        }
    }
}

/// What the callable is called as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `choose(board, rng, **params)`: a move.
    Strategy,
    /// `value(board, **params)`: a float, the side to move's view.
    Evaluation,
}

impl Role {
    /// The name a spec writes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Strategy => "strategy",
            Role::Evaluation => "evaluation",
        }
    }
}

/// A game's first request: the callable starts afresh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The seed of the game's `random.Random`, drawn from the game's generator.
    pub seed: u64,
    /// The board size.
    pub size: u32,
    /// The rules in force.
    pub rules: Rules,
    /// The start position as an OBF line; None for the standard start.
    pub start: Option<String>,
}

/// A request for a move: the plies since the session's previous request (the game's
/// from its start on a new game), its own last move included. They travel as squares,
/// not names: a host in this process plays them as they are (a name made and parsed
/// again a ply was a good part of a fast callable's time), a worker names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<'a> {
    /// The board size.
    pub size: u32,
    /// Set on a game's first request.
    pub new_game: Option<NewGame>,
    /// The plies to play before choosing: a square, or None for a pass.
    pub plies: &'a [Option<Square>],
}

/// What the callable returned for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A square, known without reading text (a host that handed out the square names
    /// knows them again); the player still checks that it is legal.
    Square(Square),
    /// Text: a square name, `pass`, or anything else as it is shown.
    Text(String),
}

/// How a call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The callable raised: its exception's last line.
    Raised(String),
    /// The worker died, stalled or wrote garbage.
    Process(crate::strategy::engine::process::Failure),
}

/// The callable's running side for one thread: a worker process, or the host's.
pub trait Session: Send + Sync {
    /// What the callable returned for `turn`, by `deadline`.
    fn choose(&mut self, turn: &Turn<'_>, deadline: Instant) -> Result<Reply, Failure>;
    /// The value of the position of an OBF line for its side to move, by `deadline`.
    fn value(&mut self, obf: &str, deadline: Instant) -> Result<f64, Failure>;
    /// A line of reversi-lab's own in the session's log, if it has one.
    fn note(&self, text: &str) {
        let _ = text;
    }
}

fn bad(message: String) -> SpecError {
    SpecError::BadValue {
        kind: PythonSpec::NAME,
        message,
    }
}

/// A host program's callables by name, for `name` specs that no [`PythonSpec::host`]
/// call filled: those made from text on the way (a config file's players, a sweep's
/// variants, a tune's candidates). Given the name, the spec's `params` and the role; None
/// when it has no callable of that name, else the host or why the callable cannot be
/// called so (one line).
pub type Resolver =
    dyn Fn(&str, &toml::Table, Role) -> Option<Result<Arc<dyn Host>, String>> + Send + Sync;

static RESOLVER: std::sync::RwLock<Option<Arc<Resolver>>> = std::sync::RwLock::new(None);

/// Sets the process's [`Resolver`] (None: none), returning the one it replaces.
pub fn set_resolver(resolver: Option<Arc<Resolver>>) -> Option<Arc<Resolver>> {
    let mut slot = RESOLVER
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    std::mem::replace(&mut *slot, resolver)
}

fn resolve(name: &str, params: &toml::Table, role: Role) -> Option<Result<Arc<dyn Host>, String>> {
    let resolver = RESOLVER
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()?;
    resolver(name, params, role)
}

/// The refusal of a `name` spec that no host filled.
pub const NAME_WITHOUT_HOST: &str = "only the Python package can hand over a callable by name; use callable = \"module:function\" in a config file";

impl PythonSpec {
    /// A spec for the callable `module:function` in worker processes.
    #[must_use]
    pub fn of_callable(callable: &str, role: Role) -> Self {
        PythonSpec {
            params: PythonParams {
                callable: Some(callable.to_string()),
                role: Some(role.name().to_string()),
                ..PythonParams::default()
            },
            hosted: Hosted::default(),
        }
    }

    /// The role written, if one is.
    #[must_use]
    pub fn role(&self) -> Option<Role> {
        [Role::Strategy, Role::Evaluation]
            .into_iter()
            .find(|r| self.params.role.as_deref() == Some(r.name()))
    }

    /// The name a host hands a callable over by, if this spec is one.
    #[must_use]
    pub fn host_name(&self) -> Option<&str> {
        self.params.name.as_deref()
    }

    /// Gives a `name` spec its callable (see [`Host`]).
    pub fn host(&mut self, host: Arc<dyn Host>) {
        self.hosted = Hosted(Some(host));
    }

    /// The params as the JSON object every call is given.
    fn params_json(&self) -> String {
        serde_json::to_string(&self.params.params).unwrap_or_else(|_| "{}".into())
    }

    /// Where the sessions come from: the host, or worker processes, checked once
    /// (the callable imported and its parameters taken) so that a bad one is refused
    /// before the first game.
    pub(crate) fn source(&self, role: Role) -> Result<Source, SpecError> {
        if let Some(host) = &self.hosted.0 {
            return Ok(Source::Host(host.clone(), role));
        }
        let p = &self.params;
        if let Some(name) = &p.name {
            return match resolve(name, &p.params, role) {
                Some(Ok(host)) => Ok(Source::Host(host, role)),
                Some(Err(why)) => Err(bad(why)),
                None => Err(bad(format!("name = \"{name}\": {NAME_WITHOUT_HOST}"))),
            };
        }
        let callable = p.callable.clone().unwrap_or_default();
        let source = WorkerSource {
            python: p.python.clone().unwrap_or_else(|| PathBuf::from("python3")),
            callable,
            params: self.params_json(),
            role,
            dir: p.dir.clone(),
            start_timeout: p.start_timeout.unwrap_or(START_TIMEOUT),
            identity: String::new(),
        };
        source.checked().map(Source::Worker).map_err(bad)
    }

    /// The deadline of a call that no clock bounds.
    pub(crate) fn stall_timeout(&self) -> Duration {
        self.params.stall_timeout.unwrap_or(STALL_TIMEOUT)
    }
}

/// Where a player's or an evaluation's sessions come from.
#[derive(Clone)]
pub(crate) enum Source {
    Host(Arc<dyn Host>, Role),
    Worker(WorkerSource),
}

impl Source {
    /// A session, its log under `log` (workers only).
    pub(crate) fn session(&self, log: Option<std::fs::File>) -> Result<Box<dyn Session>, String> {
        match self {
            Source::Host(host, role) => host.session(*role),
            Source::Worker(worker) => Ok(Box::new(worker.start(log)?)),
        }
    }

    /// What the callable is, for `run.toml`.
    pub(crate) fn identity(&self) -> String {
        match self {
            Source::Host(host, _) => host.describe(),
            Source::Worker(worker) => worker.identity.clone(),
        }
    }
}

/// Whether `text` is `module:attr` (dotted names of identifiers on both sides).
fn is_callable_name(text: &str) -> bool {
    let dotted = |s: &str| {
        !s.is_empty()
            && s.split('.').all(|part| {
                let mut chars = part.chars();
                chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
                    && chars.all(|c| c.is_alphanumeric() || c == '_')
            })
    };
    text.split_once(':')
        .is_some_and(|(module, attr)| dotted(module) && dotted(attr))
}

impl Kind for PythonSpec {
    const NAME: &'static str = "python";
    const HELP: &'static str = "a Python callable: choose(board, rng) in worker processes (callable = \"module:function\"), or handed over by the Python package (name); role = evaluation for value(board) inside a search";
    const PARAMS: &'static [ParamInfo] = PythonParams::PARAMS;
    const SAMPLE: &'static str = "python:callable=reversi_lab_sample:choose";
    const RUNS_CODE: bool = true;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        let spec: PythonParams = typed(Self::NAME, params)?;
        match (&spec.callable, &spec.name) {
            (None, None) => {
                return Err(bad(
                    "callable is missing: give the function as callable = \"module:function\"".into(),
                ))
            }
            (Some(_), Some(_)) => {
                return Err(bad(
                    "give callable or name, not both: callable runs module:function in worker processes, name is one the Python package hands over".into(),
                ))
            }
            (Some(callable), None) if !is_callable_name(callable) => {
                return Err(bad(format!(
                    "callable = \"{callable}\" is not module:function: write it like callable = \"my_pkg.strategies:choose\""
                )))
            }
            (None, Some(name)) if name.trim().is_empty() => {
                return Err(bad("name = \"\": give the name the callable is handed over by".into()))
            }
            _ => {}
        }
        if let Some(role) = &spec.role {
            if ![Role::Strategy, Role::Evaluation]
                .iter()
                .any(|r| r.name() == role)
            {
                return Err(bad(format!(
                    "role = {role} is not known: use strategy or evaluation"
                )));
            }
        }
        if let Some(python) = &spec.python {
            if python.as_os_str().is_empty() {
                return Err(bad(
                    "python = \"\": give the interpreter, such as \".venv/bin/python\"".into(),
                ));
            }
        }
        Ok(PythonSpec {
            params: spec,
            hosted: Hosted::default(),
        })
    }

    fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        match self.role() {
            Some(Role::Evaluation) => one_ply::<G, _>(self),
            _ => Ok(Box::new(PythonPlayer::new(self, G::SIZE, rules)?)),
        }
    }

    fn paths(&mut self) -> Vec<&mut PathBuf> {
        let p = &mut self.params;
        // A bare program name (`python3`) is looked up on PATH, not in the folder.
        let python = p.python.as_mut().filter(|p| p.components().count() > 1);
        python.into_iter().chain(p.dir.iter_mut()).collect()
    }
}

impl Evaluation for PythonSpec {
    fn evaluator<G: Geometry>(&self) -> Result<impl Evaluator<G> + 'static, SpecError> {
        if self.role() == Some(Role::Strategy) {
            return Err(bad(
                "role = strategy cannot value a position: an evaluation's callable is value(board), role = \"evaluation\"".into(),
            ));
        }
        PythonEval::new(self)
    }

    fn value_scale(&self) -> Scale {
        Scale::points(
            "thousandths",
            "the Python evaluation's value in thousandths, not discs",
        )
    }
}

#[cfg(test)]
mod tests;
