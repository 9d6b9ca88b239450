//! Describing strategies: TOML tables and one-line specs (`alphabeta:depth=4,eval=mobility`),
//! one parser for both, which checks names and values and fills in every default.

mod construct;
mod kinds;
mod line;
mod listing;
mod path;
mod squares;

pub use crate::strategy::alphabeta::AlphaBetaSpec;
pub use crate::strategy::corner::{CornerEdgeSpec, CornerFirstSpec};
pub use crate::strategy::eval::EvalSpec;
pub use crate::strategy::greedy::GreedySpec;
pub use crate::strategy::minimum_disc::MinimumDiscSpec;
pub use crate::strategy::mobility::MobilitySpec;
use crate::strategy::param_info::whole_numbers;
pub use crate::strategy::parity::ParitySpec;
pub use crate::strategy::pattern::PatternSpec;
pub use crate::strategy::random::RandomSpec;
pub use crate::strategy::registry::StrategySpec;
pub use crate::strategy::solver::SolverSpec;
pub use crate::strategy::stability::StabilitySpec;
pub use crate::strategy::weighted::{WeightedOptions, WeightedSpec};
pub use kinds::{
    defaults, describe_kinds, evaluation_names, kind_names, KindInfo, Noted, ParamInfo, KINDS,
};
pub use listing::kinds_json;
pub use path::{ParamPath, ParamValue, PathError};
pub use squares::{SquaresSpec, TableSpec};

use super::error::Form;
use super::kind::{Depth, Kind, Visit, VisitMut};
use super::scale::Scale;
use super::SpecError;
use serde::Serialize;
use std::ops::RangeInclusive;
use std::path::Path;
use toml::{Table, Value};

/// The most strategies nested in one another a spec may hold (a search's evaluation
/// is one level, a base strategy's rollout another): far past any real use, well
/// short of exhausting a thread's stack.
pub const MAX_NESTING: usize = 16;

/// The most empty squares a game's exact solving may start from: FFO endgame
/// positions with 20 to 22 empties take seconds each; 24 empties take most of a minute.
pub const MAX_SOLVE_EMPTIES: u32 = 22;
/// The largest weight (either sign) of an `eval` feature: a feature counts at most a
/// few thousand (the square-table sum), so this keeps every sum well inside the
/// evaluation's limit of 10^8 hundredths.
pub const MAX_EVAL_WEIGHT: f64 = 1e3;
/// The longest search `time` a move accepted without a clock over it: a game of about
/// 30 moves a side then takes at most an hour.
pub const MAX_MOVE_TIME: std::time::Duration = std::time::Duration::from_secs(60);
/// The deepest `alphabeta` search accepted without a `nodes` budget.
pub const MAX_UNBUDGETED_DEPTH: u32 = 12;

/// The strongest player in about 0.2 s a move on one thread: `play --level expert`
/// and what `gtp` and `nboard` serve by default.
pub const EXPERT: &str = "alphabeta:eval=pattern,time=200ms,endgame=22,probcut=1.5,table_bits=20";

/// The `depth`s `alphabeta` accepts (past `MAX_UNBUDGETED_DEPTH` only with a `nodes` budget).
pub(crate) const DEPTHS: RangeInclusive<u32> = 1..=60;
/// The `table_bits` accepted, for the search and the solver alike.
pub(crate) const TABLE_BITS: RangeInclusive<u32> = 10..=26;

