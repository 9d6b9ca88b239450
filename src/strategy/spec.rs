//! Describing strategies: TOML tables and one-line specs (`alphabeta:depth=4,eval=mobility`), one parser for both.

use super::{
    AlphaBeta, CornerEdge, CornerFirst, DiscEval, EvalWeights, Evaluator, FeatureEval, Greedy,
    MinimumDisc, MobilityEval, OnePly, Parity, RandomMove, Solver, StabilityEval, Strategy,
    WeightedEval,
};
use crate::board::Geometry;
use crate::error::{closest, unknown_name};
use crate::game::Rules;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use toml::{Table, Value};

use super::weighted::{preset_table, SquareClasses, PRESETS};

/// One parameter of a strategy kind, for validation and `reversi-lab strategies`.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// The key users write.
    pub name: &'static str,
    /// The default, as text.
    pub default: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// One strategy kind.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    /// The name users write (`kind = "..."`).
    pub name: &'static str,
    /// One line on what it does.
    pub help: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
}

const fn p(name: &'static str, default: &'static str, help: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        default,
        help,
    }
}

const WEIGHTED_PARAMS: &[ParamInfo] = &[
    p(
        "preset",
        "classic (8x8), classes elsewhere",
        "built-in table: classic, paip or explorer",
    ),
    p(
        "classes",
        "-",
        "square-class weights for any size: { corner, c_square, x_square, edge, centre, inner }",
    ),
    p(
        "table",
        "-",
        "a full table: n*n weights, or n rows of n, row 1 first",
    ),
    p(
        "own_only",
        "true for explorer, else false",
        "sum over own discs only",
    ),
];

/// Every strategy kind with its parameters.
/// NOTE: the parameter names here are the only keys `StrategySpec::from_table`
/// accepts; keep them in step with the match arms there.
pub const KINDS: &[KindInfo] = &[
    KindInfo { name: "random", help: "a uniformly random legal move", params: &[] },
    KindInfo { name: "greedy", help: "the move that flips the most discs", params: &[] },
    KindInfo {
        name: "corner-first",
        help: "a corner if one is legal (random among them), otherwise greedy",
        params: &[],
    },
    KindInfo {
        name: "corner-edge",
        help: "a corner, else an edge move (random among them), else greedy",
        params: &[],
    },
    KindInfo {
        name: "minimum-disc",
        help: "evaporation: the move that flips the fewest discs",
        params: &[p("endgame", "0", "maximise discs instead when at most this many squares are empty (0: never)")],
    },
    KindInfo {
        name: "weighted",
        help: "maximise own square weights minus the opponent's after the move",
        params: WEIGHTED_PARAMS,
    },
    KindInfo {
        name: "mobility",
        help: "maximise own legal moves minus the opponent's after the move",
        params: &[
            p("normalised", "false", "use 100*(a-b)/(a+b) instead of a-b"),
            p("potential", "0", "weight of potential mobility (empties next to opponent discs), own minus opponent's"),
            p("frontier", "0", "penalty per frontier disc (next to an empty square), own minus opponent's"),
        ],
    },
    KindInfo {
        name: "parity",
        help: "in the endgame, moves into regions with an odd number of empties first",
        params: &[
            p("endgame", "14", "empties at or below which parity applies"),
            p("base", "greedy", "the strategy that chooses among the candidates (and alone before the endgame)"),
        ],
    },
    KindInfo {
        name: "stability",
        help: "maximise own stable discs minus the opponent's after the move",
        params: &[],
    },
    KindInfo {
        name: "eval",
        help: "the tunable evaluation: a weighted sum of named features, one ply deep",
        params: &[
            p("discs", "0", "weight: discs, own minus opponent's"),
            p("mobility", "8", "weight: legal moves"),
            p("potential_mobility", "2", "weight: empties next to the other side's discs"),
            p("frontier", "-3", "weight: discs next to an empty square"),
            p("corners", "30", "weight: corners held"),
            p("x_squares", "-15", "weight: X-squares held next to an empty corner"),
            p("c_squares", "-6", "weight: C-squares held next to an empty corner"),
            p("stable", "6", "weight: stable discs"),
            p("parity", "2", "weight: +1 if the empties are odd, else -1"),
            p("squares", "0", "weight: square-table sum (table from `preset`/`table`)"),
            p("preset", "classic (8x8), classes elsewhere", "square table for `squares`: classic, paip or explorer"),
            p("table", "-", "square table for `squares`: n*n weights or n rows of n"),
        ],
    },
    KindInfo {
        name: "alphabeta",
        help: "negamax alpha-beta search over an evaluation, with iterative deepening, ordering and a table",
        params: &[
            p("depth", "4", "plies to search (passes do not count)"),
            p("eval", "weighted", "the evaluation: weighted, mobility, stability, eval or greedy (disc count), as a table or spec"),
            p("endgame", "0", "solve exactly when at most this many squares are empty (0: never)"),
            p("nodes", "none", "node budget per move: stop deepening once it is spent"),
            p("table", "true", "use a transposition table (and iterative deepening)"),
            p("ordering", "true", "order moves: table move first, then by the evaluation"),
            p("table_bits", "14", "log2 of the transposition table's entries (10 to 26)"),
        ],
    },
    KindInfo {
        name: "solver",
        help: "exact endgame play: the move with the best final score (slow before ~20 empties)",
        params: &[p("table_bits", "20", "log2 of the transposition table's entries (10 to 26)")],
    },
];

