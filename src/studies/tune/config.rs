//! Tune files: the player to tune, its parameters as paths into the player's strategy
//! (`eval.mobility`), the opponents and the validation, checked before any game.

use crate::error::{unknown_name, Error, Result, Source};
use crate::lab::config::read_config;
use crate::lab::experiment::check_games_per_pair;
use crate::lab::setup::Setup;
use crate::setting::{Edge, Setting};
use crate::strategy::spec::{ParamPath, ParamValue};
use crate::strategy::{SpecError, StrategySpec};
use crate::with_geometry;
use serde::Deserialize;
use std::path::Path;
use toml::{Spanned, Value};

/// The optimiser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Simultaneous perturbation stochastic approximation (Spall), as chess testing frameworks use it.
    #[default]
    Spsa,
    /// Covariance matrix adaptation (the `cmaes` crate).
    Cmaes,
}

impl Method {
    /// The name a tune file writes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Method::Spsa => "SPSA",
            Method::Cmaes => "CMA-ES",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamFile {
    name: String,
    start: Option<f64>,
    min: f64,
    max: f64,
    step: f64,
}

/// An opponent: a one-line spec, which names itself (as in a sweep's `panel`), or
/// `{ name, strategy }`.
type OpponentFile = Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpsaFile {
    #[serde(default = "default_r_end")]
    r_end: f64,
}

impl Default for SpsaFile {
    fn default() -> Self {
        SpsaFile {
            r_end: default_r_end(),
        }
    }
}

fn default_r_end() -> f64 {
    2.0
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidationFile {
    #[serde(default = "default_validation_games")]
    games: u64,
    #[serde(default = "default_elo1")]
    elo1: f64,
    #[serde(default)]
    panel: Vec<OpponentFile>,
    #[serde(default)]
    skip: bool,
}

impl Default for ValidationFile {
    fn default() -> Self {
        ValidationFile {
            games: default_validation_games(),
            elo1: default_elo1(),
            panel: Vec::new(),
            skip: false,
        }
    }
}

/// The validation's games per pair, a tune file's key only.
static VALIDATION_GAMES: Setting = Setting::new("[validation] games", "", "");

fn default_validation_games() -> u64 {
    1000
}

fn default_elo1() -> f64 {
    20.0
}

/// A tune file's own keys; the shared setup sits beside them.
#[derive(Deserialize)]
struct TuneFile {
    name: String,
    #[serde(default)]
    method: Method,
    iterations: u64,
    #[serde(default = "default_games")]
    games_per_iteration: u64,
    player: Spanned<Value>,
    // Missing or empty: both refused below with the fix, not serde's "missing field".
    #[serde(default)]
    params: Vec<ParamFile>,
    /// None: self-play (the two perturbed players against each other).
    opponents: Option<Vec<OpponentFile>>,
    /// None: not given (its defaults stand; CMA-ES refuses it given).
    spsa: Option<SpsaFile>,
    #[serde(default)]
    validation: ValidationFile,
}

fn default_games() -> u64 {
    64
}

/// A tuned parameter of the player.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Such as `eval.mobility`, as the file names it.
    pub name: String,
    /// The parameter it names, checked against the player.
    pub path: ParamPath,
    /// Starting value.
    pub start: f64,
    /// Lower bound.
    pub min: f64,
    /// Upper bound.
    pub max: f64,
    /// Final perturbation size (SPSA's c at the last iteration; CMA-ES's scale).
    pub step: f64,
    /// The value is an integer in the strategy (rounded when set).
    pub integer: bool,
}

/// A named opponent.
pub type Opponent = (String, StrategySpec);

/// A validated tune.
pub struct Tune {
    /// Name (and results folder).
    pub name: String,
    /// Board, rules, openings, seed and threads.
    pub setup: Setup,
    /// The optimiser.
    pub method: Method,
    /// Iterations (SPSA) or function evaluations (CMA-ES).
    pub iterations: u64,
    /// Games per iteration (even).
    pub games: u64,
    /// SPSA's final learning rate factor.
    pub r_end: f64,
    /// The player to tune at its start, every default filled in; the parameters are
    /// set on it (its TOML form, `to_table`, is what a report or best.toml writes).
    pub player: StrategySpec,
    /// The parameters.
    pub params: Vec<Param>,
    /// The fixed opponents (empty: self-play).
    pub panel: Vec<Opponent>,
    /// Whether `validation.skip = true` was given.
    pub validation_skipped: bool,
    /// Validation games (0: skip validation).
    pub validation_games: u64,
    /// Elo of the validation SPRT's H1.
    pub validation_elo1: f64,
    /// Players the validation plays the tuned player against besides the start.
    pub validation_panel: Vec<Opponent>,
}

fn check_param(
    p: ParamFile,
    player: &StrategySpec,
    known: &[&str],
) -> std::result::Result<Param, String> {
    let unknown = || {
        unknown_name(
            &format!("parameter for strategy '{}':", player.kind()),
            &p.name,
            known,
        )
    };
    let path = ParamPath::parse(player, &p.name).map_err(|_| unknown())?;
    let (value, integer) = match path.get(player).ok_or_else(unknown)? {
        ParamValue::Whole(i) => (i as f64, true),
        ParamValue::Decimal(f) => (f, false),
        _ => {
            return Err(format!(
                "parameter '{}' is not a number in the strategy",
                p.name
            ))
        }
    };
    if p.min.partial_cmp(&p.max) != Some(std::cmp::Ordering::Less) {
        return Err(format!(
            "parameter '{}': min = {} is not below max = {}",
            p.name, p.min, p.max
        ));
    }
    let start = p.start.unwrap_or(value);
    if !(p.min..=p.max).contains(&start) {
        return Err(format!(
            "parameter '{}': start = {start} is outside [{}, {}]",
            p.name, p.min, p.max
        ));
    }
    if p.step.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return Err(format!(
            "parameter '{}': step = {} must be above 0",
            p.name, p.step
        ));
    }
    Ok(Param {
        name: p.name,
        path,
        start,
        min: p.min,
        max: p.max,
        step: p.step,
        integer,
    })
}