/// A kind's parameters read into its parameter struct (serde), each value checked
/// first against its parameter's declared shape and range, so that a refusal is the
/// parser's own: serde's words are never taken apart or shown.
pub(crate) fn typed<T: serde::de::DeserializeOwned>(
    kind: &'static str,
    table: Table,
) -> Result<T, SpecError> {
    let params = KINDS
        .iter()
        .find(|k| k.name == kind)
        .map_or(&[][..], |k| k.params);
    // The shape of every value first, then the ranges: a value of the wrong type is
    // told its type first.
    let values: Vec<(&ParamInfo, Value)> = table
        .iter()
        .filter_map(|(key, value)| Some((params.iter().find(|p| p.name == key)?, value.clone())))
        .collect();
    for (param, value) in &values {
        check_shape(kind, param, value)?;
    }
    if let Some((key, value)) = non_finite(&table, "") {
        return Err(SpecError::BadValue {
            kind,
            message: format!(
                "{key} = {value} is not a finite number: use an ordinary number such as 1.5"
            ),
        });
    }
    let typed = Value::Table(table.clone()).try_into::<T>().map_err(|_| {
        // Every parameter's struct fills what is missing: the value it cannot read is
        // the one that alone does not read.
        let param = values
            .iter()
            .find(|(param, value)| {
                let alone = Table::from_iter([(param.name.to_string(), value.clone())]);
                Value::Table(alone).try_into::<T>().is_err()
            })
            .map(|(param, value)| (param.name, shown(value), param.shape.wanted));
        SpecError::Unreadable { kind, param }
    })?;
    for (param, value) in &values {
        check_range(kind, param, value)?;
    }
    Ok(typed)
}

/// Refuses a value `param`'s type cannot read.
fn check_shape(kind: &'static str, param: &ParamInfo, value: &Value) -> Result<(), SpecError> {
    if let (Some((low, high)), Value::Float(x)) = (param.range, value) {
        if !x.is_finite() {
            return Err(SpecError::BadValue {
                kind,
                message: format!(
                    "{} = {} is not accepted: use {}",
                    param.name,
                    shown(value),
                    whole_numbers(low, high)
                ),
            });
        }
        let whole =
            (x.fract() == 0.0 && (low as f64..=high as f64).contains(x)).then_some(*x as i64);
        return Err(SpecError::NotWhole {
            kind,
            param: param.name,
            value: shown(value),
            whole,
            accepted: low..=high,
            form: Form::Line,
        });
    }
    if param.shape.time && crate::strategy::param_info::is_zero_time(value) {
        return Err(SpecError::NoTime {
            kind,
            param: param.name,
            value: value.as_str().unwrap_or_default().to_string(),
            form: Form::Line,
        });
    }
    let wanted = match param.range {
        Some((low, high)) => Some(whole_numbers(low, high)),
        None => param.shape.wanted.map(str::to_string),
    };
    if let Some(wanted) = wanted.filter(|_| !(param.shape.accepts)(value)) {
        return Err(SpecError::BadValue {
            kind,
            message: format!(
                "{} = {} is not accepted: use {wanted}",
                param.name,
                shown(value)
            ),
        });
    }
    Ok(())
}

/// Refuses a whole number outside `param`'s declared range.
fn check_range(kind: &'static str, param: &ParamInfo, value: &Value) -> Result<(), SpecError> {
    if let (Some((low, high)), Some(number)) = (param.range, value.as_integer()) {
        if !(low..=high).contains(&number) {
            return Err(SpecError::OutOfRange {
                kind,
                param: param.name,
                value: number,
                accepted: low..=high,
            });
        }
    }
    Ok(())
}