/// The kind names, in listing order.
#[must_use]
pub fn kind_names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}

/// A square table given by its weights: flat, or as rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TableSpec {
    /// n*n weights, row 1 first.
    Flat(Vec<i32>),
    /// n rows of n weights.
    Rows(Vec<Vec<i32>>),
}

/// Where a square table comes from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquaresSpec {
    /// A built-in table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Square-class weights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classes: Option<SquareClasses>,
    /// A full table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableSpec>,
}

impl SquaresSpec {
    /// The table for a board of `size`.
    pub fn table(&self, size: u32) -> Result<Vec<i32>, String> {
        let given = [
            self.preset.is_some(),
            self.classes.is_some(),
            self.table.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            return Err("give only one of `preset`, `classes` and `table`".to_string());
        }
        let cells = (size * size) as usize;
        if let Some(table) = &self.table {
            let flat: Vec<i32> = match table {
                TableSpec::Flat(v) => v.clone(),
                TableSpec::Rows(rows) => {
                    if rows.len() != size as usize || rows.iter().any(|r| r.len() != size as usize)
                    {
                        return Err(format!(
                            "the weight table must have {size} rows of {size} weights for the {size}x{size} board"
                        ));
                    }
                    rows.concat()
                }
            };
            if flat.len() != cells {
                return Err(format!(
                    "the weight table has {} weights but the {size}x{size} board needs {cells} (or {size} rows of {size})",
                    flat.len()
                ));
            }
            return Ok(flat);
        }
        if let Some(classes) = &self.classes {
            return Ok(classes.table(size));
        }
        match &self.preset {
            Some(name) => preset_table(name, size),
            None if size == 8 => preset_table("classic", 8),
            None => Ok(SquareClasses::default().table(size)),
        }
    }
}

/// Parameters of `weighted`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightedSpec {
    /// The table.
    #[serde(flatten)]
    pub squares: SquaresSpec,
    /// Sum over own discs only (default: true for `explorer`, false otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_only: Option<bool>,
}

impl WeightedSpec {
    fn build(&self, size: u32) -> Result<WeightedEval, String> {
        let table = self.squares.table(size)?;
        let own_only = self
            .own_only
            .unwrap_or(self.squares.preset.as_deref() == Some("explorer"));
        Ok(WeightedEval::new(table, own_only))
    }
}

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
    /// `eval`.
    Eval(EvalSpec),
    /// `alphabeta`.
    Alphabeta(AlphaBetaSpec),
    /// `solver`.
    Solver {
        /// log2 of the table's entries.
        table_bits: u32,
    },
}