impl Tune {
    /// Reads and validates a tune file; every error comes before any game.
    pub fn load(path: &Path) -> Result<Self> {
        crate::lab::config::load(path, Self::parse)
    }

    /// Validates tune text; `origin` names it in errors and `base_dir` is the
    /// folder relative paths start from.
    pub fn parse(text: &str, origin: &str, base_dir: &Path) -> Result<Self> {
        Self::parse_with(text, origin, base_dir, Some(base_dir))
    }

    /// A tune file kept in a tune's folder: its strategies' relative paths start from
    /// the working folder, since the folder the file first came from is not recorded.
    pub fn parse_kept(text: &str, origin: &str, dir: &Path) -> Result<Self> {
        Self::parse_with(text, origin, dir, None)
    }

    fn parse_with(
        text: &str,
        origin: &str,
        base_dir: &Path,
        paths_from: Option<&Path>,
    ) -> Result<Self> {
        let read = |value: &toml::Value| match paths_from {
            Some(base) => StrategySpec::from_value_in(value, base),
            None => StrategySpec::from_value(value),
        };
        let source = Source::new(origin, text);
        let fail = |message: String| Error::input(format!("{origin}: {message}"));
        let file = read_config::<TuneFile>(&source)?;
        let setup =
            Setup::from_file(&file.setup, base_dir).map_err(|e| fail(e.worded(Edge::Config)))?;
        let raw = file.own;
        if raw.iterations == 0 {
            return Err(fail("iterations = 0: tune for at least 1 iteration".into()));
        }
        if raw.games_per_iteration < 2 || raw.games_per_iteration % 2 == 1 {
            return Err(fail(format!(
                "games_per_iteration = {}: use an even number of at least 2 (colour-swapped pairs)",
                raw.games_per_iteration
            )));
        }
        let span = raw.player.span();
        let spec = read(raw.player.get_ref())
            .map_err(|e| source.error(Some(span.start), &format!("player: {e}")))?;
        if raw.params.is_empty() {
            return Err(fail(
                "no [[params]]: name at least one parameter to tune".into(),
            ));
        }
        // Every number of the player, for "did you mean".
        let known: Vec<String> = ParamPath::all(&spec)
            .into_iter()
            .filter(|path| path.get(&spec).and_then(|v| v.number()).is_some())
            .map(|path| path.to_string())
            .collect();
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        let params = raw
            .params
            .into_iter()
            .map(|p| check_param(p, &spec, &known).map_err(fail))
            .collect::<Result<Vec<_>>>()?;
        for (i, p) in params.iter().enumerate() {
            if params[..i].iter().any(|q| q.name == p.name) {
                return Err(fail(format!(
                    "[[params]] names '{}' twice: tune each parameter once",
                    p.name
                )));
            }
        }
        // The validation runs after training: its settings are checked now, so that a
        // mistake in them cannot cost a whole training.
        if !raw.validation.skip && raw.validation.games > 0 {
            check_games_per_pair(raw.validation.games, &VALIDATION_GAMES)
                .map_err(|e| fail(e.worded(Edge::Config)))?;
        }
        if !(raw.validation.elo1.is_finite() && raw.validation.elo1 > 0.0) {
            return Err(fail(format!(
                "[validation] elo1 = {}: the validation's SPRT tests elo0 = 0 against elo1, so give an elo1 above 0, such as 20",
                raw.validation.elo1
            )));
        }
        let buildable = |spec: &StrategySpec| -> std::result::Result<(), String> {
            with_geometry!(setup.size, G => spec.build::<G>(setup.rules).map(drop))
                .and_then(|()| {
                    spec.check_practical_under(
                        setup.start_empties(),
                        setup.time.control().is_some(),
                    )
                })
                .map_err(|e| e.to_string())
        };
        let opponents = |list: Vec<OpponentFile>, what: &str| -> Result<Vec<Opponent>> {
            list.into_iter()
                .map(|entry| {
                    let (name, strategy) =
                        crate::studies::named_strategy(&entry, what).map_err(fail)?;
                    let spec = read(strategy)
                        .map_err(|e| e.to_string())
                        .and_then(|s| buildable(&s).map(|()| s))
                        .map_err(|e| fail(format!("{what} '{name}': {e}")))?;
                    Ok((name, spec))
                })
                .collect()
        };
        let panel = opponents(raw.opponents.unwrap_or_default(), "opponent")?;
        let mut validation_panel = opponents(raw.validation.panel, "validation panel player")?;
        if validation_panel.is_empty() {
            validation_panel = panel.clone();
        }
        // Each validation run's folder is named by its opponent: names must differ, and
        // none may be `start` (the run against the starting player).
        for (what, list) in [
            ("opponent", &panel),
            ("validation panel player", &validation_panel),
        ] {
            for (i, (name, _)) in list.iter().enumerate() {
                if list[..i].iter().any(|(other, _)| other == name) {
                    return Err(fail(format!(
                        "two {what}s are named '{name}': give each its own name"
                    )));
                }
                if name == "start" {
                    return Err(fail(format!(
                        "the {what} '{name}' takes the name of the run against the starting player: give it another name"
                    )));
                }
            }
        }
        let spsa_given = raw.spsa.is_some();
        let r_end = raw.spsa.unwrap_or_default().r_end;
        if !(r_end.is_finite() && r_end > 0.0) {
            return Err(fail(format!(
                "[spsa] r_end = {}: use a number above 0, such as 2",
                crate::numbers::plain(r_end)
            )));
        }
        if raw.method == Method::Cmaes && spsa_given {
            return Err(fail(
                "[spsa] is for method = \"spsa\": remove it, or set method = \"spsa\"".into(),
            ));
        }
        buildable(&spec).map_err(|e| source.error(Some(span.start), &format!("player: {e}")))?;
        let tune = Tune {
            name: raw.name,
            setup: setup.clone(),
            method: raw.method,
            iterations: raw.iterations,
            games: raw.games_per_iteration,
            r_end,
            player: spec,
            params,
            panel,
            validation_skipped: raw.validation.skip,
            validation_games: if raw.validation.skip {
                0
            } else {
                raw.validation.games
            },
            validation_elo1: raw.validation.elo1,
            validation_panel,
        };
        // Every parameter must reach a buildable strategy at both bounds.
        for (i, p) in tune.params.iter().enumerate() {
            for v in [p.min, p.max] {
                let mut theta = tune.start();
                theta[i] = v;
                tune.spec(&theta)
                    .map_err(|e| e.to_string())
                    .and_then(|spec| buildable(&spec))
                    .map_err(|e| fail(format!("parameter '{}' = {v}: {e}", p.name)))?;
            }
        }
        Ok(tune)
    }

    /// The starting values.
    #[must_use]
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// The strategy with the parameters set to `theta`.
    pub fn spec(&self, theta: &[f64]) -> std::result::Result<StrategySpec, SpecError> {
        self.params
            .iter()
            .zip(theta)
            .try_fold(self.player.clone(), |spec, (p, &v)| {
                let value = if p.integer {
                    ParamValue::Whole(v.round() as i64)
                } else {
                    ParamValue::Decimal(v)
                };
                p.path.set(&spec, value)
            })
    }

    /// Clamps `theta` into the parameters' bounds.
    pub fn clamp(&self, theta: &mut [f64]) {
        for (v, p) in theta.iter_mut().zip(&self.params) {
            *v = v.clamp(p.min, p.max);
        }
    }
}
