//! Parameter paths: `depth`, `eval.mobility`, one parameter of a strategy named as
//! tune, sweep and ablate name it, checked once against the strategy and then read
//! and set on it. The only code that walks a strategy's TOML form by dotted keys.

use super::{KindInfo, StrategySpec, KINDS};
use crate::strategy::{Feature, SpecError};
use std::fmt;
use toml::{Table, Value};

/// One parameter of a strategy, checked against it: every step names a parameter
/// its strategy declares (in [`KINDS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamPath {
    /// The keys from the outer strategy down: `["eval", "mobility"]`.
    keys: Vec<String>,
    /// The kind whose parameter the path ends in (or whose table parameter holds
    /// the last key, for `classes.corner`).
    kind: &'static str,
    /// Whether the last key is an entry of a table parameter (`classes.corner`).
    entry: bool,
}

/// A parameter's value, typed as the strategy holds it.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A whole number (`depth`, `nodes`).
    Whole(i64),
    /// A decimal (an evaluation weight).
    Decimal(f64),
    /// `true` or `false`.
    Flag(bool),
    /// Text (`preset`, `time`).
    Text(String),
    /// A list of words (an engine's `command`).
    Words(Vec<String>),
    /// A nested strategy (`eval`, `base`).
    Strategy(Box<StrategySpec>),
    /// Anything else a strategy holds: a table of weights, a list of numbers.
    Other(Value),
}

/// Why a path names no parameter of a strategy: bad input, said by the caller in
/// its own words from these facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// The strategy of `kind` declares no parameter `name`.
    NoSuchParam {
        /// The strategy kind asked.
        kind: &'static str,
        /// The key that is not one of its parameters.
        name: String,
        /// The parameters it does have.
        params: Vec<&'static str>,
    },
    /// `walked` (such as `depth.`) goes on past a parameter that is not a nested strategy.
    NotAStrategy {
        /// The path up to and including that parameter.
        walked: String,
        /// The kind that parameter belongs to.
        kind: &'static str,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::NoSuchParam { kind, name, params } if params.is_empty() => write!(
                f,
                "strategy '{kind}' has no parameters, so none named `{name}`"
            ),
            PathError::NoSuchParam { kind, name, params } => write!(
                f,
                "strategy '{kind}' has no parameter `{name}`: its parameters are {}",
                params.join(", ")
            ),
            PathError::NotAStrategy { walked, kind } => write!(
                f,
                "`{walked}` of {kind} is not a strategy with parameters of its own"
            ),
        }
    }
}

impl std::error::Error for PathError {}

fn kind_info(table: &Table) -> Option<&'static KindInfo> {
    let kind = table.get("kind").and_then(Value::as_str)?;
    KINDS.iter().find(|k| k.name == kind)
}

fn no_such(info: &'static KindInfo, name: &str) -> PathError {
    PathError::NoSuchParam {
        kind: info.name,
        name: name.to_string(),
        params: info.params.iter().map(|p| p.name).collect(),
    }
}

impl ParamPath {
    /// Checks `text` (dotted keys) against `spec`: each key but the last must be a
    /// nested strategy (or, one from the end, a table parameter such as
    /// `classes`), and the last a parameter its strategy declares.
    pub fn parse(spec: &StrategySpec, text: &str) -> Result<Self, PathError> {
        let table = spec.to_table();
        let keys: Vec<String> = text.split('.').map(str::to_string).collect();
        let mut here = &table;
        let mut walked = String::new();
        for (i, key) in keys.iter().enumerate() {
            let info = kind_info(here).expect("a spec's table has a known kind");
            let last = i + 1 == keys.len();
            if info.params.iter().all(|p| p.name != key) {
                return Err(no_such(info, key));
            }
            if last {
                return Ok(ParamPath {
                    keys,
                    kind: info.name,
                    entry: false,
                });
            }
            walked.push_str(key);
            match here.get(key) {
                Some(Value::Table(inner)) if inner.contains_key("kind") => here = inner,
                // One key into a table of values: a weight of `classes`.
                Some(Value::Table(inner)) if i + 2 == keys.len() => {
                    return if inner.contains_key(&keys[i + 1]) {
                        Ok(ParamPath {
                            keys,
                            kind: info.name,
                            entry: true,
                        })
                    } else {
                        Err(PathError::NotAStrategy {
                            walked,
                            kind: info.name,
                        })
                    };
                }
                Some(_) => {
                    return Err(PathError::NotAStrategy {
                        walked,
                        kind: info.name,
                    })
                }
                None => return Err(no_such(info, key)),
            }
            walked.push('.');
        }
        Err(no_such(kind_info(here).expect("a known kind"), ""))
    }

    /// The path to a feature's weight in `spec`: the weight itself in an `eval`, or in
    /// the `eval` of an `alphabeta`. None when `spec` holds no feature evaluation.
    #[must_use]
    pub fn to_feature(spec: &StrategySpec, feature: Feature) -> Option<Self> {
        let prefix = match spec {
            StrategySpec::Eval(_) => "",
            StrategySpec::Alphabeta(ab) if matches!(*ab.eval, StrategySpec::Eval(_)) => "eval.",
            _ => return None,
        };
        Self::parse(spec, &format!("{prefix}{}", feature.name())).ok()
    }