fn typed<T: serde::de::DeserializeOwned>(kind: &str, table: Table) -> Result<T, String> {
    Value::Table(table)
        .try_into::<T>()
        .map_err(|e| format!("strategy '{kind}': {}", e.to_string().trim()))
}

fn check_table_bits(kind: &str, bits: u32) -> Result<u32, String> {
    if (10..=26).contains(&bits) {
        Ok(bits)
    } else {
        Err(format!(
            "strategy '{kind}': table_bits = {bits} is out of range: use 10 to 26"
        ))
    }
}

impl StrategySpec {
    /// Reads a strategy from a TOML value: a table with `kind`, or a one-line spec string.
    pub fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(text) => Self::parse(text),
            Value::Table(table) => Self::from_table(table),
            other => Err(format!(
                "a strategy is a table such as {{ kind = \"greedy\" }} or a spec string such as \"alphabeta:depth=4\", not {}",
                other.type_str()
            )),
        }
    }

    /// Reads a strategy from a TOML table with a `kind` key.
    pub fn from_table(table: &Table) -> Result<Self, String> {
        let names = kind_names();
        let kind = match table.get("kind") {
            Some(Value::String(kind)) => kind.as_str(),
            Some(_) => return Err("`kind` must be a string such as \"greedy\"".to_string()),
            None => {
                return Err(format!(
                    "a strategy table needs `kind` (one of: {})",
                    names.join(", ")
                ))
            }
        };
        let info = KINDS
            .iter()
            .find(|k| k.name == kind)
            .ok_or_else(|| unknown_name("strategy", kind, &names))?;
        let mut rest = table.clone();
        rest.remove("kind");
        let known: Vec<&str> = info.params.iter().map(|p| p.name).collect();
        for key in rest.keys() {
            if !known.contains(&key.as_str()) {
                let message = if known.is_empty() {
                    format!("strategy '{kind}' takes no parameters, but '{key}' was given")
                } else {
                    unknown_name(&format!("parameter for strategy '{kind}':"), key, &known)
                };
                return Err(message);
            }
        }
        let spec = match kind {
            "random" => StrategySpec::Random,
            "greedy" => StrategySpec::Greedy,
            "corner-first" => StrategySpec::CornerFirst,
            "corner-edge" => StrategySpec::CornerEdge,
            "stability" => StrategySpec::Stability,
            "minimum-disc" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields, default)]
                #[derive(Default)]
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
                    Some(value) => {
                        Self::from_value(&value).map_err(|e| format!("parity base: {e}"))?
                    }
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
                StrategySpec::Eval(EvalSpec {
                    weights: typed(kind, rest)?,
                    squares: typed(kind, squares_table)?,
                })
            }
            "alphabeta" => {
                let eval = match rest.remove("eval") {
                    Some(value) => {
                        Self::from_value(&value).map_err(|e| format!("alphabeta eval: {e}"))?
                    }
                    None => StrategySpec::Weighted(WeightedSpec::default()),
                };
                if !eval.is_evaluation() {
                    return Err(format!(
                        "alphabeta eval: '{}' is not an evaluation: use weighted, mobility, stability, eval or greedy (disc count)",
                        eval.kind()
                    ));
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
                if p.depth == 0 || p.depth > 60 {
                    return Err(format!(
                        "strategy 'alphabeta': depth = {} is out of range: use 1 to 60",
                        p.depth
                    ));
                }
                if p.nodes == Some(0) {
                    return Err("strategy 'alphabeta': nodes = 0 leaves no budget: use at least 1, or leave it out".to_string());
                }
                StrategySpec::Alphabeta(AlphaBetaSpec {
                    depth: p.depth,
                    eval: Box::new(eval),
                    endgame: p.endgame,
                    nodes: p.nodes,
                    table: p.table,
                    ordering: p.ordering,
                    table_bits: check_table_bits(kind, p.table_bits)?,
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
                    table_bits: check_table_bits(kind, p.table_bits)?,
                }
            }
            _ => unreachable!("every name in KINDS has an arm"),
        };
        Ok(spec)
    }

    /// Parses a one-line spec: `kind` or `kind:key=value,key=value`. Values are
    /// TOML values (`4`, `true`, `"text"`, `[1, 2]`) or bare words; a nested
    /// strategy with parameters goes in parentheses: `eval=(weighted:preset=paip)`.
    /// A spec starting with `{` is read as a TOML inline table.
    pub fn parse(text: &str) -> Result<Self, String> {
        let table = parse_line(text.trim())?;
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
            StrategySpec::Eval(_) => "eval",
            StrategySpec::Alphabeta(_) => "alphabeta",
            StrategySpec::Solver { .. } => "solver",
        }
    }

    /// Whether the spec can serve as a search's evaluation.
    #[must_use]
    pub fn is_evaluation(&self) -> bool {
        matches!(
            self,
            StrategySpec::Weighted(_)
                | StrategySpec::Mobility { .. }
                | StrategySpec::Stability
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

    /// The evaluation this spec stands for, when it is one.
    /// NOTE: the kinds accepted here are those `build_alphabeta` dispatches on.
    pub fn build_evaluator<G: Geometry>(&self) -> Result<Box<dyn Evaluator<G>>, String> {
        Ok(match self {
            StrategySpec::Weighted(spec) => Box::new(spec.build(G::SIZE)?),
            StrategySpec::Mobility {
                normalised,
                potential,
                frontier,
            } => Box::new(MobilityEval {
                normalised: *normalised,
                potential: *potential,
                frontier: *frontier,
            }),
            StrategySpec::Stability => Box::new(StabilityEval),
            StrategySpec::Greedy => Box::new(DiscEval),
            StrategySpec::Eval(spec) => Box::new(build_feature_eval(spec, G::SIZE)?),
            other => {
                return Err(format!(
                    "'{}' is not an evaluation: use weighted, mobility, stability, eval or greedy",
                    other.kind()
                ))
            }
        })
    }

    /// The strategy for boards of geometry `G` under `rules`. Errors name what
    /// does not fit this board size.
    pub fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, String> {
        Ok(match self {
            StrategySpec::Random => Box::new(RandomMove),
            StrategySpec::Greedy => Box::new(Greedy),
            StrategySpec::CornerFirst => Box::new(CornerFirst),
            StrategySpec::CornerEdge => Box::new(CornerEdge),
            StrategySpec::MinimumDisc { endgame } => Box::new(MinimumDisc { endgame: *endgame }),
            StrategySpec::Weighted(spec) => Box::new(OnePly {
                eval: spec.build(G::SIZE)?,
            }),
            StrategySpec::Mobility { .. } | StrategySpec::Stability | StrategySpec::Eval(_) => {
                Box::new(OnePly {
                    eval: self.build_evaluator::<G>()?,
                })
            }
            StrategySpec::Parity { endgame, base } => Box::new(Parity {
                endgame: *endgame,
                base: base.build::<G>(rules)?,
            }),
            StrategySpec::Alphabeta(spec) => build_alphabeta::<G>(spec, rules)?,
            StrategySpec::Solver { table_bits } => Box::new(Solver {
                rules,
                table_bits: *table_bits,
            }),
        })
    }
}

/// An alpha-beta player monomorphised over its evaluation (measured: about 10%
/// faster than calling a boxed evaluation at every leaf).
fn build_alphabeta<G: Geometry>(
    spec: &AlphaBetaSpec,
    rules: Rules,
) -> Result<Box<dyn Strategy<G>>, String> {
    fn make<G: Geometry, E: Evaluator<G> + 'static>(
        spec: &AlphaBetaSpec,
        rules: Rules,
        eval: E,
    ) -> Box<dyn Strategy<G>> {
        Box::new(AlphaBeta {
            depth: spec.depth,
            eval,
            endgame: spec.endgame,
            nodes: spec.nodes,
            table: spec.table,
            ordering: spec.ordering,
            table_bits: spec.table_bits,
            rules,
            geometry: std::marker::PhantomData,
        })
    }
    // NOTE: the evaluation kinds here are those `build_evaluator` accepts.
    Ok(match spec.eval.as_ref() {
        StrategySpec::Weighted(weighted) => make::<G, _>(spec, rules, weighted.build(G::SIZE)?),
        StrategySpec::Mobility {
            normalised,
            potential,
            frontier,
        } => make::<G, _>(
            spec,
            rules,
            MobilityEval {
                normalised: *normalised,
                potential: *potential,
                frontier: *frontier,
            },
        ),
        StrategySpec::Stability => make::<G, _>(spec, rules, StabilityEval),
        StrategySpec::Greedy => make::<G, _>(spec, rules, DiscEval),
        StrategySpec::Eval(eval) => make::<G, _>(spec, rules, build_feature_eval(eval, G::SIZE)?),
        other => make::<G, _>(spec, rules, other.build_evaluator::<G>()?),
    })
}