/// A value as a message shows it: text in quotes, a whole float with its `.0` (so that
/// `1e3` does not read as the whole number it is not), a long number in exponent form.
fn shown(value: &Value) -> String {
    match value {
        Value::Float(x) if x.is_nan() => "NaN".to_string(),
        Value::Float(x) if x.is_infinite() => format!("{x}"),
        Value::Float(x) => {
            let plain = format!("{x:?}");
            if plain.len() > 12 {
                crate::numbers::plain(*x)
            } else {
                plain
            }
        }
        other => other.to_string(),
    }
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

impl StrategySpec {
    /// Reads a strategy from a TOML value: a table with `kind`, or a one-line spec string.
    pub fn from_value(value: &Value) -> Result<Self, SpecError> {
        match value {
            Value::String(text) => Self::parse(text),
            Value::Table(table) => Self::from_table(table).map_err(SpecError::in_table),
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
        struct Rebase<'a>(&'a Path);
        impl VisitMut for Rebase<'_> {
            type Out = ();
            fn kind<K: Kind>(self, spec: &mut K) {
                for path in spec.paths() {
                    if path.is_relative() {
                        *path = self.0.join(&*path);
                    }
                }
                for nested in spec.nested_mut() {
                    nested.rebase(self.0);
                }
            }
        }
        self.visit_mut(Rebase(base));
    }

    /// Reads a strategy from a TOML table with a `kind` key.
    pub fn from_table(table: &Table) -> Result<Self, SpecError> {
        let kind = match table.get("kind") {
            Some(Value::String(kind)) => kind.as_str(),
            Some(_) => return Err(SpecError::KindNotString),
            None => {
                let typo = table
                    .keys()
                    .find(|key| crate::setting::closest(key, ["kind"]).is_some())
                    .cloned();
                return Err(SpecError::MissingKind { typo });
            }
        };
        let info = KINDS
            .iter()
            .find(|k| k.name == kind)
            .ok_or_else(|| SpecError::UnknownKind { name: kind.into() })?;
        let mut rest = table.clone();
        rest.remove("kind");
        // KINDS decides which keys exist, so the listing users read is the whole truth.
        if let Some(key) = rest
            .keys()
            .find(|key| info.params.iter().all(|p| p.name != *key))
        {
            return Err(SpecError::UnknownParam {
                kind: info.name,
                name: key.clone(),
            });
        }
        // The defaults are those of each kind's parameter struct: `describe_kinds`
        // reads them back from the parsed spec.
        Self::read_kind(info.name, rest).unwrap_or_else(|| {
            Err(SpecError::UnknownKind {
                name: info.name.into(),
            })
        })
    }

    /// Parses a one-line spec: `kind` or `kind:key=value,key=value`. Values are
    /// TOML values (`4`, `true`, `"text"`, `[1, 2]`) or bare words; a nested
    /// strategy with parameters goes in parentheses: `eval=(weighted:preset=paip)`.
    /// A spec starting with `{` is read as a TOML inline table.
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        // Deeper nesting than any strategy needs would only exhaust the stack.
        let mut depth = 0usize;
        for c in text.chars() {
            match c {
                '(' | '{' | '[' => depth += 1,
                ')' | '}' | ']' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth > 2 * MAX_NESTING {
                return Err(SpecError::TooDeep { limit: MAX_NESTING });
            }
        }
        // A kind's own line form (an engine's command line) is not `key=value` text:
        // taken whole.
        if let Some(read) = Self::read_line(text.trim()) {
            return read;
        }
        let table = line::parse_line(text.trim())?;
        Self::from_table(&table)
    }

    /// Whether its moves stop on a clock (alphabeta's `time`): its games then depend
    /// on the machine, not on the seed alone.
    #[must_use]
    pub fn timed(&self) -> bool {
        struct Timed;
        impl Visit for Timed {
            type Out = bool;
            fn kind<K: Kind>(self, spec: &K) -> bool {
                spec.timed() || spec.nested().iter().any(|n| n.timed())
            }
        }
        self.visit(Timed)
    }

    /// Whether this spec or any strategy nested in it (at any depth) satisfies `pred`:
    /// an engine anywhere, for a caller that must not start programs.
    pub fn any(&self, pred: &mut dyn FnMut(&StrategySpec) -> bool) -> bool {
        struct Any<'p>(&'p mut dyn FnMut(&StrategySpec) -> bool);
        impl Visit for Any<'_> {
            type Out = bool;
            fn kind<K: Kind>(self, spec: &K) -> bool {
                spec.nested().iter().any(|n| n.any(&mut *self.0))
            }
        }
        pred(self) || self.visit(Any(pred))
    }

    /// The files this spec itself reads (a pattern's weights, an engine's folder), not
    /// those of the strategies nested in it.
    #[must_use]
    pub fn files(&self) -> Vec<std::path::PathBuf> {
        struct Files;
        impl VisitMut for Files {
            type Out = Vec<std::path::PathBuf>;
            fn kind<K: Kind>(self, spec: &mut K) -> Self::Out {
                spec.paths().into_iter().map(|p| p.clone()).collect()
            }
        }
        self.clone().visit_mut(Files)
    }

    /// Whether this spec itself (not those nested in it) runs code of the user's
    /// choosing: an external engine's program, a Python callable.
    #[must_use]
    pub fn runs_code(&self) -> bool {
        struct RunsCode;
        impl Visit for RunsCode {
            type Out = bool;
            fn kind<K: Kind>(self, _: &K) -> bool {
                K::RUNS_CODE
            }
        }
        self.visit(RunsCode)
    }

    /// Whether a move of it searches ahead, its own or a nested strategy's (see
    /// `Kind::SEARCHES`): what a playout cannot afford at every move.
    #[must_use]
    pub fn searches(&self) -> bool {
        self.any(&mut |spec| spec.info().searches)
    }

    /// The kind name.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        self.info().name
    }

    /// The kind's entry in [`KINDS`].
    #[must_use]
    pub fn info(&self) -> &'static KindInfo {
        struct Info;
        impl Visit for Info {
            type Out = &'static KindInfo;
            fn kind<K: Kind>(self, _: &K) -> &'static KindInfo {
                KINDS
                    .iter()
                    .find(|k| k.name == K::NAME)
                    .expect("the registry lists every kind")
            }
        }
        self.visit(Info)
    }

    /// At or below this many empty squares its move values are exact final margins
    /// (0: never).
    #[must_use]
    pub fn exact_from(&self) -> u32 {
        struct ExactFrom;
        impl Visit for ExactFrom {
            type Out = u32;
            fn kind<K: Kind>(self, spec: &K) -> u32 {
                spec.exact_from()
            }
        }
        self.visit(ExactFrom)
    }

    /// The scale its move values are on (`play`'s `eval`, `watch`, `serve`): its own as
    /// a player, else its evaluation's, else the strategy's own units.
    #[must_use]
    pub fn scale(&self) -> Scale {
        struct AsPlayer;
        impl Visit for AsPlayer {
            type Out = Option<Scale>;
            fn kind<K: Kind>(self, spec: &K) -> Option<Scale> {
                spec.scale()
            }
        }
        self.visit(AsPlayer)
            .or_else(|| self.evaluation_scale())
            .unwrap_or(Scale::points(
                "points",
                "the strategy's own units, not discs",
            ))
    }

    /// Its search depth and the deepest it accepts, its own or its base's (see
    /// [`Kind::depth`]); None when it has none.
    #[must_use]
    pub fn depth(&self) -> Option<Depth> {
        struct Deepest;
        impl Visit for Deepest {
            type Out = Option<Depth>;
            fn kind<K: Kind>(self, spec: &K) -> Option<Depth> {
                spec.depth()
                    .or_else(|| spec.nested().iter().find_map(|n| n.depth()))
            }
        }
        self.visit(Deepest)
    }

    /// This spec with its search depth (its own or its base's) set to `depth`.
    #[must_use]
    pub fn with_depth(&self, depth: u32) -> Self {
        struct SetDepth(u32);
        impl VisitMut for SetDepth {
            type Out = ();
            fn kind<K: Kind>(self, spec: &mut K) {
                if spec.depth().is_some() {
                    spec.set_depth(self.0);
                } else {
                    for nested in spec.nested_mut() {
                        *nested = nested.with_depth(self.0);
                    }
                }
            }
        }
        let mut spec = self.clone();
        spec.visit_mut(SetDepth(depth));
        spec
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
        struct Practical(u32, bool);
        impl Visit for Practical {
            type Out = Result<(), SpecError>;
            fn kind<K: Kind>(self, spec: &K) -> Result<(), SpecError> {
                spec.check_practical(self.0, self.1)?;
                spec.nested()
                    .iter()
                    .try_for_each(|n| n.check_practical_under(self.0, self.1))
            }
        }
        self.visit(Practical(empties, clocked))
    }

    /// Whether the spec can serve as a search's evaluation (the registry says which
    /// kinds are).
    #[must_use]
    pub fn is_evaluation(&self) -> bool {
        self.info().evaluation.is_some()
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

/// A spec's TOML (and JSON) form: `kind` first, then its parameters.
impl Serialize for StrategySpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Tagged<'a, K> {
            kind: &'static str,
            #[serde(flatten)]
            spec: &'a K,
        }
        struct Write<S>(S);
        impl<S: serde::Serializer> Visit for Write<S> {
            type Out = Result<S::Ok, S::Error>;
            fn kind<K: Kind>(self, spec: &K) -> Self::Out {
                Tagged {
                    kind: K::NAME,
                    spec,
                }
                .serialize(self.0)
            }
        }
        self.visit(Write(serializer))
    }
}

#[cfg(test)]
mod tests;
