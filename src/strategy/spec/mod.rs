//! Describing strategies: TOML tables and one-line specs (`alphabeta:depth=4,eval=mobility`),
//! one parser for both, which checks names and values and fills in every default.

mod construct;
mod kinds;
mod line;
mod listing;
mod params;
mod path;
mod squares;

pub use kinds::{defaults, describe_kinds, kind_names, KindInfo, ParamInfo, KINDS};
pub use listing::kinds_json;
pub use params::{
    AlphaBetaSpec, MinimumDiscSpec, MobilitySpec, ParitySpec, PatternSpec, SolverSpec,
};
pub use path::{ParamPath, ParamValue, PathError};
pub use squares::{SquaresSpec, TableSpec, WeightedSpec};

use super::{EvalWeights, SpecError};
use serde::Serialize;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// Parameters of `eval`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EvalSpec {
    /// The feature weights.
    #[serde(flatten)]
    pub weights: EvalWeights,
    /// The square table of the `squares` feature.
    #[serde(flatten)]
    pub squares: SquaresSpec,
}

/// A strategy as described by a user: validated names and values, defaults filled in.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StrategySpec {
    /// `random`.
    Random,
    /// `greedy`.
    Greedy,
    /// `corner-first`.
    CornerFirst,
    /// `corner-edge`.
    CornerEdge,
    /// `minimum-disc`.
    MinimumDisc(MinimumDiscSpec),
    /// `weighted`.
    Weighted(WeightedSpec),
    /// `mobility`.
    Mobility(MobilitySpec),
    /// `parity`.
    Parity(ParitySpec),
    /// `stability`.
    Stability,
    /// `pattern`: the fitted 8x8 pattern evaluation.
    Pattern(PatternSpec),
    /// `eval`.
    Eval(EvalSpec),
    /// `alphabeta`.
    Alphabeta(AlphaBetaSpec),
    /// `solver`.
    Solver(SolverSpec),
    /// `engine`: an external program (`gtp:COMMAND`).
    Engine(crate::strategy::engine::EngineSpec),
}

/// The most empty squares a game's exact solving may start from: FFO endgame
/// positions with 20 to 22 empties take seconds each; 24 empties take most of a minute.
pub const MAX_SOLVE_EMPTIES: u32 = 22;
/// The largest weight (either sign) of an `eval` feature: a feature counts at most a
/// few thousand (the square-table sum), so this keeps every sum well inside the
/// evaluation's limit of 10^8 hundredths.
pub const MAX_EVAL_WEIGHT: f64 = 1e3;
/// The deepest `alphabeta` search accepted without a `nodes` budget.
pub const MAX_UNBUDGETED_DEPTH: u32 = 12;

/// The strongest player in about 0.2 s a move on one thread: `play --level expert`
/// and what `gtp` and `nboard` serve by default.
pub const EXPERT: &str = "alphabeta:eval=pattern,time=200ms,endgame=22,probcut=1.5,table_bits=20";

/// The `depth`s `alphabeta` accepts (past `MAX_UNBUDGETED_DEPTH` only with a `nodes` budget).
const DEPTHS: RangeInclusive<u32> = 1..=60;
/// The `table_bits` accepted, for the search and the solver alike.
const TABLE_BITS: RangeInclusive<u32> = 10..=26;

fn typed<T: serde::de::DeserializeOwned>(kind: &'static str, table: Table) -> Result<T, SpecError> {
    // Typed first: `depth=nan` is told that depth takes a whole number.
    let non_finite = non_finite(&table, "");
    let typed = Value::Table(table)
        .try_into::<T>()
        .map_err(|e| SpecError::BadValue {
            kind,
            message: readable(&e.to_string()),
        })?;
    if let Some((key, value)) = non_finite {
        return Err(SpecError::BadValue {
            kind,
            message: format!(
                "{key} = {value} is not a finite number: use an ordinary number such as 1.5"
            ),
        });
    }
    Ok(typed)
}

/// The first NaN or infinite number in a table, with its dotted key.
#[must_use]
pub fn non_finite(table: &Table, prefix: &str) -> Option<(String, f64)> {
    table.iter().find_map(|(key, value)| {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            Value::Float(f) if !f.is_finite() => Some((path, *f)),
            Value::Table(inner) => non_finite(inner, &path),
            Value::Array(items) => items.iter().find_map(|item| match item {
                Value::Float(f) if !f.is_finite() => Some((path.clone(), *f)),
                Value::Table(inner) => non_finite(inner, &path),
                _ => None,
            }),
            _ => None,
        }
    })
}

