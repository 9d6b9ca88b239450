//! What can be wrong with a strategy description, as a type callers can match on;
//! the messages are the ones users see, so they name the fix.

use super::spec::{evaluation_names, kind_names, Noted, KINDS};
use super::weighted::PRESETS;
use crate::error::unknown_name;
use std::ops::RangeInclusive;

/// Why a strategy description could not be read or built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// A TOML value that is neither a table nor a spec string.
    #[error("a strategy is a table such as {{ kind = \"greedy\" }} or a spec string such as \"alphabeta:depth=4\", not {found}")]
    NotAStrategy {
        /// The TOML type that was given.
        found: &'static str,
    },
    /// A table without `kind`, with the key that was likely meant for it (`knd`).
    #[error("a strategy table needs `kind`{} (one of: {})", typo.as_ref().map(|t| format!(", not `{t}`")).unwrap_or_default(), kind_names().join(", "))]
    MissingKind {
        /// A key of the table a slip away from `kind`.
        typo: Option<String>,
    },
    /// A `kind` that is not a string.
    #[error("`kind` must be a string such as \"greedy\"")]
    KindNotString,
    /// A kind name not in [`KINDS`].
    #[error("{}", unknown_name("strategy", name, &kind_names()))]
    UnknownKind {
        /// The name given.
        name: String,
    },
    /// A parameter the kind does not take.
    #[error("{}", unknown_param(kind, name))]
    UnknownParam {
        /// The kind.
        kind: &'static str,
        /// The key given.
        name: String,
    },
    /// A strategy that could not finish a game in reasonable time.
    #[error("{0}")]
    Impractical(String),
    /// A parameter of the wrong type or shape, in serde's words.
    #[error("strategy '{kind}': {message}")]
    BadValue {
        /// The kind.
        kind: &'static str,
        /// What the deserialiser said.
        message: String,
    },
    /// A number outside what the strategy can use.
    #[error(
        "strategy '{kind}': {param} = {value} is out of range: use {}",
        range_words(accepted)
    )]
    OutOfRange {
        /// The kind.
        kind: &'static str,
        /// The parameter.
        param: &'static str,
        /// The value given.
        value: i64,
        /// The values allowed.
        accepted: RangeInclusive<i64>,
    },
    /// A fraction or exponent (`1e3`) where a whole number is needed.
    #[error(
        "strategy '{kind}': {param} = {value} {}",
        match whole {
            // A whole number written with a point or an exponent (`1e3`).
            Some(whole) => format!("is not written as a whole number: write it as one, such as {}", form.given(param, &whole.to_string())),
            None => format!(
                "is not a whole number: use {}",
                crate::strategy::param_info::whole_numbers(*accepted.start(), *accepted.end())
            ),
        }
    )]
    NotWhole {
        /// The kind.
        kind: &'static str,
        /// The parameter.
        param: &'static str,
        /// The value as given.
        value: String,
        /// The whole number it equals, when that is one the parameter takes.
        whole: Option<i64>,
        /// The values allowed.
        accepted: RangeInclusive<i64>,
        /// How the spec was written, for the example.
        form: Form,
    },
    /// A time of nothing (`time=0ms`).
    #[error("strategy '{kind}': {param} = {value} leaves no time: give each move more than 0, such as {}", form.given(param, &form.text("100ms")))]
    NoTime {
        /// The kind.
        kind: &'static str,
        /// The parameter.
        param: &'static str,
        /// The time as given.
        value: String,
        /// How the spec was written, for the example.
        form: Form,
    },
    /// A value its parameter's type does not read though its shape fits (a table's
    /// inner value): the parameter, its value and the form it takes, where one is found.
    #[error("strategy '{kind}': {}", match param {
        Some((name, value, Some(wanted))) => format!("{name} = {value} cannot be read: use {wanted}"),
        Some((name, value, None)) => format!("{name} = {value} cannot be read: `reversi-lab strategies` shows its form"),
        None => "its parameters cannot be read together: `reversi-lab strategies` shows each one's form".to_string(),
    })]
    Unreadable {
        /// The kind.
        kind: &'static str,
        /// The parameter, its value as shown, and what it takes in words.
        param: Option<(&'static str, String, Option<&'static str>)>,
    },
    /// A parameter's value that is not one of the names it takes.
    #[error("strategy '{kind}': {}", unknown_name(param, value, known))]
    UnknownValue {
        /// The kind.
        kind: &'static str,
        /// The parameter.
        param: &'static str,
        /// The value given.
        value: String,
        /// The names it takes.
        known: &'static [&'static str],
    },
    /// `pattern` on a board other than 8x8.
    #[error("strategy 'pattern' is fitted for 8x8 boards, not {size}x{size}: use {} on this board", evaluation_names(&["pattern"], Noted::Out))]
    PatternSize {
        /// The board size.
        size: u32,
    },
    /// `pattern:weights=FILE` naming a file that is not a weights file.
    #[error("strategy 'pattern': weights = {path} cannot be read ({reason}): give a file `reversi-lab fit-patterns` wrote, or leave weights out for the shipped ones")]
    PatternWeights {
        /// The file as given.
        path: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// `alphabeta` with `nodes = 0`, which could never search a node.
    #[error("strategy 'alphabeta': nodes = 0 leaves no budget: use at least 1, or leave it out")]
    NoNodes,
    /// `probcut` outside its range.
    #[error("strategy 'alphabeta': probcut = {value} is out of range: use 0 (off) up to 4 standard deviations, such as 1.5")]
    ProbCutRange {
        /// The value given.
        value: f64,
    },
    /// `probcut` over an evaluation its lines were not fitted to.
    #[error("strategy 'alphabeta': probcut's cut lines are fitted to the pattern evaluation, not '{eval}': use eval=pattern, or leave probcut out")]
    ProbCutEval {
        /// The evaluation's kind.
        eval: &'static str,
    },
    /// A strategy where an evaluation is needed.
    #[error("'{kind}' is not an evaluation: use {}", evaluation_names(&[], Noted::Bare))]
    NotAnEvaluation {
        /// The kind given.
        kind: &'static str,
    },
    /// A nested strategy that must be an evaluation (a search's `eval`) and is not. A
    /// variant of its own because, where users write it, `greedy` needs saying that it
    /// means the disc count.
    #[error("{within} {key}: '{found}' is not an evaluation: use {}", evaluation_names(&[], Noted::Said))]
    NestedNotAnEvaluation {
        /// The kind it is nested in.
        within: &'static str,
        /// The parameter.
        key: &'static str,
        /// The kind given.
        found: &'static str,
    },
    /// An error in a strategy nested inside another (`parity base`, `alphabeta eval`).
    // Not a `#[source]`: the message already includes it, and a chain printer would repeat it.
    #[error("{within} {key}: {error}")]
    Nested {
        /// The kind it is nested in.
        within: &'static str,
        /// The parameter that holds it.
        key: &'static str,
        /// What is wrong with it.
        error: Box<SpecError>,
    },
    /// Strategies nested deeper than [`MAX_NESTING`](crate::strategy::spec::MAX_NESTING).
    #[error("strategies are nested more than {limit} deep (a strategy in a strategy's eval, base, rollout, prior or value): nest at most {limit}")]
    TooDeep {
        /// The most levels accepted.
        limit: usize,
    },
    /// An empty one-line spec.
    #[error("empty strategy spec: write a kind such as 'greedy' (known: {})", kind_names().join(", "))]
    EmptySpec,
    /// A one-line spec whose brackets close more than they open.
    #[error("unbalanced brackets in strategy spec '{spec}'")]
    ExtraClosingBracket {
        /// The spec, or the part of it being read.
        spec: String,
    },
    /// A one-line spec with a bracket or quote left open.
    #[error("unbalanced brackets or quotes in strategy spec '{spec}'")]
    Unclosed {
        /// The spec, or the part of it being read.
        spec: String,
    },
    /// A spec starting with `{` that TOML cannot read as an inline table.
    #[error("strategy spec '{spec}' is not a TOML inline table: {problem}; write it as {{kind = \"alphabeta\", depth = 4}}, or as alphabeta:depth=4")]
    NotInlineTable {
        /// The spec.
        spec: String,
        /// What is wrong with it, as far as can be told.
        problem: InlineProblem,
    },
    /// A `key=value` part without `=`.
    #[error("strategy spec '{spec}': '{part}' should be key=value, as in alphabeta:depth=4,eval=mobility")]
    NotKeyValue {
        /// The spec.
        spec: String,
        /// The part without `=`.
        part: String,
    },
    /// A kind's own one-line form written as a parameter (`engine:gtp:cat`).
    #[error(
        "strategy spec '{spec}': '{part}' is a whole spec of its own: write it alone, as {part}"
    )]
    LineFormInside {
        /// The spec.
        spec: String,
        /// The one-line form inside it.
        part: String,
    },
    /// A key given twice in one spec.
    #[error("strategy spec '{spec}': '{key}' is given twice")]
    RepeatedKey {
        /// The spec.
        spec: String,
        /// The key.
        key: String,
    },
    /// More than one of `preset`, `classes` and `table`.
    #[error("give only one of `preset`, `classes` and `table`")]
    SeveralTables,
    /// A table given as rows that are not `size` rows of `size`.
    #[error(
        "the weight table must have {size} rows of {size} weights for the {size}x{size} board"
    )]
    TableRows {
        /// The board size.
        size: u32,
    },
    /// A flat table of the wrong length.
    #[error("the weight table has {len} weights but the {size}x{size} board needs {} (or {size} rows of {size})", size * size)]
    TableLength {
        /// The number of weights given.
        len: usize,
        /// The board size.
        size: u32,
    },
    /// An 8x8 preset on another board size.
    #[error("weighted preset '{name}' is an 8x8 table and the board is {size}x{size}: use `classes` (square classes for any size), preset 'explorer', or a {size}x{size} `table`")]
    PresetSize {
        /// The preset.
        name: &'static str,
        /// The board size.
        size: u32,
    },
    /// A preset name that is not built in.
    #[error("{}", unknown_name("weighted preset", name, &PRESETS))]
    UnknownPreset {
        /// The name given.
        name: String,
    },
}

