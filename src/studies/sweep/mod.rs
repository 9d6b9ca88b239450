//! `reversi-lab sweep`: one parameter of a strategy over a list of values, every
//! variant rated in one Bradley-Terry fit over all the games, beside what its moves cost.

pub mod report;
mod values;

use crate::error::{closest, Error, Result, Source};
use crate::lab::config::read_config;
use crate::lab::cost::{read_costs, COSTS_FILE};
use crate::lab::experiment::check_games_per_pair;
use crate::lab::folder::write_atomically;
use crate::lab::rows::{csv_bytes, ResumeGiven};
use crate::lab::{Experiment, Format, ResultsFolder, RunOptions, Setup, StandingRow};
use crate::strategy::spec::{ParamPath, ParamValue, PathError};
use crate::strategy::StrategySpec;
use crate::studies::sharded::{self, Part, Played};
use serde::{Deserialize, Serialize};
use std::path::Path;
use toml::{Spanned, Value};
use values::Range;
pub use values::{Scale, SweepValue};

/// The file a sweep writes next to the usual results: one row per variant.
pub const SWEEP_FILE: &str = "sweep.csv";

/// A sweep file's own keys; the shared setup (board, openings, seed, threads) sits beside them.
#[derive(Deserialize)]
struct SweepFile {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    games_per_pair: Option<u64>,
    sweep: Spanned<SweepTable>,
}

/// The `[sweep]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepTable {
    /// The strategy whose parameter varies.
    base: Spanned<Value>,
    /// The parameter, dotted for a nested strategy's (`eval.mobility`).
    parameter: Spanned<String>,
    /// The values, in increasing order.
    #[serde(default)]
    values: Option<Spanned<Vec<Value>>>,
    /// Or values spread between two ends.
    #[serde(default)]
    range: Option<Spanned<Range>>,
    /// How the values are spaced: the charts' axis and what a step's gain is per.
    #[serde(default)]
    scale: Scale,
    /// Whom each variant plays.
    #[serde(default)]
    plays: Plays,
    /// The fixed opponents of `plays = "panel"`: one-line specs, or `{ name, strategy }`.
    #[serde(default)]
    panel: Vec<Spanned<Value>>,
}

/// Whom each variant plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Plays {
    /// Every other variant.
    #[default]
    RoundRobin,
    /// A fixed panel of other strategies (and not each other).
    Panel,
    /// The variants next to it in the list (the value below and the value above).
    Neighbours,
}

/// One variant of the base strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Its player name (`depth=3`).
    pub name: String,
    /// The parameter's value.
    pub value: SweepValue,
}

/// A sweep, validated: the experiment it plays and its variants in increasing order.
#[derive(Debug)]
pub struct Sweep {
    /// The games: the variants (first, in order) and any panel.
    pub experiment: Experiment,
    /// The parameter, as the file names it.
    pub parameter: String,
    /// How the values are spaced.
    pub scale: Scale,
    /// The variants.
    pub variants: Vec<Variant>,
}

/// Where a swept value goes in an engine's command.
const PLACE: &str = "{}";

/// The swept parameter of `spec`, checked: it must be one the strategy declares
/// and hold a value, not a nested strategy or a table. Errors say what is wrong
/// with the path and which parameters exist.
fn swept(spec: &StrategySpec, path: &str) -> std::result::Result<ParamPath, String> {
    let parameter = ParamPath::parse(spec, path).map_err(|e| match e {
        PathError::NoSuchParam { kind, name, params } => no_such_parameter(kind, &name, &params),
        PathError::NotAStrategy { walked, kind } => format!(
            "`{walked}` of {kind} is not a strategy with parameters of its own: name one of {kind}'s parameters"
        ),
    })?;
    // A Python callable's `params` are its keyword arguments, each a parameter of its
    // own; other tables' entries (a weighted table's classes) are not swept one by one.
    let python = parameter.kind()
        == <crate::strategy::python::PythonSpec as crate::strategy::kind::Kind>::NAME;
    if parameter.is_entry() && !python {
        let walked = path.rsplit_once('.').map_or(path, |(head, _)| head);
        return Err(format!(
            "`{walked}` of {} is not a strategy with parameters of its own: name one of {}'s parameters",
            parameter.kind(),
            parameter.kind()
        ));
    }
    if matches!(
        parameter.get(spec),
        Some(ParamValue::Strategy(_) | ParamValue::Other(Value::Table(_)))
    ) {
        return Err(format!(
            "`{path}` is a strategy, not a number: sweep one of its parameters, such as `{path}.<name>` (see `reversi-lab strategies`)"
        ));
    }
    Ok(parameter)
}