/// serde's message about a parameter in the project's words, on one line:
/// "invalid value: integer `-2`, expected u32 / in `depth`" becomes
/// "depth = -2 is not accepted: use a whole number of at least 0".
fn readable(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or_default();
    let key = lines
        .find_map(|l| l.strip_prefix("in `").and_then(|r| r.strip_suffix('`')))
        .unwrap_or("a parameter");
    if first.contains("untagged enum TableSpec") {
        return "table must be a list of n*n whole numbers, or n rows of n, for the n x n board"
            .to_string();
    }
    // A parameter's own check (alphabeta's `time`) words its refusal in full.
    if first.starts_with("unknown ")
        || first.starts_with("missing ")
        || first.starts_with(&format!("{key} = "))
    {
        return first.to_string();
    }
    // Taken apart by the config reader's own reader (crate::error), so the two say a
    // refused value the same way.
    let Some(refusal) = crate::error::Refusal::of(first) else {
        return format!("{key}: {first}");
    };
    let expected = refusal.expected;
    let value = refusal.value.unwrap_or_else(|| refusal.got.to_string());
    // A key with a narrower range says it (depth = 0 is refused too).
    let ranged = [("depth", &DEPTHS), ("table_bits", &TABLE_BITS)]
        .iter()
        .find(|(name, _)| key == *name || key.ends_with(&format!(".{name}")))
        .map(|(_, range)| format!("a whole number from {} to {}", range.start(), range.end()));
    let wanted = match (ranged, refusal.wanted) {
        (Some(range), Some(_)) if expected.starts_with('u') => range,
        (_, Some(wanted)) => wanted.to_string(),
        (_, None) => expected.to_string(),
    };
    match key {
        "a parameter" => format!("{value} is not accepted: use {wanted}"),
        key => format!("{key} = {value} is not accepted: use {wanted}"),
    }
}

fn in_range(
    kind: &'static str,
    param: &'static str,
    value: u32,
    accepted: RangeInclusive<u32>,
) -> Result<u32, SpecError> {
    if accepted.contains(&value) {
        Ok(value)
    } else {
        Err(SpecError::OutOfRange {
            kind,
            param,
            value,
            accepted,
        })
    }
}

impl StrategySpec {
    /// Reads a strategy from a TOML value: a table with `kind`, or a one-line spec string.
    pub fn from_value(value: &Value) -> Result<Self, SpecError> {
        match value {
            Value::String(text) => Self::parse(text),
            Value::Table(table) => Self::from_table(table),
            other => Err(SpecError::NotAStrategy {
                found: other.type_str(),
            }),
        }
    }

    /// Reads a strategy a config file wrote: its relative file paths (a pattern's
    /// `weights`, an engine's `dir`) start from `base`, the file's folder, as its
    /// openings file does, so that the file means the same from any working folder.
    pub fn from_value_in(value: &Value, base: &Path) -> Result<Self, SpecError> {
        let mut spec = Self::from_value(value)?;
        spec.rebase(base);
        Ok(spec)
    }

    fn rebase(&mut self, base: &Path) {
        let join = |path: &mut PathBuf| {
            if path.is_relative() {
                *path = base.join(&*path);
            }
        };
        match self {
            Self::Pattern(p) => p.weights.as_mut().into_iter().for_each(join),
            Self::Alphabeta(a) => a.eval.rebase(base),
            Self::Parity(p) => p.base.rebase(base),
            Self::Engine(e) => e.dir.as_mut().into_iter().for_each(join),
            // No paths: listed, so that a new kind must say whether it has any.
            Self::Random
            | Self::Greedy
            | Self::CornerFirst
            | Self::CornerEdge
            | Self::MinimumDisc(_)
            | Self::Weighted(_)
            | Self::Mobility(_)
            | Self::Stability
            | Self::Eval(_)
            | Self::Solver(_) => {}
        }
    }