    /// Every parameter `spec` holds a value for, nested ones and the entries of its
    /// tables included, in the order of its TOML form.
    #[must_use]
    pub fn all(spec: &StrategySpec) -> Vec<Self> {
        fn walk(table: &Table, prefix: &[String], out: &mut Vec<ParamPath>) {
            let Some(info) = kind_info(table) else { return };
            for (key, value) in table.iter().filter(|(key, _)| *key != "kind") {
                let mut keys = prefix.to_vec();
                keys.push(key.clone());
                match value {
                    Value::Table(inner) if inner.contains_key("kind") => {
                        out.push(ParamPath {
                            keys: keys.clone(),
                            kind: info.name,
                            entry: false,
                        });
                        walk(inner, &keys, out);
                    }
                    Value::Table(inner) => {
                        out.push(ParamPath {
                            keys: keys.clone(),
                            kind: info.name,
                            entry: false,
                        });
                        for entry in inner.keys() {
                            let mut keys = keys.clone();
                            keys.push(entry.clone());
                            out.push(ParamPath {
                                keys,
                                kind: info.name,
                                entry: true,
                            });
                        }
                    }
                    _ => out.push(ParamPath {
                        keys,
                        kind: info.name,
                        entry: false,
                    }),
                }
            }
        }
        let mut out = Vec::new();
        walk(&spec.to_table(), &[], &mut out);
        out
    }

    /// The kind the parameter belongs to: `mobility` of `eval.mobility` is `eval`'s.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The parameter's own key: `mobility` of `eval.mobility`.
    #[must_use]
    pub fn last(&self) -> &str {
        self.keys.last().map_or("", String::as_str)
    }

    /// Whether the path ends inside a table parameter (`classes.corner`) rather than
    /// at a parameter itself.
    #[must_use]
    pub fn is_entry(&self) -> bool {
        self.entry
    }

    /// The value in `table` at `keys`, when present.
    fn at<'t>(keys: &[String], table: &'t Table) -> Option<&'t Value> {
        let (last, through) = keys.split_last()?;
        let mut here = table;
        for key in through {
            here = here.get(key)?.as_table()?;
        }
        here.get(last)
    }

    /// The parameter's value in `spec`; None when `spec` leaves it unset (`nodes`)
    /// or is not shaped as the spec the path was checked against.
    #[must_use]
    pub fn get(&self, spec: &StrategySpec) -> Option<ParamValue> {
        let table = spec.to_table();
        Self::at(&self.keys, &table).map(ParamValue::of)
    }

    /// `spec` with the parameter set to `value`, checked as any spec is: a value
    /// the strategy refuses is refused here, in the parser's words.
    pub fn set(&self, spec: &StrategySpec, value: ParamValue) -> Result<StrategySpec, SpecError> {
        let mut table = spec.to_table();
        let (last, through) = self.keys.split_last().expect("a path has a key");
        let mut here = &mut table;
        for key in through {
            here = here
                .get_mut(key)
                .and_then(Value::as_table_mut)
                .expect("the path was checked against this spec's shape");
        }
        here.insert(last.clone(), value.into_toml());
        StrategySpec::from_table(&table)
    }
}

impl fmt::Display for ParamPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.keys.join("."))
    }
}

impl ParamValue {
    fn of(value: &Value) -> Self {
        match value {
            Value::Integer(n) => ParamValue::Whole(*n),
            Value::Float(x) => ParamValue::Decimal(*x),
            Value::Boolean(b) => ParamValue::Flag(*b),
            Value::String(s) => ParamValue::Text(s.clone()),
            Value::Array(items) if items.iter().all(Value::is_str) => ParamValue::Words(
                items
                    .iter()
                    .filter_map(|w| w.as_str().map(str::to_string))
                    .collect(),
            ),
            Value::Table(table) if table.contains_key("kind") => {
                match StrategySpec::from_table(table) {
                    Ok(spec) => ParamValue::Strategy(Box::new(spec)),
                    Err(_) => ParamValue::Other(value.clone()),
                }
            }
            other => ParamValue::Other(other.clone()),
        }
    }

    fn into_toml(self) -> Value {
        match self {
            ParamValue::Whole(n) => Value::Integer(n),
            ParamValue::Decimal(x) => Value::Float(x),
            ParamValue::Flag(b) => Value::Boolean(b),
            ParamValue::Text(s) => Value::String(s),
            ParamValue::Words(words) => {
                Value::Array(words.into_iter().map(Value::String).collect())
            }
            ParamValue::Strategy(spec) => Value::Table(spec.to_table()),
            ParamValue::Other(value) => value,
        }
    }

    /// The value as a number, when it is one.
    #[must_use]
    pub fn number(&self) -> Option<f64> {
        match *self {
            ParamValue::Whole(n) => Some(n as f64),
            ParamValue::Decimal(x) => Some(x),
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