/// How a spec was written: its examples are given in the same form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// One line, `alphabeta:depth=4,time=100ms`.
    Line,
    /// A TOML table, `{ kind = "alphabeta", depth = 4, time = "100ms" }`.
    Table,
}

impl Form {
    /// `key=value` or `key = value`.
    #[must_use]
    pub fn given(self, key: &str, value: &str) -> String {
        match self {
            Form::Line => format!("{key}={value}"),
            Form::Table => format!("{key} = {value}"),
        }
    }

    /// Text as a value: bare on a line, in quotes in a table.
    #[must_use]
    pub fn text(self, text: &str) -> String {
        match self {
            Form::Line => text.to_string(),
            Form::Table => toml::Value::String(text.to_string()).to_string(),
        }
    }
}

/// What is wrong with a spec written as a TOML inline table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InlineProblem {
    /// A bracket, brace or quote left open.
    #[error("a bracket or quote is left open")]
    Unclosed,
    /// Text after the closing `}`.
    #[error("'{0}' follows its closing brace")]
    TextAfter(String),
    /// An entry without `=`.
    #[error("'{0}' should be key = value")]
    NotKeyValue(String),
    /// A value TOML does not read (a bare word, say).
    #[error(
        "the value of {key} ('{value}') is no TOML value (a word goes in quotes: \"{value}\")"
    )]
    BadValue {
        /// Its key.
        key: String,
        /// The value as written.
        value: String,
    },
    /// A key given twice.
    #[error("{0} is given twice")]
    RepeatedKey(String),
    /// None of the above: TOML stops reading at this part of the text.
    #[error("TOML cannot read it from '{0}' on (is a key no plain name? put it in quotes)")]
    From(String),
}