/// "alphabeta has no parameter `dept` (did you mean `depth`? ...)".
fn no_such_parameter(kind: &str, key: &str, names: &[&str]) -> String {
    if names.is_empty() {
        return format!("strategy '{kind}' has no parameters to sweep: choose a base that has (see `reversi-lab strategies`)");
    }
    let hint = closest(key, names.iter().copied())
        .map(|best| format!("did you mean `{best}`? "))
        .unwrap_or_default();
    format!(
        "strategy '{kind}' has no parameter `{key}` ({hint}its parameters: {}; a nested strategy's as eval.<name>)",
        names.join(", ")
    )
}

/// A panel entry as a player: a one-line spec names itself; a table gives `name` and `strategy`.
fn panel_player(entry: &Value, base: &Path) -> std::result::Result<(String, StrategySpec), String> {
    let (name, strategy) = crate::studies::named_strategy(entry, "panel entry")?;
    StrategySpec::from_value_in(strategy, base)
        .map(|spec| (name.clone(), spec))
        .map_err(|e| format!("panel '{name}': {e}"))
}

impl Sweep {
    /// Reads and validates a sweep file.
    pub fn load(path: &Path) -> Result<Self> {
        crate::lab::config::load(path, Self::parse)
    }

    /// Validates sweep text; `origin` names it in errors and `base` is the folder
    /// relative paths start from.
    pub fn parse(text: &str, origin: &str, base: &Path) -> Result<Self> {
        let source = Source::new(origin, text);
        let file = read_config::<SweepFile>(&source)?;
        let in_file = |e: Error| crate::lab::config::in_file(&source, e);
        let setup = Setup::from_file(&file.setup, base).map_err(in_file)?;
        let own = file.own;
        let sweep_at = own.sweep.span().start;
        let sweep = own.sweep.into_inner();
        let at = |span: usize, message: String| source.error(Some(span), &message);
        let base_at = sweep.base.span().start;
        let spec = StrategySpec::from_value_in(sweep.base.get_ref(), base)
            .map_err(|e| at(base_at, format!("base: {e}")))?;
        let parameter_at = sweep.parameter.span().start;
        let parameter = sweep.parameter.into_inner();
        let path =
            swept(&spec, &parameter).map_err(|m| at(parameter_at, format!("parameter: {m}")))?;
        let current = path.get(&spec);
        let float = matches!(current, Some(ParamValue::Decimal(_)));
        // An engine's command-line argument: the value goes where the command says `{}`.
        let command = match current {
            Some(ParamValue::Words(words)) if path.last() == "command" => Some(words),
            _ => None,
        };
        if command
            .as_ref()
            .is_some_and(|words| !words.iter().any(|w| w.contains(PLACE)))
        {
            return Err(at(
                parameter_at,
                format!("parameter: to sweep an engine's argument, put {PLACE} in its command where the value goes, such as base = \"gtp:gtp-rhino -l {PLACE}\""),
            ));
        }
        let values = match (sweep.values, sweep.range) {
            (Some(values), None) => {
                let span = values.span().start;
                values::listed(values.get_ref()).map_err(|m| at(span, format!("values: {m}")))?
            }
            (None, Some(range)) => {
                let span = range.span().start;
                range
                    .get_ref()
                    .values(sweep.scale, float)
                    .map_err(|m| at(span, format!("range: {m}")))?
            }
            _ => {
                return Err(at(
                    sweep_at,
                    "[sweep] needs either values = [1, 2, 3] or range = { from = 1, to = 8, steps = 8 }, not both or neither".into(),
                ))
            }
        };
        values::check_scale(&values, sweep.scale).map_err(|m| at(sweep_at, m))?;
        let mut variants = Vec::new();
        let mut specs = Vec::new();
        for value in values {
            let value_now = match &command {
                Some(words) => ParamValue::Words(
                    words
                        .iter()
                        .map(|w| w.replace(PLACE, &value.to_string()))
                        .collect(),
                ),
                None => value.param(float),
            };
            let variant = path
                .set(&spec, value_now)
                .map_err(|e| at(parameter_at, format!("{parameter} = {value}: {e}")))?;
            specs.push(variant);
            variants.push(Variant {
                name: format!("{parameter}={value}"),
                value,
            });
        }
        let mut panel = Vec::new();
        for entry in &sweep.panel {
            let player =
                panel_player(entry.get_ref(), base).map_err(|m| at(entry.span().start, m))?;
            panel.push(player);
        }
        match (sweep.plays, panel.is_empty()) {
            (Plays::Panel, true) => {
                return Err(at(
                    sweep_at,
                    "plays = \"panel\" needs panel = [\"greedy\", ...]: the strategies every variant plays".into(),
                ))
            }
            (Plays::RoundRobin | Plays::Neighbours, false) => {
                return Err(at(
                    sweep_at,
                    "panel is only for plays = \"panel\": remove it, or set plays = \"panel\"".into(),
                ))
            }
            _ => {}
        }
        let description = own.description.unwrap_or_else(|| {
            format!(
                "sweep: {parameter} of {} over {} values",
                spec.kind(),
                variants.len()
            )
        });
        let mut builder = Experiment::builder(own.name, setup).description(description);
        builder = match sweep.plays {
            Plays::RoundRobin => builder.format(Format::RoundRobin),
            Plays::Neighbours => builder.format(Format::Neighbours),
            Plays::Panel => {
                let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
                builder.gauntlet(&names)
            }
        };
        if let Some(games) = own.games_per_pair {
            builder = builder.games_per_pair(games);
        }
        for (variant, spec) in variants.iter().zip(specs) {
            builder = builder.player(variant.name.clone(), spec);
        }
        for (name, spec) in panel {
            builder = builder.player(name, spec);
        }
        let experiment = builder.build().map_err(in_file)?;
        Ok(Sweep {
            experiment,
            parameter,
            scale: sweep.scale,
            variants,
        })
    }
}