    /// Reads a strategy from a TOML table with a `kind` key.
    pub fn from_table(table: &Table) -> Result<Self, SpecError> {
        let kind = match table.get("kind") {
            Some(Value::String(kind)) => kind.as_str(),
            Some(_) => return Err(SpecError::KindNotString),
            None => return Err(SpecError::MissingKind),
        };
        let info = KINDS
            .iter()
            .find(|k| k.name == kind)
            .ok_or_else(|| SpecError::UnknownKind { name: kind.into() })?;
        let kind = info.name;
        let mut rest = table.clone();
        rest.remove("kind");
        // KINDS decides which keys exist, so the listing users read is the whole truth.
        if let Some(key) = rest
            .keys()
            .find(|key| info.params.iter().all(|p| p.name != *key))
        {
            return Err(SpecError::UnknownParam {
                kind,
                name: key.clone(),
            });
        }
        // The defaults are those of each kind's parameter struct (params.rs):
        // `describe_kinds` reads them back from the parsed spec.
        let spec = match kind {
            "random" => StrategySpec::Random,
            "greedy" => StrategySpec::Greedy,
            "corner-first" => StrategySpec::CornerFirst,
            "corner-edge" => StrategySpec::CornerEdge,
            "stability" => StrategySpec::Stability,
            "pattern" => StrategySpec::Pattern(typed(kind, rest)?),
            "minimum-disc" => StrategySpec::MinimumDisc(typed(kind, rest)?),
            "weighted" => StrategySpec::Weighted(typed(kind, rest)?),
            "mobility" => StrategySpec::Mobility(typed(kind, rest)?),
            "parity" => {
                let base = match rest.remove("base") {
                    Some(value) => {
                        Some(Self::from_value(&value).map_err(|e| e.within("parity base"))?)
                    }
                    None => None,
                };
                let mut spec: ParitySpec = typed(kind, rest)?;
                if let Some(base) = base {
                    spec.base = Box::new(base);
                }
                StrategySpec::Parity(spec)
            }
            "eval" => {
                let mut squares_table = Table::new();
                for param in SquaresSpec::PARAMS {
                    if let Some(v) = rest.remove(param.name) {
                        squares_table.insert(param.name.to_string(), v);
                    }
                }
                for (_, value) in rest.iter_mut() {
                    // Let users write integer weights.
                    if let Value::Integer(i) = *value {
                        *value = Value::Float(i as f64);
                    }
                }
                let weights: EvalWeights = typed(kind, rest.clone())?;
                // A stated range: past it a weight's products run into the clamp of
                // the evaluation's scale and every position looks alike.
                for (name, value) in &rest {
                    if let Some(w) = value.as_float().filter(|w| w.abs() > MAX_EVAL_WEIGHT) {
                        return Err(SpecError::BadValue {
                            kind,
                            message: format!(
                                "{name} = {w:e} is out of range: weights go from -{MAX_EVAL_WEIGHT:e} to {MAX_EVAL_WEIGHT:e}"
                            ),
                        });
                    }
                }
                StrategySpec::Eval(EvalSpec {
                    weights,
                    squares: typed(kind, squares_table)?,
                })
            }
            "alphabeta" => {
                let eval = match rest.remove("eval") {
                    Some(value) => {
                        Self::from_value(&value).map_err(|e| e.within("alphabeta eval"))?
                    }
                    None => StrategySpec::Weighted(WeightedSpec::default()),
                };
                if !eval.is_evaluation() {
                    return Err(SpecError::SearchEvalNotAnEvaluation { kind: eval.kind() });
                }
                let depth_given = rest.contains_key("depth");
                let mut spec: AlphaBetaSpec = typed(kind, rest)?;
                spec.eval = Box::new(eval);
                // With a time budget the search deepens until the time is spent.
                if spec.time.is_some() && !depth_given {
                    spec.depth = *DEPTHS.end();
                }
                in_range(kind, "depth", spec.depth, DEPTHS)?;
                if spec.nodes == Some(0) {
                    return Err(SpecError::NoNodes);
                }
                in_range(kind, "table_bits", spec.table_bits, TABLE_BITS)?;
                if !(0.0..=AlphaBetaSpec::MAX_PROBCUT).contains(&spec.probcut) {
                    return Err(SpecError::ProbCutRange {
                        value: spec.probcut,
                    });
                }
                if spec.probcut > 0.0 && !matches!(*spec.eval, StrategySpec::Pattern(_)) {
                    return Err(SpecError::ProbCutEval {
                        eval: spec.eval.kind(),
                    });
                }
                StrategySpec::Alphabeta(spec)
            }
            "solver" => {
                let spec: SolverSpec = typed(kind, rest)?;
                in_range(kind, "table_bits", spec.table_bits, TABLE_BITS)?;
                StrategySpec::Solver(spec)
            }
            "engine" => {
                StrategySpec::Engine(crate::strategy::engine::EngineSpec::from_table(rest)?)
            }
            _ => unreachable!("every name in KINDS has an arm"),
        };
        Ok(spec)
    }