impl SpecError {
    /// This error as one about a spec written as a TOML table (its examples in that
    /// form). A strategy nested in it says its own form.
    #[must_use]
    pub fn in_table(mut self) -> Self {
        if let SpecError::NotWhole { form, .. } | SpecError::NoTime { form, .. } = &mut self {
            *form = Form::Table;
        }
        self
    }

    /// This error inside the strategy held by `within`'s parameter `key`.
    #[must_use]
    pub fn within(self, within: &'static str, key: &'static str) -> Self {
        // Said once, not once a level.
        if let SpecError::TooDeep { .. } = self {
            return self;
        }
        SpecError::Nested {
            within,
            key,
            error: Box::new(self),
        }
    }
}

/// `1 to 60`, or `at least 1` for a range without a practical end.
fn range_words(accepted: &RangeInclusive<i64>) -> String {
    if crate::strategy::param_info::no_practical_end(*accepted.end()) {
        format!("at least {}", accepted.start())
    } else {
        format!("{} to {}", accepted.start(), accepted.end())
    }
}

fn unknown_param(kind: &str, name: &str) -> String {
    let known: Vec<&str> = KINDS
        .iter()
        .find(|k| k.name == kind)
        .map(|k| k.params.iter().map(|p| p.name).collect())
        .unwrap_or_default();
    if known.is_empty() {
        format!("strategy '{kind}' takes no parameters, but '{name}' was given")
    } else {
        unknown_name(&format!("parameter for strategy '{kind}':"), name, &known)
    }
}

impl From<SpecError> for crate::error::Error {
    /// A bad strategy is bad input: the user fixes the description.
    fn from(error: SpecError) -> Self {
        crate::error::Error::Input(error.to_string())
    }
}