/// One row of `sweep.csv`: one variant's strength and cost. Every column is
/// byte-identical whatever the thread count; time per move, which is not, is in
/// `costs.csv` (`ms_per_move`) under the same player name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    /// The variant's player name (`depth=3`).
    pub variant: String,
    /// The parameter swept (`depth`, `eval.mobility`).
    pub parameter: String,
    /// Its value in this variant (a whole number without `.0`, as the file gave it).
    #[serde(serialize_with = "as_written")]
    pub value: f64,
    /// `linear` or `log`: how the values are spaced.
    pub scale: Scale,
    /// Games the variant played.
    pub games: u64,
    /// Its score over them (draws half).
    #[serde(serialize_with = "crate::lab::rows::decimals::four")]
    pub score: Option<f64>,
    /// Its rating in the fit over all games (standings.csv's).
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub rating: Option<f64>,
    /// The rating's 95% interval, lower end.
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub rating_low: Option<f64>,
    /// The rating's 95% interval, upper end.
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub rating_high: Option<f64>,
    /// Rating over the previous variant's (empty for the first).
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub gain: Option<f64>,
    /// `gain` per step of the parameter: per unit on a linear scale (Elo per
    /// extra ply for depth), per doubling on a log scale.
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub gain_per_step: Option<f64>,
    /// Moves the variant chose (forced moves not counted).
    pub moves: u64,
    /// Nodes searched per move chosen (0 for a strategy that does not search).
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub nodes_per_move: Option<f64>,
    /// `gain` per doubling of nodes per move over the previous variant: what extra
    /// search buys, whatever the parameter (empty when either searches no node).
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub gain_per_node_doubling: Option<f64>,
}

/// The least change in nodes per move, in doublings (log2 of the ratio; 0.25 is 19%),
/// that a gain is divided by (`gain_per_node_doubling`), and the least spread over the
/// whole sweep that the cost chart is drawn for. Below it the parameter barely changes
/// the search's cost (a weight of the evaluation), and a gain divided by the change
/// is noise over almost nothing: -117,838 Elo a doubling for 55.9 to 55.8 nodes.
pub const MIN_COST_DOUBLINGS: f64 = 0.25;

/// Writes a parameter's value as people write it: `1`, not `1.0`; `0.5` stays.
fn as_written<S: serde::Serializer>(x: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{x}"))
}

/// The fewest and most nodes per move over the sweep, when every variant searches.
#[must_use]
pub fn cost_spread(rows: &[SweepRow]) -> Option<(f64, f64)> {
    let nodes: Option<Vec<f64>> = rows
        .iter()
        .map(|r| r.nodes_per_move.filter(|n| *n > 0.0))
        .collect();
    let nodes = nodes.filter(|n| !n.is_empty())?;
    let low = nodes.iter().copied().fold(f64::INFINITY, f64::min);
    let high = nodes.iter().copied().fold(0.0, f64::max);
    Some((low, high))
}

