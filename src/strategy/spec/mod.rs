//! Describing strategies: TOML tables and one-line specs (`alphabeta:depth=4,eval=mobility`),
//! one parser for both, which checks names and values and fills in every default.

mod build;
mod kinds;
mod line;
mod squares;

pub use kinds::{defaults, describe_kinds, kind_names, KindInfo, ParamInfo, KINDS};
pub use squares::{SquaresSpec, TableSpec, WeightedSpec};

use super::{EvalWeights, SpecError};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;
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

/// Parameters of `alphabeta`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlphaBetaSpec {
    /// Plies to search.
    pub depth: u32,
    /// The evaluation.
    pub eval: Box<StrategySpec>,
    /// Exact solving at or below this many empties (0: never).
    pub endgame: u32,
    /// Node budget per move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Use a transposition table.
    pub table: bool,
    /// Order moves.
    pub ordering: bool,
    /// log2 of the table's entries.
    pub table_bits: u32,
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
    MinimumDisc {
        /// Empties at which to start maximising.
        endgame: u32,
    },
    /// `weighted`.
    Weighted(WeightedSpec),
    /// `mobility`.
    Mobility {
        /// Normalise to 100*(a-b)/(a+b).
        normalised: bool,
        /// Potential-mobility weight.
        potential: i32,
        /// Frontier penalty.
        frontier: i32,
    },
    /// `parity`.
    Parity {
        /// Empties at which parity applies.
        endgame: u32,
        /// The base strategy.
        base: Box<StrategySpec>,
    },
    /// `stability`.
    Stability,
    /// `pattern`: the fitted 8x8 pattern evaluation.
    Pattern,
    /// `eval`.
    Eval(EvalSpec),
    /// `alphabeta`.
    Alphabeta(AlphaBetaSpec),
    /// `solver`.
    Solver {
        /// log2 of the table's entries.
        table_bits: u32,
    },
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
    if first.starts_with("unknown ") || first.starts_with("missing ") {
        return first.to_string();
    }
    let Some((got, expected)) = first.split_once(", expected ") else {
        return format!("{key}: {first}");
    };
    // The value and the type's wording are the config reader's (crate::error), so the
    // two say a refused value the same way.
    let value = crate::error::given_value(got).unwrap_or_else(|| got.to_string());
    // A key with a narrower range says it (depth = 0 is refused too).
    let ranged = [("depth", &DEPTHS), ("table_bits", &TABLE_BITS)]
        .iter()
        .find(|(name, _)| key == *name || key.ends_with(&format!(".{name}")))
        .map(|(_, range)| format!("a whole number from {} to {}", range.start(), range.end()));
    let wanted = match (ranged, crate::error::wanted(first)) {
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
        // The defaults below are the only place they are written: `describe_kinds`
        // reads them back from the parsed spec.
        let spec = match kind {
            "random" => StrategySpec::Random,
            "greedy" => StrategySpec::Greedy,
            "corner-first" => StrategySpec::CornerFirst,
            "corner-edge" => StrategySpec::CornerEdge,
            "stability" => StrategySpec::Stability,
            "pattern" => StrategySpec::Pattern,
            "minimum-disc" => {
                #[derive(Deserialize, Default)]
                #[serde(deny_unknown_fields, default)]
                struct P {
                    endgame: u32,
                }
                let p: P = typed(kind, rest)?;
                StrategySpec::MinimumDisc { endgame: p.endgame }
            }
            "weighted" => StrategySpec::Weighted(typed(kind, rest)?),
            "mobility" => {
                #[derive(Deserialize, Default)]
                #[serde(deny_unknown_fields, default)]
                struct P {
                    normalised: bool,
                    potential: i32,
                    frontier: i32,
                }
                let p: P = typed(kind, rest)?;
                StrategySpec::Mobility {
                    normalised: p.normalised,
                    potential: p.potential,
                    frontier: p.frontier,
                }
            }
            "parity" => {
                let base = match rest.remove("base") {
                    Some(value) => Self::from_value(&value).map_err(|e| e.within("parity base"))?,
                    None => StrategySpec::Greedy,
                };
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct P {
                    #[serde(default = "parity_endgame")]
                    endgame: u32,
                }
                fn parity_endgame() -> u32 {
                    14
                }
                let p: P = typed(kind, rest)?;
                StrategySpec::Parity {
                    endgame: p.endgame,
                    base: Box::new(base),
                }
            }
            "eval" => {
                let mut squares_table = Table::new();
                for key in ["preset", "table"] {
                    if let Some(v) = rest.remove(key) {
                        squares_table.insert(key.to_string(), v);
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
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct P {
                    #[serde(default = "default_depth")]
                    depth: u32,
                    #[serde(default)]
                    endgame: u32,
                    #[serde(default)]
                    nodes: Option<u64>,
                    #[serde(default = "yes")]
                    table: bool,
                    #[serde(default = "yes")]
                    ordering: bool,
                    #[serde(default = "search_bits")]
                    table_bits: u32,
                }
                fn default_depth() -> u32 {
                    4
                }
                fn yes() -> bool {
                    true
                }
                fn search_bits() -> u32 {
                    14
                }
                let p: P = typed(kind, rest)?;
                let depth = in_range(kind, "depth", p.depth, DEPTHS)?;
                if p.nodes == Some(0) {
                    return Err(SpecError::NoNodes);
                }
                StrategySpec::Alphabeta(AlphaBetaSpec {
                    depth,
                    eval: Box::new(eval),
                    endgame: p.endgame,
                    nodes: p.nodes,
                    table: p.table,
                    ordering: p.ordering,
                    table_bits: in_range(kind, "table_bits", p.table_bits, TABLE_BITS)?,
                })
            }
            "solver" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct P {
                    #[serde(default = "solver_bits")]
                    table_bits: u32,
                }
                fn solver_bits() -> u32 {
                    20
                }
                let p: P = typed(kind, rest)?;
                StrategySpec::Solver {
                    table_bits: in_range(kind, "table_bits", p.table_bits, TABLE_BITS)?,
                }
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

    /// The kind name.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            StrategySpec::Random => "random",
            StrategySpec::Greedy => "greedy",
            StrategySpec::CornerFirst => "corner-first",
            StrategySpec::CornerEdge => "corner-edge",
            StrategySpec::MinimumDisc { .. } => "minimum-disc",
            StrategySpec::Weighted(_) => "weighted",
            StrategySpec::Mobility { .. } => "mobility",
            StrategySpec::Parity { .. } => "parity",
            StrategySpec::Stability => "stability",
            StrategySpec::Pattern => "pattern",
            StrategySpec::Eval(_) => "eval",
            StrategySpec::Alphabeta(_) => "alphabeta",
            StrategySpec::Solver { .. } => "solver",
            StrategySpec::Engine(_) => "engine",
        }
    }

    /// Refuses a strategy that could not finish a game in reasonable time when
    /// the game starts with `empties` empty squares: exact solving from too early,
    /// or a fixed search depth too deep for any budget.
    pub fn check_practical(&self, empties: u32) -> Result<(), SpecError> {
        match self {
            StrategySpec::Solver { .. } if empties > MAX_SOLVE_EMPTIES => {
                Err(SpecError::Impractical(format!(
                    "strategy 'solver' solves every move exactly, and these games start with {empties} empty squares: it is practical up to about {MAX_SOLVE_EMPTIES}; use alphabeta:endgame={MAX_SOLVE_EMPTIES} (search, then solve the last {MAX_SOLVE_EMPTIES} empties) or openings that leave at most {MAX_SOLVE_EMPTIES} empties"
                )))
            }
            StrategySpec::Alphabeta(spec) if spec.endgame > MAX_SOLVE_EMPTIES && empties > MAX_SOLVE_EMPTIES => {
                Err(SpecError::Impractical(format!(
                    "strategy 'alphabeta': endgame = {} would solve positions with up to {} empty squares exactly, which can take hours: use endgame = {MAX_SOLVE_EMPTIES} or less",
                    spec.endgame, spec.endgame
                )))
            }
            StrategySpec::Alphabeta(spec) if spec.depth > MAX_UNBUDGETED_DEPTH && spec.nodes.is_none() => {
                Err(SpecError::Impractical(format!(
                    "strategy 'alphabeta': depth = {} with no node budget can take hours per move: use depth {MAX_UNBUDGETED_DEPTH} or less, or bound each move with nodes = N (such as nodes=1000000)",
                    spec.depth
                )))
            }
            StrategySpec::Parity { base, .. } => base.check_practical(empties),
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
                | StrategySpec::Mobility { .. }
                | StrategySpec::Stability
                | StrategySpec::Pattern
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
mod tests {
    use super::*;
    use crate::board::{Size6, Size8};
    use crate::game::Rules;

    #[test]
    fn one_line_and_table_agree() {
        let line = StrategySpec::parse("alphabeta:depth=4,eval=mobility").unwrap();
        let table: Table =
            toml::from_str("kind = \"alphabeta\"\ndepth = 4\neval = { kind = \"mobility\" }")
                .unwrap();
        assert_eq!(StrategySpec::from_table(&table).unwrap(), line);
        let StrategySpec::Alphabeta(spec) = &line else {
            panic!()
        };
        assert_eq!(spec.depth, 4);
        assert_eq!(
            *spec.eval,
            StrategySpec::Mobility {
                normalised: false,
                potential: 0,
                frontier: 0
            }
        );
        assert!(spec.table && spec.ordering);
    }

    #[test]
    fn nested_and_inline_specs() {
        let spec = StrategySpec::parse("alphabeta:depth=2,eval=(weighted:preset=paip),nodes=5000")
            .unwrap();
        let StrategySpec::Alphabeta(ab) = &spec else {
            panic!()
        };
        assert_eq!(ab.nodes, Some(5000));
        assert_eq!(ab.eval.kind(), "weighted");
        let inline =
            StrategySpec::parse("{ kind = \"parity\", endgame = 10, base = \"corner-first\" }")
                .unwrap();
        assert_eq!(
            inline,
            StrategySpec::Parity {
                endgame: 10,
                base: Box::new(StrategySpec::CornerFirst)
            }
        );
        let eval =
            StrategySpec::parse("eval:mobility=3,corners=50.5,preset=paip,squares=1").unwrap();
        let StrategySpec::Eval(e) = eval else {
            panic!()
        };
        assert_eq!(
            (e.weights.mobility, e.weights.corners, e.weights.squares),
            (3.0, 50.5, 1.0)
        );
        assert_eq!(e.squares.preset.as_deref(), Some("paip"));
    }

    #[test]
    fn errors_list_and_suggest() {
        let parse_err = |text: &str| StrategySpec::parse(text).unwrap_err();
        let err = parse_err("greddy").to_string();
        assert!(
            err.starts_with(
                "unknown strategy 'greddy' (did you mean 'greedy'? known: random, greedy"
            ),
            "{err}"
        );
        let err = parse_err("alphabeta:depht=3").to_string();
        assert!(
            err.contains("'depht'") && err.contains("did you mean 'depth'"),
            "{err}"
        );
        let err = parse_err("greedy:depth=3").to_string();
        assert!(err.contains("takes no parameters"), "{err}");
        assert_eq!(
            parse_err("alphabeta:depth=0"),
            SpecError::OutOfRange {
                kind: "alphabeta",
                param: "depth",
                value: 0,
                accepted: 1..=60
            }
        );
        let err = parse_err("alphabeta:depth=x").to_string();
        assert!(err.contains("depth"), "{err}");
        assert_eq!(
            parse_err("alphabeta:eval=random"),
            SpecError::SearchEvalNotAnEvaluation { kind: "random" }
        );
        let build_err = |text: &str| {
            StrategySpec::parse(text)
                .unwrap()
                .build::<Size8>(Rules::default())
                .err()
                .unwrap()
        };
        let err = build_err("weighted:preset=clasic").to_string();
        assert!(err.contains("did you mean 'classic'"), "{err}");
        assert_eq!(
            build_err("weighted:table=[1,2,3]"),
            SpecError::TableLength { len: 3, size: 8 }
        );
        let classic = StrategySpec::parse("weighted:preset=classic").unwrap();
        assert_eq!(
            classic.build::<Size6>(Rules::default()).err().unwrap(),
            SpecError::PresetSize {
                name: "classic",
                size: 6
            }
        );
        assert!(StrategySpec::parse("weighted")
            .unwrap()
            .build::<Size6>(Rules::default())
            .is_ok());
        let err = parse_err("eval:mobilty=3").to_string();
        assert!(err.contains("did you mean 'mobility'"), "{err}");
    }

    /// The messages users see, word for word: the error type must not change them.
    #[test]
    fn messages_are_the_projects_own() {
        let kinds = "random, greedy, corner-first, corner-edge, minimum-disc, weighted, mobility, parity, stability, pattern, eval, alphabeta, solver, engine";
        let parse_cases = [
            ("", format!("empty strategy spec: write a kind such as 'greedy' (known: {kinds})")),
            ("{ kind = 3 }", "`kind` must be a string such as \"greedy\"".into()),
            ("{ depth = 4 }", format!("a strategy table needs `kind` (one of: {kinds})")),
            ("{ kind = \"nope\" }", format!("unknown strategy 'nope' (known: {kinds})")),
            ("alphabeta:depht=3", "unknown parameter for strategy 'alphabeta': 'depht' (did you mean 'depth'? known: depth, eval, endgame, nodes, table, ordering, table_bits)".into()),
            ("greedy:depth=3", "strategy 'greedy' takes no parameters, but 'depth' was given".into()),
            ("alphabeta:depth=61", "strategy 'alphabeta': depth = 61 is out of range: use 1 to 60".into()),
            ("alphabeta:depth=x", "strategy 'alphabeta': depth = \"x\" is not accepted: use a whole number from 1 to 60".into()),
            ("alphabeta:depth=nan", "strategy 'alphabeta': depth = NaN is not accepted: use a whole number from 1 to 60".into()),
            ("alphabeta:eval=(alphabeta:depth=2)", "alphabeta eval: 'alphabeta' is not an evaluation: use weighted, mobility, stability, pattern, eval or greedy (disc count)".into()),
            ("alphabeta:eval=(weighted:bogus=1)", "alphabeta eval: unknown parameter for strategy 'weighted': 'bogus' (known: preset, classes, table, own_only)".into()),
            ("alphabeta:nodes=0", "strategy 'alphabeta': nodes = 0 leaves no budget: use at least 1, or leave it out".into()),
            ("alphabeta:table_bits=9", "strategy 'alphabeta': table_bits = 9 is out of range: use 10 to 26".into()),
            ("solver:table_bits=27", "strategy 'solver': table_bits = 27 is out of range: use 10 to 26".into()),
            ("parity:base=5", "parity base: a strategy is a table such as { kind = \"greedy\" } or a spec string such as \"alphabeta:depth=4\", not integer".into()),
            ("parity:base=(mobility:frontier=x)", "parity base: strategy 'mobility': frontier = \"x\" is not accepted: use a whole number".into()),
            ("weighted:classes={corn=1}", "strategy 'weighted': unknown field `corn`, expected one of `corner`, `c_square`, `x_square`, `edge`, `centre`, `inner`".into()),
            ("alphabeta:depth", "strategy spec 'alphabeta:depth': 'depth' should be key=value, as in alphabeta:depth=4,eval=mobility".into()),
            ("alphabeta:depth=4,depth=5", "strategy spec 'alphabeta:depth=4,depth=5': 'depth' is given twice".into()),
            ("alphabeta:eval=(weighted", "unbalanced brackets or quotes in strategy spec 'eval=(weighted'".into()),
            ("alphabeta:eval=weighted)", "unbalanced brackets in strategy spec 'eval=weighted)'".into()),
            ("{kind=\"greedy\"} x", "strategy spec '{kind=\"greedy\"} x' is not a TOML inline table: TOML parse error at line 1, column 21 | 1 | s = {kind=\"greedy\"} x |                     ^ expected newline, `#`".into()),
        ];
        for (text, message) in parse_cases {
            assert_eq!(
                StrategySpec::parse(text).unwrap_err().to_string(),
                message,
                "{text}"
            );
        }
        let build_cases = [
            ("weighted:classes={corner=1},preset=paip", "give only one of `preset`, `classes` and `table`"),
            ("weighted:preset=clasic", "unknown weighted preset 'clasic' (did you mean 'classic'? known: classic, paip, explorer)"),
            ("weighted:table=[1,2,3]", "the weight table has 3 weights but the 6x6 board needs 36 (or 6 rows of 6)"),
            ("weighted:table=[[1,2],[3,4]]", "the weight table must have 6 rows of 6 weights for the 6x6 board"),
            ("alphabeta:eval=(weighted:preset=paip)", "weighted preset 'paip' is an 8x8 table and the board is 6x6: use `classes` (square classes for any size), preset 'explorer', or a 6x6 `table`"),
        ];
        for (text, message) in build_cases {
            let spec = StrategySpec::parse(text).unwrap();
            let err = spec.build::<Size6>(Rules::default()).err().unwrap();
            assert_eq!(err.to_string(), message, "{text}");
            assert_eq!(crate::Error::from(err).exit_code(), 2);
        }
    }

    #[test]
    fn every_kind_parses_with_defaults_and_round_trips() {
        for kind in KINDS {
            let spec = kinds::sample(kind);
            assert_eq!(spec.kind(), kind.name);
            let table = spec.to_table();
            assert_eq!(
                StrategySpec::from_table(&table).unwrap(),
                spec,
                "{}",
                kind.name
            );
            // An engine builds only with a program that answers (tests/engines.rs).
            if kind.name != "engine" {
                spec.build::<Size8>(Rules::default()).unwrap();
            }
        }
        assert!(describe_kinds().contains("minimum-disc"));
    }
}