fn build_feature_eval(spec: &EvalSpec, size: u32) -> Result<FeatureEval, String> {
    let table = if spec.weights.squares != 0.0 || spec.squares != SquaresSpec::default() {
        spec.squares.table(size)?
    } else {
        vec![0; (size * size) as usize]
    };
    Ok(FeatureEval {
        weights: spec.weights,
        squares: WeightedEval::new(table, false),
    })
}

/// Splits `text` at top-level occurrences of `sep` (outside (), [], {} and quotes).
fn split_top(text: &str, sep: char) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quote = !quote,
            '(' | '[' | '{' if !quote => depth += 1,
            ')' | ']' | '}' if !quote => depth -= 1,
            c if c == sep && depth == 0 && !quote => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return Err(format!("unbalanced brackets in strategy spec '{text}'"));
        }
    }
    if depth != 0 || quote {
        return Err(format!(
            "unbalanced brackets or quotes in strategy spec '{text}'"
        ));
    }
    parts.push(&text[start..]);
    Ok(parts)
}

fn parse_line(text: &str) -> Result<Table, String> {
    if text.is_empty() {
        return Err(format!(
            "empty strategy spec: write a kind such as 'greedy' (known: {})",
            kind_names().join(", ")
        ));
    }
    if text.starts_with('{') {
        let wrapped: Table = toml::from_str(&format!("s = {text}")).map_err(|e| {
            format!(
                "strategy spec '{text}' is not a TOML inline table: {}",
                first_line(&e.to_string())
            )
        })?;
        return match wrapped.get("s") {
            Some(Value::Table(t)) => Ok(t.clone()),
            _ => Err(format!("strategy spec '{text}' is not a TOML inline table")),
        };
    }
    let (kind, params) = match text.split_once(':') {
        Some((kind, params)) => (kind.trim(), params),
        None => (text, ""),
    };
    let mut table = Table::new();
    table.insert("kind".to_string(), Value::String(kind.to_string()));
    if params.trim().is_empty() {
        return Ok(table);
    }
    for part in split_top(params, ',')? {
        let (key, value) = part.split_once('=').ok_or_else(|| {
            format!("strategy spec '{text}': '{}' should be key=value, as in alphabeta:depth=4,eval=mobility", part.trim())
        })?;
        let key = key.trim();
        let value = value.trim();
        let parsed = if let Some(inner) = value.strip_prefix('(').and_then(|v| v.strip_suffix(')'))
        {
            Value::Table(parse_line(inner.trim())?)
        } else {
            match toml::from_str::<Table>(&format!("v = {value}")) {
                Ok(mut t) => t.remove("v").unwrap_or(Value::String(value.to_string())),
                Err(_) => Value::String(value.to_string()),
            }
        };
        if table.insert(key.to_string(), parsed).is_some() {
            return Err(format!("strategy spec '{text}': '{key}' is given twice"));
        }
    }
    Ok(table)
}