    /// Parses a one-line spec: `kind` or `kind:key=value,key=value`. Values are
    /// TOML values (`4`, `true`, `"text"`, `[1, 2]`) or bare words; a nested
    /// strategy with parameters goes in parentheses: `eval=(weighted:preset=paip)`.
    /// A spec starting with `{` is read as a TOML inline table.
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        // An engine's command line is not `key=value` text: taken whole.
        if let Some(engine) = crate::strategy::engine::EngineSpec::from_line(text.trim()) {
            return engine.map(StrategySpec::Engine);
        }
        let table = line::parse_line(text.trim())?;
        Self::from_table(&table)
    }

    /// Whether its moves stop on a clock (alphabeta's `time`): its games then depend
    /// on the machine, not on the seed alone.
    #[must_use]
    pub fn timed(&self) -> bool {
        match self {
            StrategySpec::Alphabeta(spec) => spec.time.is_some(),
            StrategySpec::Parity(spec) => spec.base.timed(),
            _ => false,
        }
    }

    /// The kind name.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            StrategySpec::Random => "random",
            StrategySpec::Greedy => "greedy",
            StrategySpec::CornerFirst => "corner-first",
            StrategySpec::CornerEdge => "corner-edge",
            StrategySpec::MinimumDisc(_) => "minimum-disc",
            StrategySpec::Weighted(_) => "weighted",
            StrategySpec::Mobility(_) => "mobility",
            StrategySpec::Parity(_) => "parity",
            StrategySpec::Stability => "stability",
            StrategySpec::Pattern(_) => "pattern",
            StrategySpec::Eval(_) => "eval",
            StrategySpec::Alphabeta(_) => "alphabeta",
            StrategySpec::Solver(_) => "solver",
            StrategySpec::Engine(_) => "engine",
        }
    }

    /// Refuses a strategy that could not finish a game in reasonable time when
    /// the game starts with `empties` empty squares: exact solving from too early,
    /// or a fixed search depth too deep for any budget.
    pub fn check_practical(&self, empties: u32) -> Result<(), SpecError> {
        self.check_practical_under(empties, false)
    }

    /// [`check_practical`](Self::check_practical) for a player that may be on a
    /// clock (`clocked`): a time control bounds every move of a search, so any depth
    /// and endgame are practical under one.
    pub fn check_practical_under(&self, empties: u32, clocked: bool) -> Result<(), SpecError> {
        let budgeted = |spec: &AlphaBetaSpec| clocked || spec.time.is_some();
        match self {
            StrategySpec::Solver(_) if empties > MAX_SOLVE_EMPTIES => {
                Err(SpecError::Impractical(format!(
                    "strategy 'solver' solves every move exactly, and these games start with {empties} empty squares: it is practical up to about {MAX_SOLVE_EMPTIES}; use alphabeta:endgame={MAX_SOLVE_EMPTIES} (search, then solve the last {MAX_SOLVE_EMPTIES} empties) or openings that leave at most {MAX_SOLVE_EMPTIES} empties"
                )))
            }
            StrategySpec::Alphabeta(spec) if spec.endgame > MAX_SOLVE_EMPTIES && empties > MAX_SOLVE_EMPTIES && !budgeted(spec) => {
                Err(SpecError::Impractical(format!(
                    "strategy 'alphabeta': endgame = {} would solve positions with up to {} empty squares exactly, which can take hours: use endgame = {MAX_SOLVE_EMPTIES} or less",
                    spec.endgame, spec.endgame
                )))
            }
            StrategySpec::Alphabeta(spec) if spec.depth > MAX_UNBUDGETED_DEPTH && spec.nodes.is_none() && !budgeted(spec) => {
                Err(SpecError::Impractical(format!(
                    "strategy 'alphabeta': depth = {} with no node budget can take hours per move: use depth {MAX_UNBUDGETED_DEPTH} or less, or bound each move with nodes = N (such as nodes=1000000) or time = T (such as time=1s), or play it on a clock (move_time)",
                    spec.depth
                )))
            }
            StrategySpec::Parity(spec) => spec.base.check_practical_under(empties, clocked),
            _ => Ok(()),
        }
    }

    /// Whether the spec can serve as a search's evaluation. Asked before any board
    /// size is known, so it cannot just try `build_evaluator`; a test keeps the two in step.
    #[must_use]
    pub fn is_evaluation(&self) -> bool {
        matches!(
            self,
            StrategySpec::Weighted(_)
                | StrategySpec::Mobility(_)
                | StrategySpec::Stability
                | StrategySpec::Pattern(_)
                | StrategySpec::Eval(_)
                | StrategySpec::Greedy
        )
    }

    /// The spec as a TOML table with every default written out.
    #[must_use]
    pub fn to_table(&self) -> Table {
        match Value::try_from(self) {
            Ok(Value::Table(table)) => table,
            _ => unreachable!("a spec always serialises to a table"),
        }
    }
}

#[cfg(test)]
mod tests;