/// The rows of `sweep.csv` from the run's standings and costs.
pub fn rows(sweep: &Sweep, standings: &[StandingRow], dir: &Path) -> Result<Vec<SweepRow>> {
    let names: Vec<&str> = sweep.variants.iter().map(|v| v.name.as_str()).collect();
    let costs = read_costs(&dir.join(COSTS_FILE), &names)?;
    let mut rows: Vec<SweepRow> = Vec::new();
    for (variant, cost) in sweep.variants.iter().zip(costs) {
        let standing = standings
            .iter()
            .find(|s| s.player == variant.name)
            .ok_or_else(|| Error::internal(format!("no standing for {}", variant.name)))?;
        let value = variant.value.number();
        let previous = rows.last();
        let gain = previous.and_then(|p| Some(standing.rating? - p.rating?));
        let step = previous.map(|p| sweep.scale.steps(p.value, value));
        let nodes_per_move = cost.nodes_per_move();
        let doublings = previous.and_then(|p| {
            let (before, now) = (p.nodes_per_move?, nodes_per_move?);
            let doublings = Scale::Log.steps(before, now);
            (before > 0.0 && now > 0.0 && doublings.abs() >= MIN_COST_DOUBLINGS)
                .then_some(doublings)
        });
        rows.push(SweepRow {
            variant: variant.name.clone(),
            parameter: sweep.parameter.clone(),
            value,
            scale: sweep.scale,
            games: standing.games,
            score: standing.score,
            rating: standing.rating,
            rating_low: standing.rating_low,
            rating_high: standing.rating_high,
            gain,
            gain_per_step: gain.zip(step).map(|(g, s)| g / s),
            moves: cost.moves,
            nodes_per_move,
            gain_per_node_doubling: gain.zip(doublings).map(|(g, d)| g / d),
        });
    }
    Ok(rows)
}

/// Reads `sweep.csv` from a results folder, if it has one.
pub fn read_rows(dir: &Path) -> Result<Option<Vec<SweepRow>>> {
    let path = dir.join(SWEEP_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    crate::lab::rows::read_rows(&path).map(Some)
}

/// Runs the sweep (or one shard of it, or merges its shards, as `part` says) and
/// writes `sweep.csv` next to the usual results once the games are whole (the report,
/// drawn by the caller, adds its charts). `games` and `threads` override the file.
pub fn sweep(
    path: &Path,
    games: Option<u64>,
    threads: Option<usize>,
    options: &RunOptions<'_>,
    part: Part,
) -> Result<(Played, Vec<SweepRow>)> {
    let mut sweep = Sweep::load(path)?;
    if options.resume {
        // As `run --resume` does: the threads the sweep was started with, unless given
        // again.
        let shard = match part {
            Part::Shard(shard) => Some(shard),
            _ => None,
        };
        let out = sharded::folder(&sweep.experiment, options.out.as_deref(), shard)?;
        if let Some(record) = ResultsFolder::at(&out).record_if_any()? {
            record.resume_settings(
                &mut sweep.experiment,
                ResumeGiven {
                    // The sweep file is always given again: its games and seed stand,
                    // and a change in them is refused by the run, naming the field.
                    games: true,
                    seed: true,
                    threads: threads.is_some(),
                },
            );
        }
    }
    if let Some(games) = games {
        sweep.experiment.games_per_pair =
            check_games_per_pair(games, &crate::lab::experiment::GAMES_PER_PAIR)?;
    }
    if let Some(threads) = threads {
        sweep.experiment.setup.threads = Some(crate::lab::setup::check_threads(
            threads,
            &crate::lab::setup::THREADS,
        )?);
    }
    // The sweep's own file is written under the run's lock, through the one write path.
    let played = sharded::play(
        &sweep.experiment,
        options,
        part,
        crate::lab::shard::Study::Sweep,
    )?;
    if !played.whole {
        return Ok((played, Vec::new()));
    }
    let rows = rows(&sweep, &played.standings, &played.out)?;
    let csv_path = played.out.join(SWEEP_FILE);
    write_atomically(&csv_path, &csv_bytes(&rows, &csv_path)?)?;
    Ok((played, rows))
}

#[cfg(test)]
mod tests;