fn first_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The listing printed by `reversi-lab strategies`.
#[must_use]
pub fn describe_kinds() -> String {
    let mut out = String::new();
    for kind in KINDS {
        writeln!(out, "{:<14} {}", kind.name, kind.help).ok();
        for param in kind.params {
            writeln!(
                out,
                "    {:<20} default {:<12} {}",
                param.name, param.default, param.help
            )
            .ok();
        }
    }
    writeln!(
        out,
        "\nIn config files: {{ kind = \"alphabeta\", depth = 4, eval = {{ kind = \"mobility\" }} }}\n\
         On the command line: alphabeta:depth=4,eval=mobility (nested parameters in parentheses: eval=(weighted:preset=paip))\n\
         Weighted presets: {}",
        PRESETS.join(", ")
    )
    .ok();
    out
}

/// Suggests the closest kind name, for other modules' messages.
#[must_use]
pub fn closest_kind(name: &str) -> Option<&'static str> {
    closest(name, KINDS.iter().map(|k| k.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size6, Size8};

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
        let err = StrategySpec::parse("greddy").unwrap_err();
        assert!(
            err.starts_with(
                "unknown strategy 'greddy' (did you mean 'greedy'? known: random, greedy"
            ),
            "{err}"
        );
        let err = StrategySpec::parse("alphabeta:depht=3").unwrap_err();
        assert!(
            err.contains("'depht'") && err.contains("did you mean 'depth'"),
            "{err}"
        );
        let err = StrategySpec::parse("greedy:depth=3").unwrap_err();
        assert!(err.contains("takes no parameters"), "{err}");
        let err = StrategySpec::parse("alphabeta:depth=0").unwrap_err();
        assert!(err.contains("depth = 0 is out of range"), "{err}");
        let err = StrategySpec::parse("alphabeta:depth=x").unwrap_err();
        assert!(err.contains("depth"), "{err}");
        let err = StrategySpec::parse("alphabeta:eval=random").unwrap_err();
        assert!(err.contains("not an evaluation"), "{err}");
        let err = StrategySpec::parse("weighted:preset=clasic").unwrap();
        assert!(err
            .build::<Size8>(Rules::default())
            .err()
            .unwrap()
            .contains("did you mean 'classic'"));
        let err = StrategySpec::parse("weighted:table=[1,2,3]").unwrap();
        let msg = err.build::<Size8>(Rules::default()).err().unwrap();
        assert!(
            msg.contains("has 3 weights but the 8x8 board needs 64"),
            "{msg}"
        );
        let classic = StrategySpec::parse("weighted:preset=classic").unwrap();
        assert!(classic
            .build::<Size6>(Rules::default())
            .err()
            .unwrap()
            .contains("8x8 table"));
        assert!(StrategySpec::parse("weighted")
            .unwrap()
            .build::<Size6>(Rules::default())
            .is_ok());
        let err = StrategySpec::parse("eval:mobilty=3").unwrap_err();
        assert!(err.contains("did you mean 'mobility'"), "{err}");
    }

    #[test]
    fn every_kind_parses_with_defaults_and_round_trips() {
        for kind in KINDS {
            let spec = StrategySpec::parse(kind.name).unwrap();
            assert_eq!(spec.kind(), kind.name);
            let table = spec.to_table();
            assert_eq!(
                StrategySpec::from_table(&table).unwrap(),
                spec,
                "{}",
                kind.name
            );
            spec.build::<Size8>(Rules::default()).unwrap();
        }
        assert!(describe_kinds().contains("minimum-disc"));
    }
}
